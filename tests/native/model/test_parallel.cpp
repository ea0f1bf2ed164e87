// The parallel layout: expert balance against a seeded Monte Carlo and the tabulated c(n), and where each
// part of the state sits under tensor, data and expert parallelism. Expected values are worked out here
// from first principles, not read back from the model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "model/parallel.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

// [SECTION] expert coverage and balance -----------------------------------------------------------------

TEST_CASE("Blom's expected maximum of n normals matches the tabulated c(n) (FACTS-parallel 4.1)") {
  const std::pair<int, double> table[] = {{8, 1.42}, {16, 1.77}, {32, 2.07}, {64, 2.34}, {128, 2.60}, {256, 2.83}};
  for (const auto& [n, c] : table) {
    INFO("n = " << n);
    CHECK(expected_max_normal(n) == Approx(c).epsilon(0.015));
  }
  CHECK(expected_max_normal(1) == 0.0);
  CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
  CHECK(normal_quantile(0.5) == Approx(0.0).margin(1e-12));
}

TEST_CASE("busiest expert rank: its assignments and distinct experts against a seeded Monte Carlo of uniform routing") {
  struct Case {
    int E, k, ep, tokens;
  };
  // From one token (DeepSeek-V3 at batch 1: the busiest of 8 ranks holds 2.57 experts, not the mean 1)
  // to decode-sized loads (FACTS-parallel 4.2), at EP4 to EP72.
  const Case cases[] = {{256, 8, 8, 1},   {256, 8, 8, 4},  {256, 8, 8, 16},  {256, 8, 8, 128}, {256, 8, 32, 1},
                        {256, 8, 32, 32}, {288, 8, 72, 256}, {128, 4, 4, 8}, {256, 8, 4, 4},   {64, 6, 8, 2},
                        {384, 6, 8, 16},  {384, 6, 4, 128}, {256, 8, 64, 128}};
  std::mt19937_64 rng(20261130);
  for (const Case& c : cases) {
    const int per_rank = c.E / c.ep, trials = c.tokens <= 16 ? 4000 : 600;
    double sum_max = 0, sum_distinct_max = 0, sum_distinct_rank0 = 0;
    std::vector<int> experts(static_cast<std::size_t>(c.E));
    for (int i = 0; i < c.E; ++i) experts[static_cast<std::size_t>(i)] = i;
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<int> load(static_cast<std::size_t>(c.ep), 0);
      std::vector<char> touched(static_cast<std::size_t>(c.E), 0);
      for (int t = 0; t < c.tokens; ++t) {
        // k distinct experts: a partial Fisher-Yates shuffle.
        for (int j = 0; j < c.k; ++j) {
          std::uniform_int_distribution<int> pick(j, c.E - 1);
          std::swap(experts[static_cast<std::size_t>(j)], experts[static_cast<std::size_t>(pick(rng))]);
          const int e = experts[static_cast<std::size_t>(j)];
          load[static_cast<std::size_t>(e / per_rank)] += 1;
          touched[static_cast<std::size_t>(e)] = 1;
        }
      }
      sum_max += *std::max_element(load.begin(), load.end());
      int most = 0;
      for (int r = 0; r < c.ep; ++r) {
        int d = 0;
        for (int e = r * per_rank; e < (r + 1) * per_rank; ++e) d += touched[static_cast<std::size_t>(e)];
        most = std::max(most, d);
      }
      sum_distinct_max += most;
      for (int e = 0; e < per_rank; ++e) sum_distinct_rank0 += touched[static_cast<std::size_t>(e)];
    }
    const ExpertLoad x = expert_load(c.E, c.k, c.ep, c.tokens);
    INFO("E " << c.E << " k " << c.k << " ep " << c.ep << " tokens " << c.tokens);
    CHECK(x.mean == Approx(static_cast<double>(c.tokens) * c.k / c.ep));
    CHECK(x.busiest == Approx(sum_max / trials).epsilon(0.04));
    CHECK(x.distinct_busiest == Approx(sum_distinct_max / trials).epsilon(0.04));
    CHECK(x.distinct_rank == Approx(sum_distinct_rank0 / trials).epsilon(0.05));
    CHECK(x.busiest >= x.mean);
    CHECK(x.distinct_busiest >= x.distinct_rank);
    CHECK(x.distinct_busiest <= per_rank);
  }
}

