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
#include "roofline/step_mix.h"
#include "serve/serve.h"
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
};

struct Instance {
  std::deque<std::uint32_t> waiting;   // slots, first come first served
  std::vector<std::uint32_t> running;  // admitted, in admission order
  double kv_used = 0;
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
  Replay(const model::Scenario& s, const ServeSpec& spec, ServeResult& r) : s_(s), spec_(spec), r_(r), timer_(s) {}
  bool setup(model::Errors& errors);
  void begin();
  // Runs up to `events` events (a step's end or an arrival); true once nothing is left (the result is final).
  bool advance(std::uint64_t events);
  double progress() const;
  std::uint64_t total() const { return total_; }

 private:
  void issue(double t);
  void route(std::uint32_t slot, double t);
  void add_ttft(const Request& q, double t, StepRecord* step = nullptr);
  double front_end(double t, int prompt);
  void start_step(int i, double t);
  void finish_step(int i, double t);
  void complete(Instance& in, Request& q, double t);
  int draw_accepted();
  void draw_lengths(std::uint32_t id, int& prompt, int& output);
  void finish();

  const model::Scenario& s_;
  const ServeSpec& spec_;
  ServeResult& r_;
  model::StepTimer timer_;
  std::vector<Request> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<Instance> inst_;
  sim::Rng arrivals_, accept_;
  double p_accept_ = 0;
  bool first_ = false;  // prefill-first steps
  bool none_ = false;   // prompts arrive cached (a decode pool)
  bool pd_ = false;     // prompts run in a prefill pool of their own, then join the decode pool
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
  Histogram part_overhead_, part_wait_, part_queue_, part_prefill_;
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
  // Under data-parallel attention each replica schedules its own steps: the budget is per replica.
  r_.budget = (spec_.budget > 0 ? spec_.budget : d.budget) * static_cast<int>(std::max(1.0, t.dp));
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
  state_tokens_ = per_token > 0 && own > 0 ? std::ceil(own / per_token) : 0.0;
  r_.admission = "each request reserves its prompt + output KV when admitted";
  if (state_tokens_ > 0) {
    r_.admission += std::string(" and its session's own ") + (v[model::FigureId::KvRecurrentPerSession] > 0 ? "recurrent state" : "chunks") + " (" +
                    model::human(own, "B") + " per GPU whatever its length, as much HBM as " + model::num(state_tokens_) + " tokens of KV)";
  }
  r_.admission += "; when HBM or the running-batch cap is full it queues (first come, first served, no preemption)";
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
  if (none_ || pd_) {
    Request& r = slots_[slot];
    r.prefilled = r.prompt;
    r.first = r.last = t;
    r.generated = 1;
  }
  // The engine's front end (tokenise, schedule) before its scheduler sees the request.
  const double ready = none_ ? t : front_end(t, slots_[slot].prompt);
  if (pd_) {
    // The prefill pool keeps up, so a prompt waits for no other: its first token comes one prefill pass
    // later (the KV's hand-off to the decode pool left out), and the request joins the decode pool then.
    Request& r = slots_[slot];
    const double pass = timer_.chunk(r.prompt, 0).alone;
    r.first = r.last = ready + pass;
    r.ready = r.inflight_end = r.admitted = ready;
    add_ttft(r, ready + pass);
    handoffs_.push({ready + pass, slot});
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
void Replay::add_ttft(const Request& q, double t, StepRecord* step) {
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

// Admits what fits, then schedules one step: decodes first, then prompt chunks within the token budget
// (chunked), or a prompt-only step whenever a prompt waits (first).
void Replay::start_step(int i, double t) {
  Instance& in = inst_[static_cast<std::size_t>(i)];
  while (!in.waiting.empty() && static_cast<int>(in.running.size()) < r_.max_batch) {
    const Request& q = slots_[in.waiting.front()];
    const double need = reserve(q);
    if (in.kv_used + need > r_.kv_tokens) break;
    in.kv_used += need;
    slots_[in.waiting.front()].admitted = t;
    in.running.push_back(in.waiting.front());
    in.waiting.pop_front();
    queue_.add(t - q.arrival);
  }
  in.pre.clear();
  // One pass: the sessions past their prompt decode, their contexts summed (in integers: exact, as a sum of
  // doubles of whole numbers below 2^53 is), and whether any prompt waits.
  in.dec.resize(in.running.size());
  std::size_t decoding = 0;
  bool prompts = false;
  std::int64_t ctx_tokens = 0;
  for (std::uint32_t slot : in.running) {
    const Request& q = slots_[slot];
    const bool past = q.prefilled >= q.prompt;
    prompts = prompts || !past;
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
  for (std::uint32_t slot : in.running) {
    if (!prompts || left < 1) break;
    Request& q = slots_[slot];
    if (q.prefilled >= q.prompt) continue;
    q.chunk = static_cast<int>(std::min<double>(q.prompt - q.prefilled, left));
    left -= q.chunk;
    in.pre.push_back(slot);
  }
  if (in.dec.empty() && in.pre.empty()) return;  // nothing admitted yet: idle until an arrival
  double seconds = 0, decode_s = 0, prefill_s = 0;
  std::string bound;
  if (!in.dec.empty()) {
    ctx /= static_cast<double>(in.dec.size());
    const model::DecodeCost d = timer_.decode(static_cast<int>(in.dec.size()), ctx);
    decode_s = d.seconds;
    bound = d.bound;
  }
  // Chunks riding along spread over the attention replicas, but a step lasts as long as its slowest replica:
  // at least the largest chunk's compute on the one replica that runs it.
  double riding = 0, slowest = 0, host = 0;
  for (std::size_t k = 0; k < in.pre.size(); ++k) {
    const Request& q = slots_[in.pre[k]];
    const model::ChunkCost c = timer_.chunk(q.chunk, q.prefilled);
    host = std::max(host, c.host);
    // The first chunk of a prompt-only step streams the weights and pays the collectives' latencies; every
    // other chunk costs its compute and its share of the collectives' bytes.
    const bool alone = in.dec.empty() && k == 0;
    if (alone) {
      prefill_s += c.alone;
      bound = c.bound;
    } else {
      riding += c.compute;
      slowest = std::max(slowest, c.rank);
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
    for (std::uint32_t slot : in.running) written += static_cast<std::int64_t>(slots_[slot].prefilled) + slots_[slot].generated;
    rec.kv_written = static_cast<double>(written);
    rec.kv_reserved = in.kv_used;
    r_.trace.push_back(std::move(rec));
    in.record = static_cast<std::int64_t>(r_.trace.size()) - 1;
  }
}

void Replay::complete(Instance& in, Request& q, double t) {
  const double e2e = t - q.arrival;
  e2e_.add(e2e);
  if (q.output > 1) tpot_.add((t - q.first) / (q.output - 1));
  r_.completed += 1;
  r_.input_tokens += q.prompt;
  // A prefill replica (gpus ÷ dp of them) runs one prompt per pass, as prefill.time times it.
  if (pd_) prefill_gpu_s_ += timer_.chunk(q.prompt, 0).alone * r_.gpus_per_instance / std::max(1.0, timer_.base().terms.dp);
  r_.output_tokens += q.output;
  r_.duration = t;
  in.kv_used -= reserve(q);
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
    q.generated = std::min(q.output, q.generated + draw_accepted());
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
    if (q.prefilled < q.prompt) continue;
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

bool Replay::advance(std::uint64_t events) {
  for (std::uint64_t e = 0; e < events; ++e) {
    for (std::size_t i = 0; i < inst_.size(); ++i) {
      if (!inst_[i].busy) start_step(static_cast<int>(i), t_);
    }
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
  r_.prefill_gpus = pd_ && d > 0 ? prefill_gpu_s_ / d : 0.0;
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
  r_.ttft_parts = ServeResult::TtftParts{part_overhead_.summary(), part_wait_.summary(), part_queue_.summary(), part_prefill_.summary()};
  r_.tps_user = r_.tpot.mean > 0 ? 1.0 / r_.tpot.mean : 0.0;
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
// request's decode. False with errors when the spec cannot run at all.
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
  base = s;
  base.work.batch = 1;
  const int in = spec.input > 0 ? spec.input : std::max(1, s.work.prompt);
  const int on = spec.output > 0 ? spec.output : std::max(1, s.work.output);
  base.work.prompt = in;
  base.work.output = on;
  base.work.prefix_hit = 0;
  // Clamped to the model's positions: a longer request is refused on its own, not the whole run.
  base.work.ctx = std::max(1, in + on / 2);
  if (s.model.max_pos > 0) base.work.ctx = std::min(base.work.ctx, s.model.max_pos);
  return true;
}

}  // namespace

// The replay and what it needs kept alive between slices: its scenario, spec and result.
struct ServeRun::State {
  model::Scenario base;
  ServeSpec spec;
  ServeResult result;
  std::unique_ptr<Replay> replay;
  bool done = false;
};

ServeRun::ServeRun() = default;
ServeRun::~ServeRun() = default;
ServeRun::ServeRun(ServeRun&&) noexcept = default;
ServeRun& ServeRun::operator=(ServeRun&&) noexcept = default;

bool ServeRun::start(const model::Scenario& s, const ServeSpec& spec, model::Errors& errors) {
  state_.reset();
  auto st = std::make_unique<State>();
  if (!check_spec(s, spec, st->base, errors)) return false;
  st->spec = spec;
  st->replay = std::make_unique<Replay>(st->base, st->spec, st->result);
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

bool run_serve(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors) {
  out = ServeResult{};
  ServeRun run;
  if (!run.start(s, spec, errors)) return false;
  run.advance(std::numeric_limits<std::uint64_t>::max());
  out = run.result();
  return true;
}

}  // namespace tierscope::serve
