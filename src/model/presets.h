// Named scenarios, each citing where its values come from; the default is V4.1 Flash on 8×B200.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"

namespace tierscope::model {

// Where a preset's value for one parameter key comes from.
struct InputSource {
  const char* key;  // a params.h key, or a group of them ("kv_fmt,idx_fmt,swa_fmt")
  Provenance provenance;
  const char* source;
};

// A preset is data (src/model/preset_table.cpp): the preset it builds on, then settings strings in the
// registry's keys and value words ("gpu=h200&engram_home=dram", as a share link writes them) applied in
// order, each key through set_param_text as a link's keys are.
struct PresetInfo {
  const char* name;     // stable, used in URLs: "v41-flash-8xb200"
  const char* label;    // one line for menus
  const char* summary;  // one sentence: what it is for
  const char* base;     // the preset this one starts from, or nullptr: a default-constructed Scenario
  const char* settings[6];  // "key=value&…" strings applied in order over the base (unused slots null)
  // Where each input comes from, searched in order (the preset's own entries first, then the shared
  // groups it lists, then its base's). Every parameter key is covered (a test holds every preset to it).
  std::span<const InputSource> inputs[6];
};

std::span<const PresetInfo> presets();
// By name, or by a retired name that now maps to its successor ("llama3-70b-8xh100").
const PresetInfo* find_preset(std::string_view name);
// What a refused preset name is told: "one of: v41-flash-8xb200, …" (every preset, in catalog order).
std::string preset_names_allowed();

// Where one input of `s` comes from: a loaded file's own source (Scenario::origin) or its preset's, or
// Override (with the base value in the text) when the scenario's value differs from the base's.
struct InputProvenance {
  Provenance provenance = Provenance::Assumed;
  std::string source;
};
InputProvenance input_provenance(const Scenario& s, std::string_view key);
// Every key's at once, in registry order (the preset built once): where one input of the scenario comes from (the preset's source, assumed, or override).
struct InputSourceOf {
  std::string_view key;
  Provenance provenance = Provenance::Assumed;
  std::string_view source;   // static text: a preset's or a catalog's source
  std::string preset_value;  // for an override: the preset's (or the loaded file's) own value
  bool from_file = false;    // the base is a loaded config.json, not a preset
  // A key describing a layer kind this model does not have (a linear-attention layer's dims in a model with
  // none): it shapes no figure, so no figure cites it or takes its provenance.
  bool inert = false;
  // "set by the user (the preset has 4)" for an override, else the source.
  std::string text() const;
};

void all_input_provenance(const Scenario& s, std::vector<InputSourceOf>& out);
// The preset a scenario's unlisted inputs come from: its own, or for a loaded file the preset it kept.
std::string_view base_preset_name(const Scenario& s);
// The preset of a scenario that holds a loaded config.json: "config:" and the model's name.
constexpr std::string_view kConfigPresetPrefix = "config:";
// The loaded model's name ("" when `s` holds a preset's model).
std::string_view config_name(const Scenario& s);
// One line naming a loaded model on its hardware: "Qwen3-30B-A3B (config.json) · 8×B200".
std::string config_label(std::string_view name, const Scenario& s);
// One line naming the scenario: the preset's label, or the loaded file's.
std::string scenario_label(const Scenario& s);
constexpr const char* kDefaultPreset = "v41-flash-8xb200";

// Applies one settings string ("key=value&…") to `s` through the registry's text setters, item by item in
// order: every item that is not key=value, names no registry key or carries a value the key refuses is
// reported (field, value, what is allowed) and skipped. True when every item applied.
bool apply_settings(Scenario& s, std::string_view settings, Errors& errors);

// Fills `out` from the named preset; false (out untouched) if the name is unknown.
bool make_preset(std::string_view name, Scenario& out);
Scenario default_scenario();

}  // namespace tierscope::model
