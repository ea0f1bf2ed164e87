// log and exp from + − × ÷ alone, so every platform computes the same bits: C libraries pick different
// code for std::log and std::exp (with or without fused multiply-add, by CPU), and a simulation whose
// events depend on millions of random draws must not diverge between the CLI and the browser.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tierscope::sim {

// A double's bits and back (std::bit_cast is missing from some standard libraries this builds with).
inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// Natural logarithm of x > 0 (finite). x = m · 2^e with m in [√½, √2); log m = 2 atanh(s), s = (m−1)/(m+1),
// |s| ≤ 0.172, summed to s^23 (the next term is below 1e-19). Relative error below 1e-15. The exponent is
// taken from the bits (exact).
inline double det_log(double x) {
  // x = m · 2^e with m in [0.5, 1), read from the bits (normal numbers; subnormals go through frexp).
  std::uint64_t bits = bits_of(x);
  int e = static_cast<int>((bits >> 52) & 0x7FF);
  double m;
  if (e == 0) {
    m = std::frexp(x, &e);
  } else {
    e -= 1022;
    bits = (bits & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull;
    m = from_bits(bits);
  }
  if (m < 0.70710678118654752) {
    m *= 2;
    --e;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  // Horner in s² with the coefficients 1/3, 1/5, … 1/23 written out (no division per term).
  double p = 1.0 / 23;
  p = p * s2 + 1.0 / 21;
  p = p * s2 + 1.0 / 19;
  p = p * s2 + 1.0 / 17;
  p = p * s2 + 1.0 / 15;
  p = p * s2 + 1.0 / 13;
  p = p * s2 + 1.0 / 11;
  p = p * s2 + 1.0 / 9;
  p = p * s2 + 1.0 / 7;
  p = p * s2 + 1.0 / 5;
  p = p * s2 + 1.0 / 3;
  p = p * s2 + 1.0;
  return e * 0.69314718055994531 + 2 * s * p;
}

// e^x. x = k ln2 + r with |r| ≤ ln2/2; e^r summed to r^14/14! (the next term is below 1e-17).
inline double det_exp(double x) {
  if (x > 709) return HUGE_VAL;
  if (x < -745) return 0;
  const double k = std::floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - k * 0.693145751953125) - k * 1.4286068203094172e-06;  // ln2 split: the first part is exact in k · hi
  // Horner with 1/i! written out (constant expressions: the compiler folds them, no division at run time).
  double p = 1.0 / 87178291200.0;  // 1/14!
  p = p * r + 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // p · 2^k: p is in [0.7, 1.5] and k within ±1075, so two exact power-of-two factors cover it.
  const int ki = static_cast<int>(k);
  const int half = ki / 2;
  const double a = from_bits(static_cast<std::uint64_t>(1023 + half) << 52);
  const double b = from_bits(static_cast<std::uint64_t>(1023 + (ki - half)) << 52);
  return p * a * b;
}

}  // namespace tierscope::sim
