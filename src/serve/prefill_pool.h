// The prefill pool of a disaggregated deployment: prompts taken first come, first served by a fixed number
// of prefill workers (or, with none given, a pool sized to keep up, where a prompt starts when it arrives),
// each pass followed by the KV's hand-off to the decode pool (roofline/handoff.h). Pure and clock-free: the
// serving replay asks it when a prompt it hands over leaves, and why.
#pragma once

#include <vector>

namespace tierscope::serve {

// One prompt through the pool: when its pass starts and ends, and when its KV has reached the decode pool.
struct PrefillPass {
  double start = 0, end = 0, handed = 0;
};

class PrefillPool {
 public:
  // `workers` 0: as many as keep up (no prompt ever waits for another).
  explicit PrefillPool(int workers = 0) : free_at_(static_cast<std::size_t>(workers > 0 ? workers : 0), 0.0) {}
  // A prompt ready at `ready` whose pass takes `pass_s` and whose hand-off leaves `transfer_s` after the pass.
  // Prompts must come in the order they are ready (the front end hands them over one at a time).
  PrefillPass run(double ready, double pass_s, double transfer_s);
  int workers() const { return static_cast<int>(free_at_.size()); }
  bool fixed() const { return !free_at_.empty(); }

 private:
  std::vector<double> free_at_;  // when each worker finishes its last pass
};

}  // namespace tierscope::serve
