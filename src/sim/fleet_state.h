// The fleet simulator's state (internal to src/sim): cache entries and their LRU lists, sessions, nodes,
// and FleetState with its operations, defined in fleet_tiers.cpp (the prefix tiers and the SWA pool),
// fleet_turns.cpp (a turn from arrival to its last token) and fleet_sim.cpp (arrivals, the event loop).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/containers.h"
#include "sim/fleet.h"
#include "sim/prefix_cache.h"
#include "sim/rng.h"

namespace tierscope::sim {

namespace detail {

constexpr std::uint8_t kInDram = 1, kInSsd = 2, kKeyed = 4, kPinned = 8;  // Entry::flags
constexpr std::uint8_t kLive = 1, kInPool = 2;               // Session::flags
constexpr int kDrainPerCall = 256;  // background eviction: entries a tier drops per write, at most

// A decode batch's next finish is not an event in the heap: each node keeps its own time (FleetState::step).
enum Kind : std::uint32_t { kSessionArrival, kTraceArrival, kTurnArrival, kFirstToken, kSample };

// A persisted piece of KV in the prefix tiers. Keyed entries are a shared prefix or a trace block, found
// through a per-node map; a session entry is one conversation's own history (everything after its shared
// prefix), grown at the end of each input and each output as the engine persists them. A session's
// history is one unit: a later turn finds all of it or none (DeepSeek's rule: a hit needs a whole
// persisted unit), and only after the shared prefix it extends.
struct Entry {
  double touch = 0;   // last write or hit: the SSD copy expires retention_s after it
  double ready = 0;   // when the KV exists: the prefill that produces it ends then
  std::int32_t dprev = kNone, dnext = kNone, sprev = kNone, snext = kNone;
  std::int32_t key = kNone;      // keyed: prefix or block id; session entry: its live session, or none
  std::uint32_t tokens = 0;      // tokens held
  std::uint32_t ssd_tokens = 0;  // tokens the SSD copy holds (behind `tokens` until written)
  std::uint8_t flags = 0;
  std::uint8_t node = 0;
};

struct List {
  std::int32_t head = kNone, tail = kNone;  // head: most recently used
  double bytes = 0;
};

using EntryPool = Pool<Entry, &Entry::key>;

template <std::int32_t Entry::*Prev, std::int32_t Entry::*Next>
struct Links {
  static void push_front(EntryPool& es, List& l, std::int32_t i) {
    Entry& e = es[i];
    e.*Prev = kNone;
    e.*Next = l.head;
    if (l.head != kNone) es[l.head].*Prev = i;
    l.head = i;
    if (l.tail == kNone) l.tail = i;
  }
  static void unlink(EntryPool& es, List& l, std::int32_t i) {
    Entry& e = es[i];
    if (e.*Prev != kNone) es[e.*Prev].*Next = e.*Next;
    else l.head = e.*Next;
    if (e.*Next != kNone) es[e.*Next].*Prev = e.*Prev;
    else l.tail = e.*Prev;
    e.*Prev = e.*Next = kNone;
  }
  static void to_front(EntryPool& es, List& l, std::int32_t i) {
    if (l.head == i) return;
    unlink(es, l, i);
    push_front(es, l, i);
  }
};
using Dram = Links<&Entry::dprev, &Entry::dnext>;
using Ssd = Links<&Entry::sprev, &Entry::snext>;

struct Session {
  Rng rng;
  double arrived = 0, turn_arrived = 0;
  double history = 0;     // tokens before this turn's new prompt (a shared prefix counts)
  double reserved = 0;    // HBM bytes this turn holds from admission to its last token
  double decode_ctx = 0;  // mean context while it decodes
  std::int32_t hist = kNone;     // its history entry
  std::int32_t prefix = kNone;   // shared prefix id
  std::int32_t pprev = kNone, pnext = kNone;  // SWA pool links (head: most recent)
  std::int32_t request = kNone;  // trace mode
  std::uint64_t serial = 0;      // the run's count of sessions when it arrived: its history's key in HBM
  std::uint32_t user = 0, out = 0;
  std::uint16_t turn = 0, turns = 0;
  std::uint8_t node = 0, flags = 0;
};

struct DecodeItem {
  double target;  // the node's decode clock when this turn's last token is out
  std::int32_t session;
};


struct Node {
  double hbm_used = 0;
  List dram, ssd;
  std::int32_t pool_head = kNone, pool_tail = kNone;
  double pool_count = 0;
  bool dram_draining = false, ssd_draining = false, pool_draining = false;  // evicting toward the low watermark
  double ssd_free = 0;                 // the drives are busy until then (reads and writes, FIFO)
  std::vector<double> prefill_free;    // per instance
  std::vector<double> up_free;         // per instance: its GPUs' host links
  Ring queue;
  std::uint32_t in_system = 0, decoding = 0, in_service = 0;
  // Decode: every decoding turn gains one token per step, so one clock `v` (tokens per session since the
  // start) advances at the batch's rate and a turn ends when v reaches its target.
  double v = 0, v_t = 0, rate = 0, ctx_sum = 0;
  double next_done = HUGE_VAL;  // when the first decoding turn ends at the current rate
  std::vector<DecodeItem> dheap;
  std::vector<std::int32_t> prefix_entry;  // prefix id → entry
  std::vector<std::int32_t> block_entry;   // dense trace block id → entry
  PrefixCache hbm_cache;                   // the HBM prefix cache, in tokens (fleet_hbm.cpp)
};

// cos(2π f) from + − × only, so the daily cycle is the same number on every platform.
inline double cos_turns(double f) {
  f -= std::floor(f);
  if (f > 0.5) f = 1 - f;  // cos is even about a whole turn
  double sign = 1;
  if (f > 0.25) {
    f = 0.5 - f;
    sign = -1;
  }
  const double x = 6.283185307179586 * f;  // 0 ≤ x ≤ π/2: the Taylor series to x^22 is exact to 1e-16
  const double x2 = x * x;
  double term = 1, sum = 1;
  for (int k = 1; k <= 11; ++k) {
    term *= -x2 / ((2.0 * k - 1) * (2.0 * k));
    sum += term;
  }
  return sign * sum;
}

inline double round_tokens(double x) { return std::floor(x + 0.5); }

}  // namespace detail

struct FleetState {
  // The parts above, by their own names in the state's members (the .cpp files read all of detail).
  using Entry = detail::Entry;
  using EntryPool = detail::EntryPool;
  using Session = detail::Session;
  using Node = detail::Node;
  using DecodeItem = detail::DecodeItem;

