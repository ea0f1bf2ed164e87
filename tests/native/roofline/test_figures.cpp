// Every derived figure against independent arithmetic from the fact sheet and calc_output.txt.
//
// Sections: the figure table and the layout label · V4.1 Flash against the fact sheet (KV, parameters,
// weights, experts, top-k, index, SWA, Engram, prefix, prefill, prices) · other presets' published sizes ·
// closed form and layer modes · the prefix tiers and data-parallel prefill · top-k select, the crossover,
// formulas on first read · kernel ramps · figure dependencies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "model/engine.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

TEST_CASE("figure table: ids are unique, ordered and found by name") {
  std::set<std::string> ids;
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureInfo& info = figure_info(static_cast<FigureId>(i));
    CHECK(static_cast<int>(info.fid) == i);
    CHECK(ids.insert(info.id).second);
    CHECK(figure_id(info.id) == info.fid);
  }
  CHECK(figure_id("no.such_figure") == FigureId::Count);
  const Figures f = describe(default_scenario());
  REQUIRE(f.list.size() == static_cast<std::size_t>(kFigureCount));
  REQUIRE(f.find("kv.global_per_token") != nullptr);
  CHECK(f.find("kv.global_per_token")->value == Approx(890.0));
  CHECK(f.find("nope") == nullptr);
}

TEST_CASE("figure table: every figure says what it counts, and the label does not contradict it") {
  std::set<std::string> names;
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureInfo& info = figure_info(static_cast<FigureId>(i));
    INFO(info.id);
    REQUIRE(info.scope != Scope::Count);  // a row without a scope
    CHECK(std::string(scope_name(info.scope)).size() > 0);
    names.insert(scope_name(info.scope));
    // A label that names one GPU, the instance or the node agrees with its scope.
    const std::string label = info.label;
    const bool gpu_scope = info.scope == Scope::PerGpu || info.scope == Scope::PerGpuStep;
    if (label.find("per GPU") != std::string::npos) CHECK(gpu_scope);
    if (label.find("per node") != std::string::npos) CHECK(info.scope == Scope::PerNode);
  }
  for (int i = 0; i < kScopeCount; ++i) CHECK(names.count(scope_name(static_cast<Scope>(i))) == 1);  // each named once, each used
  CHECK(std::string(scope_name(Scope::Count)).empty());
  // The pairs a reader compares: one counts the instance or the whole model, the other one GPU or the node.
  CHECK(figure_info(F::HbmSessions).scope == Scope::PerInstance);
  CHECK(figure_info(F::HbmSessionsPerNode).scope == Scope::PerNode);
  CHECK(figure_info(F::EngramTableBytes).scope == Scope::WholeModel);
  CHECK(figure_info(F::HbmWeightsPerGpu).scope == Scope::PerGpu);
  CHECK(figure_info(F::KvPerSession).scope == Scope::PerSession);
  CHECK(figure_info(F::PrefillFlop).scope == Scope::PerRequest);
}

TEST_CASE("layout label: the node's GPUs and how the instances fill it, from the parallel layout") {
  Scenario s = preset("v41-flash-8xb200");
  CHECK(layout_label(s) == "8×B200 · two TP4 instances");
  set(s, "gpus", "8");
  set(s, "tp", "8");
  set(s, "ep", "8");
  CHECK(layout_label(s) == "8×B200 · one TP8 instance");
  set(s, "gpus", "16");
  set(s, "dp", "2");
  set(s, "ep", "16");
  CHECK(layout_label(s) == "16×B200 · one DP2×TP8 instance over 2 nodes");
  // One GPU per instance: the node holds as many as it has GPUs; the GPU by its short name.
  CHECK(layout_label(preset("llama31-8b-1xh100")) == "8×H100 · eight single-GPU instances");
  CHECK(layout_label(preset("v41-flash-4xgb300")) == "4×GB300 · one TP4 instance");
}

TEST_CASE("V4.1 Flash: KV entry sizes and 890 B/token (FACTS 1.4.4)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::KvMainEntry] == Approx(512.0 / 2 + 512.0 / 16));  // 288
  CHECK(v[F::KvIndexEntry] == Approx(128.0 / 2 + 128.0 / 32));  // 68
  CHECK(v[F::KvSwaEntry] == Approx(512.0 + 512.0 / 32));        // 528
  CHECK(v[F::KvGlobalPerToken] == Approx((0.5 + 0.5 + 0.5 + 1.0) * (288 + 68)));
  CHECK(v[F::KvSwaPerSession] == Approx(2703360.0));
  CHECK(v[F::KvPerSession] == Approx(131072.0 * 890 + 2703360.0));
}

