// Catalogs (number formats, GPUs, host links) and layer helpers for the scenario types.
#include "model/scenario.h"

#include <algorithm>
#include <cmath>

namespace tierscope::model {

const char* provenance_name(Provenance p) {
  switch (p) {
    case Provenance::Paper: return "paper/config";
    case Provenance::Engine: return "engine docs";
    case Provenance::ThirdParty: return "third party";
    case Provenance::Derived: return "derived";
    case Provenance::Card: return "design card";
    case Provenance::Assumed: return "assumed";
    case Provenance::Override: return "override";
    case Provenance::Measured: return "measured";
    case Provenance::Count: break;
  }
  return "derived";
}

const char* tier_name(Tier t) {
  switch (t) {
    case Tier::None: return "";
    case Tier::Sram: return "GPU SRAM";
    case Tier::Hbm: return "GPU HBM";
    case Tier::Dram: return "host DRAM";
    case Tier::Ssd: return "NVMe SSD";
    case Tier::Remote: return "remote (RDMA)";
    case Tier::Count: break;
  }
  return "";
}

// Scales follow the released kernels' layouts (fact sheet §1.4.4) and weight checkpoints (§1.4.7).
static const FormatInfo kFormats[] = {
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
static_assert(sizeof kFormats / sizeof kFormats[0] == static_cast<int>(NumFormat::Count));

const FormatInfo& format_info(NumFormat f) {
  const int i = static_cast<int>(f);
  return kFormats[(i >= 0 && i < static_cast<int>(NumFormat::Count)) ? i : 0];
}

double bytes_per_value(NumFormat f) {
  const FormatInfo& i = format_info(f);
  return i.value_bits / 8.0 + (i.scale_group > 0 ? i.scale_bytes / i.scale_group : 0.0);
}

double vector_bytes(NumFormat f, double dims) {
  const FormatInfo& i = format_info(f);
  const double scales = i.scale_group > 0 ? std::ceil(dims / i.scale_group) * i.scale_bytes : 0.0;
  return dims * i.value_bits / 8.0 + scales;
}

// HBM capacity "as deployed" where the fact sheets give it. Scale-up links are per GPU and per direction
// (NVIDIA's headline NVLink figures add both directions). Latencies of the on-chip levels: FACTS §2.2.
static const GpuInfo kGpus[] = {
    {"h100", "H100 SXM", 80, 3.35, 50, 33, 1.979, 0, 450, 8, 8, 0.5, 17.5, 175, Provenance::ThirdParty,
     "FACTS §2.1-2.2: https://lzwjava.github.io/nvidia-h200-gpu-specs-en ; https://fp4-site.pages.dev/silicon/gpu-memory-hierarchy/ ; "
     "FACTS-parallel §2.1 (NVLink 4, 450 GB/s per direction), §5.1 (989 TF BF16 / 1,979 TF FP8 dense)"},
    {"h200", "H200 SXM", 141, 4.8, 50, 33, 1.979, 0, 450, 8, 8, 0.5, 17.5, 175, Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 ; FACTS-parallel §2.1, §5.1: https://datacrunch.io/blog/deepseek-v3-llm-nvidia-h200-gpu-inference-benchmarking"},
    {"b200", "B200", 180, 8.0, 126, 37, 4.5, 9.0, 900, 8, 8, 0.5, 19.6, 150, Provenance::Paper,
     "FACTS §2.1, §2.2: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html ; L2 and latencies: "
     "https://chipsandcheese.com/p/nvidias-b200-keeping-the-cuda-juggernaut ; FACTS-parallel §2.1 (NVLink 5, 900 GB/s per direction), "
     "§5.1: https://hmc-tech.com/gpus/nvidia-b200-vs-nvidia-b100 (4.5 PF FP8 / 9 PF FP4 dense)"},
    {"b300", "B300", 268, 8.0, 126, 37, 4.5, 15.0, 900, 8, 8, 0.5, 19.6, 150, Provenance::ThirdParty,
     "FACTS §2.1: https://www.yobitel.com/knowledge-base/nvidia-b300 ; https://aws.amazon.com/ec2/instance-types/p6/ (268 GB as deployed); "
     "FACTS-parallel §5.1: https://fibermall.com/blog/?p=17161 (FP8 4.5 PF; FP4 13-18 PF as sources differ, 15 taken); L2 and latencies as B200"},
    {"gb200", "GB200 (per GPU)", 192, 8.0, 126, 37, 5.0, 10.0, 900, 72, 4, 0.5, 19.6, 150, Provenance::Engine,
     "FACTS-parallel §1.6: https://www.lmsys.org/blog/2026-02-19-gb300-longctx (0.75 × HBM − 40 GB = 104 GB KV pool, so 192 GB); "
     "§2.1: https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html (NVL72, 900 GB/s per direction); "
     "§5.1: https://hmc-tech.com/gpu/nvidia-gb200-vs-nvidia-h100-sxm (5 PF FP8 / 10 PF FP4 per GPU); 4 GPUs per compute tray"},
    {"gb300", "GB300 (per GPU)", 288, 8.0, 126, 37, 4.5, 15.0, 900, 72, 4, 0.5, 19.6, 150, Provenance::Engine,
     "FACTS-parallel §1.6: https://www.lmsys.org/blog/2026-02-19-gb300-longctx (0.75 × HBM − 40 GB = 176 GB KV pool, so 288 GB); "
     "§2.1: https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html ; "
     "§5.1: https://itkb.uw.cz/2026/06/nvidia-h200-vs-b300-precisions-cores.html (FP8 4.5 PF; FP4 13-18 PF, 15 taken); 4 GPUs per compute tray"},
    {"mi300x", "MI300X", 192, 5.3, 256, 30, 2.61, 0, 448, 8, 8, 0.5, 20, 250, Provenance::ThirdParty,
     "FACTS §2.1: https://www.jaredwatkins.com/research/ai-accelerators/amd-instinct/mi300-series/ ; FACTS-parallel §2.1: "
     "https://www.wheelersnetwork.com/2024/01/ (7 Infinity Fabric links × 64 GB/s per direction); Infinity Cache, on-chip bandwidth, "
     "latencies and FLOPS: vendor datasheet values, assumed (not in the fact sheets)"},
    {"mi355x", "MI355X", 288, 8.0, 256, 30, 5.0, 10.0, 538, 8, 8, 0.5, 20, 250, Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/amd_instinct_mi355x ; FACTS-parallel §2.1: https://humeconsulting.co/amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale ; "
     "§5.1: https://www.world-today-news.com/?p=7253162 (~5 PF FP8, 10 PF MXFP4); on-chip figures assumed"},
};
static_assert(sizeof kGpus / sizeof kGpus[0] == static_cast<int>(GpuKind::Count));

const GpuInfo& gpu_info(GpuKind g) {
  const int i = static_cast<int>(g);
  return kGpus[(i >= 0 && i < static_cast<int>(GpuKind::Count)) ? i : 0];
}

// Host links at the rate a DMA copy achieves per direction, not the line rate: CPU offload must not
// look free (DESIGN.md, what users ask for, #4).
static const LinkInfo kLinks[] = {
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
};
static_assert(sizeof kLinks / sizeof kLinks[0] == static_cast<int>(HostLink::Count));

const LinkInfo& link_info(HostLink l) {
  const int i = static_cast<int>(l);
  return kLinks[(i >= 0 && i < static_cast<int>(HostLink::Count)) ? i : 0];
}

double hbm_gb_per_gpu(const Hardware& hw) { return hw.hbm_gb > 0 ? hw.hbm_gb : gpu_info(hw.gpu).hbm_gb; }
double hbm_tbps_per_gpu(const Hardware& hw) { return hw.hbm_tbps > 0 ? hw.hbm_tbps : gpu_info(hw.gpu).hbm_tbps; }
double host_gbps(const Hardware& hw) { return hw.host_gbps > 0 ? hw.host_gbps : link_info(hw.host_link).gbps; }
double host_lat_us(const Hardware& hw) { return hw.host_lat_us > 0 ? hw.host_lat_us : link_info(hw.host_link).lat_us; }

int node_gpus(const Hardware& hw) { return hw.node_gpus > 0 ? hw.node_gpus : gpu_info(hw.gpu).node_gpus; }
double link_gbps(const Hardware& hw) { return hw.link_gbps > 0 ? hw.link_gbps : gpu_info(hw.gpu).link_gbps; }
int link_domain(const Hardware& hw) { return hw.link_domain > 0 ? hw.link_domain : gpu_info(hw.gpu).domain; }

double gemm_pflops(const Hardware& hw, NumFormat w, NumFormat act) {
  const GpuInfo& g = gpu_info(hw.gpu);
  if (hw.compute == ComputeFormat::FP8) return g.fp8_pflops;
  if (hw.compute == ComputeFormat::FP4) return g.fp4_pflops > 0 ? g.fp4_pflops : g.fp8_pflops;
  // Integer weights (W4A16: GPTQ, AWQ, compressed-tensors) are dequantised in the GEMM's main loop and
  // multiplied at the activations' format (Marlin, Machete): never on FP4 tensor cores.
  if (format_info(w).integer) {
    const double a = format_info(act).value_bits;
    return a <= 8 && !format_info(act).integer ? g.fp8_pflops : g.fp8_pflops / 2;
  }
  // A part without FP4 tensor cores (Hopper, MI300X) upcasts FP4 weights in the GEMM's main loop and
  // multiplies in BF16 (W4A16: Marlin, Triton's MXFP4 MoE kernels), whatever the activations.
  if (format_info(w).value_bits <= 4 && g.fp4_pflops <= 0) return g.fp8_pflops / 2;
  const double bits = std::max(format_info(w).value_bits, format_info(act).value_bits);
  if (bits <= 4 && g.fp4_pflops > 0) return g.fp4_pflops;
  if (bits <= 8) return g.fp8_pflops;
  return g.fp8_pflops / 2;  // BF16 runs at half the FP8 rate on every part in the catalog
}

double compute_pflops_per_gpu(const Hardware& hw) {
  const GpuInfo& g = gpu_info(hw.gpu);
  // Parts without FP4 units run FP4 work at their FP8 rate.
  if (hw.compute == ComputeFormat::FP4 && g.fp4_pflops > 0) return g.fp4_pflops;
  return g.fp8_pflops;
}

// ---------------------------------------------------------------------------------------------
constexpr int kModes = static_cast<int>(LayerMode::Count);
static const char kModeLetters[] = {'D', 'F', 'I', 'U', 'S', 'L', 'C'};
static const char* const kModeNames[] = {"Dense", "Full", "Reindex", "Reuse", "SWA-only", "Linear", "Chunked"};
static_assert(sizeof kModeLetters == kModes && sizeof kModeNames / sizeof kModeNames[0] == kModes);

char layer_mode_letter(LayerMode m) { return kModeLetters[static_cast<int>(m) % kModes]; }
const char* layer_mode_name(LayerMode m) { return kModeNames[static_cast<int>(m) % kModes]; }

bool owns_kv(LayerMode m) { return m == LayerMode::Dense || m == LayerMode::Full; }

int layer_window(const ModelArch& m, int layer) {
  if (layer < 0 || layer >= m.layer_count) return 0;
  const Layer& l = m.layers[static_cast<std::size_t>(layer)];
  if (l.mode == LayerMode::Chunked) return l.span;
  if (l.mode == LayerMode::SwaOnly) return l.span > 0 ? l.span : m.n_win;
  // The V4 family keeps the model's window on every layer beside its global KV (a linear layer keeps none).
  return m.swa_all != 0 && l.mode != LayerMode::Linear ? m.n_win : 0;
}

bool has_window(const ModelArch& m, int layer) { return layer_window(m, layer) > 0; }

FfnKind ffn_of(const ModelArch& m, int layer) {
  if (m.ffn_count > 0 && layer >= 0 && layer < m.ffn_count) {
    const FfnKind k = m.ffn[static_cast<std::size_t>(layer)];
    if (k != FfnKind::Rule) return k;
  }
  return m.experts > 0 && layer >= m.dense_layers ? FfnKind::Moe : FfnKind::Dense;
}

int kv_source_of(const ModelArch& m, int layer) {
  for (int i = layer; i >= 0; --i) {
    if (i < m.layer_count && owns_kv(m.layers[static_cast<std::size_t>(i)].mode)) return i;
  }
  return -1;
}

std::string layers_to_text(const ModelArch& m) {
  std::string s;
  s.reserve(static_cast<std::size_t>(m.layer_count) * 2);
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    s += layer_mode_letter(l.mode);
    if (owns_kv(l.mode) && l.ratio != 1) s += std::to_string(l.ratio);
    if ((l.mode == LayerMode::SwaOnly || l.mode == LayerMode::Chunked) && l.span > 0) s += std::to_string(l.span);
  }
  return s;
}

bool layers_from_text(ModelArch& m, std::string_view text, std::string& why) {
  std::array<Layer, kMaxLayers> out{};
  int n = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    LayerMode mode = LayerMode::Count;
    for (int k = 0; k < kModes; ++k) {
      if (kModeLetters[k] == c) mode = static_cast<LayerMode>(k);
    }
    if (mode == LayerMode::Count) {
      why = "letter " + std::to_string(n) + " is not one of D F I U S L C";
      return false;
    }
    ++i;
    // A number after the letter: a KV owner's ratio, a sliding layer's own window or a chunked layer's chunk.
    const bool spans = mode == LayerMode::SwaOnly || mode == LayerMode::Chunked;
    const std::int64_t limit = spans ? 16777216 : 4096;
    std::int64_t num = 0;
    const std::size_t digits = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      num = std::min<std::int64_t>(num * 10 + (text[i] - '0'), limit + 1);
      ++i;
    }
    const char* what = spans ? "window or chunk" : "ratio";
    if (i > digits && !spans && !owns_kv(mode)) {
      why = "only D and F layers take a ratio, S and C a window (layer " + std::to_string(n) + ")";
      return false;
    }
    if (i > digits && (num == 0 || num > limit)) {
      why = std::string(what) + (num == 0 ? " 0" : " above " + std::to_string(limit)) + " at layer " + std::to_string(n);
      return false;
    }
    if (mode == LayerMode::Chunked && i == digits) {
      why = "a C layer needs its chunk in tokens, e.g. C8192 (layer " + std::to_string(n) + ")";
      return false;
    }
    if (n >= kMaxLayers) {
      why = "more than " + std::to_string(kMaxLayers) + " layers";
      return false;
    }
    out[static_cast<std::size_t>(n)] = spans ? Layer{mode, 1, static_cast<std::int32_t>(num)}
                                             : Layer{mode, static_cast<std::uint16_t>(i > digits ? num : 1), 0};
    ++n;
  }
  if (n == 0) {
    why = "no layers";
    return false;
  }
  m.layers = out;
  m.layer_count = n;
  return true;
}

}  // namespace tierscope::model
