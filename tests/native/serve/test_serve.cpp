// The serving replay's relations, asserted as relations (the step model's numbers move as it is refined):
// concurrency 1 against the single-step figures, Little's law, TPOT against concurrency and prefill share,
// the same bytes for the same seed, refusals with their reason, and the percentiles' accuracy.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "model/presets.h"
#include "quoted_numbers.h"
#include "roofline/figures.h"
#include "roofline/step_mix.h"
#include "serve/serve.h"

using namespace tierscope;
using model::FigureId;

namespace {

model::Scenario preset(const char* name = "v41-flash-8xb200") {
  model::Scenario s;
  REQUIRE(model::make_preset(name, s));
  return s;
}

serve::ServeResult replay(const model::Scenario& s, serve::ServeSpec spec) {
  serve::ServeResult r;
  model::Errors errors;
  REQUIRE(serve::run_serve(s, spec, r, errors));
  REQUIRE(errors.empty());
  return r;
}

serve::ServeSpec closed(int concurrency, int requests, int input = 1024, int output = 1024) {
  serve::ServeSpec spec;
  spec.concurrency = concurrency;
  spec.requests = requests;
  spec.input = input;
  spec.output = output;
  return spec;
}

}  // namespace

TEST_CASE("serve: at concurrency 1 the replay gives the single-step figures") {
  for (const char* name : {"v41-flash-8xb200", "deepseek-v3-8xh200"}) {
    model::Scenario s = preset(name);
    const serve::ServeResult r = replay(s, closed(1, 4));
    // The figures at the replay's lengths, the context a request's decode averages (prompt + half the output).
    s.work.batch = 1;
    s.work.prompt = 1024;
    s.work.output = 1024;
    s.work.prefix_hit = 0;
    s.work.ctx = 1536;
    model::Computed c;
    model::compute_values(s, c);
    INFO(name);
    CHECK(r.completed == 4);
    // TTFT: the engine's front end (its fixed part and its part per prompt token), then the prompt's pass;
    // alone in the engine, no wait for a step in flight and no queue.
    const serve::SchedulerDefaults& d = serve::scheduler_defaults(s.engine.kind);
    const double front = d.request_s + d.request_token_s * 1024;
    CHECK(front > 0);
    CHECK(r.ttft_parts.overhead.mean == Approx(front).epsilon(1e-9));
    CHECK(r.ttft_parts.wait.mean == 0);
    CHECK(r.ttft_parts.queue.mean == 0);
    CHECK(r.ttft_parts.prefill.mean == Approx(c.values[FigureId::PrefillTime]).epsilon(1e-9));
    CHECK(r.ttft.mean == Approx(front + c.values[FigureId::PrefillTime]).epsilon(1e-9));
    CHECK(r.tpot.mean == Approx(c.values[FigureId::DecodeTpot]).epsilon(0.01));
    // Throughput per GPU: the serving figure amortises the prompt over the output as the replay does.
    CHECK(r.output_tps_gpu == Approx(c.values[FigureId::ServeTokensPerSGpu]).epsilon(0.02));
    CHECK(r.max_batch_seen == 1);
  }
}

TEST_CASE("serve: Little's law holds in steady state (concurrency = throughput × E2E latency)") {
  const model::Scenario s = preset();
  for (int n : {8, 64}) {
    serve::ServeSpec spec = closed(n, 40 * n);
    spec.lengths = serve::Lengths::Random;
    spec.range_ratio = 0.5;
    const serve::ServeResult r = replay(s, spec);
    INFO("concurrency " << n);
    CHECK(r.completed == static_cast<std::uint64_t>(40 * n));
    CHECK(r.request_rate * r.e2e.mean == Approx(n).epsilon(0.05));
    CHECK(r.mean_in_flight == Approx(n).epsilon(0.05));
  }
  // Open loop: arrivals at a rate well under capacity leave as many as arrive.
  serve::ServeSpec open;
  open.rate = 2;
  open.requests = 400;
  open.input = 1024;
  open.output = 256;
  const serve::ServeResult r = replay(s, open);
  CHECK(r.completed == 400);
  CHECK(r.request_rate == Approx(2).epsilon(0.15));
  CHECK(r.mean_in_flight == Approx(r.request_rate * r.e2e.mean).epsilon(0.02));
}