TEST_CASE("busiest expert rank: skew 1 is uniform routing, a larger skew floors the busiest rank at skew × mean") {
  for (double tokens : {1.0, 8.0, 256.0, 4096.0}) {
    const ExpertLoad u = expert_load(256, 8, 32, tokens), one = expert_load(256, 8, 32, tokens, 1.0);
    CHECK(one.busiest == u.uniform);
    CHECK(one.distinct_busiest == u.distinct_uniform);
    const ExpertLoad hot = expert_load(256, 8, 32, tokens, 2.56);
    CHECK(hot.busiest >= u.busiest);
    CHECK(hot.busiest >= std::min(2.56 * hot.mean, tokens * 8.0) - 1e-9);
    CHECK(hot.distinct_busiest >= u.distinct_busiest);
    CHECK(hot.distinct_busiest <= 8.0);
  }
  // Measured (FACTS-parallel 4.3): R1 EP32, ~1,024 routed tokens per rank, no balancing: busiest 2.56 × mean.
  CHECK(expert_load(256, 8, 32, 4096, 2.56).imbalance() == Approx(1.56).epsilon(1e-9));
  // One rank: no maximum to take.
  const ExpertLoad solo = expert_load(256, 8, 1, 16, 2.0);
  CHECK(solo.busiest == solo.mean);
  CHECK(solo.distinct_busiest == solo.distinct_rank);
}

TEST_CASE("expert coverage tends to every expert as the batch grows") {
  double last = 0;
  for (double b : {1.0, 8.0, 64.0, 512.0, 4096.0}) {
    const double d = distinct_experts(384, 6, b);
    CHECK(d > last);
    CHECK(d <= 384);
    last = d;
  }
  CHECK(distinct_experts(384, 6, 4096) == Approx(384).epsilon(1e-6));
  CHECK(distinct_experts(384, 6, 1) == Approx(6));
  // Destination ranks (FACTS-parallel 3.1): EP8 5.29 and EP32 7.27 for DeepSeek-V3's 256 experts, top-8.
  CHECK(expert_load(256, 8, 8, 1).dest_ranks == Approx(5.29).epsilon(0.01));
  CHECK(expert_load(256, 8, 32, 1).dest_ranks == Approx(7.27).epsilon(0.01));
}

TEST_CASE("normal all-to-all across nodes: the remote nodes a token is sent to, against a seeded Monte Carlo") {
  struct Case {
    int E, k, ep, node_ranks;
  };
  // DeepSeek-V3 on 4, 9 and 18 nodes of 8 (EP32, EP72 with 288 slots, EP144), and a 4-expert model on 2 nodes.
  const Case cases[] = {{256, 8, 32, 8}, {288, 8, 72, 8}, {288, 8, 144, 8}, {128, 4, 16, 8}, {256, 8, 16, 4}};
  std::mt19937_64 rng(20261202);
  for (const Case& c : cases) {
    const int per_node = c.E / (c.ep / c.node_ranks), trials = 20000;
    std::vector<int> experts(static_cast<std::size_t>(c.E));
    for (int i = 0; i < c.E; ++i) experts[static_cast<std::size_t>(i)] = i;
    double remote = 0;
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<char> hit(static_cast<std::size_t>(c.ep / c.node_ranks), 0);
      for (int j = 0; j < c.k; ++j) {
        std::uniform_int_distribution<int> pick(j, c.E - 1);
        std::swap(experts[static_cast<std::size_t>(j)], experts[static_cast<std::size_t>(pick(rng))]);
        hit[static_cast<std::size_t>(experts[static_cast<std::size_t>(j)] / per_node)] = 1;
      }
      for (std::size_t node = 1; node < hit.size(); ++node) remote += hit[node];  // the sender sits on node 0
    }
    INFO("E " << c.E << " k " << c.k << " ep " << c.ep << " ranks per node " << c.node_ranks);
    CHECK(remote_dest_nodes(c.E, c.k, c.ep, c.node_ranks) == Approx(remote / trials).epsilon(0.02));
    CHECK(remote_dest_nodes(c.E, c.k, c.ep, c.node_ranks) < expert_load(c.E, c.k, c.ep, 1).dest_ranks);
  }
  CHECK(remote_dest_nodes(256, 8, 8, 8) == 0.0);  // one node: nothing crosses the NIC
}

