// libFuzzer target: the URL-hash codec. Any input must be handled without a crash; an accepted hash
// must round-trip (parse → serialize → parse gives the same scenario and the same text).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "codec/json_codec.h"
#include "codec/url_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tierscope::model;
  const std::string_view hash(reinterpret_cast<const char*>(data), size);
  Scenario s;
  Errors errors;
  if (!scenario_from_hash(hash, s, errors)) {
    if (errors.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::string canonical = scenario_to_hash(s);
  Scenario again;
  Errors errors2;
  if (!scenario_from_hash(canonical, again, errors2)) std::abort();
  if (!scenario_equal(s, again)) std::abort();
  if (scenario_to_hash(again) != canonical) std::abort();
  return 0;
}
