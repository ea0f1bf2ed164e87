// Two scenarios' charts as one (A pinned beside B): their x values merged, each line, mark and bar kept under
// its series, and the spans where either cannot run.
#include "charts/charts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/text.h"

namespace tierscope::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Each scenario's spans where it cannot run, on the pair's x values: one per contiguous run of x where
// none of its lines has a value, with the reason its own chart gives there.
void pair_spans(Chart& c, const Chart& own, const char* series) {
  auto runs = [&](std::size_t i) {
    for (const ChartLine& l : c.lines) {
      if (l.series == series && std::isfinite(l.y[i])) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < c.xs.size();) {
    if (runs(i)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < c.xs.size() && !runs(j + 1)) ++j;
    std::string why;
    for (const ChartSpan& sp : own.infeasible) {
      if (why.empty() && sp.from <= c.xs[j] && sp.to >= c.xs[i]) why = sp.why;
    }
    c.infeasible.push_back({c.xs[i], c.xs[j], std::string(series) + " cannot run" + (why.empty() ? "" : ": " + why), series});
    i = j + 1;
  }
}

}  // namespace

void pair_charts(const Chart& ca, const Chart& cb, ChartKind kind, Chart& out) {
  Chart c = ca;
  c.title = ca.title + " · A and B";
  c.description = "A (pinned): " + ca.description + " B (current): " + cb.description;
  c.lines.clear();
  c.marks.clear();
  c.bars.clear();
  // The x values of both, merged (the same values but where a limit of one, such as its capacity, lies
  // beyond the other's range): each line keeps its own points, NaN where it has none.
  std::vector<std::pair<double, std::string>> xs;
  for (std::size_t i = 0; i < ca.xs.size(); ++i) xs.emplace_back(ca.xs[i], i < ca.x_text.size() ? ca.x_text[i] : num_exact(ca.xs[i]));
  for (std::size_t i = 0; i < cb.xs.size(); ++i) xs.emplace_back(cb.xs[i], i < cb.x_text.size() ? cb.x_text[i] : num_exact(cb.xs[i]));
  std::sort(xs.begin(), xs.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
  xs.erase(std::unique(xs.begin(), xs.end(), [](const auto& p, const auto& q) { return p.first == q.first; }), xs.end());
  c.xs.clear();
  c.x_text.clear();
  for (const auto& [x, t] : xs) {
    c.xs.push_back(x);
    c.x_text.push_back(t);
  }
  auto add = [&](const Chart& from, const char* series) {
    for (const ChartLine& l : from.lines) {
      ChartLine m = l;
      m.id = std::string(series) + ":" + l.id;
      m.label = std::string(series) + ": " + l.label;
      m.series = series;
      m.y.assign(c.xs.size(), kNaN);
      for (std::size_t i = 0; i < from.xs.size(); ++i) {
        const auto at = std::lower_bound(c.xs.begin(), c.xs.end(), from.xs[i]);
        m.y[static_cast<std::size_t>(at - c.xs.begin())] = l.y[i];
      }
      c.lines.push_back(std::move(m));
    }
    for (const ChartMark& k : from.marks) {
      if (k.kind == "measured" && std::string(series) == "B") continue;  // the same points as A's
      ChartMark m = k;
      m.id = std::string(series) + ":" + k.id;
      if (k.kind != "measured") {
        m.label = std::string(series) + ": " + k.label;
        m.brief = std::string(series) + ": " + k.brief;
      }
      m.series = series;
      c.marks.push_back(std::move(m));
    }
    for (const ChartBar& k : from.bars) {
      if (k.measured > 0 && std::string(series) == "B") continue;
      ChartBar m = k;
      m.id = std::string(series) + ":" + k.id;
      if (!(k.measured > 0)) m.label = std::string(series) + ": " + k.label;
      m.series = series;
      c.bars.push_back(std::move(m));
    }
  };
  add(ca, "A");
  add(cb, "B");
  c.infeasible.clear();
  if (kind != ChartKind::Breakdown) {
    pair_spans(c, ca, "A");
    pair_spans(c, cb, "B");
  }
  c.command = "A: " + ca.command + " · B: " + cb.command;
  finish_axes(c);
  out = std::move(c);
}

}  // namespace tierscope::model
