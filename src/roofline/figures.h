// Derived figures: compute_values() is the fast numeric core; describe() adds labels, formulas and sources.
//
// Sections, in order:
//   FigureId            every figure's id and key (the public contract)
//   Lifetime, Scope     how long a figure's bytes live, and what one value counts (per GPU, instance, node)
//   Values, ReadSums    the numbers computed, and the per-token read sums of the KV layout
//   Pass, PromptPasses  one roofline per kernel class, and the prompt's passes
//   Infeasible, Terms   why a setup cannot run, and the decode step's terms
//   Computed            values and terms together; compute_values() and its scopes
//   Figure, Figures     a figure as shown (value, formula, provenance, scope) and describe()
//   FigureInfo          the figure table's row: label, unit, inputs, tier, lifetime, needs
//   lookups             figure_id, retired ids, sources, the infeasible texts
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "model/presets.h"
#include "model/scenario.h"
#include "roofline/formula.h"
#include "roofline/offload.h"

namespace tierscope::model {

// Every figure has a stable id (the string key below) and this enum index. Order matches the table in
// figures.cpp; ids are part of the public contract (URLs, the paths module, the CLI, tests).
enum class FigureId : std::uint8_t {
  ParamsTotal,              // model.params_total
  ParamsActiveDecode,       // model.params_active_decode
  ParamsActivePrefill,      // model.params_active_prefill
  ParamsPerExpert,          // model.params_per_expert
  WeightsDerived,           // model.weights_bytes
  CheckpointPublished,      // model.checkpoint_published
  WeightsPerToken,          // model.weights_per_token
  KvMainEntry,              // kv.main_entry
  KvIndexEntry,             // kv.index_entry
  KvSwaEntry,               // kv.swa_entry
  KvGlobalPerToken,         // kv.global_per_token
  KvSwaPerSession,          // kv.swa_per_session
  KvPerSession,             // kv.per_session
  KvSwaShare,               // kv.swa_share
  KvChunkPerSession,        // kv.chunk_per_session
  KvRecurrentPerSession,    // kv.recurrent_per_session
  KvRecurrentCkptInterval,  // kv.recurrent_checkpoint_interval
  KvRecurrentCkptBytes,     // kv.recurrent_checkpoint_bytes
  KvIndexerPerToken,        // kv.indexer_per_token
  KvTopkRows,               // kv.topk_rows_per_step
  HbmWeights,               // hbm.weights_resident
  HbmWeightsPerGpu,         // hbm.weights_per_gpu
  HbmKvCopies,              // hbm.kv_copies
  HbmKvSessionPerGpu,       // hbm.kv_session_per_gpu
  HbmKvBudget,              // hbm.kv_budget_per_gpu
  HbmSessions,              // hbm.sessions
  HbmSessionsPerGpu,        // hbm.sessions_per_gpu
  HbmSessionsPerNode,       // hbm.sessions_per_node
  DecodeDistinctExperts,    // decode.distinct_experts
  DecodeExpertsPerRank,     // decode.experts_per_rank
  DecodeBusiestRank,        // decode.busiest_rank_load
  DecodeImbalance,          // decode.ep_imbalance
  DecodeDestRanks,          // decode.dest_ranks
  DecodeWeightBytes,        // decode.weight_bytes
  DecodeKvBytes,            // decode.kv_bytes
  DecodeFlop,               // decode.flop
  DecodeMemoryRoof,         // decode.memory_roof
  DecodeComputeRoof,        // decode.compute_roof
  DecodeTWeights,           // decode.t_weights
  DecodeTIndex,             // decode.t_index
  DecodeTGather,            // decode.t_gather
  DecodeTWindow,            // decode.t_window
  DecodeTState,             // decode.t_state
  DecodeTAppend,            // decode.t_append
  DecodeTCompute,           // decode.t_compute
  DecodeTTopk,              // decode.t_topk
  DecodeTA2a,               // decode.t_a2a
  DecodeTAllreduce,         // decode.t_allreduce
  DecodeTOverhead,          // decode.t_overhead
  DecodeTDraft,             // decode.t_draft
  DecodeTHost,              // decode.t_host
  DecodeTStall,             // decode.t_stall
  DecodeStepTime,           // decode.step_time
  DecodeTokensPerStep,      // decode.tokens_per_step
  DecodeTpot,               // decode.tpot
  DecodeTokensPerS,         // decode.tokens_per_s
  DecodeTokensPerSGpu,      // decode.tokens_per_s_gpu
  DecodeWeightShare,        // decode.weight_share
  DecodeCrossoverBatch,     // decode.crossover_batch
  ServePrefillShare,        // serve.prefill_share
  ServeTpot,                // serve.tpot
  ServeTokensPerSGpu,       // serve.tokens_per_s_gpu
  TopkSliceBytes,           // topk.slice_bytes
  TopkSliceTime,            // topk.slice_time
  TopkSelectTime,           // topk.select_time
  GatherBytes,              // gather.bytes
  GatherTime,               // gather.time
  IndexFullpoolBytes,       // index.fullpool_bytes
  IndexFullpoolTime,        // index.fullpool_time
  IndexCandidateBytes,      // index.candidate_bytes
  IndexCandidateTime,       // index.candidate_time
  SwaWindowBytes,           // swa.window_bytes
  SwaWindowTime,            // swa.window_time
  SwaRestoreLayerTime,      // swa.restore_layer_time
  SwaRestoreSessionTime,    // swa.restore_session_time
  SwaPoolBytes,             // swa.pool_bytes
  SwaPoolSessions,          // swa.pool_sessions
  SwaPoolVsHbm,             // swa.pool_vs_hbm
  ResumeKvReloadTime,       // resume.kv_reload_time
  ResumeKvSsdTime,          // resume.kv_ssd_time
  ReplayFlop,               // replay.flop
  ReplayTime,               // replay.time
  ReplayTimeStandalone,     // replay.time_standalone
  ReplayWeightBytes,        // replay.weight_bytes
  PrefillFlop,              // prefill.flop
  PrefillTime,              // prefill.time
  PrefillFullTime,          // prefill.full_time
  PrefillWindowTime,        // prefill.window_time
  PrefillChunkWeightBytes,  // prefill.chunk_weight_bytes
  PrefixHitBytes,           // prefix.hit_bytes
  PrefixSsdReadTime,        // prefix.ssd_read_time
  PrefixUploadTime,         // prefix.upload_time
  PrefixSsdPathTime,        // prefix.ssd_path_time
  PrefixHitTime,            // prefix.hit_time
  PrefixReplayTime,         // prefix.replay_time
  PrefixRestTime,           // prefix.rest_time
  PrefixRecomputeTime,      // prefix.recompute_time
  PrefixTtftMiss,           // prefix.ttft_miss
  PrefixTtftHit,            // prefix.ttft_hit
  PrefixSpeedup,            // prefix.speedup
  OffloadHitBytes,          // offload.hit_bytes
  OffloadUploadRate,        // offload.upload_rate
  OffloadSsdRate,           // offload.ssd_rate
  OffloadTtftOff,           // offload.ttft_off
  OffloadTtftHbm,           // offload.ttft_hbm
  OffloadTtftDram,          // offload.ttft_dram
  OffloadTtftSsd,           // offload.ttft_ssd
  OffloadChangeDram,        // offload.change_dram
  OffloadChangeSsd,         // offload.change_ssd
  OffloadFlipHitDram,       // offload.flip_hit_tokens_dram
  OffloadFlipHitSsd,        // offload.flip_hit_tokens_ssd
  OffloadFlipLoadDram,      // offload.flip_load_dram
  OffloadFlipLoadSsd,       // offload.flip_load_ssd
  SsdCapacity,              // ssd.capacity
  SsdWriteRate,             // ssd.write_rate
  SsdRetentionBytes,        // ssd.retention_bytes
  SsdDwpdNeeded,            // ssd.dwpd_needed
  SsdRetentionHours,        // ssd.retention_hours
  PdKvBytes,                // pd.kv_bytes
  PdPages,                  // pd.pages
  PdWireTime,               // pd.wire_time
  PdTransferTime,           // pd.transfer_time
  EngramParams,             // engram.params
  EngramBytesPerToken,      // engram.bytes_per_token
  EngramTableBytes,         // engram.table_bytes
  EngramFetchTime,          // engram.fetch_time
  EngramStepFetchTime,      // engram.step_fetch_time
  EngramPromptFetchTime,    // engram.prompt_fetch_time
  EngramStall,              // engram.stall
  CostTurnMiss,             // cost.turn_miss
  CostTurnHit,              // cost.turn_hit
  HwHbmPerGpu,              // hw.hbm_per_gpu
  HwHbmBwPerGpu,            // hw.hbm_bw_per_gpu
  HwSramPerGpu,             // hw.sram_per_gpu
  HwSramLatency,            // hw.sram_latency
  HwHostLinkBw,             // hw.host_link_bw
  HwLinkBw,                 // hw.link_bw
  HwPeakFlops,              // hw.peak_flops
  HwSsdBwPerDrive,          // hw.ssd_bw_per_drive
  HwHbmLatency,             // hw.hbm_latency
  HwHostDram,               // hw.host_dram
  HwHostLatency,            // hw.host_latency
  HwSsdLatency,             // hw.ssd_latency
  Count
};
constexpr int kFigureCount = static_cast<int>(FigureId::Count);

enum class Lifetime : std::uint8_t { None, Request, Weight };
const char* lifetime_name(Lifetime l);  // "", "request activation", "model weight"

// What one figure counts: the part of the system its number is for. The page prints it beside the unit,
// so a value per GPU never reads as the node's ("74.64 GB per GPU" beside "546 sessions per node").
// Count is no scope: a table row without one (the figures test refuses it).
enum class Scope : std::uint8_t {
  WholeModel,      // the model itself, wherever it is placed (parameters, table sizes)
  PerGpu,          // one GPU (the busiest one where the load is uneven)
  PerInstance,     // one serving instance: the GPUs one engine spans
  PerNode,         // one node (server or compute tray): its host DRAM, its SSDs, its instances
  PerSession,      // one session's state at the context length
  PerRequest,      // one request: its prompt, its prefix hit, its turn
  PerToken,        // one token (through every layer)
  PerStep,         // one decode step of the instance
  PerGpuStep,      // what one GPU does in one decode step
  PerSessionStep,  // what one session's query does in one decode step
  PerLayerToken,   // one layer's entry for one token
  PerExpert,       // one routed expert
  PerDrive,        // one SSD
  PerAccess,       // one memory access
  Count
};
constexpr int kScopeCount = static_cast<int>(Scope::Count);
const char* scope_name(Scope s);  // "whole model", "per GPU", "per instance", …; "" for Count

// The numeric result, in base units (bytes, seconds, FLOP, parameters, USD, fractions).
struct Values {
  double v[kFigureCount] = {};
  double operator[](FigureId id) const { return v[static_cast<int>(id)]; }
  double& operator[](FigureId id) { return v[static_cast<int>(id)]; }
};

// Sums over layers of what one query reads and computes at one context (see layers.h).
struct ReadSums {
  double fullpool = 0, pool = 0, gather = 0, dense = 0, window = 0;  // bytes per query
  double gather_rows = 0;   // Σ selected rows (for the per-query gather when several queries share a session)
  double rows_all = 0;      // Σ rows in the sources' caches over gathering layers (caps a many-query gather)
  double positions = 0;     // Σ positions attended per query
  double state = 0;         // Σ recurrent-state bytes read per query (linear-attention layers, fixed per session)
  double state_layers = 0;  // the linear-attention layers read
  double keys = 0;          // Σ index keys scored per query
  double select_keys = 0;   // Σ keys scored by layers that select (top-k candidates)
  double bytes() const { return fullpool + pool + gather + dense + window + state; }
};

// One forward pass on the busiest GPU. Its kernels fall in four classes that run one after another —
// dense projections, routed experts, attention over the KV, the sparse indexer — and each class is
// bound by its own roof at its own rates: the pass takes Σ max(FLOP ÷ (peak × share), bytes ÷ (bandwidth
// × share), kernels × launch cost) over the classes, plus the collectives. The shares are each class's
// (model/engine.h): the GEMM classes' follow their M, attention and indexer their kernels' measured rates.
enum class WorkClass : std::uint8_t { Dense, Experts, Attention, Index, Count };
constexpr int kWorkClasses = static_cast<int>(WorkClass::Count);
const char* work_class_name(WorkClass c);  // "dense projections", "routed experts", "attention", "indexer"

struct Pass {
  double flop_c[kWorkClasses] = {}, bytes_c[kWorkClasses] = {};
  double floor_c[kWorkClasses] = {};  // kernels × kernel_us: the least the class can take
  double small_c[kWorkClasses] = {};  // small kernels × kernel_us: launched beside the class's roofs, never under them
  double rate_c[kWorkClasses] = {}, bw_c[kWorkClasses] = {};  // each class's achieved FLOP/s and B/s in this pass
  double launch_s = 0;  // one kernel's launch floor in this pass (floor_c ÷ launch_s = the class's kernels)
  double ramp_s = 0;    // one kernel's fixed cost on top of its roofline time (launch to first bytes, tail)
  double ramp(int i) const { return launch_s > 0 ? floor_c[i] / launch_s * ramp_s : 0.0; }  // the class's kernels × ramp_s
  double flop = 0, weight_bytes = 0, kv_bytes = 0;
  double flop_all = 0;  // the whole instance's FLOP for this pass (every GPU)
  double t_compute = 0, t_memory = 0;  // totals: Σ FLOP ÷ (peak × MFU), Σ bytes ÷ (bandwidth × MBU)
  double t_by_compute = 0, t_by_memory = 0, t_by_launch = 0;  // time of the classes each bound wins
  double t_above_memory = 0;  // Σ max(0, compute − memory): what compute adds above the reads
  double t_above_roofs = 0;   // Σ max(ramps, floor − both roofs) + small kernels: what kernels' fixed costs add above both roofs
  double t_comm = 0;          // collectives
  double t_comm_lat = 0;      // of them, their fixed latencies (the rest grows with the tokens they carry)
  double core() const { return t_by_compute + t_by_memory + t_by_launch; }
  // What the pass's tokens cost when they ride a step that streams the weights and pays the collectives'
  // latencies anyway: their compute and their share of the collectives' bytes.
  double t_riding() const { return t_compute + t_comm - t_comm_lat; }
  double time() const { return core() + t_comm; }
  bool compute_bound() const { return t_by_compute > t_by_memory && t_by_compute >= t_by_launch; }
  // Fills the totals and the per-class roofs from flop_c, bytes_c and floor_c at each class's rates.
  void close(const double* rate, const double* bw);
  // The same with one bandwidth for every class.
  void close(const double* rate, double bw);
};
// A prompt's two passes: the layers before the last KV source over every prompt token (in chunks), then
// the layers from it on over the last window only. They run one after the other.
struct PromptPasses {
  Pass full, win;
  double chunks = 0;
  double time() const { return full.time() + win.time(); }
  double flop_all() const { return full.flop_all + win.flop_all; }
  double t_compute() const { return full.t_compute + win.t_compute; }
  double t_riding() const { return full.t_riding() + win.t_riding(); }
};

// The bound that took the most time: "compute-bound", "memory-bound" or "launch-bound".
const char* bound_name(const Pass& p);

// Why a setup cannot run; each names the figure that overflows and carries the numbers.
enum class Infeasible : std::uint8_t {
  WeightsDoNotFit,   // resident weights per GPU above the usable HBM
  KvDoesNotFit,      // not one session's KV fits beside the weights
  BatchOverCapacity, // more concurrent sessions than the instance holds
  CtxOverMaxPos,     // context beyond the model's trained positions
  PromptOverMaxPos,  // prompt beyond the model's trained positions
  Count
};
struct InfeasibleReason {
  Infeasible kind = Infeasible::Count;
  std::string_view field;  // the parameter to change ("batch", "ctx", "gpus")
  double value = 0;        // what the setup asks for
  double limit = 0;        // what fits
  const char* unit = "";
  double setting = 0;      // the field's current value
  double engine_cap = 0;   // > 0: the batch runs into the engine's running-batch cap (max_batch), not HBM
};
constexpr int kMaxInfeasible = 5;

// Intermediate quantities the formulas and the ledger quote; computed alongside the values.
struct Terms {
  // Model parameters.
  double layers = 0, moe_layers = 0, ffn_dense_layers = 0;
  double p_attn_layer = 0, p_routed_active = 0, p_shared = 0, p_attn = 0, p_router = 0;
  double p_dense_ffn = 0, p_head = 0, p_emb = 0, p_expert = 0, p_routed_all = 0;
  double p_shared_expert = 0;      // one shared expert (hidden-wide; p_expert is at the routed experts' latent)
  double p_latent_layer = 0, p_latent_proj = 0;  // a latent MoE's down- and up-projections: one MoE layer's, all
  double bpv_experts = 0, bpv_dense = 0, bpv_head = 0;
  double inv_ratio_main = 0, inv_ratio_index = 0;  // Σ 1/r over KV owners / index owners
  double owners = 0, index_owners = 0, window_layers = 0;
  double chunk_layers = 0, linear_layers = 0;  // chunked-local and linear-attention layers
  double p_kv_proj = 0;            // the K and V projections of the attention layers (copied where tp > kv_heads)
  double read_layers = 0, gather_layers = 0, fullpool_indexers = 0, pool_indexers = 0, dense_readers = 0;
  double selecting_layers = 0;
  double fullpool_rows_idx = 0;    // index rows scanned by full-pool indexers (Σ N/r)
  double pool_positions = 0;       // candidate positions per pool indexer (≤ blocks × size)
  int last_source = -1;            // the last KV-owning layer: layers from it on run on the window in prefill
  double full_layers = 0;          // layers before it (run on every prompt token)
  double weights_bytes_experts = 0, weights_bytes_dense = 0, weights_bytes_head = 0;  // whole model
  double engram_row_bytes = 0;

