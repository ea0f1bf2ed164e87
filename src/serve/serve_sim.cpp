// The replay's event loop: arrivals (closed-loop clients or Poisson), admission against the running-batch
// cap and the instance's KV capacity, one scheduled step at a time per instance, each timed by the step
// model for its mix, and the streaming statistics of every request that completes.
//
// Sections: requests and instances · the Replay: setup, lengths and drafts, arrivals and routing, a step's
// start, its requests' completion and its end, the event loop, the result · the spec checked against the
// scenario · ServeRun (a replay in slices) and run_serve.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "base/text.h"
#include "model/engine.h"
#include "roofline/handoff.h"
#include "roofline/step_mix.h"
#include "serve/prefill_pool.h"
#include "serve/serve.h"
#include "serve/serve_prefix.h"
#include "sim/rng.h"

namespace tierscope::serve {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Request {
  std::uint32_t id = 0;
  double arrival = 0, first = -1, last = 0;
  int prompt = 0, output = 0, prefilled = 0, generated = 0;
  int chunk = 0;  // tokens of its prompt in the step running now
  // TTFT's parts: when the scheduler saw it, when the step in flight then ended, when it was admitted.
  double ready = 0, inflight_end = 0, admitted = 0;
  // KV the instance holds for it, in tokens (its reservation under Reserve), and, after a preemption, its
  // tokens out that must be recomputed with its prompt before it decodes again.
  double held = 0;
  int recompute = 0;
  bool requeued = false;  // preempted once: its admission queue was counted at its first admission
  PrefillPass pd;   // disaggregated: its prefill pass and the KV's hand-off to the decode pool
  double intake = 0;  // disaggregated: the decode worker's own front end for its decode request
  PrefixPart pfx;   // a shared-prefix workload: its shared parts, its hit and its reload
  double ttft = 0;  // its TTFT, held against the objective when it completes
};

// The tokens a request's prompt pass covers: its prompt, and after a preemption its tokens out as well.
int fill_of(const Request& q) { return q.prompt + q.recompute; }

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

struct Instance {
  std::deque<std::uint32_t> waiting;   // slots, first come first served
  std::vector<std::uint32_t> running;  // admitted, in admission order
  double kv_used = 0;
  double ratio = 0;  // Estimated admission: the share of their remaining outputs the running requests will write
  bool busy = false;
  double end = kInf;
  std::vector<std::uint32_t> dec, pre;  // the step in flight
  std::int64_t record = -1;             // its record in the kept steps, or -1
};

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

class Replay {
 public:
  Replay(const model::Scenario& s, const ServeSpec& spec, ServeResult& r, const model::Scenario* prefill = nullptr)
      : s_(s), spec_(spec), r_(r), timer_(s), prefill_scenario_(prefill) {}
  bool setup(model::Errors& errors);
  void begin();
  // Runs up to `events` events (a step's end or an arrival); true once nothing is left (the result is final).
  bool advance(std::uint64_t events);
  double progress() const;
  std::uint64_t total() const { return total_; }

 private:
  void issue(double t);
  void route(std::uint32_t slot, double t);
  void add_ttft(Request& q, double t, StepRecord* step = nullptr);
  void first_from_pool(Request& q, double t, StepRecord* step);
  double front_end(double t, int prompt);
  void start_step(int i, double t);
  void admit(Instance& in, double t);
  bool make_room(Instance& in);
  void preempt(Instance& in, std::size_t k);
  void finish_step(int i, double t);
  std::uint64_t coast(Instance& in, std::uint64_t most);
  void complete(Instance& in, Request& q, double t);
  int draw_accepted();
  void draw_lengths(std::uint32_t id, int& prompt, int& output);
  void finish();

