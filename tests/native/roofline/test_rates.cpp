// Kernel classes at their own rates and the engine's limits: each GEMM class's curve is monotone in M and
// bounded by its roof, batch 1 is no longer decided by launch floors alone, CUDA graphs matter, and the
// engine's running-batch cap bounds capacity with a message that names it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "model/engine.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

TEST_CASE("rates: every GEMM curve is monotone in M and bounded by its roof, in every engine and generation") {
  for (int e = 0; e < static_cast<int>(EngineKind::Count); ++e) {
    for (int g = 0; g < static_cast<int>(GpuGen::Count); ++g) {
      const EngineProfile& p = engine_profile(static_cast<EngineKind>(e), static_cast<GpuGen>(g));
      for (const GemmCurve* c : {&p.gemm, &p.expert}) {
        INFO("engine " << e << " generation " << g);
        double last_bw = 0, last_flop = 0;
        for (double m = 1; m <= 1 << 20; m *= 2) {
          CHECK(c->bw_at(m) >= last_bw);
          CHECK(c->flop_at(m) >= last_flop);
          CHECK(c->bw_at(m) <= c->bw_eff);
          CHECK(c->flop_at(m) <= c->flop_eff);
          CHECK(c->bw_eff <= 1.0);
          CHECK(c->flop_eff <= 1.0);
          last_bw = c->bw_at(m);
          last_flop = c->flop_at(m);
        }
        CHECK(c->flop_at(1) < 0.5 * c->flop_eff);  // small M runs far below the compute roof
      }
      CHECK(p.mla_bw <= 1.0);
      CHECK(p.paged_bw <= 1.0);
      CHECK(p.index_bw <= 1.0);
      CHECK(p.kernel_graph_us < p.kernel_eager_us);
      CHECK(p.max_batch > 0);
    }
  }
}

TEST_CASE("rates: each class's achieved rates in the step stay below the GPU's roofs") {
  for (const char* name : {"v41-flash-8xb200", "deepseek-v3-8xh200", "llama31-8b-1xh100"}) {
    Scenario s = preset(name);
    for (const char* batch : {"1", "64", "512"}) {
      edit(s, "batch", batch);
      const Computed c = computed(s);
      INFO(name << " batch " << batch);
      for (int i = 0; i < kWorkClasses; ++i) {
        CHECK(c.terms.step.bw_c[i] <= c.terms.bw_raw);
        CHECK(c.terms.step.bw_c[i] > 0);
      }
    }
  }
}

TEST_CASE("rates: V4.1 at batch 1 differs between 128K and 1M context (the floor no longer decides everything)") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "ctx", "131072");
  const double short_step = values(s)[F::DecodeStepTime];
  edit(s, "ctx", "1048576");
  const double long_step = values(s)[F::DecodeStepTime];
  CHECK(long_step > short_step);
}

TEST_CASE("rates: CUDA graphs off is slower, and auto runs eagerly above the engine's captured batch") {
  Scenario s = preset("v41-flash-8xb200");
  const Computed on = computed(s);
  CHECK(on.terms.cuda_graphs);
  edit(s, "cuda_graphs", "off");
  const Computed off = computed(s);
  CHECK_FALSE(off.terms.cuda_graphs);
  CHECK(off.values[F::DecodeStepTime] > on.values[F::DecodeStepTime]);
  CHECK(off.terms.kernel_us > on.terms.kernel_us);
  // vLLM captures up to 512 tokens per replica: batch 1024 (cap 1024) runs eagerly under auto.
  edit(s, "cuda_graphs", "auto");
  edit(s, "batch", "1024");
  const Computed big = computed(s);
  CHECK_FALSE(big.terms.cuda_graphs);
}

