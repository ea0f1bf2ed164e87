// The fleet simulator's state and event loop. Everything is owned by the run: pools of entries and
// sessions reused through free lists, a binary heap of events, intrusive LRU lists for the tiers, rings
// for the admission queues. Once the pools have grown to the run's high-water mark no event allocates.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "model/timing.h"
#include "sim/fleet.h"
#include "sim/detmath.h"
#include "sim/rng.h"

namespace tierscope::sim {

namespace {

constexpr std::int32_t kNone = -1;
constexpr std::uint8_t kInDram = 1, kInSsd = 2, kKeyed = 4, kPinned = 8;  // Entry::flags
constexpr std::uint8_t kLive = 1, kInPool = 2;               // Session::flags
constexpr int kDrainPerCall = 256;  // background eviction: entries a tier drops per write, at most

// ---------------------------------------------------------------------------------------------
// [SECTION] events

// A decode batch's next finish is not an event in the heap: each node keeps its own time (FleetState::step).
enum Kind : std::uint32_t { kSessionArrival, kTraceArrival, kTurnArrival, kFirstToken, kSample };

struct Event {
  double t;
  std::uint32_t a;    // session or request
  std::uint32_t tag;  // arrival order << 3 | kind: equal times are handled first come, first served
};

class EventHeap {
 public:
  bool empty() const { return h_.empty(); }
  const Event& top() const { return h_[0]; }
  std::size_t size() const { return h_.size(); }
  std::size_t bytes() const { return h_.capacity() * sizeof(Event); }
  void push(double t, Kind kind, std::uint32_t a) {
    const Event e{t, a, (seq_++ << 3) | kind};
    std::size_t i = h_.size();
    h_.push_back(e);
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!less(e, h_[p])) break;
      h_[i] = h_[p];
      i = p;
    }
    h_[i] = e;
  }
  void pop() {
    const Event last = h_.back();
    h_.pop_back();
    const std::size_t n = h_.size();
    if (n == 0) return;
    std::size_t i = 0;
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && less(h_[c + 1], h_[c])) ++c;
      if (!less(h_[c], last)) break;
      h_[i] = h_[c];
      i = c;
    }
    h_[i] = last;
  }

 private:
  static bool less(const Event& x, const Event& y) { return x.t < y.t || (x.t == y.t && x.tag < y.tag); }
  std::vector<Event> h_;
  std::uint32_t seq_ = 0;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] pools

// Records addressed by a 32-bit index, stored in fixed pages so that growing never moves (or copies) what
// is already there: a run that grows to millions of records never stalls on a reallocation. Freed records
// are chained through their own `Link` field and reused first.
template <class T, std::int32_t T::*Link>
class Pool {
 public:
  T& operator[](std::int32_t i) { return pages_[static_cast<std::size_t>(i) >> kShift][static_cast<std::size_t>(i) & kMask]; }
  const T& operator[](std::int32_t i) const {
    return pages_[static_cast<std::size_t>(i) >> kShift][static_cast<std::size_t>(i) & kMask];
  }
  std::int32_t alloc() {
    std::int32_t i = free_;
    if (i != kNone) {
      free_ = (*this)[i].*Link;
    } else {
      if ((size_ & kMask) == 0) pages_.push_back(std::make_unique<T[]>(kPage));
      i = static_cast<std::int32_t>(size_++);
    }
    (*this)[i] = T{};
    ++live_;
    return i;
  }
  void free(std::int32_t i) {
    (*this)[i].*Link = free_;
    free_ = i;
    --live_;
  }
  std::size_t live() const { return live_; }
  std::size_t capacity() const { return size_; }
  std::size_t bytes() const { return pages_.size() * kPage * sizeof(T) + pages_.capacity() * sizeof(pages_[0]); }

 private:
  static constexpr std::size_t kShift = 14, kPage = std::size_t{1} << kShift, kMask = kPage - 1;
  std::vector<std::unique_ptr<T[]>> pages_;
  std::size_t size_ = 0, live_ = 0;
  std::int32_t free_ = kNone;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] cache entries and their LRU lists

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

// ---------------------------------------------------------------------------------------------
// [SECTION] sessions and nodes

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
  std::uint32_t user = 0, out = 0;
  std::uint16_t turn = 0, turns = 0;
  std::uint8_t node = 0, flags = 0;
};

struct DecodeItem {
  double target;  // the node's decode clock when this turn's last token is out
  std::int32_t session;
};

// FIFO of waiting sessions; grows by doubling (bounded by queue_max), never shrinks.
struct Ring {
  std::vector<std::int32_t> buf;
  std::size_t head = 0, size = 0;
  void push(std::int32_t v) {
    if (size == buf.size()) {
      std::vector<std::int32_t> next(std::max<std::size_t>(16, buf.size() * 2));
      for (std::size_t i = 0; i < size; ++i) next[i] = buf[(head + i) % buf.size()];
      buf.swap(next);
      head = 0;
    }
    buf[(head + size) % buf.size()] = v;
    ++size;
  }
  std::int32_t front() const { return buf[head]; }
  void pop() {
    head = (head + 1) % buf.size();
    --size;
  }
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
};