  const model::Scenario& s_;
  const ServeSpec& spec_;
  ServeResult& r_;
  model::StepTimer timer_;
  const model::Scenario* prefill_scenario_;          // pd: the prefill workers' layout (null: the instance's)
  std::unique_ptr<model::StepTimer> prefill_timer_;  // its step model
  double pass_seconds(int prompt) { return (prefill_timer_ ? *prefill_timer_ : timer_).chunk(prompt, 0).alone; }
  double prefill_replica_gpus_ = 1;                  // GPUs of one prefill worker
  std::vector<Request> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<Instance> inst_;
  sim::Rng arrivals_, accept_;
  double p_accept_ = 0;
  bool first_ = false;  // prefill-first steps
  bool none_ = false;   // prompts arrive cached (a decode pool)
  bool pd_ = false;     // prompts run in a prefill pool of their own, then join the decode pool
  Admission admission_ = Admission::Reserve;
  TokenRatio ratio_;
  PrefillPool pool_;
  model::HandoffModel handoff_;
  bool first_from_decode_ = false;  // pd: the decode instance's first step yields the first token
  double intake_s_ = 0;             // pd: the decode worker's front end on the first token's path
  // Prompts in the prefill pool: (when the first token is out, slot), the earliest first.
  std::priority_queue<std::pair<double, std::uint32_t>, std::vector<std::pair<double, std::uint32_t>>, std::greater<>> handoffs_;
  double prefill_gpu_s_ = 0;  // the prefill pool's GPU-seconds for the requests completed
  double overhead_s_ = 0, overhead_token_s_ = 0, front_free_ = 0;  // the engine's front end per request
  int drafts_ = 0, q_ = 1, input_ = 0, output_ = 0, max_pos_ = 0;
  // A session's own state whatever its length (a hybrid model's recurrent state, a chunked model's chunks),
  // in tokens of KV at the per-GPU rate: each request reserves it beside its prompt + output.
  double state_tokens_ = 0;
  double reserve(const Request& q) const { return static_cast<double>(q.prompt) + q.output + state_tokens_; }
  std::uint64_t total_ = 0, issued_ = 0;
  double next_arrival_ = kInf, in_flight_ = 0, area_ = 0, t_ = 0;
  Histogram ttft_, tpot_, itl_, e2e_, queue_;
  Histogram part_overhead_, part_wait_, part_queue_, part_prefill_, part_transfer_, part_admission_;
  std::uint64_t slo_met_ = 0;
  ServePrefix prefix_;  // the shared-prefix workload and the prefix cache (serve_prefix.h)
  int index_of(const Instance& in) const { return static_cast<int>(&in - inst_.data()); }
  // Data-parallel attention: each request runs on one attention replica (rank), taken in turn as the requests
  // reach the engine; each rank fills its own token budget, and a step lasts as long as its busiest rank, as
  // every rank's forward pass is aligned with the others' at the experts (vLLM: each DP rank its own engine core
  // and scheduler, https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/; SGLang's data-parallel
  // controller hands each request to one rank, load_balance_method "round_robin" by default in its
  // python/sglang/srt/server_args.py; TensorRT-LLM's attention-DP ranks each hold their own requests and KV cache).
  int ranks_ = 1;
  std::vector<double> rank_left_, rank_busy_;  // a step's budget left and prompt compute, per rank (scratch)
  std::size_t rank_of(const Request& q) const { return q.id % static_cast<std::uint32_t>(ranks_); }
};

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

int Replay::draw_accepted() {
  int k = 1;
  for (int i = 0; i < drafts_ && accept_.uniform() < p_accept_; ++i) ++k;
  return k;
}

// A new request at t, routed to the instance with the fewest outstanding; refused when it can never fit.
void Replay::issue(double t) {
  const auto id = static_cast<std::uint32_t>(issued_++);
  Request q;
  q.id = id;
  q.arrival = t;
  draw_lengths(id, q.prompt, q.output);
  prefix_.shape(id, q.pfx, q.prompt);
  const double need = reserve(q);
  const char* why = nullptr;
  if (max_pos_ > 0 && q.prompt + q.output > max_pos_) why = "its prompt + output exceed the model's trained positions";
  else if (need > r_.kv_tokens) why = "its prompt + output KV exceeds what one instance's HBM holds beside the weights";
  if (why) {
    if (r_.refused++ == 0) {
      r_.refused_why = "request " + std::to_string(id) + " (" + std::to_string(q.prompt) + " + " + std::to_string(q.output) + " tokens): " + why +
                       " (" + model::num(r_.kv_tokens) + " tokens of KV, " + model::num(max_pos_) + " positions)";
    }
    if (spec_.concurrency > 0 && issued_ < total_) issue(t);  // the client sends its next request at once
    return;
  }
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    slots_[slot] = q;
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(q);
  }
  in_flight_ += 1;
  if (none_) {
    Request& r = slots_[slot];
    r.prefilled = r.prompt;
    r.first = r.last = t;
    r.generated = 1;
  }
  // The engine's front end (tokenise, schedule) before its scheduler sees the request.
  const double ready = none_ ? t : front_end(t, slots_[slot].prompt);
  if (pd_) {
    // One pass in the prefill pool (at once when it keeps up, else when a worker is free), then the KV's
    // hand-off: the request joins the decode pool when its KV is there, and its first token streams once the
    // decode admits it (or after the decode's first step, where the engine computes it there again).
    Request& r = slots_[slot];
    r.prefilled = r.prompt;
    const double pass = pass_seconds(r.prompt);
    const double chunks = std::ceil(static_cast<double>(r.prompt) / std::max(1, s_.work.chunk));
    r.pd = pool_.run(ready, pass, handoff_.cost(r.prompt, pass, chunks).exposed_s);
    r.ready = ready;
    r.intake = intake_s_;
    handoffs_.push({r.pd.handed + r.intake, slot});
    return;
  }
  if (ready > t) {
    handoffs_.push({ready, slot});  // joins the scheduler's queue when the front end is done with it
    return;
  }
  route(slot, t);
}