TEST_CASE("V4.1 Flash: formula text quotes the substituted numbers") {
  const Figures f = describe(default_scenario());
  const std::string& g = f[F::KvGlobalPerToken].formula();
  CHECK(g.find("890 B/token") == 0);
  CHECK(g.find("(3 layers / 2 + 1 layer) × (main entry 288 B + index key 68 B)") != std::string::npos);
  CHECK(f[F::KvSwaPerSession].formula().find("40 layers × 128 tokens × window entry 528 B") != std::string::npos);
  for (const Figure& x : f.list) {
    INFO(std::string(x.id));
    CHECK_FALSE(x.formula().empty());
    CHECK_FALSE(figure_sources(f, x).empty());
    CHECK(std::isfinite(x.value));
    CHECK(x.feasible);
  }
}

TEST_CASE("V4.1 Flash: parameters derived from dims (FACTS 1.4.7)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::ParamsPerExpert] == Approx(3.0 * 2304 * 5120));
  CHECK(v[F::ParamsActiveDecode] == Approx(16.376e9).epsilon(1e-3));
  CHECK(v[F::ParamsActivePrefill] == Approx(8.18806784e9).epsilon(1e-6));
  CHECK(v[F::ParamsTotal] == Approx(552e9).epsilon(0.005));
}

TEST_CASE("V4.1 Flash: weights one token streams, as shipped and under the card (FACTS 4 #2)") {
  CHECK(values(preset("v41-flash-8xb200"))[F::WeightsPerToken] == Approx(12.4797952e9).epsilon(1e-6));
  const Values card = values(preset("v41-flash-card"));
  // 16B active at 2 B each, less the embedding lookup: the card's "~32 GB" class.
  CHECK(card[F::WeightsPerToken] > 30e9);
  CHECK(card[F::WeightsPerToken] < 33e9);
}

TEST_CASE("V4.1 Flash: per-GPU weight stream at batch 1 under TP4 with every expert split 4 ways") {
  // One token: 6 experts per layer, each split over the 4 GPUs; attention, shared expert and head split by
  // TP 4; the router copied to every GPU.
  const Scenario s = preset("v41-flash-8xb200");
  REQUIRE(s.hw.gpus == 4);
  REQUIRE(s.par.tp == 4);
  const double expert = 3.0 * 2304 * 5120, head = 129280.0 * 5120;
  const double attn = 40 * (5120.0 * 1280 + 1280.0 * 64 * 512 + 5120.0 * 512 + 64.0 * 512 * 1024 + 8.0 * 1024 * 5120);
  const double fp8 = 1.0 + 1.0 / 1024, mxfp4 = 0.5 + 1.0 / 32;
  const double dense = (attn + 40 * expert) * fp8 / 4 + head * 2 / 4 + 40 * 384 * 5120.0 * 2, routed = 40 * 6 * expert * mxfp4 / 4;
  const double want = dense + routed;
  const Values v = values(s);
  CHECK(v[F::DecodeWeightBytes] == Approx(want).epsilon(1e-9));
  // Each GEMM class at its own HBM share on Blackwell: dense 0.84, grouped experts the profile's (model/engine.cpp).
  const double expert_bw = engine_profile(s.engine.kind, gpu_gen(s.hw.gpu)).expert.bw_eff;
  CHECK(expert_bw < 0.84);
  CHECK(v[F::DecodeTWeights] == Approx(dense / (8e12 * 0.84) + routed / (8e12 * expert_bw)).epsilon(1e-9));
}

