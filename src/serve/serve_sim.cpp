// The replay's event loop: arrivals (closed-loop clients or Poisson), routing, one scheduled step at a time
// per instance, each timed by the step model for its mix, and its end. The Replay itself: replay.h; its
// set-up and result: replay_setup.cpp; admission and completion: replay_admission.cpp.
//
// Sections: arrivals and routing · a step's start and its end · the event loop · ServeRun (a replay in
// slices) and run_serve.
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
#include "serve/replay.h"

namespace tierscope::serve {

namespace replay {

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
    handoffs_.push({r.pd.handed, slot});
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
  f.overhead = q.ready - q.arrival;
  f.queue = q.pd.start - q.ready;
  f.prefill = q.pd.end - q.pd.start;
  ttft_.add(f.ttft);
  part_overhead_.add(f.overhead);
  part_wait_.add(0.0);
  part_queue_.add(f.queue);
  part_prefill_.add(f.prefill);
  f.transfer = q.pd.handed - q.pd.end;
  f.admission = t - q.pd.handed;
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
  for (std::uint32_t slot : in.running) {
    if (!prompts || left < 1) break;
    Request& q = slots_[slot];
    if (q.prefilled >= fill_of(q) || q.pfx.load_end > t) continue;
    q.chunk = static_cast<int>(std::min<double>(fill_of(q) - q.prefilled, left));
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
  // at least the largest chunk's compute on the one replica that runs it.
  double riding = 0, slowest = 0, host = 0;
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

}  // namespace replay

using replay::Replay;

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
  if (!replay::check_spec(s, spec, st->base, errors)) return false;
  st->spec = spec;
  if (prefill) replay::at_run_lengths(*prefill, spec, st->prefill);
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
