// The name a loaded config.json goes by — from the file, its file name, or its family and size — in the
// scenario's label, its preset and its share link, and the import's own move of the context.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "base/text.h"
#include "hf/hf_config.h"
#include "hf/hf_reader.h"
#include "model/presets.h"
#include "roofline/figures.h"

namespace tierscope::model {

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
  return hf::clean_name(base);
}

std::string sized_name(std::string_view model_type, const ModelArch& m) {
  Scenario s = default_scenario();
  s.model = m;
  Computed c;
  compute_values(s, c);
  const double total = c.values[FigureId::ParamsTotal];
  char size[32];
  if (total >= 1e12) std::snprintf(size, sizeof size, "%.3gT", total / 1e12);
  else if (total >= 1e9) std::snprintf(size, sizeof size, "%.3gB", total / 1e9);
  else std::snprintf(size, sizeof size, "%.3gM", total / 1e6);
  return hf::clean_name(std::string(model_type) + "-" + size);
}

bool model_name_ok(std::string_view name) {
  return !name.empty() && name.size() <= kMaxModelName && hf::clean_name(name) == name;
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

bool fit_trained_positions(Scenario& s, Adjustments& moved) {
  const int max_pos = s.model.max_pos;
  if (max_pos <= 0) return false;
  const std::size_t before = moved.size();
  const std::string why = "the model's " + num(max_pos) + " trained positions, max_position_embeddings";
  for (const char* key : {"ctx", "prompt"}) {
    const ParamDef* def = find_param(key);
    const int now = std::string_view(key) == "ctx" ? s.work.ctx : s.work.prompt;
    if (!def || now <= max_pos) continue;
    Error err;
    Adjustments also;
    Scenario next = s;
    if (!edit_param(next, *def, std::to_string(max_pos), also, err) || !validate(next).empty()) continue;
    moved.push_back(Adjustment{key, std::to_string(now), std::to_string(max_pos), why});
    moved.insert(moved.end(), also.begin(), also.end());
    s = std::move(next);
  }
  return moved.size() != before;
}

}  // namespace tierscope::model
