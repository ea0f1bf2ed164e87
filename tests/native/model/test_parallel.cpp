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

TEST_CASE("busiest expert rank: the closed form against a seeded Monte Carlo of uniform routing") {
  struct Case {
    int E, k, ep, tokens;
  };
  // Decode-sized loads (FACTS-parallel 4.2) and tiny ones where the normal approximation is weakest.
  const Case cases[] = {{256, 8, 8, 256}, {256, 8, 32, 256}, {256, 8, 32, 32}, {256, 8, 64, 128}, {288, 8, 72, 256},
                        {384, 6, 8, 1},   {384, 6, 8, 16},   {384, 6, 4, 128}};
  std::mt19937_64 rng(20261130);
  for (const Case& c : cases) {
    const int per_rank = c.E / c.ep, trials = 300;
    double sum_max = 0, sum_distinct_rank0 = 0;
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
      for (int e = 0; e < per_rank; ++e) sum_distinct_rank0 += touched[static_cast<std::size_t>(e)];
    }
    const ExpertLoad x = expert_load(c.E, c.k, c.ep, c.tokens);
    INFO("E " << c.E << " k " << c.k << " ep " << c.ep << " tokens " << c.tokens);
    CHECK(x.mean == Approx(static_cast<double>(c.tokens) * c.k / c.ep));
    CHECK(x.busiest == Approx(sum_max / trials).epsilon(0.12));
    CHECK(x.distinct_rank == Approx(sum_distinct_rank0 / trials).epsilon(0.05));
    CHECK(x.busiest >= x.mean);
  }
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
  // TP beyond the KV heads would need a head split: refused, with the reason.
  Scenario m = l;
  m.hw.gpus = 16;
  m.par.tp = 16;
  m.par.dp = 1;
  CHECK(has_error(validate(m), "tp"));
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