TEST_CASE("serve: TPOT grows with concurrency and with the prefill share") {
  const model::Scenario s = preset();
  double last = 0;
  for (int n : {1, 8, 64, 256}) {
    const serve::ServeResult r = replay(s, closed(n, 4 * n, 1024, 256));
    INFO("concurrency " << n);
    CHECK(r.tpot.mean > last);
    last = r.tpot.mean;
  }
  // The same clients with longer prompts: more prefill shares each step.
  serve::ServeSpec a = closed(32, 320, 1024, 512), b = closed(32, 320, 8192, 512);
  a.lengths = b.lengths = serve::Lengths::Random;
  a.range_ratio = b.range_ratio = 0.5;
  CHECK(replay(s, b).tpot.mean > replay(s, a).tpot.mean);
}

TEST_CASE("serve: the same seed gives the same bytes — another seed other draws") {
  const model::Scenario s = preset();
  serve::ServeSpec spec = closed(16, 200);
  spec.lengths = serve::Lengths::Sharegpt;
  spec.steps = 20;
  const std::string one = serve::serve_json(replay(s, spec));
  CHECK(one == serve::serve_json(replay(s, spec)));
  spec.seed = 2;
  CHECK(one != serve::serve_json(replay(s, spec)));
  CHECK(one.find("\"steps_trace\"") != std::string::npos);
}

TEST_CASE("serve: --steps-from keeps the run's steps from that step on — the run itself is the same") {
  const model::Scenario s = preset();
  serve::ServeSpec first = closed(32, 200);
  first.steps = 60;
  serve::ServeSpec later = first;
  later.steps = 10;
  later.steps_from = 50;
  const serve::ServeResult a = replay(s, first), b = replay(s, later);
  REQUIRE(a.trace.size() == 60);
  REQUIRE(b.trace.size() == 10);
  for (std::size_t i = 0; i < b.trace.size(); ++i) {
    INFO(i);
    const serve::StepRecord &x = a.trace[50 + i], &y = b.trace[i];
    CHECK(y.index == 50 + i);
    CHECK(y.index == x.index);
    CHECK(y.start == x.start);
    CHECK(y.seconds == x.seconds);
    CHECK(y.decodes == x.decodes);
    CHECK(y.prefills == x.prefills);
    CHECK(serve::step_text(y) == serve::step_text(x));
  }
  CHECK(serve::step_text(b.trace[0]).rfind("step 50 at ", 0) == 0);
  // The heading over the steps says where they start.
  CHECK(serve::steps_title(a) == "The first scheduled steps");
  CHECK(serve::steps_title(b) == "Scheduled steps from step 50");
  // Which steps are kept changes nothing of the replay.
  CHECK(a.steps == b.steps);
  CHECK(a.duration == b.duration);
  CHECK(a.tpot.mean == b.tpot.mean);
  // Past the run's last step none are kept.
  serve::ServeSpec past = later;
  past.steps_from = static_cast<int>(a.steps) + 1;
  CHECK(replay(s, past).trace.empty());
}

TEST_CASE("serve: a request that cannot fit is refused with the reason, the rest run") {
  const model::Scenario s = preset();
  const serve::ServeResult probe = replay(s, closed(1, 1));
  REQUIRE(probe.kv_tokens > 0);
  // Lengths beyond the instance's KV capacity: every request refused, each run ends.
  const int too_long = static_cast<int>(probe.kv_tokens) + 1;
  const serve::ServeResult r = replay(s, closed(4, 10, too_long, 1));
  CHECK(r.refused == 10);
  CHECK(r.completed == 0);
  CHECK(!r.refused_why.empty());
  CHECK((r.refused_why.find("HBM") != std::string::npos || r.refused_why.find("positions") != std::string::npos));
  CHECK(serve::serve_text(r).find("Refused: request 0") != std::string::npos);
}

// Each refusal in a closed loop issued the client's next request by a call of its own: 10,000 refusals in a row
// overflowed the stack (tierscope serve --preset llama31-8b-1xh100 --input 200000 --concurrency 1 --requests 10000,
// and validate of a measured row past a model's positions, crashed with signal 11).
TEST_CASE("serve: a closed loop whose every request is refused ends — 200,000 refusals in a row") {
  const model::Scenario s = preset();
  const serve::ServeResult probe = replay(s, closed(1, 1));
  const int too_long = static_cast<int>(probe.kv_tokens) + 1;
  const serve::ServeResult r = replay(s, closed(1, 200000, too_long, 1));
  CHECK(r.refused == 200000);
  CHECK(r.completed == 0);
  CHECK(r.refused_why.starts_with("request 0 ("));
}

