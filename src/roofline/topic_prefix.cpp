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

// Engines that copy a prefix hit layer by layer, each hop overlapping the next: SGLang HiCache loads a
// hit's KV from host memory layer by layer alongside the forward pass
// (https://docs.sglang.io/advanced_features/hicache_design.html). vLLM's OffloadingConnector moves one
// contiguous block per request across all layers (https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html),
// so its hops run one after the other; TensorRT-LLM and DeepSeek's own stack are assumed to do the same.
bool pipelines_prefix(EngineKind e) { return e == EngineKind::Sglang; }

// The tier the hit is read from. A returning session's prefix is the least recently used of the `batch`
// sessions' prefixes the cache keeps between turns, so it sits in the deepest tier they reach: HBM beside
// the running batch first, then the instance's share of host DRAM (what the SWA pool leaves), else SSD.
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

// Both hops from SSD: summed, or where the engine pipelines them layer by layer the longer hop plus one
// layer of the shorter (the pipeline's fill).
double ssd_path_time(const Terms& t, double ssd, double upload) {
  if (!t.prefix_pipelined) return ssd + upload;
  return std::max(ssd, upload) + std::min(ssd, upload) / t.prefix_layers;
}

// The read from the tier that holds the hit: nothing from HBM, the upload from DRAM, both hops from SSD.
double prefix_read_time(const Terms& t, double upload, double ssd_path) {
  switch (t.prefix_from) {
    case PrefixTier::Hbm: return 0.0;
    case PrefixTier::Dram: return upload;
    case PrefixTier::Ssd:
    case PrefixTier::Auto:
    case PrefixTier::Count: break;
  }
  return ssd_path;
}

}  // namespace

// The hit's read from its tier, the window's replay, the rest of the prompt, recompute, and TTFT with and
// without the hit (after the prefill).
void compute_prefix(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Hardware& hw = c.s.hw;
  Terms& t = c.t;
  const double hit = c.hit, rest = c.rest;
  const bool replays = replays_window(m);
  const bool window_persisted = has_swa(m) && !replays;
  v[F::PrefixHitBytes] = hit > 0 ? hit * c.b_tok + (window_persisted ? c.swa_session : 0.0) : 0.0;
  const double instances = t.gpus <= t.node_gpus ? std::floor(t.node_gpus / t.gpus) : t.node_gpus / t.gpus;
  t.prefix_dram_pool = hw.host_dram_gb * 1e9 * (1.0 - (has_swa(m) ? c.s.work.swa_pool : 0.0)) / std::max(instances, 1e-9);
  t.prefix_layers = std::max(1.0, t.owners);
  t.prefix_pipelined = pipelines_prefix(c.s.engine.kind);
  t.prefix_from = prefix_tier_of(c, v, v[F::PrefixHitBytes]);
  if (hit > 0) {
    v[F::PrefixSsdReadTime] = ssd_read_time(t, v[F::PrefixHitBytes]);
    v[F::PrefixUploadTime] = host_transfer_time(t, v[F::PrefixHitBytes] * t.kv_share);
    v[F::PrefixSsdPathTime] = ssd_path_time(t, v[F::PrefixSsdReadTime], v[F::PrefixUploadTime]);
    v[F::PrefixHitTime] = prefix_read_time(t, v[F::PrefixUploadTime], v[F::PrefixSsdPathTime]);
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
  v[F::PrefixTtftHit] = hit > 0 ? v[F::PrefixHitTime] + v[F::PrefixReplayTime] + v[F::PrefixRestTime] : v[F::PrefixTtftMiss];
  v[F::PrefixSpeedup] = hit > 0 && v[F::PrefixTtftHit] > 0 ? v[F::PrefixTtftMiss] / v[F::PrefixTtftHit] : 0.0;
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
  y.set(F::PrefixSsdPathTime, hit > 0 ? y.H(F::PrefixSsdReadTime) + " + " + y.H(F::PrefixUploadTime) : std::string("no prefix hit"));
  y.set(F::PrefixHitTime, y.H(F::PrefixSsdReadTime) + " SSD → DRAM + " + y.H(F::PrefixUploadTime) + " DRAM → HBM, before the turn starts");
  y.set(F::PrefixRestTime, num(w.prompt - hit) + " new tokens after the hit: " + S(t.rest.full.time()) + " + " + S(t.rest.win.time()) +
                               " (the prompt's two passes, attending over the hit's " + num(hit) + " positions too)");
  y.set(F::PrefixReplayTime, hit > 0 && replays ? "prefill of the new tokens with the hit's last " + num(std::min<double>(m.n_win, hit)) + " tokens in front " +
                                                      S(t.rest_replay.time()) + " − without them " + S(t.rest.time())
                                                : std::string(hit > 0 ? y.no_replay : "no prefix hit"));
  y.set(F::PrefixRecomputeTime, hit > 0 ? "prefill of the whole prompt " + y.H(F::PrefillTime) + " − prefill after the hit " + y.H(F::PrefixRestTime)
                                        : std::string("no prefix hit"));
  y.set(F::PrefixTtftMiss, "prefill of the whole prompt " + y.H(F::PrefillTime));
  y.set(F::PrefixTtftHit, hit > 0 ? y.H(F::PrefixHitTime) + " read + " + y.H(F::PrefixReplayTime) + " replay + " + y.H(F::PrefixRestTime) + " rest"
                                  : std::string("no prefix hit"));
  y.set(F::PrefixSpeedup, hit > 0 ? y.H(F::PrefixTtftMiss) + " / " + y.H(F::PrefixTtftHit) : std::string("no prefix hit"));
}

void describe_turn_cost(Say& y) {
  const Workload& w = y.w;
  const double hit = y.hit;
  y.set(F::CostTurnMiss, "(" + num(w.prompt) + " × $" + num(w.price_miss) + " + " + num(w.output) + " × $" + num(w.price_out) + ") / 1M tokens");
  y.set(F::CostTurnHit, "(" + num(w.prompt - hit) + " × $" + num(w.price_miss) + " + " + num(hit) + " × $" + num(w.price_hit) + " + " + num(w.output) +
                            " × $" + num(w.price_out) + ") / 1M tokens");
}

}  // namespace tierscope::model::topics
