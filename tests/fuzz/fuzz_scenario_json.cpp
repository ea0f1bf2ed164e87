// libFuzzer target: the scenario JSON codec. Any input must be handled without a crash; an accepted
// document must round-trip exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "codec/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tierscope::model;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scenario s;
  Errors errors;
  if (!scenario_from_json(text, s, errors)) {
    if (errors.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::string json = scenario_to_json(s);
  Scenario again;
  Errors errors2;
  if (!scenario_from_json(json, again, errors2)) std::abort();
  if (!scenario_equal(s, again)) std::abort();
  if (scenario_to_json(again) != json) std::abort();
  return 0;
}