TEST_CASE("serve: a setup whose weights do not fit is named, not replayed") {
  model::Scenario s = preset();
  s.hw.gpus = 1;
  s.par.tp = s.par.dp = s.par.ep = 1;
  serve::ServeResult r;
  model::Errors errors;
  CHECK_FALSE(serve::run_serve(s, closed(4, 8), r, errors));
  REQUIRE(!errors.empty());
  CHECK(errors.front().code == model::ErrorCode::Infeasible);
}

TEST_CASE("serve: prefill-first steps and chunked steps both finish every request — first waits longer for its first token") {
  const model::Scenario s = preset();
  serve::ServeSpec a = closed(64, 256, 4096, 256), b = a;
  a.prefill = serve::PrefillMode::Chunked;
  b.prefill = serve::PrefillMode::First;
  const serve::ServeResult ra = replay(s, a), rb = replay(s, b);
  CHECK(ra.completed == 256);
  CHECK(rb.completed == 256);
  CHECK(ra.prefill == "chunked");
  CHECK(rb.prefill == "first");
  CHECK(rb.ttft.mean > ra.ttft.mean);
}

TEST_CASE("serve: disaggregated, each prompt takes one prefill pass and then decodes as in a decode pool — the prefill pool that keeps up counts per GPU") {
  model::Scenario s = preset("deepseek-v3-8xh200");
  serve::ServeSpec pd = closed(32, 128, 4096, 256), pool = pd;
  pd.prefill = serve::PrefillMode::Pd;
  pool.prefill = serve::PrefillMode::None;
  const serve::ServeResult a = replay(s, pd), b = replay(s, pool);
  CHECK(a.prefill == "pd");
  CHECK(a.completed == 128);
  // The first token comes one prefill pass after the request: the figure of that prompt.
  s.work.batch = 1;
  s.work.prompt = 4096;
  s.work.prefix_hit = 0;
  s.work.ctx = 4096;
  model::Computed c;
  model::compute_values(s, c);
  // After the engine's front end (a burst of clients passes it one at a time).
  CHECK(a.ttft_parts.prefill.mean == Approx(c.values[FigureId::PrefillTime]).epsilon(0.01));
  CHECK(a.ttft_parts.prefill.p99 == Approx(a.ttft_parts.prefill.mean).epsilon(0.02));
  // Then the KV's hand-off and the decode pool's admission (tests/native/serve/test_serve_pd.cpp).
  CHECK(a.ttft_parts.transfer.mean > 0);
  CHECK(a.ttft.mean == Approx(a.ttft_parts.overhead.mean + a.ttft_parts.prefill.mean + a.ttft_parts.transfer.mean + a.ttft_parts.admission.mean).epsilon(1e-9));
  // Decoding is the decode pool's: no prompt shares its steps.
  CHECK(a.tpot.mean == Approx(b.tpot.mean).epsilon(0.02));
  // The prefill pool: the prompts' GPU-seconds (one pass per replica of gpus ÷ dp GPUs) over the run.
  const double per_pass_gpus = static_cast<double>(a.gpus_per_instance) / std::max(1.0, static_cast<double>(s.par.dp));
  CHECK(a.prefill_gpus == Approx(c.values[FigureId::PrefillTime] * per_pass_gpus * static_cast<double>(a.completed) / a.duration).epsilon(0.02));
  CHECK(a.output_tps_gpu == Approx(a.output_tps / (a.instances * a.gpus_per_instance + a.prefill_gpus)).epsilon(1e-12));
  CHECK(a.output_tps_gpu < a.output_tps / (a.instances * a.gpus_per_instance));
  CHECK(b.prefill_gpus == 0);
  CHECK(serve::serve_text(a).find("Prefill pool GPUs (keeping up):") != std::string::npos);
  CHECK(serve::serve_text(b).find("Prefill pool GPUs") == std::string::npos);
}

TEST_CASE("serve: random lengths draw integers in [floor(L(1-r)), floor(L(1+r))], so a one-token output stays one token") {
  const model::Scenario s = preset();
  serve::ServeSpec spec = closed(8, 200, 1000, 1);
  spec.lengths = serve::Lengths::Random;
  spec.range_ratio = 0.2;
  const serve::ServeResult r = replay(s, spec);
  CHECK(r.output_tokens == 200);
  CHECK(r.input_tokens >= 200 * 800);
  CHECK(r.input_tokens <= 200 * 1200);
}

