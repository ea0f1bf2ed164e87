// Reports (never asserts) how fast the scenario model computes: all figures, values only, and sweeps.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "charts/chart_options.h"
#include "charts/charts.h"
#include "model/layers.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope::model;
using Clock = std::chrono::steady_clock;

namespace {

volatile double g_sink = 0;  // keeps the optimiser from dropping the work being timed

// Median of `rounds` timings, each over `inner` calls, in microseconds per call.
template <class Fn>
double median_us(int rounds, int inner, Fn&& fn) {
  std::vector<double> t;
  t.reserve(static_cast<std::size_t>(rounds));
  for (int r = 0; r < rounds; ++r) {
    const auto a = Clock::now();
    for (int i = 0; i < inner; ++i) fn();
    const auto b = Clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(b - a).count() / inner);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main() {
  const Scenario base = default_scenario();
  Scenario big = base;
  big.work.ctx = 1048576;
  big.work.batch = 100000;

  const double describe_us = median_us(51, 50, [&] { g_sink = g_sink + describe(base).list[0].value; });
  const double describe_big_us = median_us(51, 50, [&] { g_sink = g_sink + describe(big).list[0].value; });
  // describe() writes a formula when it is first read: the same with every formula read (the CLI's
  // `figures`, the page's figure list), and with one read (a tooltip, the inspector).
  const double written_us = median_us(51, 50, [&] {
    const Figures f = describe(base);
    for (const Figure& x : f.list) g_sink = g_sink + static_cast<double>(x.formula().size());
  });
  const double one_us = median_us(51, 50, [&] {
    g_sink = g_sink + static_cast<double>(describe(base)[FigureId::DecodeStepTime].formula().size());
  });
  Computed c;
  const double values_us = median_us(51, 2000, [&] {
    compute_values(base, c);
    g_sink = g_sink + c.values.v[0];
  });

  // Sweep: 100,000 scenarios over context × batch, set through the registry as the CLI and UI do; the
  // layers are planned once, as `tierscope sweep` does for keys that leave the model unchanged.
  const ParamDef* ctx = find_param("ctx");
  const ParamDef* batch = find_param("batch");
  Scenario s = base;
  Error err;
  LayerPlan plan;
  plan_layers(base.model, plan);
  const int n_ctx = 1000, n_batch = 100;
  const auto a = Clock::now();
  for (int i = 0; i < n_ctx; ++i) {
    set_param_number(s, *ctx, 1024.0 * (i + 1), err);
    for (int j = 0; j < n_batch; ++j) {
      set_param_number(s, *batch, j + 1, err);
      compute_values(s, plan, c, figure_scope(FigureId::DecodeStepTime));
      g_sink = g_sink + c.values[FigureId::DecodeStepTime];
    }
  }
  const double sweep_s = std::chrono::duration<double>(Clock::now() - a).count();
  const double per_s = n_ctx * n_batch / sweep_s;
  // The same sweep asking for every figure.
  const auto a2 = Clock::now();
  for (int i = 0; i < n_ctx / 10; ++i) {
    set_param_number(s, *ctx, 1024.0 * (i + 1), err);
    for (int j = 0; j < n_batch; ++j) {
      set_param_number(s, *batch, j + 1, err);
      compute_values(s, plan, c);
      g_sink = g_sink + c.values[FigureId::PrefixSpeedup];
    }
  }
  const double per_s_all = n_ctx / 10 * n_batch / std::chrono::duration<double>(Clock::now() - a2).count();

  // The page's charts as a dragged value redraws them: the series and their JSON (the bridge's reply).
  double chart_us[3] = {0, 0, 0}, chart_json_us[3] = {0, 0, 0};
  const ChartKind kinds[3] = {ChartKind::Roofline, ChartKind::Sweep, ChartKind::Breakdown};
  for (int k = 0; k < 3; ++k) {
    Chart chart;
    Errors errors;
    const ChartOptions options;
    chart_us[k] = median_us(21, 20, [&] {
      Chart out;
      Errors e;
      make_chart(base, kinds[k], options, out, e);
      g_sink = g_sink + static_cast<double>(out.lines.size());
    });
    make_chart(base, kinds[k], options, chart, errors);
    chart_json_us[k] = median_us(21, 20, [&] { g_sink = g_sink + static_cast<double>(chart_to_json(chart).size()); });
  }

  std::printf("tierscope model benchmark (%d figures per scenario)\n", kFigureCount);
  std::printf("%-52s %12s\n", "measurement", "result");
  std::printf("%-52s %9.2f us\n", "all figures with formulas, default scenario (median)", describe_us);
  std::printf("%-52s %9.2f us\n", "all figures with formulas, 1M ctx x 100k sessions", describe_big_us);
  std::printf("%-52s %9.2f us\n", "the same with every formula read (written)", written_us);
  std::printf("%-52s %9.2f us\n", "the same with one formula read (decode.step_time)", one_us);
  std::printf("%-52s %9.3f us\n", "values only (compute_values), default (median)", values_us);
  std::printf("%-52s %9.0f /s\n", "sweep of the decode step, 100k scenarios (ctx x batch)", per_s);
  std::printf("%-52s %9.0f /s\n", "sweep of every figure, 10k scenarios", per_s_all);
  for (int k = 0; k < 3; ++k) {
    const std::string name = std::string("chart ") + chart_key(kinds[k]) + ", default options: series + JSON";
    std::printf("%-52s %6.1f + %.1f us\n", name.c_str(), chart_us[k], chart_json_us[k]);
  }
  return 0;
}
