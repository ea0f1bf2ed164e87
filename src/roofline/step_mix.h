// One scheduled step timed for its actual mix: the decode sessions it carries at their mean context and the
// prompt chunks that share it. The serving replay (src/serve) calls it once per step; it runs the same
// topic functions the figures do (the decode step through its rates, prefill_of for a chunk), so a replayed
// step and the figures can never time the same work two ways.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "model/layers.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::model {

// A decode step of `decodes` sessions at mean context `ctx`, as the figures time it.
struct DecodeCost {
  double seconds = 0;      // decode.step_time at that batch and context
  double accepted = 1;     // tokens per session per step (decode.tokens_per_step)
  const char* bound = "";  // the bound that won the step's roofline
};

// A prompt chunk of `tokens` after `before` of the same prompt already in cache.
struct ChunkCost {
  double alone = 0;    // the chunk as its own pass (prefill.time for a whole prompt from 0)
  double compute = 0;  // what it adds riding a decode step, spread over the replicas: its compute and its
                       // share of the step's collective bytes (the rule serve.prefill_share uses: the step
                       // streams the weights and pays the collectives' latencies anyway)
  double rank = 0;     // the same on the one attention replica that runs it: under data-parallel attention
                       // the other replicas wait for that rank at every MoE layer
  double host = 0;     // its kernels' host dispatch (prefill_kernel_us each): a step that carries the chunk
                       // runs outside CUDA graphs and lasts at least that long, whatever else it carries
  const char* bound = "";
};

class StepTimer {
 public:
  // `base`: the scenario as validated (its batch and ctx are replaced per step).
  explicit StepTimer(const Scenario& base);
  DecodeCost decode(int decodes, double ctx);
  ChunkCost chunk(double tokens, double before);
  // Evaluations run (misses of the memo): the replay's speed depends on it.
  std::uint64_t evaluations() const { return evaluations_; }
  // The step model's figures at the base scenario (its capacity, tokens per step, feasibility).
  const Computed& base() const { return base_figures_; }

  // Contexts and chunk positions are rounded to 1/64 of their octave (≤ 0.8 %) before timing, so a replay
  // of thousands of steps evaluates the model a few hundred times.
  static double bucket(double x);

 private:
  Scenario point_;
  LayerPlan plan_;
  Computed base_figures_;
  std::unordered_map<std::uint64_t, DecodeCost> decodes_;
  std::unordered_map<std::uint64_t, ChunkCost> chunks_;
  std::uint64_t evaluations_ = 0;
};

}  // namespace tierscope::model
