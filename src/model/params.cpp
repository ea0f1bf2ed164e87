// Parameter registry: keys, kinds, ranges, descriptions and accessors, plus cross-field validation.
//
// Sections: catalog keys (GPU, link, format) · the text-valued keys (engram, layer modes, feed-forward kinds) ·
// kParams, the registry itself · parsing numbers · lookup and the allowed text · set and get by key ·
// tp_splits_heads (the edit rules are in edit_rules.cpp).
#include "model/params.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <iterator>

#include "base/text.h"
#include "model/kv_store.h"

namespace tierscope::model {

namespace {

// The hardware and format choices are the catalogs' rows (catalogs.h): each key lives with its facts.
constexpr auto kGpuKeys = keys_of(kGpus);
constexpr auto kLinkKeys = keys_of(kLinks);
constexpr auto kFmtKeys = keys_of(kFormats);
static_assert(kLinkKeys.size() == static_cast<std::size_t>(HostLink::Count));
static_assert(kFmtKeys.size() == static_cast<std::size_t>(NumFormat::Count));
const char* const kAttnKeys[] = {"mha", "mla", "latent"};
static_assert(sizeof kAttnKeys / sizeof *kAttnKeys == static_cast<int>(AttnKind::Count));
const char* const kComputeKeys[] = {"fp8", "fp4", "formats"};
static_assert(sizeof kComputeKeys / sizeof *kComputeKeys == static_cast<int>(ComputeFormat::Count));
const char* const kHomeKeys[] = {"hbm", "dram", "remote"};
static_assert(sizeof kHomeKeys / sizeof *kHomeKeys == static_cast<int>(EngramHome::Count));
const char* const kEngineKeys[] = {"vllm", "sglang", "trtllm", "deepseek"};
static_assert(sizeof kEngineKeys / sizeof *kEngineKeys == static_cast<int>(EngineKind::Count));
const char* const kPrefixTierKeys[] = {"auto", "hbm", "dram", "ssd"};
static_assert(sizeof kPrefixTierKeys / sizeof *kPrefixTierKeys == static_cast<int>(PrefixTier::Count));
const char* const kGraphKeys[] = {"auto", "on", "off"};
static_assert(sizeof kGraphKeys / sizeof *kGraphKeys == static_cast<int>(CudaGraphs::Count));
const char* const kA2aKeys[] = {"auto", "normal", "ll"};
static_assert(sizeof kA2aKeys / sizeof *kA2aKeys == static_cast<int>(A2aKind::Count));
const char* const kTboKeys[] = {"auto", "off", "on"};
static_assert(sizeof kTboKeys / sizeof *kTboKeys == static_cast<int>(Tbo::Count));
const char* const kThinkKeys[] = {"exp", "lognormal"};
static_assert(sizeof kThinkKeys / sizeof *kThinkKeys == static_cast<int>(ThinkDist::Count));
const char* const kRouterKeys[] = {"prefix", "least", "random"};
static_assert(sizeof kRouterKeys / sizeof *kRouterKeys == static_cast<int>(Router::Count));
const char* const kSsdWriteKeys[] = {"through", "evict"};
static_assert(sizeof kSsdWriteKeys / sizeof *kSsdWriteKeys == static_cast<int>(SsdWrite::Count));
// "auto" (the engine's own), then the stores' rows (kv_store.h).
constexpr std::array<const char*, kStoreCount + 1> kStoreKeys = [] {
  std::array<const char*, kStoreCount + 1> keys{};
  keys[0] = "auto";
  for (int i = 0; i < kStoreCount; ++i) keys[static_cast<std::size_t>(i) + 1] = kStores[i].key;
  return keys;
}();
const char* const kPdLinkKeys[] = {"auto", "nic", "nvlink"};
static_assert(sizeof kPdLinkKeys / sizeof *kPdLinkKeys == static_cast<int>(PdLink::Count));
const char* const kPdOverlapKeys[] = {"auto", "off", "chunk", "layer"};
static_assert(sizeof kPdOverlapKeys / sizeof *kPdOverlapKeys == static_cast<int>(PdOverlap::Count));

// Engram tables as "layer:rows,layer:rows" (e.g. "1:384006168,14:384016682").
bool parse_engram(Scenario& s, std::string_view text, std::string& why) {
  ModelArch m = s.model;
  m.engram_count = 0;
  for (const std::string_view item : split(text, ',')) {
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= item.size()) {
      why = "each table is layer:rows";
      return false;
    }
    long long parts[2] = {0, 0};
    const std::string_view pieces[2] = {item.substr(0, colon), item.substr(colon + 1)};
    for (int k = 0; k < 2; ++k) {
      if (pieces[k].size() > 10) {
        why = "number too long";
        return false;
      }
      for (char c : pieces[k]) {
        if (c < '0' || c > '9') {
          why = "layer and rows are non-negative integers";
          return false;
        }
        parts[k] = parts[k] * 10 + (c - '0');
      }
    }
    if (m.engram_count >= kMaxEngramLayers) {
      why = "at most " + std::to_string(kMaxEngramLayers) + " tables";
      return false;
    }
    if (parts[0] >= kMaxLayers || parts[1] < 1 || parts[1] > 2000000000LL) {
      why = "layer below 128 and rows 1 to 2000000000";
      return false;
    }
    m.engram_layers[static_cast<std::size_t>(m.engram_count)] = static_cast<std::int32_t>(parts[0]);
    m.engram_rows[static_cast<std::size_t>(m.engram_count)] = static_cast<std::int32_t>(parts[1]);
    ++m.engram_count;
  }
  if (text.ends_with(',')) {
    why = "trailing comma";
    return false;
  }
  s.model = m;
  return true;
}

std::string format_engram(const Scenario& s) {
  std::string out;
  for (int i = 0; i < s.model.engram_count; ++i) {
    if (i) out += ',';
    out += std::to_string(s.model.engram_layers[static_cast<std::size_t>(i)]);
    out += ':';
    out += std::to_string(s.model.engram_rows[static_cast<std::size_t>(i)]);
  }
  return out;
}

bool same_engram(const Scenario& a, const Scenario& b) {
  const ModelArch& x = a.model;
  const ModelArch& y = b.model;
  if (x.engram_count != y.engram_count) return false;
  for (int i = 0; i < x.engram_count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (x.engram_layers[k] != y.engram_layers[k] || x.engram_rows[k] != y.engram_rows[k]) return false;
  }
  return true;
}

bool same_modes(const Scenario& a, const Scenario& b) {
  const ModelArch& x = a.model;
  const ModelArch& y = b.model;
  if (x.layer_count != y.layer_count) return false;
  for (int i = 0; i < x.layer_count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    // As the text does: a ratio counts only for layers that store KV, a span only for sliding and chunked ones.
    if (x.layers[k].mode != y.layers[k].mode) return false;
    if (owns_kv(x.layers[k].mode) && x.layers[k].ratio != y.layers[k].ratio) return false;
    const bool spans = x.layers[k].mode == LayerMode::SwaOnly || x.layers[k].mode == LayerMode::Chunked;
    if (spans && x.layers[k].span != y.layers[k].span) return false;
  }
  return true;
}

bool parse_modes(Scenario& s, std::string_view text, std::string& why) { return layers_from_text(s.model, text, why); }
std::string format_modes(const Scenario& s) { return layers_to_text(s.model); }

// The feed-forward block of each layer, one letter each: M routed experts, D a dense FFN, - none; empty:
// the first dense_layers dense and the rest MoE (every model without a per-layer list).
constexpr char kFfnLetters[] = {'?', 'D', 'M', '-'};
bool parse_ffn(Scenario& s, std::string_view text, std::string& why) {
  ModelArch& m = s.model;
  if (text.empty()) {
    m.ffn_count = 0;
    m.ffn = {};
    return true;
  }
  if (text.size() > static_cast<std::size_t>(kMaxLayers)) {
    why = "at most " + std::to_string(kMaxLayers) + " layers";
    return false;
  }
  std::array<FfnKind, kMaxLayers> out{};
  for (std::size_t i = 0; i < text.size(); ++i) {
    FfnKind k = FfnKind::Rule;
    for (int j = 1; j < static_cast<int>(FfnKind::Count); ++j)
      if (text[i] == kFfnLetters[j]) k = static_cast<FfnKind>(j);
    if (k == FfnKind::Rule) {
      why = "letter " + std::to_string(i) + " is not one of M D -";
      return false;
    }
    out[i] = k;
  }
  m.ffn = out;
  m.ffn_count = static_cast<int>(text.size());
  return true;
}
std::string format_ffn(const Scenario& s) {
  std::string out;
  for (int i = 0; i < s.model.ffn_count; ++i) out += kFfnLetters[static_cast<int>(s.model.ffn[static_cast<std::size_t>(i)]) % 4];
  return out;
}
bool same_ffn(const Scenario& a, const Scenario& b) {
  if (a.model.ffn_count != b.model.ffn_count) return false;
  for (int i = 0; i < a.model.ffn_count; ++i)
    if (a.model.ffn[static_cast<std::size_t>(i)] != b.model.ffn[static_cast<std::size_t>(i)]) return false;
  return true;
}

#define TS_FIELD(expr) [](Scenario& s) -> void* { return &s.expr; }
#define TS_REAL(key, group, unit, lo, hi, desc, expr) \
  {key, ParamGroup::group, ParamKind::Real, unit, lo, hi, nullptr, 0, desc, TS_FIELD(expr), nullptr, nullptr}
#define TS_INT(key, group, unit, lo, hi, desc, expr) \
  {key, ParamGroup::group, ParamKind::Int, unit, lo, hi, nullptr, 0, desc, TS_FIELD(expr), nullptr, nullptr}
#define TS_ENUM(key, group, keys, desc, expr)                                                                 \
  {key, ParamGroup::group, ParamKind::Enum, "", 0, 0, std::data(keys), static_cast<int>(std::size(keys)), desc, \
   TS_FIELD(expr), nullptr, nullptr}

const ParamDef kParams[] = {
    // Workload
    TS_INT("ctx", Workload, "tokens", 1, 16777216, "context length at decode", work.ctx),
    TS_INT("batch", Workload, "sessions", 1, 1000000, "concurrent decode sessions", work.batch),
    TS_INT("prompt", Workload, "tokens", 0, 16777216, "prompt tokens of one turn", work.prompt),
    TS_INT("output", Workload, "tokens", 0, 16777216, "output tokens of one turn", work.output),
    TS_INT("prefix_hit", Workload, "tokens", 0, 16777216, "prompt tokens found in the prefix cache", work.prefix_hit),
    TS_ENUM("prefix_tier", Workload, kPrefixTierKeys,
            "tier the prefix hit is read from (auto: HBM beside the running batch, then the DRAM pool, else SSD)", work.prefix_tier),
    TS_INT("chunk", Workload, "tokens", 1, 16777216, "prefill chunk: prompt tokens per forward pass", work.chunk),
    TS_INT("spec_tokens", Workload, "tokens", 0, 16, "speculative draft tokens per decode step (0 = off)", work.spec_tokens),
    TS_REAL("spec_accept", Workload, "fraction", 0, 1, "chance each draft token is accepted", work.spec_accept),
    TS_REAL("spec_accept_len", Workload, "tokens", 0, 17, "tokens one step yields as the engine reports its acceptance length (0 = from spec_accept)", work.spec_accept_len),
    TS_REAL("swa_pool", Workload, "fraction", 0, 1, "share of host DRAM for recent sessions' SWA windows", work.swa_pool),
    TS_REAL("price_miss", Workload, "USD/M tokens", 0, 1000, "input price on a cache miss", work.price_miss),
    TS_REAL("price_hit", Workload, "USD/M tokens", 0, 1000, "input price on a cache hit", work.price_hit),
    TS_REAL("price_out", Workload, "USD/M tokens", 0, 1000, "output price", work.price_out),
    TS_REAL("prefill_load", Workload, "fraction", 0, 0.95, "share of time the instance's prefill is busy when every prompt is computed whole (0: one request alone)", work.prefill_load),
    // Hardware
    TS_ENUM("gpu", Hardware, kGpuKeys, "GPU kind (sets HBM, L2 and FLOPS from the catalog)", hw.gpu),
    TS_INT("gpus", Hardware, "GPUs", 1, 4096, "GPUs of one serving instance", hw.gpus),
    TS_INT("node_gpus", Hardware, "GPUs", 0, 1024, "GPUs per node (0 = catalog)", hw.node_gpus),
    TS_REAL("mbu", Hardware, "fraction", 0, 1, "share of HBM bandwidth forced on every kernel class (0 = each class's own)", hw.mbu),
    TS_REAL("mfu", Hardware, "fraction", 0, 1, "share of peak FLOP/s forced on every kernel class (0 = each class's own)", hw.mfu),
    TS_REAL("kernel_us", Hardware, "µs", 0, 100000, "the least time any kernel takes (0 = the engine's CUDA-graph or eager cost)", hw.kernel_us),
    TS_REAL("kernel_ramp_us", Hardware, "µs", 0, 1000, "each kernel's fixed cost added to its roofline time: launch to first bytes, the last wave's tail (0 = the engine's)", engine.kernel_ramp_us),
    TS_REAL("link_gbps", Hardware, "GB/s", 0, 100000, "scale-up link per GPU per direction (0 = catalog)", hw.link_gbps),
    TS_INT("link_domain", Hardware, "GPUs", 0, 100000, "GPUs on the scale-up link (0 = catalog)", hw.link_domain),
    TS_REAL("link_eff", Hardware, "fraction", 0.01, 1, "achieved share of link bandwidth in collectives", hw.link_eff),
    TS_REAL("ar_lat_us", Hardware, "µs", 0, 100000, "latency of one all-reduce on the scale-up link", hw.ar_lat_us),
    TS_REAL("ar_rdma_lat_us", Hardware, "µs", 0, 100000, "latency of one all-reduce whose group spans nodes (over the NIC)", hw.ar_rdma_lat_us),
    TS_REAL("a2a_lat_us", Hardware, "µs", 0, 100000, "floor of one MoE dispatch or combine on the scale-up link", hw.a2a_lat_us),
    TS_REAL("a2a_rdma_lat_us", Hardware, "µs", 0, 100000, "floor of one MoE dispatch or combine across nodes", hw.a2a_rdma_lat_us),
    TS_REAL("hbm_gb", Hardware, "GB", 0, 100000, "HBM per GPU (0 = catalog)", hw.hbm_gb),
    TS_REAL("hbm_tbps", Hardware, "TB/s", 0, 1000, "HBM bandwidth per GPU (0 = catalog)", hw.hbm_tbps),
    TS_REAL("hbm_usable", Hardware, "fraction", 0.05, 1, "share of HBM the engine may allocate", hw.hbm_usable),
    TS_REAL("workspace_gb", Hardware, "GB", 0, 10000, "activations and workspace per GPU", hw.workspace_gb),
    TS_ENUM("compute", Hardware, kComputeKeys, "tensor-core rate: formats (each GEMM at its weight and activation formats), or fp8 / fp4 everywhere", hw.compute),
    TS_REAL("lat_sram_ns", Hardware, "ns", 0.01, 100000, "on-chip SRAM access latency", hw.lat_sram_ns),
    TS_REAL("lat_hbm_us", Hardware, "µs", 0, 1000, "HBM access latency", hw.lat_hbm_us),
    TS_REAL("lat_ssd_us", Hardware, "µs", 0, 1000000, "SSD read latency per I/O", hw.lat_ssd_us),
    TS_REAL("lat_rdma_us", Hardware, "µs", 0, 100000, "RDMA latency", hw.lat_rdma_us),
    TS_REAL("host_dram_gb", Hardware, "GB", 1, 10000000, "host DRAM per node", hw.host_dram_gb),
    TS_ENUM("host_link", Hardware, kLinkKeys, "GPU-host link kind", hw.host_link),
    TS_REAL("host_gbps", Hardware, "GB/s", 0, 100000, "host link bandwidth per direction (0 = link catalog)", hw.host_gbps),
    TS_REAL("host_lat_us", Hardware, "µs", 0, 100000, "host DMA latency (0 = link catalog)", hw.host_lat_us),
    TS_REAL("nic_gbps", Hardware, "GB/s", 0.01, 100000, "NIC / RDMA bandwidth per GPU", hw.nic_gbps),
    TS_INT("ssd_count", Hardware, "drives", 1, 4096, "NVMe drives per node", hw.ssd_count),
    TS_REAL("ssd_gbps", Hardware, "GB/s", 0.01, 10000, "read bandwidth per drive", hw.ssd_gbps),
    TS_REAL("ssd_tb", Hardware, "TB", 0.01, 1000, "capacity per drive", hw.ssd_tb),
    TS_REAL("ssd_dwpd", Hardware, "writes/day", 0.01, 100, "rated drive writes per day", hw.ssd_dwpd),
    TS_REAL("retention_h", Hardware, "hours", 0, 1000000, "prefix-cache retention on SSD", hw.retention_h),
    TS_REAL("pcie_share", Hardware, "GPUs", 0, 64, "GPUs behind one PCIe switch's uplink, sharing it for host loads (0 = the platform's)", hw.pcie_share),
    TS_REAL("host_mem_gbps", Hardware, "GB/s", 0, 100000, "host memory bandwidth per node, every channel of every socket (0 = the platform's)", hw.host_mem_gbps),
    // Layout
    TS_INT("tp", Layout, "GPUs", 1, 4096, "attention tensor parallel (tp × dp = gpus)", par.tp),
    TS_INT("dp", Layout, "replicas", 1, 4096, "data-parallel attention replicas", par.dp),
    TS_INT("ep", Layout, "GPUs", 1, 4096, "expert parallel (divides gpus; each expert split gpus/ep ways)", par.ep),
    TS_INT("redundant", Layout, "slots", 0, 65536, "redundant expert slots (copies of hot experts, spread with the rest)", par.redundant),
    TS_REAL("route_skew", Layout, "ratio", 0, 64, "busiest ÷ mean expert-rank load of real routing without balancing (1 = uniform; 0 = what real traffic shows at this EP size)", par.route_skew),
    TS_REAL("eplb_residual", Layout, "fraction", 0, 10, "(busiest − mean) ÷ mean rank load left by load balancing with redundant slots", par.eplb_residual),
    TS_INT("pp", Layout, "stages", 1, 1, "pipeline stages: only 1, no preset's engine recipe pipelines decode", par.pp),
    TS_ENUM("engine", Layout, kEngineKeys, "serving engine: its defaults (running-batch cap, CUDA graphs, kernel rates)", engine.kind),
    TS_INT("max_batch", Layout, "sessions", 0, 1000000, "running sessions one instance schedules at most (0 = the engine's default)", engine.max_batch),
    TS_ENUM("cuda_graphs", Layout, kGraphKeys, "CUDA graphs for decode: auto (the engine's, up to its largest captured batch), on, off", engine.cuda_graphs),
    TS_REAL("host_us", Layout, "µs", 0, 1000000, "host, scheduler and sampling time per decode step (0 = the engine's default)", engine.host_us),
    TS_REAL("host_per_seq_us", Layout, "µs", 0, 100000, "host time per running request per decode step (0 = the engine's default)", engine.host_per_seq_us),
    TS_REAL("host_res_us", Layout, "µs", 0, 1000000, "host time per decode step that overlap never hides (0 = the engine's default)", engine.host_res_us),
    TS_REAL("topk_gkeys", Layout, "G keys/s", 0, 100000, "top-k selection rate over candidate scores (0 = the GPU's radix-select rate)", engine.topk_gkeys),
    TS_INT("state_ckpt", Layout, "tokens", 0, 16777216, "tokens between the prefix cache's recurrent-state checkpoints (0 = the engine's)", engine.state_ckpt),
    TS_REAL("gemm_bw_eff", Layout, "fraction", 0, 1, "dense GEMMs: saturated share of HBM bandwidth (0 = the engine's)", engine.gemm_bw_eff),
    TS_REAL("gemm_flop_eff", Layout, "fraction", 0, 1, "dense GEMMs: saturated share of peak FLOP/s (0 = the engine's)", engine.gemm_flop_eff),
    TS_REAL("gemm_m_half", Layout, "rows", 0, 1000000, "dense GEMMs: M at which they reach half their saturated shares (0 = the engine's)", engine.gemm_m_half),
    TS_REAL("expert_bw_eff", Layout, "fraction", 0, 1, "grouped expert GEMMs: saturated share of HBM bandwidth (0 = the engine's)", engine.expert_bw_eff),
    TS_REAL("expert_flop_eff", Layout, "fraction", 0, 1, "grouped expert GEMMs: saturated share of peak FLOP/s (0 = the engine's)", engine.expert_flop_eff),
    TS_REAL("expert_m_half", Layout, "rows", 0, 1000000, "grouped expert GEMMs: rows per expert at half their saturated shares (0 = the engine's)", engine.expert_m_half),
    TS_REAL("attn_bw_eff", Layout, "fraction", 0, 1, "attention kernels: share of HBM bandwidth (0 = the engine's for this attention kind)", engine.attn_bw_eff),
    TS_REAL("attn_flop_eff", Layout, "fraction", 0, 1, "attention kernels: share of peak FLOP/s at their format (0 = the engine's)", engine.attn_flop_eff),
    TS_REAL("index_bw_eff", Layout, "fraction", 0, 1, "indexer scoring kernel: share of HBM bandwidth (0 = the engine's)", engine.index_bw_eff),
    TS_REAL("index_flop_eff", Layout, "fraction", 0, 1, "indexer scoring kernel: share of peak FLOP/s (0 = the engine's)", engine.index_flop_eff),
    TS_ENUM("a2a_kind", Layout, kA2aKeys, "MoE all-to-all kernels: normal (bandwidth), ll (low-latency), auto (ll in decode, normal in prefill)", engine.a2a),
    TS_ENUM("kv_store", Layout, kStoreKeys, "the store the prefix cache spills to below HBM (auto: the engine's own)", engine.kv_store),
    TS_ENUM("tbo", Layout, kTboKeys, "two-batch overlap hiding the all-to-all behind compute: on, off, auto (where the engine runs it)", engine.tbo),
    // The prefill→decode hand-off of a disaggregated deployment (roofline/handoff.h).
    TS_INT("pd_tp", Layout, "GPUs", 0, 4096, "disaggregated: the prefill workers' attention TP, whose KV the decode instance receives (0 = tp)", pd.prefill_tp),
    TS_INT("kv_page", Layout, "tokens", 0, 65536, "tokens per KV page the hand-off moves (0 = the engine's page)", pd.page),
    TS_INT("pd_nics", Layout, "NICs", 0, 1024, "disaggregated: NICs per node a worker's GPUs send the KV through, each at nic_gbps (0 = one per GPU)", pd.nics),
    TS_REAL("rdma_eff", Layout, "fraction", 0, 1, "achieved share of the NIC's rate for KV transfers (0 = the transfer engine's)", pd.rdma_eff),
    TS_REAL("pd_fixed_us", Layout, "µs", 0, 10000000, "fixed cost of one request's KV transfer (0 = the transfer engine's)", pd.fixed_us),
    TS_REAL("pd_desc_us", Layout, "µs", 0, 100000, "cost of one transfer descriptor, one page of one layer (0 = the transfer engine's)", pd.desc_us),
    TS_ENUM("pd_link", Layout, kPdLinkKeys, "how the KV crosses: nic (RDMA), nvlink (the scale-up link), auto (NVLink when both pools share a domain)", pd.link),
    TS_ENUM("pd_overlap", Layout, kPdOverlapKeys, "what of the transfer overlaps the prefill: off, chunk, layer (a layer-wise push), auto (the engine's)", pd.overlap),
    // Model
    {"modes", ParamGroup::Model, ParamKind::Text, "", 0, 0, nullptr, 0,
     "per-layer attention modes: D/F with optional ratio, I, U, S (e.g. SSF2UUUUU...)", nullptr, parse_modes, format_modes, same_modes},
    TS_INT("enc_layers", Model, "layers", 0, kMaxLayers, "causal encoder layers (0 = decoder-only)", model.enc_layers),
    TS_INT("hidden", Model, "dims", 1, 1048576, "hidden size", model.hidden),
    TS_INT("vocab", Model, "tokens", 1, 100000000, "vocabulary size", model.vocab),
    TS_ENUM("attn", Model, kAttnKeys, "attention kind: MHA/GQA/MQA, MLA, or one shared latent", model.attn),
    TS_INT("q_heads", Model, "heads", 1, 4096, "query heads", model.q_heads),
    TS_INT("kv_heads", Model, "heads", 1, 4096, "KV heads (MHA/GQA/MQA)", model.kv_heads),
    TS_INT("head_dim", Model, "dims", 1, 65536, "query/key dims per head (latent width for 'latent')", model.head_dim),
    TS_INT("v_dim", Model, "dims", 1, 65536, "value dims per head", model.v_dim),
    TS_INT("q_lora", Model, "dims", 0, 1048576, "query low-rank (0 = none)", model.q_lora),
    TS_INT("kv_lora", Model, "dims", 0, 1048576, "MLA latent rank", model.kv_lora),
    TS_INT("rope_dim", Model, "dims", 0, 65536, "RoPE dims", model.rope_dim),
    TS_INT("o_lora", Model, "dims", 0, 1048576, "output low-rank (0 = none)", model.o_lora),
    TS_INT("o_groups", Model, "groups", 0, 4096, "output projection groups", model.o_groups),
    TS_INT("n_win", Model, "tokens", 0, 1048576, "sliding window length (0 = none)", model.n_win),
    TS_INT("swa_kv_heads", Model, "heads", 0, 4096, "sliding and chunked layers' KV heads (0 = kv_heads)", model.swa_kv_heads),
    TS_INT("swa_head_dim", Model, "dims", 0, 65536, "sliding and chunked layers' head_dim (0 = head_dim)", model.swa_head_dim),
    TS_INT("swa_v_dim", Model, "dims", 0, 65536, "sliding and chunked layers' v_dim (0 = v_dim)", model.swa_v_dim),
    TS_INT("lin_k_heads", Model, "heads", 0, 4096, "linear layers: key heads (Mamba-2 groups)", model.lin_k_heads),
    TS_INT("lin_v_heads", Model, "heads", 0, 4096, "linear layers: value heads", model.lin_v_heads),
    TS_INT("lin_k_dim", Model, "dims", 0, 65536, "linear layers: key dims (Mamba-2 state)", model.lin_k_dim),
    TS_INT("lin_v_dim", Model, "dims", 0, 65536, "linear layers: value dims per head", model.lin_v_dim),
    TS_INT("lin_conv", Model, "tokens", 0, 64, "linear layers: convolution width (0 = none)", model.lin_conv),
    TS_ENUM("lin_fmt", Model, kFmtKeys, "linear layers: recurrent state format", model.lin_fmt),
    TS_INT("swa_all", Model, "flag", 0, 1, "1: every layer keeps the sliding window", model.swa_all),
    TS_INT("kv_rope_bf16", Model, "flag", 0, 1, "1: RoPE dims stored apart in BF16", model.kv_rope_bf16),
    TS_INT("kv_pad", Model, "B", 0, 4096, "alignment bytes per stored KV vector", model.kv_pad),
    TS_ENUM("kv_fmt", Model, kFmtKeys, "main (global) KV storage format", model.kv_fmt),
    TS_ENUM("idx_fmt", Model, kFmtKeys, "index key storage format", model.idx_fmt),
    TS_ENUM("swa_fmt", Model, kFmtKeys, "sliding-window KV storage format", model.swa_fmt),
    TS_INT("idx_heads", Model, "heads", 0, 4096, "indexer heads", model.idx_heads),
    TS_INT("idx_dim", Model, "dims", 0, 65536, "index key dims", model.idx_dim),
    TS_INT("top_k", Model, "positions", 0, 16777216, "positions selected per query", model.top_k),
    TS_INT("cand_src", Model, "layer", -1, kMaxLayers - 1, "layer picking the candidate pool (-1 = none)", model.cand_src),
    TS_INT("cand_blocks", Model, "blocks", 0, 16777216, "candidate pool blocks", model.cand_blocks),
    TS_INT("cand_block", Model, "positions", 0, 65536, "positions per candidate block", model.cand_block),
    TS_INT("experts", Model, "experts", 0, 65536, "routed experts (0 = dense FFN)", model.experts),
    TS_INT("shared_experts", Model, "experts", 0, 1024, "shared experts", model.shared_experts),
    TS_INT("experts_per_token", Model, "experts", 0, 65536, "routed experts per token", model.experts_per_token),
    TS_INT("expert_inter", Model, "dims", 0, 16777216, "expert intermediate size", model.expert_inter),
    TS_INT("expert_latent", Model, "dims", 0, 16777216,
           "routed experts' latent width: projected down from hidden before them, back up after (0 = hidden, no latent)", model.expert_latent),
    TS_INT("dense_layers", Model, "layers", 0, kMaxLayers, "leading layers with a dense FFN", model.dense_layers),
    TS_INT("dense_inter", Model, "dims", 0, 16777216, "dense FFN intermediate size", model.dense_inter),
    TS_INT("ffn_mats", Model, "matrices", 0, 3, "matrices per FFN: 3 gated, 2 plain (0 = 3)", model.ffn_mats),
    {"ffn", ParamGroup::Model, ParamKind::Text, "", 0, 0, nullptr, 0,
     "per-layer FFN: M experts, D dense, - none (empty: dense_layers)", nullptr, parse_ffn, format_ffn,
     same_ffn},
    TS_ENUM("experts_fmt", Model, kFmtKeys, "routed expert weight format", model.experts_fmt),
    TS_ENUM("dense_fmt", Model, kFmtKeys, "attention, shared-expert and dense FFN weight format", model.dense_fmt),
    TS_ENUM("head_fmt", Model, kFmtKeys, "embedding, LM head and router weight format", model.head_fmt),
    TS_ENUM("act_fmt", Model, kFmtKeys, "activation format entering the GEMMs", model.act_fmt),
    {"engram", ParamGroup::Model, ParamKind::Text, "", 0, 0, nullptr, 0,
     "Engram tables as layer:rows list (empty = none)", nullptr, parse_engram, format_engram, same_engram},
    TS_INT("engram_ngram", Model, "order", 0, 16, "largest n-gram order (orders 2..n)", model.engram_ngram),
    TS_INT("engram_heads", Model, "heads", 0, 1024, "hash heads per order", model.engram_heads),
    TS_INT("engram_dim", Model, "dims", 0, 65536, "Engram row dims", model.engram_dim),
    TS_ENUM("engram_fmt", Model, kFmtKeys, "Engram row format", model.engram_fmt),
    TS_ENUM("engram_home", Model, kHomeKeys, "where Engram tables live", model.engram_home),
    TS_INT("max_pos", Model, "tokens", 0, 2147483647, "maximum positions the model was trained for (0 = no limit)", model.max_pos),
    TS_INT("bounded_replay", Model, "flag", 0, 1, "1: SWA KV is never cached but rebuilt by replaying the last window", model.bounded_replay),
    TS_INT("draft_layers", Model, "layers", 0, 16, "layers one speculative draft token runs (MTP module)", model.draft_layers),
    TS_INT("tied_embed", Model, "flag", 0, 1, "1: the LM head shares the embedding matrix (tie_word_embeddings)", model.tied_embed),
    TS_REAL("checkpoint_gb", Model, "GB", 0, 10000000, "published checkpoint size, a cross-check (0 = none)", model.checkpoint_gb),
    // Fleet traffic (read only by the fleet simulator, src/sim)
    TS_REAL("arrivals", Fleet, "sessions/s", 0.000001, 1000000, "sessions arriving at the fleet per second (mean over the day)", fleet.arrivals),
    TS_REAL("day_amp", Fleet, "fraction", 0, 0.99, "daily cycle: arrivals × (1 + day_amp · cos(2π (hour − day_peak_h) / 24))", fleet.day_amp),
    TS_REAL("day_peak_h", Fleet, "hour", 0, 24, "hour of the day with the most arrivals", fleet.day_peak_h),
    TS_REAL("turns", Fleet, "turns", 1, 64, "mean turns per session (geometric, at most 64)", fleet.turns),
    TS_ENUM("think_dist", Fleet, kThinkKeys, "think time between turns: exp (exponential) or lognormal", fleet.think_dist),
    TS_REAL("think_s", Fleet, "s", 0, 10000000, "mean think time from a turn's end to the next turn", fleet.think_s),
    TS_REAL("think_sigma", Fleet, "", 0.01, 4, "σ of the log of lognormal think times", fleet.think_sigma),
    TS_INT("user_tokens", Fleet, "tokens", 1, 16777216, "mean new prompt tokens per turn", fleet.user_tokens),
    TS_INT("out_tokens", Fleet, "tokens", 1, 16777216, "mean output tokens per turn", fleet.out_tokens),
    TS_REAL("len_sigma", Fleet, "", 0, 3, "σ of the log of prompt and output lengths (lognormal; 0: fixed)", fleet.len_sigma),
    TS_INT("prefixes", Fleet, "prefixes", 0, 1000000, "shared prefixes (system prompts, documents); 0: none", fleet.prefixes),
    TS_INT("prefix_tokens", Fleet, "tokens", 1, 16777216, "mean tokens of a shared prefix", fleet.prefix_tokens),
    TS_REAL("zipf", Fleet, "", 0, 5, "Zipf exponent of prefix popularity (0: uniform)", fleet.zipf),
    TS_INT("seed", Fleet, "", 0, 2147483647, "random seed of the simulated traffic", fleet.seed),
    TS_REAL("hours", Fleet, "hours", 0.01, 720, "simulated time", fleet.hours),
    TS_INT("nodes", Fleet, "nodes", 1, 64, "identical serving nodes behind one router", fleet.nodes),
    TS_ENUM("router", Fleet, kRouterKeys, "node for a new session: prefix (longest cached prefix, then load), least (fewest sessions), random", fleet.router),
    TS_REAL("dram_prefix", Fleet, "fraction", 0, 1, "share of host DRAM left after the SWA pool that holds the prefix cache", fleet.dram_prefix),
    TS_REAL("wm_high", Fleet, "fraction", 0.01, 1, "a tier evicts LRU entries once it passes this share of its capacity", fleet.wm_high),
    TS_REAL("wm_low", Fleet, "fraction", 0, 1, "… down to this share (at most wm_high)", fleet.wm_low),
    TS_ENUM("ssd_write", Fleet, kSsdWriteKeys, "prefix KV reaches SSD when persisted (through) or when evicted from DRAM (evict)", fleet.ssd_write),
    TS_INT("block_tokens", Fleet, "tokens", 1, 1048576, "tokens per hashed block of a recorded trace", fleet.block_tokens),
    TS_INT("queue_max", Fleet, "turns", 1, 10000000, "turns waiting for HBM per node before new sessions are refused", fleet.queue_max),
};

#undef TS_FIELD
#undef TS_REAL
#undef TS_INT
#undef TS_ENUM

bool parse_double(std::string_view text, double& out) {
  if (text.empty() || text.size() > 64) return false;
  char buf[72];
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  // Only plain decimal notation: no hex, no "inf"/"nan" words (reported separately), no spaces.
  for (char c : text) {
    const bool ok = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
    if (!ok) return false;
  }
  char* end = nullptr;
  out = std::strtod(buf, &end);
  return end == buf + text.size();
}

bool looks_non_finite(std::string_view text) {
  std::string low;
  for (char c : text.substr(0, 16)) low += static_cast<char>((c >= 'A' && c <= 'Z') ? c + 32 : c);
  return low == "nan" || low == "inf" || low == "-inf" || low == "+inf" || low == "infinity" || low == "-infinity";
}

}  // namespace

