// Lookups into the catalogs (number formats, GPUs, host links; the rows are in catalogs.h) and layer
// helpers for the scenario types.
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

static_assert(std::size(kFormats) == static_cast<std::size_t>(NumFormat::Count), "one row of kFormats (catalogs.h) per NumFormat");

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


const GpuInfo& gpu_info(GpuKind g) {
  const int i = static_cast<int>(g);
  return kGpus[(i >= 0 && i < kGpuCount) ? i : 0];
}

static_assert(std::size(kLinks) == static_cast<std::size_t>(HostLink::Count), "one row of kLinks (catalogs.h) per HostLink");

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

namespace {
// A part without FP8 tensor cores (Ampere) dequantises FP8 work and multiplies it in BF16 (W8A16, as
// Marlin's FP8 kernels run it); one without FP4 runs FP4 work at its FP8 rate.
double fp8_rate(const GpuInfo& g) { return g.fp8_pflops > 0 ? g.fp8_pflops : g.bf16_pflops; }
double fp4_rate(const GpuInfo& g) { return g.fp4_pflops > 0 ? g.fp4_pflops : fp8_rate(g); }
}  // namespace

double gemm_pflops(const Hardware& hw, NumFormat w, NumFormat act) {
  const GpuInfo& g = gpu_info(hw.gpu);
  if (hw.compute == ComputeFormat::FP8) return fp8_rate(g);
  if (hw.compute == ComputeFormat::FP4) return fp4_rate(g);
  // Integer weights (W4A16: GPTQ, AWQ, compressed-tensors) are dequantised in the GEMM's main loop and
  // multiplied at the activations' format (Marlin, Machete): never on FP4 tensor cores.
  if (format_info(w).integer) {
    const double a = format_info(act).value_bits;
    return a <= 8 && !format_info(act).integer ? fp8_rate(g) : g.bf16_pflops;
  }
  // A part without FP4 tensor cores (Hopper, MI300X) upcasts FP4 weights in the GEMM's main loop and
  // multiplies in BF16 (W4A16: Marlin, Triton's MXFP4 MoE kernels), whatever the activations.
  if (format_info(w).value_bits <= 4 && g.fp4_pflops <= 0) return g.bf16_pflops;
  const double bits = std::max(format_info(w).value_bits, format_info(act).value_bits);
  if (bits <= 4 && g.fp4_pflops > 0) return g.fp4_pflops;
  if (bits <= 8) return fp8_rate(g);
  return g.bf16_pflops;
}

double compute_pflops_per_gpu(const Hardware& hw) {
  const GpuInfo& g = gpu_info(hw.gpu);
  // Parts without FP4 units run FP4 work at their FP8 rate; parts without FP8 at their BF16 rate.
  if (hw.compute == ComputeFormat::FP4) return fp4_rate(g);
  return fp8_rate(g);
}

// ---------------------------------------------------------------------------------------------
constexpr int kModes = static_cast<int>(LayerMode::Count);
static const char kModeLetters[] = {'D', 'F', 'I', 'U', 'S', 'L', 'C'};
static const char* const kModeNames[] = {"Dense attention", "Full", "Reindex", "Reuse", "SWA-only", "Linear", "Chunked"};
static_assert(sizeof kModeLetters == kModes && sizeof kModeNames / sizeof kModeNames[0] == kModes);

char layer_mode_letter(LayerMode m) { return kModeLetters[static_cast<int>(m) % kModes]; }
const char* layer_mode_name(LayerMode m) { return kModeNames[static_cast<int>(m) % kModes]; }

bool owns_kv(LayerMode m) { return m == LayerMode::Dense || m == LayerMode::Full; }

bool is_encoder_decoder(const ModelArch& m) { return m.enc_layers > 0 && m.enc_layers < m.layer_count; }

bool has_indexer(const ModelArch& m) {
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Full) return true;
  return false;
}

const char* sparse_attention_name(const ModelArch& m) {
  if (!has_indexer(m)) return "";
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (l.mode == LayerMode::Reuse || l.mode == LayerMode::Reindex || l.mode == LayerMode::Dense) return "CSA2";
    if (l.mode == LayerMode::Full && l.ratio > 1) return "CSA2";
  }
  return "DSA";
}

bool has_recurrent_state(const ModelArch& m) {
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear) return true;
  return false;
}

bool has_chunked(const ModelArch& m) {
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) return true;
  return false;
}

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
