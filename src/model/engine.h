// The serving engine's profile: per engine × GPU generation, the defaults a step inherits when the
// scenario leaves an engine input at 0 (running-batch cap, CUDA-graph capture, launch costs, host time,
// and each kernel class's achieved rates), each with the source it comes from; and the resolution of a
// scenario's inputs against it (engine_rates), so the roofline reads one set of numbers.
#pragma once

#include "model/scenario.h"

namespace tierscope::model {

// The GPU's generation (its row's, catalogs.h): kernels and launch paths differ by generation, not by SKU.
GpuGen gpu_gen(GpuKind g);

// A GEMM class's achieved shares in its M (rows of the GEMM: tokens for dense GEMMs, rows per expert on
// the busiest rank for grouped ones): a weight-streaming GEMM reads HBM at a flat share bw_eff, and its
// compute side saturates as flop_share(M) = flop_eff × M / (M + m_half) (SOURCES: DeepGEMM's tables).
// Both are monotone in M and bounded by their eff ≤ 1; a share forced by mfu has m_half 0 (flat).
struct GemmCurve {
  double bw_eff = 0, flop_eff = 0, m_half = 0;
  double bw_at(double) const { return bw_eff; }
  double flop_at(double m) const { return m > 0 ? flop_eff * m / (m + m_half) : 0.0; }
};

// Small kernels a layer launches beyond the ones that carry its weights and KV (norms, RoPE, quantise,
// router top-k, permute, split-KV combine, activation): each costs a launch floor whatever else runs, so
// they add to their class instead of hiding under its roofs. Counted per engine from its model code.
struct SmallKernels {
  double attn_latent = 0;  // per latent (MLA-style) attention layer
  double attn_gqa = 0;     // per GQA / MHA attention layer
  double moe = 0;          // per MoE layer
  double dense_ffn = 0;    // per dense FFN layer
};

// One engine on one GPU generation: every default with its source.
struct EngineProfile {
  int max_batch = 0;           // running sessions one instance schedules by default
  int graph_max_batch = 0;     // the largest decode batch captured in CUDA graphs by default (0: none)
  double kernel_graph_us = 0;  // a small kernel's time when replayed from a CUDA graph
  double kernel_eager_us = 0;  // the same launched eagerly from the host
  // A kernel of a prompt pass or of a step that mixes prompt chunks into decodes: the host's dispatch of it
  // through the engine's model code, as no engine here replays those passes from CUDA graphs by default.
  double prefill_host_us = 0;
  double kernel_ramp_us = 0;   // a kernel's fixed cost on top of its roofline time (launch to first bytes, tail)
  // Host scheduling, input preparation and sampling per step: h0 + h1 × running requests, run one step
  // ahead by the overlap scheduler (on by default in every engine here): it shows only where it outlasts
  // the GPU's step, plus a residual that is always exposed.
  double host_us = 0, host_per_seq_us = 0, host_res_us = 0;
  GemmCurve gemm, expert;      // dense GEMMs (M = tokens), grouped expert GEMMs (M = rows per expert)
  // Dense GEMMs whose weights and activations are both FP4 (NVFP4 W4A4) on FP4 tensor cores: the HBM share they
  // stream at, in place of gemm's (0: the same as gemm's). Their block-scaled kernels read far below FP8's share.
  double gemm_fp4_bw = 0;
  double mla_bw = 0, mla_flop = 0;      // latent (MLA) decode attention: FlashMLA-class kernels
  double paged_bw = 0, paged_flop = 0;  // paged GQA/MHA attention: FlashInfer / FlashAttention-3 class
  double index_bw = 0, index_flop = 0;  // the sparse indexer's scoring kernel
  SmallKernels small;
  const char* small_source = "";    // small
  const char* batch_source = "";    // max_batch, graph_max_batch
  const char* launch_source = "";   // kernel_graph_us, kernel_eager_us
  const char* prefill_source = "";  // prefill_host_us
  const char* host_source = "";     // host_us, host_per_seq_us, host_res_us
  const char* gemm_source = "";     // both GEMM curves
  const char* attn_source = "";     // attention and indexer rates
};
const EngineProfile& engine_profile(EngineKind e, GpuGen g);
const char* engine_label(EngineKind e);  // "vLLM", "SGLang", "TensorRT-LLM", "DeepSeek"

// A scenario's engine inputs resolved against its profile: an input > 0 wins, 0 takes the profile's.
// mbu / mfu > 0 force that share on every class (the design card's "mbu=1").
struct EngineRates {
  int max_batch = 0;       // the running-batch cap in force
  bool graphs = false;     // whether this decode step replays CUDA graphs
  int graph_max_batch = 0; // the largest batch per attention replica the engine captures
  double kernel_us = 0;    // the launch floor per kernel at this batch
  double ramp_us = 0;      // each kernel's fixed cost on top of its roofline time
  double host_us = 0, host_per_seq_us = 0, host_res_us = 0;
  GemmCurve gemm, expert;
  double attn_bw = 0, attn_flop = 0, index_bw = 0, index_flop = 0;
  double prefill_kernel_us = 0;  // a prompt pass's kernel: its host dispatch (engines capture decode only)
  SmallKernels small;            // the engine's small kernels per layer (each at kernel_us)
};
EngineRates engine_rates(const Scenario& s);

}  // namespace tierscope::model
