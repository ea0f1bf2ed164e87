// The figure table (ids, labels, units, the inputs each figure comes from, tiers) and the lookups on it.
//
// Sections: the input groups figures depend on · kInfo, the figure table (one row per FigureId) ·
// lifetime and scope names · layout_label · figure_shown · lookups by id (figure_info, figure_id,
// retired_figure, Figures::find, input_source) · figure_dep_indices and figure_sources · the reasons a setup
// cannot run in words and as errors (infeasible_text, infeasible_errors, infeasible_summary).
#include "roofline/figures.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <utility>

#include "model/params.h"

#include "base/text.h"

namespace tierscope::model {

namespace {

// Input groups the figures depend on (parameter keys, comma separated). A figure's deps name a group as
// @name, which figure_dep_indices() reads as its keys in place: each long list is in the module once,
// not in every row that reads it.
struct InputGroup {
  std::string_view name, keys;
};
constexpr InputGroup kInputGroups[] = {
    {"dims", "modes,hidden,vocab,tied_embed,attn,q_heads,kv_heads,head_dim,v_dim,q_lora,kv_lora,rope_dim,o_lora,o_groups,ffn"},
    {"ffn", "experts,shared_experts,experts_per_token,expert_inter,dense_layers,dense_inter,ffn_mats,expert_latent"},
    {"wfmt", "experts_fmt,dense_fmt,head_fmt"},
    {"kv", "modes,attn,kv_heads,head_dim,v_dim,kv_lora,rope_dim,kv_fmt,idx_fmt,idx_dim,kv_rope_bf16,kv_pad"},
    {"win", "n_win,swa_all,swa_fmt,swa_kv_heads,swa_head_dim,swa_v_dim"},
    {"lin", "modes,lin_k_heads,lin_v_heads,lin_k_dim,lin_v_dim,lin_conv,lin_fmt"},
    {"idx", "idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block"},
    {"layout", "gpus,tp,dp,ep,redundant"},
    {"hbm", "gpu,hbm_gb,hbm_usable,workspace_gb"},
    {"mem", "gpu,hbm_tbps,mbu,engine,gemm_bw_eff,gemm_m_half,expert_bw_eff,expert_m_half,attn_bw_eff,index_bw_eff"},
    {"flops", "gpu,compute,mfu,gemm_flop_eff,expert_flop_eff,attn_flop_eff,index_flop_eff"},
    {"link", "link_gbps,link_domain,link_eff,ar_lat_us,ar_rdma_lat_us,a2a_lat_us,a2a_rdma_lat_us,nic_gbps"},
    {"host", "host_link,host_gbps,host_lat_us"},
    {"engram", "engram,engram_ngram,engram_heads,engram_dim,engram_fmt"},
    {"offload", "kv_store,engine,prefill_load,pcie_share,host_mem_gbps,host_link,host_gbps,host_lat_us,nic_gbps,lat_rdma_us,ssd_count,ssd_gbps,lat_ssd_us,gpus,tp,node_gpus"},
};
#define TS_DIMS "@dims"
#define TS_FFN "@ffn"
#define TS_WFMT "@wfmt"
#define TS_KV "@kv"
#define TS_WIN "@win"
#define TS_LIN "@lin"
#define TS_IDX "@idx"
#define TS_LAYOUT "@layout"
#define TS_HBM "@hbm"
#define TS_MEM "@mem"
#define TS_FLOPS "@flops"
#define TS_LINK "@link"
#define TS_HOST "@host"
#define TS_ENGRAM "@engram"
#define TS_OFFLOAD "@offload"
#define TS_STEP TS_DIMS "," TS_FFN "," TS_WFMT "," TS_KV "," TS_WIN "," TS_LIN "," TS_IDX "," TS_LAYOUT "," TS_MEM "," TS_FLOPS "," TS_LINK \
  ",kernel_us,kernel_ramp_us,cuda_graphs,host_us,ctx,batch,spec_tokens,spec_accept,draft_layers,lat_sram_ns"
#define TS_PREFILL TS_DIMS "," TS_FFN "," TS_WFMT "," TS_KV "," TS_WIN "," TS_LIN "," TS_IDX "," TS_LAYOUT "," TS_MEM "," TS_FLOPS "," TS_LINK ",kernel_us,kernel_ramp_us,chunk"
#define TS_HANDOFF TS_KV "," TS_WIN "," TS_LIN ",prompt,engine,tp,gpus,pd_tp"

using P = Provenance;
using T = Tier;
using L = Lifetime;
using F = FigureId;
using S = Scope;
constexpr Needs N0 = Needs::Nothing, NF = Needs::Fit, NR = Needs::Run;

const FigureInfo kInfo[] = {
    {F::ParamsTotal, "model.params_total", "Backbone parameters", "params", P::Paper, TS_DIMS "," TS_FFN, T::None, L::Weight, N0, S::WholeModel},
    {F::ParamsActiveDecode, "model.params_active_decode", "Active parameters per decode token", "params", P::Paper, TS_DIMS "," TS_FFN, T::None, L::Weight, N0, S::PerToken},
    {F::ParamsActivePrefill, "model.params_active_prefill", "Active parameters per prefill token", "params", P::Paper, TS_DIMS "," TS_FFN ",enc_layers", T::None, L::Weight, N0, S::PerToken},
    {F::ParamsPerExpert, "model.params_per_expert", "Parameters per expert", "params", P::Paper, "hidden,expert_inter,expert_latent", T::None, L::Weight, N0, S::PerExpert},
    {F::WeightsDerived, "model.weights_bytes", "Weights at their stored formats (from the dims)", "B", P::Derived, TS_DIMS "," TS_FFN "," TS_WFMT "," TS_ENGRAM, T::Hbm, L::Weight, N0, S::WholeModel},
    {F::CheckpointPublished, "model.checkpoint_published", "Published checkpoint size (cross-check)", "B", P::ThirdParty, "checkpoint_gb", T::None, L::Weight, N0, S::WholeModel},
    {F::WeightsPerToken, "model.weights_per_token", "Weights one token streams (whole model, batch 1)", "B", P::Derived, TS_DIMS "," TS_FFN "," TS_WFMT, T::Hbm, L::Weight, N0, S::PerToken},
    {F::KvMainEntry, "kv.main_entry", "Main KV entry (one layer, one token)", "B", P::Paper, TS_KV, T::Hbm, L::Request, N0, S::PerLayerToken},
    {F::KvIndexEntry, "kv.index_entry", "Index key entry", "B", P::Paper, "idx_dim,idx_fmt", T::Hbm, L::Request, N0, S::PerLayerToken},
    {F::KvSwaEntry, "kv.swa_entry", "SWA window entry (one layer, one token)", "B", P::Paper, TS_KV "," TS_WIN, T::Hbm, L::Request, N0, S::PerLayerToken},
    {F::KvGlobalPerToken, "kv.global_per_token", "Global KV per token", "B/token", P::Paper, TS_KV, T::Hbm, L::Request, N0, S::PerToken},
    {F::KvSwaPerSession, "kv.swa_per_session", "SWA window per session", "B", P::Paper, TS_KV "," TS_WIN, T::Hbm, L::Request, N0, S::PerSession},
    {F::KvPerSession, "kv.per_session", "KV per session at the context length", "B", P::Derived, TS_KV "," TS_WIN ",ctx", T::Hbm, L::Request, N0, S::PerSession},
    {F::KvSwaShare, "kv.swa_share", "SWA window's share of a session's KV", "fraction", P::Derived, TS_KV "," TS_WIN ",ctx", T::Hbm, L::Request, N0, S::PerSession},
    {F::KvChunkPerSession, "kv.chunk_per_session", "Chunked-local KV per session", "B", P::Paper, TS_KV "," TS_WIN ",ctx", T::Hbm, L::Request, N0, S::PerSession},
    {F::KvRecurrentPerSession, "kv.recurrent_per_session", "Recurrent state per session (linear and SSM layers)", "B", P::Paper, TS_LIN, T::Hbm, L::Request, N0, S::PerSession},
    {F::KvRecurrentCkptInterval, "kv.recurrent_checkpoint_interval", "Recurrent-state checkpoint interval", "tokens", P::Engine, TS_LIN ",engine,state_ckpt," TS_KV, T::Hbm, L::Request, N0, S::PerSession},
    {F::KvRecurrentCkptBytes, "kv.recurrent_checkpoint_bytes", "Recurrent-state checkpoint a prefix hit restores", "B", P::Derived, TS_LIN ",engine,state_ckpt,prefix_hit," TS_KV, T::Ssd, L::Request, N0, S::PerRequest},
    {F::KvIndexerPerToken, "kv.indexer_per_token", "Indexer keys per token", "B/token", P::Paper, TS_KV, T::Hbm, L::Request, N0, S::PerToken},
    {F::KvTopkRows, "kv.topk_rows_per_step", "Top-k KV rows read per step", "rows", P::Paper, TS_KV "," TS_IDX ",ctx", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::HbmWeights, "hbm.weights_resident", "Weights resident in the instance's HBM (copies included)", "B", P::Derived, TS_DIMS "," TS_FFN "," TS_WFMT "," TS_ENGRAM ",engram_home," TS_LAYOUT, T::Hbm, L::Weight, N0, S::PerInstance},
    {F::HbmWeightsPerGpu, "hbm.weights_per_gpu", "Weights resident per GPU", "B", P::Derived, TS_DIMS "," TS_FFN "," TS_WFMT "," TS_ENGRAM ",engram_home," TS_LAYOUT, T::Hbm, L::Weight, N0, S::PerGpu},
    {F::HbmKvCopies, "hbm.kv_copies", "Copies of a session's KV in its attention group", "copies", P::Derived, "attn,tp", T::Hbm, L::Request, N0, S::PerSession},
    {F::HbmKvSessionPerGpu, "hbm.kv_session_per_gpu", "One session's KV on one GPU", "B", P::Derived, TS_KV "," TS_WIN ",ctx,tp", T::Hbm, L::Request, N0, S::PerGpu},
    {F::HbmKvBudget, "hbm.kv_budget_per_gpu", "HBM left for KV per GPU", "B", P::Derived, TS_HBM "," TS_LAYOUT "," TS_WFMT "," TS_ENGRAM ",engram_home", T::Hbm, L::Request, NF, S::PerGpu},
    {F::HbmSessions, "hbm.sessions", "Sessions the instance runs at once: those its HBM holds, at most the engine's cap", "sessions", P::Derived,
     TS_HBM "," TS_LAYOUT "," TS_KV "," TS_WIN ",ctx,engine,max_batch", T::Hbm, L::Request, NF, S::PerInstance},
    {F::HbmSessionsPerGpu, "hbm.sessions_per_gpu", "Sessions served per GPU (the instance's, spread over its GPUs)", "sessions", P::Derived, TS_HBM "," TS_LAYOUT "," TS_KV "," TS_WIN ",ctx", T::Hbm, L::Request, NF, S::PerGpu},
    {F::HbmSessionsPerNode, "hbm.sessions_per_node", "Sessions per node", "sessions", P::Derived, TS_HBM "," TS_LAYOUT "," TS_KV "," TS_WIN ",ctx,node_gpus", T::Hbm, L::Request, NF, S::PerNode},
    {F::DecodeDistinctExperts, "decode.distinct_experts", "Distinct experts per layer per step (instance)", "experts", P::Derived, "experts,experts_per_token,batch,dp,spec_tokens", T::None, L::Weight, N0, S::PerStep},
    {F::DecodeExpertsPerRank, "decode.experts_per_rank", "Distinct experts the busiest expert rank streams", "experts", P::Derived, "experts,experts_per_token,batch,ep,redundant,spec_tokens,route_skew,eplb_residual", T::None, L::Weight, N0, S::PerGpuStep},
    {F::DecodeBusiestRank, "decode.busiest_rank_load", "Token-expert assignments on the busiest expert rank", "assignments", P::Derived, "experts,experts_per_token,batch,ep,redundant,spec_tokens,route_skew,eplb_residual", T::None, L::Weight, N0, S::PerGpuStep},
    {F::DecodeImbalance, "decode.ep_imbalance", "Busiest expert rank above the mean (routing skew, balancing)", "fraction", P::Derived, "experts,experts_per_token,batch,ep,redundant,route_skew,eplb_residual", T::None, L::None, N0, S::PerStep},
    {F::DecodeDestRanks, "decode.dest_ranks", "Expert ranks one token is sent to", "ranks", P::Derived, "experts,experts_per_token,ep,redundant", T::None, L::None, N0, S::PerToken},
    {F::DecodeWeightBytes, "decode.weight_bytes", "Weight bytes one GPU streams per decode step", "B", P::Derived, TS_STEP, T::Hbm, L::Weight, NR, S::PerGpuStep},
    {F::DecodeKvBytes, "decode.kv_bytes", "KV and index bytes one GPU reads and writes per step", "B", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerGpuStep},
    {F::DecodeFlop, "decode.flop", "FLOP one GPU does per decode step", "FLOP", P::Derived, TS_STEP, T::None, L::None, NR, S::PerGpuStep},
    {F::DecodeMemoryRoof, "decode.memory_roof", "Decode step, memory roof (bytes ÷ bandwidth)", "s", P::Derived, TS_STEP, T::Hbm, L::None, NR, S::PerStep},
    {F::DecodeComputeRoof, "decode.compute_roof", "Decode step, compute roof (FLOP ÷ peak)", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTWeights, "decode.t_weights", "Step time reading weights", "s", P::Derived, TS_STEP, T::Hbm, L::Weight, NR, S::PerStep},
    {F::DecodeTIndex, "decode.t_index", "Step time reading index keys", "s", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerStep},
    {F::DecodeTGather, "decode.t_gather", "Step time gathering global KV", "s", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerStep},
    {F::DecodeTWindow, "decode.t_window", "Step time reading SWA windows", "s", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerStep},
    {F::DecodeTState, "decode.t_state", "Step time on recurrent states", "s", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerStep},
    {F::DecodeTAppend, "decode.t_append", "Step time writing the new tokens' KV", "s", P::Derived, TS_STEP, T::Hbm, L::Request, NR, S::PerStep},
    {F::DecodeTCompute, "decode.t_compute", "Step time the compute roof adds above the memory roof", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTTopk, "decode.t_topk", "Step time selecting the top-k (radix-select kernel)", "s", P::Derived, TS_STEP, T::Sram, L::None, NR, S::PerStep},
    {F::DecodeTA2a, "decode.t_a2a", "Step time in MoE all-to-all", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTAllreduce, "decode.t_allreduce", "Step time in all-reduces", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTOverhead, "decode.t_overhead", "Step time kernels spend at their launch floor above both roofs", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTDraft, "decode.t_draft", "Step time drafting speculative tokens", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerStep},
    {F::DecodeTHost, "decode.t_host", "Step time the host's scheduling and sampling add, past what the overlap scheduler hides", "s", P::Derived,
     "engine,host_us,batch,dp", T::None, L::None, NR, S::PerStep},
    {F::DecodeTStall, "decode.t_stall", "Step time stalled on Engram rows", "s", P::Derived, TS_STEP "," TS_ENGRAM ",engram_home," TS_HOST ",lat_hbm_us,lat_rdma_us", T::None, L::None, NR, S::PerStep},
    {F::DecodeStepTime, "decode.step_time", "Decode step time", "s", P::Derived, TS_STEP, T::Hbm, L::None, NR, S::PerStep},
    {F::DecodeTokensPerStep, "decode.tokens_per_step", "Tokens per session per step (speculative decoding)", "tokens", P::Derived, "spec_tokens,spec_accept,spec_accept_len", T::None, L::None, N0, S::PerSessionStep},
    {F::DecodeTpot, "decode.tpot", "Time per output token (decode only)", "s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerToken},
    {F::DecodeTokensPerS, "decode.tokens_per_s", "Decode tokens per second (instance)", "tokens/s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerInstance},
    {F::DecodeTokensPerSGpu, "decode.tokens_per_s_gpu", "Decode tokens per second per GPU", "tokens/s", P::Derived, TS_STEP, T::None, L::None, NR, S::PerGpu},
    {F::DecodeWeightShare, "decode.weight_share", "Weights' share of a step's bytes", "fraction", P::Derived, TS_STEP, T::Hbm, L::None, N0, S::PerStep},
    {F::DecodeCrossoverBatch, "decode.crossover_batch", "Batch where the compute roof meets the memory roof", "sessions", P::Derived, TS_STEP, T::None, L::None, N0, S::PerInstance},
    {F::ServePrefillShare, "serve.prefill_share", "Prefill of arriving prompts carried by each step", "s", P::Derived, TS_STEP ",prompt,output,prefix_hit", T::None, L::None, NR, S::PerStep},
    {F::ServeTpot, "serve.tpot", "Time per output token with prefill interleaved", "s", P::Derived, TS_STEP ",prompt,output,prefix_hit", T::None, L::None, NR, S::PerToken},
    {F::ServeTokensPerSGpu, "serve.tokens_per_s_gpu", "Output tokens per second per GPU with prefill interleaved", "tokens/s", P::Derived, TS_STEP ",prompt,output,prefix_hit", T::None, L::None, NR, S::PerGpu},
    {F::TopkSliceBytes, "topk.slice_bytes", "Top-k slice (card definition)", "B", P::Card, TS_KV ",top_k", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::TopkSliceTime, "topk.slice_time", "Top-k slice read time (one GPU)", "s", P::Card, TS_KV ",top_k," TS_MEM, T::Hbm, L::Request, NF, S::PerSessionStep},
    {F::TopkSelectTime, "topk.select_time", "Top-k selection over the scores, per session (one GPU)", "s", P::Derived, TS_IDX ",ctx,modes,gpu,lat_sram_ns", T::Sram, L::Request, NF, S::PerSessionStep},
    {F::GatherBytes, "gather.bytes", "Physical sparse gather per session per step", "B", P::Derived, TS_KV ",top_k,ctx", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::GatherTime, "gather.time", "Sparse gather time (one GPU)", "s", P::Derived, TS_KV ",top_k,ctx," TS_MEM, T::Hbm, L::Request, NF, S::PerSessionStep},
    {F::IndexFullpoolBytes, "index.fullpool_bytes", "Full-pool index scan per session per step (grows with context)", "B", P::Derived, TS_KV "," TS_IDX ",ctx", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::IndexFullpoolTime, "index.fullpool_time", "Full-pool index scan time (one GPU, roofline)", "s", P::Derived, TS_KV "," TS_IDX ",ctx," TS_MEM "," TS_FLOPS, T::Hbm, L::Request, NF, S::PerSessionStep},
    {F::IndexCandidateBytes, "index.candidate_bytes", "Candidate-pool scoring per session per step (flat)", "B", P::Derived, TS_KV "," TS_IDX ",ctx", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::IndexCandidateTime, "index.candidate_time", "Candidate-pool scoring time (one GPU, roofline)", "s", P::Derived, TS_KV "," TS_IDX ",ctx," TS_MEM "," TS_FLOPS, T::Hbm, L::Request, NF, S::PerSessionStep},
    {F::SwaWindowBytes, "swa.window_bytes", "SWA window read per session per step", "B", P::Derived, TS_KV "," TS_WIN ",ctx", T::Hbm, L::Request, N0, S::PerSessionStep},
    {F::SwaWindowTime, "swa.window_time", "SWA window read time (one GPU)", "s", P::Derived, TS_KV "," TS_WIN ",ctx," TS_MEM, T::Hbm, L::Request, NF, S::PerSessionStep},
    {F::SwaRestoreLayerTime, "swa.restore_layer_time", "SWA restore from host, one layer", "s", P::Derived, TS_KV "," TS_WIN "," TS_HOST ",tp", T::Dram, L::Request, NF, S::PerSession},
    {F::SwaRestoreSessionTime, "swa.restore_session_time", "SWA restore from host, whole session", "s", P::Derived, TS_KV "," TS_WIN "," TS_HOST ",tp", T::Dram, L::Request, NF, S::PerSession},
    {F::SwaPoolBytes, "swa.pool_bytes", "SWA recent-session pool in host DRAM", "B", P::Card, "swa_pool,host_dram_gb,n_win", T::Dram, L::Request, N0, S::PerNode},
    {F::SwaPoolSessions, "swa.pool_sessions", "Sessions the SWA pool holds", "sessions", P::Derived, "swa_pool,host_dram_gb," TS_KV "," TS_WIN, T::Dram, L::Request, N0, S::PerNode},
    {F::SwaPoolVsHbm, "swa.pool_vs_hbm", "SWA pool sessions per HBM session (one node)", "ratio", P::Derived, "swa_pool,host_dram_gb," TS_HBM "," TS_LAYOUT "," TS_KV "," TS_WIN ",ctx", T::Dram, L::Request, NF, S::PerNode},
    {F::ResumeKvReloadTime, "resume.kv_reload_time", "A returning session's global KV, host DRAM → HBM", "s", P::Derived, TS_KV ",ctx,tp," TS_HOST, T::Dram, L::Request, NF, S::PerSession},
    {F::ResumeKvSsdTime, "resume.kv_ssd_time", "A returning session's global KV, SSD → host DRAM", "s", P::Derived, TS_KV ",ctx,ssd_count,ssd_gbps,lat_ssd_us", T::Ssd, L::Request, NF, S::PerSession},
    {F::ReplayFlop, "replay.flop", "Bounded replay compute (SWA miss)", "FLOP", P::Derived, TS_DIMS "," TS_FFN "," TS_IDX ",n_win,ctx,bounded_replay", T::None, L::Request, N0, S::PerSession},
    {F::ReplayTime, "replay.time", "Bounded replay riding a decode step", "s", P::Derived, TS_STEP ",bounded_replay", T::None, L::Request, NR, S::PerSession},
    {F::ReplayTimeStandalone, "replay.time_standalone", "Bounded replay alone", "s", P::Derived, TS_STEP ",bounded_replay", T::None, L::Request, NR, S::PerSession},
    {F::ReplayWeightBytes, "replay.weight_bytes", "Weights one GPU streams for a replay alone", "B", P::Derived, TS_STEP ",bounded_replay", T::Hbm, L::Weight, N0, S::PerGpu},
    {F::PrefillFlop, "prefill.flop", "Prefill compute for the prompt (every GPU)", "FLOP", P::Derived, TS_DIMS "," TS_FFN "," TS_IDX ",prompt,enc_layers", T::None, L::None, N0, S::PerRequest},
    {F::PrefillTime, "prefill.time", "Prefill time for the prompt (one request)", "s", P::Derived, TS_PREFILL ",prompt", T::None, L::None, NR, S::PerRequest},
    {F::PrefillFullTime, "prefill.full_time", "Prefill: layers before the last KV source, every prompt token", "s", P::Derived, TS_PREFILL ",prompt", T::None, L::None, NR, S::PerRequest},
    {F::PrefillWindowTime, "prefill.window_time", "Prefill: the layers after it, on the last window", "s", P::Derived, TS_PREFILL ",prompt", T::None, L::None, NR, S::PerRequest},
    {F::PrefillChunkWeightBytes, "prefill.chunk_weight_bytes", "Weights one GPU streams per prefill chunk", "B", P::Derived, TS_PREFILL ",prompt", T::Hbm, L::Weight, N0, S::PerGpu},
    {F::PrefixHitBytes, "prefix.hit_bytes", "Prefix-cache hit bytes", "B", P::Derived, TS_KV ",prefix_hit,bounded_replay," TS_WIN, T::Ssd, L::Request, N0, S::PerRequest},
    {F::PrefixSsdReadTime, "prefix.ssd_read_time", "Prefix hit: SSD → host DRAM", "s", P::Derived, TS_KV ",prefix_hit," TS_OFFLOAD, T::Ssd, L::Request, NR, S::PerRequest},
    {F::PrefixUploadTime, "prefix.upload_time", "Prefix hit: host DRAM → HBM", "s", P::Derived, TS_KV ",prefix_hit," TS_OFFLOAD, T::Dram, L::Request, NR, S::PerRequest},
    {F::PrefixSsdPathTime, "prefix.ssd_path_time", "Prefix hit read from SSD: staged in host DRAM, then up into HBM", "s", P::Derived, TS_KV ",prefix_hit," TS_OFFLOAD, T::Ssd, L::Request, NR, S::PerRequest},
    {F::PrefixHitTime, "prefix.hit_time", "Prefix hit read into HBM from the tier that holds it", "s", P::Derived, TS_KV ",prefix_hit,prefix_tier,batch,swa_pool,host_dram_gb,dram_prefix," TS_OFFLOAD, T::Ssd, L::Request, NR, S::PerRequest},
    {F::PrefixReplayTime, "prefix.replay_time", "Replaying the hit's window with the new tokens", "s", P::Derived, TS_PREFILL ",prompt,prefix_hit,bounded_replay", T::None, L::Request, NR, S::PerRequest},
    {F::PrefixRestTime, "prefix.rest_time", "Prefilling the prompt after the hit", "s", P::Derived, TS_PREFILL ",prompt,prefix_hit", T::None, L::None, NR, S::PerRequest},
    {F::PrefixRecomputeTime, "prefix.recompute_time", "Recomputing the prefix instead", "s", P::Derived, TS_PREFILL ",prompt,prefix_hit", T::None, L::Request, NR, S::PerRequest},
    {F::PrefixTtftMiss, "prefix.ttft_miss", "Time to first token without the hit (whole prompt prefilled)", "s", P::Derived, TS_PREFILL ",prompt", T::None, L::None, NR, S::PerRequest},
    {F::PrefixTtftHit, "prefix.ttft_hit", "Time to first token with the hit (read, replay, the rest prefilled)", "s", P::Derived, TS_PREFILL ",prompt,prefix_hit,prefix_tier,batch,swa_pool,host_dram_gb,dram_prefix," TS_OFFLOAD, T::None, L::Request, NR, S::PerRequest},
    {F::PrefixSpeedup, "prefix.speedup", "TTFT without the hit ÷ TTFT with it", "ratio", P::Derived, TS_PREFILL ",prompt,prefix_hit,prefix_tier,batch,swa_pool,host_dram_gb,dram_prefix," TS_OFFLOAD, T::None, L::None, NR, S::PerRequest},
    {F::OffloadHitBytes, "offload.hit_bytes", "Bytes the store reads for the hit (its copies, full-length windows, read amplification)", "B", P::Derived, TS_KV "," TS_WIN ",prefix_hit," TS_OFFLOAD, T::Ssd, L::Request, N0, S::PerRequest},
    {F::OffloadUploadRate, "offload.upload_rate", "Host DRAM → HBM rate one GPU gets at the load (shared switch, host memory, offloads the other way)", "B/s", P::Derived, TS_OFFLOAD, T::Dram, L::None, NR, S::PerGpu},
    {F::OffloadSsdRate, "offload.ssd_rate", "SSD → host DRAM rate the hit gets, with the store's per-object costs", "B/s", P::Derived, TS_KV ",prefix_hit," TS_OFFLOAD, T::Ssd, L::None, NR, S::PerInstance},
    {F::OffloadTtftOff, "offload.ttft_off", "TTFT at the load with no prefix cache (queue + prefill of the whole prompt)", "s", P::Derived, TS_PREFILL ",prompt,prefill_load", T::None, L::None, NR, S::PerRequest},
    {F::OffloadTtftHbm, "offload.ttft_hbm", "TTFT at the load with the hit still in HBM", "s", P::Derived, TS_PREFILL ",prompt,prefix_hit,prefill_load", T::Hbm, L::Request, NR, S::PerRequest},
    {F::OffloadTtftDram, "offload.ttft_dram", "TTFT at the load with the hit reloaded from host DRAM", "s", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Dram, L::Request, NR, S::PerRequest},
    {F::OffloadTtftSsd, "offload.ttft_ssd", "TTFT at the load with the hit reloaded from SSD", "s", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Ssd, L::Request, NR, S::PerRequest},
    {F::OffloadChangeDram, "offload.change_dram", "TTFT change a host-DRAM hit makes against recomputing (negative: it helps)", "fraction", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Dram, L::None, NR, S::PerRequest},
    {F::OffloadChangeSsd, "offload.change_ssd", "TTFT change an SSD hit makes against recomputing (negative: it helps)", "fraction", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Ssd, L::None, NR, S::PerRequest},
    {F::OffloadFlipHitDram, "offload.flip_hit_tokens_dram", "Hit length of the prompt where a host-DRAM reload flips between helping and hurting, at the load", "tokens", P::Derived, TS_PREFILL "," TS_KV ",prompt," TS_OFFLOAD, T::Dram, L::None, NR, S::PerRequest},
    {F::OffloadFlipHitSsd, "offload.flip_hit_tokens_ssd", "Hit length of the prompt where an SSD reload flips between helping and hurting, at the load", "tokens", P::Derived, TS_PREFILL "," TS_KV ",prompt," TS_OFFLOAD, T::Ssd, L::None, NR, S::PerRequest},
    {F::OffloadFlipLoadDram, "offload.flip_load_dram", "Load where a host-DRAM reload of the hit flips between helping and hurting", "fraction", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Dram, L::None, NR, S::PerInstance},
    {F::OffloadFlipLoadSsd, "offload.flip_load_ssd", "Load where an SSD reload of the hit flips between helping and hurting", "fraction", P::Derived, TS_PREFILL "," TS_KV ",prompt,prefix_hit," TS_OFFLOAD, T::Ssd, L::None, NR, S::PerInstance},
    {F::SsdCapacity, "ssd.capacity", "NVMe capacity per node", "B", P::Derived, "ssd_count,ssd_tb", T::Ssd, L::None, N0, S::PerNode},
    {F::SsdWriteRate, "ssd.write_rate", "Prefix-cache writes per node at the serving rate", "B/s", P::Derived, TS_STEP ",prompt,output,prefix_hit,node_gpus", T::Ssd, L::Request, NR, S::PerNode},
    {F::SsdRetentionBytes, "ssd.retention_bytes", "SSD bytes a retention period holds at that rate", "B", P::Derived, TS_STEP ",prompt,output,prefix_hit,node_gpus,retention_h", T::Ssd, L::Request, NR, S::PerNode},
    {F::SsdDwpdNeeded, "ssd.dwpd_needed", "Drive writes per day that rate costs", "writes/day", P::Derived, TS_STEP ",prompt,output,prefix_hit,node_gpus,ssd_count,ssd_tb", T::Ssd, L::None, NR, S::PerDrive},
    {F::SsdRetentionHours, "ssd.retention_hours", "Hours of prefix cache the node's SSDs hold at that rate", "h", P::Derived, TS_STEP ",prompt,output,prefix_hit,node_gpus,ssd_count,ssd_tb", T::Ssd, L::Request, NR, S::PerNode},
    {F::PdKvBytes, "pd.kv_bytes", "Prompt KV the prefill hands to the decode instance (every copy sent)", "B", P::Derived, TS_HANDOFF, T::Remote, L::Request, N0, S::PerRequest},
    {F::PdPages, "pd.pages", "KV pages of the prompt the hand-off moves", "pages", P::Derived, "prompt,kv_page,engine", T::Remote, L::Request, N0, S::PerRequest},
    {F::PdWireTime, "pd.wire_time", "Hand-off on the wire: descriptors and bytes over the links", "s", P::Derived, TS_HANDOFF ",kv_page,pd_desc_us,rdma_eff,pd_nics,node_gpus,pd_link,nic_gbps,link_gbps,link_domain,link_eff", T::Remote, L::Request, N0, S::PerRequest},
    {F::PdTransferTime, "pd.transfer_time", "Hand-off the first token waits for after the prefill (fixed cost, the push's tail)", "s", P::Derived, TS_PREFILL ",prompt," TS_HANDOFF ",kv_page,pd_desc_us,pd_fixed_us,rdma_eff,pd_nics,node_gpus,pd_link,pd_overlap,nic_gbps,link_gbps,link_domain,link_eff", T::Remote, L::Request, NR, S::PerRequest},
    {F::EngramParams, "engram.params", "Engram table parameters", "params", P::Paper, TS_ENGRAM, T::Hbm, L::Weight, N0, S::WholeModel},
    {F::EngramBytesPerToken, "engram.bytes_per_token", "Engram rows read per token", "B", P::ThirdParty, TS_ENGRAM, T::Hbm, L::Weight, N0, S::PerToken},
    {F::EngramTableBytes, "engram.table_bytes", "Engram table footprint", "B", P::ThirdParty, TS_ENGRAM, T::Hbm, L::Weight, N0, S::WholeModel},
    {F::EngramFetchTime, "engram.fetch_time", "Engram rows of one token, fetched from where the tables live", "s", P::Derived, TS_ENGRAM ",engram_home," TS_HOST "," TS_MEM ",lat_hbm_us,lat_rdma_us,nic_gbps", T::Remote, L::Weight, NF, S::PerToken},
    {F::EngramStepFetchTime, "engram.step_fetch_time", "Engram rows of one step's tokens (one replica)", "s", P::Derived, TS_ENGRAM ",engram_home," TS_HOST "," TS_MEM ",lat_hbm_us,lat_rdma_us,nic_gbps,batch,dp,spec_tokens", T::Remote, L::Weight, NR, S::PerStep},
    {F::EngramPromptFetchTime, "engram.prompt_fetch_time", "Engram rows of the whole prompt", "s", P::Derived, TS_ENGRAM ",engram_home," TS_HOST "," TS_MEM ",lat_hbm_us,lat_rdma_us,nic_gbps,prompt", T::Remote, L::Weight, NR, S::PerRequest},
    {F::EngramStall, "engram.stall", "Engram stall on the critical path", "s", P::Derived, TS_STEP "," TS_ENGRAM ",engram_home," TS_HOST, T::None, L::Weight, NR, S::PerStep},
    {F::CostTurnMiss, "cost.turn_miss", "Cost of a turn, no cache hit", "USD", P::Paper, "prompt,output,price_miss,price_out", T::None, L::None, N0, S::PerRequest},
    {F::CostTurnHit, "cost.turn_hit", "Cost of a turn with the prefix hit", "USD", P::Paper, "prompt,output,prefix_hit,price_miss,price_hit,price_out", T::None, L::None, N0, S::PerRequest},
    {F::HwHbmPerGpu, "hw.hbm_per_gpu", "HBM per GPU", "B", P::ThirdParty, "gpu,hbm_gb", T::Hbm, L::None, N0, S::PerGpu},
    {F::HwHbmBwPerGpu, "hw.hbm_bw_per_gpu", "HBM bandwidth per GPU", "B/s", P::ThirdParty, "gpu,hbm_tbps", T::Hbm, L::None, N0, S::PerGpu},
    {F::HwSramPerGpu, "hw.sram_per_gpu", "On-chip L2 per GPU", "B", P::ThirdParty, "gpu", T::Sram, L::None, N0, S::PerGpu},
    {F::HwSramLatency, "hw.sram_latency", "On-chip SRAM access latency the model uses", "s", P::ThirdParty, "lat_sram_ns", T::Sram, L::None, N0, S::PerAccess},
    {F::HwHostLinkBw, "hw.host_link_bw", "Host link bandwidth (per direction, achieved)", "B/s", P::ThirdParty, "host_link,host_gbps", T::Dram, L::None, N0, S::PerGpu},
    {F::HwLinkBw, "hw.link_bw", "Scale-up link per GPU (per direction)", "B/s", P::ThirdParty, "gpu,link_gbps", T::None, L::None, N0, S::PerGpu},
    {F::HwPeakFlops, "hw.peak_flops", "Dense peak FLOP/s per GPU", "FLOP/s", P::ThirdParty, "gpu,compute", T::None, L::None, N0, S::PerGpu},
    {F::HwSsdBwPerDrive, "hw.ssd_bw_per_drive", "SSD read bandwidth per drive", "B/s", P::ThirdParty, "ssd_gbps", T::Ssd, L::None, N0, S::PerDrive},
    {F::HwHbmLatency, "hw.hbm_latency", "HBM access latency the model uses", "s", P::ThirdParty, "lat_hbm_us", T::Hbm, L::None, N0, S::PerAccess},
    {F::HwHostDram, "hw.host_dram", "Host DRAM per node", "B", P::ThirdParty, "host_dram_gb", T::Dram, L::None, N0, S::PerNode},
    {F::HwHostLatency, "hw.host_latency", "Host DRAM access latency over the host link", "s", P::ThirdParty, "host_link,host_lat_us", T::Dram, L::None, N0, S::PerAccess},
    {F::HwSsdLatency, "hw.ssd_latency", "NVMe SSD read latency per I/O", "s", P::ThirdParty, "lat_ssd_us", T::Ssd, L::None, N0, S::PerAccess},
};
static_assert(sizeof kInfo / sizeof kInfo[0] == kFigureCount, "one table row per FigureId");

#undef TS_DIMS
#undef TS_FFN
#undef TS_WFMT
#undef TS_KV
#undef TS_WIN
#undef TS_LIN
#undef TS_IDX
#undef TS_LAYOUT
#undef TS_HBM
#undef TS_MEM
#undef TS_FLOPS
#undef TS_LINK
#undef TS_HOST
#undef TS_ENGRAM
#undef TS_STEP
#undef TS_PREFILL
#undef TS_HANDOFF

}  // namespace

const char* lifetime_name(Lifetime l) {
  switch (l) {
    case Lifetime::None: return "";
    case Lifetime::Request: return "request activation";
    case Lifetime::Weight: return "model weight";
  }
  return "";
}

const char* scope_name(Scope s) {
  switch (s) {
    case Scope::WholeModel: return "whole model";
    case Scope::PerGpu: return "per GPU";
    case Scope::PerInstance: return "per instance";
    case Scope::PerNode: return "per node";
    case Scope::PerSession: return "per session";
    case Scope::PerRequest: return "per request";
    case Scope::PerToken: return "per token";
    case Scope::PerStep: return "per step";
    case Scope::PerGpuStep: return "per GPU per step";
    case Scope::PerSessionStep: return "per session per step";
    case Scope::PerLayerToken: return "per layer per token";
    case Scope::PerExpert: return "per expert";
    case Scope::PerDrive: return "per drive";
    case Scope::PerAccess: return "per access";
    case Scope::Count: break;
  }
  return "";
}

namespace {
// "one", "two", … for the few instances a node holds; digits beyond ten.
std::string count_word(int n) {
  static const char* const kWords[] = {"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"};
  return n >= 0 && n <= 10 ? kWords[n] : std::to_string(n);
}
}  // namespace

const char* prefix_tier_name(PrefixTier p) {
  switch (p) {
    case PrefixTier::Hbm: return "HBM";
    case PrefixTier::Dram: return "host DRAM";
    case PrefixTier::Ssd: return "SSD";
    case PrefixTier::Auto:
    case PrefixTier::Count: break;
  }
  return "the tier the cache's sizes choose";
}

std::string figure_value_text(FigureId id, double value, std::string_view unit) {
  // A search that found no crossing stores 0: the crossover batch, the offload flips.
  const bool search = id == FigureId::DecodeCrossoverBatch || id == FigureId::OffloadFlipHitDram || id == FigureId::OffloadFlipHitSsd ||
                      id == FigureId::OffloadFlipLoadDram || id == FigureId::OffloadFlipLoadSsd;
  if (search && value == 0) return "never";
  return display_value(value, unit);
}

std::string layout_label(const Scenario& s) {
  const int per_node = std::max(1, node_gpus(s.hw));
  const int gpus = std::max(1, s.hw.gpus);
  const int tp = std::max(1, s.par.tp), dp = std::max(1, s.par.dp);
  // The instance's shape: attention's tensor-parallel width, its data-parallel replicas, and expert
  // parallelism when it is narrower than the instance (the usual recipe spreads experts over every GPU).
  std::string shape = tp == 1 && dp == 1 ? std::string("single-GPU") : (dp > 1 ? "DP" + std::to_string(dp) + "×" : std::string()) + "TP" + std::to_string(tp);
  if (s.model.experts > 0 && s.par.ep > 1 && s.par.ep != gpus) shape += " EP" + std::to_string(s.par.ep);
  // The GPU's short name: the catalog's label up to its first space ("H200 SXM" → "H200", "GB300 (per GPU)" → "GB300").
  const std::string label = gpu_info(s.hw.gpu).label;
  const std::string gpu = label.substr(0, label.find(' '));
  if (gpus > per_node) {
    const int nodes = (gpus + per_node - 1) / per_node;
    return std::to_string(gpus) + "×" + gpu + " · one " + shape + " instance over " + std::to_string(nodes) + " nodes";
  }
  const int instances = per_node / gpus;
  std::string o = std::to_string(per_node) + "×" + gpu + " · " + count_word(instances) + " " + shape + (instances == 1 ? " instance" : " instances");
  if (instances * gpus < per_node) o += " on " + std::to_string(instances * gpus) + " of " + std::to_string(per_node) + " GPUs";
  return o;
}

bool figure_shown(const Terms& t, FigureId id) {
  switch (figure_info(id).needs) {
    case Needs::Nothing: return true;
    case Needs::Fit: return t.fits();
    case Needs::Run: return t.feasible();
  }
  return true;
}

const FigureInfo& figure_info(FigureId id) {
  const int i = static_cast<int>(id);
  return kInfo[(i >= 0 && i < kFigureCount) ? i : 0];
}

FigureId figure_id(std::string_view id) {
  for (const FigureInfo& f : kInfo) {
    if (id == f.id) return f.fid;
  }
  return FigureId::Count;
}

const RetiredFigure* retired_figure(std::string_view old_id) {
  static const RetiredFigure kRetired[] = {
      {"decode.step_floor", "decode.step_time", "the step is now a roofline over compute, memory and launches, not only the memory floor"},
      {"prefix.ssd_hit_time", "prefix.hit_time", "the hit now counts the SSD read, the upload and the replay it needs"},
      {"hbm.kv_budget", "hbm.kv_budget_per_gpu", "the budget is now per GPU, after that GPU's weight shard"},
  };
  for (const RetiredFigure& r : kRetired) {
    if (old_id == r.old_id) return &r;
  }
  return nullptr;
}

const Figure* Figures::find(std::string_view id) const {
  const FigureId f = figure_id(id);
  if (f == FigureId::Count || static_cast<std::size_t>(f) >= list.size()) return nullptr;
  return &list[static_cast<std::size_t>(f)];
}

const InputSourceOf* input_source(const Figures& f, std::string_view key) {
  for (const InputSourceOf& i : f.inputs) {
    if (i.key == key) return &i;
  }
  return nullptr;
}

namespace {

// The registry's keys in an open-addressed table (FNV-1a, linear probing), each slot a registry index + 1:
// a dependency is then found with one hash and, as a rule, one comparison.
struct KeyTable {
  static constexpr std::size_t kSlots = 1024;  // a power of two, several times the registry's size
  std::array<std::uint16_t, kSlots> slot{};

  static std::size_t hash(std::string_view k) {
    std::uint32_t h = 2166136261u;
    for (const char c : k) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h & (kSlots - 1);
  }
  explicit KeyTable(std::span<const ParamDef> ps) {
    for (std::size_t i = 0; i < ps.size() && i < kSlots / 2; ++i) {
      std::size_t at = hash(ps[i].key);
      while (slot[at] != 0) at = (at + 1) & (kSlots - 1);
      slot[at] = static_cast<std::uint16_t>(i + 1);
    }
  }
  // Calls f(index) for every registry entry named `key`, in registry order (a key may repeat).
  template <class F>
  void each(std::span<const ParamDef> ps, std::string_view key, F&& f) const {
    for (std::size_t at = hash(key); slot[at] != 0; at = (at + 1) & (kSlots - 1)) {
      const std::size_t i = slot[at] - 1u;
      if (key == ps[i].key) f(i);
    }
  }
};

// Appends the keys a deps list names, its groups (@name) read as their keys, in order.
void expand_deps(std::string_view deps, std::vector<std::string_view>& out) {
  std::size_t a = 0;
  while (a < deps.size()) {
    std::size_t e = deps.find(',', a);
    if (e == std::string_view::npos) e = deps.size();
    const std::string_view key = deps.substr(a, e - a);
    std::string_view group;
    for (const InputGroup& g : kInputGroups) group = key.size() > 1 && key[0] == '@' && key.substr(1) == g.name ? g.keys : group;
    if (group.empty()) out.push_back(key);
    else expand_deps(group, out);
    a = e + 1;
  }
}

}  // namespace

std::vector<std::string_view> figure_dep_keys(FigureId id) {
  std::vector<std::string_view> keys;
  expand_deps(figure_info(id).deps, keys);
  return keys;
}

const std::vector<std::uint8_t>& figure_dep_indices(FigureId id) {
  // Each figure's dependency keys as registry indices, worked out once: describe() looks them up for
  // every figure of every scenario. This runs at the page's start, before the first frame, so each of the
  // ~5,000 dependency names costs one hash, and a figure's repeats are dropped with a bit each (a search
  // of the keys and of the list so far cost tens of milliseconds in WebAssembly under a phone's CPU).
  static const std::vector<std::vector<std::uint8_t>> table = [] {
    std::vector<std::vector<std::uint8_t>> t(static_cast<std::size_t>(kFigureCount));
    const auto ps = params();
    const KeyTable keys(ps);
    for (int f = 0; f < kFigureCount; ++f) {
      std::bitset<256> seen;
      auto& v = t[static_cast<std::size_t>(f)];
      for (const std::string_view key : figure_dep_keys(static_cast<FigureId>(f))) {
        keys.each(ps, key, [&](std::size_t i) {
          if (i < seen.size() && !seen.test(i)) {
            seen.set(i);
            v.push_back(static_cast<std::uint8_t>(i));
          }
        });
      }
    }
    return t;
  }();
  const int i = static_cast<int>(id);
  return table[static_cast<std::size_t>((i >= 0 && i < kFigureCount) ? i : 0)];
}

std::string figure_sources(const Figures& f, const Figure& fig) {
  // One line per distinct source, naming the keys that share it: "kv_fmt, idx_fmt: FACTS §1.4.4 …".
  struct Line {
    std::string keys;
    std::string source;
  };
  std::vector<Line> lines;
  for (std::uint8_t idx : figure_dep_indices(fig.fid)) {
    if (idx >= f.inputs.size()) continue;
    const InputSourceOf& in = f.inputs[idx];
    if (in.inert) continue;
    const std::string text = in.text();
    bool merged = false;
    for (Line& l : lines) {
      if (l.source == text) {
        l.keys += ", " + std::string(in.key);
        merged = true;
        break;
      }
    }
    if (!merged) lines.push_back({std::string(in.key), text});
  }
  std::string out;
  for (const Line& l : lines) {
    if (!out.empty()) out += "\n";
    out += l.keys + ": " + l.source;
  }
  return out;
}

std::string infeasible_text(const InfeasibleReason& r) {
  const std::string v = human(r.value, r.unit), lim = human(r.limit, r.unit);
  switch (r.kind) {
    case Infeasible::WeightsDoNotFit:
      return "weights of " + v + " per GPU need more than the " + lim + " of HBM usable per GPU (more GPUs, or a smaller format)";
    case Infeasible::KvDoesNotFit:
      return "one session's KV (" + v + " per GPU) needs more than the " + lim + " left beside the weights";
    case Infeasible::BatchOverCapacity:
      if (r.engine_cap > 0) {
        return "batch " + num(r.value) + " exceeds the engine's running-batch cap max_batch = " + num(r.engine_cap) +
               " sessions (set max_batch higher, or run fewer sessions)";
      }
      return "batch " + num(r.value) + " exceeds the " + num(r.limit) + (r.limit == 1 ? " session" : " sessions") +
             " that fit in HBM at this context";
    case Infeasible::CtxOverMaxPos:
      return "context " + num(r.value) + " tokens is beyond the model's " + num(r.limit) + " trained positions";
    case Infeasible::PromptOverMaxPos:
      return "prompt " + num(r.value) + " tokens is beyond the model's " + num(r.limit) + " trained positions";
    case Infeasible::Count: break;
  }
  return "";
}

Errors infeasible_errors(const Terms& t) {
  Errors out;
  for (int i = 0; i < t.infeasible_count; ++i) {
    const InfeasibleReason& r = t.infeasible[i];
    std::string value = num(r.setting), allowed;
    switch (r.kind) {
      case Infeasible::WeightsDoNotFit:
        value += (r.setting == 1 ? " GPU (" : " GPUs (") + human(r.value, "B") + " of weights per GPU)";
        allowed = "enough GPUs, or formats small enough, that the weights fit the " + human(r.limit, "B") + " usable per GPU";
        break;
      case Infeasible::KvDoesNotFit:
        value += " tokens (" + human(r.value, "B") + " of KV per session per GPU)";
        allowed = "a context whose KV fits the " + human(r.limit, "B") + " left per GPU beside the weights";
        break;
      case Infeasible::BatchOverCapacity:
        allowed = r.engine_cap > 0 ? "at most " + human(r.limit, "sessions") + " (the engine's running-batch cap max_batch = " + num(r.engine_cap) + ")"
                                   : "at most " + human(r.limit, "sessions") + " at this context (HBM capacity)";
        break;
      case Infeasible::CtxOverMaxPos:
      case Infeasible::PromptOverMaxPos:
        allowed = "at most " + num(r.limit) + " tokens (the model's trained positions)";
        break;
      case Infeasible::Count: break;
    }
    out.push_back(make_error(ErrorCode::Infeasible, r.field, value, allowed));
  }
  return out;
}

std::string infeasible_summary(const Terms& t) {
  std::string s;
  for (int i = 0; i < t.infeasible_count; ++i) {
    if (i) s += "; ";
    s += infeasible_text(t.infeasible[i]);
  }
  return s;
}

}  // namespace tierscope::model
