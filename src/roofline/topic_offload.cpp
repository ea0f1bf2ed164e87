// Offload or recompute: what a prefix hit's reload from host DRAM or SSD costs against recomputing it, at the
// scenario's load. Each tier's TTFT is a queue at the prefill GPU and one at the load path (M/D/1) plus the
// request's own time; where the sign of the change flips is searched over the hit's length and the load.
#include <array>

#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

constexpr PrefixTier kTiers[3] = {PrefixTier::Hbm, PrefixTier::Dram, PrefixTier::Ssd};

// The request at one hit length and load: its prefill without the cache, the rest and replay with the hit,
// and each tier's TTFT through its queues.
struct Point {
  double off = 0, rest = 0;     // prefill of the whole prompt; of the rest (and the window's replay) after the hit
  double bytes = 0;             // the hit's KV on the node (one copy)
  std::array<double, 3> ttft{}; // HBM, DRAM, SSD
  double ttft_off = 0;
};

// A tier's TTFT at `load` (the share of time the prefill would be busy with no cache): the GPU's queue at the
// service the hit leaves it, the load path's queue, then the request's own time.
double tier_ttft(const ReloadPath& p, const ReloadHops& h, PrefixTier from, double rest, double lambda) {
  const HitService s = hit_service(p, h, from, rest);
  return queue_wait(lambda * s.gpu, s.gpu) + queue_wait(lambda * s.path, s.path) + s.latency;
}

// Recomputed parts (prompt passes) at hit length `hit` with the scenario's new tokens after it.
struct Passes {
  double off = 0, rest = 0, bytes = 0;
};
Passes passes_at(const Ctx& c, double hit, double fresh) {
  Passes x;
  const ModelArch& m = c.m;
  x.off = prefill_of(c, hit + fresh, 0).time();
  x.rest = prefill_of(c, fresh, hit).time();
  if (replays_window(m) && hit > 0) {
    const double wh = std::min<double>(m.n_win, hit);
    x.rest = prefill_of(c, fresh + wh, hit - wh).time();
  }
  const bool persisted = has_swa(m) && !replays_window(m);
  x.bytes = hit > 0 ? hit * c.b_tok + (persisted ? c.swa_session : 0.0) : 0.0;
  return x;
}

Point point_at(const Ctx& c, const Passes& x, double hit, double load) {
  Point pt;
  const Terms& t = c.t;
  pt.off = x.off;
  pt.rest = x.rest;
  pt.bytes = x.bytes;
  const double lambda = x.off > 0 ? load / x.off : 0.0;
  pt.ttft_off = queue_wait(load, x.off) + x.off;
  const ReloadHops h = reload_hops(t.reload, hit, x.bytes, x.bytes * t.kv_share, load);
  for (int i = 0; i < 3; ++i) pt.ttft[static_cast<std::size_t>(i)] = tier_ttft(t.reload, h, kTiers[i], x.rest, lambda);
  return pt;
}

double change_of(const Point& pt, int tier) { return pt.ttft_off > 0 ? pt.ttft[static_cast<std::size_t>(tier)] / pt.ttft_off - 1 : 0.0; }

// The change of `tier` at hit length `hit` of the scenario's prompt (the rest of it new) and `load`: what a
// sweep of prefix_hit draws.
double change_at(const Ctx& c, int tier, double hit, double load) {
  const double prompt = c.s.work.prompt;
  return change_of(point_at(c, passes_at(c, hit, std::max(1.0, prompt - hit)), hit, load), tier);
}

