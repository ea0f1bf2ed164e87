// The measured serving points' evaluation under the model (the points themselves are anchor_table.cpp's):
// each point's settings applied to its preset, the ratio and the step's terms, and the summary of how many
// hold within 2×.
#include "evidence/anchors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

const char* anchor_metric_name(AnchorMetric m) {
  switch (m) {
    case AnchorMetric::Tpot: return "TPOT";
    case AnchorMetric::TokensPerSGpu: return "output tokens/s per GPU";
    case AnchorMetric::StepTime: return "decode step";
    case AnchorMetric::DecodeTokensPerSGpu: return "decode tokens/s per GPU";
    case AnchorMetric::PrefillTokensPerSGpu: return "prefill input tokens/s per GPU";
    case AnchorMetric::TotalTokensPerSGpu: return "input + output tokens/s per GPU";
    case AnchorMetric::Count: break;
  }
  return "";
}

FigureId anchor_figure(AnchorMetric m) {
  switch (m) {
    case AnchorMetric::Tpot: return FigureId::ServeTpot;
    case AnchorMetric::TokensPerSGpu: return FigureId::ServeTokensPerSGpu;
    case AnchorMetric::StepTime: return FigureId::DecodeStepTime;
    case AnchorMetric::DecodeTokensPerSGpu: return FigureId::DecodeTokensPerSGpu;
    case AnchorMetric::PrefillTokensPerSGpu: return FigureId::PrefillTime;
    case AnchorMetric::TotalTokensPerSGpu: return FigureId::ServeTokensPerSGpu;  // times total_per_output
    case AnchorMetric::Count: break;
  }
  return FigureId::DecodeStepTime;
}

const char* anchor_unit(AnchorMetric m) {
  return m == AnchorMetric::Tpot || m == AnchorMetric::StepTime ? "s" : "tokens/s";
}

bool anchor_is_decode(AnchorMetric m) { return m != AnchorMetric::PrefillTokensPerSGpu && m != AnchorMetric::Count; }

double total_per_output(const Scenario& s) {
  const double out = std::max(1, s.work.output);
  return (std::max(0, s.work.prompt) + out) / out;
}

const char* anchor_family(const Anchor& a) {
  const std::string_view p = a.preset;
  if (p.starts_with("v41") || p.starts_with("v4-")) return "DeepSeek V4.1";
  if (p.starts_with("deepseek")) return "DeepSeek-V3 / R1";
  if (p.starts_with("llama")) return "Llama";
  if (p.starts_with("gpt-oss")) return "gpt-oss";
  if (p.starts_with("qwen3")) return "Qwen3";
  return "other";
}

