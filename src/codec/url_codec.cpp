// URL hash codec: strict character checks, minimal output, exact round trip through the param registry.
#include "codec/url_codec.h"

#include "base/text.h"
#include "model/model_names.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

namespace {

bool is_markup(char c) {
  return c == '<' || c == '>' || c == '"' || c == '\'' || c == '`' || c == '(' || c == ')' || c == '{' ||
         c == '}' || c == ';' || c == '\\';
}
bool key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool value_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '+' || c == ':' || c == ',';
}

// Returns false and records an error if `text` holds a character outside the allowed set.
bool check_chars(std::string_view field, std::string_view text, bool is_key, Errors& errors) {
  for (char c : text) {
    if (is_key ? key_char(c) : value_char(c)) continue;
    if (is_markup(c)) {
      errors.push_back(make_error(ErrorCode::Markup, field, text, "no markup or script characters ( < > \" ' ` ( ) { } ; \\ )"));
    } else {
      errors.push_back(make_error(ErrorCode::BadSyntax, field, text,
                                  is_key ? "keys of a-z, 0-9 and _" : "values of A-Z, a-z, 0-9 and . _ - + : ,"));
    }
    return false;
  }
  return true;
}

}  // namespace

bool split_hash(std::string_view hash, std::vector<UrlPair>& pairs, Errors& errors) {
  pairs.clear();
  if (hash.size() > kMaxHashBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "hash", std::to_string(hash.size()) + " bytes",
                                "at most " + std::to_string(kMaxHashBytes) + " bytes"));
    return false;
  }
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  const std::size_t before = errors.size();
  for (const std::string_view item : split(hash, '&')) {
    if (item.empty()) continue;  // tolerate "a=1&&b=2" and a trailing '&'
    const std::size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (key.empty()) {
      errors.push_back(make_error(ErrorCode::BadSyntax, "hash", item, "key=value pairs joined by &"));
      continue;
    }
    if (!check_chars("hash", key, true, errors)) continue;
    if (!check_chars(key, value, false, errors)) continue;
    bool repeated = false;
    for (const UrlPair& p : pairs) repeated = repeated || p.key == key;
    if (repeated) {
      errors.push_back(make_error(ErrorCode::DuplicateKey, key, value, "each key once"));
      continue;
    }
    pairs.push_back(UrlPair{key, value});
  }
  return errors.size() == before;
}

namespace {

// The keys the link names, as registry entries (view keys and unknown keys left out).
bool named(std::span<const UrlPair> pairs, std::string_view key) {
  for (const UrlPair& p : pairs) {
    if (p.key == key) return true;
  }
  return false;
}

// The reason of the last move of `field` among `moves` (an edit's rule, or the layout fitted to the model).
std::string last_why(const Adjustments& moves, std::string_view field) {
  for (auto a = moves.rbegin(); a != moves.rend(); ++a)
    if (a->field == field) return a->why;
  return "";
}

// Completes a hand-written link: replays its keys over the preset as a person would set them (dependents
// follow, as edit_param moves them), then sets the named keys again as the link gives them, so only fields
// the link leaves out have moved. The replay runs in the registry's order, so a layout may have followed a GPU
// count before the link's own model keys arrived: it is then fitted to the model the link names
// (fit_layout), and the named keys set once more. True when the result holds together; `moved` lists each
// field that ended away from the preset's value, once, with the reason of its last move.
bool complete_link(std::span<const UrlPair> pairs, const Scenario& preset, const Scenario& given, Scenario& out, Adjustments& moved) {
  Scenario s = preset;
  Adjustments all;
  for (const ParamDef& def : params()) {
    if (!named(pairs, def.key)) continue;
    Error e;
    edit_param(s, def, get_param_text(given, def), all, e);
  }
  const auto set_named = [&] {
    for (const ParamDef& def : params()) {
      if (!named(pairs, def.key)) continue;
      Error e;
      set_param_text(s, def, get_param_text(given, def), e);
    }
  };
  set_named();
  if (!validate(s).empty()) {
    fit_layout(s, all);
    set_named();
    if (!validate(s).empty()) return false;
  }
  for (const ParamDef& def : params()) {
    if (named(pairs, def.key) || param_equal(s, given, def)) continue;
    moved.push_back({def.key, get_param_text(given, def), get_param_text(s, def), last_why(all, def.key)});
  }
  out = std::move(s);
  return true;
}

}  // namespace

bool scenario_from_pairs(std::span<const UrlPair> pairs, Scenario& out, Errors& errors, Adjustments* moved) {
  const std::size_t before = errors.size();
  std::string_view preset = kDefaultPreset, model_name;
  for (const UrlPair& p : pairs) {
    if (p.key == "preset") preset = p.value;
    if (p.key == "model") model_name = p.value;
  }
  // `model=NAME`: the model the link's keys describe, a loaded config.json's (scenario_to_hash).
  if (!model_name.empty() && !model_name_ok(model_name)) {
    errors.push_back(make_error(model_name.size() > kMaxModelName ? ErrorCode::OutOfRange : ErrorCode::BadSyntax, "model", model_name, model_name_allowed()));
    return false;
  }
  const auto named_model = [&](Scenario& s) {
    if (!model_name.empty()) name_loaded_model(s, model_name);
  };
  Scenario s;
  if (!make_preset(preset, s)) {
    errors.push_back(make_error(ErrorCode::UnknownPreset, "preset", preset, preset_names_allowed()));
    return false;
  }
  for (const UrlPair& p : pairs) {
    if (p.key == "preset" || p.key == "model") continue;
    const ParamDef* def = find_param(p.key);
    if (!def) {
      errors.push_back(make_error(ErrorCode::UnknownKey, p.key, p.value, "preset, model or a scenario parameter (see `tierscope params`)"));
      continue;
    }
    Error e;
    if (!set_param_text(s, *def, p.value, e)) errors.push_back(e);
  }
  if (errors.size() != before) return false;
  Errors cross = validate(s);
  if (!cross.empty()) {
    // Contradictions only with fields the link leaves out: let those follow, as an edit would move them.
    bool only_unnamed = true;
    for (const Error& e : cross) only_unnamed = only_unnamed && !named(pairs, e.field);
    Scenario base, completed;
    Adjustments follow;
    if (only_unnamed && make_preset(preset, base) && complete_link(pairs, base, s, completed, follow)) {
      if (moved) moved->insert(moved->end(), follow.begin(), follow.end());
      named_model(completed);
      out = std::move(completed);
      return true;
    }
    errors.insert(errors.end(), cross.begin(), cross.end());
    return false;
  }
  named_model(s);
  out = std::move(s);
  return true;
}

bool scenario_from_hash(std::string_view hash, Scenario& out, Errors& errors) {
  std::vector<UrlPair> pairs;
  if (!split_hash(hash, pairs, errors)) return false;
  return scenario_from_pairs(pairs, out, errors);
}

std::string scenario_to_hash(const Scenario& s) {
  // A scenario loaded from a file keeps its preset's hardware: the link names that preset and carries
  // every model key the file changed, so it reopens without the file.
  Scenario base;
  if (!make_preset(base_preset_name(s), base)) make_preset(kDefaultPreset, base);
  std::string out = "preset=" + base.preset;
  // A loaded model goes by its name, so the link reopens it named, not as the preset's model.
  if (const std::string_view name = config_name(s); !name.empty() && model_name_ok(name)) out += "&model=" + std::string(name);
  for (const ParamDef& p : params()) {
    if (param_equal(s, base, p)) continue;
    out += '&';
    out += p.key;
    out += '=';
    out += get_param_text(s, p);
  }
  return out;
}

}  // namespace tierscope::model
