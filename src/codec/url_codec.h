// Scenario overrides ⇄ URL hash parameters relative to a preset ("preset=v41-flash-8xb200&ctx=1048576").
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/params.h"
#include "model/scenario.h"

namespace tierscope::model {

// A shared link never needs more; longer input is rejected before any parsing work.
constexpr std::size_t kMaxHashBytes = 4096;

struct UrlPair {
  std::string_view key;
  std::string_view value;
};

// Splits "a=1&b=2" (a leading '#' is skipped) into pairs that view into `hash`. Checks size, the
// character set of keys and values (markup characters are refused), and duplicate keys.
bool split_hash(std::string_view hash, std::vector<UrlPair>& pairs, Errors& errors);

// Builds a scenario from already-split pairs: "preset" picks the base (default if absent), "model" names a
// loaded model, registry keys override it, anything else is an error (a share link's view keys are the
// link codec's to read: link/view_codec.h hands this only the scenario's). A link written by hand may leave out what its keys imply (`gpus=1` alone, with the preset's
// tp 4): when the keys as given contradict only fields the link does not name, those fields follow as
// edit_param would move them, each move reported in `moved`; the keys the link names are never moved.
// On any error `out` is left untouched.
bool scenario_from_pairs(std::span<const UrlPair> pairs, Scenario& out, Errors& errors, Adjustments* moved = nullptr);

// split_hash + scenario_from_pairs.
bool scenario_from_hash(std::string_view hash, Scenario& out, Errors& errors);

// "preset=NAME" followed by only the keys whose values differ from that preset, in registry order.
std::string scenario_to_hash(const Scenario& s);

}  // namespace tierscope::model
