// The config.json reader's shared parts: typed field reads that keep each field's name, and the steps the
// family mapping is split into (weight formats, per-layer attention, the MoE layout). Internal to hf_*.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "base/json_reader.h"
#include "base/text.h"
#include "hf/hf_config.h"
#include "model/params.h"
#include "model/scenario.h"

namespace tierscope::model::hf {

using Json = json::Value;
using P = Provenance;

// The families read: each has its own field names and layer rules.
enum class Fam : std::uint8_t {
  Llama, Mistral, Mixtral, Qwen2, Qwen2Moe, Qwen3, Qwen3Moe, DeepseekV2, DeepseekV3, GptOss, Gemma2, Gemma3, Phi3,
  // 2026 families: sparse-attention indexers, compressed KV, hybrids with linear-attention or SSM layers.
  DeepseekV32, DeepseekV4, GlmMoeDsa, KimiK2, MinimaxM2, Qwen35, Qwen35Moe, NemotronH, Llama4, Gemma4, MimoV2Flash, Step3p5,
  KimiLinear, MinimaxM3
};
// The families whose attention is MLA (a kv_lora latent and a RoPE key per token).
inline bool mla_family(Fam f) {
  return f == Fam::DeepseekV2 || f == Fam::DeepseekV3 || f == Fam::DeepseekV32 || f == Fam::GlmMoeDsa || f == Fam::KimiK2 || f == Fam::KimiLinear;
}
// The families that name experts as DeepSeek does (n_routed_experts, n_shared_experts, first_k_dense_replace).
inline bool deepseek_moe(Fam f) {
  return f == Fam::DeepseekV2 || f == Fam::DeepseekV3 || f == Fam::DeepseekV32 || f == Fam::GlmMoeDsa || f == Fam::KimiK2 || f == Fam::DeepseekV4;
}

extern const char* const kWhyRecurrent;

inline std::string dump(const Json& j) { return j.dump(true); }

// The fields of one model, read with their types checked. A vision-language file's language model is
// its text_config; the file-wide fields (dtype, quantization, tied embeddings) may sit at either level.
struct Reader {
  const Json& lm;
  const Json* top;     // the whole file when lm is its text_config, else nullptr
  std::string prefix;  // "text_config." or ""
  std::string name;
  Errors& errors;
  std::set<std::string> used_lm, used_top;
  std::vector<InputOrigin> inputs;
  std::vector<std::string> notes;

  struct Found {
    const Json* v = nullptr;
    std::string path;  // as the file spells it: "text_config.sliding_window"
  };
  Found look(const char* key, bool file_wide = false) {
    if (auto it = lm.find(key); it != lm.end()) {
      used_lm.insert(key);
      return {&*it, prefix + key};
    }
    if (file_wide && top) {
      if (auto it = top->find(key); it != top->end()) {
        used_top.insert(key);
        return {&*it, key};
      }
    }
    return {nullptr, prefix + key};
  }
  bool present(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    return f.v && !f.v->is_null();
  }
  void error(ErrorCode code, const std::string& field, const std::string& value, const std::string& allowed) {
    errors.push_back(make_error(code, field, value, allowed));
  }
  void missing(const std::string& field, const std::string& why) { error(ErrorCode::MissingField, field, "", why); }

  // An integer in [lo, hi]. Absent or null: nothing (reported when required). Anything else: an error.
  std::optional<long long> integer(const char* key, long long lo, long long hi, bool required, const char* what,
                                   bool file_wide = false) {
    const Found f = look(key, file_wide);
    const std::string allowed = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what + ")";
    if (!f.v || f.v->is_null()) {
      if (required) missing(f.path, allowed);
      return std::nullopt;
    }
    long long v = 0;
    if (f.v->is_number_unsigned()) {
      const auto u = f.v->get<unsigned long long>();
      if (u > static_cast<unsigned long long>(hi)) {
        error(ErrorCode::OutOfRange, f.path, dump(*f.v), allowed);
        return std::nullopt;
      }
      v = static_cast<long long>(u);
    } else if (f.v->is_number_integer()) {
      v = f.v->get<long long>();
    } else {
      error(ErrorCode::WrongType, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    if (v < lo || v > hi) {
      error(ErrorCode::OutOfRange, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    return v;
  }
  // An integer bounded by the registry's range for `param`.
  std::optional<long long> param_int(const char* key, const char* param, bool required, const char* what, long long lo_floor = 1) {
    const ParamDef* d = find_param(param);
    const long long lo = std::max(lo_floor, static_cast<long long>(d->min));
    return integer(key, lo, static_cast<long long>(d->max), required, what);
  }
  std::optional<bool> boolean(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    if (!f.v || f.v->is_null()) return std::nullopt;
    if (!f.v->is_boolean()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), "true or false");
      return std::nullopt;
    }
    return f.v->get<bool>();
  }
  std::optional<std::string> text(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    if (!f.v || f.v->is_null()) return std::nullopt;
    if (!f.v->is_string()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), "a string");
      return std::nullopt;
    }
    return f.v->get<std::string>();
  }
  // A list of integers (layer indices), each in [lo, hi].
  std::optional<std::vector<long long>> int_list(const char* key, long long lo, long long hi) {
    const Found f = look(key);
    if (!f.v || f.v->is_null()) return std::nullopt;
    const std::string allowed = "a list of layer indices from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!f.v->is_array()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    std::vector<long long> out;
    for (const Json& x : *f.v) {
      if (!x.is_number_integer() || x.get<long long>() < lo || x.get<long long>() > hi) {
        error(x.is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, f.path, dump(x), allowed);
        return std::nullopt;
      }
      out.push_back(x.get<long long>());
    }
    return out;
  }

