// Paths and their ledgers: what moves where, step by step, computed from the scenario's figures.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::anim {

// The nine animations, one row each in kPaths below.
enum class PathId : std::uint8_t { Prefill, Decode, Engram, Csa2Modes, SwaResume, PrefixCache, StepBudget, Handoff, OffloadReload, Count };
constexpr int kPathCount = static_cast<int>(PathId::Count);

namespace detail {
class Builder;
// One builder per path (paths_*.cpp): appends the path's entries to the ledger the builder holds.
void build_prefill(Builder& b);
void build_decode(Builder& b);
void build_engram(Builder& b);
void build_csa2_modes(Builder& b);
void build_swa_resume(Builder& b);
void build_prefix_cache(Builder& b);
void build_step_budget(Builder& b);
void build_handoff(Builder& b);         // paths_moves.cpp
void build_offload_reload(Builder& b);  // paths_moves.cpp
// Whether a model has anything for a path to play.
bool always(const model::ModelArch& m);
bool has_engram(const model::ModelArch& m);  // Engram tables to look up
bool has_window(const model::ModelArch& m);  // a sliding window to park and resume
}  // namespace detail

// An animation: everything the links, the CLI, the page, the walkthrough and the ledger read of it. Adding a
// path is one row here (its builder in anim/paths_*.cpp, its walkthrough words in web/lib/tour.mjs).
struct PathDef {
  PathId id;
  const char* key;      // stable: links (#path=…), the CLI's --path and the golden files name the path by it
  const char* label;    // "Decode step" (path_label(p, m) names it for the model at hand)
  const char* summary;  // one sentence: what the path shows (V4.1's story; path_summary(p, m) for others)
  // The ledger entry its walkthrough step (tour=N, N its place here) opens on: the first with this step key
  // and, when given, this phase.
  std::string_view tour_step, tour_phase;
  bool (*applies)(const model::ModelArch& m);  // false: the model has nothing for it to play (an empty ledger)
  void (*build)(detail::Builder& b);
};

// In PathId order, which is the walkthrough's order.
inline constexpr PathDef kPaths[] = {
    {PathId::Prefill, "prefill", "Prefill",
     "The prompt streams through the causal encoder; global KV is authored and stored in FP4, the SWA ring fills, "
     "Engram rows are read, the decoder runs only on the last window, and the prefix is persisted to SSD.",
     "encode", "", detail::always, detail::build_prefill},
    {PathId::Decode, "decode", "Decode step",
     "One output token: Engram prefetch, the MoE weight stream, full-pool and candidate-pool indexers, top-k, the "
     "FP4 slice gather, the SWA window, and the caches growing by one token.",
     "weights", "", detail::always, detail::build_decode},
    {PathId::Engram, "engram", "Engram lookup",
     "One Engram lookup up close: n-grams hashed per head into prime-sized tables, rows fetched, gated and added "
     "to the residual stream. Nothing is written.",
     "fetch-rows", "", detail::has_engram, detail::build_engram},
    {PathId::Csa2Modes, "csa2-modes", "CSA2 layer modes",
     "Layer by layer, what one decode step reads: Full layers own global KV, Reindex layers re-select inside the "
     "candidate pool, Reuse layers take the selection unchanged, SWA-only layers keep just the window.",
     "full", "", detail::always, detail::build_csa2_modes},
    {PathId::SwaResume, "swa-resume", "SWA resume",
     "An idle session's window is parked in the host-DRAM pool; resuming is a hidden prefetch on a hit and a "
     "bounded replay of the last window on a miss, never an SSD read.",
     "restore", "hit", detail::has_window, detail::build_swa_resume},
    {PathId::PrefixCache, "prefix-cache", "Prefix-cache hit",
     "A returning prompt hits the prefix cache: its global KV comes up from the tier that holds it (nothing to move in "
     "HBM, host DRAM → HBM, or SSD → DRAM → HBM) before the turn's first decode step, compared with recomputing it.",
     "first-decode", "hit", detail::always, detail::build_prefix_cache},
    {PathId::StepBudget, "step-budget", "Decode step budget",
     "Where a decode step's time goes as the batch and the context grow: the weight stream against the KV and "
     "index reads.",
     "weights", "", detail::always, detail::build_step_budget},
    {PathId::Handoff, "pd-handoff", "Prefill→decode hand-off",
     "Disaggregated serving: the prompt's KV leaves the prefill node's HBM over the NIC (RDMA), page by page, into the "
     "decode node's HBM, pushed during the prefill where the engine does.",
     "send-pages", "", detail::always, detail::build_handoff},
    {PathId::OffloadReload, "offload-reload", "Offload reload",
     "A prefix hit climbs SSD → DRAM → HBM, layer by layer where the store loads that way, while the prefill of the rest "
     "runs; against recomputing it, with where offload flips from helping to hurting.",
     "upload", "", detail::always, detail::build_offload_reload},
};
constexpr bool paths_in_order() {
  for (int i = 0; i < kPathCount; ++i)
    if (static_cast<int>(kPaths[i].id) != i) return false;
  return std::size(kPaths) == static_cast<std::size_t>(kPathCount);
}
static_assert(paths_in_order(), "kPaths has one row per PathId, in order");
// The paths' keys, in PathId order: links, the CLI's --path and the page name a path by these.
inline constexpr std::array<const char*, kPathCount> kPathKeys = [] {
  std::array<const char*, kPathCount> keys{};
  for (int i = 0; i < kPathCount; ++i) keys[static_cast<std::size_t>(i)] = kPaths[i].key;
  return keys;
}();

