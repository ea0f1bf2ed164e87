// The scenario: model architecture + hardware + workload, the only input every figure is computed from.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/catalogs.h"

namespace tierscope::model {

// ---------------------------------------------------------------------------------------------
// Storage formats: value bits plus an optional scale every `scale_group` values.
enum class NumFormat : std::uint8_t {
  BF16,
  FP8,        // per-tensor scale, none stored per value
  FP8_G32,    // FP8 + one E8M0 scale byte per 32 values (V4.1 SWA window, Engram rows)
  FP8_G64,    // FP8 + one E8M0 scale byte per 64 values (V4 main KV reconstruction)
  FP8_B1024,  // FP8 weights with one E8M0 byte per 32x32 block
  FP8_B128,   // FP8 weights with one FP32 scale per 128x128 block (DeepSeek-V3)
  FP4_G16,    // E2M1 + one E4M3 scale byte per 16 values (NVFP4-style)
  FP4_G32,    // E2M1 + one E8M0 scale byte per 32 values (MXFP4)
  FP32,       // 32-bit floats (recurrent state kept in full precision)
  FP8_S128,   // FP8 + one FP32 scale per 128 values (the sparse indexer's key cache, 132 B per 128-dim key)
  INT4_G32,   // 4-bit integers + one 16-bit scale per 32 values (weight-only W4A16: compressed-tensors, GPTQ)
  INT4_G64,   // the same per 64 values
  INT4_G128,  // the same per 128 values
  INT4_G128Z, // 4-bit integers + a 16-bit scale and a 4-bit zero point per 128 values (AWQ, asymmetric)
  Count
};
// One row each in kFormats (catalogs.h).
const FormatInfo& format_info(NumFormat f);
// Average bytes per value including scales (used for weights: 0.53125 for MXFP4).
double bytes_per_value(NumFormat f);
// Bytes of one stored vector of `dims` values (scales rounded up per group: 512 FP4_G16 → 288).
double vector_bytes(NumFormat f, double dims);

// ---------------------------------------------------------------------------------------------
// Model architecture.
enum class AttnKind : std::uint8_t {
  MHA,     // multi-head / grouped-query / multi-query: kv_heads × (K + V) per token
  MLA,     // multi-head latent attention: one kv_lora latent + rope key per token
  Latent,  // one shared K=V latent of head_dim per token (DeepSeek V4 / V4.1)
  Count
};

// Per-layer attention mode. A layer that owns KV (Dense or Full) is a KV source; Reindex and Reuse
// layers read the nearest preceding source. The letters are the compact text form ("SSF2UUU...").
enum class LayerMode : std::uint8_t {
  Dense,    // 'D': owns KV (compressed by `ratio`), attends over all of it
  Full,     // 'F': owns KV + index keys, scores the whole pool, selects top-k (CSA2 Full)
  Reindex,  // 'I': fresh top-k over the source's keys (inside the candidate pool when there is one)
  Reuse,    // 'U': consumes the previous selection unchanged
  SwaOnly,  // 'S': sliding window only, no global KV ('S512': its own window of 512 tokens)
  Linear,   // 'L': linear attention or SSM: a fixed recurrent state per session (lin_* dims), no KV
  Chunked,  // 'C8192': chunked-local attention, keeps and reads at most one chunk of tokens (Llama 4)
  Count
};
char layer_mode_letter(LayerMode m);
const char* layer_mode_name(LayerMode m);

struct Layer {
  LayerMode mode = LayerMode::Dense;
  std::uint16_t ratio = 1;  // tokens per stored KV row, for Dense and Full layers
  std::int32_t span = 0;    // SwaOnly: its own window (0 = the model's n_win); Chunked: the chunk, tokens
};

// A layer's feed-forward block, where the model lists it per layer (ModelArch::ffn): a dense FFN, routed
// experts, or none (a hybrid's mixer-only layer). Rule: the first dense_layers dense, the rest MoE.
enum class FfnKind : std::uint8_t { Rule, Dense, Moe, None, Count };

constexpr int kMaxLayers = 128;
// Where the Engram tables live: row-sharded over the instance's HBM, in host DRAM behind the host link,
// or on another node's memory read over RDMA.
enum class EngramHome : std::uint8_t { Hbm, Dram, Remote, Count };
constexpr int kMaxEngramLayers = 4;

enum class Tier : std::uint8_t { None, Sram, Hbm, Dram, Ssd, Remote, Count };
const char* tier_name(Tier t);

struct ModelArch {
  // Layers: the first enc_layers form the causal encoder (0 for decoder-only models).
  int layer_count = 0;
  std::array<Layer, kMaxLayers> layers{};
  std::int32_t enc_layers = 0;
  std::int32_t hidden = 0;
  std::int32_t vocab = 0;

