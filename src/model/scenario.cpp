// Catalogs (number formats, GPUs, host links) and layer helpers for the scenario types.
#include "model/scenario.h"

#include <cmath>

namespace tierscope::model {

const char* provenance_name(Provenance p) {
  switch (p) {
    case Provenance::Paper: return "paper/config";
    case Provenance::Engine: return "engine docs";
    case Provenance::ThirdParty: return "third party";
    case Provenance::Derived: return "derived";
    case Provenance::Card: return "design card";
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
    {"bf16", "BF16", 16, 0, 0},
    {"fp8", "FP8 (per-tensor scale)", 8, 0, 0},
    {"fp8_g32", "FP8 + E8M0 scale per 32", 8, 32, 1},
    {"fp8_g64", "FP8 + E8M0 scale per 64", 8, 64, 1},
    {"fp8_b1024", "FP8 + E8M0 scale per 32x32 block", 8, 1024, 1},
    {"fp8_b128", "FP8 + FP32 scale per 128x128 block", 8, 16384, 4},
    {"fp4_g16", "FP4 E2M1 + E4M3 scale per 16", 4, 16, 1},
    {"fp4_g32", "FP4 E2M1 + E8M0 scale per 32 (MXFP4)", 4, 32, 1},
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

// HBM capacity "as deployed" where the fact sheet gives it; dense FLOPS of non-B200 parts are vendor
// datasheet values that the fact sheet does not list (marked in the source text).
static const GpuInfo kGpus[] = {
    {"h100", "H100 SXM", 80, 3.35, 50, 33, 1.979, 0, Provenance::ThirdParty,
     "FACTS §2.1-2.2: https://lzwjava.github.io/nvidia-h200-gpu-specs-en ; https://fp4-site.pages.dev/silicon/gpu-memory-hierarchy/ ; dense FP8 from the vendor datasheet"},
    {"h200", "H200 SXM", 141, 4.8, 50, 33, 1.979, 0, Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/nvidia_h200 ; dense FP8 from the vendor datasheet"},
    {"b200", "B200", 180, 8.0, 126, 37, 4.5, 9.0, Provenance::Paper,
     "FACTS §2.1, §5.1: https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html ; L2: https://chipsandcheese.com/p/nvidias-b200-keeping-the-cuda-juggernaut ; HGX B200 dense 4.5 PF FP8 / 9 PF FP4"},
    {"b300", "B300", 268, 8.0, 126, 37, 4.5, 13.5, Provenance::ThirdParty,
     "FACTS §2.1: https://www.yobitel.com/knowledge-base/nvidia-b300 ; https://aws.amazon.com/ec2/instance-types/p6/ ; L2 and FLOPS: vendor datasheet, not in the fact sheet"},
    {"mi300x", "MI300X", 192, 5.3, 256, 0, 2.61, 0, Provenance::ThirdParty,
     "FACTS §2.1: https://www.jaredwatkins.com/research/ai-accelerators/amd-instinct/mi300-series/ ; Infinity Cache and FLOPS: vendor datasheet, unverified in the fact sheet"},
    {"mi355x", "MI355X", 288, 8.0, 256, 0, 5.0, 10.0, Provenance::ThirdParty,
     "FACTS §2.1: https://aiwiki.ai/wiki/amd_instinct_mi355x ; Infinity Cache and FLOPS: vendor datasheet, unverified in the fact sheet"},
};
static_assert(sizeof kGpus / sizeof kGpus[0] == static_cast<int>(GpuKind::Count));

const GpuInfo& gpu_info(GpuKind g) {
  const int i = static_cast<int>(g);
  return kGpus[(i >= 0 && i < static_cast<int>(GpuKind::Count)) ? i : 0];
}

static const LinkInfo kLinks[] = {
    {"pcie5", "PCIe 5.0 x16", 64, 1.5, Provenance::ThirdParty,
     "FACTS §2.3, §5.1: https://knlb.pages.dev/ai/numbers.html (64 GB/s per direction, DMA ~1-5 µs)"},
    {"pcie6", "PCIe 6.0 x16", 128, 1.5, Provenance::ThirdParty,
     "FACTS §2.3: https://www.szyunze.com/samsung-launches-mp9e1-ssd-14-5gb-s-performance ; https://glennklockwood.com/garden/processors/B200"},
    {"c2c", "NVLink-C2C", 450, 1.0, Provenance::ThirdParty,
     "FACTS §2.3, §5.1: https://app.daily.dev/posts/the-evolution-of-nvidia-blackwell-gpu-memory-architecture-zp2tjxtaw (~900 GB/s, 450 per direction); latency assumed"},
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

double compute_pflops_per_gpu(const Hardware& hw) {
  const GpuInfo& g = gpu_info(hw.gpu);
  // Parts without FP4 units run FP4 work at their FP8 rate.
  if (hw.compute == ComputeFormat::FP4 && g.fp4_pflops > 0) return g.fp4_pflops;
  return g.fp8_pflops;
}

// ---------------------------------------------------------------------------------------------
static const char kModeLetters[] = {'D', 'F', 'I', 'U', 'S'};
static const char* const kModeNames[] = {"Dense", "Full", "Reindex", "Reuse", "SWA-only"};

char layer_mode_letter(LayerMode m) { return kModeLetters[static_cast<int>(m) % 5]; }
const char* layer_mode_name(LayerMode m) { return kModeNames[static_cast<int>(m) % 5]; }

bool owns_kv(LayerMode m) { return m == LayerMode::Dense || m == LayerMode::Full; }

bool has_window(const ModelArch& m, int layer) {
  if (m.n_win <= 0 || layer < 0 || layer >= m.layer_count) return false;
  return m.swa_all != 0 || m.layers[static_cast<std::size_t>(layer)].mode == LayerMode::SwaOnly;
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
    for (int k = 0; k < 5; ++k) {
      if (kModeLetters[k] == c) mode = static_cast<LayerMode>(k);
    }
    if (mode == LayerMode::Count) {
      why = "letter " + std::to_string(n) + " is not one of D F I U S";
      return false;
    }
    ++i;
    unsigned ratio = 1;
    if (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (!owns_kv(mode)) {
        why = "only D and F layers take a ratio (layer " + std::to_string(n) + ")";
        return false;
      }
      ratio = 0;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        ratio = ratio * 10 + static_cast<unsigned>(text[i] - '0');
        if (ratio > 4096) {
          why = "ratio above 4096 at layer " + std::to_string(n);
          return false;
        }
        ++i;
      }
      if (ratio == 0) {
        why = "ratio 0 at layer " + std::to_string(n);
        return false;
      }
    }
    if (n >= kMaxLayers) {
      why = "more than " + std::to_string(kMaxLayers) + " layers";
      return false;
    }
    out[static_cast<std::size_t>(n)] = Layer{mode, static_cast<std::uint16_t>(ratio)};
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
