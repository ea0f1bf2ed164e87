// The name a loaded model goes by: cleaned for ids and links, from its file's name, or from its family and
// its parameter count; and the scenario that names it as the share link reopens it.
#include "model/model_names.h"

#include <cstdio>
#include <memory>

#include "model/param_count.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

std::string clean_name(std::string_view raw) {
  if (const std::size_t slash = raw.find_last_of("/\\"); slash != std::string_view::npos) raw.remove_prefix(slash + 1);
  std::string out;
  for (char c : raw) {
    if (out.size() >= 64) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '-';
  }
  while (!out.empty() && (out.front() == '-' || out.front() == '.')) out.erase(out.begin());
  return out;
}

std::string name_from_file(std::string_view file) {
  while (!file.empty() && (file.back() == '/' || file.back() == '\\')) file.remove_suffix(1);
  const std::size_t slash = file.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
  if (base == "config.json" || base == "config") {
    // A plain config.json is named by its folder, when the caller knows it.
    if (slash == std::string_view::npos) return "";
    return name_from_file(file.substr(0, slash));
  }
  if (base.size() > 5 && base.ends_with(".json")) base.remove_suffix(5);
  return clean_name(base);
}

std::string sized_name(std::string_view model_type, const ModelArch& m) {
  const double total = count_params(m).total();
  char size[32];
  if (total >= 1e12) std::snprintf(size, sizeof size, "%.3gT", total / 1e12);
  else if (total >= 1e9) std::snprintf(size, sizeof size, "%.3gB", total / 1e9);
  else std::snprintf(size, sizeof size, "%.3gM", total / 1e6);
  return clean_name(std::string(model_type) + "-" + size);
}

bool model_name_ok(std::string_view name) {
  return !name.empty() && name.size() <= kMaxModelName && clean_name(name) == name;
}

std::string model_name_allowed() {
  return "a model's name of letters, digits, '.', '_' and '-' (not first '.' or '-'), at most " + std::to_string(kMaxModelName) + " characters";
}

void name_loaded_model(Scenario& s, std::string_view name) {
  auto origin = std::make_shared<ScenarioOrigin>();
  origin->base_preset = std::string(base_preset_name(s));
  origin->label = config_label(name, s);
  // The base later edits are measured against: the preset's hardware, layout and workload with the
  // link's model, as the import left them (the link does not say which of those the reader set by hand).
  Scenario loaded;
  if (!make_preset(origin->base_preset, loaded)) loaded = s;
  loaded.model = s.model;
  loaded.origin.reset();
  loaded.preset = std::string(kConfigPresetPrefix) + std::string(name);
  for (const ParamDef& p : params()) {
    if (p.group != ParamGroup::Model) continue;
    origin->inputs.push_back(InputOrigin{p.key, Provenance::Paper,
                                         "config.json of " + std::string(name) + ", as the share link carries it"});
  }
  origin->loaded = std::move(loaded);
  s.preset = std::string(kConfigPresetPrefix) + std::string(name);
  s.origin = std::move(origin);
}

}  // namespace tierscope::model