TEST_CASE("prefill on 32 H100: normal all-to-all sends a token once per remote node, so it costs less than once per rank") {
  Scenario s = preset("deepseek-v3-8xh200");
  for (const auto& [k, val] : {std::pair{"gpu", "h100"}, {"gpus", "32"}, {"tp", "1"}, {"dp", "32"}, {"ep", "32"},
                               {"redundant", "32"}, {"engine", "sglang"}, {"prompt", "4096"}, {"prefix_hit", "0"}, {"ctx", "4096"}})
    edit(s, k, val);
  const Computed c = computed(s);
  // Worked out here: 4,096 tokens per replica, each to (N − 1)(1 − C(E − E/N, k)/C(E, k)) remote nodes over a
  // 50 GB/s NIC; the per-rank bound (7.3 ranks each over the NIC) would be 2.7× that.
  const double nodes = remote_dest_nodes(288, 8, 32, 8);
  CHECK(nodes == Approx(2.71).epsilon(0.01));
  CHECK(c.values[F::PrefillFullTime] < 0.8);  // the per-rank count gave 1.10 s, of which 0.83 s collectives
  CHECK(c.values[F::PrefillFullTime] > 0.3);  // still above its compute alone (~0.27 s)
}

// [SECTION] placement ----------------------------------------------------------------------------------------

TEST_CASE("placement: a single-latent cache is copied to every TP rank, GQA splits by KV head") {
  Scenario v = preset("v41-flash-8xb200");  // Latent attention, TP4
  Computed c = computed(v);
  CHECK(c.values[F::HbmKvCopies] == 4);
  CHECK(c.values[F::HbmKvSessionPerGpu] == c.values[F::KvPerSession]);
  edit(v, "dp", "4");  // TP1 × DP4: each session's KV on one GPU
  c = computed(v);
  CHECK(c.values[F::HbmKvCopies] == 1);
  CHECK(c.values[F::HbmSessions] == Approx(4 * c.terms.sessions_replica));

  Scenario l = preset("llama31-70b-8xh100");  // GQA, 8 KV heads, TP4
  c = computed(l);
  CHECK(c.values[F::HbmKvCopies] == 1);
  CHECK(c.values[F::HbmKvSessionPerGpu] == Approx(c.values[F::KvPerSession] / 4));
  // TP beyond the KV heads: engines keep a copy of each KV head on tp ÷ kv_heads GPUs, so each GPU holds one
  // head (1/8 of a session's KV, not 1/16) and the instance holds two copies; the K and V projections too.
  Scenario m = l;
  m.hw.gpus = 16;
  m.par.tp = 16;
  m.par.dp = 1;
  CHECK(validate(m).empty());
  const Computed wide = computed(m);
  CHECK(wide.values[F::HbmKvCopies] == Approx(2));
  CHECK(wide.values[F::HbmKvSessionPerGpu] == Approx(wide.values[F::KvPerSession] / 8));
  // Llama 3.1 70B: 80 layers × 8192 hidden × 8 KV heads × (128 + 128) K and V dims, in BF16; a GPU of TP16
  // holds 1/8 of them (one head's) where 1/16 would be an even split.
  const double kv_proj_bytes = 80.0 * 8192 * 8 * 256 * 2;
  CHECK(wide.values[F::HbmWeightsPerGpu] - wide.terms.p_attn * 2 / 16 - (wide.terms.p_shared + wide.terms.p_dense_ffn) * 2 / 16 -
            (wide.terms.p_head + wide.terms.p_emb) * 2 / 16 ==
        Approx(kv_proj_bytes * (1.0 / 8 - 1.0 / 16)));
  // A TP that neither divides the KV heads nor is a multiple of them would split a head: refused by name.
  Scenario odd = l;
  odd.model.q_heads = 96;
  odd.hw.gpus = 12;
  odd.par.tp = 12;
  odd.par.dp = 1;
  CHECK(has_error(validate(odd), "tp"));
}

