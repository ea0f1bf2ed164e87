// The prefix cache's bookkeeping (src/sim/prefix_cache.h): a shared prefix stored once, LRU eviction of
// unpinned blocks only (a chain's tail first), write-through to the tiers below and hits served from the
// highest tier that holds them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "sim/prefix_cache.h"

using tierscope::sim::CacheTier;
using tierscope::sim::chain_key;
using tierscope::sim::PrefixCache;
using tierscope::sim::PrefixCacheConfig;

namespace {

// A chain of `shared` blocks of prefix `p` followed by `own` blocks of request `r`.
std::vector<std::uint64_t> chain(std::uint64_t p, int shared, std::uint64_t r, int own) {
  std::vector<std::uint64_t> keys;
  std::uint64_t parent = 0;
  for (int i = 0; i < shared + own; ++i) {
    const std::uint64_t part = i < shared ? chain_key(1, p) : chain_key(3, r);
    parent = chain_key(parent, chain_key(part, static_cast<std::uint64_t>(i)));
    keys.push_back(parent);
  }
  return keys;
}

double sz(const std::vector<std::uint64_t>& keys) { return static_cast<double>(keys.size()); }

}  // namespace

TEST_CASE("prefix cache — K requests sharing a system prompt hold one copy of it plus their own blocks", "[prefix_cache]") {
  PrefixCache c;
  constexpr int kShared = 256, kOwn = 64, kRequests = 8;
  for (int r = 0; r < kRequests; ++r) c.acquire(chain(7, kShared, static_cast<std::uint64_t>(r), kOwn));
  CHECK(c.hbm_blocks() == kShared + kRequests * kOwn);
  CHECK(c.pinned_blocks() == kShared + kRequests * kOwn);
  CHECK(c.users(chain(7, kShared, 0, 0).back()) == kRequests);
  // A ninth request finds the whole shared prompt in HBM and nothing of its own.
  const auto m = c.match(chain(7, kShared, 99, kOwn));
  CHECK(m.blocks[0] == kShared);
  CHECK(m.total() == kShared);
  // Another prefix shares nothing: a block's key stands for everything before it.
  CHECK(c.match(chain(8, kShared, 0, kOwn)).total() == 0);
}

TEST_CASE("prefix cache — LRU evicts the least recently released block, a chain's tail first, never a pinned one", "[prefix_cache]") {
  PrefixCache c;
  const auto a = chain(1, 4, 10, 2), b = chain(2, 4, 20, 2), pinned = chain(3, 4, 30, 2);
  c.acquire(a);
  c.acquire(b);
  c.acquire(pinned);
  CHECK(c.release(a) == sz(a));
  CHECK(c.release(b) == sz(b));
  // a went first: its tail (its own last block) is the least recent of all, then its tail's parent.
  CHECK(c.evict_hbm_to(sz(a) + sz(b) - 1) == 1);
  CHECK_FALSE(c.holds(a.back(), CacheTier::Hbm));
  CHECK(c.holds(a.front(), CacheTier::Hbm));
  CHECK(c.holds(b.back(), CacheTier::Hbm));
  // Asked to keep no unpinned block at all, it drops every one of a and b, and every pinned block stays.
  CHECK(c.evict_hbm_to(0) == a.size() + b.size() - 1);
  for (const std::uint64_t k : pinned) CHECK(c.holds(k, CacheTier::Hbm));
  CHECK(c.hbm_blocks() == sz(pinned));
  CHECK(c.match(a).total() == 0);
  // A block used again is the most recent: b's root, pinned then released, outlives a's root.
  PrefixCache d;
  d.acquire(a);
  d.acquire(b);
  d.release(a);
  d.release(b);
  d.acquire(std::vector<std::uint64_t>{a.front()});
  d.release(std::vector<std::uint64_t>{a.front()});
  d.evict_hbm_to(1);
  CHECK(d.holds(a.front(), CacheTier::Hbm));
  CHECK(d.hbm_blocks() == 1);
}

TEST_CASE("prefix cache — blocks HBM evicted are hits from DRAM, and from SSD once DRAM lost them too", "[prefix_cache]") {
  PrefixCacheConfig cfg;
  cfg.dram_blocks = 8;
  cfg.ssd_blocks = 64;
  PrefixCache c(cfg);
  const auto sys = chain(5, 6, 1, 0);
  c.acquire(sys);
  c.release(sys);
  c.evict_hbm_to(0);
  auto m = c.match(sys);
  CHECK(m.blocks[0] == 0);
  CHECK(m.blocks[1] == sys.size());  // written through to DRAM as it entered HBM
  // Other requests' blocks push it out of the small DRAM tier; the SSD keeps it.
  const auto other = chain(6, 8, 2, 0);
  c.acquire(other);
  c.release(other);
  m = c.match(sys);
  CHECK(m.blocks[1] == 0);
  CHECK(m.blocks[2] == sys.size());
  // Pinned again it is promoted to HBM (and refreshed below).
  CHECK(c.acquire(sys) == sz(sys));
  CHECK(c.match(sys).blocks[0] == sys.size());
  // With no tier below HBM, what HBM evicted is gone.
  PrefixCache hbm_only;
  hbm_only.acquire(sys);
  hbm_only.release(sys);
  hbm_only.evict_hbm_to(0);
  CHECK(hbm_only.match(sys).total() == 0);
}

TEST_CASE("prefix cache — a pin counts what it takes from unpinned, a release what it gives back", "[prefix_cache]") {
  PrefixCache c;
  const auto x = chain(1, 3, 1, 1), y = chain(1, 3, 2, 1);
  CHECK(c.unpinned(x) == sz(x));
  CHECK(c.acquire(x) == 4);
  CHECK(c.unpinned(y) == 1);  // its shared three are pinned by x already
  CHECK(c.acquire(y) == 1);
  CHECK(c.release(x) == 1);   // the shared blocks are still y's
  CHECK(c.pinned_blocks() == 4);
  CHECK(c.release(y) == 4);
  CHECK(c.pinned_blocks() == 0);
  CHECK(c.hbm_blocks() == 5);
}
