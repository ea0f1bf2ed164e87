// One measured run replayed, and the rows summed up per partition: shares within 1.25× and 2×, the median
// |log₂(model ÷ measured)| and its signed median (the bias), and the reasons of the rows not expressed.
#include "serve/validate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "codec/url_codec.h"
#include "roofline/figures.h"
#include "serve/serve.h"

namespace tierscope::serve {

RunResult validate_run(const MeasuredFile& file, std::size_t row, const ValidateOptions& opt) {
  const MeasuredRun& run = file.runs[row];
  RunResult r;
  r.row = row;
  r.model = run.model_path;
  r.gpu = run.system;
  r.engine = run.backend;
  r.isl = run.isl;
  r.osl = run.osl;
  r.disagg = run.mode == "disagg";
  r.concurrency = benchmark_concurrency(run);
  r.measured_ttft_s = run.ttft_ms / 1000.0;
  r.measured_tpot_s = run.tpot_ms / 1000.0;
  RunSetup setup;
  if (!setup_for_run(run, opt, setup, r.why, r.reason)) return r;
  const model::Scenario& s = setup.scenario;
  r.gpus = s.hw.gpus;
  r.tp = s.par.tp;
  r.dp = s.par.dp;
  r.ep = s.par.ep;
  if (setup.prefill == PrefillMode::Pd) {
    const model::Scenario& p = setup.prefill_scenario;
    r.decode_workers = setup.instances;
    r.prefill_workers = run.prefill.workers;
    r.prefill_gpus = p.hw.gpus;
    r.prefill_tp = p.par.tp;
    r.prefill_dp = p.par.dp;
    r.prefill_ep = p.par.ep;
  }
  r.scenario = model::scenario_to_hash(s);
  model::Computed c;
  model::compute_values(s, c);
  r.params = c.values[model::FigureId::ParamsTotal];
  r.active_params = c.values[model::FigureId::ParamsActiveDecode];
  ServeSpec spec;
  spec.concurrency = setup.concurrency;
  spec.requests = setup.requests;
  spec.input = setup.input;
  spec.output = setup.output;
  spec.lengths = setup.range_ratio > 0 ? Lengths::Random : Lengths::Fixed;
  spec.range_ratio = setup.range_ratio;
  spec.budget = setup.budget;
  spec.prefill = setup.prefill;
  spec.instances = setup.instances;
  spec.prefill_workers = setup.prefill_workers;
  spec.seed = opt.seed;
  ServeResult res;
  model::Errors errors;
  const bool pd = setup.prefill == PrefillMode::Pd;
  if (!run_serve(s, spec, res, errors, pd ? &setup.prefill_scenario : nullptr)) {
    const model::Error& e = errors.front();
    r.why = e.message();
    r.reason = e.code == model::ErrorCode::Infeasible ? "does not fit" : std::string(model::error_code_name(e.code));
    if (pd) {
      const std::string pool = e.field == "prefill" ? "prefill pool " : "decode pool ";
      r.why = pool + r.why;
      r.reason = pool + r.reason;
    }
    return r;
  }
  if (res.completed == 0 || !(res.tpot.mean > 0) || !(res.ttft.mean > 0)) {
    r.why = res.refused_why.empty() ? "no request completed" : "every request refused: " + res.refused_why;
    r.reason = "requests refused";
    return r;
  }
  r.expressed = true;
  r.ttft_s = res.ttft.mean;
  r.tpot_s = res.tpot.mean;
  r.ttft_parts = TtftMeans{res.ttft_parts.queue.mean, res.ttft_parts.wait.mean, res.ttft_parts.prefill.mean, res.ttft_parts.overhead.mean};
  r.handoff = res.handoff;
  r.ttft_transfer = res.ttft_parts.transfer.mean;
  r.ttft_admission = res.ttft_parts.admission.mean;
  return r;
}

std::vector<std::size_t> replay_order(const MeasuredFile& file) {
  std::vector<std::size_t> order(file.runs.size());
  std::vector<double> work(file.runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    work[i] = static_cast<double>(benchmark_concurrency(file.runs[i])) * file.runs[i].osl;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  return order;
}

namespace {

double median(std::vector<double>& v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Acc {
  Partition p;
  std::vector<double> ttft_log, tpot_log;
  std::map<std::string, int> cannot;
};

void add_metric(MetricStats& m, std::vector<double>& logs, double ratio) {
  const double l = std::log2(ratio);
  logs.push_back(l);
  m.n += 1;
  // Within 1.25×: |log₂| ≤ log₂ 1.25 (a hair of slack for ratios printed as exactly 1.25).
  if (std::fabs(l) <= std::log2(1.25) + 1e-12) m.within_125 += 1;
  if (std::fabs(l) <= 1.0 + 1e-12) m.within_2 += 1;
}

void finish_metric(MetricStats& m, std::vector<double>& logs) {
  m.median_log2 = median(logs);
  for (double& l : logs) l = std::fabs(l);
  m.median_abs_log2 = median(logs);
}

}  // namespace

std::vector<Partition> summarize(const std::vector<RunResult>& results, PartitionBy by) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Acc> groups;
  for (const RunResult& r : results) {
    std::tuple<std::string, std::string, std::string, std::string> key;
    const std::string mode = r.disagg ? "disagg" : "agg";
    switch (by) {
      case PartitionBy::ModelGpuEngine: key = {mode, r.model, r.gpu, r.engine}; break;
      case PartitionBy::EngineGpu: key = {mode, "", r.gpu, r.engine}; break;
      case PartitionBy::Engine: key = {mode, "", "", r.engine}; break;
      case PartitionBy::Mode: key = {mode, "", "", ""}; break;
      case PartitionBy::All: break;
    }
    Acc& a = groups[key];
    std::tie(a.p.mode, a.p.model, a.p.gpu, a.p.engine) = key;
    a.p.rows += 1;
    if (!r.expressed) {
      a.cannot[r.reason] += 1;
      continue;
    }
    a.p.expressed += 1;
    add_metric(a.p.ttft, a.ttft_log, r.ttft_ratio());
    add_metric(a.p.tpot, a.tpot_log, r.tpot_ratio());
  }
  std::vector<Partition> out;
  for (auto& [key, a] : groups) {
    finish_metric(a.p.ttft, a.ttft_log);
    finish_metric(a.p.tpot, a.tpot_log);
    for (const auto& [why, n] : a.cannot) a.p.cannot.emplace_back(why, n);
    std::stable_sort(a.p.cannot.begin(), a.p.cannot.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
    out.push_back(std::move(a.p));
  }
  return out;
}

std::vector<RunResult> offset_removed(const std::vector<RunResult>& results) {
  // Each engine × GPU partition's median log₂ error, TTFT and TPOT.
  std::map<std::tuple<bool, std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> logs;
  for (const RunResult& r : results) {
    if (!r.expressed) continue;
    auto& [ttft, tpot] = logs[{r.disagg, r.gpu, r.engine}];
    // A ratio that is not a positive finite number (a replay that yielded no figure) sets no offset.
    if (const double l = std::log2(r.ttft_ratio()); std::isfinite(l)) ttft.push_back(l);
    if (const double l = std::log2(r.tpot_ratio()); std::isfinite(l)) tpot.push_back(l);
  }
  std::map<std::tuple<bool, std::string, std::string>, std::pair<double, double>> offset;
  for (auto& [key, l] : logs) offset[key] = {median(l.first), median(l.second)};
  std::vector<RunResult> adjusted = results;
  for (RunResult& r : adjusted) {
    if (!r.expressed) continue;
    const auto& [ttft, tpot] = offset.at({r.disagg, r.gpu, r.engine});
    r.ttft_s *= std::exp2(-ttft);
    r.tpot_s *= std::exp2(-tpot);
  }
  return adjusted;
}

}  // namespace tierscope::serve
