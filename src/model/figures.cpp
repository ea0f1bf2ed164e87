// The figure table (ids, labels, units, provenance, sources, tiers) and describe(): formulas with numbers.
#include "model/figures.h"

#include <cmath>
#include <cstring>

#include "model/text.h"

namespace tierscope::model {

namespace {

constexpr const char* kConfig =
    "FACTS §1.4.1 config: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/dba1be0a40aa45a94ad051997016db3960a90277/config.json";
constexpr const char* kKernel =
    "FACTS §1.4.4 kernel layout: https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/2cba9e42aa026125f3ed06c6d98c1db82f7ca027/inference/kernel.py ; report: https://huggingface.co/papers/2609.19969";
constexpr const char* kActive = "FACTS §1.4.7 (calc.py); report: https://huggingface.co/papers/2609.19969";
constexpr const char* kCapacity = "FACTS §4 #11, §5.2 (6); DGX B200: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html";
constexpr const char* kStep = "FACTS §1.4.7, §5.2 (2)-(4); measured TPOT: https://inferencex.semianalysis.com/inference/deepseek-v41-flash";
constexpr const char* kTopk = "FACTS §4 #5-#6, §5.2 (5); design card";
constexpr const char* kIndex =
    "FACTS §1.4.3: https://docs.nvidia.com/nemo/automodel/latest/nemo-automodel/nemo_automodel/components/models/deepseek_v41/attention.md";
constexpr const char* kSwa =
    "FACTS §1.4.5, §4 #8, #13, §5.2 (7): https://docs.vllm.ai/en/stable/api/vllm/models/deepseek_v41/nvidia/model_state/";
constexpr const char* kReplay = "FACTS §4 #14, §5.2 (8): https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/raw/main/README.md";
constexpr const char* kPrefix =
    "FACTS §3, §4 #19, §5.2 (9): https://api-docs.deepseek.com/guides/kv_cache ; https://github.com/sgl-project/sglang/issues/26305";
constexpr const char* kEngram =
    "FACTS §1.4.6, §4 #16, §5.2 (10): https://github.com/JustVugg/colibri/blob/master/docs/deepseek-v41.md ; https://arxiv.org/abs/2601.07372";
constexpr const char* kPrefill = "FACTS §1.4.2, §5.2 (11): https://docs.vllm.ai/en/latest/api/vllm/models/deepseek_v41/decoder_replay_layers/";
constexpr const char* kCost = "FACTS §3, §5.2 (12): https://api-docs.deepseek.com/quick_start/pricing/?ref=voluntas.ghost.io";
constexpr const char* kHw = "FACTS §2.1-2.4 (GPU, link and storage tables)";

using P = Provenance;
using T = Tier;
using L = Lifetime;

const FigureInfo kInfo[] = {
    {FigureId::ParamsTotal, "model.params_total", "Backbone parameters", "params", P::Paper, kActive, T::None, L::Weight},
    {FigureId::ParamsActiveDecode, "model.params_active_decode", "Active parameters per decode token", "params", P::Paper, kActive, T::None, L::Weight},
    {FigureId::ParamsActivePrefill, "model.params_active_prefill", "Active parameters per prefill token", "params", P::Paper, kActive, T::None, L::Weight},
    {FigureId::ParamsPerExpert, "model.params_per_expert", "Parameters per expert", "params", P::Paper, kConfig, T::None, L::Weight},
    {FigureId::KvMainEntry, "kv.main_entry", "Main KV entry (one layer, one token)", "B", P::Paper, kKernel, T::Hbm, L::Request},
    {FigureId::KvIndexEntry, "kv.index_entry", "Index key entry", "B", P::Paper, kKernel, T::Hbm, L::Request},
    {FigureId::KvSwaEntry, "kv.swa_entry", "SWA window entry (one layer, one token)", "B", P::Paper, kKernel, T::Hbm, L::Request},
    {FigureId::KvGlobalPerToken, "kv.global_per_token", "Global KV per token", "B/token", P::Paper, kKernel, T::Hbm, L::Request},
    {FigureId::KvSwaPerSession, "kv.swa_per_session", "SWA window per session", "B", P::Paper, kKernel, T::Hbm, L::Request},
    {FigureId::KvPerSession, "kv.per_session", "KV per session at the context length", "B", P::Derived, kKernel, T::Hbm, L::Request},
    {FigureId::HbmWeights, "hbm.weights_resident", "Weights resident in HBM", "B", P::ThirdParty, kCapacity, T::Hbm, L::Weight},
    {FigureId::HbmKvBudget, "hbm.kv_budget", "HBM left for KV", "B", P::Derived, kCapacity, T::Hbm, L::Request},
    {FigureId::HbmSessions, "hbm.sessions", "Sessions that fit in HBM", "sessions", P::Derived, kCapacity, T::Hbm, L::Request},
    {FigureId::DecodeDistinctExperts, "decode.distinct_experts", "Distinct experts per layer per step", "experts", P::Derived, kStep, T::None, L::Weight},
    {FigureId::DecodeWeightBytes, "decode.weight_bytes", "Weight bytes streamed per decode step", "B", P::Derived, kStep, T::Hbm, L::Weight},
    {FigureId::DecodeKvBytes, "decode.kv_bytes", "KV and index bytes read per decode step", "B", P::Derived, kStep, T::Hbm, L::Request},
    {FigureId::DecodeStepFloor, "decode.step_floor", "Decode step floor (memory bound)", "s", P::Derived, kStep, T::Hbm, L::None},
    {FigureId::DecodeWeightShare, "decode.weight_share", "Weights' share of decode step bytes", "fraction", P::Derived, kStep, T::Hbm, L::None},
    {FigureId::DecodeTokensPerS, "decode.tokens_per_s", "Decode tokens per second (floor)", "tokens/s", P::Derived, kStep, T::None, L::None},
    {FigureId::TopkSliceBytes, "topk.slice_bytes", "Top-k slice (card definition)", "B", P::Card, kTopk, T::Hbm, L::Request},
    {FigureId::TopkSliceTime, "topk.slice_time", "Top-k slice read time (one GPU)", "s", P::Card, kTopk, T::Hbm, L::Request},
    {FigureId::GatherBytes, "gather.bytes", "Physical sparse gather per step", "B", P::Derived, kTopk, T::Hbm, L::Request},
    {FigureId::GatherTime, "gather.time", "Sparse gather time (one GPU)", "s", P::Derived, kTopk, T::Hbm, L::Request},
    {FigureId::IndexFullpoolBytes, "index.fullpool_bytes", "Full-pool index scan per step (grows with context)", "B", P::Derived, kIndex, T::Hbm, L::Request},
    {FigureId::IndexFullpoolTime, "index.fullpool_time", "Full-pool index scan time (one GPU)", "s", P::Derived, kIndex, T::Hbm, L::Request},
    {FigureId::IndexCandidateBytes, "index.candidate_bytes", "Candidate-pool scoring per step (flat)", "B", P::Derived, kIndex, T::Hbm, L::Request},
    {FigureId::IndexCandidateTime, "index.candidate_time", "Candidate-pool scoring time (one GPU)", "s", P::Derived, kIndex, T::Hbm, L::Request},
    {FigureId::SwaWindowBytes, "swa.window_bytes", "SWA window read per step", "B", P::Derived, kSwa, T::Hbm, L::Request},
    {FigureId::SwaWindowTime, "swa.window_time", "SWA window read time (one GPU)", "s", P::Derived, kSwa, T::Hbm, L::Request},
    {FigureId::SwaRestoreLayerTime, "swa.restore_layer_time", "SWA restore from host, one layer", "s", P::Derived, kSwa, T::Dram, L::Request},
    {FigureId::SwaRestoreSessionTime, "swa.restore_session_time", "SWA restore from host, whole session", "s", P::Derived, kSwa, T::Dram, L::Request},
    {FigureId::SwaPoolBytes, "swa.pool_bytes", "SWA recent-session pool in host DRAM", "B", P::Card, kSwa, T::Dram, L::Request},
    {FigureId::SwaPoolSessions, "swa.pool_sessions", "Sessions the SWA pool holds", "sessions", P::Derived, kSwa, T::Dram, L::Request},
    {FigureId::ReplayFlop, "replay.flop", "Bounded replay compute (SWA miss)", "FLOP", P::Derived, kReplay, T::None, L::Request},
    {FigureId::ReplayTime, "replay.time", "Bounded replay time, merged into a batch", "s", P::Derived, kReplay, T::None, L::Request},
    {FigureId::ReplayTimeStandalone, "replay.time_standalone", "Bounded replay time, alone (weight stream bound)", "s", P::Derived, kReplay, T::None, L::Request},
    {FigureId::PrefixHitBytes, "prefix.hit_bytes", "Prefix-cache hit bytes", "B", P::Derived, kPrefix, T::Ssd, L::Request},
    {FigureId::PrefixSsdHitTime, "prefix.ssd_hit_time", "Prefix hit from SSD", "s", P::Derived, kPrefix, T::Ssd, L::Request},
    {FigureId::PrefixRecomputeTime, "prefix.recompute_time", "Recomputing the prefix instead", "s", P::Derived, kPrefix, T::None, L::Request},
    {FigureId::EngramParams, "engram.params", "Engram table parameters", "params", P::Paper, kEngram, T::Hbm, L::Weight},
    {FigureId::EngramBytesPerToken, "engram.bytes_per_token", "Engram rows read per token", "B", P::ThirdParty, kEngram, T::Hbm, L::Weight},
    {FigureId::EngramTableBytes, "engram.table_bytes", "Engram table footprint", "B", P::ThirdParty, kEngram, T::Hbm, L::Weight},
    {FigureId::EngramFetchTime, "engram.fetch_time", "Engram fetch over RDMA", "s", P::Derived, kEngram, T::Remote, L::Weight},
    {FigureId::EngramStall, "engram.stall", "Engram stall on the critical path", "s", P::Derived, kEngram, T::None, L::Weight},
    {FigureId::PrefillFlop, "prefill.flop", "Prefill compute for the prompt", "FLOP", P::Derived, kPrefill, T::None, L::None},
    {FigureId::PrefillTime, "prefill.time", "Prefill time for the prompt (compute bound)", "s", P::Derived, kPrefill, T::None, L::None},
    {FigureId::CostTurnMiss, "cost.turn_miss", "Cost of a turn, no cache hit", "USD", P::Paper, kCost, T::None, L::None},
    {FigureId::CostTurnHit, "cost.turn_hit", "Cost of a turn with the prefix hit", "USD", P::Paper, kCost, T::None, L::None},
    {FigureId::HwHbmPerGpu, "hw.hbm_per_gpu", "HBM per GPU", "B", P::ThirdParty, kHw, T::Hbm, L::None},
    {FigureId::HwHbmBwPerGpu, "hw.hbm_bw_per_gpu", "HBM bandwidth per GPU", "B/s", P::ThirdParty, kHw, T::Hbm, L::None},
    {FigureId::HwSramPerGpu, "hw.sram_per_gpu", "On-chip L2 per GPU", "B", P::ThirdParty, kHw, T::Sram, L::None},
    {FigureId::HwHostLinkBw, "hw.host_link_bw", "Host link bandwidth (per direction)", "B/s", P::ThirdParty, kHw, T::Dram, L::None},
    {FigureId::HwSsdBwPerDrive, "hw.ssd_bw_per_drive", "SSD read bandwidth per drive", "B/s", P::ThirdParty, kHw, T::Ssd, L::None},
};
static_assert(sizeof kInfo / sizeof kInfo[0] == kFigureCount, "one table row per FigureId");

}  // namespace

const char* lifetime_name(Lifetime l) {
  switch (l) {
    case Lifetime::None: return "";
    case Lifetime::Request: return "request activation";
    case Lifetime::Weight: return "model weight";
  }
  return "";
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

const Figure* Figures::find(std::string_view id) const {
  const FigureId f = figure_id(id);
  if (f == FigureId::Count || static_cast<std::size_t>(f) >= list.size()) return nullptr;
  return &list[static_cast<std::size_t>(f)];
}

}  // namespace tierscope::model
