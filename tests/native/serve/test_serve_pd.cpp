// The disaggregated replay (`serve --prefill pd`): the KV's hand-off in TTFT at the figures' own time, a
// fixed prefill pool that queues when under-sized, the per-GPU throughput counting that pool, and SLO
// attainment against the objectives.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/handoff.h"
#include "roofline/step_mix.h"
#include "serve/prefill_pool.h"
#include "serve/serve.h"

using namespace tierscope;

namespace {

model::Scenario scenario(const char* engine) {
  model::Scenario s;
  REQUIRE(model::make_preset("v41-flash-8xb200", s));
  model::Error e;
  model::Adjustments moved;
  REQUIRE(model::edit_param(s, *model::find_param("engine"), engine, moved, e));
  REQUIRE(model::edit_param(s, *model::find_param("pd_link"), "nic", moved, e));
  REQUIRE(model::validate(s).empty());
  return s;
}

serve::ServeSpec pd(int concurrency, int workers, int input = 4096, int output = 256) {
  serve::ServeSpec spec;
  spec.concurrency = concurrency;
  spec.requests = 20 * concurrency;
  spec.input = input;
  spec.output = output;
  spec.prefill = serve::PrefillMode::Pd;
  spec.prefill_workers = workers;
  return spec;
}

serve::ServeResult replay(const model::Scenario& s, const serve::ServeSpec& spec) {
  serve::ServeResult r;
  model::Errors errors;
  REQUIRE(serve::run_serve(s, spec, r, errors));
  REQUIRE(errors.empty());
  return r;
}

}  // namespace

TEST_CASE("prefill pool: the worker free soonest takes the next prompt, and a pool that keeps up never queues") {
  serve::PrefillPool two(2);
  CHECK(two.run(0, 1, 0.5).start == 0);
  CHECK(two.run(0, 1, 0.5).start == 0);
  const serve::PrefillPass third = two.run(0, 1, 0.5);
  CHECK(third.start == 1);  // waits for a worker
  CHECK(third.end == 2);
  CHECK(third.handed == 2.5);  // the hand-off follows the pass; the worker is free again at its end
  CHECK(two.run(1.5, 1, 0).start == 1.5);
  serve::PrefillPool open;
  for (int i = 0; i < 5; ++i) CHECK(open.run(0.25, 1, 0).start == 0.25);
}

TEST_CASE("serve pd: TTFT holds the KV's hand-off at pd.transfer_time's own time, and its parts add up") {
  for (const char* engine : {"sglang", "trtllm", "vllm"}) {
    INFO(engine);
    const model::Scenario s = scenario(engine);
    // One client, fixed lengths: every request's hand-off is the figures' for a 4096-token prompt.
    const serve::ServeResult r = replay(s, pd(1, 0));
    model::Scenario point = s;
    point.work.batch = 1;
    point.work.prompt = 4096;
    point.work.output = 256;
    point.work.prefix_hit = 0;
    point.work.ctx = 4096 + 128;
    model::StepTimer timer(point);
    const double pass = timer.chunk(4096, 0).alone;
    const double expected = model::HandoffModel(s).cost(4096, pass, std::ceil(4096.0 / s.work.chunk)).exposed_s;
    CHECK(expected > 0);
    CHECK(r.ttft_parts.transfer.mean == Approx(expected).epsilon(1e-9));
    CHECK(r.ttft_parts.prefill.mean == Approx(pass).epsilon(1e-9));
    const auto& p = r.ttft_parts;
    CHECK(p.overhead.mean + p.queue.mean + p.prefill.mean + p.transfer.mean + p.admission.mean == Approx(r.ttft.mean).epsilon(1e-9));
    // vLLM's decode computes the first token again: admission then holds a decode step.
    if (std::string(engine) == "vllm") CHECK(p.admission.mean > 0);
    // Without the hand-off, TTFT would be shorter by it.
    CHECK(r.ttft.mean > p.overhead.mean + p.queue.mean + p.prefill.mean + p.admission.mean);
  }
}

TEST_CASE("serve pd: a decode request sent after the prefill's response passes its own worker's front end, and TensorRT-LLM's first token comes with the decode's first step") {
  for (const char* engine : {"sglang", "trtllm", "vllm"}) {
    INFO(engine);
    const model::Scenario s = scenario(engine);
    const serve::SchedulerDefaults& d = serve::scheduler_defaults(s.engine.kind);
    const serve::ServeResult r = replay(s, pd(1, 0));
    const double prefill_front = d.request_s + d.request_token_s * 4096;
    // SGLang's decode request leaves with the prefill request (its bootstrap room): one front end on the path.
    const bool after = std::string(engine) != "sglang";
    CHECK(r.ttft_parts.overhead.mean == Approx(prefill_front + (after ? d.request_s : 0.0)).epsilon(1e-9));
    // The decode step that yields the first token (TensorRT-LLM under Dynamo, vLLM's recompute) is in admission.
    if (std::string(engine) != "sglang") CHECK(r.ttft_parts.admission.mean > 0);
  }
}

TEST_CASE("serve pd: a fixed prefill pool queues when under-sized — a pool sized to keep up never does") {
  const model::Scenario s = scenario("sglang");
  const serve::ServeResult keep = replay(s, pd(32, 0));
  const serve::ServeResult one = replay(s, pd(32, 1));
  const serve::ServeResult eight = replay(s, pd(32, 8));
  CHECK(keep.ttft_parts.queue.max == 0);
  CHECK(one.ttft_parts.queue.mean > 0);
  CHECK(one.ttft.mean > eight.ttft.mean);
  CHECK(one.ttft_parts.queue.mean > eight.ttft_parts.queue.mean);
  // The fixed pool's GPUs are its workers' (each a replica of the 4-GPU layout), counted per GPU.
  CHECK(one.prefill_workers == 1);
  CHECK(one.prefill_gpus == 4);
  CHECK(eight.prefill_gpus == 32);
  CHECK(eight.output_tps_gpu < one.output_tps_gpu * (eight.output_tps / one.output_tps));
}

