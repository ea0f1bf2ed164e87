// Named scenarios, each citing where its values come from; the default is V4.1 Flash on 8×B200.
#pragma once

#include <span>
#include <string_view>

#include "model/scenario.h"

namespace tierscope::model {

// Where a preset's value for one parameter key comes from.
struct InputSource {
  const char* key;  // a params.h key, or a group of them ("kv_fmt,idx_fmt,swa_fmt")
  Provenance provenance;
  const char* source;
};

struct PresetInfo {
  const char* name;     // stable, used in URLs: "v41-flash-8xb200"
  const char* label;    // one line for menus
  const char* summary;  // one sentence: what it is for
  void (*build)(Scenario&);
  std::span<const InputSource> inputs;
};

std::span<const PresetInfo> presets();
const PresetInfo* find_preset(std::string_view name);
constexpr const char* kDefaultPreset = "v41-flash-8xb200";

// Fills `out` from the named preset; false (out untouched) if the name is unknown.
bool make_preset(std::string_view name, Scenario& out);
Scenario default_scenario();

}  // namespace tierscope::model