AnchorResult evaluate_anchor(const Anchor& a, const ModelArch* model) {
  AnchorResult r;
  r.anchor = &a;
  if (!make_preset(a.preset, r.scenario)) {
    r.why = std::string("unknown preset ") + a.preset;
    return r;
  }
  if (model) r.scenario.model = *model;
  Scenario& s = r.scenario;
  bool to_capacity = false;
  std::int32_t requests = 0;  // 0: the benchmark's requests do not bound the batch
  for (const std::string_view item : split(a.settings, '&')) {
    const std::size_t eq = item.find('=');
    const std::string key(item.substr(0, eq)), value(item.substr(eq + 1));
    if (key == "batch" && value == "capacity") {
      to_capacity = true;
      continue;
    }
    if (key == "requests") {  // the benchmark's whole set of requests: batch=capacity runs at most these
      char* end = nullptr;
      const long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1 || n > 10000000) {
        r.why = "requests = " + value + ": a whole number of requests from 1 to 10,000,000";
        return r;
      }
      requests = static_cast<std::int32_t>(n);
      continue;
    }
    const ParamDef* p = find_param(key);
    Adjustments moved;
    Error err;
    if (!p || !edit_param(s, *p, value, moved, err)) {
      r.why = p ? err.message() : "unknown key " + key;
      return r;
    }
  }
  if (to_capacity) {
    Computed c;
    s.work.batch = 1;
    compute_values(s, c);
    s.work.batch = static_cast<std::int32_t>(std::max(1.0, c.values[FigureId::HbmSessions]));
    if (requests > 0) s.work.batch = std::min(s.work.batch, requests);
  }
  r.offline_requests = requests;
  if (const Errors e = validate(s); !e.empty()) {
    r.why = e.front().message();
    return r;
  }
  Computed c;
  compute_values(s, c);
  if (!c.terms.feasible()) {
    r.why = infeasible_summary(c.terms);
    return r;
  }
  const Values& v = c.values;
  r.ok = true;
  if (a.metric == AnchorMetric::PrefillTokensPerSGpu) {
    // dp replicas each prefill one prompt in prefill.time; the metric counts their prompt tokens per GPU.
    const double prefill = v[FigureId::PrefillTime];
    const double tokens_per_gpu = static_cast<double>(s.par.dp) * s.work.prompt / c.terms.gpus;
    r.model = prefill > 0 ? tokens_per_gpu / prefill : 0.0;
    r.ratio = a.measured > 0 ? r.model / a.measured : 0.0;
    r.step_model = prefill;
    r.step_measured = a.measured > 0 ? tokens_per_gpu / a.measured : 0.0;
    return r;  // no decode terms: the gap is read against the prefill pass (prefill.full_time + prefill.window_time)
  }
  // A total (input + output) throughput counts each output token with its share of the prompt.
  const double total = a.metric == AnchorMetric::TotalTokensPerSGpu ? total_per_output(s) : 1.0;
  r.model = v[anchor_figure(a.metric)] * total;
  r.ratio = a.measured > 0 ? r.model / a.measured : 0.0;
  const double per_step = std::max(1, s.work.batch) * c.terms.accepted / c.terms.gpus;  // output tokens per GPU per step
  const bool serve = a.metric == AnchorMetric::Tpot || a.metric == AnchorMetric::TokensPerSGpu || a.metric == AnchorMetric::TotalTokensPerSGpu;
  switch (a.metric) {
    case AnchorMetric::Tpot:
      r.step_model = r.model * c.terms.accepted;
      r.step_measured = a.measured * c.terms.accepted;
      break;
    case AnchorMetric::TokensPerSGpu:
    case AnchorMetric::DecodeTokensPerSGpu:
    case AnchorMetric::TotalTokensPerSGpu:
      r.step_model = per_step * total / r.model;
      r.step_measured = per_step * total / a.measured;
      break;
    case AnchorMetric::StepTime:
    case AnchorMetric::PrefillTokensPerSGpu:
    case AnchorMetric::Count:
      r.step_model = r.model;
      r.step_measured = a.measured;
      break;
  }
  r.terms = step_terms(v, serve);
  return r;
}

std::vector<AnchorResult> evaluate_anchors() {
  std::vector<AnchorResult> out;
  for (const Anchor& a : anchors()) out.push_back(evaluate_anchor(a));
  return out;
}

bool counts_toward_aim(const AnchorResult& r) { return r.anchor && !r.anchor->replay; }

AnchorSummary summarize_anchors(const std::vector<AnchorResult>& results) {
  AnchorSummary out;
  std::vector<double> logs;
  for (const AnchorResult& r : results) {
    if (r.anchor->replay) {
      out.replay += 1;
      continue;
    }
    // A point the model cannot compute is a miss: it counts, outside 2× and beyond every ratio in the median.
    out.points += 1;
    if (!r.ok || r.ratio <= 0) {
      out.not_computed += 1;
      logs.push_back(std::numeric_limits<double>::infinity());
      continue;
    }
    const double l = std::fabs(std::log2(r.ratio));
    logs.push_back(l);
    if (l <= 1.0) out.within_2x += 1;
  }
  if (!logs.empty()) {
    std::sort(logs.begin(), logs.end());
    const std::size_t n = logs.size();
    out.median_abs_log2 = n % 2 ? logs[n / 2] : 0.5 * (logs[n / 2 - 1] + logs[n / 2]);
  }
  return out;
}

std::string anchor_summary_text(const AnchorSummary& s) {
  const std::string missed = s.not_computed > 0 ? " (" + std::to_string(s.not_computed) + " not computed, each a miss that says why)" : "";
  char buf[320];
  std::snprintf(buf, sizeof buf, "%d of %d single-step points within 2×%s, median |log₂(model ÷ measured)| %.2f; %d marked for the serving replay",
                s.within_2x, s.points, missed.c_str(), s.median_abs_log2, s.replay);
  return buf;
}

}  // namespace tierscope::model
