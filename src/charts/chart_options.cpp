// Reads the page's chart options: the model's strict JSON reader for the text, then every field checked by
// hand so a wrong type or an unknown key is a named error, never an exception.
#include "charts/chart_options.h"

#include <cmath>
#include <string>

#include "base/json_reader.h"
#include "base/text.h"
#include "model/params.h"
#include "roofline/sweep.h"

namespace tierscope::model {

namespace {

using Json = json::Value;

constexpr std::size_t kMaxOptionsBytes = 16384;
constexpr std::size_t kMaxValues = 256;
constexpr std::size_t kMaxFamily = 8;

// A short, markup-free echo of a JSON value for a message.
std::string shown(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  return v.dump();
}

// A list of values as parameter text: numbers exactly, strings as they are.
bool value_list(const Json& v, const char* field, std::size_t max, std::vector<std::string>& out, Errors& errors) {
  if (!v.is_array() || v.empty() || v.size() > max) {
    errors.push_back(make_error(v.is_array() ? ErrorCode::OutOfRange : ErrorCode::WrongType, field, shown(v),
                                "an array of 1 to " + std::to_string(max) + " numbers or parameter values"));
    return false;
  }
  std::vector<std::string> list;
  for (const Json& x : v) {
    if (x.is_number() && std::isfinite(x.get<double>())) list.push_back(num_exact(x.get<double>()));
    else if (x.is_string() && !x.get<std::string>().empty() && x.get<std::string>().size() <= 64) list.push_back(x.get<std::string>());
    else {
      errors.push_back(make_error(ErrorCode::WrongType, field, shown(x), "finite numbers or parameter values of at most 64 characters"));
      return false;
    }
  }
  out = std::move(list);
  return true;
}

bool key_text(const Json& v, const char* field, std::string& out, Errors& errors) {
  if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 64) {
    errors.push_back(make_error(ErrorCode::WrongType, field, shown(v), "a name of at most 64 characters"));
    return false;
  }
  out = v.get<std::string>();
  return true;
}

// {"from", "to", "points", "log"} → values through axis_values (the x key must be numeric).
bool value_range(const Json& v, const std::string& x_key, std::vector<std::string>& out, Errors& errors) {
  double from = 0, to = 0;
  int points = 24;
  bool log = false, ok = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    const Json& x = it.value();
    if (k == "from" || k == "to") {
      if (!x.is_number() || !std::isfinite(x.get<double>())) {
        errors.push_back(make_error(ErrorCode::WrongType, "values." + k, shown(x), "a finite number"));
        ok = false;
      } else (k == "from" ? from : to) = x.get<double>();
    } else if (k == "points") {
      if (!x.is_number_integer() || x.get<long long>() < 2 || x.get<long long>() > static_cast<long long>(kMaxValues)) {
        errors.push_back(make_error(ErrorCode::OutOfRange, "values.points", shown(x), "an integer from 2 to 256"));
        ok = false;
      } else points = static_cast<int>(x.get<long long>());
    } else if (k == "log") {
      if (!x.is_boolean()) {
        errors.push_back(make_error(ErrorCode::WrongType, "values.log", shown(x), "true or false"));
        ok = false;
      } else log = x.get<bool>();
    } else {
      errors.push_back(make_error(ErrorCode::UnknownKey, "values." + k, shown(x), "from, to, points, log"));
      ok = false;
    }
  }
  if (!v.contains("from") || !v.contains("to")) {
    errors.push_back(make_error(ErrorCode::MissingField, "values", "a range without from and to", "{from, to, points, log}"));
    ok = false;
  }
  if (!ok) return false;
  const ParamDef* p = find_param(x_key);
  if (!p) {
    errors.push_back(make_error(ErrorCode::UnknownKey, "x", x_key, "a scenario parameter (see `tierscope params`)"));
    return false;
  }
  Error err;
  std::vector<std::string> values = axis_values(*p, from, to, points, log, err);
  if (values.empty()) {
    errors.push_back(err);
    return false;
  }
  out = std::move(values);
  return true;
}

}  // namespace

bool chart_options_from_json(ChartKind kind, std::string_view json, ChartOptions& out, Errors& errors) {
  const std::size_t before = errors.size();
  if (json.size() > kMaxOptionsBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "options", std::to_string(json.size()) + " bytes",
                                "at most " + std::to_string(kMaxOptionsBytes) + " bytes"));
    return false;
  }
  model::json::Document doc;
  const bool parsed = doc.parse(json.empty() ? std::string_view("{}") : json);
  const Json& j = doc.root();
  if (!parsed || !(j.is_object() || j.is_null())) {
    errors.push_back(make_error(ErrorCode::WrongType, "options", !parsed ? "not JSON" : shown(j), "an object"));
    return false;
  }
  ChartOptions o;
  const bool sweep = kind == ChartKind::Sweep;
  const Json* range = nullptr;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      const Json& v = it.value();
      if ((k == "x" || k == "values" || k == "family" || k == "familyValues" || k == "figure") && !sweep) {
        errors.push_back(make_error(ErrorCode::BadSyntax, k, shown(v), std::string("only with the sweep chart (this is ") + chart_key(kind) + ")"));
      } else if (k == "figure") key_text(v, "figure", o.figure, errors);
      else if (k == "x") key_text(v, "x", o.x_key, errors);
      else if (k == "family") key_text(v, "family", o.family_key, errors);
      else if (k == "values") {
        if (v.is_object()) range = &v;
        else value_list(v, "values", kMaxValues, o.x_values, errors);
      } else if (k == "familyValues") value_list(v, "familyValues", kMaxFamily, o.family_values, errors);
      else if (k == "points") {
        if (!v.is_number_integer() || v.get<long long>() < 2 || v.get<long long>() > static_cast<long long>(kMaxValues))
          errors.push_back(make_error(ErrorCode::OutOfRange, "points", shown(v), "an integer from 2 to 256"));
        else o.points = static_cast<int>(v.get<long long>());
      } else {
        errors.push_back(make_error(ErrorCode::UnknownKey, k, shown(v), "figure, x, values, family, familyValues, points"));
      }
    }
  }
  if (range && errors.size() == before) value_range(*range, o.x_key.empty() ? std::string("batch") : o.x_key, o.x_values, errors);
  if (!o.family_key.empty() && o.family_values.empty() && errors.size() == before)
    errors.push_back(make_error(ErrorCode::MissingField, "familyValues", "", "the values of " + o.family_key + ", one line each (1 to 8)"));
  if (errors.size() != before) return false;
  out = std::move(o);
  return true;
}

}  // namespace tierscope::model
