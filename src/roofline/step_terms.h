// A decode step split into the named parts a reader compares with a profile: the bars of the breakdown
// chart and the gap of each measured anchor both read it.
#pragma once

#include <string>
#include <vector>

#include "roofline/figures.h"

namespace tierscope::model {

// A named part of a decode step ("weights", "KV and index reads", "MoE all-to-all", ...), in seconds.
struct StepTerm {
  std::string label;
  double seconds = 0;
};

// The decode step's time by term (they sum to decode.step_time); `serve` adds the interleaved prefill.
std::vector<StepTerm> step_terms(const Values& v, bool serve);

}  // namespace tierscope::model