TEST_CASE("dense NVFP4 GEMMs stream at their own HBM share on Blackwell — FP8 ones and Hopper keep the dense share") {
  // Llama 3.1 70B at TP 1 on one B200: every weight is a dense GEMM's, so the step reads them all at one share.
  Scenario s = preset("llama31-70b-8xh100");
  set(s, "gpu", "b200");
  set(s, "gpus", "1");
  set(s, "tp", "1");
  set(s, "batch", "4");
  set(s, "dense_fmt", "fp4_g16");
  set(s, "act_fmt", "fp4_g16");
  const EngineProfile& p = engine_profile(s.engine.kind, gpu_gen(s.hw.gpu));
  REQUIRE(p.gemm_fp4_bw > 0);
  CHECK(p.gemm_fp4_bw < p.gemm.bw_eff);
  const Values fp4 = values(s);
  CHECK(engine_rates(s).gemm.bw_eff == p.gemm_fp4_bw);
  const double dense_fp4 = fp4[F::DecodeWeightBytes];
  CHECK(fp4[F::DecodeTWeights] == Approx(dense_fp4 / (8e12 * p.gemm_fp4_bw)).epsilon(1e-9));
  // FP8 weights and activations on the same part: the dense share.
  set(s, "dense_fmt", "fp8");
  set(s, "act_fmt", "fp8");
  CHECK(engine_rates(s).gemm.bw_eff == p.gemm.bw_eff);
  // FP4 weights with 16-bit activations (W4A16) are not the FP4 tensor cores' kernels: the dense share too.
  set(s, "dense_fmt", "fp4_g16");
  set(s, "act_fmt", "bf16");
  CHECK(engine_rates(s).gemm.bw_eff == p.gemm.bw_eff);
  // An explicit share still wins over the profile's.
  set(s, "act_fmt", "fp4_g16");
  set(s, "gemm_bw_eff", "0.9");
  CHECK(engine_rates(s).gemm.bw_eff == 0.9);
}

TEST_CASE("distinct experts per layer at batch B (FACTS 1.4.7)") {
  Scenario s = preset("v41-flash-8xb200");
  const std::pair<const char*, double> cases[] = {{"1", 6.0}, {"8", 45.5}, {"32", 152.0}, {"128", 332.8}, {"256", 377.2}};
  for (const auto& [b, want] : cases) {
    set(s, "batch", b);
    CHECK(values(s)[F::DecodeDistinctExperts] == Approx(want).epsilon(0.002));
  }
  // Per GPU under TP4 (every expert split 4 ways): routed bytes at B = 128 are 250.3 GB / 4 (calc_output).
  set(s, "batch", "1");
  const double fixed = values(s)[F::DecodeWeightBytes] - 4.5121536e9 / 4;
  set(s, "batch", "128");
  CHECK(values(s)[F::DecodeWeightBytes] - fixed == Approx(250.3e9 / 4).epsilon(0.001));
}

TEST_CASE("top-k slice (card definition) and physical sparse gather") {
  const Values card = values(preset("v41-flash-card"));
  CHECK(card[F::TopkSliceBytes] == Approx(512.0 * 890));
  CHECK(card[F::TopkSliceTime] == Approx(512.0 * 890 / 8e12).epsilon(1e-9));  // MBU 1 under the card
  CHECK(card[F::GatherBytes] == Approx(38.0 * 512 * 288));
  CHECK(card[F::GatherTime] == Approx(38.0 * 512 * 288 / 8e12).epsilon(1e-9));
}

TEST_CASE("full-pool index scan grows with context, candidate pool stays flat") {
  Scenario s = preset("v41-flash-card");
  const std::pair<const char*, double> ctx[] = {{"8192", 8192}, {"131072", 131072}, {"1048576", 1048576}};
  for (const auto& [text, n] : ctx) {
    set(s, "ctx", text);
    const Values v = values(s);
    CHECK(v[F::IndexFullpoolBytes] == Approx(n * 170));
    // The pool holds at most the context: 2048 × 8 positions, or fewer in a short context.
    CHECK(v[F::IndexCandidateBytes] == Approx(4.0 * std::min(2048.0 * 8, n) * 68));
  }
  set(s, "ctx", "1048576");
  // Its own roofline: 170 B per position read, 4 × 2 × 32 heads × 128 dims FLOP per position scored.
  const double mem = 1048576.0 * 170 / 8e12, flop = (3 * 524288.0 + 1048576.0) * 2 * 32 * 128;
  CHECK(values(s)[F::IndexFullpoolTime] == Approx(std::max(mem, flop / (9e15 * 0.50))).epsilon(1e-9));
}

