// Model v2: placement under a parallel layout, expert balance, rooflines, feasibility, provenance and the
// measured anchors. Expected values are worked out here from first principles, not read back from the model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "evidence/anchors.h"
#include "model/parallel.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope::model;
using F = FigureId;

namespace {

Scenario preset(const char* name) {
  Scenario s;
  REQUIRE(make_preset(name, s));
  REQUIRE(validate(s).empty());
  return s;
}

Computed run(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c;
}

// Sets a value as a person would (dependent fields follow) and requires the result to validate.
void edit(Scenario& s, const char* key, const char* text) {
  const ParamDef* p = find_param(key);
  REQUIRE(p != nullptr);
  Adjustments moved;
  Error e;
  REQUIRE(edit_param(s, *p, text, moved, e));
  INFO(key << "=" << text);
  REQUIRE(validate(s).empty());
}

bool has_error(const Errors& errors, const char* field) {
  for (const Error& e : errors) {
    if (e.field == field) return true;
  }
  return false;
}

}  // namespace

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
  Computed c = run(v);
  CHECK(c.values[F::HbmKvCopies] == 4);
  CHECK(c.values[F::HbmKvSessionPerGpu] == c.values[F::KvPerSession]);
  edit(v, "dp", "4");  // TP1 × DP4: each session's KV on one GPU
  c = run(v);
  CHECK(c.values[F::HbmKvCopies] == 1);
  CHECK(c.values[F::HbmSessions] == Approx(4 * c.terms.sessions_replica));

  Scenario l = preset("llama31-70b-8xh100");  // GQA, 8 KV heads, TP4
  c = run(l);
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
    const Computed c = run(s);
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

TEST_CASE("edits move dependent fields together instead of refusing") {
  Scenario s = preset("v41-flash-8xb200");
  Adjustments moved;
  Error e;
  REQUIRE(edit_param(s, *find_param("prompt"), "4096", moved, e));
  CHECK(s.work.prefix_hit == 4096);
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].field == "prefix_hit");
  CHECK(moved[0].from == "7168");
  moved.clear();
  REQUIRE(edit_param(s, *find_param("gpus"), "8", moved, e));  // TP4 → TP8 (all tensor parallel)
  CHECK(s.par.tp == 8);
  CHECK(s.par.dp == 1);
  CHECK(validate(s).empty());
  REQUIRE(edit_param(s, *find_param("dp"), "8", moved, e));
  CHECK(s.par.tp == 1);
  REQUIRE(edit_param(s, *find_param("gpus"), "16", moved, e));  // all data parallel stays so
  CHECK(s.par.dp == 16);
  CHECK(s.par.tp == 1);
  CHECK(validate(s).empty());
  REQUIRE(edit_param(s, *find_param("gpus"), "1", moved, e));
  CHECK(s.par.tp * s.par.dp == 1);
  CHECK(validate(s).empty());
}

// [SECTION] rooflines -----------------------------------------------------------------------------------------

TEST_CASE("roofline: no step is ever below either roof, and the bound is named") {
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    for (const char* batch : {"1", "16", "64"}) {
      for (const char* ctx : {"2048", "32768"}) {
        edit(s, "batch", batch);
        edit(s, "ctx", ctx);
        const Computed c = run(s);
        if (!c.terms.feasible()) continue;
        INFO(p.name << " batch " << batch << " ctx " << ctx);
        const Values& v = c.values;
        CHECK(v[F::DecodeStepTime] >= v[F::DecodeMemoryRoof]);
        CHECK(v[F::DecodeStepTime] >= v[F::DecodeComputeRoof]);
        // The step is exactly its named parts (what the ledger lays end to end).
        const double parts = v[F::DecodeTWeights] + v[F::DecodeTIndex] + v[F::DecodeTGather] + v[F::DecodeTWindow] + v[F::DecodeTAppend] +
                             v[F::DecodeTCompute] + v[F::DecodeTTopk] + v[F::DecodeTA2a] + v[F::DecodeTAllreduce] + v[F::DecodeTOverhead] +
                             v[F::DecodeTDraft] + v[F::DecodeTStall];
        CHECK(parts == Approx(v[F::DecodeStepTime]).epsilon(1e-12));
        CHECK(v[F::PrefillTime] >= c.terms.prefill.full.t_compute);
        const Figures f = describe(s);
        const std::string& text = f[F::DecodeStepTime].formula;
        CHECK((text.find("memory-bound") != std::string::npos || text.find("compute-bound") != std::string::npos ||
               text.find("launch-bound") != std::string::npos));
      }
    }
  }
}

TEST_CASE("roofline: the step never gets faster as the batch grows, and turns compute-bound past the crossover") {
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "dp", "8");
  edit(s, "ctx", "2048");
  double last = 0;
  for (int b : {1, 8, 64, 256, 1024}) {
    edit(s, "batch", std::to_string(b).c_str());
    const double step = run(s).values[F::DecodeStepTime];
    CHECK(step >= last);
    last = step;
  }
  const double cross = run(s).values[F::DecodeCrossoverBatch];
  REQUIRE(cross > 1);
  // At the crossover the two roofs meet (the search is on a log grid: within 0.1 %).
  edit(s, "batch", std::to_string(static_cast<int>(std::ceil(cross))).c_str());
  Computed at = run(s);
  CHECK(at.values[F::DecodeComputeRoof] == Approx(at.values[F::DecodeMemoryRoof]).epsilon(0.01));
}

