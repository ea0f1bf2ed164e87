// The hardware and storage-format catalogs: one row per GPU, host link and number format, each row holding
// its key, so a key can never load another row's facts. The parameter registry (params.cpp) names the
// choices of `gpu`, `host_link` and the formats from these rows; nothing else lists them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tierscope::model {

// Where a number comes from. Every input and every figure carries one. Assumed: a value of ours with the
// reason in its source text; Override: a value the user set; Measured: a third party's measurement.
enum class Provenance : std::uint8_t { Paper, Engine, ThirdParty, Derived, Card, Assumed, Override, Measured, Count };
const char* provenance_name(Provenance p);  // "paper/config", "engine docs", ..., "assumed", "override"

// GPU generations the engine profiles distinguish: kernels and launch paths differ by generation, not by SKU.
enum class GpuGen : std::uint8_t { Hopper, Blackwell, Cdna, Ampere, Ada, Count };

// ---------------------------------------------------------------------------------------------
// GPUs. A row holds everything the model reads of a GPU; adding a GPU is one row here (its key is what
// links, presets, scenario files and `--set gpu=` name it by), plus its sources.
struct GpuInfo {
  const char* key;      // stable: links, scenario files and the CLI name the GPU by it ("b200")
  const char* label;    // "B200"; the figures say the part up to its first space ("H200 SXM" → "H200")
  GpuGen gen;           // picks the engine profiles (model/engine.cpp) and the top-k select rate
  double hbm_gb;        // usable capacity as deployed
  double hbm_tbps;      // HBM bandwidth
  double sram_mb;       // L2 / last-level on-chip cache
  double sram_tbps;     // aggregate on-chip bandwidth (register file + shared memory class)
  double fp8_pflops;    // dense FP8
  double fp4_pflops;    // dense FP4 (0: no FP4 units; FP8 rate applies)
  double bf16_pflops;   // dense BF16 (FP16 alike); FP8 and FP4 work runs here on a part without those units
  double link_gbps;     // scale-up link (NVLink / Infinity Fabric) per GPU, per direction
  int domain;           // GPUs reachable over that link (8 in an HGX board, 72 in an NVL72 rack)
  int node_gpus;        // GPUs per node (a server, or a compute tray of a rack)
  double reg_ns, l1_ns, l2_ns;  // on-chip access latencies: register file, L1/shared memory, L2
  const char* host_link;  // the host link of the part's usual node (a kLinks key): what choosing the GPU sets
  Provenance provenance;
  const char* source;   // where each number comes from (FACTS sections and URLs)
};

