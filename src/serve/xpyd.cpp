// The xPyD search: every way to split a GPU count between a prefill pool of x workers and y decode instances
// (each the scenario's layout), the goodput each reaches, and the aggregated instances on the same GPUs beside
// them — DistServe's question (https://arxiv.org/abs/2401.09670, §4: which split serves the most requests per
// GPU within the objectives). Each split is one goodput search (goodput.cpp); only splits that leave no room
// for another worker or instance are tried, since a deployment would use the GPUs it has.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/json_writer.h"
#include "base/text.h"
#include "serve/serve.h"

namespace tierscope::serve {

namespace {

constexpr int kMostSplits = 32;     // each a goodput search of ~20–35 replays
constexpr int kMostInstances = 64;  // the --instances setting's own bound
constexpr int kProbeRequests = 8;

// One prefill worker's GPUs and one decode instance's, as a replay of the deployment counts them.
bool unit_gpus(const model::Scenario& s, const ServeSpec& spec, double& worker, double& instance, model::Errors& errors) {
  ServeSpec probe = spec;
  probe.prefill = PrefillMode::Pd;
  probe.prefill_workers = 1;
  probe.instances = 1;
  probe.concurrency = 1;
  probe.rate = 0;
  probe.requests = kProbeRequests;
  probe.goodput = 0;
  probe.steps = 0;
  ServeResult r;
  if (!run_serve(s, probe, r, errors)) return false;
  worker = r.prefill_gpus;
  instance = r.gpus_per_instance;
  return worker > 0 && instance > 0;
}

bool search(const model::Scenario& s, const ServeSpec& spec, XpydSplit& split, model::Errors& errors) {
  ServeSpec at = spec;
  at.instances = split.decode_instances;
  at.prefill_workers = split.prefill_workers;
  if (split.prefill_workers > 0) at.prefill = PrefillMode::Pd;
  else if (spec.prefill == PrefillMode::Pd) at.prefill = PrefillMode::Auto;  // aggregated: the engine's own prefill
  ServeResult r;
  if (!find_goodput(s, at, r, errors)) return false;
  split.goodput_rate = r.goodput_rate;
  split.per_gpu = split.gpus > 0 ? r.goodput_rate / split.gpus : 0;
  split.runs = r.goodput_runs;
  return true;
}

std::string split_name(const XpydSplit& x) {
  return x.prefill_workers > 0 ? std::to_string(x.prefill_workers) + "P" + std::to_string(x.decode_instances) + "D"
                               : "aggregated (" + std::to_string(x.decode_instances) + ")";
}

}  // namespace

bool find_xpyd(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors) {
  const int total = spec.xpyd;
  if (!(spec.goodput > 0)) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "--xpyd", std::to_string(total),
                                       "a goodput to compare the splits by: --goodput P with --slo-ttft S or --slo-itl S"));
    return false;
  }
  double worker = 0, instance = 0;
  if (!unit_gpus(s, spec, worker, instance, errors)) return false;
  std::vector<XpydSplit> splits;
  for (int x = 1; x * worker + instance <= total + 1e-9; ++x) {
    const int y = static_cast<int>(std::floor((total - x * worker) / instance + 1e-9));
    if (y < 1) break;
    if ((x + 1) * worker + y * instance <= total + 1e-9) continue;  // another worker fits beside these: not a full split
    splits.push_back({x, y, x * worker + y * instance, 0, 0, 0});
  }
  const int aggregated = static_cast<int>(std::floor(total / instance + 1e-9));
  const std::string unit = "one prefill worker (" + model::num(worker) + " GPUs) and one decode instance (" + model::num(instance) + " GPUs)";
  if (splits.empty()) {
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "--xpyd", std::to_string(total), "at least the GPUs of " + unit));
    return false;
  }
  if (static_cast<int>(splits.size()) > kMostSplits || aggregated > kMostInstances || splits.front().decode_instances > kMostInstances) {
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "--xpyd", std::to_string(total),
                                       "a count that gives at most " + std::to_string(kMostSplits) + " splits and " + std::to_string(kMostInstances) +
                                           " instances, with " + unit));
    return false;
  }
  splits.push_back({0, aggregated, aggregated * instance, 0, 0, 0});
  for (XpydSplit& x : splits)
    if (!search(s, spec, x, errors)) return false;
  out.xpyd_gpus = total;
  out.xpyd = std::move(splits);
  return true;
}

std::string xpyd_text(const ServeResult& r) {
  if (r.xpyd.empty()) return {};
  std::string o = "xPyD on " + std::to_string(r.xpyd_gpus) + " GPUs: the goodput of each split (req/s at " + model::num(100 * r.goodput_at) +
                  " % attainment)\n";
  const XpydSplit* best = nullptr;
  for (const XpydSplit& x : r.xpyd)
    if (!best || x.per_gpu > best->per_gpu) best = &x;
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-16s %10s %12s %14s\n", "split", "GPUs", "goodput", "per GPU");
  o += buf;
  for (const XpydSplit& x : r.xpyd) {
    std::snprintf(buf, sizeof buf, "  %-16s %10s %12.3f %14.4f%s\n", split_name(x).c_str(), model::num(x.gpus).c_str(), x.goodput_rate, x.per_gpu,
                  &x == best ? "  ← most per GPU" : "");
    o += buf;
  }
  return o;
}

void xpyd_json(model::JsonWriter& w, const ServeResult& r) {
  if (r.xpyd.empty()) return;
  w.object("xpyd", model::json_lines(4)).integer("gpus", r.xpyd_gpus).array("splits", model::json_lines(6));
  for (const XpydSplit& x : r.xpyd) {
    w.object(model::kJsonSpaced).str("split", split_name(x)).integer("prefill_workers", x.prefill_workers).integer("decode_instances", x.decode_instances);
    w.num("gpus", x.gpus).num("goodput_rate", x.goodput_rate).num("goodput_per_gpu", x.per_gpu).integer("runs", x.runs).end();
  }
  w.end().end();
}

}  // namespace tierscope::serve