TEST_CASE("placement: per-GPU parts add up to the instance, and experts spread over every GPU") {
  for (const PresetInfo& p : presets()) {
    INFO(p.name);
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    const Computed c = computed(s);
    const Terms& t = c.terms;
    CHECK(c.values[F::HbmWeights] == Approx(c.values[F::HbmWeightsPerGpu] * t.gpus));
    // Routed experts are not replicated: the GPUs hold every expert slot once between them.
    CHECK(t.w_experts * t.gpus == Approx(t.moe_layers * (s.model.experts + s.par.redundant) * t.p_expert * t.bpv_experts).margin(1));
    // What the replicas hold in HBM at least covers the model once.
    CHECK(c.values[F::HbmWeights] >= c.values[F::WeightsDerived] - (s.model.engram_home == EngramHome::Hbm ? 0 : c.values[F::EngramTableBytes]) - 1);
    CHECK(c.values[F::HbmSessionsPerGpu] == Approx(c.values[F::HbmSessions] / t.gpus));
  }
}

TEST_CASE("layout inputs: tp × dp must cover the GPUs, ep must divide them and the experts") {
  Scenario s = preset("deepseek-v3-8xh200");
  s.par.tp = 4;  // 4 × 1 ≠ 8
  CHECK(has_error(validate(s), "tp"));
  s = preset("deepseek-v3-8xh200");
  s.par.ep = 3;
  CHECK(has_error(validate(s), "ep"));
  s = preset("deepseek-v3-8xh200");
  s.hw.gpus = 72;
  s.par = Parallel{1, 72, 72, 1, 0};  // 256 experts over 72 ranks: not whole experts
  CHECK(has_error(validate(s), "ep"));
  s.par.redundant = 32;  // 288 slots: 4 per rank
  CHECK(validate(s).empty());
  Error e;
  CHECK_FALSE(set_param_text(s, *find_param("pp"), "2", e));
  CHECK(e.code == ErrorCode::OutOfRange);
  CHECK(e.allowed.find("only 1") != std::string::npos);
}

// [SECTION] the busiest rank, the all-to-all and two-batch overlap in the step ------------------------------

TEST_CASE("step: ep 1 has no all-to-all — the busiest rank streams at least the mean rank's experts") {
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "ep", "1");
  Computed c = computed(s);
  CHECK(c.values[F::DecodeTA2a] == 0);
  s = preset("deepseek-v3-8xh200");
  edit(s, "dp", "8");
  edit(s, "tp", "1");
  edit(s, "batch", "8");
  edit(s, "route_skew", "1");  // uniform routing: the hot rank's traffic is the mean rank's
  c = computed(s);
  CHECK(c.values[F::DecodeTA2a] > 0);
  // E = 256, top-8, EP8, one token per replica's step... 8 tokens over 8 ranks: each rank's mean 8 assignments.
  const ExpertLoad mean_rank = expert_load(256, 8, 8, 8);
  CHECK(c.values[F::DecodeExpertsPerRank] == Approx(mean_rank.distinct_busiest));
  CHECK(c.values[F::DecodeExpertsPerRank] > mean_rank.distinct_rank);
  CHECK(c.values[F::DecodeBusiestRank] >= 8.0);
}