TEST_CASE("SWA restore per layer and per session, pool capacity (FACTS 4 #13)") {
  // The host link at the rate a DMA copy achieves (50 GB/s on PCIe 5), not the line rate.
  Scenario s = preset("v41-flash-8xb200");
  Values v = values(s);
  CHECK(v[F::SwaRestoreSessionTime] == Approx(1.5e-6 + 2703360.0 / 50e9));
  CHECK(v[F::SwaRestoreLayerTime] == Approx(1.5e-6 + 128.0 * 528 / 50e9));
  CHECK(v[F::SwaPoolSessions] == std::floor(200e9 / 2703360.0));
  set(s, "host_gbps", "900");
  CHECK(values(s)[F::SwaRestoreSessionTime] == Approx(1.5e-6 + 2703360.0 / 900e9));
  CHECK(v[F::SwaWindowTime] == Approx(2703360.0 / (8e12 * 0.84)));  // a plain copy at the streaming share
}

TEST_CASE("Engram: bytes per token, table footprint, and a fetch that follows where the tables live") {
  Scenario s = preset("v41-flash-8xb200");
  Values v = values(s);
  CHECK(v[F::EngramBytesPerToken] == Approx(12672.0));
  CHECK(v[F::EngramTableBytes] == Approx(202.755e9).epsilon(1e-4));
  CHECK(v[F::EngramParams] == Approx(196.611e9).epsilon(1e-4));
  CHECK(v[F::EngramFetchTime] == Approx(0.5e-6 + 12672.0 / (8e12 * 0.84)));  // row-sharded in HBM
  CHECK(v[F::EngramStall] == 0.0);
  set(s, "engram_home", "dram");
  CHECK(values(s)[F::EngramFetchTime] == Approx(1.5e-6 + 12672.0 / 50e9));   // over the host link
  set(s, "engram_home", "remote");
  CHECK(values(s)[F::EngramFetchTime] == Approx(1.75e-6 + 12672.0 / 50e9));  // over RDMA
  // The stall uses the same fetch: at a large batch a host-resident table no longer hides behind layer 1.
  set(s, "engram_home", "dram");
  set(s, "batch", "256");
  set(s, "ctx", "8192");
  const Values big = values(s);
  CHECK(big[F::EngramStepFetchTime] == Approx(1.5e-6 + 256 * 12672.0 / 50e9));
  CHECK(big[F::EngramStall] == Approx(std::max(0.0, big[F::EngramStepFetchTime] - 1.0 / 40 * (big[F::DecodeStepTime] - big[F::EngramStall]))).epsilon(1e-9));
}

TEST_CASE("prefix hit: SSD → DRAM then DRAM → HBM, against recompute and with the replay it needs") {
  Scenario s = preset("v41-flash-8xb200");
  set(s, "prefix_hit", "1024");
  set(s, "ssd_count", "1");
  set(s, "prefix_tier", "ssd");
  set(s, "kv_store", "kvbm");  // one copy of the hit, no full-length windows: its bytes are the cache's
  const Values v = values(s);
  const double bytes = 1024.0 * 890;
  // 64 blocks of vLLM's 16 tokens, read 8 at once at 50 µs each, then the bytes at the drive's rate.
  CHECK(v[F::PrefixSsdReadTime] == Approx(60e-6 + 8 * 50e-6 + bytes / 14e9));
  // The two GPUs behind each PCIe switch share its uplink: half a link each.
  CHECK(v[F::PrefixUploadTime] == Approx(1.5e-6 + bytes / 25e9));
  // The store stages the hit in host DRAM, then it goes up: hop after hop.
  CHECK(v[F::PrefixHitTime] == Approx(v[F::PrefixSsdReadTime] + v[F::PrefixUploadTime]));
  CHECK(v[F::PrefixReplayTime] > 0);
  CHECK(v[F::PrefixTtftHit] == Approx(v[F::PrefixHitTime] + v[F::PrefixReplayTime] + v[F::PrefixRestTime]));
  CHECK(v[F::PrefixTtftMiss] == Approx(v[F::PrefillTime]));
  // V4 caches its window with the prefix instead: more bytes, no replay.
  Scenario v4 = preset("v4-flash-8xb200");
  const Values w = values(v4);
  CHECK(w[F::PrefixReplayTime] == 0.0);
  CHECK(w[F::ReplayTime] == 0.0);
  CHECK(w[F::PrefixHitBytes] == Approx(7168 * w[F::KvGlobalPerToken] + w[F::KvSwaPerSession]));
}

