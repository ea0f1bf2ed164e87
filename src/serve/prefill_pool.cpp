// The prefill pool: the worker free soonest takes the next prompt (first come, first served).
#include "serve/prefill_pool.h"

#include <algorithm>

namespace tierscope::serve {

PrefillPass PrefillPool::run(double ready, double pass_s, double transfer_s) {
  PrefillPass p;
  p.start = ready;
  if (!free_at_.empty()) {
    // The worker's link sends the KV while it starts the next pass (the engines' transfer runs beside the
    // forward passes), so a worker is free again when its pass ends.
    const auto w = std::min_element(free_at_.begin(), free_at_.end());
    p.start = std::max(ready, *w);
    *w = p.start + pass_s;
  }
  p.end = p.start + pass_s;
  p.handed = p.end + transfer_s;
  return p;
}

}  // namespace tierscope::serve
