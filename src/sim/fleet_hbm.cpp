// The fleet's HBM prefix cache (sim/prefix_cache.h, one per node, sized in tokens) in front of its DRAM and
// SSD tiers: a turn's shared prefix and history found still in HBM need no load, the pieces a running turn
// uses are pinned and counted once however many turns share them, and what turns leave behind fills the
// HBM admission leaves free until a new turn needs the room (LRU, a history before the prefix it extends).
#include <algorithm>

#include "sim/fleet_state.h"

namespace tierscope::sim {

using namespace detail;

namespace {
// What a piece is, in its key: a shared prefix, a conversation's history, a trace block.
constexpr std::uint64_t kPrefixTag = 1, kHistoryTag = 2, kBlockTag = 3;
}  // namespace

void FleetState::hbm_chain(const Session& s, std::int32_t) {
  hbm_keys.clear();
  hbm_sizes.clear();
  if (!cfg.hbm_prefix) return;
  std::uint64_t parent = 0;
  if (cfg.mode == Mode::Trace) {
    const Trace& tr = *cfg.trace;
    const std::size_t r = static_cast<std::size_t>(s.request);
    const std::uint32_t first = tr.first[r], last = tr.first[r + 1];
    for (std::uint32_t b = first; b < last; ++b) {
      const double at = static_cast<double>(b - first) * cfg.block_tokens;
      parent = chain_key(parent, chain_key(kBlockTag, tr.ids[b]));
      hbm_keys.push_back(parent);
      hbm_sizes.push_back(std::min<double>(cfg.block_tokens, tr.input[r] - at));
    }
    return;
  }
  double prefix = 0;
  if (s.prefix != kNone) {
    prefix = prefix_len[static_cast<std::size_t>(s.prefix)];
    parent = chain_key(kPrefixTag, static_cast<std::uint64_t>(s.prefix));
    hbm_keys.push_back(parent);
    hbm_sizes.push_back(prefix);
  }
  // The history as it stood before this turn: one piece, replaced by its longer self as each turn ends.
  if (s.history - prefix > 0) {
    hbm_keys.push_back(chain_key(parent, chain_key(chain_key(kHistoryTag, s.serial), s.turn)));
    hbm_sizes.push_back(s.history - prefix);
  }
}

double FleetState::hbm_need(const Session& s, std::int32_t sid) {
  hbm_chain(s, sid);
  if (hbm_keys.empty()) return s.reserved;
  double tokens = 0;
  for (const double t : hbm_sizes) tokens += t;
  // What other running turns hold pinned of its pieces is in HBM once already.
  const double shared = tokens - nodes[s.node].hbm_cache.unpinned(hbm_keys, hbm_sizes);
  return s.reserved - shared * cfg.kv_per_token;
}

std::size_t FleetState::hbm_admit(Node& n, const Session& s, std::int32_t sid) {
  hbm_chain(s, sid);
  if (hbm_keys.empty()) return 0;
  const PrefixMatch m = n.hbm_cache.match(hbm_keys);
  std::size_t in_hbm = m.blocks[0];
  // A history the DRAM and SSD tiers have let go but HBM kept: the turn's chain gets its record back.
  if (cfg.mode == Mode::Synthetic && s.hist == kNone && in_hbm == hbm_keys.size() && in_hbm > chain.size()) {
    const double own = hbm_sizes.back();
    Session& live = S(sid);
    live.hist = new_entry(s.node, static_cast<std::uint32_t>(own), 0, sid);
    chain.push_back(live.hist);
    chain_tokens.push_back(own);
  }
  in_hbm = std::min(in_hbm, chain.size());
  double tokens = 0;
  for (const double t : hbm_sizes) tokens += t;
  // Every piece pinned for the turn (those it computes enter HBM now): the node's HBM counts the turn's own
  // bytes and what its pins took from unpinned, so a piece shared by running turns is counted once.
  const double pinned = n.hbm_cache.acquire(hbm_keys, hbm_sizes);
  const double shared = (tokens - pinned) * cfg.kv_per_token;  // held already by other running turns
  n.hbm_used -= shared;
  hbm.out += shared;
  hbm_trim(n);
  return in_hbm;
}

void FleetState::hbm_end(Node& n, Session& s, std::int32_t sid) {
  hbm_chain(s, sid);
  if (hbm_keys.empty()) {
    n.hbm_used -= s.reserved;
    hbm.out += s.reserved;
    return;
  }
  double tokens = 0;
  for (const double t : hbm_sizes) tokens += t;
  // Its own bytes, and the pieces no other running turn holds (they stay cached, unpinned, until evicted).
  const double freed = s.reserved - tokens * cfg.kv_per_token + n.hbm_cache.release(hbm_keys) * cfg.kv_per_token;
  n.hbm_used -= freed;
  hbm.out += freed;
  if (cfg.mode == Mode::Synthetic) {
    // The history grows by the turn's input and output: its longer self stays in HBM for the next turn.
    const bool had = s.history - (s.prefix != kNone ? prefix_len[static_cast<std::size_t>(s.prefix)] : 0.0) > 0;
    const double own = (had ? hbm_sizes.back() : 0.0) + s.user + s.out;
    const std::uint64_t parent = s.prefix != kNone ? hbm_keys.front() : 0;
    if (had) n.hbm_cache.erase(hbm_keys.back());
    const std::uint64_t next[] = {chain_key(parent, chain_key(chain_key(kHistoryTag, s.serial), s.turn + 1u))};
    const double size[] = {own};
    n.hbm_cache.acquire(next, size);
    n.hbm_cache.release(next);
  }
  hbm_trim(n);
}

void FleetState::hbm_trim(Node& n) {
  if (!(cfg.kv_per_token > 0)) return;
  n.hbm_cache.evict_hbm_to(std::max(0.0, (cfg.hbm_bytes - n.hbm_used) / cfg.kv_per_token));
}

}  // namespace tierscope::sim
