// Measured serving points (FACTS-parallel §6, FACTS §1.4.7) and their evaluation under the model.
#include "evidence/anchors.h"

#include <cmath>
#include <string_view>

#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

namespace {

constexpr const char* kInferenceX = "https://inferencex.semianalysis.com/inference/deepseek-v41-flash";
constexpr const char* kTrtBest = "https://nvidia.github.io/TensorRT-LLM/latest/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.html";
constexpr const char* kTrtPerf = "https://nvidia.github.io/TensorRT-LLM/developer-guide/perf-overview.html";

// Settings quote the source; where the source is silent the value is listed in `assumed`.
const Anchor kAnchors[] = {
    {"v41-gb300-c1", "DeepSeek V4.1 Flash, 4×GB300 TP4, vLLM with MTP, concurrency 1", "v41-flash-4xgb300",
     "batch=1&spec_tokens=3&prompt=1024&output=1024&prefix_hit=0&ctx=1536",
     "1K/1K sequences (context 1,536 on average) and 3 draft tokens: the source gives neither", AnchorMetric::Tpot, 2.1e-3,
     Provenance::Measured, "2026-10", kInferenceX},
    {"v41-gb300-c128", "DeepSeek V4.1 Flash, 4×GB300 TP4, vLLM with MTP, concurrency 128", "v41-flash-4xgb300",
     "batch=128&spec_tokens=3&prompt=1024&output=1024&prefix_hit=0&ctx=1536",
     "1K/1K sequences (context 1,536 on average) and 3 draft tokens: the source gives neither", AnchorMetric::Tpot, 25.1e-3,
     Provenance::Measured, "2026-10", kInferenceX},
    {"r1-h200-tp8-mtp", "DeepSeek-R1 FP8, 8×H200, TensorRT-LLM, TP8 attention + EP4, MTP3, batch 1", "deepseek-v3-8xh200",
     "tp=8&ep=4&spec_tokens=3&batch=1&prompt=1024&output=2048&prefix_hit=0&ctx=2048",
     "context 2,048 on average for 1K in / 2K out", AnchorMetric::Tpot, 1.0 / 158.1, Provenance::Engine, "2025", kTrtBest},
    {"r1-h200-dep8", "DeepSeek-R1 FP8, 8×H200, TensorRT-LLM, DEP8 (attention DP8, EP8), 1,024 concurrent", "deepseek-v3-8xh200",
     "dp=8&ep=8&batch=1024&prompt=1024&output=2048&prefix_hit=0&ctx=2048",
     "context 2,048 on average for 1K in / 2K out", AnchorMetric::TokensPerSGpu, 1436, Provenance::Engine, "2025", kTrtBest},
    {"r1-b200-fp4-mtp", "DeepSeek-R1 FP4, 8×B200, TensorRT-LLM, TP8 attention, MoE TP4×EP2, MTP3, batch 1", "deepseek-v3-8xh200",
     "gpu=b200&experts_fmt=fp4_g16&act_fmt=fp4_g16&tp=8&ep=2&spec_tokens=3&batch=1&prompt=1024&output=2048&prefix_hit=0&ctx=2048",
     "context 2,048 on average for 1K in / 2K out", AnchorMetric::Tpot, 1.0 / 274.7, Provenance::Engine, "2025", kTrtBest},
    {"r1-b200-fp4-dep8", "DeepSeek-R1 FP4, 8×B200, TensorRT-LLM, DEP8, 3,072 concurrent, BF16 KV", "deepseek-v3-8xh200",
     "gpu=b200&experts_fmt=fp4_g16&act_fmt=fp4_g16&dp=8&ep=8&batch=3072&prompt=1024&output=2048&prefix_hit=0&ctx=2048",
     "context 2,048 on average for 1K in / 2K out", AnchorMetric::TokensPerSGpu, 4548, Provenance::Engine, "2025", kTrtBest},
    {"v3-h100-ep72", "DeepSeek-V3 FP8, 72×H100 decode pool, SGLang, EP72 with 288 slots, 256 sessions per GPU", "deepseek-v3-8xh200",
     "gpu=h100&gpus=72&dp=72&ep=72&redundant=32&batch=18432&ctx=2048", "", AnchorMetric::StepTime, 91.9e-3, Provenance::Engine,
     "2025-05", "https://lmsys.org/blog/2025-05-05-large-scale-ep/"},
    {"v3-gb200-ep48", "DeepSeek-V3 FP8 attention + NVFP4 MoE, 48 GB200 decode ranks, SGLang, 1,408 sessions per GPU", "deepseek-v3-8xh200",
     "gpu=gb200&gpus=48&dp=48&ep=48&redundant=32&experts_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&batch=67584&ctx=2048",
     "FP8 KV cache and 288 expert slots (the source's KV traffic fits FP8 at 2K context)", AnchorMetric::DecodeTokensPerSGpu, 13386,
     Provenance::Engine, "2025-09", "https://lmsys.org/blog/2025-09-25-gb200-part-2/"},
    {"llama8b-h100-b1", "Llama 3.1 8B BF16, 1×H100, one decode step at batch 1 with CUDA graphs", "llama31-8b-1xh100", "batch=1&ctx=1024",
     "context 1,024", AnchorMetric::StepTime, 5.1e-3, Provenance::Measured, "2026", "https://cloudai.pt/tag/cuda-graphs/"},
    {"llama70b-h100-tp2", "Llama 3.3 70B FP8, 2×H100 TP2, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpus=2&tp=2&dense_fmt=fp8&act_fmt=fp8&kv_fmt=fp8&prompt=1024&output=1024&prefix_hit=0&ctx=1536&batch=capacity",
     "FP8 KV cache; maximum load read as every session that fits in HBM", AnchorMetric::TokensPerSGpu, 2209, Provenance::Engine, "2026",
     kTrtPerf},
    {"llama70b-h200-tp2", "Llama 3.3 70B FP8, 2×H200 TP2, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=h200&gpus=2&tp=2&dense_fmt=fp8&act_fmt=fp8&kv_fmt=fp8&prompt=1024&output=1024&prefix_hit=0&ctx=1536&batch=capacity",
     "FP8 KV cache; maximum load read as every session that fits in HBM", AnchorMetric::TokensPerSGpu, 2587, Provenance::Engine, "2026",
     kTrtPerf},
};

}  // namespace

