// The replay's set-up (engine rules, capacities, the prefill pool and the prefix cache for the run), its
// requests' lengths and accepted drafts, the result it ends with, and the spec checked against the scenario.
#include <algorithm>
#include <cmath>
#include <string>

#include "base/text.h"
#include "serve/replay.h"

namespace tierscope::serve::replay {

namespace {

// A disaggregated request is two requests to two workers, each through its own engine's front end
// (https://github.com/ai-dynamo/dynamo, components/src/dynamo/trtllm/request_handlers/handlers.py: the prefill
// worker returns its disaggregated params, the frontend then routes the request to a decode worker; the
// same flow in llm-d, https://github.com/inference-sim/inference-sim/issues/930). TensorRT-LLM's and
// vLLM's decode request leaves only once the prefill's response is back, so its front end (the per-request
// part: the request carries its token ids, tokenised once) is on the first token's path; SGLang's is sent
// with the prefill request (Dynamo's lib/llm/src/kv_router/prefill_router/bootstrap.rs spawns the prefill
// beside the decode stream; SGLang's bootstrap room pre-allocates the decode side while the prompt runs:
// python/sglang/srt/disaggregation/decode.py), so the prefill pass covers it.
double decode_intake_seconds(model::EngineKind e, double request_s) {
  return e == model::EngineKind::Trtllm || e == model::EngineKind::Vllm ? request_s : 0.0;
}

// The chance p of each draft being accepted that gives a mean of `mean` tokens per step with `d` drafts:
// E = (1 − p^(d+1)) / (1 − p), increasing in p, solved by bisection.
double per_draft_chance(double mean, int d) {
  if (d <= 0 || mean <= 1) return 0;
  if (mean >= d + 1) return 1;
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double p = 0.5 * (lo + hi);
    double e = 0, pk = 1;
    for (int k = 0; k <= d; ++k, pk *= p) e += pk;
    (e < mean ? lo : hi) = p;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

bool Replay::setup(model::Errors& errors) {
  const model::Computed& base = timer_.base();
  const model::Terms& t = base.terms;
  if (!t.fits()) {
    errors.push_back(make_error(model::ErrorCode::Infeasible, "scenario", model::infeasible_summary(t), "a setup whose weights fit and whose context the model holds"));
    return false;
  }
  const SchedulerDefaults& d = scheduler_defaults(s_.engine.kind);
  const PrefillMode mode = spec_.prefill == PrefillMode::Auto ? d.prefill : spec_.prefill;
  r_.engine = model::engine_label(s_.engine.kind);
  r_.prefill = prefill_mode_name(mode);
  overhead_s_ = d.request_s;
  overhead_token_s_ = d.request_token_s;
  first_ = mode == PrefillMode::First;
  none_ = mode == PrefillMode::None;
  pd_ = mode == PrefillMode::Pd;
  if (pd_) {
    // The prefill workers are attention replicas of their own layout (or of the instance's); both pools' GPUs
    // decide whether the KV crosses NVLink (one domain) or the NICs.
    int prefill_tp = 0;
    const model::Terms* pt = &t;
    if (prefill_scenario_) {
      prefill_timer_ = std::make_unique<model::StepTimer>(*prefill_scenario_);
      if (!prefill_timer_->base().terms.fits()) {
        errors.push_back(make_error(model::ErrorCode::Infeasible, "prefill", model::infeasible_summary(prefill_timer_->base().terms),
                                    "a prefill layout whose weights fit and whose context the model holds"));
        return false;
      }
      pt = &prefill_timer_->base().terms;
      prefill_tp = prefill_scenario_->par.tp;
    }
    prefill_replica_gpus_ = std::max(1.0, pt->gpus / std::max(1.0, pt->dp));
    const int replica = static_cast<int>(prefill_replica_gpus_);
    const int pool_gpus = spec_.prefill_workers > 0 ? spec_.prefill_workers * replica + spec_.instances * static_cast<int>(t.gpus) : 0;
    handoff_ = model::HandoffModel(s_, prefill_tp, pool_gpus);
    pool_ = PrefillPool(spec_.prefill_workers);
    first_from_decode_ = handoff_.first_from_decode();
    intake_s_ = decode_intake_seconds(s_.engine.kind, d.request_s);
    r_.prefill_workers = spec_.prefill_workers;
    r_.handoff = std::string(handoff_.engine_name()) + " over " + (handoff_.nvlink() ? "NVLink" : "the NICs");
  }
  r_.slo_ttft = spec_.slo_ttft;
  r_.slo_itl = spec_.slo_itl;
  // Under data-parallel attention each replica schedules its own steps: the budget is per replica.
  r_.budget = (spec_.budget > 0 ? spec_.budget : default_budget(s_.engine.kind, s_.hw)) * static_cast<int>(std::max(1.0, t.dp));
  ranks_ = static_cast<int>(std::max(1.0, t.dp));
  r_.max_batch = static_cast<int>(std::max(1.0, t.batch_cap));
  r_.instances = spec_.instances;
  r_.gpus_per_instance = static_cast<int>(t.gpus);
  r_.concurrency = spec_.concurrency;
  r_.rate = spec_.concurrency > 0 ? 0 : spec_.rate;
  r_.mode = spec_.concurrency > 0 ? "closed loop" : "open loop (Poisson)";
  r_.lengths = lengths_name(spec_.lengths);
  r_.seed = spec_.seed;
  r_.steps_from = spec_.steps_from;
  // KV capacity of one instance in tokens: each replica's KV budget over a session's KV per GPU at the
  // scenario's context, times that context, over the replicas. A session's own state (recurrent state at its
  // share, chunks at the KV's) is not per token: it comes off first and each request reserves it whole.
  const model::Values& v = base.values;
  const double own = v[model::FigureId::KvRecurrentPerSession] * t.lin_share + v[model::FigureId::KvChunkPerSession] * t.kv_share;
  const double per_token = s_.work.ctx > 0 ? (v[model::FigureId::HbmKvSessionPerGpu] - own) / s_.work.ctx : 0.0;
  r_.kv_tokens = per_token > 0 ? std::floor(std::max(0.0, v[model::FigureId::HbmKvBudget]) / per_token) * t.dp : 0.0;
  admission_ = d.admission;
  ratio_ = d.ratio;
  state_tokens_ = per_token > 0 && own > 0 ? std::ceil(own / per_token) : 0.0;
  r_.admission = d.admission_text;
  if (state_tokens_ > 0) {
    r_.admission += std::string("; each request also holds its session's own ") +
                    (v[model::FigureId::KvRecurrentPerSession] > 0 ? "recurrent state" : "chunks") + " from admission on (" +
                    model::human(own, "B") + " per GPU whatever its length, as much HBM as " + model::num(state_tokens_) + " tokens of KV)";
  }
  drafts_ = std::max(0, s_.work.spec_tokens);
  q_ = 1 + drafts_;
  r_.accept_len = t.accepted;
  p_accept_ = per_draft_chance(t.accepted, drafts_);
  input_ = spec_.input > 0 ? spec_.input : std::max(1, s_.work.prompt);
  output_ = spec_.output > 0 ? spec_.output : std::max(1, s_.work.output);
  max_pos_ = s_.model.max_pos;
  if (spec_.lengths == Lengths::Trace && spec_.trace_input.empty()) {
    errors.push_back(make_error(model::ErrorCode::MissingField, "--lengths", "trace", "a trace file (--trace FILE) with at least one request"));
    return false;
  }
  total_ = spec_.requests > 0 ? static_cast<std::uint64_t>(spec_.requests)
           : spec_.concurrency > 0 ? std::max<std::uint64_t>(100, 10ull * static_cast<std::uint64_t>(spec_.concurrency))
                                   : 1000;
  inst_.assign(static_cast<std::size_t>(spec_.instances), Instance{});
  for (Instance& in : inst_) in.ratio = ratio_.init;
  prefix_.setup(s_, spec_, timer_, spec_.instances, !(pd_ || none_));
  arrivals_ = sim::Rng::of(spec_.seed, 0xA11u);
  accept_ = sim::Rng::of(spec_.seed, 0xACCu);
  return true;
}

void Replay::draw_lengths(std::uint32_t id, int& prompt, int& output) {
  sim::Rng g = sim::Rng::of(spec_.seed, 0x100000000ull + id);
  // Both bounds rounded down, as the engines' random datasets draw them (an integer in [⌊L(1−r)⌋, ⌊L(1+r)⌋]):
  // a ceiling above would draw a one-token output as 1 or 2, half the requests then waiting on a decode.
  const auto uniform_len = [&](int mean) {
    const int lo = std::max(1, static_cast<int>(std::floor(mean * (1 - spec_.range_ratio))));
    const int hi = std::max(lo, static_cast<int>(std::floor(mean * (1 + spec_.range_ratio))));
    return lo + static_cast<int>(g.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  const auto lognormal_len = [&](int mean) {
    return static_cast<int>(std::clamp(std::round(g.lognormal(mean, spec_.len_sigma)), 1.0, 16.0 * mean));
  };
  switch (spec_.lengths) {
    case Lengths::Random:
      prompt = uniform_len(input_);
      output = uniform_len(output_);
      return;
    case Lengths::Sharegpt:
      prompt = lognormal_len(input_);
      output = lognormal_len(output_);
      return;
    case Lengths::Trace: {
      const std::size_t k = id % spec_.trace_input.size();
      prompt = static_cast<int>(std::max(1u, spec_.trace_input[k]));
      output = static_cast<int>(std::max(1u, spec_.trace_output[k]));
      return;
    }
    case Lengths::Fixed:
    case Lengths::Count: break;
  }
  prompt = input_;
  output = output_;
}

void Replay::finish() {
  r_.requests = issued_;
  r_.evaluations = timer_.evaluations();
  const double d = r_.duration;
  // Disaggregated: the prefill pool that kept up with the prompts completed counts in the per-GPU figures.
  r_.prefill_gpus = !pd_ ? 0.0 : pool_.fixed() ? pool_.workers() * prefill_replica_gpus_ : d > 0 ? prefill_gpu_s_ / d : 0.0;
  if (spec_.slo_ttft > 0 || spec_.slo_itl > 0) r_.slo_attainment = r_.completed ? static_cast<double>(slo_met_) / static_cast<double>(r_.completed) : 0.0;
  const double gpus = static_cast<double>(r_.instances) * r_.gpus_per_instance + r_.prefill_gpus;
  r_.request_rate = d > 0 ? static_cast<double>(r_.completed) / d : 0.0;
  r_.output_tps = d > 0 ? r_.output_tokens / d : 0.0;
  r_.output_tps_gpu = r_.output_tps / gpus;
  r_.total_tps = d > 0 ? (r_.input_tokens + r_.output_tokens) / d : 0.0;
  r_.mean_in_flight = d > 0 ? area_ / t_ : 0.0;
  r_.ttft = ttft_.summary();
  r_.tpot = tpot_.summary();
  r_.itl = itl_.summary();
  r_.e2e = e2e_.summary();
  r_.queue = queue_.summary();
  r_.ttft_parts = ServeResult::TtftParts{part_overhead_.summary(), part_wait_.summary(),     part_queue_.summary(),
                                         part_prefill_.summary(),  part_transfer_.summary(), part_admission_.summary()};
  r_.tps_user = r_.tpot.mean > 0 ? 1.0 / r_.tpot.mean : 0.0;
  r_.prefix = prefix_.report();
  r_.percentiles.clear();
  for (int i = 0; i <= kPercentileSteps; ++i) r_.percentiles.push_back(100.0 * i / kPercentileSteps);
  for (std::size_t m = 0; m < r_.by_percentile.size(); ++m) {
    const Histogram& h = m == 0 ? ttft_ : m == 1 ? tpot_ : m == 2 ? itl_ : e2e_;
    std::vector<double>& out = r_.by_percentile[m];
    out.clear();
    if (h.count() == 0) continue;
    for (const double q : r_.percentiles) out.push_back(h.quantile(q / 100.0));
  }
}

// The step model at the run's own lengths: batch 1 (the replay sets each step's), the mean context of a
// request's decode.
void at_run_lengths(const model::Scenario& s, const ServeSpec& spec, model::Scenario& base) {
  base = s;
  base.work.batch = 1;
  const int in = spec.input > 0 ? spec.input : std::max(1, s.work.prompt);
  const int on = spec.output > 0 ? spec.output : std::max(1, s.work.output);
  base.work.prompt = in;
  base.work.output = on;
  base.work.prefix_hit = 0;
  // Clamped to the model's positions: a longer request is refused on its own, not the whole run.
  base.work.ctx = std::max(1, in + spec.prefix_len + on / 2);  // (a shared prefix comes before the prompt's own tokens)
  if (s.model.max_pos > 0) base.work.ctx = std::min(base.work.ctx, s.model.max_pos);
}

// False with errors when the spec cannot run at all.
bool check_spec(const model::Scenario& s, const ServeSpec& spec, model::Scenario& base, model::Errors& errors) {
  if (spec.concurrency <= 0 && !(spec.rate > 0)) {
    errors.push_back(make_error(model::ErrorCode::MissingField, "--concurrency", "none", "a concurrency (--concurrency N) or a request rate (--rate R)"));
    return false;
  }
  if (spec.concurrency > 0 && spec.rate > 0) {
    errors.push_back(make_error(model::ErrorCode::Inconsistent, "--rate", model::num(spec.rate), "either --concurrency or --rate, not both"));
    return false;
  }
  if (spec.lengths == Lengths::Trace && spec.trace_input.size() != spec.trace_output.size()) {
    errors.push_back(make_error(model::ErrorCode::Inconsistent, "--trace", "lengths", "as many output lengths as input lengths"));
    return false;
  }
  at_run_lengths(s, spec, base);
  return true;
}

}  // namespace tierscope::serve::replay
