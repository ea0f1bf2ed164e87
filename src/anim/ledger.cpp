// Names, labels and the strict key parser for paths, endpoints and state objects; layer sets.
#include "anim/ledger.h"

#include <bit>
#include <string>

#include "base/text.h"

namespace tierscope::anim {

namespace {


struct NameInfo {
  const char* key;
  const char* label;
};

constexpr NameInfo kEndpoints[kEndpointCount] = {
    {"sram", "GPU SRAM"},      {"hbm", "GPU HBM"},         {"dram", "host DRAM"},
    {"ssd", "NVMe SSD"},       {"tokens", "token row"},    {"encoder", "causal encoder"},
    {"stream", "encoder final hidden stream H[t]"},        {"decoder", "decoder"},
    {"nic", "NIC (RDMA)"},     {"peer-hbm", "decode node HBM"},
};

constexpr NameInfo kObjects[kObjectCount] = {
    {"working-set", "Kernel working set"},
    {"moe-weights", "MoE weights"},
    {"global-kv", "Global KV"},
    {"sparse-index", "CSA2 sparse index"},
    {"swa-window", "SWA KV: active window"},
    {"swa-pool", "SWA KV: recent-session pool"},
    {"engram", "Engram tables"},
    {"prefix-cache", "Global KV: persistent prefix cache"},
    {"tokens", "Tokens"},
    {"hidden-stream", "Hidden stream"},
    {"recurrent-state", "Recurrent state"},
    {"state-checkpoints", "Recurrent-state checkpoints"},
    {"indexer-keys", "Indexer keys"},
    {"chunk-kv", "Chunked-local KV"},
};
static_assert(kObjectCount <= 32, "Highlight::objects holds one bit per state object");

template <typename E, int N>
int index_of(E e) {
  const int i = static_cast<int>(e);
  return (i >= 0 && i < N) ? i : 0;
}

}  // namespace

const PathDef& path_def(PathId p) { return kPaths[index_of<PathId, kPathCount>(p)]; }
const char* path_key(PathId p) { return path_def(p).key; }
const char* path_label(PathId p) { return path_def(p).label; }
const char* path_summary(PathId p) { return path_def(p).summary; }
bool path_applies(PathId p, const model::ModelArch& m) { return path_def(p).applies(m); }

namespace detail {
bool always(const model::ModelArch&) { return true; }
bool has_engram(const model::ModelArch& m) { return m.engram_count > 0; }
bool has_window(const model::ModelArch& m) { return m.n_win > 0; }
}  // namespace detail

std::string path_keys_allowed() { return model::join_names(kPathKeys); }

bool parse_path(std::string_view key, PathId& out, model::Error& err) {
  for (int i = 0; i < kPathCount; ++i) {
    if (key == kPathKeys[static_cast<std::size_t>(i)]) {
      out = static_cast<PathId>(i);
      return true;
    }
  }
  err = model::make_error(model::ErrorCode::BadEnum, "path", key, "one of: " + path_keys_allowed());
  return false;
}

const char* endpoint_key(Endpoint e) { return kEndpoints[index_of<Endpoint, kEndpointCount>(e)].key; }
const char* endpoint_label(Endpoint e) { return kEndpoints[index_of<Endpoint, kEndpointCount>(e)].label; }
const char* object_key(ObjectKind o) { return kObjects[index_of<ObjectKind, kObjectCount>(o)].key; }
const char* object_label(ObjectKind o) { return kObjects[index_of<ObjectKind, kObjectCount>(o)].label; }

namespace {
std::string short_format(model::NumFormat f) {
  const double bits = model::format_info(f).value_bits;
  return bits <= 4 ? "FP4" : bits <= 8 ? "FP8" : bits <= 16 ? "BF16" : "FP32";
}
std::string kv_name(const model::ModelArch& m) {
  const std::string fmt = short_format(m.kv_fmt);
  switch (m.attn) {
    case model::AttnKind::MHA: return "KV cache (" + fmt + ")";
    case model::AttnKind::MLA: return "MLA latent KV (" + fmt + ")";
    case model::AttnKind::Latent:
    case model::AttnKind::Count: break;
  }
  return "Global KV (" + fmt + ")";
}
}  // namespace

std::string object_label(ObjectKind o, const model::ModelArch& m) {
  switch (o) {
    case ObjectKind::MoeWeights: return m.experts > 0 ? "MoE weights" : "Dense weights";
    case ObjectKind::GlobalKv: return kv_name(m);
    case ObjectKind::SparseIndex: return m.cand_src >= 0 ? "CSA2 sparse index" : model::has_indexer(m) ? "Sparse index" : "Sparse index (none)";
    case ObjectKind::SwaWindow: return m.n_win > 0 ? "SWA KV: active window" : "Sliding window (none)";
    case ObjectKind::SwaPool: return m.n_win > 0 ? "SWA KV: recent-session pool" : "SWA pool (none)";
    case ObjectKind::EngramTables: return m.engram_count > 0 ? "Engram tables" : "Engram tables (none)";
    case ObjectKind::PrefixCache: return kv_name(m) + ": persistent prefix cache";
    case ObjectKind::HiddenStream: return model::is_encoder_decoder(m) ? "Hidden stream" : "Hidden states";
    case ObjectKind::RecurrentState: return model::has_recurrent_state(m) ? "Recurrent state (" + short_format(m.lin_fmt) + ")" : "Recurrent state (none)";
    case ObjectKind::StateCheckpoints: return model::has_recurrent_state(m) ? "Recurrent-state checkpoints" : "Recurrent-state checkpoints (none)";
    case ObjectKind::IndexerKeys: return model::has_indexer(m) && m.idx_dim > 0 ? "Indexer keys (" + short_format(m.idx_fmt) + ")" : "Indexer keys (none)";
    case ObjectKind::ChunkKv: return model::has_chunked(m) ? "Chunked-local KV (" + short_format(m.swa_fmt) + ")" : "Chunked-local KV (none)";
    case ObjectKind::WorkingSet:
    case ObjectKind::Tokens:
    case ObjectKind::Count: break;
  }
  return object_label(o);
}

std::string path_label(PathId p, const model::ModelArch& m) {
  if (p == PathId::Csa2Modes && m.cand_src < 0) return model::has_indexer(m) ? "Sparse layer modes" : "Layer by layer";
  return path_label(p);
}

std::string endpoint_label(Endpoint e, const model::ModelArch& m) {
  const bool ced = model::is_encoder_decoder(m);
  if (ced) return endpoint_label(e);
  switch (e) {
    case Endpoint::Encoder: return "layers";
    case Endpoint::Stream: return "hidden states";
    case Endpoint::Decoder: return "last layers";
    default: return endpoint_label(e);
  }
}

std::string path_summary(PathId p, const model::ModelArch& m) {
  const bool ced = model::is_encoder_decoder(m);
  const bool win = m.n_win > 0, engram = m.engram_count > 0, moe = m.experts > 0, idx = model::has_indexer(m);
  const std::string kv = kv_name(m);
  switch (p) {
    case PathId::Prefill:
      return std::string(ced ? "The prompt streams through the causal encoder, which authors the encoder's global KV; the decoder's is projected from its final stream"
                             : "The prompt runs through every layer, each writing its " + kv) +
             (win ? "; the sliding window fills" : "") + (engram ? "; Engram rows are read" : "") +
             (ced ? "; the layers after the last KV source run only on the last window" : "") +
             "; the prefix is persisted to host DRAM and SSD.";
    case PathId::Decode:
      return std::string("One output token: ") + (engram ? "Engram prefetch, " : "") + (moe ? "the MoE weight stream" : "the weight stream") +
             (idx ? ", the sparse indexers and top-k, the selected rows' gather" : ", every layer's " + kv + " read") +
             (win ? ", the SWA window" : "") + ", the collectives and kernel floors, and the caches growing by one token.";
    case PathId::Engram:
      return engram ? "One Engram lookup up close: n-grams hashed per head into prime-sized tables, rows fetched, gated and added to the residual stream. Nothing is written."
                    : "This model has no Engram memory: there is nothing to look up.";
    case PathId::Csa2Modes:
      return idx ? "Layer by layer, what one decode step reads: Full layers own global KV, Reindex layers re-select, Reuse layers take the selection of the layer before, SWA-only layers keep just the window."
                 : "Layer by layer, what one decode step reads: every layer attends over its whole " + kv + ".";
    case PathId::SwaResume:
      return win ? std::string("An idle session's window is parked in the host-DRAM pool; a hit restores it, a miss ") +
                       (m.bounded_replay ? "promotes the global KV and replays the last window, never reading the window from SSD." :
                                           "reads the window cached with the prefix.")
                 : "This model keeps no sliding window, so there is no short-lived state to park.";
    case PathId::PrefixCache:
      return "A returning prompt hits the prefix cache: its " + kv + " comes up from the tier that holds it (nothing to move in HBM, "
             "host DRAM → HBM, or SSD → DRAM → HBM) before the turn starts" +
             (win && m.bounded_replay ? ", the window is replayed" : "") + ", compared with recomputing it.";
    case PathId::StepBudget:
      return "Where a decode step's time goes as the batch and the context grow: weights, KV reads, compute, collectives and kernel floors.";
    case PathId::Handoff:
      return "Disaggregated serving: the prompt's " + kv + " leaves the prefill node's HBM over the NIC (RDMA), page by page, into the decode node's "
             "HBM, pushed during the prefill where the engine does.";
    case PathId::OffloadReload:
      return "A prefix hit's " + kv + " climbs SSD → DRAM → HBM, layer by layer where the store loads that way, while the prefill of the rest runs; "
             "against recomputing it, with where offload flips from helping to hurting.";
    case PathId::Count: break;
  }
  return path_summary(p);
}

model::Lifetime object_lifetime(ObjectKind o) {
  switch (o) {
    case ObjectKind::MoeWeights:
    case ObjectKind::EngramTables: return model::Lifetime::Weight;
    case ObjectKind::GlobalKv:
    case ObjectKind::SparseIndex:
    case ObjectKind::SwaWindow:
    case ObjectKind::SwaPool:
    case ObjectKind::PrefixCache:
    case ObjectKind::WorkingSet:
    case ObjectKind::Tokens:
    case ObjectKind::HiddenStream:
    case ObjectKind::RecurrentState:
    case ObjectKind::StateCheckpoints:
    case ObjectKind::IndexerKeys:
    case ObjectKind::ChunkKv: return model::Lifetime::Request;
    case ObjectKind::Count: break;
  }
  return model::Lifetime::None;
}

bool writes_storage(const LedgerEntry& e) {
  const bool lands = (e.to == Endpoint::Hbm || e.to == Endpoint::Dram || e.to == Endpoint::Ssd || e.to == Endpoint::PeerHbm) && e.bytes > 0;
  bool changes = false;
  for (const Change& c : e.changes) changes = changes || (c.object != ObjectKind::Count && (c.bytes != 0 || c.tokens != 0));
  return lands || changes;
}

void LayerSet::add(int layer) {
  if (layer < 0 || layer >= model::kMaxLayers) return;
  bits[static_cast<std::size_t>(layer / 64)] |= std::uint64_t{1} << (layer % 64);
}

void LayerSet::add_range(int first, int last_inclusive) {
  for (int i = first; i <= last_inclusive; ++i) add(i);
}

bool LayerSet::has(int layer) const {
  if (layer < 0 || layer >= model::kMaxLayers) return false;
  return (bits[static_cast<std::size_t>(layer / 64)] >> (layer % 64)) & 1u;
}

int LayerSet::count() const { return std::popcount(bits[0]) + std::popcount(bits[1]); }

}  // namespace tierscope::anim