const char* anchor_metric_name(AnchorMetric m) {
  switch (m) {
    case AnchorMetric::Tpot: return "TPOT";
    case AnchorMetric::TokensPerSGpu: return "output tokens/s per GPU";
    case AnchorMetric::StepTime: return "decode step";
    case AnchorMetric::DecodeTokensPerSGpu: return "decode tokens/s per GPU";
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
    case AnchorMetric::Count: break;
  }
  return FigureId::DecodeStepTime;
}

std::span<const Anchor> anchors() { return {kAnchors, sizeof kAnchors / sizeof kAnchors[0]}; }

AnchorResult evaluate_anchor(const Anchor& a) {
  AnchorResult r;
  r.anchor = &a;
  if (!make_preset(a.preset, r.scenario)) {
    r.why = std::string("unknown preset ") + a.preset;
    return r;
  }
  Scenario& s = r.scenario;
  bool to_capacity = false;
  std::string_view rest = a.settings;
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view item = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    const std::size_t eq = item.find('=');
    const std::string key(item.substr(0, eq)), value(item.substr(eq + 1));
    if (key == "batch" && value == "capacity") {
      to_capacity = true;
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
  }
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
  r.model = v[anchor_figure(a.metric)];
  r.ratio = a.measured > 0 ? r.model / a.measured : 0.0;
  const double per_step = std::max(1, s.work.batch) * c.terms.accepted / c.terms.gpus;  // output tokens per GPU per step
  const bool serve = a.metric == AnchorMetric::Tpot || a.metric == AnchorMetric::TokensPerSGpu;
  switch (a.metric) {
    case AnchorMetric::Tpot:
      r.step_model = r.model * c.terms.accepted;
      r.step_measured = a.measured * c.terms.accepted;
      break;
    case AnchorMetric::TokensPerSGpu:
    case AnchorMetric::DecodeTokensPerSGpu:
      r.step_model = per_step / r.model;
      r.step_measured = per_step / a.measured;
      break;
    case AnchorMetric::StepTime:
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

}  // namespace tierscope::model