TEST_CASE("prefill: 2 x active prefill weights per token, the window layers on the last window only") {
  Scenario s = preset("v41-flash-8xb200");
  Computed c;
  compute_values(s, c);
  CHECK(c.values[F::ParamsActivePrefill] == Approx(8.18806784e9).epsilon(1e-6));
  CHECK(c.values[F::PrefillTime] == Approx(c.values[F::PrefillFullTime] + c.values[F::PrefillWindowTime]));
  CHECK(c.values[F::PrefillFlop] > 2 * (8.18806784e9 - 129280.0 * 5120) * 8192);
  // Doubling the prompt at least doubles the prompt pass (attention grows faster than linearly).
  set(s, "prompt", "16384");
  set(s, "prefix_hit", "0");
  Computed d;
  compute_values(s, d);
  CHECK(d.values[F::PrefillFullTime] > 1.9 * c.values[F::PrefillFullTime]);
}

TEST_CASE("cost of a turn with and without cache hits (FACTS 3 prices)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::CostTurnMiss] == Approx((8192 * 0.30 + 1024 * 1.20) / 1e6));
  CHECK(v[F::CostTurnHit] == Approx((1024 * 0.30 + 7168 * 0.006 + 1024 * 1.20) / 1e6));
}

TEST_CASE("other presets: published per-token KV sizes and parameter counts") {
  const Values v4 = values(preset("v4-flash-8xb200"));
  CHECK(v4[F::KvMainEntry] == Approx(584.0));
  CHECK(v4[F::KvGlobalPerToken] == Approx((21.0 / 4 + 20.0 / 128) * 584 + 21.0 / 4 * 68));
  CHECK(values(preset("v41-flash-8xb200"))[F::KvGlobalPerToken] / v4[F::KvGlobalPerToken] == Approx(0.2533).epsilon(1e-3));
  CHECK(v4[F::ParamsTotal] == Approx(284e9).epsilon(0.01));
  CHECK(v4[F::ParamsActiveDecode] == Approx(13e9).epsilon(0.05));
  const Values v3 = values(preset("deepseek-v3-8xh200"));
  CHECK(v3[F::KvGlobalPerToken] == Approx(70272.0));
  CHECK(v3[F::ParamsTotal] == Approx(671e9).epsilon(0.01));
  CHECK(v3[F::ParamsActiveDecode] == Approx(37e9).epsilon(0.03));
  const Values ll = values(preset("llama31-70b-8xh100"));
  CHECK(ll[F::KvGlobalPerToken] == Approx(327680.0));
  CHECK(ll[F::ParamsTotal] == Approx(70.6e9).epsilon(0.01));
  CHECK(ll[F::DecodeDistinctExperts] == 0.0);
  CHECK(ll[F::KvSwaPerSession] == 0.0);
}

TEST_CASE("closed form: a 1M context and 100k sessions stay finite") {
  Scenario s = preset("v41-flash-8xb200");
  set(s, "ctx", "1048576");
  set(s, "batch", "100000");
  set(s, "gpus", "4096");
  set(s, "tp", "1");
  set(s, "dp", "4096");
  set(s, "ep", "128");
  Computed c;
  compute_values(s, c);
  CHECK(c.values[F::DecodeDistinctExperts] == Approx(384.0));
  for (double x : c.values.v) CHECK(std::isfinite(x));
}

TEST_CASE("per-layer modes: ownership is derived, edits change the figures") {
  Scenario s = preset("v41-flash-8xb200");
  CHECK(kv_source_of(s.model, 24) == 20);
  CHECK(kv_source_of(s.model, 7) == 2);
  CHECK(kv_source_of(s.model, 1) == -1);
  CHECK(layers_to_text(s.model) == "SSF2UUUUUF2UUUUUF2UUUUUFUUUIUUUIUUUIUUUIUUU");  // ratio 1 implied
  // Layer 24 Reindex → Reuse: one fewer candidate-pool indexer.
  s.model.layers[24].mode = LayerMode::Reuse;
  CHECK(values(s)[F::IndexCandidateBytes] == Approx(3.0 * 16384 * 68));
  // Layer 8 stops owning KV: its ratio-2 entries leave the per-token total.
  s.model.layers[8].mode = LayerMode::Reuse;
  CHECK(values(s)[F::KvGlobalPerToken] == Approx(890.0 - 178.0));
  CHECK(validate(s).empty());
  // A Reuse layer with no source before it is rejected.
  s.model.layers[0].mode = LayerMode::Reuse;
  const Errors e = validate(s);
  REQUIRE_FALSE(e.empty());
  CHECK(e[0].code == ErrorCode::Inconsistent);
  CHECK(e[0].field == "modes");
}