TEST_CASE("serve: percentiles within the histogram's resolution, memory fixed") {
  serve::Histogram h;
  for (int i = 1; i <= 10000; ++i) h.add(i * 1e-3);
  CHECK(h.mean() == Approx(5.0005).epsilon(1e-12));
  CHECK(h.quantile(0.5) == Approx(5.0).epsilon(0.012));
  CHECK(h.quantile(0.9) == Approx(9.0).epsilon(0.012));
  CHECK(h.quantile(0.99) == Approx(9.9).epsilon(0.012));
  CHECK(h.quantile(1.0) <= 10.0);
  CHECK(sizeof(serve::Histogram) < 16384);
}

TEST_CASE("serve: every bad flag names itself, its value and what is allowed") {
  struct Bad {
    const char* flag;
    const char* value;
  };
  for (const Bad& b : {Bad{"--concurrency", "0"}, Bad{"--concurrency", "1.5"}, Bad{"--rate", "-1"}, Bad{"--rate", "nan"},
                       Bad{"--requests", "0"}, Bad{"--input", "x"}, Bad{"--lengths", "zipf"}, Bad{"--range-ratio", "1"},
                       Bad{"--len-sigma", "4"}, Bad{"--budget", "0"}, Bad{"--prefill", "later"}, Bad{"--instances", "65"},
                       Bad{"--steps", "-1"}, Bad{"--steps-from", "-1"}, Bad{"--steps-from", "100000001"}, Bad{"--nope", "1"}}) {
    serve::ServeSpec spec;
    model::Error e;
    INFO(b.flag << " " << b.value);
    CHECK_FALSE(serve::set_serve_flag(b.flag, b.value, spec, e));
    CHECK(!e.field.empty());
    CHECK(!e.allowed.empty());
    CHECK(e.message().find(std::string(b.flag) == "--nope" ? b.flag : b.value) != std::string::npos);
  }
  serve::ServeResult r;
  model::Errors errors;
  CHECK_FALSE(serve::run_serve(preset(), serve::ServeSpec{}, r, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "--concurrency");
}

TEST_CASE("serve: a replay run in slices gives run_serve's result, and its progress only grows") {
  serve::ServeSpec spec;
  spec.concurrency = 16;
  spec.requests = 120;
  spec.input = 1024;
  spec.output = 48;
  spec.lengths = serve::Lengths::Sharegpt;
  serve::ServeResult whole;
  model::Errors errors;
  REQUIRE(serve::run_serve(preset(), spec, whole, errors));
  serve::ServeRun run;
  CHECK_FALSE(run.started());
  CHECK(run.advance(10));  // nothing to run is done at once
  REQUIRE(run.start(preset(), spec, errors));
  CHECK(run.requests() == 120);
  double last = run.progress();
  int slices = 0;
  while (!run.advance(3)) {
    CHECK(run.progress() >= last);
    last = run.progress();
    ++slices;
  }
  CHECK(slices > 10);
  CHECK(run.progress() == 1.0);
  CHECK(serve::serve_json(run.result()) == serve::serve_json(whole));
  CHECK(run.result().percentiles.size() == serve::kPercentileSteps + 1);
  // The latency chart: a line per metric, rising with the percentile, its ends the summary's extremes.
  model::Chart c;
  serve::latency_chart(run.result(), c);
  REQUIRE(c.lines.size() == 4);
  for (const model::ChartLine& l : c.lines) {
    INFO(l.id);
    REQUIRE(l.y.size() == c.xs.size());
    for (std::size_t i = 1; i < l.y.size(); ++i) CHECK(l.y[i] >= l.y[i - 1]);
  }
  CHECK(c.lines[0].y.back() == Approx(whole.ttft.max).epsilon(1e-9));
  CHECK(c.description.find("120 requests") != std::string::npos);
  // A run that cannot start leaves nothing running.
  serve::ServeSpec none;
  errors.clear();
  CHECK_FALSE(run.start(preset(), none, errors));
  CHECK_FALSE(run.started());
}

TEST_CASE("serve: TTFT's parts add up to TTFT — a burst waits in the front end, then for the step in flight and in the queue") {
  const model::Scenario s = preset();
  // Fixed lengths: every client sends at once, so the front end hands the burst over one request at a time
  // and the later ones meet a step in flight; spread lengths keep requests arriving mid-step.
  for (const bool fixed : {true, false}) {
    serve::ServeSpec spec = closed(64, 256);
    if (!fixed) {
      spec.lengths = serve::Lengths::Random;
      spec.range_ratio = 0.5;
    }
    const serve::ServeResult r = replay(s, spec);
    const serve::ServeResult::TtftParts& p = r.ttft_parts;
    INFO((fixed ? "fixed" : "random") << " lengths");
    CHECK(p.overhead.n == r.ttft.n);
    CHECK(p.overhead.mean + p.wait.mean + p.queue.mean + p.prefill.mean == Approx(r.ttft.mean).epsilon(1e-9));
    const serve::SchedulerDefaults& d = serve::scheduler_defaults(s.engine.kind);
    CHECK(p.overhead.mean >= d.request_s);
    CHECK(p.wait.mean > 0);
    CHECK(p.prefill.mean > 0);
    if (fixed) CHECK(p.overhead.max > 32 * d.request_s);  // the burst's last request waited for the others'
  }
  // Its JSON carries the parts for the page's table, and each kept step the first tokens it yields, each
  // TTFT in its parts, as the step's text says them.
  serve::ServeSpec spec = closed(8, 32);
  spec.steps = 4;
  const serve::ServeResult r = replay(s, spec);
  const std::string j = serve::serve_json(r);
  CHECK(j.find("\"ttft_parts\"") != std::string::npos);
  CHECK(j.find("\"overhead\"") != std::string::npos);
  REQUIRE(!r.trace.empty());
  REQUIRE(!r.trace.front().first_tokens.empty());
  const serve::StepRecord::FirstToken& f = r.trace.front().first_tokens.front();
  CHECK(f.overhead + f.wait + f.queue + f.prefill == Approx(f.ttft).epsilon(1e-12));
  CHECK(serve::step_text(r.trace.front()).find("first token of #" + std::to_string(f.id) + ": TTFT") != std::string::npos);
}

TEST_CASE("serve: each engine's scheduler sources quote the budget and the front end's costs in force") {
  for (int e = 0; e < static_cast<int>(model::EngineKind::Count); ++e) {
    const serve::SchedulerDefaults& d = serve::scheduler_defaults(static_cast<model::EngineKind>(e));
    INFO(d.source << " | " << d.request_source);
    CHECK(tierscope::testing::quotes_value(d.source, d.budget));
    CHECK(tierscope::testing::contains(tierscope::testing::quoted_with(d.request_source, "ms per request"), d.request_s * 1e3, 1e-9));
    CHECK(tierscope::testing::contains(tierscope::testing::quoted_with(d.request_source, "µs per prompt token"), d.request_token_s * 1e6, 1e-9));
  }
}

TEST_CASE("serve: a step that mixes prompt chunks into decodes runs outside CUDA graphs, so it lasts at least its kernels' dispatch") {
  // TensorRT-LLM dispatches each kernel of a prompt or mixed step from the host (model/engine.cpp,
  // prefill_host_us): a step with a short chunk beside a few decodes is bound by that dispatch, not its GPU work.
  model::Scenario s = preset("llama31-8b-1xh100");
  model::Errors errors;
  REQUIRE(model::apply_settings(s, "engine=trtllm", errors));
  serve::ServeSpec spec = closed(4, 16, 64, 64);
  spec.steps = 400;
  const serve::ServeResult r = replay(s, spec);
  model::StepTimer timer(s);
  const double host = timer.chunk(64, 0).host;
  CHECK(host > 0);
  bool mixed = false;
  for (const serve::StepRecord& st : r.trace) {
    if (st.decodes.empty() || st.prefills.empty()) continue;
    mixed = true;
    INFO("step " << st.index);
    CHECK(st.seconds >= host * (1 - 1e-12));
  }
  CHECK(mixed);
  // vLLM replays mixed batches from piecewise CUDA graphs: its dispatch floor is the eager launch alone.
  model::Scenario v = preset("llama31-8b-1xh100");
  REQUIRE(model::apply_settings(v, "engine=vllm", errors));
  model::StepTimer vt(v);
  CHECK(vt.chunk(64, 0).host < 0.5 * host);
}

TEST_CASE("serve: under data-parallel attention each prompt runs on its own rank — a step lasts as long as the prompts on its busiest rank") {
  // DeepSeek-R1 with attention in 2 data-parallel replicas of TP 4 and the experts over all 8 GPUs: a prompt is
  // computed by the rank its request runs on, so two prompts on one rank take that rank twice as long while
  // the other rank waits for it at every MoE layer.
  model::Scenario s = preset("deepseek-r1-8xb200");
  model::Errors errors;
  REQUIRE(model::apply_settings(s, "tp=4&dp=2&ep=8&engine=vllm&prompt=256&output=64&ctx=288&batch=1", errors));
  serve::ServeSpec spec = closed(32, 96, 256, 64);
  spec.steps = 600;
  spec.lengths = serve::Lengths::Fixed;
  const serve::ServeResult r = replay(s, spec);
  model::StepTimer timer(s);
  const double one = timer.chunk(256, 0).rank;
  REQUIRE(one > 0);
  bool shared = false;
  for (const serve::StepRecord& st : r.trace) {
    if (st.decodes.empty() || st.prefills.empty()) continue;
    int on_rank[2] = {};
    int busiest = 0;
    for (std::size_t k = 0; k < st.prefills.size(); ++k) {
      REQUIRE(st.chunk_tokens[k] == 256);  // whole prompts: the budget holds them
      busiest = std::max(busiest, ++on_rank[st.prefills[k] % 2]);
    }
    shared = shared || busiest > 1;
    INFO("step " << st.index << ": " << busiest << " prompts on one rank");
    CHECK(st.prefill_s >= busiest * one * (1 - 1e-9));
  }
  CHECK(shared);
}

// A hybrid model's recurrent state is per session, not per token: the instance's KV capacity counts the
// attention layers' KV per token, and each request reserves the state whole beside its prompt + output, so a
// long-context instance holds fewer short requests than its tokens alone would say.
TEST_CASE("serve: a hybrid model's requests each reserve the recurrent state beside their tokens' KV") {
  // On TensorRT-LLM, which reserves a request's whole KV when it admits it (the preset's vLLM admits on its prompt).
  model::Scenario s = preset("qwen35-397b-8xh200");
  model::Errors errors;
  REQUIRE(model::apply_settings(s, "engine=trtllm", errors));
  model::Computed c;
  model::compute_values(s, c);
  const model::Values& v = c.values;
  const double state = v[FigureId::KvRecurrentPerSession] * c.terms.lin_share;  // on one GPU
  const double per_token = v[FigureId::KvGlobalPerToken] * c.terms.kv_share;    // the attention layers' KV on one GPU
  REQUIRE(state > 0);
  REQUIRE(per_token > 0);
  const serve::ServeResult r = replay(s, closed(512, 1024, 1024, 2048));
  CHECK(r.kv_tokens == Approx(std::floor(v[FigureId::HbmKvBudget] / per_token) * c.terms.dp));
  const double reserve = 1024 + 2048 + std::ceil(state / per_token);
  CHECK(r.max_batch_seen == std::floor(r.kv_tokens / reserve));
  CHECK(r.admission.find("recurrent state") != std::string::npos);
  // A model without one reserves its tokens alone.
  CHECK(replay(preset(), closed(1, 1)).admission.find("recurrent state") == std::string::npos);
}

namespace {

// One wave of 8 clients whose prompts fit the instance's KV together but whose prompts + outputs do not
// (by half an output each): the engines' admission rules part there.
struct KvSqueeze {
  serve::ServeResult r;
  double kv_tokens = 0;
  int clients = 8, prompt = 0, output = 2048;
  bool recomputed = false;  // a request's prompt ran again after it had decoded (preempted or retracted)
};

KvSqueeze kv_squeeze(const char* engine, serve::PrefillMode prefill = serve::PrefillMode::Auto) {
  model::Scenario s = preset("llama31-8b-1xh100");
  model::Errors errors;
  REQUIRE(model::apply_settings(s, std::string("engine=") + engine, errors));
  KvSqueeze k;
  k.kv_tokens = replay(s, closed(1, 1, 1024, 16)).kv_tokens;
  REQUIRE(k.kv_tokens > 0);
  k.prompt = static_cast<int>(k.kv_tokens / k.clients) - k.output / 2;
  REQUIRE(k.clients * (static_cast<double>(k.prompt) + k.output) > k.kv_tokens);
  REQUIRE(k.clients * static_cast<double>(k.prompt) < k.kv_tokens);
  serve::ServeSpec spec = closed(k.clients, k.clients, k.prompt, k.output);
  spec.steps = 1000000;
  spec.prefill = prefill;
  k.r = replay(s, spec);
  std::set<std::uint32_t> decoded;
  for (const serve::StepRecord& st : k.r.trace) {
    for (const std::uint32_t id : st.prefills) k.recomputed = k.recomputed || decoded.count(id) > 0;
    decoded.insert(st.decodes.begin(), st.decodes.end());
    INFO("step " << st.index);
    CHECK(st.kv_written <= k.kv_tokens);
    CHECK(st.kv_reserved <= k.kv_tokens);
  }
  CHECK(k.r.completed == static_cast<std::uint64_t>(k.clients));
  return k;
}

}  // namespace

TEST_CASE("serve: TensorRT-LLM reserves a request's prompt + output when it admits it, so the last client queues and none is preempted") {
  const KvSqueeze k = kv_squeeze("trtllm");
  CHECK(k.r.max_batch_seen <= std::floor(k.kv_tokens / (k.prompt + k.output)));
  CHECK(k.r.ttft_parts.queue.max > 0);
  CHECK_FALSE(k.recomputed);
}

TEST_CASE("serve: vLLM admits a request when its prompt fits and preempts the newest when the KV runs out — it is recomputed later") {
  const KvSqueeze k = kv_squeeze("vllm");
  CHECK(k.r.ttft_parts.queue.max == 0);
  CHECK(k.r.max_batch_seen == k.clients);
  CHECK(k.recomputed);
  // The preempted request's stall lands in its ITL and TPOT: the longest gap is many steps long.
  CHECK(k.r.itl.max > 20 * k.r.itl.median);
}

TEST_CASE("serve: vLLM admits nothing in a step that preempted — so prompt-only steps under KV pressure still finish every request") {
  // Were the preempted request admitted again at once, its recompute would take every prompt-only step and
  // the decodes that free the KV would never run.
  const KvSqueeze k = kv_squeeze("vllm", serve::PrefillMode::First);
  CHECK(k.recomputed);
  CHECK(k.r.prefill == "first");
}

TEST_CASE("serve: SGLang admits against the running requests' outputs times a decaying ratio and retracts when a decode does not fit") {
  const KvSqueeze k = kv_squeeze("sglang");
  const KvSqueeze reserve = kv_squeeze("trtllm");
  // The last client waits, but less than for a reservation's release: the ratio lets it in before the others end.
  CHECK(k.r.ttft_parts.queue.max > 0);
  CHECK(k.r.ttft_parts.queue.max < 0.5 * reserve.r.ttft_parts.queue.max);
  CHECK(k.r.max_batch_seen == k.clients);
  CHECK(k.recomputed);
  CHECK(serve::scheduler_defaults(model::EngineKind::Sglang).admission == serve::Admission::Estimated);
  CHECK(k.r.admission.find("ratio") != std::string::npos);
  CHECK(reserve.r.admission.find("reserves") != std::string::npos);
}

TEST_CASE("serve: a replay that keeps every step gives the same figures as one that keeps none — stretches of plain decode steps run in bulk only when nothing else can change") {
  for (const char* engine : {"trtllm", "vllm", "sglang"}) {
    model::Scenario s = preset("llama31-8b-1xh100");
    model::Errors errors;
    REQUIRE(model::apply_settings(s, std::string("engine=") + engine, errors));
    const double kv = replay(s, closed(1, 1, 1024, 16)).kv_tokens;
    // Plain waves, and a KV squeeze (admission and preemption events in the middle of the decodes).
    for (const int prompt : {1024, static_cast<int>(kv / 8) - 1024}) {
      serve::ServeSpec bulk = closed(8, 24, prompt, 2048), each = bulk;
      each.steps = 1000000;
      const serve::ServeResult a = replay(s, bulk), b = replay(s, each);
      INFO(engine << " prompt " << prompt);
      CHECK(a.steps == b.steps);
      CHECK(a.duration == b.duration);
      CHECK(a.ttft.mean == b.ttft.mean);
      CHECK(a.tpot.mean == b.tpot.mean);
      CHECK(a.itl.mean == b.itl.mean);
      CHECK(a.itl.p99 == b.itl.p99);
      CHECK(a.mean_in_flight == b.mean_in_flight);
    }
  }
}