TEST_CASE("serve pd: SLO attainment is the share of requests within both objectives") {
  const model::Scenario s = scenario("sglang");
  serve::ServeSpec spec = pd(32, 1);
  const serve::ServeResult none = replay(s, spec);
  CHECK(none.slo_attainment < 0);  // no objective, nothing reported
  spec.slo_ttft = 1e-6;
  CHECK(replay(s, spec).slo_attainment == 0);
  spec.slo_ttft = 3600;
  spec.slo_itl = 3600;
  CHECK(replay(s, spec).slo_attainment == 1);
  // At the run's own median TTFT about half the requests meet it, and a tighter TPOT objective only lowers that.
  spec.slo_itl = 0;
  spec.slo_ttft = none.ttft.median;
  const double half = replay(s, spec).slo_attainment;
  CHECK(half > 0.3);
  CHECK(half < 0.8);
  spec.slo_itl = none.tpot.median;
  const double both = replay(s, spec).slo_attainment;
  CHECK(both <= half);
  CHECK(both < 1);
  // The summary says it, in all three formats.
  serve::ServeResult r = replay(s, spec);
  CHECK(serve::serve_text(r).find("SLO attainment") != std::string::npos);
  CHECK(serve::serve_json(r).find("\"slo_attainment\"") != std::string::npos);
  CHECK(serve::serve_csv(r).find("slo_attainment,") != std::string::npos);
  CHECK(serve::serve_json(r).find("\"transfer\"") != std::string::npos);
}

TEST_CASE("serve pd: bad pool and objective flags are refused, naming the flag") {
  serve::ServeSpec spec;
  model::Error e;
  CHECK_FALSE(serve::set_serve_flag("--prefill-workers", "-1", spec, e));
  CHECK(e.field == "--prefill-workers");
  CHECK_FALSE(serve::set_serve_flag("--slo-ttft", "-0.5", spec, e));
  CHECK(e.field == "--slo-ttft");
  CHECK_FALSE(serve::set_serve_flag("--slo-itl", "abc", spec, e));
  CHECK(e.field == "--slo-itl");
  CHECK(serve::set_serve_flag("--prefill-workers", "3", spec, e));
  CHECK(spec.prefill_workers == 3);
}

TEST_CASE("goodput: the highest rate at which the share asked for meets the objectives") {
  const model::Scenario s = scenario("sglang");
  serve::ServeSpec spec = pd(1, 2, 1024, 128);
  spec.requests = 200;
  spec.goodput = 0.9;
  serve::ServeResult r;
  model::Errors errors;
  CHECK_FALSE(serve::find_goodput(s, spec, r, errors));  // no objective to hold
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "--goodput");
  errors.clear();
  spec.slo_ttft = 0.5;
  spec.slo_itl = 0.05;
  REQUIRE(serve::find_goodput(s, spec, r, errors));
  CHECK(r.goodput_at == 0.9);
  CHECK(r.goodput_rate > 0);
  // At that rate the share holds; at twice it, it does not.
  serve::ServeSpec at = spec;
  at.concurrency = 0;
  at.rate = r.goodput_rate;
  CHECK(replay(s, at).slo_attainment >= 0.9);
  at.rate = 2 * r.goodput_rate;
  CHECK(replay(s, at).slo_attainment < 0.9);
  // A looser TTFT objective serves more.
  serve::ServeResult loose;
  spec.slo_ttft = 2.0;
  REQUIRE(serve::find_goodput(s, spec, loose, errors));
  CHECK(loose.goodput_rate >= r.goodput_rate);
}

TEST_CASE("serve pd: prefill workers of their own layout — each pass at that layout, its replicas' GPUs counted") {
  const model::Scenario decode = scenario("sglang");  // TP4 instances of 4 B200s
  model::Scenario prefill = decode;
  model::Error e;
  model::Adjustments moved;
  REQUIRE(model::edit_param(prefill, *model::find_param("gpus"), "8", moved, e));
  REQUIRE(model::edit_param(prefill, *model::find_param("tp"), "8", moved, e));
  REQUIRE(model::validate(prefill).empty());
  const serve::ServeSpec spec = pd(1, 3);
  serve::ServeResult own, same;
  model::Errors errors;
  REQUIRE(serve::run_serve(decode, spec, own, errors, &prefill));
  INFO((errors.empty() ? std::string() : errors.front().message()));
  REQUIRE(serve::run_serve(decode, spec, same, errors));
  model::Scenario at = prefill;
  at.work.batch = 1;
  at.work.prompt = 4096;
  at.work.output = 256;
  at.work.prefix_hit = 0;
  at.work.ctx = 4096 + 128;
  model::StepTimer timer(at);
  CHECK(own.ttft_parts.prefill.mean == Approx(timer.chunk(4096, 0).alone).epsilon(1e-9));
  CHECK(own.ttft_parts.prefill.mean < same.ttft_parts.prefill.mean);  // twice the GPUs: a faster pass
  CHECK(own.prefill_gpus == 3 * prefill.hw.gpus / std::max(1, prefill.par.dp));
  CHECK(same.prefill_gpus == 3 * 4);
}