TEST_CASE("prefix hit: read from the tier that holds it — DRAM beats SSD, and a pipelined copy is at most the summed one") {
  Scenario s = preset("deepseek-v3-8xh200");
  set(s, "prompt", "32768");
  set(s, "prefix_hit", "32000");
  set(s, "prefix_tier", "ssd");
  const Values ssd = values(s);
  set(s, "prefix_tier", "dram");
  const Values dram = values(s);
  set(s, "prefix_tier", "hbm");
  const Values hbm = values(s);
  CHECK(dram[F::PrefixHitTime] == Approx(dram[F::PrefixUploadTime]));
  CHECK(dram[F::PrefixHitTime] < ssd[F::PrefixHitTime]);
  CHECK(hbm[F::PrefixHitTime] == 0.0);
  CHECK(hbm[F::PrefixTtftHit] < dram[F::PrefixTtftHit]);
  CHECK(dram[F::PrefixTtftHit] < ssd[F::PrefixTtftHit]);
  // SGLang's HiCache stages an SSD hit in host DRAM, then uploads it layer by layer beside the prefill of the
  // rest: the longer of the two plus one layer of the shorter, never more than the sum.
  set(s, "prefix_tier", "ssd");
  set(s, "engine", "sglang");
  const Values piped = values(s);
  const double up = piped[F::PrefixUploadTime], rest = piped[F::PrefixReplayTime] + piped[F::PrefixRestTime];
  CHECK(piped[F::PrefixHitTime] == Approx(piped[F::PrefixSsdReadTime] + up));
  CHECK(piped[F::PrefixTtftHit] <= piped[F::PrefixHitTime] + rest);
  CHECK(piped[F::PrefixTtftHit] == Approx(piped[F::PrefixSsdReadTime] + std::max(up, rest) + std::min(up, rest) / 61.0));
  // The headline is the TTFT ratio, in every tier.
  for (const Values* v : {&ssd, &dram, &hbm, &piped}) CHECK((*v)[F::PrefixSpeedup] == Approx((*v)[F::PrefixTtftMiss] / (*v)[F::PrefixTtftHit]));
}

TEST_CASE("prefix hit: auto puts it where the cache's sizes do — HBM beside a small batch, deeper as the batch grows") {
  Scenario s = preset("deepseek-v3-8xh200");
  set(s, "ctx", "4096");
  set(s, "prompt", "4096");
  set(s, "prefix_hit", "4000");
  Computed small;
  compute_values(s, small);
  CHECK(small.terms.prefix_from == PrefixTier::Hbm);
  CHECK(small.values[F::PrefixHitTime] == 0.0);
  set(s, "batch", "600");
  Computed busy;
  compute_values(s, busy);
  CHECK(busy.terms.prefix_from != PrefixTier::Hbm);
  CHECK(busy.values[F::PrefixHitTime] > 0.0);
}

TEST_CASE("prefill under data parallel: every replica's tokens meet at the experts") {
  Scenario s = preset("deepseek-v3-8xh200");
  set(s, "gpu", "h100");
  set(s, "gpus", "32");
  set(s, "tp", "1");
  set(s, "dp", "32");
  set(s, "ep", "32");
  set(s, "prompt", "4096");
  set(s, "prefix_hit", "0");
  set(s, "route_skew", "1");  // uniform routing: the replicas' tokens alone, no skew
  Computed c;
  compute_values(s, c);
  const Pass& full = c.terms.prefill.full;
  // 32 prompts of 4,096 tokens × 8 experts each over 32 ranks, 58 MoE layers before the last: ~167 TFLOP on the busiest rank.
  CHECK(full.flop_c[1] == Approx(166.3e12).epsilon(0.01));
  CHECK(full.flop_c[1] / full.rate_c[1] > 0.1);  // over a hundred milliseconds of expert GEMMs on the busiest rank
  // Half the replicas: about half the experts' work per rank.
  set(s, "gpus", "16");
  set(s, "dp", "16");
  set(s, "ep", "16");
  Computed h;
  compute_values(s, h);
  CHECK(h.terms.prefill.full.flop_c[1] == Approx(full.flop_c[1]).epsilon(0.02));  // 16 prompts over 16 ranks: the same per rank
  // prefill.flop is the prompt's own: the same prompt costs the same FLOP whatever the replicas.
  CHECK(h.values[F::PrefillFlop] == Approx(c.values[F::PrefillFlop]).epsilon(1e-9));
  set(s, "dp", "8");
  set(s, "tp", "2");
  Computed d;
  compute_values(s, d);
  CHECK(d.terms.prefill.full.flop_c[1] == Approx(full.flop_c[1] / 2).epsilon(0.02));  // 8 prompts over 16 ranks
}