const char* param_group_name(ParamGroup g) {
  switch (g) {
    case ParamGroup::Model: return "model";
    case ParamGroup::Hardware: return "hardware";
    case ParamGroup::Layout: return "layout";
    case ParamGroup::Workload: return "workload";
    case ParamGroup::Fleet: return "fleet";
  }
  return "model";
}

std::span<const ParamDef> params() { return {kParams, sizeof kParams / sizeof kParams[0]}; }

const ParamDef* find_param(std::string_view key) {
  // Compared in place, without measuring each registry key first: this runs for every setting of every
  // preset and link the page reads at start-up. No key holds a NUL, and ruling one out makes the
  // terminator test below stay inside the registry key whenever strncmp matched.
  if (key.empty() || std::memchr(key.data(), '\0', key.size()) != nullptr) return nullptr;
  for (const ParamDef& p : kParams) {
    if (std::strncmp(p.key, key.data(), key.size()) == 0 && p.key[key.size()] == '\0') return &p;
  }
  return nullptr;
}

std::string param_zero_text(const Scenario& s, const ParamDef& p) {
  // The catalog's hardware values, as the model reads them where the field is 0 (scenario.h).
  const Hardware& hw = s.hw;
  const std::string_view k = p.key;
  if (k == "hbm_gb") return "catalog: " + num(hbm_gb_per_gpu(hw));
  if (k == "hbm_tbps") return "catalog: " + num(hbm_tbps_per_gpu(hw));
  if (k == "link_gbps") return "catalog: " + num(link_gbps(hw));
  if (k == "link_domain") return "catalog: " + num(link_domain(hw));
  if (k == "node_gpus") return "catalog: " + num(node_gpus(hw));
  if (k == "host_gbps") return "catalog: " + num(host_gbps(hw));
  if (k == "host_lat_us") return "catalog: " + num(host_lat_us(hw));
  // Otherwise the description's own words for 0, where it has them ("(0 = each class's own)").
  const std::string_view d = p.description;
  const std::size_t at = d.find("0 = ");
  if (at == std::string_view::npos || (at > 0 && d[at - 1] != '(' && d[at - 1] != ' ')) return "";
  const std::size_t end = d.find(')', at);
  return std::string(d.substr(at + 4, end == std::string_view::npos ? std::string_view::npos : end - at - 4));
}

