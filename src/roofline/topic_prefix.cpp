// The prefix cache and the turn's price: a hit's bytes promoted from SSD through DRAM to HBM, the window's
// replay, the rest of the prompt, what recomputing would cost instead, and a turn's price with and without
// the hit, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

// Always computed (outside the prompt scope too): the hit's size and the turn's price.
void compute_turn_cost(Ctx& c, Values& v) {
  const Workload& w = c.s.work;
  c.hit = std::min(w.prefix_hit, w.prompt);
  c.rest = w.prompt - c.hit;
  const double hit = c.hit;
  v[F::CostTurnMiss] = (w.prompt * w.price_miss + w.output * w.price_out) / 1e6;
  v[F::CostTurnHit] = ((w.prompt - hit) * w.price_miss + hit * w.price_hit + w.output * w.price_out) / 1e6;
}

// Promotion, the window's replay, the rest of the prompt, or recompute (after the prefill).
void compute_prefix(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const double hit = c.hit, rest = c.rest;
  const bool replays = replays_window(m);
  const bool window_persisted = has_swa(m) && !replays;
  v[F::PrefixHitBytes] = hit > 0 ? hit * c.b_tok + (window_persisted ? c.swa_session : 0.0) : 0.0;
  if (hit > 0) {
    v[F::PrefixSsdReadTime] = ssd_read_time(t, v[F::PrefixHitBytes]);
    v[F::PrefixUploadTime] = host_transfer_time(t, v[F::PrefixHitBytes] * t.kv_share);
  }
  v[F::PrefixHitTime] = v[F::PrefixSsdReadTime] + v[F::PrefixUploadTime];
  t.rest = prefill_of(c, rest, hit);
  v[F::PrefixRestTime] = t.rest.time();
  if (hit > 0 && replays) {
    const double wh = std::min<double>(m.n_win, hit);
    t.rest_replay = prefill_of(c, rest + wh, hit - wh);
    v[F::PrefixReplayTime] = std::max(0.0, t.rest_replay.time() - t.rest.time());
  }
  v[F::PrefixRecomputeTime] = hit > 0 ? std::max(0.0, t.prefill.time() - t.rest.time()) : 0.0;
  const double served = v[F::PrefixHitTime] + v[F::PrefixReplayTime];
  v[F::PrefixSpeedup] = served > 0 ? v[F::PrefixRecomputeTime] / served : 0.0;
}

void describe_prefix(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  const double hit = y.hit;
  const bool replays = y.replays, win = y.win;
  y.set(F::PrefixHitBytes, hit > 0 ? num(hit) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token" +
                                         (replays ? " (SWA is replayed, never cached)" : win ? " + the window " + y.H(F::KvSwaPerSession) + " cached with it" : "")
                                   : std::string("no prefix hit"));
  y.set(F::PrefixSsdReadTime, hit > 0 ? num(hw.lat_ssd_us) + " µs + " + y.H(F::PrefixHitBytes) + " / (" + num(hw.ssd_count) + " × " + num(hw.ssd_gbps) + " GB/s)"
                                      : std::string("no prefix hit"));
  y.set(F::PrefixUploadTime, hit > 0 ? human(t.host_lat, "s") + " DMA latency + " + y.H(F::PrefixHitBytes) + y.share + y.link +
                                           (t.kv_share >= 1 && t.tp > 1 ? " (each of the " + y.tp + " GPUs over its own link, at once)" : std::string())
                                     : std::string("no prefix hit"));
  y.set(F::PrefixHitTime, y.H(F::PrefixSsdReadTime) + " SSD → DRAM + " + y.H(F::PrefixUploadTime) + " DRAM → HBM, before the turn starts");
  y.set(F::PrefixRestTime, num(w.prompt - hit) + " new tokens after the hit: " + S(t.rest.full.time()) + " + " + S(t.rest.win.time()) +
                               " (the prompt's two passes, attending over the hit's " + num(hit) + " positions too)");
  y.set(F::PrefixReplayTime, hit > 0 && replays ? "prefill of the new tokens with the hit's last " + num(std::min<double>(m.n_win, hit)) + " tokens in front " +
                                                      S(t.rest_replay.time()) + " − without them " + S(t.rest.time())
                                                : std::string(hit > 0 ? y.no_replay : "no prefix hit"));
  y.set(F::PrefixRecomputeTime, hit > 0 ? "prefill of the whole prompt " + y.H(F::PrefillTime) + " − prefill after the hit " + y.H(F::PrefixRestTime)
                                        : std::string("no prefix hit"));
  y.set(F::PrefixSpeedup, hit > 0 ? y.H(F::PrefixRecomputeTime) + " / (" + y.H(F::PrefixHitTime) + " + " + y.H(F::PrefixReplayTime) + " replay)"
                                  : std::string("no prefix hit"));
}

void describe_turn_cost(Say& y) {
  const Workload& w = y.w;
  const double hit = y.hit;
  y.set(F::CostTurnMiss, "(" + num(w.prompt) + " × $" + num(w.price_miss) + " + " + num(w.output) + " × $" + num(w.price_out) + ") / 1M tokens");
  y.set(F::CostTurnHit, "(" + num(w.prompt - hit) + " × $" + num(w.price_miss) + " + " + num(hit) + " × $" + num(w.price_hit) + " + " + num(w.output) +
                            " × $" + num(w.price_out) + ") / 1M tokens");
}

}  // namespace tierscope::model::topics
