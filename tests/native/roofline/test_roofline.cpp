// The roofline: no step below either roof, monotone in the batch with its crossover, GEMMs at their formats'
// rates, the replay a window costs, and the setups that cannot run named with their numbers. Expected values
// are worked out here from first principles, not read back from the model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/parallel.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

// [SECTION] rooflines -----------------------------------------------------------------------------------------

TEST_CASE("roofline: no step is ever below either roof, and the bound is named") {
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    for (const char* batch : {"1", "16", "64"}) {
      for (const char* ctx : {"2048", "32768"}) {
        edit(s, "batch", batch);
        edit(s, "ctx", ctx);
        const Computed c = computed(s);
        if (!c.terms.feasible()) continue;
        INFO(p.name << " batch " << batch << " ctx " << ctx);
        const Values& v = c.values;
        CHECK(v[F::DecodeStepTime] >= v[F::DecodeMemoryRoof]);
        CHECK(v[F::DecodeStepTime] >= v[F::DecodeComputeRoof]);
        // The step is exactly its named parts (what the ledger lays end to end).
        const double parts = v[F::DecodeTWeights] + v[F::DecodeTIndex] + v[F::DecodeTGather] + v[F::DecodeTWindow] + v[F::DecodeTAppend] +
                             v[F::DecodeTCompute] + v[F::DecodeTTopk] + v[F::DecodeTA2a] + v[F::DecodeTAllreduce] + v[F::DecodeTOverhead] +
                             v[F::DecodeTDraft] + v[F::DecodeTStall] + v[F::DecodeTHost] + v[F::DecodeTState];
        CHECK(parts == Approx(v[F::DecodeStepTime]).epsilon(1e-12));
        CHECK(v[F::PrefillTime] >= c.terms.prefill.full.t_compute);
        const Figures f = describe(s);
        const std::string& text = f[F::DecodeStepTime].formula();
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
    const double step = computed(s).values[F::DecodeStepTime];
    CHECK(step >= last);
    last = step;
  }
  const double cross = computed(s).values[F::DecodeCrossoverBatch];
  REQUIRE(cross > 1);
  // At the crossover the two roofs meet (the search is on a log grid: within 0.1 %).
  edit(s, "batch", std::to_string(static_cast<int>(std::ceil(cross))).c_str());
  Computed at = computed(s);
  CHECK(at.values[F::DecodeComputeRoof] == Approx(at.values[F::DecodeMemoryRoof]).epsilon(0.01));
}

TEST_CASE("roofline: GEMMs run at the rate of their formats") {
  // BF16 Llama at half the FP8 rate; the same model in FP8 with FP8 activations at the FP8 rate (each at
  // the Hopper GEMMs' saturated FLOP share, 0.75).
  Scenario s = preset("llama31-8b-1xh100");
  Computed c = computed(s);
  CHECK(c.terms.peak_c[0] == Approx(1.979e15 / 2 * 0.75));
  edit(s, "dense_fmt", "fp8");
  edit(s, "act_fmt", "fp8");
  c = computed(s);
  CHECK(c.terms.peak_c[0] == Approx(1.979e15 * 0.75));
  edit(s, "compute", "fp4");  // H100 has no FP4 units: the FP8 rate applies
  CHECK(computed(s).terms.peak_c[0] == Approx(1.979e15 * 0.75));
}

TEST_CASE("collectives: a TP group wider than its NVLink domain all-reduces over the NIC at its own latency") {
  // DeepSeek-V3 at TP16 on two 8-GPU nodes: 122 all-reduces a step (61 after attention, 3 after the dense
  // FFNs, 58 after the MoE), each paying the cross-node latency; within a node (TP8) they pay the NVLink one
  // and the cross-node value changes nothing.
  const auto tp_over = [](int gpus, const char* ar_rdma) {
    Scenario s = preset("deepseek-v3-8xh200");
    edit(s, "dp", "1");
    edit(s, "gpus", std::to_string(gpus).c_str());
    edit(s, "tp", std::to_string(gpus).c_str());
    edit(s, "ep", std::to_string(gpus).c_str());
    edit(s, "batch", "8");
    if (ar_rdma) edit(s, "ar_rdma_lat_us", ar_rdma);
    return computed(s).values[F::DecodeTAllreduce];
  };
  const double base = tp_over(16, nullptr);
  const double more = tp_over(16, "57");  // 10 µs more than the default 47
  CHECK(more - base == Approx(122 * 10e-6).epsilon(1e-9));
  CHECK(tp_over(8, "57") == tp_over(8, nullptr));
  CHECK(tp_over(8, nullptr) < base);
}

TEST_CASE("replay: riding a step is cheaper than alone — none without a window or with the window cached") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "batch", "64");
  edit(s, "ctx", "8192");
  Computed c = computed(s);
  CHECK(c.values[F::ReplayTime] > 0);
  CHECK(c.values[F::ReplayTime] < c.values[F::ReplayTimeStandalone]);
  // 128 tokens × 6 of 384 experts touch E·(1 − (1 − 6/384)^128) per layer.
  CHECK(c.values[F::ReplayWeightBytes] > 40 * distinct_experts(384, 6, 128) / 4 * 3.0 * 2304 * 5120 * 0.53125 - 1);
  CHECK(c.values[F::ReplayFlop] > 2 * 16.376e9 * 128 * 0.95);
  CHECK(computed(preset("llama31-70b-8xh100")).values[F::ReplayTime] == 0.0);
  CHECK(computed(preset("v4-flash-8xb200")).values[F::ReplayTimeStandalone] == 0.0);
}

// [SECTION] feasibility ---------------------------------------------------------------------------------------

TEST_CASE("feasibility: setups that cannot run are named, with the numbers") {
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "gpus", "1");
  Computed c = computed(s);
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
  CHECK(f[F::DecodeStepTime].formula().find("cannot run") != std::string::npos);
  CHECK(f[F::KvGlobalPerToken].feasible);
  CHECK(f[F::KvGlobalPerToken].value == Approx(890));

  s = preset("v41-flash-8xb200");
  edit(s, "batch", "4096");
  c = computed(s);
  REQUIRE_FALSE(c.terms.feasible());
  CHECK(c.terms.infeasible[0].kind == Infeasible::BatchOverCapacity);
  CHECK(c.terms.infeasible[0].limit == c.values[F::HbmSessions]);
  CHECK(describe(s)[F::HbmSessions].feasible);  // the capacity is what the user needs to see

  s = preset("v41-flash-8xb200");
  edit(s, "ctx", "2000000");
  c = computed(s);
  bool ctx_named = false;
  for (int i = 0; i < c.terms.infeasible_count; ++i) ctx_named |= c.terms.infeasible[i].kind == Infeasible::CtxOverMaxPos;
  CHECK(ctx_named);

  // Llama 3.1 70B at 128K fits its positions but not many sessions: three per instance at BF16.
  s = preset("llama31-70b-8xh100");
  c = computed(s);
  CHECK(c.terms.feasible());
  CHECK(c.values[F::HbmSessions] == 3);
  edit(s, "batch", "4");
  CHECK_FALSE(computed(s).terms.feasible());
}