std::string param_allowed(const ParamDef& p) {
  std::string s;
  switch (p.kind) {
    case ParamKind::Real:
      s = num_exact(p.min) + " to " + num_exact(p.max) + (p.unit[0] ? std::string(" ") + p.unit : std::string());
      break;
    case ParamKind::Int:
      if (p.min == p.max) {
        s = "only " + num_exact(p.min) + " (" + p.description + ")";
        break;
      }
      s = "integer " + num_exact(p.min) + " to " + num_exact(p.max) + (p.unit[0] ? std::string(" ") + p.unit : std::string());
      break;
    case ParamKind::Enum:
      s = "one of: ";
      for (int i = 0; i < p.enum_count; ++i) {
        if (i) s += ", ";
        s += p.enum_keys[i];
      }
      break;
    case ParamKind::Text: s = p.description; break;
  }
  return s;
}

bool set_param_number(Scenario& s, const ParamDef& p, double value, Error& err) {
  if (!std::isfinite(value)) {
    err = make_error(ErrorCode::NotFinite, p.key, num_exact(value), param_allowed(p));
    return false;
  }
  switch (p.kind) {
    case ParamKind::Real:
      if (value < p.min || value > p.max) {
        err = make_error(ErrorCode::OutOfRange, p.key, num_exact(value), param_allowed(p));
        return false;
      }
      *static_cast<double*>(p.field(s)) = value;
      return true;
    case ParamKind::Int:
      if (value != std::floor(value) || value < p.min || value > p.max) {
        err = make_error(ErrorCode::OutOfRange, p.key, num_exact(value), param_allowed(p));
        return false;
      }
      *static_cast<std::int32_t*>(p.field(s)) = static_cast<std::int32_t>(value);
      return true;
    case ParamKind::Enum:
      if (value != std::floor(value) || value < 0 || value >= p.enum_count) {
        err = make_error(ErrorCode::BadEnum, p.key, num_exact(value), param_allowed(p));
        return false;
      }
      *static_cast<std::uint8_t*>(p.field(s)) = static_cast<std::uint8_t>(value);
      return true;
    case ParamKind::Text: break;
  }
  err = make_error(ErrorCode::WrongType, p.key, num_exact(value), param_allowed(p));
  return false;
}