// When the front end hands a request sent at t to the scheduler: a fixed cost and one per prompt token,
// one request at a time (the engines tokenise in one process), so a burst of arrivals reaches the scheduler
// spread out.
double Replay::front_end(double t, int prompt) {
  const double cost = overhead_s_ + overhead_token_s_ * prompt;
  if (!(cost > 0)) return t;
  const double start = std::max(t, front_free_);
  front_free_ = start + cost;
  return start + cost;
}

// A first token out at t: TTFT and its parts.
void Replay::add_ttft(Request& q, double t, StepRecord* step) {
  q.ttft = t - q.arrival;
  StepRecord::FirstToken f;
  f.id = q.id;
  f.ttft = t - q.arrival;
  f.overhead = q.ready - q.arrival;
  f.wait = std::max(0.0, std::min(q.admitted, q.inflight_end) - q.ready);
  f.queue = std::max(0.0, q.admitted - q.ready - f.wait);
  f.prefill = t - q.admitted;
  ttft_.add(f.ttft);
  part_overhead_.add(f.overhead);
  part_wait_.add(f.wait);
  part_queue_.add(f.queue);
  part_prefill_.add(f.prefill);
  if (step) step->first_tokens.push_back(f);
}

// Disaggregated: the first token out at t in the decode pool, its TTFT in the pool's parts (front end, the
// prefill pool's queue, the pass, the hand-off after it, the decode pool's admission).
void Replay::first_from_pool(Request& q, double t, StepRecord* step) {
  q.first = q.last = t;
  q.ttft = t - q.arrival;
  StepRecord::FirstToken f;
  f.id = q.id;
  f.ttft = q.ttft;
  f.overhead = q.ready - q.arrival + q.intake;  // both workers' front ends
  f.queue = q.pd.start - q.ready;
  f.prefill = q.pd.end - q.pd.start;
  ttft_.add(f.ttft);
  part_overhead_.add(f.overhead);
  part_wait_.add(0.0);
  part_queue_.add(f.queue);
  part_prefill_.add(f.prefill);
  f.transfer = q.pd.handed - q.pd.end;
  f.admission = t - q.pd.handed - q.intake;
  part_transfer_.add(f.transfer);
  part_admission_.add(f.admission);
  if (step) step->first_tokens.push_back(f);
}

// Into the instance with the fewest outstanding requests, at t.
void Replay::route(std::uint32_t slot, double t) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < inst_.size(); ++i) {
    if (inst_[i].waiting.size() + inst_[i].running.size() < inst_[best].waiting.size() + inst_[best].running.size()) best = i;
  }
  Instance& in = inst_[best];
  Request& q = slots_[slot];
  if (!(none_ || pd_)) {
    q.ready = t;
    q.inflight_end = in.busy ? in.end : t;
  }
  in.waiting.push_back(slot);
}

// Frees a running request's KV and sends it back to wait: its prompt and tokens out are recomputed when it is
// admitted again (a first token already out stays out). vLLM puts it at the head of its queue, SGLang at the tail.
void Replay::preempt(Instance& in, std::size_t k) {
  const std::uint32_t slot = in.running[k];
  Request& q = slots_[slot];
  in.kv_used -= q.held;
  in.kv_used += prefix_.release(index_of(in), q.id, q.pfx, 0, false);
  q.held = 0;
  q.recompute = q.first >= 0 ? q.generated : 0;
  q.prefilled = 0;
  q.requeued = true;
  in.running.erase(in.running.begin() + static_cast<std::ptrdiff_t>(k));
  if (admission_ == Admission::OnDemand) in.waiting.push_front(slot);
  else in.waiting.push_back(slot);
}