  FleetConfig cfg;
  TurnObserver obs;
  detail::EventHeap events;
  EntryPool entries;
  detail::Pool<Session, &Session::pnext> sessions;
  std::vector<Node> nodes;
  std::vector<double> prefix_len;
  detail::Alias popularity;
  Rng arrival_rng;
  double rate_max = 0;
  std::uint64_t session_count = 0;
  std::vector<std::int32_t> chain;  // scratch: the entries a turn looks up, root first
  std::vector<double> chain_tokens; // … and the turn's tokens in each
  std::vector<std::uint64_t> hbm_keys;  // scratch: the same pieces' keys in the HBM prefix cache
  std::vector<double> hbm_sizes;        // … and their tokens there
  std::size_t decode_node = 0;      // the node whose decode batch finishes a turn first
  double decode_t = HUGE_VAL;       // … and when

  double now = 0;
  bool finished = false;
  std::uint64_t handled = 0;
  std::vector<HourStats> hours;
  std::vector<Sample> samples;
  TierFlow hbm, pool, dram, ssd;
  std::uint64_t arrived = 0, departed = 0, refused = 0, ctx_full = 0, completed = 0;
  std::uint64_t in_system = 0, thinking = 0;
  double area = 0, area_t = 0, sojourn_sum = 0;

  // The hour `now` falls in (the last one holds anything at the very end of the run).
  std::size_t hour_i = 0;
  double hour_end = 3600;
  HourStats& hour() {
    while (now >= hour_end && hour_i + 1 < hours.size()) {
      ++hour_i;
      hour_end += 3600;
    }
    return hours[hour_i];
  }

