// The prefix cache's bookkeeping (prefix_cache.h): blocks by chain key, a count of users per block, an LRU
// list per tier (HBM's over its unpinned blocks only), write-through into the tiers below.
#include "sim/prefix_cache.h"

#include <algorithm>

namespace tierscope::sim {

namespace {

constexpr int kHbm = 0;

std::uint64_t mix(std::uint64_t x) {
  // splitmix64's finaliser: a chain key that differs in any input bit differs everywhere.
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint8_t bit(int t) { return static_cast<std::uint8_t>(1u << t); }

}  // namespace

std::uint64_t chain_key(std::uint64_t parent, std::uint64_t content) { return mix(parent ^ mix(content)); }

PrefixCache::PrefixCache(PrefixCacheConfig c) : cfg_(c) {}

std::int32_t PrefixCache::find(std::uint64_t key) const {
  if (index_.empty()) return -1;
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = key & mask;; i = (i + 1) & mask) {
    if (index_[i].block < 0) return -1;
    if (index_[i].key == key) return index_[i].block;
  }
}

void PrefixCache::index_put(std::uint64_t key, std::int32_t block) {
  if (2 * (indexed_ + 1) > index_.size()) {
    // Grown to twice its size (kept at most half full), every key placed again.
    std::vector<Slot> old = std::move(index_);
    index_.assign(std::max<std::size_t>(64, 2 * old.size()), Slot{});
    indexed_ = 0;
    for (const Slot& s : old)
      if (s.block >= 0) index_put(s.key, s.block);
  }
  const std::size_t mask = index_.size() - 1;
  std::size_t i = key & mask;
  while (index_[i].block >= 0) i = (i + 1) & mask;
  index_[i] = Slot{key, block};
  ++indexed_;
}

void PrefixCache::index_erase(std::uint64_t key) {
  const std::size_t mask = index_.size() - 1;
  std::size_t i = key & mask;
  while (index_[i].block >= 0 && index_[i].key != key) i = (i + 1) & mask;
  if (index_[i].block < 0) return;
  // Backward shift: each later key of the run moves into the hole when its home is not between them.
  for (std::size_t j = (i + 1) & mask; index_[j].block >= 0; j = (j + 1) & mask) {
    const std::size_t home = index_[j].key & mask;
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    index_[i] = index_[j];
    i = j;
  }
  index_[i] = Slot{};
  --indexed_;
}

std::int32_t PrefixCache::alloc(std::uint64_t key, double size) {
  std::int32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
    blocks_[static_cast<std::size_t>(i)] = Block{};
  } else {
    i = static_cast<std::int32_t>(blocks_.size());
    blocks_.emplace_back();
  }
  blocks_[static_cast<std::size_t>(i)].key = key;
  blocks_[static_cast<std::size_t>(i)].size = size;
  index_put(key, i);
  return i;
}

void PrefixCache::push_front(int t, std::int32_t i) {
  Block& b = blocks_[static_cast<std::size_t>(i)];
  List& l = lists_[t];
  b.prev[t] = -1;
  b.next[t] = l.head;
  if (l.head >= 0) blocks_[static_cast<std::size_t>(l.head)].prev[t] = i;
  l.head = i;
  if (l.tail < 0) l.tail = i;
}

void PrefixCache::unlink(int t, std::int32_t i) {
  Block& b = blocks_[static_cast<std::size_t>(i)];
  List& l = lists_[t];
  if (b.prev[t] >= 0) blocks_[static_cast<std::size_t>(b.prev[t])].next[t] = b.next[t];
  else l.head = b.next[t];
  if (b.next[t] >= 0) blocks_[static_cast<std::size_t>(b.next[t])].prev[t] = b.prev[t];
  else l.tail = b.prev[t];
  b.prev[t] = b.next[t] = -1;
}

void PrefixCache::drop(int t, std::int32_t i) {
  Block& b = blocks_[static_cast<std::size_t>(i)];
  // A pinned HBM block is in no list (it cannot be evicted); every other tier membership is listed.
  if (t != kHbm || b.users == 0) unlink(t, i);
  b.tiers &= static_cast<std::uint8_t>(~bit(t));
  count_[t] -= b.size;
  if (b.tiers == 0 && b.users == 0) {
    index_erase(b.key);
    free_.push_back(i);
  }
}

