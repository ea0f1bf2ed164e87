// The prefix cache below HBM as the engines build it: one row per KV store an engine's prefix cache spills to
// (how it chunks, loads, evicts and writes), each engine's HBM page size and default store, and the host path
// a reload climbs on each platform (GPUs behind one PCIe switch, the node's host-memory bandwidth). Every
// number carries its source; what no source gives is `assumed` with the reason.
#pragma once

#include <cstdint>

#include "model/scenario.h"

namespace tierscope::model {

// One store's facts. A reload from its DRAM tier is a DMA over the GPU's host link (or, for a pool on other
// nodes, an RDMA read over the NIC first); from its SSD tier each stored object is read on its own, so a hit
// pays a fixed cost per object on top of its bytes.
struct StoreInfo {
  const char* key;         // stable: links, scenario files and `--set kv_store=` name the store by it
  const char* label;       // "LMCache (CPU + local disk)"
  double object_tokens;    // tokens per stored object (a chunk, a page, a block); 0: the engine's page
  double object_us;        // fixed cost per object read from the SSD tier (open, metadata, submission)
  double streams;          // objects the store reads at once
  double read_amp;         // bytes read from the drives per byte of KV used (alignment, headers)
  double reader_gbps;      // one TP rank's reader, reading its objects one after another (0: the drives set the rate)
  bool layerwise;          // loads run layer by layer beside the prefill of the rest
  bool stalls_step;        // a load runs inside the batch's step, holding every request in it
  bool rank_copies;        // each TP rank stores and reads its own copy of a KV every rank holds whole
  bool full_windows;       // vLLM turns its hybrid allocator off under this connector: windows stored at full length
  bool remote_dram;        // the DRAM tier is a pool on other nodes, read over the NIC
  bool remote_ssd;         // the SSD tier is a storage cluster read over the NIC
  double wm_high, wm_low;  // its DRAM tier's eviction watermarks (1, 1: evict one entry as another needs room)
  SsdWrite ssd_write;      // when KV reaches its SSD tier: as it is stored (through) or as DRAM evicts it
  const char* policy;      // the eviction and write policy in words
  Provenance provenance;
  const char* source;
};

// In KvStore order after Auto (the engine's own).
inline constexpr StoreInfo kStores[] = {
    {"native", "vLLM OffloadingConnector (CPU, disk)", 0, 20, 2, 1, 0, false, false, true, true, false, false, 1, 1, SsdWrite::Through,
     "every finished block offloaded to CPU as it is produced, CPU tier LRU; hits loaded before the request is scheduled, beside the running batch",
     Provenance::Engine,
     "https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html (asynchronous loads and stores, one contiguous block per request across layers, LRU CPU tier); "
     "disk tier with O_DIRECT preadv through a double buffer: https://github.com/vllm-project/vllm/pull/49644 (2 buffer slots); "
     "--kv-transfer-config turns the hybrid KV cache manager off: https://github.com/vllm-project/vllm/issues/41830 ; each TP worker offloads its own GPU's KV; "
     "20 µs per block read assumed (an O_DIRECT read's submission and completion)"},
    {"lmcache", "LMCache (CPU + local disk)", 256, 200, 4, 1, 0, false, true, true, true, false, false, 1, 1, SsdWrite::Through,
     "256-token chunks stored to every backend (CPU LRU, then one file per chunk on local disk); a retrieval runs before the step's forward",
     Provenance::Engine,
     "https://docs.lmcache.ai/kv_cache/cpu_ram.html (chunk_size 256, CPU LRU); https://docs.lmcache.ai/api_reference/configurations.html (use_layerwise off by "
     "default, so a retrieval completes in start_load_kv before the forward); a file per chunk on local disk: https://docs.lmcache.ai/kv_cache/local_storage.html ; "
     "the hybrid allocator off under the connector: https://github.com/vllm-project/vllm/pull/30166 (before it, every token allocated for sliding layers); "
     "200 µs per chunk file and 4 reads at once assumed (Python-side open, read into pinned memory and close per file; "
     "LMCache reports disk as its slow tier: https://github.com/LMCache/LMCache/issues/81)"},
    {"hicache", "SGLang HiCache (L2 host, L3 file)", 0, 100, 8, 1, 1.2, true, false, false, false, false, false, 1, 1, SsdWrite::Through,
     "L1 ⊂ L2 ⊂ L3 written through (write_through), LRU at each level; L2 → L1 loads overlap the forward layer by layer; L3 → L2 prefetched as the request waits",
     Provenance::Engine,
     "https://docs.sglang.io/advanced_features/hicache_design.html (HiRadixTree L1/L2/L3, layer-wise overlap of loading and compute, write_through, prefetch); "
     "https://docs.sglang.io/advanced_features/hicache_best_practices.html (page size 64 for L3 backends); MLA under TP written by one rank: "
     "https://lmsys.org/blog/2025-09-10-sglang-hicache ; the file backend keeps a file per page (per rank where ranks split the heads) and reads a rank's pages one after another "
     "through a staging tensor (https://github.com/sgl-project/sglang/pull/39880), at 1.2 GB/s per reader: the drives' rate iostat showed in a "
     "file-backend run on Llama 3.1 8B (https://github.com/sgl-project/sglang/issues/26886), taken as one reader's; "
     "100 µs per page file and 8 reads at once assumed"},
    {"mooncake", "Mooncake Store (pooled DRAM over RDMA, SSD)", 0, 50, 16, 1, 0, true, false, false, false, true, false, 0.9, 0.8, SsdWrite::Evict,
     "a DRAM pool across nodes read over RDMA (Transfer Engine), evicting LRU past a 90 % high watermark down to 80 %; its SSD tier takes what DRAM evicts",
     Provenance::Engine,
     "https://arxiv.org/abs/2407.00079 (Mooncake, FAST'25: pooled CPU DRAM and SSD, Transfer Engine); FACTS §3: LRU with 90/80 % watermarks and a local-disk tier "
     "(https://docs.gpustack.ai/gpustack-operator/main/docs/modules/kv-cache/local-disk-tier/); loaded through HiCache's L2 layer by layer; "
     "a fixed cost per transfer and 4 MB pages: https://github.com/kvcache-ai/Mooncake/issues/467 ; 50 µs per object and 16 in flight assumed"},
    {"kvbm", "Dynamo KVBM (G2 host, G3 disk)", 0, 50, 8, 1, 0, false, false, false, false, false, false, 1, 1, SsdWrite::Evict,
     "G1 GPU → G2 host → G3 disk, blocks onboarded before the request is scheduled; disk offload filtered to blocks that are reused",
     Provenance::Engine,
     "https://docs.nvidia.com/dynamo/latest/kvbm/trtllm-setup.html (G2 CPU and G3 disk tiers, TensorRT-LLM's PyTorch backend); FACTS-parallel §7: disk offload "
     "filtered by default; 50 µs per block read and 8 in flight assumed (NIXL POSIX reads)"},
    {"3fs", "3FS KVCache (SSD pool over RDMA)", 64, 100, 32, 1, 0, false, false, false, false, false, true, 1, 1, SsdWrite::Through,
     "a disaggregated SSD pool read over each node's NIC, 64-token units, kept for hours to days",
     Provenance::Engine,
     "https://github.com/deepseek-ai/3FS (KVCache clients read at up to 40 GiB/s over one 400 Gb/s NIC); 64-token units: https://api-docs.deepseek.com/guides/kv_cache ; "
     "100 µs per object and 32 in flight assumed"},
};
constexpr int kStoreCount = static_cast<int>(sizeof kStores / sizeof kStores[0]);
static_assert(kStoreCount + 1 == static_cast<int>(KvStore::Count), "one row per KvStore after Auto");

// The store a scenario names, the engine's own when it names none (auto).
KvStore store_of(const Scenario& s);
const StoreInfo& store_info(KvStore k);  // k is not Auto
// The store an engine's prefix cache spills to when the scenario names none, and why.
KvStore default_store(EngineKind e);

// The engine's HBM prefix cache: tokens per block (a hit is whole blocks), and the source.
struct PagePolicy {
  double page_tokens;
  const char* policy;  // what it keeps and evicts, in words
  const char* source;
  bool reuse_default;        // whether the engine reuses cached prefixes unless told not to
  const char* reuse_source;  // where that default is stated
};
const PagePolicy& page_policy(EngineKind e);
// Tokens per object the store reads: its own chunk, or the engine's page.
double store_object_tokens(const Scenario& s);

// The host side of a platform: what a reload from host DRAM shares on its way into HBM.
struct HostPath {
  double gpus_per_switch;  // GPUs behind one PCIe switch's uplink to the CPU (1: a link of its own, C2C)
  double mem_gbps;         // the node's host memory bandwidth (every channel of every socket)
  Provenance provenance;
  const char* source;
};
// The platform the scenario's GPU ships in (by the catalog row's key; a GPU without a row of its own gets
// an HGX-class host, said as assumed).
const HostPath& host_path(GpuKind g);
// The scenario's values: its overrides, else the platform's.
double gpus_per_switch(const Scenario& s);
double host_mem_gbps(const Scenario& s);
// Achieved share of host memory bandwidth under streaming copies (STREAM-class), and its source.
constexpr double kHostMemEfficiency = 0.7;
constexpr const char* kHostMemEfficiencySource =
    "assumed: STREAM triad on dual-socket DDR5 servers reaches about 70-80 % of the channels' peak";
// Share of one direction's DMA rate a link keeps while the other direction is busy too: 83.4 GB/s both ways
// against 50 GB/s one way on an H100's PCIe 5 x16 (FACTS-parallel §2.2).
constexpr double kDuplexShare = 83.4 / 2 / 50;
constexpr const char* kDuplexSource =
    "FACTS-parallel §2.2: https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html (H100 DMA 50 GB/s one way, 83.4 GB/s with both directions busy)";

// The host DRAM a node gives the prefix cache: dram_prefix × (host DRAM − the SWA pool), the share the
// fleet simulator and the figures both read.
double prefix_dram_bytes(const Scenario& s);

}  // namespace tierscope::model