  std::string src(const std::string& fields) const { return "config.json of " + name + ": " + fields; }
  void set(const char* keys, Provenance p, const std::string& source) {
    for (const std::string_view k : split(keys, ',')) {
      const std::string key(k);
      bool replaced = false;
      for (InputOrigin& o : inputs) {
        if (o.key == key) {
          o.provenance = p;
          o.source = source;
          replaced = true;
        }
      }
      if (!replaced) inputs.push_back(InputOrigin{key, p, source});
    }
  }
  void read(const char* keys, const std::string& fields) { set(keys, P::Paper, src(fields)); }
};

// Layer indices as short ranges: "0-3, 5, 7-9".
inline std::string ranges(const std::vector<int>& layers) {
  std::string s;
  for (std::size_t i = 0; i < layers.size();) {
    std::size_t j = i;
    while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(layers[i]);
    if (j > i) s += "-" + std::to_string(layers[j]);
    i = j + 1;
  }
  return s;
}

// [SECTION] the steps of the mapping

// Weight, activation and KV formats from the dtype and quantization_config (hf_formats.cpp).
struct Formats {
  NumFormat dtype = NumFormat::BF16, experts = NumFormat::BF16, dense = NumFormat::BF16, act = NumFormat::BF16;
  NumFormat state = NumFormat::FP32;  // recurrent state (mamba_ssm_dtype; SGLang's default float32)
  NumFormat kv = NumFormat::BF16;
  bool kv_stated = false;
  Provenance dtype_prov = P::Paper, experts_prov = P::Paper, dense_prov = P::Paper, act_prov = P::Assumed;
  std::string dtype_src, experts_src, dense_src, act_src, kv_src;
};

// `quant_text`: the hf_quant_config.json a publisher ships beside config.json (ModelOpt), or empty.
Formats read_formats(Reader& r, bool has_experts, std::string_view quant_text = {});

// Each layer's attention kind (hf_layers.cpp, hf_hybrid.cpp).
struct Layout {
  std::vector<char> kind;      // 'D' full attention, 'S' sliding window, 'L' linear attention / SSM, 'C' chunked local,
                               // 'F' sparse (an indexer picks its top-k), per layer
  std::vector<int> span;       // per layer: a sliding layer's own window or a chunked layer's chunk (0: the model's)
  std::vector<int> ratio;      // per layer: the KV compression ratio (1 unless the family compresses)
  std::vector<FfnKind> ffn;    // per layer when the layout fixes it (a hybrid's mixer-only layers), else empty
  std::string fields;          // the config fields the pattern came from
  Provenance prov = P::Paper;
};
Layout read_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window);
// Which layers have routed experts, by the family's rule; the rest have a dense FFN (hf_layers.cpp).
std::vector<bool> moe_layers(Reader& r, Fam fam, int layers, std::string& fields);

// The model of a family's fields (hf_model.cpp). `quant_text`: hf_quant_config.json beside the file, or empty.
std::optional<HfModel> read_model(Reader& r, Fam fam, const std::string& model_type, std::string_view quant_text);

// [SECTION] the 2026 families (layouts: hf_hybrid.cpp; the layers' state, heads, indexer, drafts: hf_layer_extras.cpp)

// The layer count: num_hidden_layers, or for Nemotron-H its pattern's mixer layers (each Mamba or attention
// block with the FFN block that follows it).
std::optional<long long> read_layer_count(Reader& r, Fam fam);
// The layouts of the families with layers of several kinds; false when `fam` has none of its own.
bool read_hybrid_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window, Layout& out);
// A linear-attention layer's state dims (lin_*), from the family's fields; sources set either way.
bool read_linear(Reader& r, Fam fam, bool any_linear, ModelArch& m);
// The local layers' own KV heads (swa_*), where the family gives them; sources set either way.
void read_local_heads(Reader& r, Fam fam, ModelArch& m);
// The sparse indexer (index_n_heads, index_head_dim, index_topk) and the formats the engines store V4's
// compressed cache in; sources set either way.
bool read_indexer(Reader& r, Fam fam, ModelArch& m);
// The draft (MTP / next-n) layers one draft token runs.
void read_draft(Reader& r, Fam fam, ModelArch& m);
// Gemma 4's fields that change memory or time and are not modelled, each named in a note (hf_layers.cpp);
// its MoE variant is refused.
void gemma4_unmodelled(Reader& r, int global_layers);
// MiniMax-M3's layers (sparse_attention_config.sparse_attention_freq, moe_layer_freq) and its indexer, the
// positions its block-sparse attention reads (hf_minimax_m3.cpp).
bool minimax_m3_layout(Reader& r, int layers, Layout& l);
bool minimax_m3_indexer(Reader& r, ModelArch& m);
// Kimi K3's routed experts on a latent (routed_expert_hidden_size, at most hidden_size) into expert_latent, its
// source set either way; and the K3 fields the scenario does not represent, each named in a note (hf_kimi_k3.cpp).
bool read_expert_latent(Reader& r, Fam fam, bool routed, ModelArch& m);
void kimi_k3_unmodelled(Reader& r, const ModelArch& m);
// Step 3.5's layers (layer_types, sliding_window, moe_layers_enum), its sliding layers' own heads
// (attention_other_setting) and its fields not modelled, each named in a note (hf_step3p5.cpp).
bool step3p5_layout(Reader& r, int layers, long long max_pos, std::optional<long long>& window, Layout& l);
void step3p5_local_heads(Reader& r, ModelArch& m);
void step3p5_unmodelled(Reader& r, const ModelArch& m);
// A list of integers of any length (layer indices or per-layer flags); nullopt when absent or wrong.
std::optional<std::vector<long long>> int_array(Reader& r, const Json* v, const std::string& path, long long lo, long long hi);

}  // namespace tierscope::model::hf