// The hit length (tokens) of the scenario's prompt where `tier`'s change crosses zero at `load`, searched on
// a ×2 grid from one object to the prompt less one token, then by bisection in log space; 0 when the sign
// never changes. `helps_short` says the side of the shorter hits.
double flip_hit(const Ctx& c, int tier, double load, bool& helps_short) {
  const double lo = std::max(1.0, c.t.reload.object_tokens);
  const double hi = std::max(lo, static_cast<double>(c.s.work.prompt) - 1);
  double a = lo;
  double fa = change_at(c, tier, a, load);
  helps_short = fa < 0;
  for (double b = std::min(hi, 2 * a); a < hi; b = std::min(hi, 2 * b)) {
    const double fb = change_at(c, tier, b, load);
    if ((fa < 0) != (fb < 0)) {
      double l = std::log2(a), r = std::log2(b);
      for (int i = 0; i < 24; ++i) {
        const double mid = 0.5 * (l + r), h = std::exp2(mid);
        const double fm = change_at(c, tier, h, load);
        ((fm < 0) == (fa < 0) ? l : r) = mid;
      }
      return std::round(std::exp2(0.5 * (l + r)));
    }
    a = b;
    fa = fb;
  }
  return 0.0;
}

// The load (0 to the prefill_load maximum) where `tier`'s change at the scenario's hit crosses zero; 0 when
// it never does. `helps_light` says the side of the lighter loads.
double flip_load(const Ctx& c, int tier, const Passes& x, double hit, bool& helps_light) {
  constexpr double kTop = 0.95;
  double a = 0;
  double fa = change_of(point_at(c, x, hit, a), tier);
  helps_light = fa < 0;
  for (int k = 1; k <= 19; ++k) {
    const double b = std::min(kTop, 0.05 * k);
    const double fb = change_of(point_at(c, x, hit, b), tier);
    if ((fa < 0) != (fb < 0)) {
      double l = a, r = b;
      for (int i = 0; i < 30; ++i) {
        const double mid = 0.5 * (l + r);
        ((change_of(point_at(c, x, hit, mid), tier) < 0) == (fa < 0) ? l : r) = mid;
      }
      return 0.5 * (l + r);
    }
    a = b;
    fa = fb;
  }
  return 0.0;
}

}  // namespace

void compute_reload_path(Ctx& c, Values& v) {
  (void)v;
  Terms& t = c.t;
  t.reload = reload_path(c.s, t);
  // Under a connector that turns vLLM's hybrid allocator off, every sliding-window layer keeps (and the
  // store holds) its KV at full length: the hit carries each window layer's entry for every token.
  const StoreInfo& st = store_info(store_of(c.s));
  if (st.full_windows && c.s.engine.kind == EngineKind::Vllm && has_swa(c.m) && t.window_layers > 0) t.reload.extra_per_token = t.window_layers * c.z.swa;
  t.prefix_load = c.s.work.prefill_load;
}

void compute_offload(Ctx& c, Values& v) {
  Terms& t = c.t;
  const double load = t.prefix_load;
  const double hit = c.hit;
  const ReloadHops& h = t.prefix_hops;
  v[F::OffloadHitBytes] = hit > 0 ? h.read_bytes : 0.0;
  v[F::OffloadUploadRate] = reload_rates(t.reload, load).up;
  v[F::OffloadSsdRate] = hit > 0 && h.ssd > 0 ? v[F::PrefixHitBytes] / h.ssd : 0.0;
  const double rest = t.rest.time() + v[F::PrefixReplayTime];
  const double off = t.prefill.time();
  const double lambda = off > 0 ? load / off : 0.0;
  v[F::OffloadTtftOff] = queue_wait(load, off) + off;
  const F ids[3] = {F::OffloadTtftHbm, F::OffloadTtftDram, F::OffloadTtftSsd};
  for (int i = 0; i < 3; ++i) v[ids[i]] = hit > 0 ? tier_ttft(t.reload, h, kTiers[i], rest, lambda) : v[F::OffloadTtftOff];
  const double base = v[F::OffloadTtftOff];
  v[F::OffloadChangeDram] = base > 0 ? v[F::OffloadTtftDram] / base - 1 : 0.0;
  v[F::OffloadChangeSsd] = base > 0 ? v[F::OffloadTtftSsd] / base - 1 : 0.0;
}

