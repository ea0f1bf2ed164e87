// A turn from its arrival to its last token: routing, admission to HBM, the lookup and promotion of its
// history, the window, the prefill, the decode batch, and what the turn persists as it ends.
//
// Sections: sessions (new, free, depart) · routing and the think time · a turn's arrival and admission · its
// history found and promoted, the prefill · the chain settled and the turn reported · admit · the decode
// batch (rate, heap) · the first token, decode done, the turn's end.
#include <algorithm>

#include "roofline/offload.h"
#include "roofline/timing.h"
#include "sim/fleet_state.h"

namespace tierscope::sim {

// The simulator's internal parts (fleet_state.h) by their own names.
using namespace detail;

std::int32_t FleetState::new_session() {
  return sessions.alloc();
}

void FleetState::maybe_free_session(std::int32_t sid) {
  const Session& s = S(sid);
  if ((s.flags & (kLive | kInPool)) == 0) sessions.free(sid);
}

void FleetState::count_area() {
  area += static_cast<double>(in_system) * (now - area_t);
  area_t = now;
}

void FleetState::depart(std::int32_t sid) {
  Session& s = S(sid);
  count_area();
  --in_system;
  --nodes[s.node].in_system;
  ++departed;
  sojourn_sum += now - s.arrived;
  s.flags &= static_cast<std::uint8_t>(~kLive);
  if (s.hist != kNone) E(s.hist).key = kNone;
  s.hist = kNone;
  maybe_free_session(sid);
}

int FleetState::route(Session& s) {
  const int n = cfg.nodes;
  if (n == 1) return 0;
  if (cfg.router == model::Router::Random) return static_cast<int>(s.rng.below(static_cast<std::uint32_t>(n)));
  std::uint32_t least = nodes[0].in_system;
  for (int i = 1; i < n; ++i) least = std::min(least, nodes[i].in_system);
  if (cfg.router == model::Router::Least) {
    for (int i = 0; i < n; ++i) {
      if (nodes[i].in_system == least) return i;
    }
  }
  // Prefix-aware: among nodes within a quarter (at least 4 sessions) of the least loaded, the one that
  // holds the longest prefix of the request, then the less loaded, then the lower index.
  const std::uint32_t slack = std::max<std::uint32_t>(4, least / 4);
  int best = -1;
  double best_match = -1;
  std::uint32_t best_load = 0;
  for (int i = 0; i < n; ++i) {
    const Node& node = nodes[i];
    if (node.in_system > least + slack) continue;
    const double m = matched_tokens(node, s);
    if (m > best_match || (m == best_match && node.in_system < best_load)) {
      best = i;
      best_match = m;
      best_load = node.in_system;
    }
  }
  return best < 0 ? 0 : best;
}

double FleetState::matched_tokens(const Node& node, const Session& s) {
  if (cfg.mode == Mode::Trace) {
    const Trace& tr = *cfg.trace;
    const std::size_t r = static_cast<std::size_t>(s.request);
    double m = 0;
    for (std::uint32_t i = tr.first[r]; i < tr.first[r + 1]; ++i) {
      const std::int32_t e = node.block_entry[tr.ids[i]];
      if (e == kNone) break;
      m += E(e).tokens;
    }
    return m;
  }
  if (s.prefix == kNone) return 0;
  const std::int32_t e = node.prefix_entry[static_cast<std::size_t>(s.prefix)];
  return e == kNone ? 0 : E(e).tokens;
}

double FleetState::think_time(Session& s) {
  if (cfg.think_dist == model::ThinkDist::Lognormal) return s.rng.lognormal(cfg.think_mean_s, cfg.think_sigma);
  return s.rng.exponential(cfg.think_mean_s);
}

void FleetState::turn_arrive(std::int32_t sid) {
  Session& s = S(sid);
  Node& n = nodes[s.node];
  if (cfg.mode == Mode::Synthetic) {
    double user = std::max(1.0, round_tokens(s.rng.lognormal(cfg.user_mean, cfg.len_sigma)));
    double out = std::max(1.0, round_tokens(s.rng.lognormal(cfg.out_mean, cfg.len_sigma)));
    const double room = cfg.ctx_max - s.history;
    if (room < 2) {  // the context is full: the conversation ends here
      ++ctx_full;
      ++completed;
      depart(sid);
      return;
    }
    user = std::min(user, room - 1);
    out = std::min(out, room - user);
    s.user = static_cast<std::uint32_t>(user);
    s.out = static_cast<std::uint32_t>(out);
  }
  s.turn_arrived = now;
  const double tokens = s.history + s.user + s.out;
  s.reserved = tokens * cfg.kv_per_token + cfg.swa_bytes + cfg.state_bytes;
  s.decode_ctx = s.history + s.user + 0.5 * s.out;
  if (n.queue.size == 0 && n.hbm_used + hbm_need(s, sid) <= cfg.hbm_bytes) {
    admit(sid);
  } else if (n.queue.size >= static_cast<std::size_t>(cfg.queue_max)) {
    ++refused;
    ++hour().refused;
    depart(sid);
  } else {
    n.queue.push(sid);
  }
}

void FleetState::try_admit(Node& n) {
  while (n.queue.size > 0) {
    const std::int32_t sid = n.queue.front();
    if (n.hbm_used + hbm_need(S(sid), sid) > cfg.hbm_bytes) return;
    n.queue.pop();
    admit(sid);
  }
}

std::int32_t FleetState::keyed(std::vector<std::int32_t>& map, std::uint32_t id, std::uint8_t node, double tokens) {
  std::int32_t e = map[id];
  if (e == kNone) {
    e = new_entry(node, static_cast<std::uint32_t>(tokens), kKeyed, static_cast<std::int32_t>(id));
    map[id] = e;
  }
  return e;
}

FleetState::TurnInput FleetState::gather_chain(const Session& s, Node& n) {
  // What the turn can find, root first: a shared prefix and the session's history, or the request's
  // blocks. Pinned while the turn works on them (find_hits), so no eviction frees a record under it.
  chain.clear();
  chain_tokens.clear();
  TurnInput in;
  if (cfg.mode == Mode::Trace) {
    const Trace& tr = *cfg.trace;
    const std::size_t r = static_cast<std::size_t>(s.request);
    in.input = tr.input[r];
    const std::uint32_t first = tr.first[r], last = tr.first[r + 1];
    for (std::uint32_t b = first; b < last; ++b) {
      const double at = static_cast<double>(b - first) * cfg.block_tokens;
      const double tokens = std::min<double>(cfg.block_tokens, in.input - at);
      chain.push_back(keyed(n.block_entry, tr.ids[b], s.node, tokens));
      chain_tokens.push_back(tokens);
    }
    return in;
  }
  in.history = s.history;
  in.input = s.history + s.user;
  if (s.prefix != kNone) {
    in.prefix_tokens = prefix_len[static_cast<std::size_t>(s.prefix)];
    chain.push_back(keyed(n.prefix_entry, static_cast<std::uint32_t>(s.prefix), s.node, in.prefix_tokens));
    chain_tokens.push_back(in.prefix_tokens);
  }
  if (s.hist != kNone) {
    chain.push_back(s.hist);
    chain_tokens.push_back(E(s.hist).tokens);
  }
  return in;
}

FleetState::Found FleetState::find_hits(std::size_t in_hbm) {
  Found f;
  f.ready = now;
  for (std::size_t k = 0; k < chain.size(); ++k) {
    Entry& x = E(chain[k]);
    x.flags |= kPinned;
    if (f.hits != k || !(k < in_hbm || resident(x))) continue;  // a hit needs everything before it found too
    ++f.hits;
    // The turn's own tokens in this piece (a trace block counts the tokens the request has in it).
    const double tokens = chain_tokens[k];
    if (k < in_hbm) {
      f.hit_hbm += tokens;  // still in HBM: nothing to load
    } else if (x.flags & kInDram) {
      f.hit_dram += tokens;
      f.bytes_dram += bytes_of(x, tokens);
    } else {
      f.hit_ssd += tokens;
      f.bytes_ssd += bytes_of(x, tokens);
    }
    f.ready = std::max(f.ready, x.ready);
  }
  return f;
}

double FleetState::promote_and_prefill(Node& n, const Found& f, double up_bytes, double fresh, bool replay, HourStats& h) {
  std::size_t inst = 0;
  for (std::size_t i = 1; i < n.prefill_free.size(); ++i) {
    if (n.prefill_free[i] < n.prefill_free[inst]) inst = i;
  }
  // Each hop timed by the figures' reload rule (roofline/offload.h: the store's objects and copies, what
  // the host path shares inside the instance); the drives and each instance's links queue in turn here.
  const model::ReloadPath& path = cfg.terms.reload;
  double staged = now, ready = f.ready;
  if (f.bytes_ssd > 0) {
    const model::ReloadHops read = model::reload_hops(path, std::max(1.0, f.hit_ssd), f.bytes_ssd * cfg.ssd_share, f.bytes_ssd * cfg.kv_share, 0);
    n.ssd_free = std::max(n.ssd_free, now) + read.ssd;
    staged = n.ssd_free;
    h.bytes_ssd_read += f.bytes_ssd;
  }
  double up = 0;
  if (up_bytes > 0) {
    up = model::reload_hops(path, std::max(1.0, f.hit_dram + f.hit_ssd), up_bytes, up_bytes * cfg.kv_share, 0).up;
    n.up_free[inst] = std::max(n.up_free[inst], staged) + up;
    h.bytes_up += up_bytes;
  }
  double work = cfg.prefill(fresh, f.tokens());
  if (replay) work += cfg.replay(fresh, f.tokens());
  if (path.layerwise && up > 0) {
    // The store uploads layer by layer beside the prefill of the rest: the longer of the two with one layer
    // of the shorter in front, from when the hit is staged in host DRAM.
    const double start = std::max({n.prefill_free[inst], staged, ready, n.up_free[inst] - up});
    n.prefill_free[inst] = start + std::max(up, work) + std::min(up, work) / path.layers;
    return n.prefill_free[inst];
  }
  if (up_bytes > 0) ready = std::max(ready, n.up_free[inst]);
  n.prefill_free[inst] = std::max(n.prefill_free[inst], ready) + work;
  return n.prefill_free[inst];
}

void FleetState::settle_chain(Session& s, std::int32_t sid, Node& n, std::size_t hits, double prefix_tokens, double first_token) {
  // What the turn found is most recently used now (an SSD hit is staged through DRAM on its way up), and
  // what it computes is persisted: deepest first, so a history's root is the last of it to go.
  for (std::size_t k = chain.size(); k-- > 0;) {
    const std::int32_t e = chain[k];
    if (k < hits && resident(E(e))) {
      ssd_touch(n, e);
      dram_put(n, e, bytes_of(E(e)));
    } else if (k < hits) {
      persist(n, e, 0);  // found in HBM only: the engine offloads it as it would have on computing it
    } else {
      if (!resident(E(e))) E(e).ready = first_token;
      persist(n, e, bytes_of(E(e)));
    }
  }
  if (cfg.mode == Mode::Synthetic) {
    // The user's new tokens join the session's history (a new entry when it had none left).
    std::int32_t e = s.hist;
    double old_bytes = 0;
    if (e == kNone) {
      e = new_entry(s.node, static_cast<std::uint32_t>(s.history - prefix_tokens), 0, sid);
      s.hist = e;
      E(e).flags |= kPinned;
      chain.push_back(e);
    } else {
      old_bytes = bytes_of(E(e));
    }
    E(e).tokens += s.user;
    E(e).ready = first_token;
    persist(n, e, old_bytes);
  }
  for (std::int32_t e : chain) {
    E(e).flags &= static_cast<std::uint8_t>(~kPinned);
    maybe_free(e);
  }
}

void FleetState::report_turn(const Session& s, std::int32_t sid, const TurnInput& in, const Found& f, bool pool_hit, bool replay, double first_token) {
  TurnRecord r;
  r.session = static_cast<std::uint32_t>(sid);
  r.turn = s.turn;
  r.node = s.node;
  r.prefix = s.prefix;
  r.request = s.request;
  r.arrival = s.turn_arrived;
  r.admitted = now;
  r.first_token = first_token;
  r.input_tokens = in.input;
  r.history_tokens = in.history;
  r.prefix_tokens = in.prefix_tokens;
  r.hit_dram_tokens = f.hit_dram;
  r.hit_ssd_tokens = f.hit_ssd;
  r.hit_hbm_tokens = f.hit_hbm;
  r.resumed = cfg.mode == Mode::Synthetic && s.turn > 0;
  r.pool_hit = pool_hit;
  r.replayed = replay;
  obs.fn(obs.user, r);
}

void FleetState::admit(std::int32_t sid) {
  Session& s = S(sid);
  Node& n = nodes[s.node];
  HourStats& h = hour();
  n.hbm_used += s.reserved;
  hbm.in += s.reserved;
  ++n.in_service;
  expire(n);

  const TurnInput in = gather_chain(s, n);
  const Found found = find_hits(hbm_admit(n, s, sid));
  const double hit_tokens = found.tokens();
  const bool full_history = in.history > 0 && hit_tokens == in.history;
  const bool resumed = cfg.mode == Mode::Synthetic && s.turn > 0;

  // The window: from the pool when the session was there, else replayed (bounded replay), else it came
  // with the history.
  bool pool_hit = false;
  if (cfg.pool_on && resumed && (s.flags & kInPool)) {
    pool_hit = true;
    pool_unlink(n, sid);
  }
  const bool replay = cfg.pool_on && hit_tokens > 0 && !(pool_hit && full_history);
  double up_bytes = found.bytes_dram + found.bytes_ssd;
  if (pool_hit && full_history) up_bytes += cfg.swa_bytes;

  const double first_token = promote_and_prefill(n, found, up_bytes, in.input - hit_tokens, replay, h);
  settle_chain(s, sid, n, found.hits, in.prefix_tokens, first_token);

  // Statistics, in the hour the turn is admitted.
  const double ttft = first_token - s.turn_arrived;
  ++h.turns;
  h.input_tokens += in.input;
  h.hit_dram_tokens += found.hit_dram;
  h.hit_ssd_tokens += found.hit_ssd;
  h.hit_hbm_tokens += found.hit_hbm;
  h.queue_wait_s += now - s.turn_arrived;
  h.ttft_sum_s += ttft;
  h.ttft.add(ttft);
  if (resumed) {
    ++h.resumed;
    if (full_history) ++h.history_hits;
    if (pool_hit) ++h.pool_hits;
  }
  if (replay) ++h.replays;
  if (obs.fn) report_turn(s, sid, in, found, pool_hit, replay, first_token);
  events.push(first_token, kFirstToken, static_cast<std::uint32_t>(sid));
}

void FleetState::decode_advance(Node& n) {
  n.v += n.rate * (now - n.v_t);
  n.v_t = now;
}

void FleetState::decode_rate(Node& n) {
  if (n.decoding == 0) {
    n.rate = 0;
    n.next_done = HUGE_VAL;
  } else {
    const double per_instance = std::max(1.0, static_cast<double>(n.decoding) / cfg.instances);
    const double step = cfg.decode_step(per_instance, n.ctx_sum / n.decoding);
    n.rate = cfg.tokens_per_step / step;
    n.next_done = now + std::max(0.0, (n.dheap[0].target - n.v) / n.rate);
  }
  decode_t = HUGE_VAL;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].next_done < decode_t) {
      decode_t = nodes[i].next_done;
      decode_node = i;
    }
  }
}