// Before a step, room for its decodes' new tokens (OnDemand and Estimated, whose KV grows a token at a time).
// OnDemand preempts the newest running request until they fit. Estimated, when they do not fit, retracts the
// requests with the fewest tokens out (the longest prompt first among equals) until the others have
// retract_steps tokens of room each, and sets the ratio from those kept; else the ratio decays one step.
// True when OnDemand preempted.
bool Replay::make_room(Instance& in) {
  const auto decoding = [&](std::uint32_t slot) { return slots_[slot].prefilled >= fill_of(slots_[slot]); };
  double sessions = 0;
  for (std::uint32_t slot : in.running) sessions += decoding(slot) ? 1 : 0;
  if (in.kv_used + sessions * q_ <= r_.kv_tokens) {
    if (admission_ == Admission::Estimated && sessions > 0) in.ratio = std::max(ratio_.min, in.ratio - (ratio_.init - ratio_.min) / ratio_.decay_steps);
    return false;
  }
  if (admission_ == Admission::OnDemand) {
    while (!in.running.empty() && in.kv_used + sessions * q_ > r_.kv_tokens) {
      sessions -= decoding(in.running.back()) ? 1 : 0;
      preempt(in, in.running.size() - 1);
    }
    return true;
  }
  while (sessions > 1 && r_.kv_tokens - in.kv_used < sessions * ratio_.retract_steps) {
    std::size_t pick = in.running.size();
    for (std::size_t k = 0; k < in.running.size(); ++k) {
      const Request& q = slots_[in.running[k]];
      if (!decoding(in.running[k])) continue;
      const Request* best = pick < in.running.size() ? &slots_[in.running[pick]] : nullptr;
      // Among equals the newest: SGLang sorts by (tokens out, −prompt) descending and pops the last.
      if (!best || q.generated < best->generated || (q.generated == best->generated && q.prompt >= best->prompt)) pick = k;
    }
    if (pick >= in.running.size()) break;
    preempt(in, pick);
    sessions -= 1;
  }
  double out = 0, want = 0;
  for (std::uint32_t slot : in.running) {
    if (!decoding(slot)) continue;
    out += slots_[slot].generated + ratio_.retract_steps;
    want += slots_[slot].output;
  }
  in.ratio = std::min(1.0, out / (want + 1));
  return false;
}

// Admits waiting requests, first come first served, while the running-batch cap and the KV allow (Admission).
void Replay::admit(Instance& in, double t) {
  // Estimated: the KV the running requests are expected to write still, on top of what they hold.
  double expected = 0;
  if (admission_ == Admission::Estimated) {
    for (std::uint32_t slot : in.running) expected += std::min(slots_[slot].output - slots_[slot].generated, ratio_.clip) * in.ratio;
  }
  while (!in.waiting.empty() && static_cast<int>(in.running.size()) < r_.max_batch) {
    Request& q = slots_[in.waiting.front()];
    // What it holds from now (Reserve: its whole prompt + output; else its prompt's pass) and what it must find room for.
    // A session's own state (recurrent state, chunks) is allocated whole when it is admitted, whatever the rule.
    double hold = reserve(q), need = hold;
    if (admission_ != Admission::Reserve) hold = need = fill_of(q) + state_tokens_;
    if (admission_ == Admission::Estimated) need += std::min(q.output - q.generated, ratio_.clip);
    // A prefix hit is not held again: the cache keeps it once, pinned (what a pin takes from the free KV counts).
    const ServePrefix::Plan hit = prefix_.plan(index_of(in), q.id, q.pfx, q.prompt);
    hold -= hit.cached;
    need += hit.pin_tokens - hit.cached;
    if (in.kv_used + expected + need > r_.kv_tokens) break;
    in.kv_used += hold + prefix_.admit(index_of(in), q.id, q.pfx, q.prompt, fill_of(q), t, !q.requeued);
    if (q.pfx.cached > 0) q.prefilled = q.pfx.cached;
    expected += need - hold;
    q.held = hold;
    q.admitted = t;
    if (pd_ && !first_from_decode_) {  // the prefill pool's first token is out once the decode side admits it
      q.generated = 1;
      first_from_pool(q, t, nullptr);
    }
    in.running.push_back(in.waiting.front());
    in.waiting.pop_front();
    if (!q.requeued) queue_.add(t - q.arrival);
  }
}

