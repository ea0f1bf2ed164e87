// The serving replay's shared-prefix workload and its prefix cache (sim/prefix_cache.h, one per instance):
// what a request's prompt is made of (a shared prefix, a conversation's earlier turns, its own tokens), the
// chain keys of its blocks at the engine's page, and the hooks the replay calls as a request is admitted,
// yields its first token, is preempted and completes. The replay's KV count (tokens held in HBM) stays
// one number: a request holds its own tokens, and the blocks the cache keeps pinned are counted once
// however many requests use them; unpinned cached blocks fill what admission leaves free and give way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codec/serve_spec.h"
#include "model/kv_store.h"
#include "roofline/offload.h"
#include "roofline/step_mix.h"
#include "sim/prefix_cache.h"

namespace tierscope::serve {

// A request's part in the workload and in the cache.
struct PrefixPart {
  std::uint32_t prefix = 0;  // its shared prefix
  std::uint32_t conv = 0;    // multi-turn: its conversation and turn
  int turn = 0;
  int history = 0;           // multi-turn: tokens of earlier turns after the shared prefix
  int cached = 0;            // tokens its admission found in the cache (its prefill starts there)
  int pinned = 0;            // blocks of its chain it holds pinned
  double load_end = 0;       // its prefill waits for its reload until then
  double load_extra = 0;     // the step carrying its first chunk holds the GPU this much longer (a load in the step)
};

// What the result shows of the cache (ServeResult::prefix).
struct PrefixReport {
  bool on = false;
  std::string tiers, reuse, policy, store;
  double page = 0;                 // tokens per block
  double prompt_tokens = 0;        // prompt tokens at first admissions
  double hit_tokens[sim::kCacheTiers] = {};  // of which served from HBM, host DRAM, SSD
  double hit_requests = 0;         // first admissions that found a hit
  double loads = 0, load_s = 0;    // lower-tier hits reloaded, and their reload time in all
  double hbm_blocks_peak = 0;      // the most blocks the cache held in HBM on one instance
  double dram_blocks = 0, ssd_blocks = 0;  // each instance's room below HBM, blocks
};

class ServePrefix {
 public:
  // Off unless the workload shares prefixes (--prefix-len > 0 or --reuse multi-turn), the tiers are on and the
  // instances compute the prompts (`prompts_here`: not a decode pool, nor a disaggregated deployment's).
  void setup(const model::Scenario& s, const ServeSpec& spec, model::StepTimer& timer, int instances, bool prompts_here);
  bool workload() const { return workload_; }  // prompts carry shared parts (cache on or off)
  bool on() const { return on_; }

  // A new request `id`: its shared parts added to its own `prompt` tokens.
  void shape(std::uint32_t id, PrefixPart& p, int& prompt);
  // Its conversation's next turn, when it completes one with turns to go.
  void next_turn(const PrefixPart& p, int prompt, int output);

  // Admission: the tokens a hit saves (whole blocks, leaving at least its last prompt token to compute) and
  // the tokens of blocks a pin takes from unpinned, before anything changes.
  struct Plan {
    int cached = 0;
    double pin_tokens = 0;
  };
  Plan plan(int inst, std::uint32_t id, const PrefixPart& p, int prompt);
  // Pins its hit, counts it (first admission only) and times its reload from below HBM at t: returns the
  // tokens newly pinned.
  double admit(int inst, std::uint32_t id, PrefixPart& p, int prompt, int fill, double t, bool first);
  // Its prompt is in HBM: its full blocks join the cache (stored once: a block another request put there
  // is shared). `moved`: tokens that leave the request's own hold; returns the change in tokens pinned.
  double first_token(int inst, std::uint32_t id, PrefixPart& p, int prompt, double& moved);
  // Preempted or completed: its blocks let go (completed: its output's full blocks kept too). Returns the
  // change in tokens pinned (≤ 0 on release).
  double release(int inst, std::uint32_t id, PrefixPart& p, int tokens, bool keep);
  // The unpinned blocks that stay in HBM when `free_tokens` are free beside what the requests hold.
  void trim(int inst, double free_tokens);

  const PrefixReport& report() const { return report_; }

 private:
  void keys_of(std::uint32_t id, const PrefixPart& p, int tokens);  // into keys_

  bool workload_ = false, on_ = false;
  ServeSpec spec_;
  model::StepTimer* timer_ = nullptr;
  double page_ = 16;
  double kv_per_token_ = 0, kv_share_ = 1, ssd_share_ = 1;  // node bytes per token, a GPU's share, the drives' share
  model::ReloadPath path_;
  int tiers_ = 1;  // tiers on: 1 HBM, 2 + DRAM, 3 + SSD
  std::vector<sim::PrefixCache> caches_;
  std::vector<double> path_free_;  // per instance: its load path is busy until then
  std::vector<double> zipf_cdf_;
  std::vector<std::uint64_t> keys_;
  // Multi-turn: turns waiting for their next request (conversation, turn, history), first come first served.
  struct Turn {
    std::uint32_t conv, prefix;
    int turn, history;
  };
  std::vector<Turn> pending_;
  std::size_t pending_head_ = 0;
  std::uint32_t next_conv_ = 0;
  PrefixReport report_;
};

}  // namespace tierscope::serve