TEST_CASE("top-k select: a radix kernel over its candidates, a fixed time per call plus the scores at its rate") {
  Scenario s = preset("v41-flash-8xb200");
  set(s, "ctx", "1048576");
  set(s, "batch", "34");
  Computed c;
  compute_values(s, c);
  const double keys = c.terms.dec.select_keys, layers = c.terms.selecting_layers;
  REQUIRE(layers > 0);
  // B200: 13 µs a call, 288 G scores/s (TensorRT-LLM's radix kernel, 1,024 × 131K scores in ~480 µs).
  CHECK(c.values[F::TopkSelectTime] == Approx(layers * 13e-6 + keys / 288e9));
  CHECK(c.values[F::DecodeTTopk] == Approx(layers * 13e-6 + c.terms.tokens_replica * keys / 288e9));
  // ~91 M candidate scores on one replica: a few hundred µs, as the measured kernel takes for 134 M.
  CHECK(c.values[F::DecodeTTopk] > 2e-4);
  CHECK(c.values[F::DecodeTTopk] < 1e-3);
  set(s, "ctx", "262144");
  Computed shorter;
  compute_values(s, shorter);
  CHECK(shorter.values[F::TopkSelectTime] < c.values[F::TopkSelectTime]);
  set(s, "gpu", "h200");
  Computed hopper;
  compute_values(s, hopper);
  CHECK(hopper.values[F::TopkSelectTime] == Approx(layers * 13e-6 + shorter.terms.dec.select_keys / 150e9));
  set(s, "topk_gkeys", "50");  // an override wins over the GPU's rate
  Computed slow;
  compute_values(s, slow);
  CHECK(slow.values[F::TopkSelectTime] == Approx(layers * 13e-6 + shorter.terms.dec.select_keys / 50e9));
}

TEST_CASE("crossover: a batch the roofs never meet at reads never, not 0 sessions") {
  // Dense GQA at 256K: each session's KV reads outgrow its FLOP, so no batch turns decode compute-bound.
  Scenario s = preset("llama31-8b-1xh100");
  set(s, "max_pos", "0");
  set(s, "ctx", "262144");
  const Figures f = describe(s);
  REQUIRE(f[F::DecodeCrossoverBatch].feasible);
  REQUIRE(f[F::DecodeCrossoverBatch].value == 0);
  CHECK(figure_value_text(f[F::DecodeCrossoverBatch]) == "never");
  CHECK(f[F::DecodeCrossoverBatch].formula().rfind("never", 0) == 0);
  CHECK(f[F::DecodeCrossoverBatch].formula().find("0 sessions") == std::string::npos);
}

// describe() writes no text: a formula is written on first read with its topic. Read one figure at a time
// (each from a fresh describe, so its topic is written first) or all in order, the texts and expressions
// are the same, and a copy of the figures reads them as well after the original is gone.
TEST_CASE("formulas written on first read: one at a time, all in order and from a copy read the same") {
  const char* const edits[][2] = {{"batch", "1024"}, {"ctx", "2048"}, {"engram_home", "dram"}, {"tp", "1"}, {"prefix_hit", "0"}};
  std::vector<Scenario> scenarios;
  for (const PresetInfo& p : presets()) {
    scenarios.push_back(preset(p.name));
    for (const auto& e : edits) {
      Scenario s = scenarios.back();
      const ParamDef* def = find_param(e[0]);
      REQUIRE(def != nullptr);
      Adjustments moved;
      Error err;
      if (edit_param(s, *def, e[1], moved, err) && validate(s).empty()) scenarios.push_back(s);
    }
  }
  for (const Scenario& s : scenarios) {
    INFO(s.preset);
    const Figures all = describe(s);
    std::vector<std::string> texts;
    for (const Figure& x : all.list) texts.push_back(x.formula());
    for (int i = 0; i < kFigureCount; ++i) {
      const FigureId id = static_cast<FigureId>(i);
      const Figures one = describe(s);
      INFO(figure_info(id).id);
      CHECK(one[id].formula() == texts[static_cast<std::size_t>(i)]);
      CHECK(one[id].expr().render() == all[id].expr().render());
    }
    Figure kept;
    {
      const Figures gone = describe(s);
      kept = gone[F::DecodeStepTime];
    }
    CHECK(kept.formula() == texts[static_cast<std::size_t>(F::DecodeStepTime)]);
  }
  CHECK(Figure().formula().empty());
}