bool set_param_text(Scenario& s, const ParamDef& p, std::string_view text, Error& err) {
  switch (p.kind) {
    case ParamKind::Real:
    case ParamKind::Int: {
      if (looks_non_finite(text)) {
        err = make_error(ErrorCode::NotFinite, p.key, text, param_allowed(p));
        return false;
      }
      double v = 0;
      if (!parse_double(text, v)) {
        err = make_error(ErrorCode::WrongType, p.key, text, "a number: " + param_allowed(p));
        return false;
      }
      if (set_param_number(s, p, v, err)) return true;
      err.value = std::string(text);  // the value as given ("9223372036854775808", not its double "9.22…e+18")
      return false;
    }
    case ParamKind::Enum:
      for (int i = 0; i < p.enum_count; ++i) {
        if (text == p.enum_keys[i]) {
          *static_cast<std::uint8_t*>(p.field(s)) = static_cast<std::uint8_t>(i);
          return true;
        }
      }
      err = make_error(ErrorCode::BadEnum, p.key, text, param_allowed(p));
      return false;
    case ParamKind::Text: {
      std::string why;
      if (!p.parse_text(s, text, why)) {
        err = make_error(ErrorCode::BadSyntax, p.key, text, std::string(p.description) + " (" + why + ")");
        return false;
      }
      return true;
    }
  }
  return false;
}