  // Layout and placement (per GPU unless named otherwise).
  double gpus = 1, tp = 1, dp = 1, ep = 1, mt = 1;  // mt: ways each expert is split (gpus / ep)
  double node_gpus = 8;
  double w_attn = 0, w_dense = 0, w_experts = 0, w_head = 0, w_router = 0, w_engram = 0;
  double w_latent = 0;             // the latent projections, whole on every GPU (replicated, as the router)
  double kv_share = 1;             // share of one session's KV a GPU of its replica holds
  double lin_share = 1;            // share of one session's recurrent state a GPU holds (its heads split by tp)
  double state_ckpt = 0;           // tokens between recurrent-state checkpoints in the prefix cache
  double usable = 0;               // HBM the engine may allocate, minus workspace
  double sessions_replica = 0;     // sessions one attention replica holds (whole)
  double sessions_raw = 0;         // the same before the floor
  double sessions_hbm = 0;         // sessions the instance's HBM holds (every replica)
  double batch_cap = 0;            // the engine's running-batch cap in force (max_batch or its default)

  // Rates (per GPU) and what each costs.
  double bw = 0, bw_raw = 0, peak = 0, peak_raw = 0;  // bandwidth × MBU; dense FLOP/s × MFU (FP8 rate)
  double peak_c[kWorkClasses] = {};  // each class's FLOP/s × MFU (its formats' rate)
  double host_bw = 0, host_lat = 0, ssd_bw = 0, ssd_lat = 0, nic_bw = 0, rdma_lat = 0, hbm_lat = 0;
  double link_bw = 0, link_lat_ar = 0, link_lat_a2a = 0, rdma_lat_ar = 0;  // the fabric the collectives use
  bool cross_node = false;         // the instance spans more GPUs than the scale-up link reaches
  double sram_bw = 0, sram_lat = 0;
  double pay_dispatch = 0, pay_combine = 0;  // bytes per token per destination rank

