// The stores, the engines' HBM pages and the platforms' host paths (kv_store.h): lookups over the rows,
// and the scenario's values where it overrides them.
#include "model/kv_store.h"

#include <algorithm>
#include <string_view>

namespace tierscope::model {

const StoreInfo& store_info(KvStore k) {
  const int i = std::clamp(static_cast<int>(k) - 1, 0, kStoreCount - 1);
  return kStores[i];
}

// vLLM spills through an external store for disk (LMCache is the one vLLM's and llm-d's offload guides pair
// with it); SGLang through HiCache; TensorRT-LLM through Dynamo's KVBM; DeepSeek's own stack through 3FS.
KvStore default_store(EngineKind e) {
  switch (e) {
    case EngineKind::Vllm: return KvStore::Lmcache;
    case EngineKind::Sglang: return KvStore::Hicache;
    case EngineKind::Trtllm: return KvStore::Kvbm;
    case EngineKind::Deepseek:
    case EngineKind::Count: break;
  }
  return KvStore::ThreeFs;
}

KvStore store_of(const Scenario& s) {
  return s.engine.kv_store == KvStore::Auto || s.engine.kv_store == KvStore::Count ? default_store(s.engine.kind) : s.engine.kv_store;
}

const PagePolicy& page_policy(EngineKind e) {
  static const PagePolicy kVllm{16, "hash-chained 16-token blocks, freed blocks kept until evicted LRU (a request's tail blocks first)",
                                "https://docs.vllm.ai/en/latest/design/prefix_caching/ (block hash chains, LRU free queue, tail blocks evicted first); "
                                "block_size 16 on CUDA: https://docs.vllm.ai/en/stable/api/vllm/config/cache/",
                                true, "vLLM V1 turns enable_prefix_caching on by default: https://docs.vllm.ai/en/latest/design/prefix_caching/"};
  static const PagePolicy kSglang{1, "a radix tree over tokens (page_size 1), leaves evicted LRU so a shared prefix outlives what extends it",
                                  "https://docs.sglang.io/advanced_features/server_arguments.html (page_size 1); RadixAttention, LRU over leaves: "
                                  "https://lmsys.org/blog/2024-01-17-sglang/",
                                  true, "the radix cache runs unless --disable-radix-cache: https://docs.sglang.io/advanced_features/server_arguments.html"};
  static const PagePolicy kTrt{32, "32-token blocks reused by prefix, evicted LRU",
                               "https://nvidia.github.io/TensorRT-LLM/llm-api/reference.html (KvCacheConfig tokens_per_block 32); "
                               "https://nvidia.github.io/TensorRT-LLM/advanced/kv-cache-reuse.html",
                               true, "KvCacheConfig enable_block_reuse defaults to True: https://nvidia.github.io/TensorRT-LLM/llm-api/reference/KvCacheConfig.html"};
  static const PagePolicy kDs{64, "64-token storage units; a hit needs whole units", "FACTS §3: https://api-docs.deepseek.com/guides/kv_cache",
                              true, "context caching on for every request by default: https://api-docs.deepseek.com/guides/kv_cache"};
  switch (e) {
    case EngineKind::Vllm: return kVllm;
    case EngineKind::Sglang: return kSglang;
    case EngineKind::Trtllm: return kTrt;
    case EngineKind::Deepseek:
    case EngineKind::Count: break;
  }
  return kDs;
}

double store_object_tokens(const Scenario& s) {
  const StoreInfo& st = store_info(store_of(s));
  if (st.object_tokens > 0) return st.object_tokens;
  // HiCache's L3 backends and Mooncake pages run at 64 tokens (the best-practice page size); others at the engine's page.
  const KvStore k = store_of(s);
  if (k == KvStore::Hicache || k == KvStore::Mooncake) return 64;
  return page_policy(s.engine.kind).page_tokens;
}

namespace {

struct PlatformRow {
  std::string_view gpu;
  HostPath path;
};

// Dual-socket hosts: channels × transfer rate × 8 B × sockets. HGX boards put two GPUs (with their NICs) behind
// each PCIe Gen5 switch; Grace systems give each GPU NVLink-C2C of its own.
constexpr PlatformRow kPlatforms[] = {
    {"h100", {2, 614.4, Provenance::Paper,
              "DGX H100: two Xeon Platinum 8480C, 8 channels of DDR5-4800 each (2 × 8 × 38.4 GB/s), https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html ; "
              "two GPUs per PCIe switch with their NICs (nvidia-smi topo of an HGX board: https://the-dsvolk.github.io/ai-perf/ai-infra/B200-explorer.html)"}},
    {"h200", {2, 614.4, Provenance::Paper,
              "DGX H200 keeps DGX H100's hosts (two Xeon 8480C, DDR5-4800 × 8 channels each): https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html ; "
              "two GPUs per PCIe switch: https://the-dsvolk.github.io/ai-perf/ai-infra/B200-explorer.html"}},
    {"b200", {2, 716.8, Provenance::Paper,
              "DGX B200: two Xeon Platinum 8570, 8 channels of DDR5-5600 each (2 × 8 × 44.8 GB/s), https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html ; "
              "two GPUs per PCIe switch (PIX pairs in nvidia-smi topo): https://the-dsvolk.github.io/ai-perf/ai-infra/B200-explorer.html"}},
    {"b300", {2, 716.8, Provenance::Assumed, "assumed as DGX B200's hosts (two sockets of 8 DDR5-5600 channels) and PCIe switches"}},
    {"gb200", {1, 1024, Provenance::ThirdParty,
               "a compute tray's two Grace CPUs at 512 GB/s of LPDDR5X each, each GPU on NVLink-C2C of its own (FACTS-parallel §2.2: "
               "https://datacrunch.io/blog/data-movement-in-the-nvidia-gh200-grace-hopper-superchip)"}},
    {"gb300", {1, 1024, Provenance::ThirdParty,
               "a compute tray's two Grace CPUs at 512 GB/s of LPDDR5X each, each GPU on NVLink-C2C of its own (FACTS-parallel §2.2: "
               "https://datacrunch.io/blog/data-movement-in-the-nvidia-gh200-grace-hopper-superchip)"}},
    {"mi300x", {2, 921.6, Provenance::Assumed, "assumed: two EPYC 9004 sockets of 12 DDR5-4800 channels, two GPUs per PCIe switch as on HGX boards"}},
    {"mi355x", {2, 1228.8, Provenance::Assumed, "assumed: two EPYC 9005 sockets of 12 DDR5-6400 channels, two GPUs per PCIe switch as on HGX boards"}},
};
constexpr HostPath kDefaultPath{2, 614.4, Provenance::Assumed,
                                "assumed: an HGX-class host (two DDR5-4800 sockets of 8 channels, two GPUs per PCIe switch): the GPU has no platform row"};

}  // namespace

const HostPath& host_path(GpuKind g) {
  const std::string_view key = gpu_info(g).key;
  for (const PlatformRow& r : kPlatforms)
    if (r.gpu == key) return r.path;
  return kDefaultPath;
}

double gpus_per_switch(const Scenario& s) { return s.hw.pcie_share > 0 ? s.hw.pcie_share : host_path(s.hw.gpu).gpus_per_switch; }
double host_mem_gbps(const Scenario& s) { return s.hw.host_mem_gbps > 0 ? s.hw.host_mem_gbps : host_path(s.hw.gpu).mem_gbps; }

double prefix_dram_bytes(const Scenario& s) {
  const double pool = has_swa(s.model) ? s.work.swa_pool : 0.0;
  return s.fleet.dram_prefix * s.hw.host_dram_gb * 1e9 * std::max(0.0, 1.0 - pool);
}

}  // namespace tierscope::model
