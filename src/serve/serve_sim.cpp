// The replay's event loop: one scheduled step at a time per instance (the room its decodes make, admission
// as the engine's scheduler does it, the step's mix timed by the step model) and its end. The Replay itself:
// replay.h; its set-up and result: replay_setup.cpp; a request's arrival, routing, first token and
// completion: replay_requests.cpp. What runs per session per step is here, and inline (replay.h), so the
// compiler folds it into the loop.
//
// Sections: admission · a step's start and its end · the event loop · ServeRun (a replay in slices) and
// run_serve.
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