bool FleetState::dless(const DecodeItem& a, const DecodeItem& b) {
  return a.target < b.target || (a.target == b.target && a.session < b.session);
}

void FleetState::dheap_push(Node& n, DecodeItem it) {
  std::size_t i = n.dheap.size();
  n.dheap.push_back(it);
  while (i > 0) {
    const std::size_t p = (i - 1) / 2;
    if (!dless(it, n.dheap[p])) break;
    n.dheap[i] = n.dheap[p];
    i = p;
  }
  n.dheap[i] = it;
}

void FleetState::dheap_pop(Node& n) {
  const DecodeItem last = n.dheap.back();
  n.dheap.pop_back();
  const std::size_t size = n.dheap.size();
  if (size == 0) return;
  std::size_t i = 0;
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && dless(n.dheap[c + 1], n.dheap[c])) ++c;
    if (!dless(n.dheap[c], last)) break;
    n.dheap[i] = n.dheap[c];
    i = c;
  }
  n.dheap[i] = last;
}

void FleetState::first_token(std::int32_t sid) {
  Session& s = S(sid);
  Node& n = nodes[s.node];
  decode_advance(n);
  dheap_push(n, DecodeItem{n.v + s.out, sid});
  ++n.decoding;
  n.ctx_sum += s.decode_ctx;
  decode_rate(n);
}

