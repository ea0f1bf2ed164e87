// The shared-prefix workload and the prefix cache's hooks in the serving replay (serve_prefix.h): prompts
// made of shared parts, their chain keys at the engine's page, hits per tier, the KV pinned once however
// many requests share it, and the reload of a lower-tier hit timed by the figures' rule (roofline/offload.h).
#include "serve/serve_prefix.h"

#include <algorithm>
#include <cmath>

#include "roofline/figures.h"
#include "sim/rng.h"

namespace tierscope::serve {

namespace {

// Streams of the run's seed the workload draws from (apart from the lengths' and the arrivals').
constexpr std::uint64_t kPrefixStream = 0x9F1C00000000ull;
constexpr std::uint64_t kConvStream = 0x9F2C00000000ull;
// What a block's tokens are: part of a shared prefix, of a conversation, or of one request alone.
constexpr std::uint64_t kSharedTag = 1, kConvTag = 2, kOwnTag = 3;

}  // namespace

void ServePrefix::setup(const model::Scenario& s, const ServeSpec& spec, model::StepTimer& timer, int instances, bool prompts_here) {
  spec_ = spec;
  timer_ = &timer;
  workload_ = spec.prefix_len > 0 || spec.reuse == Reuse::MultiTurn;
  const model::PagePolicy& page = model::page_policy(s.engine.kind);
  on_ = workload_ && prompts_here && spec.tiers != CacheTiers::Off && page.reuse_default;
  report_ = PrefixReport{};
  if (!workload_) return;
  if (spec.reuse == Reuse::Zipf) {
    // Zipf with exponent 1 over the prefixes: the k-th most used drawn ∝ 1 / k.
    zipf_cdf_.assign(static_cast<std::size_t>(spec.prefixes), 0.0);
    double sum = 0;
    for (int k = 0; k < spec.prefixes; ++k) zipf_cdf_[static_cast<std::size_t>(k)] = sum += 1.0 / (k + 1);
    for (double& c : zipf_cdf_) c /= sum;
  }
  report_.reuse = reuse_name(spec.reuse);
  report_.tiers = cache_tiers_name(spec.tiers);
  report_.on = on_;
  if (!on_) return;
  const model::Computed& base = timer.base();
  const model::Terms& t = base.terms;
  const model::Values& v = base.values;
  page_ = std::max(1.0, page.page_tokens);
  kv_per_token_ = v[model::FigureId::KvGlobalPerToken];
  kv_share_ = t.kv_share;
  const double span = std::max(1.0, t.gpus / std::max(1.0, t.node_gpus));
  ssd_share_ = 1 / span;
  // The node's host DRAM and drives are shared by the instances on it; an instance over several nodes has theirs.
  const double per_node = t.gpus <= t.node_gpus ? std::max(1.0, std::floor(t.node_gpus / t.gpus)) : 1.0;
  const double block_bytes = page_ * kv_per_token_;
  tiers_ = spec.tiers == CacheTiers::HbmDramSsd ? 3 : spec.tiers == CacheTiers::HbmDram ? 2 : 1;
  sim::PrefixCacheConfig c;
  if (block_bytes > 0 && tiers_ >= 2) c.dram_blocks = std::floor(model::prefix_dram_bytes(s) * span / per_node / block_bytes);
  if (block_bytes > 0 && tiers_ >= 3) c.ssd_blocks = std::floor(v[model::FigureId::SsdCapacity] * span / per_node / block_bytes);
  caches_.assign(static_cast<std::size_t>(instances), sim::PrefixCache(c));
  path_free_.assign(static_cast<std::size_t>(instances), 0.0);
  path_ = t.reload;
  const model::StoreInfo& store = model::store_info(model::store_of(s));
  report_.page = page_;
  report_.policy = page.policy;
  report_.store = tiers_ >= 2 ? std::string(store.label) + ": " + store.policy : "";
  report_.dram_blocks = c.dram_blocks;
  report_.ssd_blocks = c.ssd_blocks;
}

void ServePrefix::shape(std::uint32_t id, PrefixPart& p, int& prompt) {
  if (!workload_) return;
  const auto k = static_cast<std::uint32_t>(spec_.prefixes);
  if (spec_.reuse == Reuse::MultiTurn) {
    if (pending_head_ < pending_.size()) {
      const Turn& n = pending_[pending_head_++];
      p.conv = n.conv;
      p.prefix = n.prefix;
      p.turn = n.turn;
      p.history = n.history;
      if (pending_head_ == pending_.size()) pending_.clear(), pending_head_ = 0;
    } else {
      p.conv = next_conv_++;
      p.prefix = sim::Rng::of(spec_.seed, kConvStream + p.conv).below(k);
    }
  } else if (spec_.reuse == Reuse::Zipf) {
    const double u = sim::Rng::of(spec_.seed, kPrefixStream + id).uniform();
    p.prefix = static_cast<std::uint32_t>(std::lower_bound(zipf_cdf_.begin(), zipf_cdf_.end(), u) - zipf_cdf_.begin());
    p.prefix = std::min(p.prefix, k - 1);
  } else {
    p.prefix = sim::Rng::of(spec_.seed, kPrefixStream + id).below(k);
  }
  prompt += spec_.prefix_len + p.history;
}

void ServePrefix::next_turn(const PrefixPart& p, int prompt, int output) {
  if (spec_.reuse != Reuse::MultiTurn || p.turn + 1 >= spec_.turns) return;
  pending_.push_back(Turn{p.conv, p.prefix, p.turn + 1, prompt - spec_.prefix_len + output});
}

void ServePrefix::keys_of(std::uint32_t id, const PrefixPart& p, int tokens) {
  const auto blocks = static_cast<std::size_t>(std::max(0.0, std::floor(tokens / page_)));
  keys_.resize(blocks);
  std::uint64_t parent = 0;
  for (std::size_t i = 0; i < blocks; ++i) {
    // A block belongs to the part its last token is in: a block across a shared prefix's end is its request's own.
    const double last = (static_cast<double>(i) + 1) * page_ - 1;
    std::uint64_t part;
    if (last < spec_.prefix_len) part = sim::chain_key(kSharedTag, p.prefix);
    else if (spec_.reuse == Reuse::MultiTurn) part = sim::chain_key(kConvTag, p.conv);
    else part = sim::chain_key(kOwnTag, id);
    parent = keys_[i] = sim::chain_key(parent, sim::chain_key(part, i));
  }
}

ServePrefix::Plan ServePrefix::plan(int inst, std::uint32_t id, const PrefixPart& p, int prompt) {
  Plan out;
  if (!on_) return out;
  // The engines compute at least the prompt's last token (its logits give the first token): a hit stops before it.
  keys_of(id, p, prompt - 1);
  const sim::PrefixCache& c = caches_[static_cast<std::size_t>(inst)];
  const std::size_t m = c.match(keys_).total();
  out.cached = static_cast<int>(static_cast<double>(m) * page_);
  out.pin_tokens = c.unpinned(std::span(keys_).first(m)) * page_;
  return out;
}

double ServePrefix::admit(int inst, std::uint32_t id, PrefixPart& p, int prompt, int fill, double t, bool first) {
  if (!on_) return 0;
  sim::PrefixCache& c = caches_[static_cast<std::size_t>(inst)];
  keys_of(id, p, prompt - 1);
  const sim::PrefixMatch m = c.match(keys_);
  const std::span<const std::uint64_t> hit = std::span(keys_).first(m.total());
  const double pinned = c.acquire(hit) * page_;
  p.pinned = static_cast<int>(m.total());
  p.cached = static_cast<int>(static_cast<double>(m.total()) * page_);
  p.load_end = t;
  p.load_extra = 0;
  if (first) {
    report_.prompt_tokens += prompt;
    for (int k = 0; k < sim::kCacheTiers; ++k) report_.hit_tokens[k] += static_cast<double>(m.blocks[k]) * page_;
    report_.hit_requests += m.total() > 0 ? 1 : 0;
  }
  const double below = static_cast<double>(m.blocks[1] + m.blocks[2]) * page_;
  if (below > 0) {
    // Its blocks below HBM climb to it by the figures' rule: the SSD ones staged in host DRAM first, then all of
    // them over the host link; the load runs beside the batch, layer by layer with the prefill, or inside the
    // step, as the engine's store does. The instance's load path takes one reload at a time.
    const double on_ssd = static_cast<double>(m.blocks[2]) * page_;
    model::ReloadHops h = model::reload_hops(path_, below, below * kv_per_token_, below * kv_per_token_ * kv_share_, 0);
    const model::PrefixTier from = on_ssd > 0 ? model::PrefixTier::Ssd : model::PrefixTier::Dram;
    if (on_ssd > 0) h.ssd = model::reload_hops(path_, on_ssd, on_ssd * kv_per_token_ * ssd_share_, on_ssd * kv_per_token_ * kv_share_, 0).ssd;
    const double rest = timer_->chunk(std::max(1, fill - p.cached), p.cached).alone;
    const model::HitService svc = model::hit_service(path_, h, from, rest);
    double& free = path_free_[static_cast<std::size_t>(inst)];
    const double start = std::max(t, free);
    free = start + svc.path;
    p.load_end = start + (svc.latency - svc.gpu);
    p.load_extra = std::max(0.0, svc.gpu - rest);
    report_.loads += 1;
    report_.load_s += svc.path;
  }
  return pinned;
}

double ServePrefix::first_token(int inst, std::uint32_t id, PrefixPart& p, int prompt, double& moved) {
  moved = 0;
  if (!on_) return 0;
  keys_of(id, p, prompt);
  const auto have = static_cast<std::size_t>(p.pinned);
  if (keys_.size() <= have) return 0;
  const double pinned = caches_[static_cast<std::size_t>(inst)].acquire(std::span(keys_).subspan(have)) * page_;
  moved = static_cast<double>(keys_.size() - have) * page_;
  p.pinned = static_cast<int>(keys_.size());
  return pinned;
}

double ServePrefix::release(int inst, std::uint32_t id, PrefixPart& p, int tokens, bool keep) {
  if (!on_) return 0;
  sim::PrefixCache& c = caches_[static_cast<std::size_t>(inst)];
  double pinned = 0;
  keys_of(id, p, keep ? tokens : static_cast<int>(p.pinned * page_));
  const auto have = static_cast<std::size_t>(p.pinned);
  // Completed: the full blocks of its output join the cache as it lets go (a conversation's next turn finds them).
  if (keep && keys_.size() > have) pinned += c.acquire(std::span(keys_).subspan(have)) * page_;
  pinned -= c.release(keys_) * page_;
  p.pinned = 0;
  p.cached = 0;
  return pinned;
}

void ServePrefix::trim(int inst, double free_tokens) {
  if (!on_) return;
  sim::PrefixCache& c = caches_[static_cast<std::size_t>(inst)];
  c.evict_hbm_to(std::max(0.0, std::floor(free_tokens / page_)));
  report_.hbm_blocks_peak = std::max(report_.hbm_blocks_peak, c.hbm_blocks());
}

}  // namespace tierscope::serve