TEST_CASE("kernel ramp: the engine's dense share and ramp reproduce DeepGEMM's measured small-M GEMMs") {
  // DeepGEMM's FP8 dense GEMMs at M = 64 on H800 (3.35 TB/s; its README, the source the profile cites):
  // N, K and the bandwidth it measured. Bytes = weights + activations in + BF16 out, as it counts them.
  struct Shape { double n, k, gbps; };
  const Shape shapes[] = {{2112, 7168, 1688}, {24576, 1536, 2455}, {32768, 512, 2143},
                          {7168, 16384, 2668}, {4096, 7168, 2320}, {7168, 2048, 2470}};
  const EngineProfile& p = engine_profile(EngineKind::Sglang, GpuGen::Hopper);
  int close = 0;
  for (const Shape& s : shapes) {
    const double bytes = s.n * s.k + 64 * s.k + 64 * s.n * 2;
    const double measured = bytes / (s.gbps * 1e9);
    const double model = bytes / (p.gemm.bw_eff * 3.35e12) + p.kernel_ramp_us * 1e-6;
    INFO(s.n << " x " << s.k << ": model " << model * 1e6 << " µs, measured " << measured * 1e6 << " µs");
    CHECK(std::fabs(model / measured - 1) < 0.25);
    if (std::fabs(model / measured - 1) < 0.02) ++close;
  }
  CHECK(close >= 4);
}

TEST_CASE("kernel ramp: each kernel's ramp adds to its roofline time, and the step's text says so") {
  Scenario s = default_scenario();
  s.work.batch = 64;  // the dense projections stream above their launch floors
  Computed base;
  compute_values(s, base);
  s.engine.kernel_ramp_us = 0.01;  // next to no ramp: the floor alone, inside the max (0 takes the engine's)
  Computed none;
  compute_values(s, none);
  s.engine.kernel_ramp_us = 10;
  Computed big;
  compute_values(s, big);
  CHECK(none.values[F::DecodeStepTime] < base.values[F::DecodeStepTime]);
  CHECK(base.values[F::DecodeStepTime] < big.values[F::DecodeStepTime]);
  // A ramp above the launch floor decides every kernel: the step grows by every class kernel's share of it.
  const Figures f = describe(s);
  const Figure* step = f.find("decode.step_time");
  REQUIRE(step != nullptr);
  CHECK(step->formula().find("ramp 10 µs") != std::string::npos);
  CHECK(step->value == Approx(big.values[F::DecodeStepTime]));
}

// describe() reads each figure's inputs through figure_dep_indices (a hashed lookup worked out once at the
// page's start): the indices are exactly the registry entries its deps name, each once, in the order named.
TEST_CASE("figure dependencies: every figure's indices are the registry keys its deps name, once each, in order") {
  const auto ps = params();
  for (int f = 0; f < kFigureCount; ++f) {
    const FigureId id = static_cast<FigureId>(f);
    INFO(figure_info(id).id << ": " << figure_info(id).deps);
    std::vector<std::uint8_t> expected;
    for (const std::string_view key : figure_dep_keys(id)) {
      INFO(key);
      bool found = false;
      for (std::size_t i = 0; i < ps.size(); ++i) {
        if (key != ps[i].key) continue;
        found = true;
        if (std::find(expected.begin(), expected.end(), i) == expected.end()) expected.push_back(static_cast<std::uint8_t>(i));
      }
      CHECK(found);  // every name in a figure's deps (its groups read as their keys) is a registry key
    }
    CHECK(figure_dep_indices(id) == expected);
  }
  // A group named in a row is read as its keys, in place: the decode step's first keys are the model dims'.
  const std::vector<std::string_view> step = figure_dep_keys(FigureId::DecodeStepTime);
  REQUIRE(step.size() > 3);
  CHECK(step[0] == "modes");
  CHECK(step[1] == "hidden");
  CHECK(std::find(step.begin(), step.end(), "lin_conv") != step.end());
  CHECK(std::find(step.begin(), step.end(), "nic_gbps") != step.end());
  CHECK(step.back() == "lat_sram_ns");
}
