// Deterministic random streams for the fleet simulator: SplitMix64 (8 bytes of state, so every session
// carries its own stream and its draws never depend on the order events happen in) and the few
// distributions the workload names. Only + − × ÷, sqrt and detmath.h's log and exp are used, so a native
// run and a WebAssembly run of the same seed draw the same numbers.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/detmath.h"

namespace tierscope::sim {

struct Rng {
  std::uint64_t x = 0;
  double spare = 0;        // the polar method makes normals in pairs: the second waits here
  bool has_spare = false;

  // Stream `stream` of seed `seed`: the pair is mixed so that neighbouring streams are unrelated.
  static Rng of(std::uint64_t seed, std::uint64_t stream) {
    Rng r;
    r.x = seed * 0x9E3779B97F4A7C15ull ^ (stream + 0x632BE59BD9B4E019ull) * 0xD1B54A32D192ED03ull;
    r.next();
    return r;
  }
  std::uint64_t next() {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform on (0, 1): never 0, so log() is safe; never 1.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  // Uniform integer in [0, n) (n ≥ 1), by multiply-high: no division, bias below 2^-32 for n < 2^32.
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
  double exponential(double mean) { return -mean * det_log(uniform()); }
  // Standard normal by Marsaglia's polar method (no trigonometry), two at a time.
  double normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    for (;;) {
      const double u = 2 * uniform() - 1, v = 2 * uniform() - 1;
      const double s = u * u + v * v;
      if (s > 0 && s < 1) {
        const double f = std::sqrt(-2 * det_log(s) / s);
        spare = v * f;
        has_spare = true;
        return u * f;
      }
    }
  }
  // Lognormal with the given mean and σ of the log (σ = 0: always the mean).
  double lognormal(double mean, double sigma) {
    if (sigma <= 0) return mean;
    return mean * det_exp(sigma * normal() - 0.5 * sigma * sigma);
  }
  // Geometric on 1, 2, … with the given mean (≥ 1), at most `cap`.
  int geometric(double mean, int cap) {
    if (mean <= 1) return 1;
    const double q = 1 - 1 / mean;  // chance of one more
    const double k = 1 + std::floor(det_log(uniform()) / det_log(q));
    return k >= cap ? cap : static_cast<int>(k);
  }
};

}  // namespace tierscope::sim
