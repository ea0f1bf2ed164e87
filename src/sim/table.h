// A function of two arguments, tabulated once on a grid and read by bilinear interpolation: the fleet
// simulator's view of the model's prefill and decode timings (the model itself is never called per event).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tierscope::sim {

// lo, lo·f, lo·f², … up to the first point ≥ hi (f > 1, lo > 0); with_zero puts 0 first.
std::vector<double> geometric_grid(double lo, double hi, double factor, bool with_zero);

// Finds the grid interval holding x in O(1): the binary exponent of x (frexp, exact) picks the first
// grid point of its octave, and at most a few steps finish the search (a geometric grid with factor ≥ √2
// has at most two points per octave). No logarithms, so every platform lands on the same interval.
struct Axis {
  std::vector<double> g;                 // increasing grid points
  std::vector<double> inv_span;          // 1 / (g[i + 1] − g[i])
  std::vector<std::uint16_t> by_exp;     // the interval holding the smallest x of each binary exponent
  int exp_lo = 0;
  void build(std::vector<double> points);
  // i with g[i] ≤ x < g[i + 1] and the weight of g[i + 1]; x outside the grid is clamped to its ends.
  void locate(double x, std::size_t& i, double& w) const;
};

struct Table2 {
  std::vector<double> xs, ys;  // increasing grid points
  std::vector<double> v;       // v[i * ys.size() + j] = f(xs[i], ys[j])
  Axis ax, ay;

  void resize(std::vector<double> x, std::vector<double> y) {
    xs = std::move(x);
    ys = std::move(y);
    ax.build(xs);
    ay.build(ys);
    v.assign(xs.size() * ys.size(), 0.0);
  }
  double& at_index(std::size_t i, std::size_t j) { return v[i * ys.size() + j]; }
  // Bilinear between the surrounding grid points; arguments outside the grid are clamped to its edge.
  double operator()(double x, double y) const;
};

}  // namespace tierscope::sim
