// The histogram behind the replay's percentiles.
#include "serve/stats.h"

#include <algorithm>
#include <cmath>

namespace tierscope::serve {

void Histogram::add(double x) {
  if (!std::isfinite(x) || x < 0) return;
  lo_ = n_ ? std::min(lo_, x) : x;
  hi_ = n_ ? std::max(hi_, x) : x;
  ++n_;
  sum_ += x;
  int i = 0;
  if (x > 0) i = static_cast<int>(std::floor((std::log2(x) - kLowExp) * kPerOctave));
  i = std::clamp(i, 0, static_cast<int>(bins_.size()) - 1);
  ++bins_[static_cast<std::size_t>(i)];
}

double Histogram::quantile(double q) const {
  if (n_ == 0) return 0;
  // The rank the engines' tools use (numpy's default, linear between order statistics) is read here as
  // the bucket holding rank ⌈q × n⌉.
  const double rank = std::max(1.0, std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(n_)));
  double seen = 0;
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    seen += bins_[i];
    if (seen >= rank) {
      const double mid = std::exp2(kLowExp + (static_cast<double>(i) + 0.5) / kPerOctave);
      return std::clamp(mid, lo_, hi_);
    }
  }
  return hi_;
}

Summary Histogram::summary() const {
  Summary s;
  s.n = n_;
  s.mean = mean();
  s.median = quantile(0.5);
  s.p90 = quantile(0.9);
  s.p99 = quantile(0.99);
  s.max = hi_;
  return s;
}

}  // namespace tierscope::serve