TEST_CASE("rates: small kernels add their launch floors beside the roofs, by the engine's count per layer") {
  // DeepSeek-V3 on 8 H200 at batch 1: whatever the classes' roofs, the norms, RoPE, quantise and top-k
  // kernels launch anyway, so the step grows with the engine's count of them.
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "batch", "1");
  edit(s, "engine", "trtllm");
  const Computed trt = computed(s);
  edit(s, "engine", "vllm");
  const Computed vllm = computed(s);
  const SmallKernels& a = engine_profile(EngineKind::Trtllm, GpuGen::Hopper).small;
  const SmallKernels& b = engine_profile(EngineKind::Vllm, GpuGen::Hopper).small;
  REQUIRE(b.attn_latent + b.moe > a.attn_latent + a.moe);
  // The counts differ by (Δ attention × layers + Δ MoE × MoE layers) kernels per step; each costs kernel_us
  // (3 µs in a graph on both), and the host terms differ too: compare the GPU's step only.
  const double layers = trt.terms.layers, moe_layers = trt.terms.moe_layers;
  const double extra = (b.attn_latent - a.attn_latent) * layers + (b.moe - a.moe) * moe_layers;
  CHECK(vllm.terms.kernels_per_step - trt.terms.kernels_per_step == Approx(extra));
  CHECK(vllm.terms.gpu_step - trt.terms.gpu_step == Approx(extra * trt.terms.kernel_us * 1e-6).epsilon(0.02));
  // They count in decode.t_overhead, the launch floors above both roofs.
  CHECK(trt.values[F::DecodeTOverhead] >= (a.attn_latent * layers + a.moe * moe_layers) * trt.terms.kernel_us * 1e-6 * 0.999);
}

TEST_CASE("rates: the host's time is one term of the step, hidden where the GPU step outlasts it") {
  Scenario s = preset("v41-flash-8xb200");
  const Computed c = computed(s);
  CHECK(c.values[F::DecodeTHost] >= c.terms.host_res_us * 1e-6 - 1e-15);
  CHECK(c.values[F::DecodeStepTime] == Approx(c.terms.gpu_step + c.values[F::DecodeTHost]));
  edit(s, "host_us", "100000");  // a host slower than the GPU's step shows past it
  const Computed slow = computed(s);
  CHECK(slow.values[F::DecodeStepTime] == Approx(slow.terms.host_step + slow.terms.host_res_us * 1e-6));
  // The per-request time and the residual are inputs too: 1 ms per request at batch 64 outlasts the GPU.
  edit(s, "host_us", "0");
  edit(s, "batch", "64");
  edit(s, "host_per_seq_us", "1000");
  edit(s, "host_res_us", "50");
  const Computed per_seq = computed(s);
  CHECK(per_seq.terms.host_res_us == 50);
  CHECK(per_seq.terms.host_step == Approx((per_seq.terms.host_us + 1000.0 * per_seq.terms.batch_replica) * 1e-6));
  CHECK(per_seq.values[F::DecodeStepTime] == Approx(per_seq.terms.host_step + 50e-6));
}

TEST_CASE("capacity: the engine's running-batch cap bounds hbm.sessions, and a batch above it is infeasible, named") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "ctx", "2048");
  const Computed free_cap = computed(s);
  const double hbm = free_cap.terms.sessions_hbm;
  REQUIRE(hbm > 64);
  edit(s, "max_batch", "64");
  const Computed capped = computed(s);
  CHECK(capped.values[F::HbmSessions] == 64);
  CHECK(capped.terms.sessions_hbm == hbm);
  edit(s, "batch", "64");
  CHECK(computed(s).terms.feasible());
  edit(s, "batch", "65");
  const Computed over = computed(s);
  REQUIRE_FALSE(over.terms.feasible());
  CHECK(over.terms.infeasible[0].kind == Infeasible::BatchOverCapacity);
  CHECK(over.terms.infeasible[0].engine_cap == 64);
  const std::string why = infeasible_text(over.terms.infeasible[0]);
  CHECK(why.find("max_batch") != std::string::npos);
  CHECK(why.find("64") != std::string::npos);
  // The engine's own default: vLLM's 1024 per replica.
  edit(s, "max_batch", "0");
  edit(s, "batch", "1");
  CHECK(computed(s).values[F::HbmSessions] == std::min(hbm, 1024.0 * computed(s).terms.dp));
}