// Admits what fits, then schedules one step: decodes first, then prompt chunks within the token budget
// (chunked), or a prompt-only step whenever a prompt waits (first).
void Replay::start_step(int i, double t) {
  Instance& in = inst_[static_cast<std::size_t>(i)];
  // vLLM admits no waiting request in a step that preempted one (its scheduler takes the waiting queue only
  // when the running requests all got their KV): the preempted request cannot take its room back at once.
  const bool preempted = admission_ != Admission::Reserve && make_room(in);
  if (!preempted) admit(in, t);
  prefix_.trim(i, r_.kv_tokens - in.kv_used);
  in.pre.clear();
  // One pass: the sessions past their prompt decode, their contexts summed (in integers: exact, as a sum of
  // doubles of whole numbers below 2^53 is), and whether any prompt waits.
  in.dec.resize(in.running.size());
  std::size_t decoding = 0;
  bool prompts = false;
  std::int64_t ctx_tokens = 0;
  for (std::uint32_t slot : in.running) {
    const Request& q = slots_[slot];
    const bool past = q.prefilled >= fill_of(q);
    prompts = prompts || (!past && !(q.pfx.load_end > t));  // a prompt waiting for its reload cannot run yet
    in.dec[decoding] = slot;
    decoding += past ? 1 : 0;
    ctx_tokens += past ? static_cast<std::int64_t>(q.prompt) + q.generated : 0;
  }
  double left = r_.budget, ctx = 0;
  if (first_ && prompts) {
    decoding = 0;  // a prompt-only step: the decodes wait
  } else {
    ctx = static_cast<double>(ctx_tokens);
    left -= static_cast<double>(decoding) * q_;
  }
  in.dec.resize(decoding);
  // Under data-parallel attention a prompt's chunk comes out of its own rank's budget, less that rank's decodes.
  const bool by_rank = ranks_ > 1 && prompts;
  if (by_rank) {
    rank_left_.assign(static_cast<std::size_t>(ranks_), static_cast<double>(r_.budget) / ranks_);
    for (std::uint32_t slot : in.dec) rank_left_[rank_of(slots_[slot])] -= q_;
  }
  for (std::uint32_t slot : in.running) {
    if (!prompts || left < 1) break;
    Request& q = slots_[slot];
    if (q.prefilled >= fill_of(q) || q.pfx.load_end > t) continue;
    double& room = by_rank ? rank_left_[rank_of(q)] : left;
    if (room < 1) continue;
    q.chunk = static_cast<int>(std::min<double>(fill_of(q) - q.prefilled, room));
    if (by_rank) room -= q.chunk;
    left -= q.chunk;
    in.pre.push_back(slot);
  }
  if (in.dec.empty() && in.pre.empty()) {  // nothing admitted yet: idle until an arrival (or a reload lands)
    double wake = kInf;
    for (std::uint32_t slot : in.running) wake = slots_[slot].pfx.load_end > t ? std::min(wake, slots_[slot].pfx.load_end) : wake;
    if (wake < kInf) {
      in.busy = true;
      in.end = wake;
      in.record = -1;
    }
    return;
  }
  double seconds = 0, decode_s = 0, prefill_s = 0;
  std::string bound;
  if (!in.dec.empty()) {
    ctx /= static_cast<double>(in.dec.size());
    const model::DecodeCost d = timer_.decode(static_cast<int>(in.dec.size()), ctx);
    decode_s = d.seconds;
    bound = d.bound;
  }
  // Chunks riding along spread over the attention replicas, but a step lasts as long as its slowest replica:
  // at least the compute of the chunks on the busiest replica (each chunk on its request's rank).
  double riding = 0, slowest = 0, host = 0;
  if (ranks_ > 1) rank_busy_.assign(static_cast<std::size_t>(ranks_), 0.0);
  for (std::size_t k = 0; k < in.pre.size(); ++k) {
    Request& q = slots_[in.pre[k]];
    const model::ChunkCost c = timer_.chunk(q.chunk, q.prefilled);
    prefill_s += q.pfx.load_extra;  // a reload inside the step holds every request in it
    q.pfx.load_extra = 0;
    host = std::max(host, c.host);
    // The first chunk of a prompt-only step streams the weights and pays the collectives' latencies; every
    // other chunk costs its compute and its share of the collectives' bytes.
    const bool alone = in.dec.empty() && k == 0;
    if (alone) {
      prefill_s += c.alone;
      bound = c.bound;
    } else {
      riding += c.compute;
      double& busy = ranks_ > 1 ? rank_busy_[rank_of(q)] : slowest;
      busy = ranks_ > 1 ? busy + c.rank : std::max(busy, c.rank);
      slowest = std::max(slowest, busy);
    }
  }
  prefill_s += std::max(riding, slowest);
  // A step that mixes prompt chunks into decodes runs outside CUDA graphs: at least its kernels' dispatch.
  if (!in.dec.empty() && !in.pre.empty()) prefill_s = std::max(prefill_s, host - decode_s);
  seconds = decode_s + prefill_s;
  in.busy = true;
  in.end = t + seconds;
  in.record = -1;
  const std::uint64_t index = r_.steps;
  r_.steps += 1;
  r_.max_batch_seen = std::max<double>(r_.max_batch_seen, static_cast<double>(in.dec.size()));
  if (index >= static_cast<std::uint64_t>(spec_.steps_from) && r_.trace.size() < static_cast<std::size_t>(spec_.steps)) {
    StepRecord rec;
    rec.index = index;
    rec.start = t;
    rec.seconds = seconds;
    rec.instance = i;
    for (std::uint32_t slot : in.dec) rec.decodes.push_back(slots_[slot].id);
    for (std::uint32_t slot : in.pre) {
      rec.prefills.push_back(slots_[slot].id);
      rec.chunk_tokens.push_back(static_cast<std::uint32_t>(slots_[slot].chunk));
    }
    rec.decode_s = decode_s;
    rec.prefill_s = prefill_s;
    rec.ctx = ctx;
    rec.bound = bound;
    std::int64_t written = 0;
    for (std::uint32_t slot : in.running) {
      const Request& q = slots_[slot];
      written += static_cast<std::int64_t>(q.prefilled) + (q.recompute > 0 ? 0 : q.generated);  // a recompute rewrites its tokens out
    }
    rec.kv_written = static_cast<double>(written);
    rec.kv_reserved = in.kv_used;
    r_.trace.push_back(std::move(rec));
    in.record = static_cast<std::int64_t>(r_.trace.size()) - 1;
  }
}