void FleetState::decode_done(Node& n) {
  decode_advance(n);
  // This moment came from the first target, so that turn ends whatever rounding left of its clock
  // (always at least one: the run always moves on); others end with it if they are due within rounding
  // (a relative 1e-9: the clock counts tokens since the start of the run, millions by the end of a day).
  bool first = true;
  while (!n.dheap.empty() && (first || n.dheap[0].target <= n.v + 1e-9 * std::max(1.0, n.dheap[0].target))) {
    first = false;
    const std::int32_t sid = n.dheap[0].session;
    n.v = std::max(n.v, n.dheap[0].target);
    dheap_pop(n);
    turn_end(sid);
  }
  if (n.decoding == 0) n.ctx_sum = 0;  // no rounding left over
  decode_rate(n);
  try_admit(n);
}

void FleetState::turn_end(std::int32_t sid) {
  Session& s = S(sid);
  Node& n = nodes[s.node];
  --n.decoding;
  --n.in_service;
  n.ctx_sum -= s.decode_ctx;
  hbm_end(n, s, sid);
  if (n.in_service == 0) n.hbm_used = 0.0;  // no rounding left over
  ++hour().finished;
  if (cfg.mode == Mode::Trace) {
    ++completed;
    depart(sid);
    return;
  }
  // The output is persisted (the end of the model's output) and the window waits in the pool.
  std::int32_t e = s.hist;
  double old_bytes = 0;
  const double prefix = s.prefix != kNone ? prefix_len[static_cast<std::size_t>(s.prefix)] : 0.0;
  if (e == kNone) {
    e = new_entry(s.node, static_cast<std::uint32_t>(s.history - prefix + s.user), 0, sid);
    s.hist = e;
  } else {
    old_bytes = bytes_of(E(e));
  }
  E(e).tokens += s.out;
  E(e).ready = now;
  E(e).flags |= kPinned;
  persist(n, e, old_bytes);
  E(e).flags &= static_cast<std::uint8_t>(~kPinned);
  maybe_free(e);
  if (cfg.pool_on) pool_insert(n, sid);
  s.history += s.user + s.out;
  ++s.turn;
  if (s.turn < s.turns) {
    ++thinking;
    events.push(now + think_time(s), kTurnArrival, static_cast<std::uint32_t>(sid));
  } else {
    ++completed;
    depart(sid);
  }
}

}  // namespace tierscope::sim