const PathDef& path_def(PathId p);
const char* path_key(PathId p);    // "prefill", "decode", "engram", "csa2-modes", ...
const char* path_label(PathId p);  // "Prefill", "Decode step", ...
const char* path_summary(PathId p);  // one sentence: what the path shows (V4.1's story)
// Whether the model has anything for the path to play (no Engram tables: no Engram lookup).
bool path_applies(PathId p, const model::ModelArch& m);
// The same sentence told for the model at hand (decoder-only, GQA, MLA or CSA2/Engram).
std::string path_summary(PathId p, const model::ModelArch& m);
// The path's name for the model at hand: "CSA2 layer modes" only where there are CSA2 layers.
std::string path_label(PathId p, const model::ModelArch& m);
// Strict: exact key only. On failure `err` names the field ("path"), the value and the allowed keys.
bool parse_path(std::string_view key, PathId& out, model::Error& err);
// "prefill, decode, engram, csa2-modes, swa-resume, prefix-cache, step-budget, pd-handoff, offload-reload"
std::string path_keys_allowed();

// Where a move starts or ends: a memory tier, or a compute place on the canvas. Tiers come first so
// is_tier() is a range check.
enum class Endpoint : std::uint8_t {
  Sram,     // GPU on-chip SRAM (L2 / shared memory / registers)
  Hbm,      // GPU HBM
  Dram,     // host DRAM behind the host link
  Ssd,      // NVMe SSD (local or a 3FS-class pool)
  Tokens,   // the input/output token row
  Encoder,  // the causal encoder layers (all layers for decoder-only models)
  Stream,   // the encoder's final hidden stream H[t]
  Decoder,  // the decoder layers
  Nic,      // the prefill node's NIC (RDMA): what leaves the node crosses it
  PeerHbm,  // the decode node's GPU HBM, another node's memory reached over the NICs
  Count
};
constexpr int kEndpointCount = static_cast<int>(Endpoint::Count);
// "sram", "hbm", "dram", "ssd", "tokens", "encoder", "stream", "decoder", "nic", "peer-hbm"
const char* endpoint_key(Endpoint e);
const char* endpoint_label(Endpoint e);  // "GPU SRAM", "GPU HBM", "host DRAM", "NVMe SSD", ...
inline bool is_tier(Endpoint e) { return e <= Endpoint::Ssd; }
// The place's name for the model at hand: a decoder-only model has "layers", no causal encoder or H[t].
std::string endpoint_label(Endpoint e, const model::ModelArch& m);

// The state objects of the design card's hierarchy, plus the compute-side objects that travel.
enum class ObjectKind : std::uint8_t {
  WorkingSet,    // kernel working set: activations, indexer scores, top-k sort (SRAM, kernel lifetime)
  MoeWeights,    // model weights resident in HBM (MoE experts and the dense parts)
  GlobalKv,      // global KV, FP4 in V4.1: compressed main rows + index keys, token-addressable
  SparseIndex,   // CSA2 sparse index: the selected global positions and the HSI candidate pool
  SwaWindow,     // SWA KV, the active window of the last n_win tokens, every window layer
  SwaPool,       // SWA KV recent-session pool in host DRAM
  EngramTables,  // Engram hashed n-gram tables (weights, not activations)
  PrefixCache,   // persistent prefix cache of global KV on SSD
  Tokens,        // token ids on the token row
  HiddenStream,  // hidden states flowing through the layers (H[t] at the encoder's end)
  // The state of the 2026 families (after the design card's blocks, so their keys keep their order):
  RecurrentState,    // linear-attention / SSM layers' fixed state per session (HBM): read and written every step
  StateCheckpoints,  // the recurrent state's copies kept with the prefix cache (SSD, through DRAM): a hit restores one
  IndexerKeys,       // the sparse indexer's key cache beside the KV (HBM), part of the global KV's bytes per token
  ChunkKv,           // chunked-local layers' KV of the chunk in progress (HBM)
  Count
};
constexpr int kObjectCount = static_cast<int>(ObjectKind::Count);
const char* object_key(ObjectKind o);    // "working-set", "moe-weights", "global-kv", ...
const char* object_label(ObjectKind o);  // the design card's block names
// The block's name for the model at hand: dense weights are "Dense weights", a GQA cache "KV cache (BF16)".
std::string object_label(ObjectKind o, const model::ModelArch& m);
// Request activation vs model weight (Lifetime::None for the compute-side objects' kernel scratch).
model::Lifetime object_lifetime(ObjectKind o);