void compute_offload_flips(Ctx& c, Values& v) {
  Terms& t = c.t;
  const double load = t.prefix_load;
  const double prompt = c.s.work.prompt;
  const double fresh = std::max(1.0, prompt - c.hit);
  bool side = false;
  v[F::OffloadFlipHitDram] = flip_hit(c, 1, load, side);
  t.flip_short_helps[0] = side;
  v[F::OffloadFlipHitSsd] = flip_hit(c, 2, load, side);
  t.flip_short_helps[1] = side;
  if (c.hit > 0) {
    const Passes x = passes_at(c, c.hit, fresh);
    v[F::OffloadFlipLoadDram] = flip_load(c, 1, x, c.hit, side);
    t.flip_light_helps[0] = side;
    v[F::OffloadFlipLoadSsd] = flip_load(c, 2, x, c.hit, side);
    t.flip_light_helps[1] = side;
  }
}

namespace {

// "load 0.5 × S / (2 × (1 − 0.5))": an M/D/1 queue's wait, with the utilisation it ran at.
Expr wait_expr(double rho, double service, const char* what) {
  const double r = std::min(rho, kMaxUtilisation);
  Expr e = n(r).named("utilisation") * q(service, "s", what) / (n(2) * (n(1) - n(r).named("utilisation")));
  if (rho > kMaxUtilisation) e.note("the server cannot keep up: held at the edge of its queue");
  return e;
}

// The request's own time with its hit from `from`: the read before the prefill of the rest, or layer by layer
// beside it.
Expr own_expr(const Terms& t, PrefixTier from, double rest) {
  const ReloadHops& h = t.prefix_hops;
  const ReloadPath& p = t.reload;
  const double read = reload_time(h, from);
  const Expr r = q(rest, "s", "replay and prefill after the hit");
  if (read <= 0) return r;
  const double staged = from == PrefixTier::Ssd ? h.ssd : 0.0;
  if (p.layerwise) {
    const Expr u = q(read - staged, "s", "upload");
    Expr e = max_of({u, r}) + min_of({u, r}) / n(p.layers, "layers");
    if (staged > 0) e = q(staged, "s", "SSD → DRAM") + e;
    return e.note("the upload runs layer by layer beside the prefill of the rest");
  }
  Expr e = q(read, "s", from == PrefixTier::Ssd ? "SSD → DRAM → HBM" : "DRAM → HBM") + r;
  return e.note(p.stalls_step ? "the load runs inside the batch's step, holding the GPU" : "loaded beside the running batch, then prefilled");
}

Expr tier_expr(const Say& y, PrefixTier from, double rest, double lambda) {
  const Terms& t = y.t;
  const HitService s = hit_service(t.reload, t.prefix_hops, from, rest);
  Expr e = own_expr(t, from, rest);
  if (lambda * s.gpu > 0) e = wait_expr(lambda * s.gpu, s.gpu, "GPU per request") + e;
  if (lambda * s.path > 0) e = wait_expr(lambda * s.path, s.path, "load path per request") + e;
  return e;
}

std::string flip_words(double tokens, bool short_helps, const char* tier) {
  if (tokens <= 0) return std::string("never within the prompt: a reload from ") + tier + (short_helps ? " helps" : " hurts") + " at every hit length (searched)";
  return std::string("found by a search over hit lengths of the prompt: a reload from ") + tier + (short_helps ? " helps below " : " hurts below ") +
         num(tokens) + " tokens and " + (short_helps ? "hurts" : "helps") + " just above (the first sign change from the shortest hit)";
}

std::string load_words(double load, bool light_helps, const char* tier) {
  if (load <= 0) return std::string("never between no load and 0.95: a reload from ") + tier + (light_helps ? " helps" : " hurts") + " at every load (searched)";
  return std::string("found by a search over loads: a reload from ") + tier + (light_helps ? " helps below " : " hurts below ") + num_sig(load, 3) +
         " and " + (light_helps ? "hurts" : "helps") + " just above (the first sign change from no load)";
}

}  // namespace

