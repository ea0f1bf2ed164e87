// The throughput–interactivity frontier: output tokens per second per GPU against tokens per second per
// user, one serving replay per (layout, concurrency) over the layouts the scenario's GPU count allows
// (TP × DP, experts over every GPU; MTP on and off where the model has a draft module) or over a measured
// point's source space (the layouts and deployments its source ran), the Pareto front marked, and the
// measured points of the same model and hardware drawn on it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "charts/charts.h"
#include "codec/serve_spec.h"
#include "model/scenario.h"

namespace tierscope::serve {

// One layout a measurement's source ran, an instance of `gpus` GPUs, with or without its MTP drafts:
// tpN tensor parallel (a MoE model's experts split by TP too), tepN tensor parallel with the experts spread
// over the N GPUs (EP N), depN data-parallel attention with EP N.
// A disaggregated deployment adds `workers` such decode instances behind one router and a prefill pool
// of `prefill_gpus` GPUs of its own ("3xtep8+ctx8": three TEP8 decode workers, eight prefill GPUs); its
// listed concurrencies (over all its workers) are the ones it ran.
struct SourceLayout {
  enum class Kind { Tp, Tep, Dep };
  Kind kind = Kind::Tp;
  int gpus = 1;
  bool mtp = false;
  int workers = 1;
  int prefill_gpus = 0;           // 0: no fixed pool (prompts share the decode GPUs, or a pool that keeps up)
  std::vector<int> concurrencies;  // empty: the space's range
};

const char* source_kind_name(SourceLayout::Kind k);  // "TP", "TEP", "DEP"

struct FrontierOptions {
  int input = 0, output = 0;  // 0: the scenario's prompt and output
  int min_concurrency = 0;    // 0: from 1
  int max_concurrency = 0;    // 0: what the layout's HBM holds (at most 4096)
  std::uint64_t seed = 1;
  PrefillMode prefill = PrefillMode::Auto;  // how every replay schedules prompts (pd: a disaggregated deployment)
  // Only these layouts, as a measured curve's source swept them (empty: every TP × DP split of the GPUs).
  std::vector<SourceLayout> only;
  // Lengths uniform on [floor × L, L] for L the input and output (InferenceX's benchmark draws them so);
  // 0: ±20 % around L, as the engines' own random datasets.
  double length_floor = 0;
  // Requests each concurrent client sends over a replay (InferenceX's benchmark sends 10: num-prompts =
  // concurrency × 10); 0: 3 per client and at least 32.
  int prompts_per_client = 0;
};

// Reads a measured curve's source space, "layouts=tp1,tep8,dep16+mtp,3xtep8+ctx8@6/18;conc=4-64;lengths=0.8;prompts=10" (each part
// optional), into `o`. False with `why` naming the part and what is allowed.
bool parse_source_space(std::string_view text, FrontierOptions& o, std::string& why);

// One point of the replayed Pareto front: a layout at one concurrency.
struct FrontPoint {
  double tps_user = 0, tps_gpu = 0;  // tokens/s per user, output tokens/s per GPU
  std::string layout;                // "tp1-dp8-mtp"
  int concurrency = 0;
};
// The Pareto front over every layout's replays, in increasing tokens/s per user (empty: no layout runs).
std::vector<FrontPoint> replayed_front(const model::Scenario& s, const FrontierOptions& options);
// The front's output tokens/s per GPU at `tps_user`: log-log between its points, its least interactive
// point's throughput below them, 0 beyond its most interactive point (no layout gets there).
double front_at(const std::vector<FrontPoint>& front, double tps_user);

// Fills `out` (kind Frontier). False with errors when no layout of the scenario can run.
bool frontier_chart(const model::Scenario& s, const FrontierOptions& options, model::Chart& out, model::Errors& errors);
// While a scenario is pinned: the frontiers of A and B on the same axes, A's lines then B's, each named
// "A: …" and "B: …" (model::pair_charts), each replayed with its own requests. An error names its side.
bool frontier_chart_pair(const model::Scenario& a, const model::Scenario& b, const FrontierOptions& o, model::Chart& out, model::Errors& errors);

// The front of (x, y) points where more of both is better: indices of the points no other point beats on
// both, in increasing x.
std::vector<std::size_t> pareto_front(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace tierscope::serve
