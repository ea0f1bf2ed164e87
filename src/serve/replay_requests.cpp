// A request's life outside the step loop: its arrival (lengths drawn, refused when it can never fit), the
// engine's front end, routing to an instance, its first token's TTFT and parts, a preemption that sends it
// back to wait, and its completion with its statistics. Each runs once per request (or per preemption), so
// calling them across files costs the replay nothing; what runs per session per step stays in serve_sim.cpp.
#include <algorithm>
#include <cmath>
#include <string>

#include "base/text.h"
#include "serve/replay.h"

namespace tierscope::serve::replay {

// A new request at t, routed to the instance with the fewest outstanding; refused when it can never fit.
void Replay::issue(double t) {
  Request q;
  // A refused request's client sends its next one at once (closed loop): a loop, not a call per refusal, so a
  // run whose every request is refused keeps a flat stack (10,000 refusals in a row overflowed it).
  for (;;) {
    const auto id = static_cast<std::uint32_t>(issued_++);
    q = Request{};
    q.id = id;
    q.arrival = t;
    draw_lengths(id, q.prompt, q.output);
    prefix_.shape(id, q.pfx, q.prompt);
    const double need = reserve(q);
    const char* why = nullptr;
    if (max_pos_ > 0 && q.prompt + q.output > max_pos_) why = "its prompt + output exceed the model's trained positions";
    else if (need > r_.kv_tokens) why = "its prompt + output KV exceeds what one instance's HBM holds beside the weights";
    if (!why) break;
    if (r_.refused++ == 0) {
      r_.refused_why = "request " + std::to_string(id) + " (" + std::to_string(q.prompt) + " + " + std::to_string(q.output) + " tokens): " + why +
                       " (" + model::num(r_.kv_tokens) + " tokens of KV, " + model::num(max_pos_) + " positions)";
    }
    if (spec_.concurrency <= 0 || issued_ >= total_) return;
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

}  // namespace tierscope::serve::replay