TEST_CASE("step: routing skew raises the busiest rank's load and step — redundant slots replace it by the balancer's residual") {
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "dp", "8");
  edit(s, "tp", "1");
  edit(s, "batch", "1024");
  const Computed uniform = computed(s);
  edit(s, "route_skew", "2");
  const Computed skewed = computed(s);
  CHECK(skewed.values[F::DecodeBusiestRank] == Approx(2.0 * 1024 * 8 / 8));
  CHECK(skewed.values[F::DecodeStepTime] > uniform.values[F::DecodeStepTime]);
  edit(s, "redundant", "32");
  edit(s, "eplb_residual", "0.11");
  const Computed balanced = computed(s);
  CHECK(balanced.values[F::DecodeImbalance] == Approx(0.11).epsilon(1e-9));
}

TEST_CASE("step: two-batch overlap hides the all-to-all behind compute and is never slower when compute outweighs it") {
  // V3 on 72 H100 (SGLang's EP72 decode pool): TBO runs by default there.
  Scenario s = preset("deepseek-v3-8xh200");
  for (const char* kv : {"gpu=h100", "gpus=72", "dp=72", "tp=1", "ep=72", "redundant=32", "engine=sglang", "ctx=2048"}) {
    const std::string text(kv);
    const auto eq = text.find('=');
    set(s, text.substr(0, eq).c_str(), text.substr(eq + 1).c_str());
  }
  REQUIRE(validate(s).empty());
  for (const char* batch : {"2304", "18432", "73728"}) {
    edit(s, "batch", batch);
    edit(s, "tbo", "off");
    const Computed off = computed(s);
    edit(s, "tbo", "auto");
    const Computed on = computed(s);
    INFO("batch " << batch);
    CHECK(on.terms.tbo);
    CHECK(!off.terms.tbo);
    // The overlap's own terms: 2 × max(half compute, half all-to-all) − one-pass compute.
    CHECK(on.values[F::DecodeTA2a] ==
          Approx(2.0 * std::max(on.terms.tbo_core_half, on.terms.tbo_a2a_half) - on.terms.tbo_core_full).epsilon(1e-12));
    if (on.terms.step.compute_bound() && on.terms.tbo_core_half >= on.terms.tbo_a2a_half) {
      CHECK(on.values[F::DecodeStepTime] <= off.values[F::DecodeStepTime] * (1 + 1e-9));
    }
    // Never faster than the compute alone, never slower than two full passes.
    CHECK(on.values[F::DecodeStepTime] >= off.values[F::DecodeStepTime] - off.values[F::DecodeTA2a] - 1e-12);
  }
  // NVLink-only: auto leaves it off (GB200 NVL72 ran without it).
  set(s, "gpus", "8");
  set(s, "dp", "8");
  set(s, "ep", "8");
  set(s, "redundant", "0");
  REQUIRE(validate(s).empty());
  CHECK(!computed(s).terms.tbo);
}

TEST_CASE("step: MTP yields the engine's acceptance length when given, and the drafts cost their layer and head") {
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "spec_tokens", "3");
  edit(s, "spec_accept", "0.7");
  Computed c = computed(s);
  CHECK(c.values[F::DecodeTokensPerStep] == Approx((1 - std::pow(0.7, 4)) / (1 - 0.7)));
  CHECK(c.values[F::DecodeTDraft] == Approx(3 * (1 * c.terms.draft_layer + c.terms.draft_head)));
  CHECK(c.terms.draft_head > 0);
  edit(s, "spec_accept_len", "2.4");
  c = computed(s);
  CHECK(c.values[F::DecodeTokensPerStep] == Approx(2.4));
  edit(s, "spec_accept_len", "9");
  CHECK(computed(s).values[F::DecodeTokensPerStep] == Approx(4));  // at most d + 1
}