void Replay::complete(Instance& in, Request& q, double t) {
  const double e2e = t - q.arrival;
  e2e_.add(e2e);
  const double tpot = q.output > 1 ? (t - q.first) / (q.output - 1) : 0.0;
  if (q.output > 1) tpot_.add(tpot);
  if ((spec_.slo_ttft <= 0 || q.ttft <= spec_.slo_ttft) && (spec_.slo_itl <= 0 || tpot <= spec_.slo_itl)) ++slo_met_;
  r_.completed += 1;
  r_.input_tokens += q.prompt;
  // A prefill replica (gpus ÷ dp of them) runs one prompt per pass, as prefill.time times it.
  if (pd_) prefill_gpu_s_ += pass_seconds(q.prompt) * prefill_replica_gpus_;
  r_.output_tokens += q.output;
  r_.duration = t;
  in.kv_used -= q.held;
  in.kv_used += prefix_.release(index_of(in), q.id, q.pfx, q.prompt + q.output, true);
  prefix_.next_turn(q.pfx, q.prompt, q.output);
  in_flight_ -= 1;
}

// The step's tokens land: drafts accepted per session, prompt chunks cached, first tokens out.
void Replay::finish_step(int i, double t) {
  Instance& in = inst_[static_cast<std::size_t>(i)];
  in.busy = false;
  in.end = kInf;
  int done = 0;
  // Sessions that took their last token in the same step share one gap: count runs of equal gaps.
  double gap = -1;
  std::uint32_t run = 0;
  for (std::uint32_t slot : in.dec) {
    Request& q = slots_[slot];
    const int before = q.generated;
    q.generated = std::min(q.output, q.generated + draw_accepted());
    if (admission_ != Admission::Reserve) {
      q.held += q.generated - before;
      in.kv_used += q.generated - before;
    }
    if (q.first < 0) {  // disaggregated, the decode computing the first token again: no gap before it
      first_from_pool(q, t, in.record >= 0 ? &r_.trace[static_cast<std::size_t>(in.record)] : nullptr);
      if (q.generated >= q.output) ++done;
      continue;
    }
    const double g = t - q.last;
    if (g != gap) {
      itl_.add(gap, run);
      gap = g;
      run = 0;
    }
    ++run;
    q.last = t;
    if (q.generated >= q.output) ++done;
  }
  itl_.add(gap, run);
  for (std::uint32_t slot : in.pre) {
    Request& q = slots_[slot];
    q.prefilled += q.chunk;
    q.chunk = 0;
    if (q.prefilled < fill_of(q)) continue;
    double moved = 0;  // its prompt's full blocks join the prefix cache, leaving its own hold
    in.kv_used += prefix_.first_token(i, q.id, q.pfx, q.prompt, moved) - moved;
    q.held -= moved;
    if (q.recompute > 0) {
      // A preempted request's recompute is done: its next token comes out now, after the whole stall.
      q.prefilled = q.prompt;
      q.recompute = 0;
      itl_.add(t - q.last, 1);
      q.last = t;
      q.generated = std::min(q.output, q.generated + 1);
      if (q.generated >= q.output) ++done;
      continue;
    }
    q.first = q.last = t;  // the last chunk's pass yields the first token
    q.generated = 1;
    add_ttft(q, t, in.record >= 0 ? &r_.trace[static_cast<std::size_t>(in.record)] : nullptr);
    if (q.generated >= q.output) ++done;
  }
  if (done == 0) return;
  std::size_t w = 0;
  int reissue = 0;
  for (std::uint32_t slot : in.running) {
    Request& q = slots_[slot];
    if (q.first >= 0 && q.generated >= q.output) {
      complete(in, q, t);
      free_.push_back(slot);
      ++reissue;
    } else {
      in.running[w++] = slot;
    }
  }
  in.running.resize(w);
  if (spec_.concurrency > 0) {
    for (int k = 0; k < reissue && issued_ < total_; ++k) issue(t);
  }
}