  // Decode step at the scenario's batch (busiest GPU).
  ReadSums dec;                    // one query at ctx
  double batch_replica = 0;        // sessions on the busiest attention replica: ⌈batch / dp⌉
  double q = 1;                    // query tokens per session per step (1 + draft tokens)
  double tokens_replica = 0, tokens_moe = 0;
  double w_step_dense = 0, w_step_experts = 0;
  double flop_dense = 0, flop_experts = 0, flop_attn = 0, flop_index = 0;
  double append_bytes = 0;
  double kernels_per_step = 0;     // kernels one decode step launches (floors ÷ kernel_us)
  double kernel_us = 0;            // a decode kernel's launch floor in force (µs): graph or eager, or the override
  bool cuda_graphs = false;        // whether the decode step replays CUDA graphs
  double host_us = 0, host_per_seq_us = 0, host_res_us = 0;  // host per step: h0 + h1 × requests, the always-exposed residual
  double host_step = 0;            // the host's work this step (s): h0 + h1 × the busiest replica's sessions
  double gpu_step = 0;             // the GPU's step before the host term (s)
  double ar_attn = 0, ar_ffn = 0, a2a = 0;  // seconds per step (a2a: what the step pays, after any overlap)
  double a2a_layer_bytes = 0;      // all-to-all bytes at the busiest rank per MoE layer (dispatch + combine)
  double dest_nodes = 0;           // remote nodes one token is sent to (normal kernels cross nodes once per node)
  bool a2a_ll = false;             // low-latency (expert-major) kernels rather than normal (rank-major)
  bool tbo = false;                // two-batch overlap runs the step as two micro-batches
  double a2a_serial = 0;           // the all-to-all un-overlapped (one pass of the whole batch)
  double tbo_core_half = 0, tbo_a2a_half = 0, tbo_core_full = 0;  // one micro-batch's compute and all-to-all; the one-pass compute
  double ar_count_tp = 0, ar_count_moe = 0, ar_bytes_tp = 0, ar_bytes_moe = 0;  // the step's all-reduces (Work)
  double draft_one = 0;            // the one-token step a draft's layer is the average of
  double draft_layer = 0, draft_head = 0;  // one draft token's layer (average layer at the batch) and head time
  Pass step;                       // the decode step's roofline
  double accepted = 1;             // tokens per session per step
  double engram_window = 0;        // time before the first Engram layer runs

