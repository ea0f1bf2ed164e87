// The engine profile table (engine × GPU generation) and the resolution of a scenario's engine inputs
// against it. The sources named here are the ones each preset's engine inputs cite (preset_table.cpp).
#include "model/engine.h"

#include <algorithm>
#include <cmath>

namespace tierscope::model {

GpuGen gpu_gen(GpuKind g) { return gpu_info(g).gen; }

const char* engine_label(EngineKind e) {
  switch (e) {
    case EngineKind::Vllm: return "vLLM";
    case EngineKind::Sglang: return "SGLang";
    case EngineKind::Trtllm: return "TensorRT-LLM";
    case EngineKind::Deepseek: return "DeepSeek";
    case EngineKind::Count: break;
  }
  return "";
}

namespace {

constexpr const char* kLaunchSource =
    "a small decode kernel inside a CUDA graph (norm, RoPE, quantise, router, top-k) takes ~3 µs with its own work: 2-4 µs measured for such kernels, "
    "above the 0.9-1.3 µs of a trivial one (https://github.com/pytorch/pytorch/issues/161104 ; 0.6 µs per graph node, "
    "https://github.com/ahrefs/ocannl/issues/488); eager ~9 µs on Hopper, from Llama 3.1 8B on H100 at 8.4 ms eager "
    "against a 4.8 ms weight floor over ~360 kernels (FACTS-parallel §5.3, https://cloudai.pt/tag/cuda-graphs/), ~7 µs on Blackwell (assumed: "
    "faster hosts); CDNA 3.5 / 10 µs assumed from HIP graph nodes at ~3.9 µs (https://github.com/ROCm/rocm-systems/issues/10834)";
constexpr const char* kGemmSource =
    "DeepGEMM FP8 on H800 (https://github.com/deepseek-ai/DeepGEMM/blob/55ab91f/README.md): dense GEMMs at M = 64 stream 1,688-2,668 GB/s, "
    "which time = bytes / (0.84 × HBM) + 2.3 µs per kernel fits by least squares (four of six shapes within 1 %; a graphed BF16 batch-1 Llama "
    "step reaching 0.94, FACTS-parallel §5.3); masked grouped GEMMs at ≤ 64 rows per expert 0.42-0.65 "
    "(https://github.com/deepseek-ai/DeepGEMM/issues/114), NVFP4 on Blackwell 0.56-0.58 (https://github.com/flashinfer-ai/flashinfer/pull/2503); 0.70 taken, "
    "fitted on the measured runs of data/silicon as a whole (docs/validation.md: the MoE models' TPOT — DeepSeek-R1/V3, gpt-oss-120b, Qwen3-235B — "
    "came out 1.15-1.45× the measured at 0.55; a grid of 0.55-0.80 by 0.05 holds the most rows within 1.25× at 0.70 with the anchors' aims kept); "
    "compute share 0.75 × M / (M + 128) on Hopper (masked grouped FP8 at 256 rows 0.47, large M 0.62-0.72) and 0.55 × M / (M + 128) on Blackwell "
    "for dense GEMMs, 0.55 × M / (M + 250) for its NVFP4 W4A4 grouped expert GEMMs (0.27 measured at 227 rows per expert, 0.44 at 1024), "
    "fitted to the same tables with m_half small enough that every small-M GEMM stays memory-bound, as measured; CDNA assumed ~20 % lower. "
    "Dense NVFP4 (W4A4) GEMMs on Blackwell stream at 0.50 of HBM: CUTLASS's block-scaled FP4 GEMM reads 1.78 TB/s of B200's 8 at M = 1, "
    "8192 × 8192, where a 16-bit GEMM of that shape reads 5-6 (https://github.com/flashinfer-ai/flashinfer/issues/1732), and 3-4 TB/s at "
    "M = 16 where MXFP8 nears 6 (https://github.com/NVIDIA/cutlass/issues/2266); 0.50 fitted on the measured runs of data/silicon as a whole "
    "(docs/validation.md: Llama-3.1-70B in NVFP4 on B200 came out 0.8× the measured TPOT at 0.84, its FP8 rows at 1.0×; a grid of "
    "0.40-0.60 by 0.05 holds the most rows within 1.25× at 0.50)";
constexpr const char* kAttnSource =
    "FlashMLA on H800 ~3000 GB/s and ~660 TFLOP/s BF16, 0.90 and 0.67 (https://github.com/deepseek-ai/FlashMLA); Blackwell MLA decode 0.60 of HBM "
    "(CuTe-DSL kernel, https://github.com/vllm-project/vllm/pull/41778) and 0.45 of BF16 (assumed); paged GQA decode 0.55 of HBM on Hopper "
    "(FA3, https://github.com/Dao-AILab/flash-attention/issues/1572) and 0.63 on Blackwell (https://github.com/Dao-AILab/flash-attention/pull/2104), "
    "0.70 / 0.65 of BF16 in prefill (FlashAttention-3, https://arxiv.org/abs/2407.08608); the indexer's paged FP8 logits 0.79 of HBM on B200 "
    "(https://github.com/vllm-project/vllm/pull/48582) and 0.60 on Hopper (assumed), 0.50 of FP8 peak (DeepGEMM fp8_mqa_logits, "
    "https://github.com/sgl-project/sglang/issues/11989); CDNA assumed";

constexpr const char* kPrefillSource =
    "a prompt pass (or a step mixing prompt chunks into decodes) runs outside CUDA graphs, each kernel dispatched by the host through the engine's "
    "model code: SGLang 50 µs, its eager DeepSeek-V3 prefill forward of one new token taking 82.6 ms (23.1 ms replayed from a graph, "
    "https://github.com/sgl-project/sglang/pull/12160) over the 1,678 kernels the model counts in that pass; TensorRT-LLM 35 µs, the PyTorch "
    "runtime's CPU dispatch interval per kernel (https://github.com/NVIDIA/TensorRT-LLM/pull/12653) with its prefill CUDA-graph backend disabled by "
    "default (https://github.com/NVIDIA/TensorRT-LLM/pull/18366); vLLM compiles the model and replays piecewise CUDA graphs for mixed and prompt "
    "batches (https://docs.vllm.ai/en/latest/design/torch_compile.html), so a kernel there costs its eager launch (9 µs Hopper, 7 µs Blackwell, 10 µs CDNA assumed); "
    "DeepSeek's own assumed alike";

constexpr const char* kVllmBatch =
    "vLLM V1 defaults max_num_seqs to 1024 per engine (DP rank) on ≥70 GiB GPUs (https://github.com/vllm-project/vllm/blob/main/vllm/engine/arg_utils.py) "
    "and captures decode CUDA graphs up to 512 tokens (https://github.com/vllm-project/vllm/blob/main/vllm/config/vllm.py)";
constexpr const char* kSglangBatch =
    "SGLang runs at most min(KV fit, 4096) requests per worker (https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/model_executor/model_runner.py) "
    "and captures decode graphs up to cuda_graph_max_bs: 256 on 80-160 GB GPUs below TP4, else 512 "
    "(https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py)";
constexpr const char* kTrtBatch =
    "TensorRT-LLM's LLM API defaults max_batch_size to 2048 (https://nvidia.github.io/TensorRT-LLM/llm-api/reference.html); an empty "
    "cuda_graph_config captures up to batch 128 (https://nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/DecodeCudaGraphConfig.html)";
constexpr const char* kDeepseekBatch =
    "DeepSeek's decode profile runs 128 requests per GPU in a graph-captured step (https://github.com/deepseek-ai/profile-data)";
constexpr const char* kHostSource =
    "host per step h0 + h1 × running requests, overlapped one step ahead (on by default): shows where it outlasts the GPU step, plus a residual. "
    "h0 0.5 ms; h1 29 µs on TRT-LLM (45 ms at 1,536 requests, https://github.com/NVIDIA/TensorRT-LLM/pull/10273), 15 µs SGLang (assumed), "
    "4 µs vLLM (from https://github.com/vllm-project/vllm/pull/46112, assumed ×3-4); residual 0.45 ms TRT-LLM "
    "(https://github.com/NVIDIA/TensorRT-LLM/issues/13957), 0.2 ms SGLang (https://lmsys.org/blog/2024-12-04-sglang-v0-4/), 0.35 ms vLLM "
    "(async scheduling, https://github.com/vllm-project/vllm/pull/23569), 0.2 ms DeepSeek (assumed)";

constexpr const char* kSmallSource =
    "from each engine's model code with its default fusions (no engine publishes a trace count): an MLA + MoE decode layer launches ~28-34 "
    "kernels in vLLM (https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/deepseek_v2.py), ~26-30 in SGLang "
    "(https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/models/deepseek_v2.py), ~18-22 in TensorRT-LLM's 13 fused modules "
    "(https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog1_Pushing_Latency_Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md), "
    "24 assumed for DeepSeek's own; a GQA layer ~10-12 in vLLM (https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/llama.py), "
    "~8-10 in TensorRT-LLM; the model counts 13 (MLA + MoE) and 7 (GQA) kernels that carry bytes, the rest are these";

// The grouped expert GEMMs' share of HBM bandwidth on Hopper and Blackwell: fitted on the measured runs as a
// whole (kGemmSource), above the 0.42-0.65 DeepGEMM's masked kernels reach at ≤ 64 rows per expert and below the
// dense GEMMs' 0.84.
constexpr double kExpertBw = 0.70;
// Dense NVFP4 (W4A4) GEMMs' share of HBM bandwidth on Blackwell: the kernels' measured reads bound it (kGemmSource),
// the value fitted on the measured runs as a whole.
constexpr double kNvfp4DenseBw = 0.50;

// Ampere (A100) and Ada (L40S): no measured decode tables were found for these generations' serving kernels, so
// their rates are Hopper's where the same kernels run and lower, with the reason, where they do not.
constexpr const char* kAmpereAdaLaunchSource =
    "assumed as Hopper's (3 µs a small kernel in a CUDA graph, 9 µs eager): the same host stack and launch path; no per-generation "
    "measurement found (Hopper's sources: https://github.com/pytorch/pytorch/issues/161104 , FACTS-parallel §5.3)";
constexpr const char* kAmpereAdaGemmSource =
    "assumed as Hopper's GEMM curves (dense 0.84 of memory bandwidth with the 2.3 µs ramp, grouped experts 0.70 as fitted there; compute 0.75 × M / (M + 128)): "
    "cuBLAS BF16 GEMMs on A100 reach 0.7-0.85 of the 312 TF peak at large M (FlashAttention-2's GEMM baselines, https://arxiv.org/abs/2307.08691); "
    "FP8 and FP4 weights run as W8A16 / W4A16 at the BF16 rate (Marlin, https://github.com/IST-DASLab/marlin); L40S assumed alike";
constexpr const char* kAmpereAdaAttnSource =
    "paged decode attention 0.55 of memory bandwidth as Hopper's (assumed), FlashAttention-2 at 0.60 of BF16 peak (50-73 % of A100's peak forward, "
    "https://arxiv.org/abs/2307.08691); MLA without FlashMLA (Hopper and later only, https://github.com/deepseek-ai/FlashMLA) in Triton kernels, "
    "0.50 of bandwidth and 0.40 of peak, and the sparse indexer without DeepGEMM's FP8 logits kernel, 0.50 and 0.40: assumed";

// The kernel rates of one generation; the engine rows below add their batch, graph and host defaults.
EngineProfile kernels_of(GpuGen g) {
  EngineProfile p;
  switch (g) {
    case GpuGen::Ampere:
    case GpuGen::Ada:
      p.kernel_graph_us = 3, p.kernel_eager_us = 9;
      p.gemm = GemmCurve{0.84, 0.75, 128}, p.expert = GemmCurve{kExpertBw, 0.75, 128};
      p.mla_bw = 0.50, p.mla_flop = 0.40, p.paged_bw = 0.55, p.paged_flop = 0.60, p.index_bw = 0.50, p.index_flop = 0.40;
      break;
    case GpuGen::Hopper:
      p.kernel_graph_us = 3, p.kernel_eager_us = 9;
      p.gemm = GemmCurve{0.84, 0.75, 128}, p.expert = GemmCurve{kExpertBw, 0.75, 128};
      p.mla_bw = 0.90, p.mla_flop = 0.67, p.paged_bw = 0.55, p.paged_flop = 0.70, p.index_bw = 0.60, p.index_flop = 0.50;
      break;
    case GpuGen::Cdna:
      p.kernel_graph_us = 3.5, p.kernel_eager_us = 10;
      p.gemm = GemmCurve{0.55, 0.45, 128}, p.expert = GemmCurve{0.45, 0.45, 128};
      p.mla_bw = 0.50, p.mla_flop = 0.40, p.paged_bw = 0.50, p.paged_flop = 0.50, p.index_bw = 0.50, p.index_flop = 0.40;
      break;
    case GpuGen::Blackwell:
    case GpuGen::Count:
      p.kernel_graph_us = 3, p.kernel_eager_us = 7;
      p.gemm = GemmCurve{0.84, 0.55, 128}, p.expert = GemmCurve{kExpertBw, 0.55, 128};
      p.gemm_fp4_bw = kNvfp4DenseBw;
      p.mla_bw = 0.60, p.mla_flop = 0.45, p.paged_bw = 0.63, p.paged_flop = 0.65, p.index_bw = 0.79, p.index_flop = 0.50;
      break;
  }
  // Every generation: a kernel's ramp on top of its roofline time, fitted with the dense GEMMs' 0.84 share
  // to DeepGEMM's FP8 shapes at M = 64 on H800 (kGemmSource); assumed the same on Blackwell and CDNA.
  p.kernel_ramp_us = 2.3;
  p.prefill_host_us = p.kernel_eager_us;
  p.prefill_source = kPrefillSource;
  p.launch_source = kLaunchSource;
  p.gemm_source = kGemmSource;
  p.attn_source = kAttnSource;
  p.host_us = 500;
  p.host_source = kHostSource;
  p.small_source = kSmallSource;
  if (g == GpuGen::Ampere || g == GpuGen::Ada) {
    p.launch_source = kAmpereAdaLaunchSource;
    p.gemm_source = kAmpereAdaGemmSource;
    p.attn_source = kAmpereAdaAttnSource;
  }
  return p;
}

// Each kernel's host dispatch in a prompt pass (kPrefillSource).
constexpr double kSglangPrefillHostUs = 50, kTrtPrefillHostUs = 35;

EngineProfile make_profile(EngineKind e, GpuGen g) {
  EngineProfile p = kernels_of(g);
  switch (e) {
    case EngineKind::Vllm:
      p.max_batch = 1024, p.graph_max_batch = 512, p.host_per_seq_us = 4, p.host_res_us = 350;
      p.small = SmallKernels{9, 1, 9, 2};
      p.batch_source = kVllmBatch;
      break;
    case EngineKind::Sglang:
      p.max_batch = 4096, p.graph_max_batch = 512, p.host_per_seq_us = 15, p.host_res_us = 200;
      p.prefill_host_us = kSglangPrefillHostUs;
      p.small = SmallKernels{7, 1, 8, 2};
      p.batch_source = kSglangBatch;
      break;
    case EngineKind::Trtllm:
      p.max_batch = 2048, p.graph_max_batch = 128, p.host_per_seq_us = 29, p.host_res_us = 450;
      p.prefill_host_us = kTrtPrefillHostUs;
      p.small = SmallKernels{4, 0, 3, 2};
      p.batch_source = kTrtBatch;
      break;
    case EngineKind::Deepseek:
    case EngineKind::Count:
      p.max_batch = 128, p.graph_max_batch = 128, p.host_per_seq_us = 15, p.host_res_us = 200;
      p.small = SmallKernels{5, 1, 6, 2};
      p.batch_source = kDeepseekBatch;
      break;
  }
  return p;
}

struct ProfileTable {
  EngineProfile p[static_cast<int>(EngineKind::Count)][static_cast<int>(GpuGen::Count)];
  ProfileTable() {
    for (int e = 0; e < static_cast<int>(EngineKind::Count); ++e) {
      for (int g = 0; g < static_cast<int>(GpuGen::Count); ++g) p[e][g] = make_profile(static_cast<EngineKind>(e), static_cast<GpuGen>(g));
    }
  }
};

double pick(double input, double profile) { return input > 0 ? input : profile; }

}  // namespace

const EngineProfile& engine_profile(EngineKind e, GpuGen g) {
  static const ProfileTable table;
  const int ei = std::min(static_cast<int>(e), static_cast<int>(EngineKind::Count) - 1);
  const int gi = std::min(static_cast<int>(g), static_cast<int>(GpuGen::Count) - 1);
  return table.p[ei][gi];
}

namespace {
constexpr double kNvfp4ExpertMHalf = 250;  // rows per expert at half the saturated share, NVFP4 W4A4 on Blackwell
}  // namespace

EngineRates engine_rates(const Scenario& s) {
  const Engine& en = s.engine;
  const Hardware& hw = s.hw;
  const EngineProfile& p = engine_profile(en.kind, gpu_gen(hw.gpu));
  EngineRates r;
  // The engine's scheduler caps each attention replica; an explicit max_batch caps the whole instance.
  const int dp = std::max(1, s.par.dp);
  r.max_batch = en.max_batch > 0 ? en.max_batch : p.max_batch * dp;
  const double per_replica = std::ceil(std::max(1, s.work.batch) / static_cast<double>(dp) - 1e-9);
  // SGLang captures fewer graphs below TP4 on 80-160 GB GPUs (server_args.py).
  const int graph_max = en.kind == EngineKind::Sglang && gpu_gen(hw.gpu) == GpuGen::Hopper && s.par.tp < 4 ? 256 : p.graph_max_batch;
  r.graph_max_batch = graph_max;
  r.graphs = en.cuda_graphs == CudaGraphs::On || (en.cuda_graphs == CudaGraphs::Auto && per_replica <= graph_max);
  r.kernel_us = pick(hw.kernel_us, r.graphs ? p.kernel_graph_us : p.kernel_eager_us);
  r.prefill_kernel_us = pick(hw.kernel_us, p.prefill_host_us);
  r.ramp_us = pick(en.kernel_ramp_us, p.kernel_ramp_us);
  r.host_us = pick(en.host_us, p.host_us);
  r.host_per_seq_us = pick(en.host_per_seq_us, p.host_per_seq_us);
  r.host_res_us = pick(en.host_res_us, p.host_res_us);
  r.small = p.small;
  // Dense GEMMs with FP4 weights and FP4 activations on a part with FP4 tensor cores (NVFP4 W4A4) stream at
  // their own share (kGemmSource); an explicit gemm_bw_eff still wins.
  const bool dense_w4a4 = format_info(s.model.dense_fmt).value_bits <= 4 && format_info(s.model.act_fmt).value_bits <= 4 &&
                          gpu_info(hw.gpu).fp4_pflops > 0 && hw.compute == ComputeFormat::Formats;
  const double dense_bw = dense_w4a4 && p.gemm_fp4_bw > 0 ? p.gemm_fp4_bw : p.gemm.bw_eff;
  r.gemm = GemmCurve{pick(en.gemm_bw_eff, dense_bw), pick(en.gemm_flop_eff, p.gemm.flop_eff), pick(en.gemm_m_half, p.gemm.m_half)};
  // Grouped expert GEMMs with FP4 weights and FP4 activations on a part with FP4 tensor cores (NVFP4 W4A4)
  // reach half their share only at ~250 rows per expert (0.27 measured at 227 rows, FlashInfer's NVFP4
  // grouped GEMMs): the FP4 rate doubles the peak, so the same tile keeps them memory-bound at small M.
  const bool w4a4 = format_info(s.model.experts_fmt).value_bits <= 4 && format_info(s.model.act_fmt).value_bits <= 4 &&
                    gpu_info(hw.gpu).fp4_pflops > 0 && hw.compute == ComputeFormat::Formats;
  const double expert_m_half = w4a4 && gpu_gen(hw.gpu) == GpuGen::Blackwell ? kNvfp4ExpertMHalf : p.expert.m_half;
  r.expert = GemmCurve{pick(en.expert_bw_eff, p.expert.bw_eff), pick(en.expert_flop_eff, p.expert.flop_eff), pick(en.expert_m_half, expert_m_half)};
  const bool latent = s.model.attn != AttnKind::MHA;
  r.attn_bw = pick(en.attn_bw_eff, latent ? p.mla_bw : p.paged_bw);
  r.attn_flop = pick(en.attn_flop_eff, latent ? p.mla_flop : p.paged_flop);
  r.index_bw = pick(en.index_bw_eff, p.index_bw);
  r.index_flop = pick(en.index_flop_eff, p.index_flop);
  // mbu / mfu > 0: one forced share for every class, flat in M (m_half 0).
  if (hw.mbu > 0) r.gemm.bw_eff = r.expert.bw_eff = r.attn_bw = r.index_bw = hw.mbu;
  if (hw.mfu > 0) {
    r.gemm.flop_eff = r.expert.flop_eff = r.attn_flop = r.index_flop = hw.mfu;
    r.gemm.m_half = r.expert.m_half = 0;
  }
  return r;
}

}  // namespace tierscope::model