  // Attention projections and KV layout.
  AttnKind attn = AttnKind::MHA;
  std::int32_t q_heads = 0, kv_heads = 0;
  std::int32_t head_dim = 0;  // query/key dim per head (MLA: nope + rope; Latent: the latent width)
  std::int32_t v_dim = 0;     // value dim per head
  std::int32_t q_lora = 0, kv_lora = 0, rope_dim = 0, o_lora = 0, o_groups = 0;
  std::int32_t n_win = 0;          // sliding window length in tokens (0 = none)
  std::int32_t swa_all = 0;        // 1: every layer keeps the window (V4 family); 0: only 'S' layers
  std::int32_t kv_rope_bf16 = 0;   // 1: rope dims stored apart in BF16 (V4 FP8 layout)
  std::int32_t kv_pad = 0;         // alignment bytes per stored KV vector
  NumFormat kv_fmt = NumFormat::BF16, idx_fmt = NumFormat::FP4_G32, swa_fmt = NumFormat::BF16;

  // Sparse indexer (CSA2 / DSA) and the hierarchical candidate pool.
  std::int32_t idx_heads = 0, idx_dim = 0, top_k = 0;
  std::int32_t cand_src = -1;  // layer that picks the candidate pool (-1: no pool)
  std::int32_t cand_blocks = 0, cand_block = 0;

  // Feed-forward: MoE on every layer after the first dense_layers (experts == 0: dense everywhere).
  std::int32_t experts = 0, shared_experts = 0, experts_per_token = 0, expert_inter = 0;
  std::int32_t dense_layers = 0, dense_inter = 0;
  std::int32_t ffn_mats = 0;  // weight matrices per FFN and expert: 3 gated (SwiGLU, 0 = 3), 2 plain (ReLU², Nemotron-H)
  // The routed experts' latent width (a latent MoE, Kimi K3): each MoE layer projects the hidden state down to it
  // before the routed experts and back up after them; the shared experts stay at hidden. 0 or hidden: none.
  std::int32_t expert_latent = 0;
  NumFormat experts_fmt = NumFormat::BF16, dense_fmt = NumFormat::BF16, head_fmt = NumFormat::BF16;
  NumFormat act_fmt = NumFormat::BF16;  // activations entering the GEMMs (FP8 dynamic quantisation, NVFP4, …)

  // Engram hashed n-gram memory (weights, read-only at inference).
  int engram_count = 0;
  std::array<std::int32_t, kMaxEngramLayers> engram_layers{};
  std::array<std::int32_t, kMaxEngramLayers> engram_rows{};
  std::int32_t engram_ngram = 0;  // max n-gram order (orders 2..n)
  std::int32_t engram_heads = 0, engram_dim = 0;
  NumFormat engram_fmt = NumFormat::FP8_G32;
  EngramHome engram_home = EngramHome::Hbm;  // where the tables live

  // Layers of their own kind. Sliding and chunked layers may keep KV heads of their own (0 = as full layers).
  std::int32_t swa_kv_heads = 0, swa_head_dim = 0, swa_v_dim = 0;
  // Linear-attention / SSM layers ('L'): the state is lin_v_heads × lin_k_dim × lin_v_dim values in
  // lin_fmt (Mamba-2: heads × head_dim × state; Gated DeltaNet and KDA: value heads × key dim × value dim),
  // plus a short convolution over (lin_conv − 1) tokens of q, k, v (2·lin_k_heads·lin_k_dim + lin_v_heads·lin_v_dim
  // channels, BF16). lin_k_heads are the key heads (Mamba-2: the B and C groups).
  std::int32_t lin_k_heads = 0, lin_v_heads = 0, lin_k_dim = 0, lin_v_dim = 0, lin_conv = 0;
  NumFormat lin_fmt = NumFormat::FP32;
  // Feed-forward per layer when the model lists it (ffn_count = layer_count); 0: the dense_layers rule.
  int ffn_count = 0;
  std::array<FfnKind, kMaxLayers> ffn{};

