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

namespace {

// The tier the hit is read from. A returning session's prefix is the least recently used of the `batch`
// sessions' prefixes the cache keeps between turns, so it sits in the deepest tier they reach: HBM beside
// the running batch first, then the instance's share of the host DRAM the node gives the prefix cache
// (model/kv_store.h, prefix_dram_bytes: the share the fleet simulator's DRAM tier holds too), else SSD.
PrefixTier prefix_tier_of(Ctx& c, const Values& v, double hit_bytes) {
  Terms& t = c.t;
  const double hit_gpu = hit_bytes * t.kv_share;
  const double free_gpu = std::max(0.0, v[F::HbmKvBudget] - t.batch_replica * v[F::HbmKvSessionPerGpu]);
  const double held_hbm = hit_gpu > 0 ? std::floor(free_gpu / hit_gpu) * t.dp : 0.0;
  const double held_dram = hit_bytes > 0 ? std::floor(t.prefix_dram_pool / hit_bytes) : 0.0;
  t.prefix_hbm_held = held_hbm;
  t.prefix_dram_held = held_dram;
  switch (c.s.work.prefix_tier) {
    case PrefixTier::Hbm: return PrefixTier::Hbm;
    case PrefixTier::Dram: return PrefixTier::Dram;
    case PrefixTier::Ssd: return PrefixTier::Ssd;
    case PrefixTier::Auto:
    case PrefixTier::Count: break;
  }
  if (c.batch <= held_hbm) return PrefixTier::Hbm;
  if (c.batch <= held_hbm + held_dram) return PrefixTier::Dram;
  return PrefixTier::Ssd;
}

}  // namespace

// The hit's read from its tier, the window's replay, the rest of the prompt, recompute, and TTFT with and
// without the hit (after the prefill).
void compute_prefix(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const double hit = c.hit, rest = c.rest;
  const bool replays = replays_window(m);
  const bool window_persisted = has_swa(m) && !replays;
  // A hit restores its tokens' KV, the window where it is cached with the prefix, and the recurrent layers'
  // last checkpoint (kv.recurrent_checkpoint_bytes) rather than any token rows.
  v[F::PrefixHitBytes] = hit > 0 ? hit * c.b_tok + (window_persisted ? c.swa_session : 0.0) + v[F::KvRecurrentCkptBytes] : 0.0;
  const double instances = t.gpus <= t.node_gpus ? std::floor(t.node_gpus / t.gpus) : t.node_gpus / t.gpus;
  t.prefix_dram_pool = prefix_dram_bytes(c.s) / std::max(instances, 1e-9);
  t.prefix_from = prefix_tier_of(c, v, v[F::PrefixHitBytes]);
  t.prefix_hops = ReloadHops{};
  if (hit > 0) {
    // The hit's hops through the store at the scenario's load (roofline/offload.h): the one rule every
    // room times a reload with.
    t.prefix_hops = reload_hops(t.reload, hit, v[F::PrefixHitBytes], v[F::PrefixHitBytes] * t.kv_share, t.prefix_load);
    v[F::PrefixSsdReadTime] = t.prefix_hops.ssd;
    v[F::PrefixUploadTime] = t.prefix_hops.up;
    v[F::PrefixSsdPathTime] = t.prefix_hops.ssd + t.prefix_hops.up;
    v[F::PrefixHitTime] = reload_time(t.prefix_hops, t.prefix_from);
  }
  // A hit of the whole prompt still computes its last token: the first output token needs its logits
  // (vLLM's prefix cache recomputes the last token of a full hit).
  const double fresh = hit > 0 && rest < 1 ? 1.0 : rest, before = c.s.work.prompt - fresh;
  t.rest = prefill_of(c, fresh, before);
  v[F::PrefixRestTime] = t.rest.time();
  if (hit > 0 && replays) {
    const double wh = std::min<double>(m.n_win, before);
    t.rest_replay = prefill_of(c, fresh + wh, before - wh);
    v[F::PrefixReplayTime] = std::max(0.0, t.rest_replay.time() - t.rest.time());
  }
  v[F::PrefixRecomputeTime] = hit > 0 ? std::max(0.0, t.prefill.time() - t.rest.time()) : 0.0;
  v[F::PrefixTtftMiss] = t.prefill.time();
  // The read runs before the prefill, or layer by layer beside it where the store loads that way.
  v[F::PrefixTtftHit] = hit > 0 ? hit_service(t.reload, t.prefix_hops, t.prefix_from, v[F::PrefixReplayTime] + v[F::PrefixRestTime]).latency
                                : v[F::PrefixTtftMiss];
  v[F::PrefixSpeedup] = hit > 0 && v[F::PrefixTtftHit] > 0 ? v[F::PrefixTtftMiss] / v[F::PrefixTtftHit] : 0.0;
}