// Walker's alias method: O(1) draws from a fixed discrete distribution (the prefixes' Zipf popularity).
struct Alias {
  std::vector<double> prob;
  std::vector<std::uint32_t> alias;
  void build(const std::vector<double>& w) {
    const std::size_t n = w.size();
    prob.assign(n, 1.0);
    alias.assign(n, 0);
    double sum = 0;
    for (double x : w) sum += x;
    std::vector<double> p(n);
    std::vector<std::uint32_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = w[i] * static_cast<double>(n) / sum;
      (p[i] < 1 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::uint32_t s = small.back(), l = large.back();
      small.pop_back();
      prob[s] = p[s];
      alias[s] = l;
      p[l] = (p[l] + p[s]) - 1;
      if (p[l] < 1) {
        large.pop_back();
        small.push_back(l);
      }
    }
  }
  std::uint32_t sample(Rng& r) const {
    const std::uint32_t i = r.below(static_cast<std::uint32_t>(prob.size()));
    return r.uniform() < prob[i] ? i : alias[i];
  }
};

// cos(2π f) from + − × only, so the daily cycle is the same number on every platform.
double cos_turns(double f) {
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

double round_tokens(double x) { return std::floor(x + 0.5); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] the run

struct FleetState {
  FleetConfig cfg;
  TurnObserver obs;
  EventHeap events;
  EntryPool entries;
  Pool<Session, &Session::pnext> sessions;
  std::vector<Node> nodes;
  std::vector<double> prefix_len;
  Alias popularity;
  Rng arrival_rng;
  double rate_max = 0;
  std::uint64_t session_count = 0;
  std::vector<std::int32_t> chain;  // scratch: the entries a turn looks up, root first
  std::vector<double> chain_tokens; // … and the turn's tokens in each
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
  static bool resident(const Entry& e) { return (e.flags & (kInDram | kInSsd)) != 0; }
  // A session's history carries its sliding window when the model keeps the window with the prefix.
  double bytes_of(const Entry& e, double tokens) const {
    return tokens * cfg.kv_per_token + (cfg.window_with_prefix && !(e.flags & kKeyed) && tokens > 0 ? cfg.swa_bytes : 0.0);
  }
  double bytes_of(const Entry& e) const { return bytes_of(e, e.tokens); }

  std::int32_t new_entry(std::uint8_t node, std::uint32_t tokens, std::uint8_t flags, std::int32_t key) {
    const std::int32_t i = entries.alloc();
    Entry& e = E(i);
    e.node = node;
    e.tokens = tokens;
    e.flags = flags;
    e.key = key;
    return i;
  }
  // An entry out of both tiers goes away (unless a turn is working on it): its map slot or its session
  // forgets it.
  void maybe_free(std::int32_t i) {
    Entry& e = E(i);
    if (resident(e) || (e.flags & kPinned)) return;
    if (e.flags & kKeyed) {
      Node& n = nodes[e.node];
      (cfg.mode == Mode::Trace ? n.block_entry : n.prefix_entry)[static_cast<std::size_t>(e.key)] = kNone;
    } else if (e.key != kNone) {
      S(e.key).hist = kNone;
    }
    entries.free(i);
  }

  // --- DRAM tier ---------------------------------------------------------------------------------
  // Room for `bytes` more: past the high watermark the least recently used entries go until the tier is
  // back at the low one. False when the tier cannot hold them at all.
  //
  // Past the high watermark the tier drains toward the low one in the background, as a store's eviction
  // thread does: at most kDrainPerCall entries each time it is written, so no single event stalls on a
  // drain of tens of thousands of entries. It is never let past its capacity.
  bool dram_room(Node& n, double bytes) {
    const double cap = cfg.dram_bytes;
    if (bytes > cap) return false;
    if (n.dram.bytes + bytes > cfg.wm_high * cap) n.dram_draining = true;
    for (int budget = kDrainPerCall; n.dram_draining && budget > 0; --budget) {
      if (n.dram.tail == kNone || n.dram.bytes + bytes <= cfg.wm_low * cap) {
        n.dram_draining = false;
        break;
      }
      dram_evict(n, n.dram.tail);
    }
    while (n.dram.tail != kNone && n.dram.bytes + bytes > cap) dram_evict(n, n.dram.tail);
    return n.dram.bytes + bytes <= cap;
  }
  void dram_evict(Node& n, std::int32_t i) {
    Entry& e = E(i);
    const double bytes = bytes_of(e);
    Dram::unlink(entries, n.dram, i);
    e.flags &= static_cast<std::uint8_t>(~kInDram);
    n.dram.bytes = n.dram.head == kNone ? 0.0 : n.dram.bytes - bytes;
    dram.out += bytes;
    // Write-back: what the SSD copy lacks is written as the entry leaves DRAM.
    if (cfg.ssd_write == model::SsdWrite::Evict) ssd_write(n, i);
    maybe_free(i);
  }
  // Makes the entry (at its current size) present and most recently used in DRAM. Returns the bytes that
  // entered DRAM (0 when it was there, or did not fit).
  double dram_put(Node& n, std::int32_t i, double old_bytes) {
    Entry& e = E(i);
    if (e.flags & kInDram) {
      Dram::to_front(entries, n.dram, i);
      const double grow = bytes_of(e) - old_bytes;
      if (grow <= 0) return 0;
      // Counted at its new size first, so every eviction subtracts what the tier holds. The entry is the
      // most recent: making room evicts it only when nothing else is left.
      n.dram.bytes += grow;
      dram.in += grow;
      dram_room(n, 0);
      if ((E(i).flags & kInDram) && n.dram.bytes > cfg.dram_bytes) dram_evict(n, i);
      return (E(i).flags & kInDram) ? grow : 0.0;
    }
    const double bytes = bytes_of(e);
    if (!dram_room(n, bytes)) return 0;
    Dram::push_front(entries, n.dram, i);
    E(i).flags |= kInDram;
    n.dram.bytes += bytes;
    dram.in += bytes;
    return bytes;
  }

  // --- SSD tier ----------------------------------------------------------------------------------
  bool ssd_room(Node& n, double bytes) {  // drains like dram_room
    const double cap = cfg.ssd_bytes;
    if (bytes > cap) return false;
    if (n.ssd.bytes + bytes > cfg.wm_high * cap) n.ssd_draining = true;
    for (int budget = kDrainPerCall; n.ssd_draining && budget > 0; --budget) {
      if (n.ssd.tail == kNone || n.ssd.bytes + bytes <= cfg.wm_low * cap) {
        n.ssd_draining = false;
        break;
      }
      ssd_drop(n, n.ssd.tail, false);
    }
    while (n.ssd.tail != kNone && n.ssd.bytes + bytes > cap) ssd_drop(n, n.ssd.tail, false);
    return n.ssd.bytes + bytes <= cap;
  }
  void ssd_drop(Node& n, std::int32_t i, bool expired) {
    Entry& e = E(i);
    const double bytes = bytes_of(e, e.ssd_tokens);
    Ssd::unlink(entries, n.ssd, i);
    e.flags &= static_cast<std::uint8_t>(~kInSsd);
    e.ssd_tokens = 0;
    n.ssd.bytes = n.ssd.head == kNone ? 0.0 : n.ssd.bytes - bytes;
    ssd.out += bytes;
    if (expired) hour().bytes_expired += bytes;
    maybe_free(i);
  }
  // Writes what the SSD copy lacks (all of it when there is none): counted for wear and queued on the
  // drives, so a later read waits behind it. Refreshes the retention clock.
  void ssd_write(Node& n, std::int32_t i) {
    if (!(cfg.retention_s > 0)) return;  // nothing would survive: nothing is written
    Entry& e = E(i);
    const double have = (e.flags & kInSsd) ? bytes_of(e, e.ssd_tokens) : 0.0;
    const double want = bytes_of(e);
    const double bytes = want - have;
    if (bytes > 0) {
      if (!ssd_room(n, bytes)) {
        if (E(i).flags & kInSsd) ssd_drop(n, i, false);
        return;
      }
      Entry& f = E(i);
      if (!(f.flags & kInSsd)) {
        // Making room may have dropped this entry's own (older) copy: write it whole.
        const double whole = want;
        if (whole > bytes && !ssd_room(n, whole - bytes)) return;
        Ssd::push_front(entries, n.ssd, i);
        f.flags |= kInSsd;
        n.ssd.bytes += whole;
        ssd.in += whole;
        count_write(n, whole);
      } else {
        n.ssd.bytes += bytes;
        ssd.in += bytes;
        count_write(n, bytes);
      }
      f.ssd_tokens = f.tokens;
    }
    ssd_touch(n, i);
  }
  void count_write(Node& n, double bytes) {
    hour().bytes_ssd_write += bytes;
    n.ssd_free = std::max(n.ssd_free, now) + model::ssd_write_time(cfg.terms, bytes * cfg.ssd_share);
  }
  void ssd_touch(Node& n, std::int32_t i) {
    Entry& e = E(i);
    if (!(e.flags & kInSsd)) return;
    e.touch = now;
    Ssd::to_front(entries, n.ssd, i);
  }
  // SSD entries untouched for the retention time are dropped (the list is in touch order).
  void expire(Node& n) {
    while (n.ssd.tail != kNone && now - E(n.ssd.tail).touch >= cfg.retention_s) ssd_drop(n, n.ssd.tail, true);
  }
  // A new or grown piece of KV leaves HBM for the prefix tiers (the engine persists at the end of the
  // user's input and of the model's output).
  void persist(Node& n, std::int32_t i, double old_bytes) {
    hour().bytes_down += dram_put(n, i, old_bytes);
    if (cfg.ssd_write == model::SsdWrite::Through) ssd_write(n, i);
  }

  // --- SWA pool (sessions) -----------------------------------------------------------------------
  void pool_unlink(Node& n, std::int32_t sid) {
    Session& s = S(sid);
    if (s.pprev != kNone) S(s.pprev).pnext = s.pnext;
    else n.pool_head = s.pnext;
    if (s.pnext != kNone) S(s.pnext).pprev = s.pprev;
    else n.pool_tail = s.pprev;
    s.pprev = s.pnext = kNone;
    s.flags &= static_cast<std::uint8_t>(~kInPool);
    n.pool_count -= 1;
    pool.out += cfg.swa_bytes;
  }
  void pool_drop_oldest(Node& n) {
    const std::int32_t victim = n.pool_tail;
    pool_unlink(n, victim);
    maybe_free_session(victim);
  }
  void pool_insert(Node& n, std::int32_t sid) {  // drains like dram_room
    const double cap = cfg.pool_sessions;
    if (1 > cap) return;
    if (n.pool_count + 1 > cfg.wm_high * cap) n.pool_draining = true;
    for (int budget = kDrainPerCall; n.pool_draining && budget > 0; --budget) {
      if (n.pool_tail == kNone || n.pool_count + 1 <= cfg.wm_low * cap) {
        n.pool_draining = false;
        break;
      }
      pool_drop_oldest(n);
    }
    while (n.pool_tail != kNone && n.pool_count + 1 > cap) pool_drop_oldest(n);
    if (n.pool_count + 1 > cap) return;
    Session& s = S(sid);
    s.pprev = kNone;
    s.pnext = n.pool_head;
    if (n.pool_head != kNone) S(n.pool_head).pprev = sid;
    n.pool_head = sid;
    if (n.pool_tail == kNone) n.pool_tail = sid;
    s.flags |= kInPool;
    n.pool_count += 1;
    pool.in += cfg.swa_bytes;
  }

  // --- sessions ------------------------------------------------------------------------------------
  std::int32_t new_session() {
    return sessions.alloc();
  }
  // A session's record stays while its window is in the pool, after the session itself has left.
  void maybe_free_session(std::int32_t sid) {
    const Session& s = S(sid);
    if ((s.flags & (kLive | kInPool)) == 0) sessions.free(sid);
  }
  void count_area() {
    area += static_cast<double>(in_system) * (now - area_t);
    area_t = now;
  }
  // The session leaves. Its history stays in the tiers (the engine cannot know it will not return) until
  // evicted, owned by nobody.
  void depart(std::int32_t sid) {
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

  int route(Session& s) {
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
  double matched_tokens(const Node& node, const Session& s) {
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

  // --- turns ---------------------------------------------------------------------------------------
  double think_time(Session& s) {
    if (cfg.think_dist == model::ThinkDist::Lognormal) return s.rng.lognormal(cfg.think_mean_s, cfg.think_sigma);
    return s.rng.exponential(cfg.think_mean_s);
  }

  void turn_arrive(std::int32_t sid) {
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
    s.reserved = tokens * cfg.kv_per_token + cfg.swa_bytes;
    s.decode_ctx = s.history + s.user + 0.5 * s.out;
    if (n.queue.size == 0 && n.hbm_used + s.reserved <= cfg.hbm_bytes) {
      admit(sid);
    } else if (n.queue.size >= static_cast<std::size_t>(cfg.queue_max)) {
      ++refused;
      ++hour().refused;
      depart(sid);
    } else {
      n.queue.push(sid);
    }
  }

  void try_admit(Node& n) {
    while (n.queue.size > 0) {
      const std::int32_t sid = n.queue.front();
      if (n.hbm_used + S(sid).reserved > cfg.hbm_bytes) return;
      n.queue.pop();
      admit(sid);
    }
  }

  std::int32_t keyed(Node& n, std::vector<std::int32_t>& map, std::uint32_t id, std::uint8_t node, double tokens) {
    std::int32_t e = map[id];
    if (e == kNone) {
      e = new_entry(node, static_cast<std::uint32_t>(tokens), kKeyed, static_cast<std::int32_t>(id));
      map[id] = e;
    }
    (void)n;
    return e;
  }

  // Looks up the turn's history in the prefix tiers, promotes what it finds (SSD → DRAM → HBM), restores
  // or replays the window, queues the prefill and schedules the first token. Everything a turn does
  // before its first token is known now: the drives, links and prefill servers are first come, first
  // served.
  void admit(std::int32_t sid) {
    Session& s = S(sid);
    Node& n = nodes[s.node];
    HourStats& h = hour();
    n.hbm_used += s.reserved;
    hbm.in += s.reserved;
    ++n.in_service;
    expire(n);

    // What the turn can find, root first: a shared prefix and the session's history, or the request's
    // blocks. Pinned while the turn works on them, so no eviction frees a record under it.
    chain.clear();
    chain_tokens.clear();
    double input = 0, history = 0, prefix_tokens = 0;
    if (cfg.mode == Mode::Trace) {
      const Trace& tr = *cfg.trace;
      const std::size_t r = static_cast<std::size_t>(s.request);
      input = tr.input[r];
      const std::uint32_t first = tr.first[r], last = tr.first[r + 1];
      for (std::uint32_t b = first; b < last; ++b) {
        const double at = static_cast<double>(b - first) * cfg.block_tokens;
        const double tokens = std::min<double>(cfg.block_tokens, input - at);
        chain.push_back(keyed(n, n.block_entry, tr.ids[b], s.node, tokens));
        chain_tokens.push_back(tokens);
      }
    } else {
      history = s.history;
      input = s.history + s.user;
      if (s.prefix != kNone) {
        prefix_tokens = prefix_len[static_cast<std::size_t>(s.prefix)];
        chain.push_back(keyed(n, n.prefix_entry, static_cast<std::uint32_t>(s.prefix), s.node, prefix_tokens));
        chain_tokens.push_back(prefix_tokens);
      }
      if (s.hist != kNone) {
        chain.push_back(s.hist);
        chain_tokens.push_back(E(s.hist).tokens);
      }
    }
    double hit_dram = 0, hit_ssd = 0, bytes_dram = 0, bytes_ssd = 0, ready = now;
    std::size_t hits = 0;
    for (std::size_t k = 0; k < chain.size(); ++k) {
      Entry& x = E(chain[k]);
      x.flags |= kPinned;
      if (hits == k && resident(x)) {  // found, and everything before it was found
        ++hits;
        // The turn's own tokens in this piece (a trace block counts the tokens the request has in it).
        const double tokens = chain_tokens[k];
        if (x.flags & kInDram) {
          hit_dram += tokens;
          bytes_dram += bytes_of(x, tokens);
        } else {
          hit_ssd += tokens;
          bytes_ssd += bytes_of(x, tokens);
        }
        ready = std::max(ready, x.ready);
      }
    }
    const double hit_tokens = hit_dram + hit_ssd;
    const bool full_history = history > 0 && hit_tokens == history;
    const bool resumed = cfg.mode == Mode::Synthetic && s.turn > 0;

    // The window: from the pool when the session was there, else replayed (bounded replay), else it came
    // with the history.
    bool pool_hit = false;
    if (cfg.pool_on && resumed && (s.flags & kInPool)) {
      pool_hit = true;
      pool_unlink(n, sid);
    }
    const bool replay = cfg.pool_on && hit_tokens > 0 && !(pool_hit && full_history);
    double up_bytes = bytes_dram + bytes_ssd;
    if (pool_hit && full_history) up_bytes += cfg.swa_bytes;

    // Promotion: the drives, then this instance's host links, then the prefill.
    std::size_t inst = 0;
    for (std::size_t i = 1; i < n.prefill_free.size(); ++i) {
      if (n.prefill_free[i] < n.prefill_free[inst]) inst = i;
    }
    double staged = now;
    if (bytes_ssd > 0) {
      n.ssd_free = std::max(n.ssd_free, now) + model::ssd_read_time(cfg.terms, bytes_ssd * cfg.ssd_share);
      staged = n.ssd_free;
      h.bytes_ssd_read += bytes_ssd;
    }
    if (up_bytes > 0) {
      n.up_free[inst] = std::max(n.up_free[inst], staged) + model::host_transfer_time(cfg.terms, up_bytes * cfg.kv_share);
      ready = std::max(ready, n.up_free[inst]);
      h.bytes_up += up_bytes;
    }
    const double fresh = input - hit_tokens;
    double work = cfg.prefill(fresh, hit_tokens);
    if (replay) work += cfg.replay(fresh, hit_tokens);
    n.prefill_free[inst] = std::max(n.prefill_free[inst], ready) + work;
    const double first_token = n.prefill_free[inst];

    // What the turn found is most recently used now (an SSD hit is staged through DRAM on its way up), and
    // what it computes is persisted: deepest first, so a history's root is the last of it to go.
    for (std::size_t k = chain.size(); k-- > 0;) {
      const std::int32_t e = chain[k];
      if (k < hits) {
        ssd_touch(n, e);
        dram_put(n, e, bytes_of(E(e)));
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

    // Statistics, in the hour the turn is admitted.
    const double ttft = first_token - s.turn_arrived;
    ++h.turns;
    h.input_tokens += input;
    h.hit_dram_tokens += hit_dram;
    h.hit_ssd_tokens += hit_ssd;
    h.queue_wait_s += now - s.turn_arrived;
    h.ttft_sum_s += ttft;
    h.ttft.add(ttft);
    if (resumed) {
      ++h.resumed;
      if (full_history) ++h.history_hits;
      if (pool_hit) ++h.pool_hits;
    }
    if (replay) ++h.replays;
    if (obs.fn) {
      TurnRecord r;
      r.session = static_cast<std::uint32_t>(sid);
      r.turn = s.turn;
      r.node = s.node;
      r.prefix = s.prefix;
      r.request = s.request;
      r.arrival = s.turn_arrived;
      r.admitted = now;
      r.first_token = first_token;
      r.input_tokens = input;
      r.history_tokens = history;
      r.prefix_tokens = prefix_tokens;
      r.hit_dram_tokens = hit_dram;
      r.hit_ssd_tokens = hit_ssd;
      r.resumed = resumed;
      r.pool_hit = pool_hit;
      r.replayed = replay;
      obs.fn(obs.user, r);
    }
    events.push(first_token, kFirstToken, static_cast<std::uint32_t>(sid));
  }

  // --- decode --------------------------------------------------------------------------------------
  void decode_advance(Node& n) {
    n.v += n.rate * (now - n.v_t);
    n.v_t = now;
  }
  // The batch changed: a new rate, a new time for the first turn to finish, and the earliest over nodes.
  void decode_rate(Node& n) {
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
  static bool dless(const DecodeItem& a, const DecodeItem& b) {
    return a.target < b.target || (a.target == b.target && a.session < b.session);
  }
  void dheap_push(Node& n, DecodeItem it) {
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
  void dheap_pop(Node& n) {
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

  void first_token(std::int32_t sid) {
    Session& s = S(sid);
    Node& n = nodes[s.node];
    decode_advance(n);
    dheap_push(n, DecodeItem{n.v + s.out, sid});
    ++n.decoding;
    n.ctx_sum += s.decode_ctx;
    decode_rate(n);
  }

  // The first decoding turn of a node has its last token (others may end at the same moment).
  void decode_done(Node& n) {
    decode_advance(n);
    // This moment came from the first target, so that turn ends whatever rounding left of its clock
    // (always at least one: the run always moves on); others end with it if they are due within rounding.
    bool first = true;
    while (!n.dheap.empty() && (first || n.dheap[0].target <= n.v + 1e-6 * std::max(1.0, n.dheap[0].target))) {
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

  void turn_end(std::int32_t sid) {
    Session& s = S(sid);
    Node& n = nodes[s.node];
    --n.decoding;
    --n.in_service;
    n.ctx_sum -= s.decode_ctx;
    n.hbm_used = n.in_service == 0 ? 0.0 : n.hbm_used - s.reserved;
    hbm.out += s.reserved;
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

  // --- arrivals --------------------------------------------------------------------------------------
  double rate_at(double t) const {
    return cfg.arrivals * (1 + cfg.day_amp * cos_turns((t / 3600.0 - cfg.day_peak_h) / 24.0));
  }
  // The next arrival of the non-homogeneous Poisson process, by thinning a process at the peak rate.
  void schedule_arrival(double from) {
    double t = from;
    for (;;) {
      t += arrival_rng.exponential(1.0 / rate_max);
      if (t > cfg.horizon_s) return;  // nothing more arrives within the run
      if (cfg.day_amp <= 0 || arrival_rng.uniform() * rate_max <= rate_at(t)) break;
    }
    events.push(t, kSessionArrival, 0);
  }
  std::int32_t arrive(std::int64_t request) {
    count_area();
    ++in_system;
    ++arrived;
    ++hour().arrivals;
    const std::int32_t sid = new_session();
    Session& s = S(sid);
    s.rng = Rng::of(cfg.seed, 16 + session_count++);
    s.arrived = now;
    s.flags = kLive;
    s.request = static_cast<std::int32_t>(request);
    if (cfg.mode == Mode::Synthetic) {
      s.turns = static_cast<std::uint16_t>(s.rng.geometric(cfg.turns_mean, cfg.turns_max));
      if (cfg.prefixes > 0) {
        s.prefix = static_cast<std::int32_t>(popularity.sample(s.rng));
        s.history = prefix_len[static_cast<std::size_t>(s.prefix)];
      }
    } else {
      const Trace& tr = *cfg.trace;
      s.turns = 1;
      s.user = tr.input[static_cast<std::size_t>(request)];
      s.out = tr.output[static_cast<std::size_t>(request)];
    }
    s.node = static_cast<std::uint8_t>(route(s));
    ++nodes[s.node].in_system;
    return sid;
  }

  // --- sampling ----------------------------------------------------------------------------------------
  void sample() {
    Sample x;
    x.t = now;
    for (Node& n : nodes) {
      expire(n);
      x.hbm_bytes += n.hbm_used;
      x.pool_sessions += n.pool_count;
      x.dram_bytes += n.dram.bytes;
      x.ssd_bytes += n.ssd.bytes;
      x.queued += static_cast<std::uint32_t>(n.queue.size);
      x.decoding += n.decoding;
    }
    x.in_system = static_cast<std::uint32_t>(in_system);
    samples.push_back(x);
  }

  // --- the loop ----------------------------------------------------------------------------------------
  // The next event is the heap's first or a decode batch's next finish, whichever is earlier (decode
  // first on a tie: it frees HBM for whatever else happens at that moment).
  bool step() {
    if (finished) return false;
    const double t_heap = events.empty() ? HUGE_VAL : events.top().t;
    const double t = std::min(t_heap, decode_t);
    if (t > cfg.horizon_s) {
      now = cfg.horizon_s;
      count_area();
      finished = true;
      return false;
    }
    now = t;
    ++handled;
    if (decode_t <= t_heap) {
      decode_done(nodes[decode_node]);
      return true;
    }
    const Event e = events.top();
    events.pop();
    switch (static_cast<Kind>(e.tag & 7)) {
      case kSessionArrival: {
        const std::int32_t sid = arrive(-1);
        turn_arrive(sid);
        schedule_arrival(now);
        break;
      }
      case kTraceArrival: {
        const std::int32_t sid = arrive(e.a);
        turn_arrive(sid);
        const std::size_t next = static_cast<std::size_t>(e.a) + 1;
        if (next < cfg.trace->size()) events.push(cfg.trace->arrival_s[next], kTraceArrival, static_cast<std::uint32_t>(next));
        break;
      }
      case kTurnArrival:
        --thinking;
        turn_arrive(static_cast<std::int32_t>(e.a));
        break;
      case kFirstToken: first_token(static_cast<std::int32_t>(e.a)); break;
      case kSample:
        sample();
        events.push(now + cfg.sample_s, kSample, 0);
        break;
    }
    return true;
  }
  double next_time() const { return std::min(events.empty() ? HUGE_VAL : events.top().t, decode_t); }

  void start(const FleetConfig& c, TurnObserver o) {
    cfg = c;
    obs = o;
    const std::size_t hour_count = static_cast<std::size_t>(std::max(1.0, std::ceil(cfg.horizon_s / 3600.0 - 1e-9)));
    hours.assign(hour_count, HourStats{});
    samples.clear();
    samples.reserve(static_cast<std::size_t>(cfg.horizon_s / cfg.sample_s) + 2);
    nodes.assign(static_cast<std::size_t>(cfg.nodes), Node{});
    for (Node& n : nodes) {
      n.prefill_free.assign(static_cast<std::size_t>(std::max(1, cfg.instances)), 0.0);
      n.up_free.assign(n.prefill_free.size(), 0.0);
      if (cfg.mode == Mode::Trace) n.block_entry.assign(cfg.trace->distinct, kNone);
      else n.prefix_entry.assign(static_cast<std::size_t>(cfg.prefixes), kNone);
    }
    if (cfg.mode == Mode::Synthetic && cfg.prefixes > 0) {
      Rng r = Rng::of(cfg.seed, 1);
      prefix_len.resize(static_cast<std::size_t>(cfg.prefixes));
      std::vector<double> w(prefix_len.size());
      for (std::size_t i = 0; i < prefix_len.size(); ++i) {
        const double len = std::max(1.0, round_tokens(r.lognormal(cfg.prefix_mean, cfg.len_sigma)));
        prefix_len[i] = std::min(len, std::floor(cfg.ctx_max / 2));
        w[i] = cfg.zipf > 0 ? det_exp(-cfg.zipf * det_log(static_cast<double>(i + 1))) : 1.0;
      }
      popularity.build(w);
    }
    arrival_rng = Rng::of(cfg.seed, 0);
    rate_max = cfg.arrivals * (1 + cfg.day_amp);
    events.push(0.0, kSample, 0);
    if (cfg.mode == Mode::Trace) {
      if (cfg.trace->size() > 0) events.push(cfg.trace->arrival_s[0], kTraceArrival, 0);
    } else {
      schedule_arrival(0.0);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] public surface

// detmath.h's log and exp: histogram bins match between native and WebAssembly runs.
constexpr double kLn10 = 2.302585092994045684;

namespace {
// The bins' lower edges, computed once; a value's bin is found by binary search (no logarithm per value).
const std::vector<double>& ttft_edges() {
  static const std::vector<double> edges = [] {
    std::vector<double> g(kTtftBins + 1);
    for (int b = 0; b <= kTtftBins; ++b) g[static_cast<std::size_t>(b)] = 1e-5 * det_exp(kLn10 * b / 50.0);
    return g;
  }();
  return edges;
}
}  // namespace

void Histogram::add(double seconds) {
  const std::vector<double>& g = ttft_edges();
  std::size_t lo = 0, hi = kTtftBins;  // g[lo] ≤ seconds < g[hi], clamped to the first and last bins
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (g[mid] <= seconds ? lo : hi) = mid;
  }
  ++bins[lo];
  ++n;
}

void Histogram::merge(const Histogram& o) {
  for (int i = 0; i < kTtftBins; ++i) bins[i] += o.bins[i];
  n += o.n;
}
double Histogram::quantile(double q) const {
  if (n == 0) return 0;
  const double want = q * static_cast<double>(n);
  double seen = 0;
  for (int i = 0; i < kTtftBins; ++i) {
    seen += bins[i];
    if (seen >= want && bins[i] > 0) return 1e-5 * det_exp(kLn10 * (i + 0.5) / 50.0);
  }
  return 1e-5 * det_exp(kLn10 * (kTtftBins - 0.5) / 50.0);
}

FleetSim::FleetSim() = default;
FleetSim::~FleetSim() = default;
FleetSim::FleetSim(FleetSim&&) noexcept = default;
FleetSim& FleetSim::operator=(FleetSim&&) noexcept = default;

void FleetSim::start(const FleetConfig& config, TurnObserver observer) {
  st_ = std::make_unique<FleetState>();
  st_->start(config, observer);
}

std::uint64_t FleetSim::run_events(std::uint64_t max_events) {
  if (!st_) return 0;
  std::uint64_t k = 0;
  while (k < max_events && st_->step()) ++k;
  return k;
}

std::uint64_t FleetSim::run_until(double t) {
  if (!st_) return 0;
  std::uint64_t k = 0;
  while (!st_->finished && st_->next_time() <= t && st_->step()) ++k;
  if (!st_->finished && t >= st_->cfg.horizon_s) st_->step();  // closes the run
  return k;
}

std::size_t FleetSim::memory_bytes() const {
  if (!st_) return 0;
  const FleetState& s = *st_;
  std::size_t b = sizeof(FleetState) + s.entries.bytes() + s.sessions.bytes() + s.events.bytes();
  b += s.hours.capacity() * sizeof(HourStats) + s.samples.capacity() * sizeof(Sample) + s.prefix_len.capacity() * sizeof(double);
  b += s.chain.capacity() * sizeof(std::int32_t) + s.chain_tokens.capacity() * sizeof(double);
  b += s.popularity.prob.capacity() * sizeof(double) + s.popularity.alias.capacity() * sizeof(std::uint32_t);
  for (const Node& n : s.nodes) {
    b += sizeof(Node) + n.queue.buf.capacity() * sizeof(std::int32_t) + n.dheap.capacity() * sizeof(DecodeItem);
    b += (n.prefix_entry.capacity() + n.block_entry.capacity()) * sizeof(std::int32_t) + 2 * n.prefill_free.capacity() * sizeof(double);
  }
  return b;
}

bool FleetSim::done() const { return !st_ || st_->finished; }
double FleetSim::now() const { return st_ ? st_->now : 0.0; }

FleetResult FleetSim::result() const {
  FleetResult r;
  if (!st_) return r;
  const FleetState& s = *st_;
  const FleetConfig& c = s.cfg;
  r.mode = c.mode;
  r.scenario = c.scenario;
  r.horizon_s = c.horizon_s;
  r.t = s.now;
  r.seed = c.seed;
  r.nodes = c.nodes;
  r.instances = c.instances;
  r.hbm_bytes = c.hbm_bytes;
  r.pool_sessions = c.pool_sessions;
  r.dram_bytes = c.dram_bytes;
  r.ssd_bytes = c.ssd_bytes;
  r.retention_s = c.retention_s;
  r.pool_on = c.pool_on;
  r.arrivals = c.mode == Mode::Synthetic ? c.arrivals : 0.0;
  r.arrivals_limit = c.arrivals_limit;
  r.sessions_arrived = s.arrived;
  r.sessions_refused = s.refused;
  r.sessions_finished = s.completed;
  r.sessions_ctx_full = s.ctx_full;
  r.sessions_in_flight = s.in_system;
  r.turns_thinking = s.thinking;
  r.events = s.handled;
  r.hbm = s.hbm;
  r.pool = s.pool;
  r.dram = s.dram;
  r.ssd = s.ssd;
  r.hbm.resident = r.pool.resident = r.dram.resident = r.ssd.resident = 0;
  for (const Node& n : s.nodes) {
    r.hbm.resident += n.hbm_used;
    r.pool.resident += n.pool_count * c.swa_bytes;
    r.dram.resident += n.dram.bytes;
    r.ssd.resident += n.ssd.bytes;
    r.turns_queued += n.queue.size;
    r.turns_in_service += n.in_service;
  }
  const double elapsed = s.now;
  const double area = s.area + static_cast<double>(s.in_system) * (s.now - s.area_t);
  r.sessions_mean = elapsed > 0 ? area / elapsed : 0.0;
  r.arrival_rate = elapsed > 0 ? static_cast<double>(s.arrived) / elapsed : 0.0;
  r.sojourn_mean_s = s.departed > 0 ? s.sojourn_sum / static_cast<double>(s.departed) : 0.0;
  r.hours = s.hours;
  for (const HourStats& h : s.hours) {
    HourStats& t = r.total;
    t.arrivals += h.arrivals;
    t.refused += h.refused;
    t.turns += h.turns;
    t.finished += h.finished;
    t.resumed += h.resumed;
    t.history_hits += h.history_hits;
    t.pool_hits += h.pool_hits;
    t.replays += h.replays;
    t.input_tokens += h.input_tokens;
    t.hit_dram_tokens += h.hit_dram_tokens;
    t.hit_ssd_tokens += h.hit_ssd_tokens;
    t.bytes_ssd_read += h.bytes_ssd_read;
    t.bytes_ssd_write += h.bytes_ssd_write;
    t.bytes_up += h.bytes_up;
    t.bytes_down += h.bytes_down;
    t.bytes_expired += h.bytes_expired;
    t.queue_wait_s += h.queue_wait_s;
    t.ttft_sum_s += h.ttft_sum_s;
    t.ttft.merge(h.ttft);
  }
  r.samples = s.samples;
  const double days = elapsed / 86400.0;
  r.ssd_write_bytes_per_day = days > 0 ? r.total.bytes_ssd_write / c.nodes / days : 0.0;
  r.ssd_dwpd = c.ssd_capacity_bytes > 0 ? r.ssd_write_bytes_per_day / c.ssd_capacity_bytes : 0.0;
  r.ssd_rated_dwpd = c.ssd_rated_dwpd;
  if (c.mode == Mode::Trace && c.trace) {
    const TraceBound b = trace_prefix_bound(*c.trace, c.block_tokens);
    r.has_bound = true;
    r.bound_hit_tokens = b.hit_tokens;
    r.bound_input_tokens = b.input_tokens;
  }
  return r;
}

FleetResult run_fleet(const FleetConfig& config, TurnObserver observer) {
  FleetSim sim;
  sim.start(config, observer);
  while (sim.run_events(1u << 20) > 0) {
  }
  return sim.result();
}

}  // namespace tierscope::sim