// A100 has no FP8 or FP4 tensor cores: FP8 and FP4 weights are dequantised and multiplied at its BF16 rate, as is
// an FP8-forced compute setting; a Hopper part runs FP4 weights at BF16 and FP8 at FP8; a Blackwell part each at its own.
TEST_CASE("rates: a part without FP8 units runs FP8 and FP4 work at its BF16 rate, one without FP4 at its FP8 rate") {
  Hardware a100;
  a100.gpu = gpu_kind("a100_80gb");
  const double bf16 = gpu_info(a100.gpu).bf16_pflops;
  REQUIRE(gpu_info(a100.gpu).fp8_pflops == 0);
  CHECK(gemm_pflops(a100, NumFormat::FP8_B128, NumFormat::FP8) == bf16);
  CHECK(gemm_pflops(a100, NumFormat::FP4_G16, NumFormat::FP4_G16) == bf16);
  CHECK(gemm_pflops(a100, NumFormat::INT4_G128, NumFormat::BF16) == bf16);
  CHECK(gemm_pflops(a100, NumFormat::BF16, NumFormat::BF16) == bf16);
  a100.compute = ComputeFormat::FP8;
  CHECK(gemm_pflops(a100, NumFormat::BF16, NumFormat::BF16) == bf16);
  CHECK(compute_pflops_per_gpu(a100) == bf16);
  a100.compute = ComputeFormat::FP4;
  CHECK(compute_pflops_per_gpu(a100) == bf16);
  Hardware h20;
  h20.gpu = gpu_kind("h20");
  CHECK(gemm_pflops(h20, NumFormat::FP8_B128, NumFormat::FP8) == gpu_info(h20.gpu).fp8_pflops);
  CHECK(gemm_pflops(h20, NumFormat::FP4_G32, NumFormat::BF16) == gpu_info(h20.gpu).bf16_pflops);
  Hardware rtx;
  rtx.gpu = gpu_kind("rtx_pro_6000");
  CHECK(gemm_pflops(rtx, NumFormat::FP4_G16, NumFormat::FP4_G16) == gpu_info(rtx.gpu).fp4_pflops);
  CHECK(gemm_pflops(rtx, NumFormat::BF16, NumFormat::BF16) == gpu_info(rtx.gpu).bf16_pflops);
  // The figure names the format it counts.
  Scenario s = preset("llama31-8b-1xh100");
  set(s, "gpu", "a100_80gb");
  const Figures f = describe(s);
  CHECK(f[FigureId::HwPeakFlops].value == bf16 * 1e15);
  CHECK(f[FigureId::HwPeakFlops].formula().find("BF16") != std::string::npos);
  // Each new generation has its profile with its sources, and a top-k rate.
  for (GpuGen g : {GpuGen::Ampere, GpuGen::Ada}) {
    const EngineProfile& p = engine_profile(EngineKind::Vllm, g);
    CHECK(std::string(p.gemm_source).find("assumed") != std::string::npos);
    CHECK(std::string(p.attn_source).find("arxiv.org") != std::string::npos);
    CHECK(p.mla_bw < engine_profile(EngineKind::Vllm, GpuGen::Hopper).mla_bw);
  }
}

TEST_CASE("rates: a prompt pass's kernels cost their host dispatch: SGLang and TensorRT-LLM dispatch them from Python, vLLM replays graphs") {
  for (int g = 0; g < static_cast<int>(GpuGen::Count); ++g) {
    const GpuGen gen = static_cast<GpuGen>(g);
    const EngineProfile& v = engine_profile(EngineKind::Vllm, gen);
    const EngineProfile& sg = engine_profile(EngineKind::Sglang, gen);
    const EngineProfile& trt = engine_profile(EngineKind::Trtllm, gen);
    INFO("generation " << g);
    CHECK(v.prefill_host_us == v.kernel_eager_us);
    CHECK(sg.prefill_host_us > 4 * v.prefill_host_us);
    CHECK(trt.prefill_host_us > 3 * v.prefill_host_us);
    CHECK(std::string(sg.prefill_source).find("sglang/pull/12160") != std::string::npos);
  }
  // The same prompt under SGLang takes longer than under vLLM at batch 1, and its pass is at least its
  // kernels × the dispatch (the floor the classes' formulas show).
  Scenario s = preset("llama31-8b-1xh100");
  edit(s, "prompt", "128");
  edit(s, "engine", "vllm");
  const double vllm = values(s)[F::PrefillTime];
  edit(s, "engine", "sglang");
  const Computed c = computed(s);
  CHECK(c.values[F::PrefillTime] > vllm);
  double kernels = 0;
  for (int i = 0; i < kWorkClasses; ++i) kernels += c.terms.prefill.full.floor_c[i] + c.terms.prefill.full.small_c[i];
  CHECK(c.terms.prefill.full.time() >= kernels * (1 - 1e-12));
}
