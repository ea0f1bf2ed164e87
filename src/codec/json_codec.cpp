// JSON codec: serializer by hand (small, exact), parser on the model's strict JSON reader.
#include "codec/json_codec.h"

#include <string>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

namespace {

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Real: return "a number";
    case ParamKind::Int: return "an integer";
    case ParamKind::Enum: return "a string";
    case ParamKind::Text: return "a string";
  }
  return "a value";
}

std::string short_dump(const json::Value& j) { return j.dump(true); }

std::string group_keys(ParamGroup g) {
  std::string s;
  for (const ParamDef& p : params()) {
    if (p.group != g) continue;
    if (!s.empty()) s += ", ";
    s += p.key;
  }
  return s;
}

}  // namespace

bool scenario_equal(const Scenario& a, const Scenario& b) {
  if (a.preset != b.preset) return false;
  for (const ParamDef& p : params()) {
    if (!param_equal(a, b, p)) return false;
  }
  return true;
}

std::string scenario_to_json(const Scenario& s) {
  JsonWriter w;
  // Every key is written, so a loaded file's scenario names the preset it kept and reads back the same.
  w.object(json_lines(2)).str("preset", base_preset_name(s));
  const ParamGroup groups[] = {ParamGroup::Model, ParamGroup::Hardware, ParamGroup::Layout, ParamGroup::Workload, ParamGroup::Fleet};
  for (ParamGroup g : groups) {
    w.object(param_group_name(g), json_lines(4));
    for (const ParamDef& p : params()) {
      if (p.group != g) continue;
      const std::string v = get_param_text(s, p);
      w.key(p.key);
      if (p.kind == ParamKind::Real || p.kind == ParamKind::Int) w.raw(v);  // the registry's exact number text
      else w.str(v);
    }
    w.end();
  }
  return w.end().newline().take();
}

bool scenario_from_json(std::string_view text, Scenario& out, Errors& errors) {
  errors.clear();
  if (text.size() > kMaxJsonBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "json", std::to_string(text.size()) + " bytes",
                                "at most " + std::to_string(kMaxJsonBytes) + " bytes"));
    return false;
  }
  // Duplicate keys are silently merged by JSON libraries; the reader reports each repeat per object.
  std::vector<std::string> duplicates;
  json::Document doc;
  const bool parsed = doc.parse(text, &duplicates);
  const json::Value& j = doc.root();
  if (!parsed) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "json", text.substr(0, 40), "a JSON object"));
    return false;
  }
  for (const std::string& k : duplicates) {
    errors.push_back(make_error(ErrorCode::DuplicateKey, k, k, "each key once per object"));
  }
  if (!j.is_object()) {
    errors.push_back(make_error(ErrorCode::WrongType, "json", short_dump(j), "a JSON object"));
    return false;
  }

  // The base preset first, so overrides apply on top of it whatever the key order.
  Scenario s;
  std::string preset = kDefaultPreset;
  if (auto it = j.find("preset"); it != j.end()) {
    if (!it->is_string()) {
      errors.push_back(make_error(ErrorCode::WrongType, "preset", short_dump(*it), "a preset name string"));
    } else {
      preset = it->get<std::string>();
    }
  }
  if (!make_preset(preset, s)) {
    errors.push_back(make_error(ErrorCode::UnknownPreset, "preset", preset, preset_names_allowed()));
    return false;
  }

  const ParamGroup groups[] = {ParamGroup::Model, ParamGroup::Hardware, ParamGroup::Layout, ParamGroup::Workload, ParamGroup::Fleet};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& top = it.key();
    if (top == "preset") continue;
    const ParamGroup* group = nullptr;
    for (const ParamGroup& g : groups) {
      if (top == param_group_name(g)) group = &g;
    }
    if (!group) {
      errors.push_back(make_error(ErrorCode::UnknownKey, top, top, "preset, model, hardware, layout, workload, fleet"));
      continue;
    }
    if (!it->is_object()) {
      errors.push_back(make_error(ErrorCode::WrongType, top, short_dump(*it), "an object"));
      continue;
    }
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      const std::string field = top + "." + kv.key();
      const ParamDef* p = find_param(kv.key());
      if (!p || p->group != *group) {
        errors.push_back(make_error(ErrorCode::UnknownKey, field, kv.key(), group_keys(*group)));
        continue;
      }
      const json::Value& val = kv.value();
      Error e;
      bool ok = false;
      if (p->kind == ParamKind::Real || p->kind == ParamKind::Int) {
        if (!val.is_number()) {
          e = make_error(ErrorCode::WrongType, field, short_dump(val), std::string(kind_name(p->kind)) + ": " + param_allowed(*p));
        } else {
          ok = set_param_number(s, *p, val.get<double>(), e);
        }
      } else if (!val.is_string()) {
        e = make_error(ErrorCode::WrongType, field, short_dump(val), std::string(kind_name(p->kind)) + ": " + param_allowed(*p));
      } else {
        ok = set_param_text(s, *p, val.get<std::string>(), e);
      }
      if (!ok) {
        e.field = field;
        errors.push_back(e);
      }
    }
  }
  if (!errors.empty()) return false;
  Errors cross = validate(s);
  if (!cross.empty()) {
    errors = std::move(cross);
    return false;
  }
  out = std::move(s);
  return true;
}

}  // namespace tierscope::model
