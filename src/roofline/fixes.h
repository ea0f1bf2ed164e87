// One-click ways out of a setup that cannot run: the smallest change of one input that makes it run,
// each found by trying the edit as a person would make it (model::edit_param), never typed in.
#pragma once

#include <string>
#include <vector>

#include "model/scenario.h"

namespace tierscope::model {

// One fix: set `field` to `value` (as setParam takes it). `label` says it in a few words ("set ctx to 40,960"),
// `why` what bound it ("the model's 40,960 trained positions"). Applying it through edit_param (with
// what that moves along) gives a scenario that validates and runs.
struct SetupFix {
  std::string field;
  std::string value;
  std::string label;
  std::string why;
};

// The fixes for `s`, most direct first, at most one per field: the largest context (and prompt) within
// the trained positions and HBM, the largest batch that fits, the smallest tensor-parallel instance and
// the smallest GPU count that hold the weights. Empty when `s` runs, or when no single edit makes it run.
std::vector<SetupFix> setup_fixes(const Scenario& s);

// Whether `s` runs (its figures are computed): compute_values' verdict.
bool setup_runs(const Scenario& s);

}  // namespace tierscope::model
