// Derived figures: compute_values() is the fast numeric core; describe() adds labels, formulas and sources.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"

namespace tierscope::model {

// Every figure has a stable id (the string key below) and this enum index. Order matches the table in
// figures.cpp; ids are part of the public contract (URLs, the paths module, the CLI, tests).
enum class FigureId : std::uint8_t {
  ParamsTotal,          // model.params_total
  ParamsActiveDecode,   // model.params_active_decode
  ParamsActivePrefill,  // model.params_active_prefill
  ParamsPerExpert,      // model.params_per_expert
  KvMainEntry,          // kv.main_entry
  KvIndexEntry,         // kv.index_entry
  KvSwaEntry,           // kv.swa_entry
  KvGlobalPerToken,     // kv.global_per_token
  KvSwaPerSession,      // kv.swa_per_session
  KvPerSession,         // kv.per_session
  HbmWeights,           // hbm.weights_resident
  HbmKvBudget,          // hbm.kv_budget
  HbmSessions,          // hbm.sessions
  DecodeDistinctExperts,// decode.distinct_experts
  DecodeWeightBytes,    // decode.weight_bytes
  DecodeKvBytes,        // decode.kv_bytes
  DecodeStepFloor,      // decode.step_floor
  DecodeWeightShare,    // decode.weight_share
  DecodeTokensPerS,     // decode.tokens_per_s
  TopkSliceBytes,       // topk.slice_bytes
  TopkSliceTime,        // topk.slice_time
  GatherBytes,          // gather.bytes
  GatherTime,           // gather.time
  IndexFullpoolBytes,   // index.fullpool_bytes
  IndexFullpoolTime,    // index.fullpool_time
  IndexCandidateBytes,  // index.candidate_bytes
  IndexCandidateTime,   // index.candidate_time
  SwaWindowBytes,       // swa.window_bytes
  SwaWindowTime,        // swa.window_time
  SwaRestoreLayerTime,  // swa.restore_layer_time
  SwaRestoreSessionTime,// swa.restore_session_time
  SwaPoolBytes,         // swa.pool_bytes
  SwaPoolSessions,      // swa.pool_sessions
  ReplayFlop,           // replay.flop
  ReplayTime,           // replay.time
  ReplayTimeStandalone, // replay.time_standalone
  PrefixHitBytes,       // prefix.hit_bytes
  PrefixSsdHitTime,     // prefix.ssd_hit_time
  PrefixRecomputeTime,  // prefix.recompute_time
  EngramParams,         // engram.params
  EngramBytesPerToken,  // engram.bytes_per_token
  EngramTableBytes,     // engram.table_bytes
  EngramFetchTime,      // engram.fetch_time
  EngramStall,          // engram.stall
  PrefillFlop,          // prefill.flop
  PrefillTime,          // prefill.time
  CostTurnMiss,         // cost.turn_miss
  CostTurnHit,          // cost.turn_hit
  HwHbmPerGpu,          // hw.hbm_per_gpu
  HwHbmBwPerGpu,        // hw.hbm_bw_per_gpu
  HwSramPerGpu,         // hw.sram_per_gpu
  HwHostLinkBw,         // hw.host_link_bw
  HwSsdBwPerDrive,      // hw.ssd_bw_per_drive
  Count
};
constexpr int kFigureCount = static_cast<int>(FigureId::Count);

enum class Lifetime : std::uint8_t { None, Request, Weight };
const char* lifetime_name(Lifetime l);  // "", "request activation", "model weight"

// The numeric result, in base units (bytes, seconds, FLOP, parameters, USD, fractions).
struct Values {
  double v[kFigureCount] = {};
  double operator[](FigureId id) const { return v[static_cast<int>(id)]; }
  double& operator[](FigureId id) { return v[static_cast<int>(id)]; }
};

// Intermediate quantities the formulas quote; computed alongside the values.
struct Terms {
  double layers = 0, moe_layers = 0, ffn_dense_layers = 0, prefill_layers = 0;
  double p_attn_layer = 0, p_routed_active = 0, p_shared = 0, p_attn = 0, p_router = 0;
  double p_dense_ffn = 0, p_head = 0, p_emb = 0;
  double bpv_experts = 0, bpv_dense = 0, bpv_head = 0;
  double inv_ratio_main = 0, inv_ratio_index = 0;  // Σ 1/r over KV owners / index owners
  double owners = 0, index_owners = 0, window_layers = 0;
  double read_layers = 0, gather_layers = 0, fullpool_indexers = 0, pool_indexers = 0, dense_readers = 0;
  double read_dense = 0;           // per session, dense attention over all rows
  double fullpool_rows_idx = 0;    // index rows scanned by full-pool indexers (Σ N/r)
  double pool_positions = 0;       // candidate positions per pool indexer (≤ blocks × size)
  double weight_bytes_b1 = 0;      // decode weights at batch 1
  double bw_total = 0, bw_gpu = 0, host_bw = 0, host_lat = 0, pflops_total = 0;
  double ssd_bw = 0, engram_row = 0, engram_window = 0;
  double prefill_flop_weights = 0, prefill_flop_attn = 0, prefill_flop_index = 0;
};

struct Computed {
  Values values;
  Terms terms;
};

// The numeric core: closed form (one pass over at most kMaxLayers layers), no strings, no allocation.
// Inputs are assumed valid (see validate() in params.h); the result stays finite for valid inputs.
void compute_values(const Scenario& s, Computed& out);

struct Figure {
  std::string_view id;
  std::string_view label;
  double value = 0;
  std::string_view unit;
  std::string formula;  // with the scenario's numbers substituted
  Provenance provenance = Provenance::Derived;
  std::string_view sources;
  Tier tier = Tier::None;
  Lifetime lifetime = Lifetime::None;
};

struct Figures {
  Computed computed;
  std::vector<Figure> list;  // in FigureId order
  const Figure* find(std::string_view id) const;
  const Figure& operator[](FigureId id) const { return list[static_cast<std::size_t>(id)]; }
};

// Static facts about a figure (id, label, unit, provenance, sources, tier, lifetime).
struct FigureInfo {
  FigureId fid;
  const char* id;
  const char* label;
  const char* unit;
  Provenance provenance;
  const char* sources;
  Tier tier;
  Lifetime lifetime;
};
const FigureInfo& figure_info(FigureId id);
// Figure index by string id, or FigureId::Count if unknown.
FigureId figure_id(std::string_view id);

// Values plus the text layer. Slower than compute_values() because it formats every formula.
Figures describe(const Scenario& s);
// Prefill FLOP for n prompt tokens (weights + attention core + indexer), used by several figures.
double prefill_flop(const Scenario& s, const Terms& t, double n, double* weights, double* attn, double* index);

}  // namespace tierscope::model
