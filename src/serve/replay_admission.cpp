// Admission as each engine's scheduler does it (a request's KV reserved whole, grown a token at a time, or
// estimated with SGLang's ratio), the room a step makes by preempting the newest running request, and a
// request's completion with its statistics.
#include <algorithm>
#include <cmath>

#include "base/text.h"
#include "serve/replay.h"

namespace tierscope::serve::replay {

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