  // Prefill of the prompt, the prefix path and replay.
  ReadSums pre_full, pre_win;      // per query, at the prompt's causal average / at its end
  PromptPasses prefill;
  double prefill_chunks = 0;
  // prefill.flop's parts, every GPU: projections, this prompt's tokens at the experts, attention core,
  // indexer, and the last layers' KV projections with the head
  double prefill_flop_weights = 0, prefill_flop_experts = 0, prefill_flop_attn = 0, prefill_flop_index = 0, prefill_flop_tail = 0;
  double prefill_chunk_w_dense = 0, prefill_chunk_w_experts = 0;  // prefill.chunk_weight_bytes' parts
  double replay_flop_dense = 0, replay_flop_experts = 0, replay_flop_attn = 0;  // replay.flop's parts (every GPU)
  double replay_w_dense = 0, replay_w_experts = 0;                              // replay.weight_bytes' parts
  Pass replay;                     // the window replayed alone
  PromptPasses rest, rest_replay;  // the prompt after a prefix hit, without and with the window riding along
  PrefixTier prefix_from = PrefixTier::Hbm;  // the tier the hit is read from (never Auto once computed)
  double prefix_hbm_held = 0;      // prefixes of the hit's size the HBM beside the running batch holds (instance)
  double prefix_dram_held = 0;     // prefixes of that size the instance's share of the DRAM pool holds
  double prefix_dram_pool = 0;     // that share of host DRAM, bytes
  ReloadPath reload;               // what a hit's reload climbs on this platform and store (roofline/offload.h)
  double prefix_load = 0;          // the load the prefix figures' reloads run at (prefill_load)
  ReloadHops prefix_hops;          // the scenario's hit: its hops at that load
  bool flip_short_helps[2] = {};   // host DRAM, SSD: a reload helps on the shorter side of its flip in hit length
  bool flip_light_helps[2] = {};   // … and on the lighter side of its flip in load
  double replay_merged_step = 0;   // the decode step with the window riding along
  double persist_tokens_s = 0;     // tokens per second a node persists at the workload's throughput

