// Streaming summary statistics: the mean exactly, and percentiles from a log-spaced histogram (1/64 of an
// octave, ±0.55 %), so a replay's memory stays flat however many requests it runs.
#pragma once

#include <array>
#include <cstdint>

namespace tierscope::serve {

struct Summary {
  std::uint64_t n = 0;
  double mean = 0, median = 0, p90 = 0, p99 = 0, max = 0;
};

class Histogram {
 public:
  void add(double x) { add(x, 1); }
  // The same value n times (a step's sessions share one inter-token gap): one bucket lookup, the sum
  // accumulated term by term so the mean is bit-identical to n single adds.
  void add(double x, std::uint32_t n);
  std::uint64_t count() const { return n_; }
  double mean() const { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }
  // The q-quantile (0 ≤ q ≤ 1): the geometric middle of the bucket it falls in, clamped to the range seen.
  double quantile(double q) const;
  Summary summary() const;

 private:
  static constexpr int kPerOctave = 64;
  static constexpr int kLowExp = -30;  // 2^-30 s ≈ 1 ns: smaller values share the first bucket
  static constexpr int kOctaves = 50;  // up to 2^20 s
  std::array<std::uint32_t, kPerOctave * kOctaves> bins_{};
  std::uint64_t n_ = 0;
  double sum_ = 0, lo_ = 0, hi_ = 0;
};

}  // namespace tierscope::serve
