// Chart axes: 1-2-5 ticks over a domain (log or linear) and their labels in the model's number text, for the
// page's charts, the fleet charts and the CLI alike.
#include "charts/charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/text.h"

namespace tierscope::model {

std::string tick_label(double v, std::string_view unit) {
  if (unit == "s" || unit == "B" || unit == "B/s" || unit == "FLOP" || unit == "FLOP/s" || unit == "B/token") return human(v, unit);
  if (unit == "fraction") return num_sig(v * 100, 3) + " %";
  if (unit == "ratio") return num_sig(v, 3) + "×";
  // Counts: short, with k/M/G so a 1,048,576-token axis reads "1M", not seven digits.
  const double a = std::fabs(v);
  if (a >= 1e9) return num_sig(v / 1e9, 3) + "G";
  if (a >= 1e6) return num_sig(v / 1e6, 3) + "M";
  if (a >= 1e4) return num_sig(v / 1e3, 3) + "k";
  return num_sig(v, 3);
}

void axis_ticks(ChartAxis& a, double lo, double hi) {
  a.ticks.clear();
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 1;
  if (a.log && lo > 0) {
    // Widen to the 1-2-5 values around the data, then list every 1-2-5 value inside.
    static const double kSteps[] = {1, 2, 5};
    auto floor125 = [](double v) {
      const double d = std::pow(10.0, std::floor(std::log10(v)));
      return v >= 5 * d ? 5 * d : v >= 2 * d ? 2 * d : d;
    };
    auto ceil125 = [](double v) {
      const double d = std::pow(10.0, std::floor(std::log10(v)));
      return v <= d ? d : v <= 2 * d ? 2 * d : v <= 5 * d ? 5 * d : 10 * d;
    };
    a.lo = floor125(lo * (1 - 1e-12));
    a.hi = ceil125(std::max(hi, lo) * (1 + 1e-12));
    if (a.hi <= a.lo) a.hi = ceil125(a.lo * 1.5);
    for (int e = static_cast<int>(std::floor(std::log10(a.lo))); e <= static_cast<int>(std::ceil(std::log10(a.hi))); ++e) {
      for (double k : kSteps) {
        // Exact decimal values (1e-3, not 0.0010000000000000002): built from the power of ten's text.
        const double v = k * std::pow(10.0, e);
        if (v < a.lo * (1 - 1e-9) || v > a.hi * (1 + 1e-9)) continue;
        a.ticks.push_back({v, tick_label(v, a.unit), k == 1 ? 0 : 1});
      }
    }
    return;
  }
  a.log = false;
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
  // A 1-2-5 step giving about five intervals; half steps are the minor ticks.
  const double raw = (hi - lo) / 5;
  const double d = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw <= d ? d : raw <= 2 * d ? 2 * d : raw <= 5 * d ? 5 * d : 10 * d;
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  const double half = step / 2;
  const int n = static_cast<int>(std::llround((a.hi - a.lo) / half));
  for (int i = 0; i <= n && i <= 400; ++i) {
    double v = a.lo + i * half;
    if (std::fabs(v) < half * 1e-9) v = 0;
    if (a.integer && std::fabs(v - std::round(v)) > 1e-9) continue;  // no "2.5 sessions"
    a.ticks.push_back({v, tick_label(v, a.unit), i % 2 == 0 ? 0 : 1});
  }
}

// Domains and ticks from what is drawn: the lines on each axis, the marks and the card's bands.
void finish_axes(Chart& c) {
  if (!c.bars.empty()) {
    double top = 0;
    for (const ChartBar& b : c.bars) top = std::max({top, b.total, b.measured});
    axis_ticks(c.y, 0, top > 0 ? top : 1);
    return;
  }
  if (!c.xs.empty()) axis_ticks(c.x, c.xs.front(), c.xs.back());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, lo2 = lo, hi2 = -lo;
  auto take = [](double v, double& l, double& h, bool log) {
    if (!std::isfinite(v) || (log && v <= 0)) return;
    l = std::min(l, v);
    h = std::max(h, v);
  };
  bool secondary = false;
  for (const ChartLine& l : c.lines) {
    const bool second = l.role == "secondary";
    secondary = secondary || second;
    for (double v : l.y) take(v, second ? lo2 : lo, second ? hi2 : hi, c.y.log);
  }
  for (const ChartMark& m : c.marks) take(m.y, lo, hi, c.y.log);
  for (const ChartBand& b : c.bands) {
    take(b.lo, lo, hi, c.y.log);
    take(b.hi, lo, hi, c.y.log);
  }
  if (!(lo <= hi)) lo = hi = 1;  // nothing drawable: a unit domain keeps the axis sane
  if (!c.y.log) lo = std::min(lo, 0.0);
  axis_ticks(c.y, lo, hi);
  if (secondary) {
    const ChartLine* s2 = nullptr;
    for (const ChartLine& l : c.lines) s2 = l.role == "secondary" ? &l : s2;
    c.y2.key = s2->id;
    c.y2.label = s2->label;
    c.y2.unit = s2->unit;
    c.y2.log = c.y.log;
    if (!(lo2 <= hi2)) lo2 = hi2 = 1;
    axis_ticks(c.y2, lo2, hi2);
  }
}

}  // namespace tierscope::model
