// The xPyD search (`serve --xpyd GPUS`): every full split of a GPU count between prefill workers and decode
// instances, each split's goodput as its own search finds it, the aggregated instances beside them, and the
// refusals that name what the search needs.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/params.h"
#include "model/presets.h"
#include "serve/serve.h"

using namespace tierscope;

namespace {

// Llama 3.1 70B on TP4 instances of H100: a prefill worker and a decode instance of 4 GPUs each.
model::Scenario tp4() {
  model::Scenario s;
  REQUIRE(model::make_preset("llama31-70b-8xh100", s));
  model::Error e;
  model::Adjustments moved;
  REQUIRE(model::edit_param(s, *model::find_param("gpus"), "4", moved, e));
  REQUIRE(model::edit_param(s, *model::find_param("tp"), "4", moved, e));
  REQUIRE(model::validate(s).empty());
  return s;
}

serve::ServeSpec objectives(int gpus, double slo_ttft, double slo_itl) {
  serve::ServeSpec spec;
  spec.input = 2048;
  spec.output = 256;
  spec.requests = 200;
  spec.slo_ttft = slo_ttft;
  spec.slo_itl = slo_itl;
  spec.goodput = 0.9;
  spec.xpyd = gpus;
  return spec;
}

}  // namespace

TEST_CASE("xpyd: every split fills the GPUs, each with the goodput its own search finds, the aggregated instances beside") {
  const model::Scenario s = tp4();
  const serve::ServeSpec spec = objectives(32, 0.5, 0.03);
  serve::ServeResult r;
  model::Errors errors;
  REQUIRE(serve::find_xpyd(s, spec, r, errors));
  CHECK(r.xpyd_gpus == 32);
  // 1P7D … 7P1D, then 8 aggregated instances: every split uses all 32 GPUs (4 each).
  REQUIRE(r.xpyd.size() == 8);
  for (int x = 1; x <= 7; ++x) {
    const serve::XpydSplit& split = r.xpyd[static_cast<std::size_t>(x - 1)];
    CHECK(split.prefill_workers == x);
    CHECK(split.decode_instances == 8 - x);
    CHECK(split.gpus == 32);
  }
  CHECK(r.xpyd.back().prefill_workers == 0);
  CHECK(r.xpyd.back().decode_instances == 8);
  for (const serve::XpydSplit& split : r.xpyd) CHECK(split.per_gpu == Approx(split.goodput_rate / split.gpus));
  // A split's goodput is the goodput of that deployment searched alone.
  serve::ServeSpec alone = spec;
  alone.prefill = serve::PrefillMode::Pd;
  alone.prefill_workers = 3;
  alone.instances = 5;
  serve::ServeResult one;
  REQUIRE(serve::find_goodput(s, alone, one, errors));
  CHECK(one.goodput_rate == r.xpyd[2].goodput_rate);
}

TEST_CASE("xpyd: under a tight inter-token objective a disaggregated split serves more per GPU than the aggregated instances") {
  // DistServe's finding (https://arxiv.org/abs/2401.09670): prompts that share steps with decodes stretch the
  // decodes' gaps, so a tight TPOT objective caps an aggregated instance's rate before it caps a decode pool's.
  const model::Scenario s = tp4();
  serve::ServeResult r;
  model::Errors errors;
  REQUIRE(serve::find_xpyd(s, objectives(32, 0.5, 0.03), r, errors));
  double best_pd = 0;
  for (const serve::XpydSplit& split : r.xpyd)
    if (split.prefill_workers > 0) best_pd = std::max(best_pd, split.per_gpu);
  CHECK(best_pd > r.xpyd.back().per_gpu);
}

TEST_CASE("xpyd: refused without a goodput to compare by, or when the GPUs hold no split, naming a worker's and an instance's GPUs") {
  const model::Scenario s = tp4();
  serve::ServeResult r;
  model::Errors errors;
  serve::ServeSpec spec = objectives(16, 0.5, 0.03);
  spec.goodput = 0;
  CHECK_FALSE(serve::find_xpyd(s, spec, r, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "--xpyd");
  CHECK(errors[0].allowed.find("--goodput") != std::string::npos);
  errors.clear();
  spec = objectives(6, 0.5, 0.03);
  CHECK_FALSE(serve::find_xpyd(s, spec, r, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].value == "6");
  CHECK(errors[0].allowed.find("one prefill worker (4 GPUs) and one decode instance (4 GPUs)") != std::string::npos);
  CHECK(r.xpyd.empty());
}