  // --- entries ---------------------------------------------------------------------------------
  Entry& E(std::int32_t i) { return entries[i]; }
  Session& S(std::int32_t i) { return sessions[i]; }
  static bool resident(const Entry& e) { return (e.flags & (detail::kInDram | detail::kInSsd)) != 0; }
  // A session's history carries its sliding window when the model keeps the window with the prefix; a
  // hybrid model's cached entry keeps the recurrent state's checkpoint at its end once it spans an interval.
  double bytes_of(const Entry& e, double tokens) const {
    return tokens * cfg.kv_per_token + (cfg.window_with_prefix && !(e.flags & detail::kKeyed) && tokens > 0 ? cfg.swa_bytes : 0.0) +
           (cfg.ckpt_bytes > 0 && tokens >= cfg.ckpt_tokens ? cfg.ckpt_bytes : 0.0);
  }
  double bytes_of(const Entry& e) const { return bytes_of(e, e.tokens); }

  std::int32_t new_entry(std::uint8_t node, std::uint32_t tokens, std::uint8_t flags, std::int32_t key);
  // An entry out of both tiers goes away (unless a turn is working on it): its map slot or its session
  // forgets it.
  void maybe_free(std::int32_t i);

  // --- DRAM tier ---------------------------------------------------------------------------------
  // Room for `bytes` more. Past the high watermark the tier drains its least recently used entries toward
  // the low one in the background, as a store's eviction thread does: at most kDrainPerCall each time it is
  // written, so no single event stalls on a drain of tens of thousands of entries. It is never let past its
  // capacity. False when the tier cannot hold the bytes at all.
  bool dram_room(Node& n, double bytes);
  void dram_evict(Node& n, std::int32_t i);
  // Makes the entry (at its current size) present and most recently used in DRAM. Returns the bytes that
  // entered DRAM (0 when it was there, or did not fit).
  double dram_put(Node& n, std::int32_t i, double old_bytes);

  // --- SSD tier ----------------------------------------------------------------------------------
  bool ssd_room(Node& n, double bytes);  // drains like dram_room
  void ssd_drop(Node& n, std::int32_t i, bool expired);
  // Writes what the SSD copy lacks (all of it when there is none): counted for wear and queued on the
  // drives, so a later read waits behind it. Refreshes the retention clock.
  void ssd_write(Node& n, std::int32_t i);
  void count_write(Node& n, double bytes);
  void ssd_touch(Node& n, std::int32_t i);
  // SSD entries untouched for the retention time are dropped (the list is in touch order).
  void expire(Node& n);
  // A new or grown piece of KV leaves HBM for the prefix tiers (the engine persists at the end of the
  // user's input and of the model's output).
  void persist(Node& n, std::int32_t i, double old_bytes);

  // --- SWA pool (sessions) -----------------------------------------------------------------------
  void pool_unlink(Node& n, std::int32_t sid);
  void pool_drop_oldest(Node& n);
  void pool_insert(Node& n, std::int32_t sid);  // drains like dram_room

  // --- sessions ------------------------------------------------------------------------------------
  std::int32_t new_session();
  // A session's record stays while its window is in the pool, after the session itself has left.
  void maybe_free_session(std::int32_t sid);
  void count_area();
  // The session leaves. Its history stays in the tiers (the engine cannot know it will not return) until
  // evicted, owned by nobody.
  void depart(std::int32_t sid);

  // The node a new session goes to (the router), and the tokens of its start a node already holds.
  int route(Session& s);
  double matched_tokens(const Node& node, const Session& s);

  // --- turns ---------------------------------------------------------------------------------------
  double think_time(Session& s);
  // A turn arrives: its lengths are drawn (cut to the context left), then it is admitted, queued for HBM or,
  // past queue_max, refused with its session.
  void turn_arrive(std::int32_t sid);
  // Admits waiting turns, first come first served, while HBM has room for the first.
  void try_admit(Node& n);
  // The entry of a shared prefix or trace block (made, out of every tier, if the node has none).
  std::int32_t keyed(std::vector<std::int32_t>& map, std::uint32_t id, std::uint8_t node, double tokens);

