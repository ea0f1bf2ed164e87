// The measured serving points replayed: every anchor marked `replay` (a point of a serving curve, a
// benchmark with arrivals) and every offline benchmark of a fixed set of requests (requests=N) run through
// `serve` at its own settings, beside its single-step ratio.
#pragma once

#include <string>
#include <vector>

#include <map>

#include "evidence/anchors.h"
#include "serve/frontier.h"

namespace tierscope::serve {

struct ReplayedAnchor {
  bool ok = false;
  std::string why;       // when not ok
  double model = 0;      // the replay's value of the anchor's metric
  double ratio = 0;      // model / measured
  int concurrency = 0;   // clients in the closed loop (the anchor's batch)
  std::string prefill;   // the scheduler's prefill mode in the replay
  double tps_user = 0, tps_gpu = 0;  // the replay's tokens/s per user and output tokens/s per GPU
};

// Replays one evaluated anchor (its scenario with the settings applied). Not ok for an anchor the single
// step could not evaluate, or one not marked for the replay.
// A serving curve's point measured at a tokens/s per user (Anchor::per_user) is read off the replayed
// Pareto front of every layout at that interactivity, as the source's "best configuration" is; `fronts`
// keeps each setup's front for the anchors that share it (null: computed each time).
// Whether an evaluated anchor is replayed: marked `replay`, or an offline benchmark of N requests.
bool is_replayed(const model::AnchorResult& r);
using FrontCache = std::map<std::string, std::vector<FrontPoint>>;
ReplayedAnchor replay_anchor(const model::AnchorResult& r, FrontCache* fronts = nullptr);
std::vector<ReplayedAnchor> replay_anchors(const std::vector<model::AnchorResult>& results);

// Of the replayed points (`points`), those within 2× and the median |log₂(replay ÷ measured)|, a point whose
// replay cannot be computed counting as a miss (`not_computed` of them).
struct ReplaySummary {
  int points = 0, within_2x = 0, not_computed = 0;
  double median_abs_log2 = 0;
};
ReplaySummary summarize_replayed(const std::vector<ReplayedAnchor>& replayed, const std::vector<model::AnchorResult>& results);
std::string replay_summary_text(const ReplaySummary& s);  // "N of M replayed points within 2×, median …"

}  // namespace tierscope::serve
