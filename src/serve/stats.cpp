// The histogram behind the replay's percentiles. Bucket edges come from square roots and products only
// (correctly rounded everywhere), so a native run and a WebAssembly run put every value in the same bucket.
#include "serve/stats.h"

#include <algorithm>
#include <cmath>

namespace tierscope::serve {

namespace {

// edges[k] = 2^(k/64) for k = 0 … 64: 2^(1/64) by six square roots of 2, then its powers. below[j] is the
// bucket of the mantissa 1 + j/4096: an edge is ~1.1 % above the last and a slot of the table 0.024 % wide,
// so the bucket of any mantissa in slot j is below[j] or the next, one comparison apart. Same buckets as a
// search of the edges, without one.
struct Edges {
  static constexpr int kSlotBits = 12;
  double e[65];
  std::uint8_t below[1 << kSlotBits];
  Edges() {
    double r = 2.0;
    for (int i = 0; i < 6; ++i) r = std::sqrt(r);
    e[0] = 1.0;
    for (int k = 1; k < 64; ++k) e[k] = e[k - 1] * r;
    e[64] = 2.0;
    int k = 0;
    for (int j = 0; j < (1 << kSlotBits); ++j) {
      const double m = 1.0 + std::ldexp(static_cast<double>(j), -kSlotBits);  // exact
      while (k < 63 && e[k + 1] <= m) ++k;
      below[j] = static_cast<std::uint8_t>(k);
    }
  }
  // The largest k with e[k] ≤ m, for m in [1, 2).
  int bucket(double m) const {
    const int j = static_cast<int>((m - 1.0) * (1 << kSlotBits));  // exact: m − 1 and the scaling are
    int k = below[std::clamp(j, 0, (1 << kSlotBits) - 1)];
    if (k < 63 && e[k + 1] <= m) ++k;
    return k;
  }
};
const Edges& edges() {
  static const Edges kEdges;
  return kEdges;
}

}  // namespace

void Histogram::add(double x, std::uint32_t count) {
  if (!std::isfinite(x) || x < 0 || count == 0) return;
  lo_ = n_ ? std::min(lo_, x) : x;
  hi_ = n_ ? std::max(hi_, x) : x;
  n_ += count;
  for (std::uint32_t c = 0; c < count; ++c) sum_ += x;
  int i = 0;
  if (x > 0) {
    int e = 0;
    const double m = 2.0 * std::frexp(x, &e);  // x = m × 2^(e − 1), m in [1, 2)
    i = (e - 1 - kLowExp) * kPerOctave + edges().bucket(m);
  }
  i = std::clamp(i, 0, static_cast<int>(bins_.size()) - 1);
  bins_[static_cast<std::size_t>(i)] += count;
}

double Histogram::quantile(double q) const {
  if (n_ == 0) return 0;
  // The bucket holding rank ⌈q × n⌉, read at its geometric middle.
  const double rank = std::max(1.0, std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(n_)));
  // The extremes are kept exactly: the last rank is the largest value, not its bucket's middle.
  if (rank >= static_cast<double>(n_)) return hi_;
  double seen = 0;
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    seen += bins_[i];
    if (seen >= rank) {
      const int octave = static_cast<int>(i) / kPerOctave, k = static_cast<int>(i) % kPerOctave;
      const double mid = std::ldexp(std::sqrt(edges().e[k] * edges().e[k + 1]), octave + kLowExp);
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
