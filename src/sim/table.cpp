// Grid construction and bilinear lookup (exponent-indexed: no logarithms, the same answer on every platform).
#include "sim/table.h"

#include "sim/detmath.h"

#include <cmath>
#include <cstdint>

namespace tierscope::sim {

std::vector<double> geometric_grid(double lo, double hi, double factor, bool with_zero) {
  std::vector<double> g;
  if (with_zero) g.push_back(0.0);
  double x = lo;
  for (int i = 0; i < 200; ++i) {  // bounded: factor > 1 reaches any finite hi long before
    g.push_back(x);
    if (x >= hi) break;
    x *= factor;
  }
  return g;
}

void Axis::build(std::vector<double> points) {
  g = std::move(points);
  by_exp.clear();
  inv_span.clear();
  if (g.size() < 2) return;
  for (std::size_t i = 0; i + 1 < g.size(); ++i) inv_span.push_back(1 / (g[i + 1] - g[i]));
  // Binary exponents from the first positive point to the last; smaller x start at interval 0.
  std::size_t first_pos = 0;
  while (first_pos < g.size() && g[first_pos] <= 0) ++first_pos;
  if (first_pos >= g.size()) return;
  int e_lo = 0, e_hi = 0;
  std::frexp(g[first_pos], &e_lo);
  std::frexp(g.back(), &e_hi);
  exp_lo = e_lo;
  by_exp.assign(static_cast<std::size_t>(e_hi - e_lo + 1), 0);
  std::size_t i = 0;
  for (int e = e_lo; e <= e_hi; ++e) {
    const double octave = std::ldexp(0.5, e);  // the smallest x with this exponent
    while (i + 2 < g.size() && g[i + 1] <= octave) ++i;
    by_exp[static_cast<std::size_t>(e - e_lo)] = static_cast<std::uint16_t>(i);
  }
}

void Axis::locate(double x, std::size_t& i, double& w) const {
  const std::size_t n = g.size();
  if (!(x > g[0])) {
    i = 0;
    w = 0;
    return;
  }
  if (x >= g[n - 1]) {
    i = n - 2;
    w = 1;
    return;
  }
  i = 0;
  if (!by_exp.empty()) {
    // frexp's exponent, read from the bits (subnormals read as the smallest exponent: interval 0).
    const int k = static_cast<int>((bits_of(x) >> 52) & 0x7FF) - 1022 - exp_lo;
    if (k >= 0) i = by_exp[static_cast<std::size_t>(std::min(k, static_cast<int>(by_exp.size()) - 1))];
  }
  while (g[i + 1] <= x) ++i;  // stops before n − 1: x < g[n − 1]
  w = (x - g[i]) * inv_span[i];
}

double Table2::operator()(double x, double y) const {
  if (xs.size() < 2 || ys.size() < 2) return v.empty() ? 0.0 : v[0];
  std::size_t i = 0, j = 0;
  double wx = 0, wy = 0;
  ax.locate(x, i, wx);
  ay.locate(y, j, wy);
  const std::size_t n = ys.size();
  const double* r0 = v.data() + i * n + j;
  const double* r1 = r0 + n;
  return (r0[0] * (1 - wy) + r0[1] * wy) * (1 - wx) + (r1[0] * (1 - wy) + r1[1] * wy) * wx;
}

}  // namespace tierscope::sim