void describe_offload(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const ReloadPath& p = t.reload;
  const double load = t.prefix_load;
  const double hit = y.hit;
  const ReloadRates r = reload_rates(p, load);
  {
    Expr link = q(p.link_bw, "B/s", "host link") * n(r.duplex).named("left by offloads the other way");
    Expr sw = q(p.link_bw, "B/s", "switch uplink") / n(r.switch_sharers, "GPUs on it");
    Expr e = p.mem_bw > 0 ? min_of({std::move(link), std::move(sw), q(p.mem_bw, "B/s", "host memory") / n(r.mem_sharers, "GPUs on it")})
                          : min_of({std::move(link), std::move(sw)});
    e.note("at load " + num_sig(load, 3));
    y.set(F::OffloadUploadRate, std::move(e));
  }
  if (hit <= 0) {
    for (F id : {F::OffloadHitBytes, F::OffloadSsdRate, F::OffloadFlipLoadDram, F::OffloadFlipLoadSsd}) y.set(id, words("no prefix hit"));
  } else {
    const ReloadHops& h = t.prefix_hops;
    Expr bytes = q(v[F::PrefixHitBytes], "B", "the hit");
    if (p.extra_per_token > 0) bytes = bytes + n(hit, "tokens") * q(p.extra_per_token, "B", "full-length windows per token");
    Expr e = std::move(bytes);
    if (p.copies > 1) e = std::move(e) * n(p.copies, "copies, one per rank");
    if (p.read_amp > 1) e = std::move(e) * n(p.read_amp).named("read amplification");
    y.set(F::OffloadHitBytes, std::move(e));
    y.set(F::OffloadSsdRate, q(v[F::PrefixHitBytes], "B", "the hit") / q(h.ssd, "s", "SSD → DRAM"));
    y.set(F::OffloadFlipLoadDram, words(load_words(v[F::OffloadFlipLoadDram], t.flip_light_helps[0], "host DRAM")));
    y.set(F::OffloadFlipLoadSsd, words(load_words(v[F::OffloadFlipLoadSsd], t.flip_light_helps[1], "SSD")));
  }
  const double off = t.prefill.time();
  const double lambda = off > 0 ? load / off : 0.0;
  {
    Expr e = q(off, "s", "prefill of the whole prompt");
    if (load > 0) e = wait_expr(load, off, "prefill of the whole prompt") + e;
    y.set(F::OffloadTtftOff, std::move(e));
  }
  const double rest = t.rest.time() + v[F::PrefixReplayTime];
  const F ids[3] = {F::OffloadTtftHbm, F::OffloadTtftDram, F::OffloadTtftSsd};
  for (int i = 0; i < 3; ++i) {
    if (hit <= 0) y.set(ids[i], q(v[F::OffloadTtftOff], "s", "no prefix hit: as without the cache"));
    else y.set(ids[i], tier_expr(y, kTiers[i], rest, lambda));
  }
  y.set(F::OffloadChangeDram, q(v[F::OffloadTtftDram], "s", "from host DRAM") / q(v[F::OffloadTtftOff], "s", "recomputed") - n(1));
  y.set(F::OffloadChangeSsd, q(v[F::OffloadTtftSsd], "s", "from SSD") / q(v[F::OffloadTtftOff], "s", "recomputed") - n(1));
  y.set(F::OffloadFlipHitDram, words(flip_words(v[F::OffloadFlipHitDram], t.flip_short_helps[0], "host DRAM")));
  y.set(F::OffloadFlipHitSsd, words(flip_words(v[F::OffloadFlipHitSsd], t.flip_short_helps[1], "SSD")));
}

}  // namespace tierscope::model::topics