  // Feasibility.
  int infeasible_count = 0;
  InfeasibleReason infeasible[kMaxInfeasible];
  bool feasible() const { return infeasible_count == 0; }
  // The weights fit and the context is within the model's positions (capacities mean something).
  bool fits() const {
    for (int i = 0; i < infeasible_count; ++i) {
      if (infeasible[i].kind == Infeasible::WeightsDoNotFit || infeasible[i].kind == Infeasible::CtxOverMaxPos) return false;
    }
    return true;
  }
};

struct Computed {
  Values values;
  Terms terms;
};

// The numeric core: closed form (a few passes over at most kMaxLayers layers), no strings, no allocation.
// Inputs are assumed valid (see validate() in params.h); values stay finite for valid inputs. A setup that
// cannot run (terms.infeasible) still gets its byte figures; its timed and capacity figures are computed
// as if it could, and describe() marks them infeasible instead of showing them.
void compute_values(const Scenario& s, Computed& out);
// The same with the layer plan already worked out for s.model (plan_layers in layers.h): sweeps over
// hardware, layout or workload keys plan the layers once.
// `scope` leaves out the parts no requested figure needs (a sweep of decode figures skips the prompt's
// passes); figures outside the scope are left at 0.
struct LayerPlan;
// kScopeOffload (the offload flips: a search over hit lengths and loads) only where asked: describe() and the
// sweeps of its figures ask, the simulators' tables do not.
enum ComputeScope : unsigned { kScopeCrossover = 1, kScopePrompt = 2, kScopeReplay = 4, kScopeAll = 7, kScopeOffload = 8 };
void compute_values(const Scenario& s, const LayerPlan& plan, Computed& out, unsigned scope = kScopeAll);
// The parts of compute_values a figure needs (0: only what is always computed).
unsigned figure_scope(FigureId id);

// A describe()'s formulas, written when first read (describe.cpp): its figures share it.
class FormulaBook;

struct Figure {
  std::string_view id;
  FigureId fid = FigureId::Count;
  std::string_view label;
  double value = 0;
  std::string_view unit;
  // The formula with the scenario's numbers substituted, "value = " + expr().render(). describe() writes no
  // text: the first read writes this figure's topic (it and its neighbours) from the numbers the figures
  // keep; "" without a book.
  const std::string& formula() const;
  // The formula as the expression its value comes from (text() where it is not arithmetic), written with it.
  const Expr& expr() const;
  std::shared_ptr<FormulaBook> book;
  Provenance provenance = Provenance::Derived;  // a fact takes its inputs' weakest provenance
  std::string_view deps;  // the input keys it comes from (comma separated, @name an input group: figure_dep_keys())
  bool feasible = true; // false: the setup cannot run, so this figure is not shown as a number
  Tier tier = Tier::None;
  Lifetime lifetime = Lifetime::None;
};

struct Figures {
  Computed computed;
  // Keeps a loaded file's record alive: `inputs` quote its sources.
  std::shared_ptr<const ScenarioOrigin> origin;
  std::vector<Figure> list;  // in FigureId order
  std::vector<InputSourceOf> inputs;  // one per parameter key, in registry order
  const Figure* find(std::string_view id) const;
  const Figure& operator[](FigureId id) const { return list[static_cast<std::size_t>(id)]; }
};

// What a figure needs of the setup: nothing (bytes, parameters), weights that fit and a context the model
// was trained for (capacities), or a setup that can run at all (every timed figure).
enum class Needs : std::uint8_t { Nothing, Fit, Run };

// Static facts about a figure (id, label, unit, provenance, sources, tier, lifetime).
struct FigureInfo {
  FigureId fid;
  const char* id;
  const char* label;
  const char* unit;
  Provenance provenance;  // Derived for computed figures; a model or hardware fact takes its inputs' own
  const char* deps;       // the scenario parameter keys it is computed from (comma separated, @name a group of them)
  Tier tier;
  Lifetime lifetime;
  Needs needs;            // what the setup must satisfy for the figure to mean anything
  Scope scope = Scope::Count;  // what it counts (every row names one)
};
const FigureInfo& figure_info(FigureId id);
// Figure index by string id, or FigureId::Count if unknown.
FigureId figure_id(std::string_view id);
// An id an earlier release printed that now has another name (scripts keep working, told why), or null.
struct RetiredFigure {
  const char* old_id;
  const char* id;
  const char* why;
};
const RetiredFigure* retired_figure(std::string_view old_id);

// The scenario's hardware and how its instances fill a node, from its parallel layout:
// "8×B200 · two TP4 instances", "8×H200 · one TP8 instance", "16×GB300 · one DP2×TP8 instance over 2 nodes".
std::string layout_label(const Scenario& s);

// Values plus the text layer: facts, provenance and each figure's formula, the formulas written on first
// read (Figure::formula). A Figures and its copies may be read from one thread at a time or from several
// (the book locks while it writes).
Figures describe(const Scenario& s);
// Which formula topic writes each figure first for `s` (figure id, topic name, in figure order of first
// writing), and which one the recorded list (figure_topics.inc) names: tools/regen-figure-topics writes the
// list from the first over every preset, and a test holds the two together.
std::vector<std::pair<std::string_view, std::string_view>> figure_first_topics(const Scenario& s);
std::string_view listed_figure_topic(FigureId id);
// The first over every preset, in figure order; where presets disagree, each disagreement in `conflicts`.
std::vector<std::pair<std::string_view, std::string_view>> figure_topics_over_presets(std::vector<std::string>& conflicts);
// A figure's dependency keys as indices into params() (worked out once).
const std::vector<std::uint8_t>& figure_dep_indices(FigureId id);
// The keys a figure's deps name, in order, its input groups (@name) read as their keys.
std::vector<std::string_view> figure_dep_keys(FigureId id);
// Whether a figure means anything under these terms (see Needs).
bool figure_shown(const Terms& t, FigureId id);

// The sources of a figure's inputs, one "key: source" line each (sources shared by several keys once).
std::string figure_sources(const Figures& f, const Figure& fig);
// The provenance of one input key in these figures (Assumed if unknown).
const InputSourceOf* input_source(const Figures& f, std::string_view key);

// The tier a prefix hit is read from, in words: "HBM", "host DRAM", "SSD".
const char* prefix_tier_name(PrefixTier p);

// A figure's value in words as the page and the command line show it: display_value(), except where a
// value means "never" (a crossover no batch reaches, stored as 0), which reads "never".
std::string figure_value_text(FigureId id, double value, std::string_view unit);
inline std::string figure_value_text(const Figure& f) { return figure_value_text(f.fid, f.value, f.unit); }

// "weights 510 GB per GPU need more than the 162 GB usable" — one reason in words, with its numbers.
std::string infeasible_text(const InfeasibleReason& r);
// All reasons joined by "; " (empty when the setup can run).
std::string infeasible_summary(const Terms& t);
// The reasons as errors (code Infeasible): the field to change, what the setup asks, what fits.
Errors infeasible_errors(const Terms& t);

}  // namespace tierscope::model
