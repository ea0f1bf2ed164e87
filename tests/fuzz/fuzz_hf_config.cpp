// libFuzzer target: the config.json reader. Any input is handled without a crash; a refusal says why and
// changes nothing; an accepted file gives a valid scenario with a source for every model key, whose share
// link and JSON reopen the same inputs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "hf/hf_config.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tierscope::model;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const Scenario base = default_scenario();
  Scenario s = base;
  Errors errors;
  std::vector<std::string> notes;
  if (!apply_hf_config(s, text, "fuzz", errors, notes)) {
    if (errors.empty()) std::abort();               // a refusal must say why
    if (s.origin || s.preset != base.preset) std::abort();  // and apply nothing
    return 0;
  }
  if (!errors.empty() || !s.origin || !validate(s).empty()) std::abort();
  for (const ParamDef& p : params()) {
    if (p.group != ParamGroup::Model) continue;
    bool sourced = false;  // by the file itself, not the preset it replaced
    for (const InputOrigin& o : s.origin->inputs) sourced = sourced || (o.key == p.key && !o.source.empty());
    if (!sourced) std::abort();
  }
  Computed c;
  compute_values(s, c);
  Scenario from_hash, from_json;
  Errors e2;
  if (!scenario_from_hash(scenario_to_hash(s), from_hash, e2)) std::abort();
  if (!scenario_from_json(scenario_to_json(s), from_json, e2)) std::abort();
  for (const ParamDef& p : params()) {
    if (!param_equal(s, from_hash, p) || !param_equal(s, from_json, p)) std::abort();
  }
  return 0;
}
