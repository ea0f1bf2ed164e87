// The throughput–interactivity frontier: output tokens per second per GPU against tokens per second per
// user, one serving replay per (layout, concurrency) over the layouts the scenario's GPU count allows
// (TP × DP, experts over every GPU; MTP on and off where the model has a draft module), the Pareto front
// marked, and the measured points of the same model and hardware drawn on it.
#pragma once

#include "base/errors.h"
#include "charts/charts.h"
#include "model/scenario.h"

namespace tierscope::serve {

struct FrontierOptions {
  int input = 0, output = 0;  // 0: the scenario's prompt and output
  int max_concurrency = 0;    // 0: what the layout's HBM holds (at most 4096)
  std::uint64_t seed = 1;
};

// Fills `out` (kind Frontier). False with errors when no layout of the scenario can run.
bool frontier_chart(const model::Scenario& s, const FrontierOptions& options, model::Chart& out, model::Errors& errors);

// The front of (x, y) points where more of both is better: indices of the points no other point beats on
// both, in increasing x.
std::vector<std::size_t> pareto_front(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace tierscope::serve