TEST_CASE("roofline: GEMMs run at the rate of their formats") {
  // BF16 Llama at half the FP8 rate; the same model in FP8 with FP8 activations at the FP8 rate.
  Scenario s = preset("llama31-8b-1xh100");
  Computed c = run(s);
  CHECK(c.terms.peak_c[0] == Approx(1.979e15 / 2 * 0.35));
  edit(s, "dense_fmt", "fp8");
  edit(s, "act_fmt", "fp8");
  c = run(s);
  CHECK(c.terms.peak_c[0] == Approx(1.979e15 * 0.35));
  edit(s, "compute", "fp4");  // H100 has no FP4 units: the FP8 rate applies
  CHECK(run(s).terms.peak_c[0] == Approx(1.979e15 * 0.35));
}

TEST_CASE("replay: riding a step is cheaper than alone; none without a window or with the window cached") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "batch", "64");
  edit(s, "ctx", "8192");
  Computed c = run(s);
  CHECK(c.values[F::ReplayTime] > 0);
  CHECK(c.values[F::ReplayTime] < c.values[F::ReplayTimeStandalone]);
  // 128 tokens × 6 of 384 experts touch E·(1 − (1 − 6/384)^128) per layer.
  CHECK(c.values[F::ReplayWeightBytes] > 40 * distinct_experts(384, 6, 128) / 4 * 3.0 * 2304 * 5120 * 0.53125 - 1);
  CHECK(c.values[F::ReplayFlop] > 2 * 16.376e9 * 128 * 0.95);
  CHECK(run(preset("llama31-70b-8xh100")).values[F::ReplayTime] == 0.0);
  CHECK(run(preset("v4-flash-8xb200")).values[F::ReplayTimeStandalone] == 0.0);
}

// [SECTION] feasibility ---------------------------------------------------------------------------------------

TEST_CASE("feasibility: setups that cannot run are named, with the numbers") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "gpus", "1");
  Computed c = run(s);
  REQUIRE_FALSE(c.terms.feasible());
  CHECK(c.terms.infeasible[0].kind == Infeasible::WeightsDoNotFit);
  Errors e = infeasible_errors(c.terms);
  REQUIRE(e.size() == 1);
  CHECK(e[0].code == ErrorCode::Infeasible);
  CHECK(e[0].field == "gpus");
  CHECK(e[0].value.find("500.8 GB") != std::string::npos);
  // The timed figures are not shown; the bytes still are.
  const Figures f = describe(s);
  CHECK_FALSE(f[F::DecodeStepTime].feasible);
  CHECK(std::isnan(f[F::DecodeStepTime].value));
  CHECK(f[F::DecodeStepTime].formula.find("cannot run") != std::string::npos);
  CHECK(f[F::KvGlobalPerToken].feasible);
  CHECK(f[F::KvGlobalPerToken].value == Approx(890));

  s = preset("v41-flash-8xb200");
  edit(s, "batch", "4096");
  c = run(s);
  REQUIRE_FALSE(c.terms.feasible());
  CHECK(c.terms.infeasible[0].kind == Infeasible::BatchOverCapacity);
  CHECK(c.terms.infeasible[0].limit == c.values[F::HbmSessions]);
  CHECK(describe(s)[F::HbmSessions].feasible);  // the capacity is what the user needs to see

  s = preset("v41-flash-8xb200");
  edit(s, "ctx", "2000000");
  c = run(s);
  bool ctx_named = false;
  for (int i = 0; i < c.terms.infeasible_count; ++i) ctx_named |= c.terms.infeasible[i].kind == Infeasible::CtxOverMaxPos;
  CHECK(ctx_named);

  // Llama 3.1 70B at 128K fits its positions but not many sessions: three per instance at BF16.
  s = preset("llama31-70b-8xh100");
  c = run(s);
  CHECK(c.terms.feasible());
  CHECK(c.values[F::HbmSessions] == 3);
  edit(s, "batch", "4");
  CHECK_FALSE(run(s).terms.feasible());
}

// [SECTION] provenance ----------------------------------------------------------------------------------------

TEST_CASE("provenance: every input of every preset names its source; a changed input says override") {
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    for (const ParamDef& d : params()) {
      INFO(p.name << " " << d.key);
      const InputProvenance ip = input_provenance(s, d.key);
      CHECK(ip.source.find("the model's default") == std::string::npos);
      CHECK_FALSE(ip.source.empty());
    }
  }
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "mbu", "0.5");
  CHECK(input_provenance(s, "mbu").provenance == Provenance::Override);
  const Figures f = describe(s);
  CHECK(f[F::DecodeStepTime].provenance == Provenance::Override);
  CHECK(f[F::KvGlobalPerToken].provenance == Provenance::Paper);
  // No figure of another model claims V4.1's config as its source.
  const Figures l = describe(preset("llama31-70b-8xh100"));
  for (const Figure& x : l.list) {
    INFO(std::string(x.id));
    CHECK(figure_sources(l, x).find("DeepSeek-V4.1") == std::string::npos);
  }
}

// [SECTION] measured anchors ------------------------------------------------------------------------------------

TEST_CASE("anchors: every measured point applies its settings, can run, and its terms add up to the model's step") {
  REQUIRE(anchors().size() >= 5);
  int v41 = 0, others = 0;
  for (const AnchorResult& r : evaluate_anchors()) {
    INFO(r.anchor->id << ": " << r.why);
    REQUIRE(r.ok);
    (std::string(r.anchor->preset).rfind("v41", 0) == 0 ? v41 : others) += 1;
    double sum = 0;
    for (const StepTerm& t : r.terms) sum += t.seconds;
    CHECK(sum == Approx(r.step_model).epsilon(1e-9));
    CHECK(r.ratio > 0);
    CHECK(std::string(r.anchor->url).rfind("https://", 0) == 0);
  }
  CHECK(v41 >= 2);
  CHECK(others >= 3);
}