  std::int32_t max_pos = 0;         // maximum positions the model was trained for (context limit)
  std::int32_t bounded_replay = 0;  // 1: SWA KV is never cached, rebuilt by replaying the last window
  std::int32_t draft_layers = 0;    // layers one speculative draft token runs (MTP module; 0 = none)
  std::int32_t tied_embed = 0;      // 1: the LM head shares the embedding matrix (one copy stored)
  double checkpoint_gb = 0;  // published checkpoint size incl. Engram: a cross-check, never an input to time
};

// ---------------------------------------------------------------------------------------------
// Hardware.
// GPUs (GpuKind, gpu_info) and host links are rows of catalogs.h.
enum class HostLink : std::uint8_t { Pcie5, Pcie6, NvlinkC2c, Cxl, Pcie4, Count };
const LinkInfo& link_info(HostLink l);

// The tensor-core rate each kernel class runs at. Formats: a GEMM runs at the rate of the wider of its
// weight and activation formats (W4A8 at the FP8 rate, W4A4 at FP4, BF16 at half the FP8 rate), and the
// attention core at FP8 when the cache is FP8 or FP4, else BF16. FP8 and FP4 force one rate everywhere
// (the design card's "FP4 compute").
enum class ComputeFormat : std::uint8_t { FP8, FP4, Formats, Count };

struct Hardware {
  GpuKind gpu = gpu_kind("b200");
  std::int32_t gpus = 8;       // GPUs of one serving instance (the engine's world size)
  std::int32_t node_gpus = 0;  // GPUs per node (0 = catalog)
  double mbu = 0;              // > 0 forces this share of HBM bandwidth on every kernel class (0 = per class)
  double mfu = 0;              // > 0 forces this share of peak FLOP/s on every kernel class (0 = per class)
  double kernel_us = 0;        // the least time any kernel takes (0 = the engine's graph or eager cost)
  double link_gbps = 0;        // scale-up link per GPU per direction (0 = catalog)
  std::int32_t link_domain = 0;  // GPUs on that link (0 = catalog); a wider instance crosses the NIC
  double link_eff = 0.8;       // achieved share of a link's bandwidth in collectives
  double ar_lat_us = 15;       // latency of one all-reduce on the scale-up link, as the engines run it
  double ar_rdma_lat_us = 47;  // latency of one all-reduce whose group spans nodes (NCCL over the NIC)
  double a2a_lat_us = 20;      // floor of one MoE dispatch or combine on the scale-up link
  double a2a_rdma_lat_us = 60; // the same floor when the expert group spans nodes (RDMA)
  double hbm_gb = 0;           // per-GPU capacity override (0 = catalog)
  double hbm_tbps = 0;         // per-GPU bandwidth override (0 = catalog)
  double hbm_usable = 0.9;     // share of HBM the serving engine may allocate
  double workspace_gb = 4;     // per-GPU activations and workspace
  ComputeFormat compute = ComputeFormat::Formats;
  // Representative latency of each tier (the card gives bands; one point per tier is used).
  double lat_sram_ns = 20, lat_hbm_us = 0.5, lat_ssd_us = 60, lat_rdma_us = 1.75;
  double host_dram_gb = 2000;
  HostLink host_link = HostLink::Pcie5;
  double host_gbps = 0;        // override (0 = link catalog)
  double host_lat_us = 0;      // override (0 = link catalog)
  double nic_gbps = 50;        // NIC / RDMA bandwidth per GPU, per direction
  std::int32_t ssd_count = 8;
  double ssd_gbps = 14;        // per drive
  double ssd_tb = 3.84;        // capacity per drive (sizes the SSD tier on the canvas)
  double ssd_dwpd = 1;         // rated drive writes per day
  double retention_h = 72;     // prefix-cache retention on SSD
  // The host path a prefix reload shares (model/kv_store.h): GPUs behind one PCIe switch and the node's
  // host-memory bandwidth (0 = the platform's).
  double pcie_share = 0;
  double host_mem_gbps = 0;
};

// How one instance spreads over its GPUs. Attention: `tp`-way tensor parallel inside each of `dp`
// data-parallel replicas (tp × dp = gpus). Routed experts: `ep`-way expert parallel, each expert split
// gpus / ep ways. Pipeline stages: only 1 (see docs/model.md: no preset's engine recipe pipelines decode).
struct Parallel {
  std::int32_t tp = 8, dp = 1, ep = 8, pp = 1;
  std::int32_t redundant = 0;  // extra expert slots holding copies of hot experts (load balancing)
  double route_skew = 0;       // busiest ÷ mean rank load of real routing without balancing (1 = uniform, 0 = by EP size)
  double eplb_residual = 0.11; // (busiest − mean) ÷ mean left by a balancer with redundant slots
};

// The store the engine's prefix cache spills to below HBM (model/kv_store.h); Auto: the engine's own.
enum class KvStore : std::uint8_t { Auto, Native, Lmcache, Hicache, Mooncake, Kvbm, ThreeFs, Count };

// The serving engine that runs the instance: its defaults (running-batch cap, CUDA graphs, kernel
// rates) come from its own documentation per GPU generation (model/engine.h).
enum class EngineKind : std::uint8_t { Vllm, Sglang, Trtllm, Deepseek, Count };
// CUDA graphs: auto follows the engine (on up to its largest captured batch, eager above it).
enum class CudaGraphs : std::uint8_t { Auto, On, Off, Count };
// The MoE all-to-all kernels: DeepEP's bandwidth-oriented "normal" kernels or its graph-capturable
// low-latency ones; auto = the engines' default (low-latency in decode, normal in prefill).
enum class A2aKind : std::uint8_t { Auto, Normal, LowLatency, Count };
// Two-batch overlap: the step split in two micro-batches, one's all-to-all hidden behind the other's
// compute; auto = where the engine runs it (SGLang and DeepSeek with data-parallel attention over EP).
enum class Tbo : std::uint8_t { Auto, Off, On, Count };
struct Engine {
  EngineKind kind = EngineKind::Vllm;
  std::int32_t max_batch = 0;  // running sessions one instance schedules at most (0 = the engine's default)
  A2aKind a2a = A2aKind::Auto;
  Tbo tbo = Tbo::Auto;
  CudaGraphs cuda_graphs = CudaGraphs::Auto;
  double host_us = 0;          // host, scheduler and sampling time per decode step (0 = the engine's default)
  double host_per_seq_us = 0;  // the host's time per running request per step (0 = the engine's)
  double host_res_us = 0;      // host time per step no overlap hides (0 = the engine's)
  double topk_gkeys = 0;       // top-k selection rate, G candidate scores per second (0 = the GPU's radix-select rate)
  std::int32_t state_ckpt = 0; // tokens between the recurrent-state checkpoints the prefix cache keeps (0 = the engine's)
  // Each kernel class's achieved shares (0 = the engine profile's, model/engine.cpp). The GEMM classes
  // follow share(M) = eff × M / (M + m_half) in their M (tokens; rows per expert on the busiest rank).
  double gemm_bw_eff = 0, gemm_flop_eff = 0, gemm_m_half = 0;
  // A kernel's fixed cost on top of its roofline time (launch to its first bytes, the last wave's tail), µs
  // (0 = the engine's): why a small slice of a matrix streams far below the HBM roof.
  double kernel_ramp_us = 0;
  double expert_bw_eff = 0, expert_flop_eff = 0, expert_m_half = 0;
  double attn_bw_eff = 0, attn_flop_eff = 0;
  double index_bw_eff = 0, index_flop_eff = 0;
  KvStore kv_store = KvStore::Auto;  // where its prefix cache spills below HBM
};

// ---------------------------------------------------------------------------------------------
// The prefill→decode hand-off of a disaggregated deployment (roofline/handoff.h): how the prompt's KV leaves
// the prefill workers' HBM for the decode instance's. 0 (or auto) takes the engine's own transfer engine and
// its defaults, each sourced in roofline/topic_handoff.cpp.
// How the KV crosses: the NICs (RDMA), or the scale-up link when both pools sit in one NVLink domain.
enum class PdLink : std::uint8_t { Auto, Nic, Nvlink, Count };
// What of the transfer overlaps the prefill: nothing (sent once the prompt is done), each prefill chunk's KV
// once that chunk is done, or each layer's KV once that layer is done (a layer-wise push).
enum class PdOverlap : std::uint8_t { Auto, Off, Chunk, Layer, Count };
struct Handoff {
  std::int32_t prefill_tp = 0;  // the prefill workers' attention TP (0 = the scenario's tp)
  std::int32_t page = 0;        // tokens per KV page the transfer moves (0 = the engine's page)
  double rdma_eff = 0;          // achieved share of the NIC's rate for KV transfers (0 = the transfer engine's)
  std::int32_t nics = 0;        // NICs per node, each at nic_gbps, that a worker's GPUs share (0 = one per GPU)
  double fixed_us = 0;          // fixed cost of one request's transfer (0 = the transfer engine's)
  double desc_us = 0;           // cost of one transfer descriptor: one page of one layer (0 = the transfer engine's)
  PdLink link = PdLink::Auto;
  PdOverlap overlap = PdOverlap::Auto;
};

// ---------------------------------------------------------------------------------------------
// Workload.
// Where a prefix hit is served from: the tier the prefix cache's state puts it in (Auto), or one named.
enum class PrefixTier : std::uint8_t { Auto, Hbm, Dram, Ssd, Count };
struct Workload {
  std::int32_t ctx = 131072;      // context length at decode, tokens
  std::int32_t batch = 1;         // concurrent decode sessions
  std::int32_t prompt = 8192;     // prompt tokens of one turn
  std::int32_t output = 1024;     // output tokens of one turn
  std::int32_t prefix_hit = 7168; // prompt tokens found in the prefix cache
  PrefixTier prefix_tier = PrefixTier::Auto;  // the tier the hit is read from (Auto: from the cache's sizes)
  std::int32_t chunk = 8192;      // prefill chunk: prompt tokens per forward pass
  std::int32_t spec_tokens = 0;   // speculative draft tokens per decode step (0 = off)
  double spec_accept = 0.7;       // chance each draft token is accepted
  double spec_accept_len = 0;     // tokens a step yields as the engine measures it (0 = from spec_accept)
  double swa_pool = 0.10;         // share of host DRAM holding recent sessions' SWA windows
  double price_miss = 0, price_hit = 0, price_out = 0;  // USD per million tokens (0: unpriced)
  double prefill_load = 0;        // share of time the instance's prefill is busy with no prefix cache (0: one request alone)
};

// ---------------------------------------------------------------------------------------------
// Fleet traffic: a day of sessions through the tiers, read only by the fleet simulator (src/sim). The
// single-request figures never depend on these.
enum class ThinkDist : std::uint8_t { Exp, Lognormal, Count };     // think time between turns
enum class Router : std::uint8_t { Prefix, Least, Random, Count };  // which node a new session goes to
enum class SsdWrite : std::uint8_t { Through, Evict, Count };       // when prefix KV is written to SSD

struct Fleet {
  double arrivals = 2;          // sessions per second arriving at the whole fleet (mean over a day)
  double day_amp = 0.5;         // daily cycle: rate × (1 + amp · cos(2π (hour − peak) / 24))
  double day_peak_h = 14;       // hour of the day with the most arrivals
  double turns = 4;             // mean turns per session (geometric)
  ThinkDist think_dist = ThinkDist::Exp;
  double think_s = 60;          // mean think time between a turn's end and the next turn
  double think_sigma = 1;       // σ of the log when think times are lognormal
  std::int32_t user_tokens = 1024;  // mean new prompt tokens per turn
  std::int32_t out_tokens = 512;    // mean output tokens per turn
  double len_sigma = 0.8;       // σ of the log of both lengths (0: every turn the same)
  std::int32_t prefixes = 1000;     // shared prefixes (system prompts, documents); 0: none
  std::int32_t prefix_tokens = 4096;  // mean tokens of a shared prefix
  double zipf = 1;              // popularity of the k-th prefix ∝ 1 / k^zipf
  std::int32_t seed = 1;
  double hours = 24;            // simulated time
  std::int32_t nodes = 1;       // identical serving nodes behind one router
  Router router = Router::Prefix;
  double dram_prefix = 0.5;     // share of host DRAM left after the SWA pool that holds the prefix cache
  double wm_high = 0.9, wm_low = 0.8;  // evict LRU when a tier passes high × capacity, down to low ×
  SsdWrite ssd_write = SsdWrite::Through;
  std::int32_t block_tokens = 512;  // tokens per hashed block of a recorded trace
  std::int32_t queue_max = 100000;  // turns waiting for HBM per node; beyond it new sessions are refused
};
struct ScenarioOrigin;

struct Scenario {
  ModelArch model;
  Hardware hw;
  Parallel par;
  Engine engine;
  Handoff pd;
  Workload work;
  Fleet fleet;
  std::string preset;  // the preset this scenario started from ("config:NAME" for a loaded config.json)
  // Set when a file, not a preset alone, supplied inputs (a loaded config.json): where each came from.
  // input_provenance() consults it before the preset's table. Shared and never changed once made, so
  // copying a scenario stays cheap.
  std::shared_ptr<const ScenarioOrigin> origin;
};

// Where one input of a scenario came from, when a file rather than a preset's table says so.
struct InputOrigin {
  std::string key;  // a params.h key
  Provenance provenance = Provenance::Assumed;
  std::string source;  // "config.json of Qwen3-8B: num_key_value_heads", or why it was assumed
};

// The inputs a loaded file supplied, and the scenario as it stood right after loading (a later edit of
// any key then reads as an override of the loaded value, as edits of a preset do).
struct ScenarioOrigin {
  std::string base_preset;  // the preset whose hardware, layout and workload the scenario kept
  std::string label;        // one line for menus and the header
  Scenario loaded;          // with origin empty
  std::vector<InputOrigin> inputs;
};

// Effective hardware values after catalog defaults and overrides.
double hbm_gb_per_gpu(const Hardware& hw);
double hbm_tbps_per_gpu(const Hardware& hw);
double host_gbps(const Hardware& hw);
double host_lat_us(const Hardware& hw);
double compute_pflops_per_gpu(const Hardware& hw);
// Dense peak PFLOP/s of a GEMM with weights in `w` and activations in `act` under hw.compute.
double gemm_pflops(const Hardware& hw, NumFormat w, NumFormat act);
int node_gpus(const Hardware& hw);
double link_gbps(const Hardware& hw);
int link_domain(const Hardware& hw);

// What kind of model this is, asked the same way by every room (the ledger's names, the canvas, the page's
// wording, the roofline): a causal encoder-decoder (the first enc_layers encode, the rest decode); a model
// with an indexer (a Full layer, which scores every stored position to pick the rows the others read, over
// index keys of its own); one
// with a sliding window; one whose window is bounded-replay state, kept apart (the SWA pool) and replayed on
// a miss rather than stored with the prefix.
bool is_encoder_decoder(const ModelArch& m);
bool has_indexer(const ModelArch& m);
// The sparse attention's name in the page's words: "DSA" where every layer that keeps global KV indexes its
// own uncompressed rows and none takes another's selection (DeepSeek-V3.2, GLM-5), "CSA2" for the other
// indexed models (owners and sharers, compressed rows), "" without an indexer.
const char* sparse_attention_name(const ModelArch& m);
// Layers of the 2026 families: linear-attention or SSM layers (a fixed recurrent state per session) and
// chunked-local ones (the KV of the chunk in progress).
bool has_recurrent_state(const ModelArch& m);
bool has_chunked(const ModelArch& m);
// Routed experts on a latent narrower than the model (expert_latent), and the width they take in and out.
inline bool has_latent_experts(const ModelArch& m) { return m.experts > 0 && m.expert_latent > 0 && m.expert_latent != m.hidden; }
inline std::int32_t expert_width(const ModelArch& m) { return has_latent_experts(m) ? m.expert_latent : m.hidden; }
inline bool has_swa(const ModelArch& m) { return m.n_win > 0; }
inline bool replays_window(const ModelArch& m) { return has_swa(m) && m.bounded_replay != 0; }

// Layer helpers. A source is a layer that owns global KV (Dense or Full).
bool owns_kv(LayerMode m);
bool has_window(const ModelArch& m, int layer);
// Tokens a layer keeps and reads locally: its sliding window or its chunk (0: none).
int layer_window(const ModelArch& m, int layer);
// A layer's feed-forward block with the dense_layers rule applied (Dense, Moe or None).
FfnKind ffn_of(const ModelArch& m, int layer);
// Nearest layer at or before `layer` that owns KV, or -1.
int kv_source_of(const ModelArch& m, int layer);

// Layer modes as compact text: one letter per layer, Dense/Full followed by the ratio when it is
// not 1, e.g. "SSF2UUUUUF2..." . parse returns false (and leaves m unchanged) on bad text.
std::string layers_to_text(const ModelArch& m);
bool layers_from_text(ModelArch& m, std::string_view text, std::string& why);

}  // namespace tierscope::model
