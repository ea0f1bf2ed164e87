// The prefix tiers and the SWA pool: entries, DRAM and SSD with LRU order, watermarks drained in the
// background, write-through or write-back, retention; the pool of idle sessions' windows.
#include <algorithm>

#include "roofline/timing.h"
#include "sim/fleet_state.h"

namespace tierscope::sim {

// The simulator's internal parts (fleet_state.h) by their own names.
using namespace detail;

std::int32_t FleetState::new_entry(std::uint8_t node, std::uint32_t tokens, std::uint8_t flags, std::int32_t key) {
  const std::int32_t i = entries.alloc();
  Entry& e = E(i);
  e.node = node;
  e.tokens = tokens;
  e.flags = flags;
  e.key = key;
  return i;
}

void FleetState::maybe_free(std::int32_t i) {
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

bool FleetState::dram_room(Node& n, double bytes) {
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

void FleetState::dram_evict(Node& n, std::int32_t i) {
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

double FleetState::dram_put(Node& n, std::int32_t i, double old_bytes) {
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

bool FleetState::ssd_room(Node& n, double bytes) {
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

void FleetState::ssd_drop(Node& n, std::int32_t i, bool expired) {
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

void FleetState::ssd_write(Node& n, std::int32_t i) {
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

void FleetState::count_write(Node& n, double bytes) {
  hour().bytes_ssd_write += bytes;
  n.ssd_free = std::max(n.ssd_free, now) + model::ssd_write_time(cfg.terms, bytes * cfg.ssd_share);
}

void FleetState::ssd_touch(Node& n, std::int32_t i) {
  Entry& e = E(i);
  if (!(e.flags & kInSsd)) return;
  e.touch = now;
  Ssd::to_front(entries, n.ssd, i);
}

void FleetState::expire(Node& n) {
  while (n.ssd.tail != kNone && now - E(n.ssd.tail).touch >= cfg.retention_s) ssd_drop(n, n.ssd.tail, true);
}

void FleetState::persist(Node& n, std::int32_t i, double old_bytes) {
  hour().bytes_down += dram_put(n, i, old_bytes);
  if (cfg.ssd_write == model::SsdWrite::Through) ssd_write(n, i);
}

void FleetState::pool_unlink(Node& n, std::int32_t sid) {
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

void FleetState::pool_drop_oldest(Node& n) {
  const std::int32_t victim = n.pool_tail;
  pool_unlink(n, victim);
  maybe_free_session(victim);
}

void FleetState::pool_insert(Node& n, std::int32_t sid) {
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

}  // namespace tierscope::sim