void PrefixCache::put_below(int t, std::int32_t i) {
  const double cap = t == 1 ? cfg_.dram_blocks : cfg_.ssd_blocks;
  if (!(cap >= 1)) return;
  Block& b = blocks_[static_cast<std::size_t>(i)];
  if (b.tiers & bit(t)) {
    unlink(t, i);
    push_front(t, i);
    return;
  }
  if (b.size > cap) return;
  // Room first: the tier's least recent block goes (a block below HBM is never pinned there).
  while (count_[t] + b.size > cap && lists_[t].tail >= 0) drop(t, lists_[t].tail);
  Block& c = blocks_[static_cast<std::size_t>(i)];
  c.tiers |= bit(t);
  count_[t] += c.size;
  push_front(t, i);
}

PrefixMatch PrefixCache::match(std::span<const std::uint64_t> keys) const {
  PrefixMatch m;
  for (const std::uint64_t k : keys) {
    const std::int32_t i = find(k);
    if (i < 0) break;
    const std::uint8_t tiers = blocks_[static_cast<std::size_t>(i)].tiers;
    if (tiers & bit(0)) ++m.blocks[0];
    else if (tiers & bit(1)) ++m.blocks[1];
    else if (tiers & bit(2)) ++m.blocks[2];
    else break;  // pinned while being filled, in no tier yet: cannot happen, as a pin puts it in HBM
  }
  return m;
}

double PrefixCache::unpinned(std::span<const std::uint64_t> keys, std::span<const double> sizes) const {
  double n = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::int32_t i = find(keys[k]);
    if (i >= 0 && blocks_[static_cast<std::size_t>(i)].users > 0) continue;
    n += i >= 0 ? blocks_[static_cast<std::size_t>(i)].size : k < sizes.size() ? sizes[k] : 1.0;
  }
  return n;
}

double PrefixCache::acquire(std::span<const std::uint64_t> keys, std::span<const double> sizes) {
  double pinned = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    std::int32_t i = find(keys[k]);
    if (i < 0) i = alloc(keys[k], k < sizes.size() ? sizes[k] : 1.0);
    Block& b = blocks_[static_cast<std::size_t>(i)];
    const bool was_hbm = (b.tiers & bit(kHbm)) != 0;
    if (b.users == 0) {
      if (was_hbm) unlink(kHbm, i);  // off the evictable list while it has a user
      pinned += b.size;
      pinned_ += b.size;
    }
    b.users += 1;
    if (!was_hbm) {
      b.tiers |= bit(kHbm);
      count_[kHbm] += b.size;
    }
    // Written through (a new block) or refreshed (a hit) in every tier below.
    put_below(1, i);
    put_below(2, i);
  }
  return pinned;
}

double PrefixCache::release(std::span<const std::uint64_t> keys) {
  double freed = 0;
  for (std::size_t k = keys.size(); k-- > 0;) {
    const std::int32_t i = find(keys[k]);
    if (i < 0) continue;
    Block& b = blocks_[static_cast<std::size_t>(i)];
    if (b.users <= 0) continue;
    b.users -= 1;
    if (b.users > 0) continue;
    pinned_ -= b.size;
    freed += b.size;
    push_front(kHbm, i);  // the root is released last: the most recent of the chain
  }
  return freed;
}

std::size_t PrefixCache::evict_hbm_to(double unpinned) {
  std::size_t evicted = 0;
  while (count_[kHbm] - pinned_ > unpinned && lists_[kHbm].tail >= 0) {
    drop(kHbm, lists_[kHbm].tail);
    ++evicted;
  }
  return evicted;
}

void PrefixCache::erase(std::uint64_t key) {
  const std::int32_t i = find(key);
  if (i < 0 || blocks_[static_cast<std::size_t>(i)].users > 0) return;
  for (int t = kCacheTiers; t-- > 0;) {
    if (blocks_[static_cast<std::size_t>(i)].tiers & bit(t)) drop(t, i);
  }
}

bool PrefixCache::holds(std::uint64_t key, CacheTier t) const {
  const std::int32_t i = find(key);
  return i >= 0 && (blocks_[static_cast<std::size_t>(i)].tiers & bit(static_cast<int>(t))) != 0;
}

int PrefixCache::users(std::uint64_t key) const {
  const std::int32_t i = find(key);
  return i < 0 ? 0 : blocks_[static_cast<std::size_t>(i)].users;
}

}  // namespace tierscope::sim