  // Looks up the turn's history in the prefix tiers, promotes what it finds (SSD → DRAM → HBM), restores
  // or replays the window, queues the prefill and schedules the first token. Everything a turn does
  // before its first token is known now: the drives, links and prefill servers are first come, first
  // served.
  void admit(std::int32_t sid);
  // admit's steps, in order. What the turn looks up (into chain, chain_tokens), root first.
  struct TurnInput {
    double input = 0, history = 0, prefix_tokens = 0;
  };
  TurnInput gather_chain(const Session& s, Node& n);
  // What of the chain is resident, counted up to the first piece that is not (pins every piece).
  struct Found {
    double hit_hbm = 0, hit_dram = 0, hit_ssd = 0, bytes_dram = 0, bytes_ssd = 0, ready = 0;
    std::size_t hits = 0;
    double tokens() const { return hit_hbm + hit_dram + hit_ssd; }
  };
  // `in_hbm`: the chain's first pieces the HBM prefix cache holds (found there, nothing to load).
  Found find_hits(std::size_t in_hbm = 0);

  // --- the HBM prefix cache (fleet_hbm.cpp) -----------------------------------------------------------
  // The keys of a turn's pieces in HBM (into hbm_keys, hbm_sizes): its shared prefix and its history as
  // it stood before this turn, or its trace blocks, each chained to the ones before it.
  void hbm_chain(const Session& s, std::int32_t sid);
  // HBM bytes a turn needs beyond what other turns hold pinned of its pieces (shared ones count once).
  double hbm_need(const Session& s, std::int32_t sid);
  // Admission: the chain's pieces found in HBM (counted from the root), then every piece pinned for the turn;
  // the node's HBM counts the turn's own bytes and the pieces newly pinned.
  std::size_t hbm_admit(Node& n, const Session& s, std::int32_t sid);
  // The turn's end: its pieces let go, its grown history left in HBM as its next turn's, HBM evicted to what
  // the running turns leave free.
  void hbm_end(Node& n, Session& s, std::int32_t sid);
  void hbm_trim(Node& n);
  // The drives, then the least busy instance's host links, then its prefill: when the first token is out.
  double promote_and_prefill(Node& n, const Found& f, double up_bytes, double fresh, bool replay, HourStats& h);
  // Found pieces become most recent; computed ones (and a synthetic session's new tokens) are persisted,
  // deepest first; then every piece is unpinned.
  void settle_chain(Session& s, std::int32_t sid, Node& n, std::size_t hits, double prefix_tokens, double first_token);
  void report_turn(const Session& s, std::int32_t sid, const TurnInput& in, const Found& f, bool pool_hit, bool replay, double first_token);

  // --- decode --------------------------------------------------------------------------------------
  void decode_advance(Node& n);
  // The batch changed: a new rate, a new time for the first turn to finish, and the earliest over nodes.
  void decode_rate(Node& n);
  static bool dless(const DecodeItem& a, const DecodeItem& b);
  void dheap_push(Node& n, DecodeItem it);
  void dheap_pop(Node& n);

  // The prefill is done: the turn joins its node's decode batch.
  void first_token(std::int32_t sid);
  // The first decoding turn of a node has its last token (others may end at the same moment).
  void decode_done(Node& n);
  // HBM is freed, the output persisted, the window put in the pool; the next turn is scheduled after a
  // think time, or the session leaves.
  void turn_end(std::int32_t sid);

  // --- arrivals --------------------------------------------------------------------------------------
  double rate_at(double t) const;
  // The next arrival of the non-homogeneous Poisson process, by thinning a process at the peak rate.
  void schedule_arrival(double from);
  std::int32_t arrive(std::int64_t request);

  // --- sampling ----------------------------------------------------------------------------------------
  void sample();

  // --- the loop ----------------------------------------------------------------------------------------
  // The next event is the heap's first or a decode batch's next finish, whichever is earlier (decode
  // first on a tie: it frees HBM for whatever else happens at that moment).
  bool step();
  double next_time() const { return std::min(events.empty() ? HUGE_VAL : events.top().t, decode_t); }

  void start(const FleetConfig& c, TurnObserver o);
};

}  // namespace tierscope::sim
