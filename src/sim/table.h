// A function of two arguments, tabulated once on a grid and read by bilinear interpolation: the fleet
// simulator's view of the model's prefill and decode timings (the model itself is never called per event).
#pragma once

#include <cstddef>
#include <vector>

namespace tierscope::sim {

// lo, lo·f, lo·f², … up to the first point ≥ hi (f > 1, lo > 0); with_zero puts 0 first.
std::vector<double> geometric_grid(double lo, double hi, double factor, bool with_zero);

struct Table2 {
  std::vector<double> xs, ys;  // increasing grid points
  std::vector<double> v;       // v[i * ys.size() + j] = f(xs[i], ys[j])

  void resize(std::vector<double> x, std::vector<double> y) {
    xs = std::move(x);
    ys = std::move(y);
    v.assign(xs.size() * ys.size(), 0.0);
  }
  double& at_index(std::size_t i, std::size_t j) { return v[i * ys.size() + j]; }
  // Bilinear between the surrounding grid points; arguments outside the grid are clamped to its edge.
  double operator()(double x, double y) const;
};

}  // namespace tierscope::sim