// A set of real layer indices (up to model::kMaxLayers), for highlights.
struct LayerSet {
  std::array<std::uint64_t, 2> bits{};
  void add(int layer);
  void add_range(int first, int last_inclusive);
  bool has(int layer) const;
  int count() const;
  bool operator==(const LayerSet&) const = default;
};

// What the canvas lights up while an entry plays.
struct Highlight {
  LayerSet layers;             // real layer indices (the canvas maps them onto its 5 + 5 schematic)
  std::uint32_t objects = 0;   // bit per ObjectKind (at most 32 kinds)
  std::uint32_t endpoints = 0; // bit per Endpoint
  bool has(ObjectKind o) const { return (objects >> static_cast<int>(o)) & 1u; }
  bool has(Endpoint e) const { return (endpoints >> static_cast<int>(e)) & 1u; }
  void add(ObjectKind o) { objects |= 1u << static_cast<int>(o); }
  void add(Endpoint e) { endpoints |= 1u << static_cast<int>(e); }
};

// How an entry changes what is resident: `object` gains `bytes` (negative: loses) and `tokens`.
struct Change {
  ObjectKind object = ObjectKind::Count;  // Count: no change
  double bytes = 0;
  double tokens = 0;
};

// One step of a path. Times are model seconds; entries are laid end to end (t_start of entry i+1 is
// t_start + duration of entry i), so a path's durations add up to its total.
struct LedgerEntry {
  int index = 0;
  std::string_view step;   // stable key of the step within its path, e.g. "weights", "promote-ssd-dram"
  std::string phase;       // sub-scenario within a path ("hit", "miss", "batch 8 · ctx 131,072"); empty if none
  int layer = -1;          // the one real layer this step is about (csa2-modes), or -1
  double t_start = 0;
  double duration = 0;
  Endpoint from = Endpoint::Hbm;
  Endpoint to = Endpoint::Hbm;
  ObjectKind object = ObjectKind::GlobalKv;
  double bytes = 0;        // bytes moved by this step (0 for pure compute)
  double flop = 0;         // compute done by this step (0 for pure movement)
  bool overlapped = false; // hidden under other work in the real system (prefetch); still timed here
  std::string formula;     // the figure's formula with numbers, or this module's own with numbers
  model::Provenance provenance = model::Provenance::Derived;
  std::string sources;     // where the cited figure's inputs come from
  model::FigureId figure = model::FigureId::Count;  // the figure the bytes/time come from (Count: none)
  // The time figure this entry lasts, exactly or a documented share of it (shown in the formula); Count:
  // the entry is timed by the model's transfer rules (roofline/timing.h) without a figure of its own.
  model::FigureId time_figure = model::FigureId::Count;
  double time_share = 1;
  std::string sentence;    // one plain sentence
  Highlight highlight;
  std::array<Change, 3> changes{};  // residency changes applied when the step completes
  double engram_rows = 0;  // Engram rows read by this step (for the header counter)
};

// Residency of one state object at the start of a path.
struct Resident {
  Endpoint tier = Endpoint::Hbm;
  double bytes = 0;
  double tokens = 0;
  double capacity = 0;  // reserved footprint (the SWA pool's share of host DRAM); 0 if none
};

struct Ledger {
  PathId path = PathId::Decode;
  std::string preset;
  std::string label;                // the path's name for this model
  std::string summary;              // the path told for this model
  std::array<std::string, kObjectCount> labels;  // each object's name for this model
  // The path's critical-path time figure: its entries that are not overlapped last exactly this long
  // (Count: the path is a story of separate moves, not one timed operation).
  model::FigureId total_figure = model::FigureId::Count;
  std::vector<LedgerEntry> entries;
  double total = 0;                 // Σ duration, model seconds
  std::string note;                 // why entries were skipped or the path is empty for this model
  std::array<Resident, kObjectCount> start{};  // what sits where before the first entry
};

// Builds one path's ledger. describe() runs once (step-budget also evaluates its sweep points);
// deterministic: the same scenario gives the same ledger, bit for bit. The scenario must be valid.
Ledger build_ledger(const model::Scenario& s, PathId path);
// Same, reusing figures already described for `s`.
Ledger build_ledger(const model::Scenario& s, const model::Figures& f, PathId path);

// True when the entry stores something: bytes land in HBM, DRAM or SSD, or it changes what is resident.
// SRAM is a kernel's scratch, so reads into it are not writes.
bool writes_storage(const LedgerEntry& e);

}  // namespace tierscope::anim