double get_param_number(const Scenario& s, const ParamDef& p) {
  Scenario& m = const_cast<Scenario&>(s);  // accessors are shared by reads and writes; nothing is written here
  switch (p.kind) {
    case ParamKind::Real: return *static_cast<const double*>(p.field(m));
    case ParamKind::Int: return *static_cast<const std::int32_t*>(p.field(m));
    case ParamKind::Enum: return *static_cast<const std::uint8_t*>(p.field(m));
    case ParamKind::Text: break;
  }
  return 0;
}

std::string get_param_text(const Scenario& s, const ParamDef& p) {
  switch (p.kind) {
    case ParamKind::Real: return num_exact(get_param_number(s, p));
    case ParamKind::Int: return std::to_string(static_cast<long long>(get_param_number(s, p)));
    case ParamKind::Enum: {
      const int i = static_cast<int>(get_param_number(s, p));
      return (i >= 0 && i < p.enum_count) ? p.enum_keys[i] : "";
    }
    case ParamKind::Text: return p.format_text(s);
  }
  return "";
}

bool param_equal(const Scenario& a, const Scenario& b, const ParamDef& p) {
  if (p.kind == ParamKind::Text) return p.same_text ? p.same_text(a, b) : p.format_text(a) == p.format_text(b);
  return get_param_number(a, p) == get_param_number(b, p);
}

bool tp_splits_heads(const ModelArch& m, int tp) {
  if (tp < 1 || m.q_heads % tp != 0) return false;
  if (m.attn != AttnKind::MHA || m.kv_heads < 1) return true;
  // Engines split KV heads over tp, or replicate each head on tp ÷ kv_heads GPUs when tp is wider.
  return tp <= m.kv_heads ? m.kv_heads % tp == 0 : tp % m.kv_heads == 0;
}

std::string tp_allowed_text(const ModelArch& m) {
  const std::string q = "a divisor of the query heads (" + std::to_string(m.q_heads) + ")";
  if (m.attn != AttnKind::MHA || m.kv_heads < 1) return q;
  return q + " that divides the KV heads (" + std::to_string(m.kv_heads) +
         ") or is a multiple of them: tensor parallel splits the KV heads or copies each, never splits one";
}

bool is_scenario_key(std::string_view key) { return key == "preset" || key == "model" || find_param(key) != nullptr; }

}  // namespace tierscope::model