void Replay::begin() {
  if (spec_.concurrency > 0) {
    for (int c = 0; c < spec_.concurrency && issued_ < total_; ++c) issue(0);
  } else {
    next_arrival_ = arrivals_.exponential(1.0 / spec_.rate);
  }
}

// Runs the decode steps that follow the one in flight while nothing but their tokens changes — one instance,
// no prompt pending, no request due to finish, no arrival, no admission or KV event possible — each step as
// finish_step and start_step would run it, in the same order of floating-point operations, without their
// loops over the running requests (their tokens out are added once at the end). Up to `most` steps; returns
// how many it ran. The replay's figures are the same bytes with or without it.
std::uint64_t Replay::coast(Instance& in, std::uint64_t most) {
  if (inst_.size() != 1 || !in.busy || !in.pre.empty() || in.dec.empty() || in.dec.size() != in.running.size()) return 0;
  if (drafts_ > 0 || !handoffs_.empty() || !(spec_.concurrency > 0 || issued_ >= total_)) return 0;
  if (r_.trace.size() < static_cast<std::size_t>(spec_.steps)) return 0;  // steps still to record
  if (!in.waiting.empty()) {
    // Estimated admission moves step by step; the others' cannot while the KV held only stays or grows, once
    // the request at the head does not fit now.
    if (admission_ == Admission::Estimated || prefix_.on()) return 0;  // (a prefix hit changes what the head needs)
    const Request& h = slots_[in.waiting.front()];
    const double need = admission_ == Admission::Reserve ? reserve(h) : fill_of(h) + state_tokens_;
    if (static_cast<int>(in.running.size()) < r_.max_batch && in.kv_used + need <= r_.kv_tokens) return 0;
  }
  // Every session's last token at the same time (so one gap a step), and how many steps end before any finishes.
  const double last = slots_[in.dec.front()].last;
  int room = std::numeric_limits<int>::max();
  std::int64_t ctx_tokens = 0;
  for (std::uint32_t slot : in.dec) {
    const Request& q = slots_[slot];
    if (q.last != last || q.recompute > 0 || q.first < 0) return 0;  // (pd: a first token the decode recomputes)
    room = std::min(room, q.output - q.generated);
    ctx_tokens += static_cast<std::int64_t>(q.prompt) + q.generated;
  }
  const auto n = static_cast<std::uint32_t>(in.dec.size());
  const double sessions = n;
  double prev = last;
  std::uint64_t ran = 0;
  while (ran < most && ran + 1 < static_cast<std::uint64_t>(room)) {
    const double next = in.end;
    // Under OnDemand and Estimated the step's tokens grow the KV: stop where the next step would not fit.
    const double kv = admission_ == Admission::Reserve ? in.kv_used : in.kv_used + sessions;
    if (admission_ != Admission::Reserve && !(kv + sessions * q_ <= r_.kv_tokens)) break;
    // The event loop's step end, then finish_step's: one gap for every session, no request done.
    area_ += in_flight_ * (next - t_);
    t_ = next;
    itl_.add(next - prev, n);
    prev = next;
    in.kv_used = kv;
    ctx_tokens += n;
    ++ran;
    // start_step's: the ratio's decay, the same decodes one token further on.
    if (admission_ == Admission::Estimated) in.ratio = std::max(ratio_.min, in.ratio - (ratio_.init - ratio_.min) / ratio_.decay_steps);
    const double ctx = static_cast<double>(ctx_tokens) / static_cast<double>(n);
    const model::DecodeCost d = timer_.decode(static_cast<int>(n), ctx);
    in.end = t_ + (d.seconds + 0.0);
    r_.steps += 1;
  }
  if (ran == 0) return 0;
  for (std::uint32_t slot : in.dec) {
    Request& q = slots_[slot];
    q.generated += static_cast<int>(ran);
    q.last = prev;
    if (admission_ != Admission::Reserve) q.held += static_cast<double>(ran);
  }
  return ran;
}

