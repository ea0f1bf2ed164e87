// Grid construction and bilinear lookup (binary search: no logarithms, the same answer on every platform).
#include "sim/table.h"

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

namespace {
// Index i with g[i] ≤ x < g[i + 1] (g has ≥ 2 points; x already clamped), and the weight of g[i + 1].
void locate(const std::vector<double>& g, double x, std::size_t& i, double& w) {
  std::size_t lo = 0, hi = g.size() - 1;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (g[mid] <= x ? lo : hi) = mid;
  }
  i = lo;
  const double span = g[lo + 1] - g[lo];
  w = span > 0 ? (x - g[lo]) / span : 0.0;
}
}  // namespace

double Table2::operator()(double x, double y) const {
  if (xs.size() < 2 || ys.size() < 2) return v.empty() ? 0.0 : v[0];
  x = x < xs.front() ? xs.front() : (x > xs.back() ? xs.back() : x);
  y = y < ys.front() ? ys.front() : (y > ys.back() ? ys.back() : y);
  std::size_t i = 0, j = 0;
  double wx = 0, wy = 0;
  locate(xs, x, i, wx);
  locate(ys, y, j, wy);
  const std::size_t n = ys.size();
  const double a = v[i * n + j], b = v[i * n + j + 1], c = v[(i + 1) * n + j], d = v[(i + 1) * n + j + 1];
  return (a * (1 - wy) + b * wy) * (1 - wx) + (c * (1 - wy) + d * wy) * wx;
}

}  // namespace tierscope::sim