namespace {

// a − b as the value takes it: never below zero.
Expr gain(Expr a, Expr b, double diff) {
  if (diff >= 0) return a - b;
  return max_of({q(0, "s"), a - b});
}

// Where the hit sits and why, in words.
std::string tier_reason(const Say& y) {
  const Terms& t = y.t;
  if (y.w.prefix_tier != PrefixTier::Auto) return std::string("prefix_tier = ") + prefix_tier_name(t.prefix_from);
  return "the batch's " + num(y.w.batch) + " prefixes against " + num(t.prefix_hbm_held) + " the HBM beside the running batch holds and " +
         num(t.prefix_dram_held) + " the instance's " + B(t.prefix_dram_pool) + " of host DRAM holds";
}

}  // namespace

void describe_prefix(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  const double hit = y.hit;
  const bool replays = y.replays, win = y.win;
  const std::string none = "no prefix hit";
  if (hit <= 0) {
    for (F id : {F::PrefixHitBytes, F::PrefixSsdReadTime, F::PrefixUploadTime, F::PrefixSsdPathTime, F::PrefixHitTime, F::PrefixReplayTime,
                 F::PrefixRecomputeTime, F::PrefixSpeedup})
      y.set(id, words(none));
    y.set(F::PrefixRestTime, q(t.rest.full.time(), "s", "every token") + q(t.rest.win.time(), "s", "the last window"));
    y.set(F::PrefixTtftMiss, q(v[F::PrefillTime], "s", "prefill of the whole prompt"));
    y.set(F::PrefixTtftHit, q(v[F::PrefillTime], "s", "prefill of the whole prompt").note(none));
    return;
  }
  const bool persisted = win && !replays;
  {
    Expr e = n(hit, "tokens") * q(v[F::KvGlobalPerToken], "B", "per token");
    if (persisted) e = e + q(v[F::KvSwaPerSession], "B", "the window cached with it");
    if (v[F::KvRecurrentCkptBytes] > 0) e = e + q(v[F::KvRecurrentCkptBytes], "B", "the recurrent state's last checkpoint");
    if (replays) e.note("SWA is replayed, never cached");
    y.set(F::PrefixHitBytes, std::move(e));
  }
  const ReloadPath& p = t.reload;
  const ReloadHops& h = t.prefix_hops;
  const StoreInfo& store = store_info(store_of(y.s));
  {
    // Latency, then the store's objects in rounds of the reads it keeps in flight, then the bytes at the rate
    // the drives (or the pool's NICs) give this instance at the load.
    Expr e = q(p.remote_ssd ? p.nic_lat : p.ssd_lat, "s", p.remote_ssd ? "RDMA latency" : "I/O latency");
    if (p.object_s > 0) e = e + ceil_of(n(h.objects, "objects") / n(p.streams, "read at once")) * q(p.object_s, "s", "per object");
    if (h.rates.reader_bound)
      e = e + q(h.read_bytes, "B", "read") * n(p.rank_share).named("one rank's share") / q(p.reader_bw, "B/s", "its reader, a page after another");
    else
      e = e + q(h.read_bytes, "B", "read") / q(h.rates.drives, "B/s", p.remote_ssd ? "the instance's NICs" : "the instance's share of the drives");
    e.note(std::string(store.label) + ": " + num(p.object_tokens) + "-token objects" + (p.copies > 1 ? ", a copy per rank" : "") +
           (h.rates.drive_sharers > 1 ? "; the drives shared by " + num_sig(h.rates.drive_sharers, 3) + " instances at the load" : ""));
    y.set(F::PrefixSsdReadTime, std::move(e));
  }
  {
    Expr e = q(p.link_lat, "s", "DMA latency") + q(h.gpu_bytes, "B", "one GPU's share") / q(h.rates.up, "B/s", "its host link at the load");
    if (h.fetch > 0) {
      Expr f = q(p.nic_lat, "s", "RDMA latency");
      if (p.object_s > 0) f = f + ceil_of(n(h.objects, "objects") / n(p.streams, "read at once")) * q(p.object_s, "s", "per object");
      f = f + q(h.node_bytes, "B", "from the pool") / q(h.rates.nic, "B/s", "the instance's NICs");
      e = std::move(f).named("pool → host DRAM") + e;
    }
    e.note(std::string(link_info(y.hw.host_link).label) + (t.kv_share >= 1 && t.tp > 1 ? "; each of the " + y.tp + " GPUs over its own link, at once" : ""));
    y.set(F::PrefixUploadTime, std::move(e));
  }
  const Expr ssd = q(v[F::PrefixSsdReadTime], "s", "SSD → DRAM"), up = q(v[F::PrefixUploadTime], "s", "DRAM → HBM");
  y.set(F::PrefixSsdPathTime, (ssd + up).note("the store stages the hit in host DRAM, then it goes up"));
  {
    const std::string why = tier_reason(y);
    switch (t.prefix_from) {
      case PrefixTier::Hbm: y.set(F::PrefixHitTime, q(0, "s").note("nothing to read: the hit is still in HBM; " + why)); break;
      case PrefixTier::Dram: y.set(F::PrefixHitTime, Expr(up).note("read from host DRAM: " + why)); break;
      case PrefixTier::Ssd:
      case PrefixTier::Auto:
      case PrefixTier::Count: y.set(F::PrefixHitTime, q(v[F::PrefixSsdPathTime], "s", "SSD → DRAM → HBM").note("read from SSD: " + why)); break;
    }
  }
  y.set(F::PrefixRestTime, (q(t.rest.full.time(), "s", "every token") + q(t.rest.win.time(), "s", "the last window"))
                               .note(num(std::max(1.0, w.prompt - hit)) + " new tokens attending over the hit's " + num(hit) + " positions too"));
  if (replays) {
    y.set(F::PrefixReplayTime, gain(q(t.rest_replay.time(), "s", "prefill with the hit's last " + num(std::min<double>(m.n_win, hit)) + " tokens in front"),
                                    q(t.rest.time(), "s", "without them"), t.rest_replay.time() - t.rest.time()));
  } else {
    y.set(F::PrefixReplayTime, words(y.no_replay));
  }
  y.set(F::PrefixRecomputeTime, gain(q(v[F::PrefillTime], "s", "prefill of the whole prompt"), q(v[F::PrefixRestTime], "s", "prefill after the hit"),
                                     v[F::PrefillTime] - v[F::PrefixRestTime]));
  y.set(F::PrefixTtftMiss, q(v[F::PrefillTime], "s", "prefill of the whole prompt"));
  {
    const double read = v[F::PrefixHitTime], rest = v[F::PrefixReplayTime] + v[F::PrefixRestTime];
    if (p.layerwise && read > 0) {
      // Layer by layer: the longer of the upload and the prefill, with one layer of the shorter in front.
      const double staged = t.prefix_from == PrefixTier::Ssd ? h.ssd : 0.0;
      const Expr u = q(read - staged, "s", "upload"), r = q(rest, "s", "replay and prefill after the hit");
      Expr e = max_of({u, r}) + min_of({u, r}) / n(p.layers, "layers");
      if (staged > 0) e = q(staged, "s", "SSD → DRAM") + e;
      y.set(F::PrefixTtftHit, std::move(e.note("the store loads layer by layer beside the prefill")));
    } else {
      y.set(F::PrefixTtftHit, q(read, "s", std::string("read from ") + prefix_tier_name(t.prefix_from)) + q(v[F::PrefixReplayTime], "s", "window replay") +
                                  q(v[F::PrefixRestTime], "s", "prefill after the hit"));
    }
  }
  y.set(F::PrefixSpeedup, q(v[F::PrefixTtftMiss], "s", "TTFT without the hit") / q(v[F::PrefixTtftHit], "s", "with it"));
}

void describe_turn_cost(Say& y) {
  const Workload& w = y.w;
  const double hit = y.hit;
  const Expr per_m = n(1e6, "tokens per million");
  y.set(F::CostTurnMiss, (n(w.prompt, "prompt tokens") * q(w.price_miss, "USD") + n(w.output, "output tokens") * q(w.price_out, "USD")) / per_m);
  y.set(F::CostTurnHit, (n(w.prompt - hit, "missed tokens") * q(w.price_miss, "USD") + n(hit, "hit tokens") * q(w.price_hit, "USD") +
                         n(w.output, "output tokens") * q(w.price_out, "USD")) /
                            per_m);
}

}  // namespace tierscope::model::topics