bool Replay::advance(std::uint64_t events) {
  for (std::uint64_t e = 0; e < events; ++e) {
    for (std::size_t i = 0; i < inst_.size(); ++i) {
      if (!inst_[i].busy) start_step(static_cast<int>(i), t_);
    }
    e += coast(inst_.front(), events - e - 1);
    if (e >= events) break;
    double next = spec_.concurrency > 0 || issued_ >= total_ ? kInf : next_arrival_;
    int who = -1;
    for (std::size_t i = 0; i < inst_.size(); ++i) {
      if (inst_[i].end < next) {
        next = inst_[i].end;
        who = static_cast<int>(i);
      }
    }
    // A prompt out of the prefill pool joins the decode pool before what comes later.
    constexpr int kHandoff = -2;
    if (!handoffs_.empty() && handoffs_.top().first < next) {
      next = handoffs_.top().first;
      who = kHandoff;
    }
    if (!(next < kInf)) {
      finish();
      return true;
    }
    area_ += in_flight_ * (next - t_);
    t_ = next;
    if (who == kHandoff) {
      const std::uint32_t slot = handoffs_.top().second;
      handoffs_.pop();
      route(slot, t_);
    } else if (who >= 0) {
      finish_step(who, t_);
    } else {
      issue(t_);
      next_arrival_ = issued_ < total_ ? t_ + arrivals_.exponential(1.0 / spec_.rate) : kInf;
    }
  }
  return false;
}

double Replay::progress() const {
  return total_ ? static_cast<double>(r_.completed + r_.refused) / static_cast<double>(total_) : 1.0;
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

}  // namespace

// The replay and what it needs kept alive between slices: its scenario, spec and result.
struct ServeRun::State {
  model::Scenario base, prefill;
  ServeSpec spec;
  ServeResult result;
  std::unique_ptr<Replay> replay;
  bool done = false;
};

ServeRun::ServeRun() = default;
ServeRun::~ServeRun() = default;
ServeRun::ServeRun(ServeRun&&) noexcept = default;
ServeRun& ServeRun::operator=(ServeRun&&) noexcept = default;

bool ServeRun::start(const model::Scenario& s, const ServeSpec& spec, model::Errors& errors, const model::Scenario* prefill) {
  state_.reset();
  auto st = std::make_unique<State>();
  if (!check_spec(s, spec, st->base, errors)) return false;
  st->spec = spec;
  if (prefill) at_run_lengths(*prefill, spec, st->prefill);
  st->replay = std::make_unique<Replay>(st->base, st->spec, st->result, prefill ? &st->prefill : nullptr);
  if (!st->replay->setup(errors)) return false;
  st->replay->begin();
  state_ = std::move(st);
  return true;
}

bool ServeRun::advance(std::uint64_t events) {
  if (!state_) return true;
  if (!state_->done) state_->done = state_->replay->advance(events);
  return state_->done;
}

bool ServeRun::started() const { return state_ != nullptr; }
bool ServeRun::done() const { return state_ && state_->done; }
double ServeRun::progress() const { return !state_ ? 0.0 : state_->done ? 1.0 : std::min(1.0, state_->replay->progress()); }
std::uint64_t ServeRun::requests() const { return state_ ? state_->replay->total() : 0; }
const ServeResult& ServeRun::result() const {
  static const ServeResult kNone;
  return state_ ? state_->result : kNone;
}

void default_load(ServeSpec& spec, const model::Scenario& s) {
  if (spec.concurrency <= 0 && !(spec.rate > 0)) spec.concurrency = std::max(1, s.work.batch);
}

bool run_serve(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors, const model::Scenario* prefill) {
  out = ServeResult{};
  ServeRun run;
  if (!run.start(s, spec, errors, prefill)) return false;
  run.advance(std::numeric_limits<std::uint64_t>::max());
  out = run.result();
  return true;
}

}  // namespace tierscope::serve
