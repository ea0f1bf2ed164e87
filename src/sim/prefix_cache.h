// A prefix cache as the serving engines keep one: KV in blocks of the engine's page, each found by its
// chain key (a block's key stands for every token up to its end, so two prompts share a block only when
// they share everything before it), a block shared by several requests stored once with a count of its
// users, and tiers HBM ⊂ host DRAM ⊂ SSD. Pure bookkeeping in blocks: the caller says what HBM has room
// for and times the moves (roofline/offload.h); `serve` and `fleet` both keep their prefix caches here.
//
// The policy, and which engine each part follows:
// - HBM: a block a running request uses is pinned; when its last user lets go it stays, evictable, and
//   HBM evicts the least recently released unpinned block first (vLLM's free-block queue, SGLang's LRU
//   over radix leaves). A request releases its chain leaf first, so its tail goes before the prefix that
//   others share (vLLM evicts a request's tail blocks first).
// - DRAM and SSD: every block that enters HBM is written to DRAM and to SSD at once (write-through: SGLang
//   HiCache's write_through, vLLM's OffloadingConnector storing each finished block, LMCache storing to
//   every backend), each tier LRU by its own capacity (LMCache's LRU per tier). A hit anywhere refreshes
//   the block in every tier that holds it; a lower-tier hit is promoted into HBM.
// - A hit is the longest run of the chain present in some tier, each block served from the highest tier
//   that holds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tierscope::sim {

enum class CacheTier : std::uint8_t { Hbm, Dram, Ssd, Count };
constexpr int kCacheTiers = static_cast<int>(CacheTier::Count);

// Sizes are in the caller's unit: blocks of one page (every block 1, the default), or tokens where the
// caller's blocks differ in length (the fleet's shared prefixes, conversations' turns and trace blocks).
struct PrefixCacheConfig {
  // What each tier below HBM holds (0: the tier is off). HBM's room changes with admission: the caller
  // sets it with evict_hbm_to.
  double dram_blocks = 0, ssd_blocks = 0;
};

// The start of a chain found in the cache: blocks[t] of them served from tier t (in chain order the HBM
// ones need not come first: a block evicted from HBM but kept below sits between HBM hits).
struct PrefixMatch {
  std::size_t blocks[kCacheTiers] = {};
  std::size_t total() const { return blocks[0] + blocks[1] + blocks[2]; }
};

// A chain key: the parent's key and the block's own content (what the engines hash a block's tokens with).
std::uint64_t chain_key(std::uint64_t parent, std::uint64_t content);

class PrefixCache {
 public:
  PrefixCache() = default;
  explicit PrefixCache(PrefixCacheConfig c);

  // The longest start of `keys` present in some tier (nothing is changed).
  PrefixMatch match(std::span<const std::uint64_t> keys) const;
  // Of the keys, how much a pin would take from unpinned (blocks absent, below HBM or unpinned in HBM): the
  // HBM a request newly holds when it pins them. `sizes`: each key's size (empty: 1 each).
  double unpinned(std::span<const std::uint64_t> keys, std::span<const double> sizes = {}) const;
  // Pins every key (one more user each): a block absent is inserted in HBM (at its size) and written through
  // to DRAM and SSD; one below HBM is promoted. Returns the size newly pinned (blocks whose users went 0 → 1).
  double acquire(std::span<const std::uint64_t> keys, std::span<const double> sizes = {});
  // One user fewer for every key, the last key first (so a chain's tail is the least recent); a block
  // with no user left stays in HBM, evictable. Returns the size that became unpinned.
  double release(std::span<const std::uint64_t> keys);
  // Evicts the least recently released unpinned HBM blocks until at most `unpinned` of them (by size) stay
  // in HBM. A pinned block is never evicted. Returns the blocks evicted.
  std::size_t evict_hbm_to(double unpinned);
  // Forgets an unpinned block in every tier (a conversation's history replaced by its longer self).
  void erase(std::uint64_t key);

  double hbm_blocks() const { return count_[0]; }  // pinned and unpinned, by size
  double pinned_blocks() const { return pinned_; }
  double dram_blocks() const { return count_[1]; }
  double ssd_blocks() const { return count_[2]; }
  bool holds(std::uint64_t key, CacheTier t) const;
  int users(std::uint64_t key) const;

 private:
  struct Block {
    std::uint64_t key = 0;
    std::int32_t users = 0;
    double size = 1;
    std::uint8_t tiers = 0;  // bit t: in tier t
    std::int32_t prev[kCacheTiers] = {-1, -1, -1}, next[kCacheTiers] = {-1, -1, -1};
  };
  struct List {
    std::int32_t head = -1, tail = -1;  // head: most recent
  };
  // HBM's list holds its unpinned blocks only (the evictable ones); DRAM's and SSD's hold all they keep.
  void push_front(int t, std::int32_t i);
  void unlink(int t, std::int32_t i);
  void put_below(int t, std::int32_t i);  // into DRAM or SSD as the most recent, evicting the tier's LRU
  void drop(int t, std::int32_t i);       // out of tier t; forgotten when in no tier and unpinned
  std::int32_t find(std::uint64_t key) const;
  std::int32_t alloc(std::uint64_t key, double size);
  // The index: open addressing over the keys (already hashes), linear probing, deletion by backward shift, so
  // a cache in its steady state allocates nothing (the fleet's event loop holds itself to that).
  struct Slot {
    std::uint64_t key = 0;
    std::int32_t block = -1;  // -1: empty
  };
  void index_put(std::uint64_t key, std::int32_t block);
  void index_erase(std::uint64_t key);

  PrefixCacheConfig cfg_;
  std::vector<Block> blocks_;
  std::vector<std::int32_t> free_;
  std::vector<Slot> index_;
  std::size_t indexed_ = 0;
  List lists_[kCacheTiers];
  double count_[kCacheTiers] = {};
  double pinned_ = 0;
};

}  // namespace tierscope::sim