// HBM capacity in the vendor's decimal gigabytes (1 GB = 10^9 B), "as deployed" where the fact sheets give it:
// the driver reports about as many GiB (an "80 GB" part shows 80 GiB, 85.9 × 10^9 B), so every row reads up to
// 7 % below what an engine can allocate, the same way for every part: one unit, the vendors' own numbers. Scale-up links are per GPU
// and per direction (NVIDIA's headline NVLink figures add both directions); a part without NVLink talks over
// PCIe (its x16 line rate per direction). On-chip bandwidth: SMs × 128 B per clock × the boost clock. BF16 is about
// half the FP8 rate on every part that has FP8. Latencies of the on-chip levels: FACTS §2.2.
inline constexpr GpuInfo kGpus[] = {
    {"h100", "H100 SXM", GpuGen::Hopper, 80, 3.35, 50, 33, 1.979, 0, 0.9895, 450, 8, 8, 0.5, 17.5, 175, "pcie5", Provenance::ThirdParty,
     "FACTS §2.1-2.2: https://lzwjava.github.io/nvidia-h200-gpu-specs-en ; https://fp4-site.pages.dev/silicon/gpu-memory-hierarchy/ ; "
     "FACTS-parallel §2.1 (NVLink 4, 450 GB/s per direction), §5.1 (989 TF BF16 / 1,979 TF FP8 dense)"},
    {"h200", "H200 SXM", GpuGen::Hopper, 141, 4.8, 50, 33, 1.979, 0, 0.9895, 450, 8, 8, 0.5, 17.5, 175, "pcie5", Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 ; FACTS-parallel §2.1, §5.1: https://datacrunch.io/blog/deepseek-v3-llm-nvidia-h200-gpu-inference-benchmarking"},
    {"b200", "B200", GpuGen::Blackwell, 180, 8.0, 126, 37, 4.5, 9.0, 2.25, 900, 8, 8, 0.5, 19.6, 150, "pcie5", Provenance::Paper,
     "FACTS §2.1, §2.2: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html ; L2 and latencies: "
     "https://chipsandcheese.com/p/nvidias-b200-keeping-the-cuda-juggernaut ; FACTS-parallel §2.1 (NVLink 5, 900 GB/s per direction), "
     "§5.1: https://hmc-tech.com/gpus/nvidia-b200-vs-nvidia-b100 (4.5 PF FP8 / 9 PF FP4 dense)"},
    {"b300", "B300", GpuGen::Blackwell, 268, 8.0, 126, 37, 4.5, 15.0, 2.25, 900, 8, 8, 0.5, 19.6, 150, "pcie5", Provenance::ThirdParty,
     "FACTS §2.1: https://www.yobitel.com/knowledge-base/nvidia-b300 ; https://aws.amazon.com/ec2/instance-types/p6/ (268 GB as deployed); "
     "FACTS-parallel §5.1: https://fibermall.com/blog/?p=17161 (FP8 4.5 PF; FP4 13-18 PF as sources differ, 15 taken); L2 and latencies as B200"},
    {"gb200", "GB200 (per GPU)", GpuGen::Blackwell, 192, 8.0, 126, 37, 5.0, 10.0, 2.5, 900, 72, 4, 0.5, 19.6, 150, "c2c", Provenance::Engine,
     "FACTS-parallel §1.6: https://www.lmsys.org/blog/2026-02-19-gb300-longctx (0.75 × HBM − 40 GB = 104 GB KV pool, so 192 GB); "
     "§2.1: https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html (NVL72, 900 GB/s per direction); "
     "§5.1: https://hmc-tech.com/gpu/nvidia-gb200-vs-nvidia-h100-sxm (5 PF FP8 / 10 PF FP4 per GPU); 4 GPUs per compute tray; host: "
     "two Grace CPUs per tray, each GPU on NVLink-C2C (FACTS-parallel §2.2: https://datacrunch.io/blog/data-movement-in-the-nvidia-gh200-grace-hopper-superchip)"},
    {"gb300", "GB300 (per GPU)", GpuGen::Blackwell, 288, 8.0, 126, 37, 4.5, 15.0, 2.25, 900, 72, 4, 0.5, 19.6, 150, "c2c", Provenance::Engine,
     "FACTS-parallel §1.6: https://www.lmsys.org/blog/2026-02-19-gb300-longctx (0.75 × HBM − 40 GB = 176 GB KV pool, so 288 GB); "
     "§2.1: https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html ; "
     "§5.1: https://itkb.uw.cz/2026/06/nvidia-h200-vs-b300-precisions-cores.html (FP8 4.5 PF; FP4 13-18 PF, 15 taken); 4 GPUs per compute tray; host: Grace over "
     "NVLink-C2C (FACTS-parallel §2.2: https://app.daily.dev/posts/the-evolution-of-nvidia-blackwell-gpu-memory-architecture-zp2tjxtaw)"},
    {"mi300x", "MI300X", GpuGen::Cdna, 192, 5.3, 256, 30, 2.61, 0, 1.305, 448, 8, 8, 0.5, 20, 250, "pcie5", Provenance::ThirdParty,
     "FACTS §2.1: https://www.jaredwatkins.com/research/ai-accelerators/amd-instinct/mi300-series/ ; FACTS-parallel §2.1: "
     "https://www.wheelersnetwork.com/2024/01/ (7 Infinity Fabric links × 64 GB/s = 448 GB/s per direction); Infinity Cache, on-chip bandwidth, "
     "latencies and FLOPS: vendor datasheet values, assumed (not in the fact sheets)"},
    {"mi355x", "MI355X", GpuGen::Cdna, 288, 8.0, 256, 30, 5.0, 10.0, 2.5, 538, 8, 8, 0.5, 20, 250, "pcie5", Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/amd_instinct_mi355x ; FACTS-parallel §2.1: https://humeconsulting.co/amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale ; "
     "§5.1: https://www.world-today-news.com/?p=7253162 (~5 PF FP8, 10 PF MXFP4); on-chip figures assumed"},
    // Ampere: no FP8 or FP4 tensor cores, so FP8 weights are dequantised and multiplied in BF16 (gemm_pflops).
    {"a100_40gb", "A100 40GB SXM", GpuGen::Ampere, 40, 1.555, 40, 19.5, 0, 0, 0.312, 300, 8, 8, 0.5, 17.5, 175, "pcie4", Provenance::Paper,
     "NVIDIA A100 datasheet (https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf, "
     "summarised at https://glennklockwood.com/garden/processors/A100): 40 GB HBM2 at 1,555 GB/s, 312 TF BF16 dense, no FP8, NVLink 3 600 GB/s "
     "(300 per direction), PCIe Gen4 host; the driver reports 40,441 MiB (https://upb-pc2.atlassian.net/wiki/spaces/PC2DOK/pages/1900609/NVIDIA+A100+40GB+with+NVLINK); "
     "L2 40 MB; on-chip 108 SMs × 128 B × 1.41 GHz; latencies as H100 (assumed)"},
    {"a100_80gb", "A100 80GB SXM", GpuGen::Ampere, 80, 2.039, 40, 19.5, 0, 0, 0.312, 300, 8, 8, 0.5, 17.5, 175, "pcie4", Provenance::Paper,
     "NVIDIA A100 datasheet (https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf, "
     "summarised at https://glennklockwood.com/garden/processors/A100): 80 GB HBM2e at 2,039 GB/s, otherwise as the 40 GB part (312 TF BF16 dense, no FP8, "
     "NVLink 3 300 GB/s per direction, PCIe Gen4 host); latencies as H100 (assumed)"},
    // Hopper parts cut for export: the H800's NVLink and the H20's tensor cores.
    {"h800", "H800 SXM", GpuGen::Hopper, 80, 3.35, 50, 33, 1.979, 0, 0.9895, 200, 8, 8, 0.5, 17.5, 175, "pcie5", Provenance::ThirdParty,
     "https://aiwiki.ai/wiki/nvidia_h800 ; https://www.philisun.com/technical-analysis/nvidia-h800-vs-h100-a-technical-deep-dive-into-politically-defined-ai-chips/ "
     "(the H100's die, memory and FP8/BF16 rates; NVLink cut to 400 GB/s both ways, 200 per direction; DeepEP sees ~160 GB/s, FACTS-parallel §2.1)"},
    {"h20", "H20 96GB", GpuGen::Hopper, 96, 4.0, 60, 19.8, 0.296, 0, 0.148, 450, 8, 8, 0.5, 17.5, 175, "pcie5", Provenance::ThirdParty,
     "https://www.tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-us-export-bans-come-to-china-h20-l20-and-l2-to-fill-void-left-by-restricted-models "
     "(96 GB HBM3 at 4.0 TB/s, 296 TF FP8, 148 TF BF16, 60 MB L2); NVLink 900 GB/s both ways (https://www.tweaktown.com/news/95224/nvidias-tweaked-h20-ai-gpu-enters-mass-production-in-q2-2024-destined-for-china/index.html); "
     "78 SMs (https://zangshuxian.com/new/674733024499207168) × 128 B × 1.98 GHz on chip; latencies as H100 (assumed)"},
    {"h20_141gb", "H20 141GB", GpuGen::Hopper, 141, 4.8, 60, 19.8, 0.296, 0, 0.148, 450, 8, 8, 0.5, 17.5, 175, "pcie5", Provenance::Assumed,
     "the H20 with HBM3e, listed by engines' users as \"NVIDIA H20-3e\" with 141 GiB per GPU (no datasheet found): 141 GB as the H200's "
     "six stacks, and their 4.8 TB/s, assumed; compute, L2 and NVLink as the 96 GB H20 "
     "(https://www.tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-us-export-bans-come-to-china-h20-l20-and-l2-to-fill-void-left-by-restricted-models)"},
    // Grace Hopper: one H100-class GPU with its Grace CPU on NVLink-C2C; four superchips to a node.
    {"gh200", "GH200 (96 GB)", GpuGen::Hopper, 96, 4.0, 50, 33, 1.979, 0, 0.9895, 450, 4, 4, 0.5, 17.5, 175, "c2c", Provenance::ThirdParty,
     "https://aiwiki.ai/wiki/nvidia_gh200 ; https://nishikiout.net/entry/2023/08/09/143040 (96 GB HBM3 at 4 TB/s; the later HBM3e part holds 141-144 GB at ~5 TB/s: "
     "set hbm_gb and hbm_tbps for it); the H100's rates; Grace with 480 GB LPDDR5X on NVLink-C2C (FACTS-parallel §2.2: "
     "https://datacrunch.io/blog/data-movement-in-the-nvidia-gh200-grace-hopper-superchip); four superchips per node on NVLink 4 "
     "(https://geektopia.es/es/technology/2023/11/13/noticias/nvidia-anuncia-la-aceleradora-h200-tiene-141-gb-de-hbm3e.html)"},
    // Ada and the RTX PRO Blackwell server part: GDDR memory, no NVLink (the GPUs of a server talk over PCIe).
    {"l40s", "L40S", GpuGen::Ada, 48, 0.864, 96, 45.8, 0.733, 0, 0.362, 32, 8, 8, 0.5, 17.5, 175, "pcie4", Provenance::Paper,
     "NVIDIA L40S datasheet as reproduced at https://www.mullet.se/product.html?product_id=355414 (48 GB GDDR6 at 864 GB/s, FP8 733 TF and BF16 362 TF dense, "
     "PCIe Gen4 x16 64 GB/s both ways, no NVLink: https://www.itcreations.com/nvidia-gpu/nvidia-l40s-gpu-accelerator); AD102's 96 MB L2; 142 SMs × 128 B × 2.52 GHz on chip; "
     "latencies as H100 (assumed)"},
    {"rtx_pro_6000", "RTX PRO 6000 Blackwell Server", GpuGen::Blackwell, 96, 1.792, 128, 62.6, 1.0, 2.0, 0.5, 64, 8, 8, 0.5, 19.6, 150, "pcie5",
     Provenance::Assumed,
     "96 GB GDDR7 on 512 bits at 28 Gbps, 1,792 GB/s, 128 MB L2, 188 SMs, 4,000 TOPS FP4 with sparsity, PCIe Gen5, no NVLink "
     "(https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory ; "
     "https://www.topcpu.net/es/news/nvidia-launches-96gb-rtx-5090-model-with-a-whopping-price-tag-of-10000): FP4 2 PF dense (half the sparse figure), "
     "FP8 and BF16 assumed each half the rate below, as on every Blackwell part; PCIe 5 x16 64 GB/s per direction between GPUs; latencies as B200"},
    {"mi325x", "MI325X", GpuGen::Cdna, 256, 6.0, 256, 30, 2.61, 0, 1.305, 448, 8, 8, 0.5, 20, 250, "pcie5", Provenance::ThirdParty,
     "https://awesomeagents.ai/hardware/amd-mi325x ; https://aiwiki.ai/wiki/amd_instinct_mi325x (256 GB HBM3E at 6 TB/s, FP8 2,614.9 TF and BF16 1,307.4 TF dense, "
     "the MI300X's CDNA 3 compute and 256 MB Infinity Cache); seven Infinity Fabric links as MI300X (https://wiaix.com/amd-instincttm-mi325x-accelerators), "
     "PCIe Gen5 host; on-chip figures as MI300X (assumed)"},
};
constexpr int kGpuCount = static_cast<int>(std::size(kGpus));

// A GPU is its row's index in kGpus (stored as one byte, like the other choices of the registry).
enum class GpuKind : std::uint8_t {};
const GpuInfo& gpu_info(GpuKind g);

// The row of `key`, or -1.
constexpr int gpu_index(std::string_view key) {
  for (int i = 0; i < kGpuCount; ++i)
    if (key == kGpus[i].key) return i;
  return -1;
}
// Not constexpr: a gpu_kind() that reaches it is not a constant, so a key naming no row does not compile.
inline void no_gpu_has_this_key() {}
// The GPU named `key`, for keys written in the code (a default, a test).
consteval GpuKind gpu_kind(std::string_view key) {
  const int i = gpu_index(key);
  if (i < 0) no_gpu_has_this_key();
  return static_cast<GpuKind>(i);
}

// ---------------------------------------------------------------------------------------------
// Storage formats: value bits plus an optional scale every `scale_group` values, in NumFormat order.
struct FormatInfo {
  const char* key;     // URL/JSON name, e.g. "fp4_g16"
  const char* label;   // e.g. "FP4 E2M1 + E4M3/16"
  double value_bits;   // bits per stored value
  int scale_group;     // values per scale (0 = no stored scale)
  double scale_bytes;  // bytes per scale
  bool integer;        // integer weights: dequantised inside the GEMM, which runs at the activations' rate
};
// Scales follow the released kernels' layouts (fact sheet §1.4.4) and weight checkpoints (§1.4.7).
inline constexpr FormatInfo kFormats[] = {
    {"bf16", "BF16", 16, 0, 0, false},
    {"fp8", "FP8 (per-tensor scale)", 8, 0, 0, false},
    {"fp8_g32", "FP8 + E8M0 scale per 32", 8, 32, 1, false},
    {"fp8_g64", "FP8 + E8M0 scale per 64", 8, 64, 1, false},
    {"fp8_b1024", "FP8 + E8M0 scale per 32x32 block", 8, 1024, 1, false},
    {"fp8_b128", "FP8 + FP32 scale per 128x128 block", 8, 16384, 4, false},
    {"fp4_g16", "FP4 E2M1 + E4M3 scale per 16", 4, 16, 1, false},
    {"fp4_g32", "FP4 E2M1 + E8M0 scale per 32 (MXFP4)", 4, 32, 1, false},
    {"fp32", "FP32", 32, 0, 0, false},
    // The lightning indexer's key cache: FP8 E4M3 with one FP32 scale per 128 values, 132 B per key (vLLM's
    // and SGLang's DeepSeek-V3.2 indexer cache layout).
    {"fp8_s128", "FP8 + FP32 scale per 128", 8, 128, 4, false},
    // Weight-only INT4 (W4A16): packed 4-bit integers with a BF16/FP16 scale per group (GPTQ, compressed-tensors
    // pack-quantized, symmetric); AWQ adds a 4-bit zero point per group.
    {"int4_g32", "INT4 + 16-bit scale per 32", 4, 32, 2, true},
    {"int4_g64", "INT4 + 16-bit scale per 64", 4, 64, 2, true},
    {"int4_g128", "INT4 + 16-bit scale per 128", 4, 128, 2, true},
    {"int4_g128z", "INT4 + 16-bit scale and 4-bit zero per 128", 4, 128, 2.5, true},
};

// ---------------------------------------------------------------------------------------------
// Host links (GPU ↔ host DRAM), in HostLink order.
struct LinkInfo {
  const char* key;
  const char* label;
  double gbps;     // GB/s per direction
  double lat_us;   // DMA / load latency
  Provenance provenance;
  const char* source;
};
// At the rate a DMA copy achieves per direction, not the line rate: CPU offload must not look free
// (DESIGN.md, what users ask for, #4).
inline constexpr LinkInfo kLinks[] = {
    {"pcie5", "PCIe 5.0 x16", 50, 1.5, Provenance::Engine,
     "FACTS-parallel §2.2: https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html (H100 DMA ≈ 50 GB/s one way, 79 % of 63 GB/s); "
     "FACTS §2.3: DMA latency ~1-5 µs, https://knlb.pages.dev/ai/numbers.html"},
    {"pcie6", "PCIe 6.0 x16", 101, 1.5, Provenance::Assumed,
     "assumed: PCIe 5's measured 79 % of line rate applied to PCIe 6's 128 GB/s (FACTS-parallel §2.2 found no GPU↔host measurement); "
     "https://glennklockwood.com/garden/processors/B200"},
    {"c2c", "NVLink-C2C", 450, 1.0, Provenance::ThirdParty,
     "FACTS-parallel §2.2: https://datacrunch.io/blog/data-movement-in-the-nvidia-gh200-grace-hopper-superchip (450 GB/s per direction, "
     "nominal: no copy measurement found); latency assumed"},
    {"cxl", "CXL Type-3 memory", 64, 0.25, Provenance::ThirdParty,
     "FACTS §2.3: https://sampooni.github.io/kv-cache-docs/appendix/f-cxl-technology.html ; https://www.nextplatform.com/2022/12/05/just-how-bad-is-cxl-memory-latency/"},
    {"pcie4", "PCIe 4.0 x16", 25, 1.5, Provenance::Assumed,
     "assumed: PCIe 5's measured 79 % of line rate (FACTS-parallel §2.2, https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html) applied to "
     "PCIe 4's 31.5 GB/s per direction (A100 and L40S hosts); DMA latency as PCIe 5 (FACTS §2.3)"},
};

// The keys of a catalog's rows, in order: the parameter registry's choices for it.
template <class Row, std::size_t N>
constexpr std::array<const char*, N> keys_of(const Row (&rows)[N]) {
  std::array<const char*, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = rows[i].key;
  return out;
}

}  // namespace tierscope::model
