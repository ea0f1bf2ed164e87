// config.json reader: finds the family, reads each field with its type checked and its name kept, and maps
// the family's fields onto ModelArch (heads, per-layer windows, MLA, the MoE layout, weight formats).
// Defaults are taken only where transformers' own config class defines one and real files rely on it;
// each is tagged assumed or derived with the reason.
#include "model/hf_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/params.h"
#include "model/presets.h"
#include "model/text.h"

namespace tierscope::model {

namespace {

using Json = nlohmann::json;
using P = Provenance;

// [SECTION] families ----------------------------------------------------------------------------------

enum class Fam : std::uint8_t { Llama, Mistral, Mixtral, Qwen2, Qwen2Moe, Qwen3, Qwen3Moe, DeepseekV2, DeepseekV3, GptOss, Gemma2, Gemma3, Phi3 };

struct FamilyInfo {
  const char* model_type;
  const char* architecture;  // the transformers class a config lists in "architectures"
  Fam fam;
};

const FamilyInfo kFamilies[] = {
    {"llama", "LlamaForCausalLM", Fam::Llama},
    {"mistral", "MistralForCausalLM", Fam::Mistral},
    {"mixtral", "MixtralForCausalLM", Fam::Mixtral},
    {"qwen2", "Qwen2ForCausalLM", Fam::Qwen2},
    {"qwen2_moe", "Qwen2MoeForCausalLM", Fam::Qwen2Moe},
    {"qwen3", "Qwen3ForCausalLM", Fam::Qwen3},
    {"qwen3_moe", "Qwen3MoeForCausalLM", Fam::Qwen3Moe},
    {"deepseek_v2", "DeepseekV2ForCausalLM", Fam::DeepseekV2},
    {"deepseek_v3", "DeepseekV3ForCausalLM", Fam::DeepseekV3},
    {"gpt_oss", "GptOssForCausalLM", Fam::GptOss},
    {"gemma2", "Gemma2ForCausalLM", Fam::Gemma2},
    {"gemma3_text", "Gemma3ForCausalLM", Fam::Gemma3},
    {"phi3", "Phi3ForCausalLM", Fam::Phi3},
};

// Vision-language wrappers: the language model is their text_config, of this family when it does not say.
struct Wrapper {
  const char* model_type;
  const char* architecture;
  const char* text_type;
};
const Wrapper kWrappers[] = {{"gemma3", "Gemma3ForConditionalGeneration", "gemma3_text"}};

const char* const kFamilyNames[] = {"llama",       "mistral",     "mixtral", "qwen2",  "qwen2_moe", "qwen3",       "qwen3_moe",
                                    "deepseek_v2", "deepseek_v3", "gpt_oss", "gemma2", "gemma3",    "gemma3_text", "phi3"};

// Families whose layers keep a recurrent or linear-attention state: known, and refused by name.
const char* const kRecurrent[] = {"mamba",   "mamba2",  "falcon_mamba", "jamba",       "falcon_h1",   "recurrent_gemma", "rwkv",
                                  "rwkv5",   "rwkv6",   "rwkv7",        "qwen3_next",  "qwen3_5",     "qwen3_5_moe",     "zamba",
                                  "zamba2",  "bamba",   "nemotron_h",   "granitemoehybrid", "lfm2",   "minimax",         "minimax_m1",
                                  "xlstm",   "kimi_linear", "plamo2",   "hymba"};

const char* const kWhyRecurrent =
    "tierscope's layers hold KV (full or sliding-window attention); linear-attention and recurrent layers keep a "
    "fixed-size state it does not model";

std::string families_text() {
  std::string s;
  for (const char* f : kFamilyNames) s += (s.empty() ? "" : ", ") + std::string(f);
  return s;
}

const FamilyInfo* family_by_type(std::string_view t) {
  for (const FamilyInfo& f : kFamilies)
    if (t == f.model_type) return &f;
  return nullptr;
}

bool is_recurrent(std::string_view t) {
  for (const char* r : kRecurrent)
    if (t == r) return true;
  return false;
}

// [SECTION] typed field reads -------------------------------------------------------------------------

std::string dump(const Json& j) { return j.dump(-1, ' ', true, Json::error_handler_t::replace); }

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
    std::string_view list = keys;
    std::size_t i = 0;
    while (i <= list.size()) {
      std::size_t end = list.find(',', i);
      if (end == std::string_view::npos) end = list.size();
      const std::string key(list.substr(i, end - i));
      bool replaced = false;
      for (InputOrigin& o : inputs) {
        if (o.key == key) {
          o.provenance = p;
          o.source = source;
          replaced = true;
        }
      }
      if (!replaced) inputs.push_back(InputOrigin{key, p, source});
      i = end + 1;
    }
  }
  void read(const char* keys, const std::string& fields) { set(keys, P::Paper, src(fields)); }
};

// Layer indices as short ranges: "0-3, 5, 7-9".
std::string ranges(const std::vector<int>& layers) {
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

// Names that appear in ids, labels and links: letters, digits, '.', '_' and '-' only, at most 64 characters.
std::string clean_name(std::string_view raw) {
  if (const std::size_t slash = raw.find_last_of("/\\"); slash != std::string_view::npos) raw.remove_prefix(slash + 1);
  std::string out;
  for (char c : raw) {
    if (out.size() >= 64) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '-';
  }
  while (!out.empty() && (out.front() == '-' || out.front() == '.')) out.erase(out.begin());
  return out;
}

// [SECTION] formats -----------------------------------------------------------------------------------

struct Formats {
  NumFormat dtype = NumFormat::BF16, experts = NumFormat::BF16, dense = NumFormat::BF16, act = NumFormat::BF16;
  NumFormat kv = NumFormat::BF16;
  bool kv_stated = false;
  Provenance dtype_prov = P::Paper, experts_prov = P::Paper, dense_prov = P::Paper, act_prov = P::Assumed;
  std::string dtype_src, experts_src, dense_src, act_src, kv_src;
};

// Module patterns a weight quantization may leave out and still fit tierscope's three weight formats:
// the LM head, the embedding and the router all belong to head_fmt.
bool head_module(std::string_view m) {
  return m.find("lm_head") != std::string_view::npos || m.find("embed") != std::string_view::npos ||
         m.find("router") != std::string_view::npos || m == "gate" || (m.size() > 5 && m.substr(m.size() - 5) == ".gate") ||
         m.find("mlp.gate") != std::string_view::npos;
}

// Checks a quantization's list of modules kept unquantized against what the chosen mapping assumes.
// `attn_ok`: the mapping keeps attention (and everything but the experts) in the checkpoint's dtype.
void check_excluded(Reader& r, const Json& q, const char* key, const std::string& method, bool attn_ok) {
  auto it = q.find(key);
  if (it == q.end() || it->is_null()) return;
  const std::string path = "quantization_config." + std::string(key);
  if (!it->is_array()) {
    r.error(ErrorCode::WrongType, path, dump(*it), "a list of module names");
    return;
  }
  for (const Json& m : *it) {
    if (!m.is_string()) {
      r.error(ErrorCode::WrongType, path, dump(m), "module names (strings)");
      return;
    }
    const std::string name = m.get<std::string>();
    if (head_module(name)) continue;
    if (attn_ok && (name.find("self_attn") != std::string::npos || name.find("attn") != std::string::npos)) continue;
    r.error(ErrorCode::Unrepresentable, path, name,
            method + " leaving out only the LM head, the embedding and the router" +
                (attn_ok ? std::string(" (and attention)") : std::string()) +
                ": tierscope gives attention, shared experts and dense FFN one format (dense_fmt)");
    return;
  }
}

// The checkpoint's dtype: the format of every weight a quantization leaves alone.
void read_dtype(Reader& r, Formats& f) {
  std::optional<std::string> dt = r.text("torch_dtype", true);
  const char* field = "torch_dtype";
  if (!dt) {
    dt = r.text("dtype", true);
    field = "dtype";
  }
  f.dtype = NumFormat::BF16;  // every dtype accepted below is stored or served in 16 bits
  if (!dt) {
    f.dtype_prov = P::Assumed;
    f.dtype_src = "assumed bf16: config.json names no torch_dtype; released checkpoints keep unquantized weights in bf16";
    r.notes.push_back("torch_dtype: not given; unquantized weights are taken as bf16 (assumed)");
    return;
  }
  const std::string& d = *dt;
  if (d == "bfloat16" || d == "bf16") {
    f.dtype_src = r.src(field);
  } else if (d == "float16" || d == "fp16" || d == "half") {
    f.dtype_src = r.src(field) + " float16 (2 bytes per value, counted as bf16)";
    r.notes.push_back(std::string(field) + " float16: 2 bytes per value like bf16; counted as bf16 (same bytes, same tensor-core rate)");
  } else if (d == "float32" || d == "fp32" || d == "float") {
    f.dtype_prov = P::Engine;
    f.dtype_src = r.src(field) + " float32, served in 16-bit (vLLM's dtype auto serves float32 checkpoints in 16-bit)";
    r.notes.push_back(std::string(field) + " float32: served in 16-bit as engines do by default (vLLM dtype auto); weights counted as bf16");
  } else {
    r.error(ErrorCode::BadEnum, r.prefix.empty() || r.lm.contains(field) ? r.prefix + field : std::string(field), d,
            "bfloat16, float16 or float32 (a quantized checkpoint says so in quantization_config)");
  }
}

Formats read_formats(Reader& r, bool has_experts) {
  Formats f;
  read_dtype(r, f);
  f.experts = f.dense = f.act = f.dtype;
  f.experts_src = f.dense_src = f.dtype_src;
  f.experts_prov = f.dense_prov = f.dtype_prov;
  f.act_src = "assumed: activations enter the GEMMs in the weights' 16-bit dtype (no activation quantization in config.json)";
  f.kv_src = "assumed bf16: config.json does not say how the KV cache is stored; engines default to the model's 16-bit dtype";

  const Reader::Found qf = r.look("quantization_config", true);
  if (!qf.v || qf.v->is_null()) return f;
  const Json& q = *qf.v;
  if (!q.is_object()) {
    r.error(ErrorCode::WrongType, qf.path, dump(q), "an object");
    return f;
  }
  auto get_str = [&](const char* key) -> std::optional<std::string> {
    auto it = q.find(key);
    if (it == q.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
      r.error(ErrorCode::WrongType, "quantization_config." + std::string(key), dump(*it), "a string");
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  const std::optional<std::string> method = get_str("quant_method");
  if (!method) {
    if (q.find("quant_method") == q.end()) r.missing("quantization_config.quant_method", "the quantization method: fp8, mxfp4 or modelopt");
    return f;
  }
  const std::string qsrc = r.src("quantization_config");
  if (*method == "fp8") {
    // Block-scaled FP8 (DeepSeek-V3, Qwen3-FP8): every linear layer but the head, embedding and router.
    NumFormat w = NumFormat::FP8;
    std::string block = "per-tensor scale";
    if (auto it = q.find("weight_block_size"); it != q.end() && !it->is_null()) {
      const bool pair = it->is_array() && it->size() == 2 && (*it)[0].is_number_integer() && (*it)[1].is_number_integer();
      const long long a = pair ? (*it)[0].get<long long>() : 0, b = pair ? (*it)[1].get<long long>() : 0;
      if (pair && a == 128 && b == 128) {
        w = NumFormat::FP8_B128;
        block = "128×128 blocks";
      } else if (pair && a == 32 && b == 32) {
        w = NumFormat::FP8_B1024;
        block = "32×32 blocks";
      } else {
        r.error(pair ? ErrorCode::BadEnum : ErrorCode::WrongType, "quantization_config.weight_block_size", dump(*it),
                "[128, 128] or [32, 32] (or none for one scale per tensor)");
      }
    }
    check_excluded(r, q, "modules_to_not_convert", "fp8", false);
    f.experts = f.dense = w;
    f.experts_src = f.dense_src = qsrc + " quant_method fp8, weight_block_size (" + block + ")";
    f.experts_prov = f.dense_prov = P::Paper;
    if (const std::optional<std::string> scheme = get_str("activation_scheme")) {
      if (*scheme != "dynamic" && *scheme != "static") {
        r.error(ErrorCode::BadEnum, "quantization_config.activation_scheme", *scheme, "dynamic or static");
      } else {
        f.act = NumFormat::FP8;
        f.act_prov = P::Paper;
        f.act_src = qsrc + " activation_scheme " + *scheme + " (FP8 activations)";
      }
    }
    return f;
  }
  if (*method == "mxfp4") {
    // gpt-oss: the routed experts in MXFP4 (E2M1 + E8M0 per 32); everything else stays in the dtype.
    if (!has_experts) {
      r.error(ErrorCode::Inconsistent, "quantization_config.quant_method", *method, "mxfp4 only for a model with routed experts");
      return f;
    }
    check_excluded(r, q, "modules_to_not_convert", "mxfp4", true);
    f.experts = NumFormat::FP4_G32;
    f.experts_src = qsrc + " quant_method mxfp4 (routed experts)";
    f.experts_prov = P::Paper;
    return f;
  }
  if (*method == "modelopt") {
    // NVIDIA ModelOpt checkpoints: FP8 or NVFP4 (E2M1 + E4M3 per 16) weights and activations.
    const std::optional<std::string> algo = get_str("quant_algo");
    NumFormat w = NumFormat::BF16;
    if (algo && *algo == "FP8") w = NumFormat::FP8;
    else if (algo && *algo == "NVFP4") w = NumFormat::FP4_G16;
    else {
      r.error(algo ? ErrorCode::BadEnum : ErrorCode::MissingField, "quantization_config.quant_algo", algo.value_or(""), "FP8 or NVFP4");
      return f;
    }
    check_excluded(r, q, "exclude_modules", "modelopt", false);
    f.experts = f.dense = f.act = w;
    f.experts_src = f.dense_src = qsrc + " quant_method modelopt, quant_algo " + *algo;
    f.act_src = f.experts_src + " (weights and activations)";
    f.experts_prov = f.dense_prov = f.act_prov = P::Paper;
    if (const std::optional<std::string> kv = get_str("kv_cache_quant_algo")) {
      if (*kv == "FP8") {
        f.kv = NumFormat::FP8;
        f.kv_stated = true;
        f.kv_src = qsrc + " kv_cache_quant_algo FP8";
      } else {
        r.error(ErrorCode::BadEnum, "quantization_config.kv_cache_quant_algo", *kv, "FP8 (or none: a 16-bit cache)");
      }
    }
    return f;
  }
  r.error(ErrorCode::BadEnum, "quantization_config.quant_method", *method,
          "fp8, mxfp4 or modelopt (FP8, NVFP4); tierscope has no storage format for other methods "
          "(integer weights such as awq, gptq, bitsandbytes)");
  return f;
}

// [SECTION] the model ---------------------------------------------------------------------------------

struct Layout {
  std::vector<char> kind;  // 'D' full attention, 'S' sliding window, per layer
  std::string fields;      // the config fields the pattern came from
  Provenance prov = P::Paper;
};

// Which layers attend over a sliding window, from layer_types or the family's own rule.
Layout read_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window) {
  Layout l;
  l.kind.assign(static_cast<std::size_t>(layers), 'D');
  l.fields = "num_hidden_layers (every layer attends over the whole context)";
  window = r.param_int("sliding_window", "n_win", false, "tokens in the sliding window");
  const Reader::Found types = r.look("layer_types");
  if (types.v && !types.v->is_null()) {
    if (!types.v->is_array()) {
      r.error(ErrorCode::WrongType, types.path, dump(*types.v), "a list of layer types, one per layer");
      return l;
    }
    if (types.v->size() != static_cast<std::size_t>(layers)) {
      r.error(ErrorCode::Inconsistent, types.path, std::to_string(types.v->size()) + " entries",
              "one entry per layer (num_hidden_layers = " + std::to_string(layers) + ")");
      return l;
    }
    std::vector<int> odd;
    std::string odd_types;
    for (int i = 0; i < layers; ++i) {
      const Json& t = (*types.v)[static_cast<std::size_t>(i)];
      const std::string s = t.is_string() ? t.get<std::string>() : dump(t);
      if (s == "full_attention") continue;
      if (s == "sliding_attention") {
        l.kind[static_cast<std::size_t>(i)] = 'S';
        continue;
      }
      odd.push_back(i);
      if (odd_types.find(s) == std::string::npos) odd_types += (odd_types.empty() ? "" : ", ") + s;
    }
    if (!odd.empty()) {
      r.error(ErrorCode::Unrepresentable, types.path, "layers " + ranges(odd) + " (" + odd_types + ")",
              "full_attention or sliding_attention: " + std::string(kWhyRecurrent));
    }
    l.fields = "layer_types";
  } else {
    switch (fam) {
      case Fam::Mistral:
      case Fam::Mixtral:
      case Fam::Phi3:
        // One window for every layer, when set.
        if (window) {
          std::fill(l.kind.begin(), l.kind.end(), 'S');
          l.fields = "sliding_window (every layer)";
        }
        break;
      case Fam::Qwen2:
      case Fam::Qwen2Moe:
      case Fam::Qwen3:
      case Fam::Qwen3Moe: {
        // transformers: layers from max_window_layers on slide, only when use_sliding_window is true.
        const std::optional<bool> use = r.boolean("use_sliding_window");
        if (use.value_or(false)) {
          const std::optional<long long> from = r.integer("max_window_layers", 0, layers, true, "the first layer that slides");
          if (!window) r.missing(r.prefix + "sliding_window", "the window length when use_sliding_window is true");
          if (from && window) {
            for (int i = static_cast<int>(*from); i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = 'S';
            l.fields = "use_sliding_window, max_window_layers " + std::to_string(*from) + ", sliding_window";
          }
        } else if (window) {
          r.notes.push_back("sliding_window " + std::to_string(*window) + ": not used (use_sliding_window is false)");
          window.reset();
        }
        break;
      }
      case Fam::Gemma2:
      case Fam::Gemma3:
      case Fam::GptOss: {
        // Local and global layers interleave: Gemma 2 and gpt-oss every other layer (local first),
        // Gemma 3 five local then one global (sliding_window_pattern).
        long long every = 2;
        std::string how = "local and global layers alternate (transformers' default pattern)";
        if (fam == Fam::Gemma3) {
          const std::optional<long long> p = r.integer("sliding_window_pattern", 1, 4096, false, "layers per global layer");
          every = p.value_or(6);
          how = p ? "sliding_window_pattern " + std::to_string(every) : "sliding_window_pattern 6 (Gemma3TextConfig default)";
          if (!p) l.prov = P::Derived;
        } else {
          l.prov = P::Derived;
        }
        for (int i = 0; i < layers; ++i)
          if ((i + 1) % every != 0) l.kind[static_cast<std::size_t>(i)] = 'S';
        l.fields = how + ", sliding_window";
        if (!window && fam == Fam::Gemma3) {
          window = 4096;
          l.fields += " 4096 (Gemma3TextConfig default)";
          r.notes.push_back("sliding_window: not given; Gemma3TextConfig's default of 4096 tokens is taken (assumed)");
        }
        break;
      }
      case Fam::Llama:
      case Fam::DeepseekV2:
      case Fam::DeepseekV3:
        if (window) {
          r.notes.push_back("sliding_window " + std::to_string(*window) + ": not used by " + std::string(fam == Fam::Llama ? "llama" : "deepseek") + " models");
          window.reset();
        }
        break;
    }
  }
  const bool any_sliding = std::find(l.kind.begin(), l.kind.end(), 'S') != l.kind.end();
  if (any_sliding && !window) {
    r.missing(r.prefix + "sliding_window", "the window length of the sliding-window layers");
  } else if (any_sliding && *window >= max_pos) {
    // A window at least as long as every context the model was trained for never bites.
    r.notes.push_back("sliding_window " + std::to_string(*window) + " ≥ max_position_embeddings " + std::to_string(max_pos) +
                      ": the window never bites, so every layer is read as full attention");
    std::fill(l.kind.begin(), l.kind.end(), 'D');
    l.fields += " (window ≥ max_position_embeddings: full attention)";
    window.reset();
  }
  return l;
}

// Which layers have routed experts, by the family's rule; the rest have a dense FFN.
std::vector<bool> moe_layers(Reader& r, Fam fam, int layers, std::string& fields) {
  std::vector<bool> moe(static_cast<std::size_t>(layers), true);
  switch (fam) {
    case Fam::Qwen2Moe:
    case Fam::Qwen3Moe: {
      // transformers: MoE where the layer is not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0.
      const long long step = r.integer("decoder_sparse_step", 1, 4096, false, "every how many layers one is MoE").value_or(1);
      const std::vector<long long> only = r.int_list("mlp_only_layers", 0, layers - 1).value_or(std::vector<long long>{});
      for (int i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      for (long long i : only) moe[static_cast<std::size_t>(i)] = false;
      fields = "decoder_sparse_step, mlp_only_layers";
      break;
    }
    case Fam::DeepseekV2:
    case Fam::DeepseekV3: {
      // transformers: MoE from first_k_dense_replace on, where i % moe_layer_freq == 0.
      const long long first = r.integer("first_k_dense_replace", 0, 4096, false, "leading dense layers").value_or(0);
      const long long freq = r.integer("moe_layer_freq", 1, 4096, false, "every how many layers one is MoE").value_or(1);
      for (int i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = i >= first && i % freq == 0;
      fields = "first_k_dense_replace, moe_layer_freq";
      break;
    }
    default: fields = "num_hidden_layers (every layer)"; break;
  }
  return moe;
}

std::optional<HfModel> read_model(Reader& r, Fam fam, const std::string& model_type) {
  HfModel out;
  ModelArch m{};
  const bool gemma = fam == Fam::Gemma2 || fam == Fam::Gemma3;
  const bool mla = fam == Fam::DeepseekV2 || fam == Fam::DeepseekV3;

  // Size of the stack.
  const std::optional<long long> L = r.integer("num_hidden_layers", 1, kMaxLayers, true, "decoder layers; tierscope holds at most 128");
  const std::optional<long long> H = r.param_int("hidden_size", "hidden", true, "model width");
  const std::optional<long long> Q = r.param_int("num_attention_heads", "q_heads", true, "query heads");
  std::optional<long long> V = r.param_int("vocab_size", "vocab", fam != Fam::Gemma3, "tokens in the vocabulary");
  if (!V && fam == Fam::Gemma3 && !r.present("vocab_size")) {
    V = 262208;
    r.set("vocab", P::Assumed, "assumed 262208: Gemma3TextConfig's default (config.json gives no vocab_size)");
    r.notes.push_back("vocab_size: not given; Gemma3TextConfig's default of 262,208 is taken (assumed)");
  } else {
    r.read("vocab", "vocab_size");
  }
  std::optional<long long> max_pos = r.param_int("max_position_embeddings", "max_pos", fam != Fam::Gemma3, "trained positions");
  if (!max_pos && fam == Fam::Gemma3 && !r.present("max_position_embeddings")) {
    max_pos = 131072;
    r.set("max_pos", P::Assumed, "assumed 131072: Gemma3TextConfig's default (config.json gives no max_position_embeddings)");
    r.notes.push_back("max_position_embeddings: not given; Gemma3TextConfig's default of 131,072 is taken (assumed)");
  } else {
    r.read("max_pos", "max_position_embeddings");
  }
  if (!L || !H || !Q || !V || !max_pos) return std::nullopt;
  const int layers = static_cast<int>(*L);
  r.read("hidden", "hidden_size");

  // Attention projections and the KV layout.
  std::optional<long long> KV = r.param_int("num_key_value_heads", "kv_heads", false, "KV heads");
  if (KV) {
    r.read("kv_heads", "num_key_value_heads");
  } else {
    KV = Q;
    r.set("kv_heads", P::Derived, r.src("num_attention_heads (no num_key_value_heads: transformers uses one KV head per query head)"));
  }
  m.q_heads = static_cast<std::int32_t>(*Q);
  m.kv_heads = static_cast<std::int32_t>(*KV);
  r.read("q_heads", "num_attention_heads");
  if (mla) {
    const auto nope = r.integer("qk_nope_head_dim", 0, 65536, true, "key dims without RoPE per head");
    const auto rope = r.integer("qk_rope_head_dim", 1, 65536, true, "RoPE key dims per head");
    const auto vd = r.param_int("v_head_dim", "v_dim", true, "value dims per head");
    const auto kvl = r.param_int("kv_lora_rank", "kv_lora", true, "the MLA latent");
    if (!r.look("q_lora_rank").v) r.missing(r.prefix + "q_lora_rank", "the query low-rank, or null when queries are projected in full");
    const auto ql = r.param_int("q_lora_rank", "q_lora", false, "query low-rank");
    if (!nope || !rope || !vd || !kvl) return std::nullopt;
    m.attn = AttnKind::MLA;
    m.head_dim = static_cast<std::int32_t>(*nope + *rope);
    m.rope_dim = static_cast<std::int32_t>(*rope);
    m.v_dim = static_cast<std::int32_t>(*vd);
    m.kv_lora = static_cast<std::int32_t>(*kvl);
    m.q_lora = static_cast<std::int32_t>(ql.value_or(0));
    r.read("head_dim", "qk_nope_head_dim + qk_rope_head_dim");
    r.read("rope_dim", "qk_rope_head_dim");
    r.read("v_dim", "v_head_dim");
    r.read("kv_lora", "kv_lora_rank");
    r.read("q_lora", ql ? "q_lora_rank" : "q_lora_rank (null: queries projected in full)");
    r.set("attn", P::Paper, r.src("kv_lora_rank (multi-head latent attention)"));
  } else {
    std::optional<long long> hd = r.param_int("head_dim", "head_dim", false, "dims per head");
    if (hd) {
      r.read("head_dim,v_dim", "head_dim");
    } else if (gemma) {
      hd = 256;  // Gemma2Config and Gemma3TextConfig default
      r.set("head_dim,v_dim", P::Assumed, "assumed 256: transformers' Gemma config default (config.json gives no head_dim)");
      r.notes.push_back("head_dim: not given; the Gemma config default of 256 is taken (assumed)");
    } else if (*H % *Q == 0) {
      hd = *H / *Q;
      r.set("head_dim,v_dim", P::Derived, r.src("hidden_size ÷ num_attention_heads (no head_dim)"));
    } else {
      r.missing(r.prefix + "head_dim", "dims per head (hidden_size " + std::to_string(*H) + " is not a multiple of " +
                                          std::to_string(*Q) + " heads)");
      return std::nullopt;
    }
    m.attn = AttnKind::MHA;
    m.head_dim = m.v_dim = static_cast<std::int32_t>(*hd);
    r.set("attn", P::Paper, r.src("num_key_value_heads (grouped-query attention: K and V per KV head)"));
    r.set("kv_lora,q_lora,rope_dim", P::Paper, r.src("no MLA latent or low-rank query in a " + model_type + " model"));
  }
  m.hidden = static_cast<std::int32_t>(*H);
  m.vocab = static_cast<std::int32_t>(*V);
  m.max_pos = static_cast<std::int32_t>(*max_pos);

  // Which layers slide.
  std::optional<long long> window;
  const Layout lay = read_layout(r, fam, layers, *max_pos, window);
  m.layer_count = layers;
  for (int i = 0; i < layers; ++i) m.layers[static_cast<std::size_t>(i)] = Layer{lay.kind[static_cast<std::size_t>(i)] == 'S' ? LayerMode::SwaOnly : LayerMode::Dense, 1};
  r.set("modes", lay.prov, r.src(lay.fields));
  m.n_win = window ? static_cast<std::int32_t>(*window) : 0;
  m.swa_all = 0;
  if (window) r.read("n_win", "sliding_window");
  else r.set("n_win", P::Paper, r.src("no sliding-window layer"));
  r.set("swa_all", P::Derived, "only sliding-window layers keep a window; full-attention layers hold the whole context");

  // Feed-forward: experts, shared experts, and the dense layers before them.
  const char* experts_key = fam == Fam::Mixtral || fam == Fam::GptOss ? "num_local_experts"
                            : (fam == Fam::Qwen2Moe || fam == Fam::Qwen3Moe) ? "num_experts"
                            : mla ? "n_routed_experts" : nullptr;
  std::optional<long long> E;
  if (experts_key) E = r.param_int(experts_key, "experts", fam != Fam::DeepseekV2 && fam != Fam::DeepseekV3, "routed experts", 0);
  const bool routed = E && *E > 0;
  std::optional<long long> inter;
  const bool inter_is_expert = fam == Fam::Mixtral || fam == Fam::GptOss;
  if (routed) {
    std::string moe_fields;
    const std::vector<bool> moe = moe_layers(r, fam, layers, moe_fields);
    int leading = 0;
    while (leading < layers && !moe[static_cast<std::size_t>(leading)]) ++leading;
    std::vector<int> dense_after;
    for (int i = leading; i < layers; ++i)
      if (!moe[static_cast<std::size_t>(i)]) dense_after.push_back(i);
    if (!dense_after.empty()) {
      r.error(ErrorCode::Unrepresentable, r.prefix + "layers " + ranges(dense_after), "dense FFN after the first MoE layer (" + moe_fields + ")",
              "the first dense_layers layers dense and every later layer MoE: tierscope's MoE layout");
      return std::nullopt;
    }
    const auto k = r.param_int("num_experts_per_tok", "experts_per_token", true, "routed experts each token uses");
    const char* expert_inter_key = inter_is_expert ? "intermediate_size" : "moe_intermediate_size";
    const auto ei = r.param_int(expert_inter_key, "expert_inter", true, "each expert's FFN width");
    if (!k || !ei) return std::nullopt;
    if (*k > *E) {
      r.error(ErrorCode::Inconsistent, r.prefix + "num_experts_per_tok", std::to_string(*k), "at most the " + std::to_string(*E) + " routed experts");
      return std::nullopt;
    }
    m.experts = static_cast<std::int32_t>(*E);
    m.experts_per_token = static_cast<std::int32_t>(*k);
    m.expert_inter = static_cast<std::int32_t>(*ei);
    r.read("experts", experts_key);
    r.read("experts_per_token", "num_experts_per_tok");
    r.read("expert_inter", expert_inter_key);
    m.dense_layers = leading;
    r.read("dense_layers", moe_fields);
    // Shared experts always run; Qwen2-MoE states one shared FFN by width, DeepSeek by count.
    if (mla) {
      const auto sh = r.param_int("n_shared_experts", "shared_experts", false, "shared experts", 0);
      m.shared_experts = static_cast<std::int32_t>(sh.value_or(0));
      r.read("shared_experts", sh ? "n_shared_experts" : "n_shared_experts (null: none)");
    } else if (fam == Fam::Qwen2Moe) {
      const auto sw = r.integer("shared_expert_intermediate_size", 0, 16777216, false, "the shared expert's FFN width");
      const long long width = sw.value_or(0);
      if (width % *ei != 0) {
        r.error(ErrorCode::Unrepresentable, r.prefix + "shared_expert_intermediate_size", std::to_string(width),
                "a multiple of moe_intermediate_size (" + std::to_string(*ei) + "): tierscope counts shared experts in routed-expert widths");
        return std::nullopt;
      }
      m.shared_experts = static_cast<std::int32_t>(width / *ei);
      r.read("shared_experts", "shared_expert_intermediate_size ÷ moe_intermediate_size");
      if (m.shared_experts > 0) r.notes.push_back("shared_expert_gate: the shared expert's one-row gate is not counted (hidden_size parameters per layer)");
    } else {
      r.set("shared_experts", P::Paper, r.src("no shared expert in a " + model_type + " model"));
    }
    if (leading > 0) {
      inter = r.param_int("intermediate_size", "dense_inter", true, "the dense FFN's width");
      if (!inter) return std::nullopt;
      r.read("dense_inter", "intermediate_size (dense layers)");
    } else {
      r.set("dense_inter", P::Paper, r.src("no dense FFN layer (every layer is MoE)"));
      if (!inter_is_expert) r.look("intermediate_size");  // read, but no layer uses it
    }
    if (leading == layers) {
      // No layer routes: the experts are never used and the model is dense.
      r.notes.push_back(std::string(experts_key) + " " + std::to_string(*E) + ": no layer is MoE (" + moe_fields + "), so the model is dense");
      m.experts = m.experts_per_token = m.expert_inter = m.shared_experts = 0;
      r.set("experts,shared_experts,experts_per_token,expert_inter", P::Paper, r.src(moe_fields + " (no MoE layer)"));
    }
  } else {
    if (E) r.notes.push_back(std::string(experts_key) + " 0: a dense model");
    inter = r.param_int("intermediate_size", "dense_inter", true, "the FFN's width");
    if (!inter) return std::nullopt;
    m.dense_layers = layers;
    r.read("dense_inter", "intermediate_size");
    r.set("dense_layers", P::Paper, r.src("num_hidden_layers (a dense FFN in every layer)"));
    r.set("experts,shared_experts,experts_per_token,expert_inter", P::Paper,
          r.src(experts_key ? std::string(experts_key) + " (no routed experts)" : "no routed experts in a " + model_type + " model"));
  }
  if (inter) m.dense_inter = static_cast<std::int32_t>(*inter);

  // Embeddings and draft layers.
  std::optional<bool> tied = r.boolean("tie_word_embeddings", true);
  if (tied) {
    r.read("tied_embed", "tie_word_embeddings");
  } else {
    tied = gemma;  // transformers' config default: tied for Gemma, separate for the others read here
    r.set("tied_embed", P::Derived, r.src(std::string("no tie_word_embeddings: transformers' ") + (gemma ? "Gemma" : model_type) +
                                          " default is " + (gemma ? "tied" : "a separate LM head")));
  }
  m.tied_embed = *tied ? 1 : 0;
  if (*tied) {
    r.notes.push_back("tie_word_embeddings: the embedding and the LM head share one matrix (tied_embed 1); the parameter and "
                      "weight figures still count it twice, vocab × hidden = " + num(static_cast<double>(*V) * static_cast<double>(*H)) +
                      " parameters more than the checkpoint holds");
  }
  if (fam == Fam::DeepseekV3) {
    const auto mtp = r.integer("num_nextn_predict_layers", 0, 16, false, "multi-token prediction modules");
    m.draft_layers = static_cast<std::int32_t>(mtp.value_or(0));
    r.read("draft_layers", mtp ? "num_nextn_predict_layers (one MTP layer per draft token)" : "no num_nextn_predict_layers");
  } else {
    r.set("draft_layers", P::Paper, r.src("no draft (MTP) module in a " + model_type + " model"));
  }

  // Weight, activation and KV formats.
  const Formats f = read_formats(r, m.experts > 0);
  m.experts_fmt = f.experts;
  m.dense_fmt = f.dense;
  m.head_fmt = f.dtype;
  m.act_fmt = f.act;
  m.kv_fmt = m.swa_fmt = f.kv;
  r.set("experts_fmt", m.experts > 0 ? f.experts_prov : P::Paper, m.experts > 0 ? f.experts_src : r.src("no routed experts (format unused)"));
  r.set("dense_fmt", f.dense_prov, f.dense_src);
  r.set("head_fmt", f.dtype_prov, f.dtype_src + " (the LM head, embedding and router stay unquantized)");
  r.set("act_fmt", f.act_prov, f.act_src);
  r.set("kv_fmt,swa_fmt", f.kv_stated ? P::Paper : P::Assumed, f.kv_src);
  if (!f.kv_stated) r.notes.push_back("KV cache: stored in bf16 (assumed; config.json does not say). Set kv_fmt for an FP8 cache");

  // What a decoder-only transformer of these families does not have.
  r.set("enc_layers", P::Paper, r.src("decoder-only (no causal encoder)"));
  r.set("o_lora,o_groups", P::Paper, r.src("a full output projection (no low-rank output)"));
  r.set("kv_rope_bf16,kv_pad", P::Paper, r.src("one stored vector per KV head, no separate RoPE part or padding"));
  r.set("idx_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block", P::Paper, r.src("no sparse indexer or candidate pool"));
  r.set("engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home", P::Paper, r.src("no Engram tables"));
  r.set("bounded_replay", P::Paper, r.src("no bounded replay (sliding-window KV is cached with the prefix)"));
  r.set("checkpoint_gb", P::Derived, "config.json gives no checkpoint size (0: no cross-check)");
  m.cand_src = -1;
  m.idx_fmt = NumFormat::FP4_G32;
  m.engram_home = EngramHome::Hbm;

  // Every value must also be one the scenario's parameters accept, or a share link could not carry it.
  Scenario probe;
  probe.model = m;
  for (const ParamDef& p : params()) {
    if (p.group != ParamGroup::Model || p.kind == ParamKind::Text) continue;
    Scenario copy = probe;
    Error e;
    if (!set_param_text(copy, p, get_param_text(probe, p), e)) {
      std::string from;
      for (const InputOrigin& o : r.inputs)
        if (o.key == p.key) from = o.source;
      r.error(ErrorCode::OutOfRange, r.prefix + p.key, get_param_text(probe, p), param_allowed(p) + (from.empty() ? "" : " (" + from + ")"));
    }
  }
  out.model = m;
  out.model_type = model_type;
  return out;
}

// Rejects input that nests deeper than any config.json does, before the parser builds it.
bool too_deep(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > limit) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

}  // namespace

std::span<const char* const> hf_families() { return {kFamilyNames, sizeof kFamilyNames / sizeof kFamilyNames[0]}; }

bool read_hf_config(std::string_view text, std::string_view name_hint, HfModel& out, Errors& errors) {
  const std::size_t before = errors.size();
  if (text.size() > kMaxConfigBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "config.json", std::to_string(text.size()) + " bytes",
                                "at most " + std::to_string(kMaxConfigBytes) + " bytes"));
    return false;
  }
  if (too_deep(text, 32)) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "config.json", text.substr(0, 40), "a JSON object nested at most 32 levels deep"));
    return false;
  }
  // Duplicate keys are merged silently by JSON libraries; which one was meant is a guess, so they are refused.
  std::vector<std::vector<std::string>> seen;
  std::vector<std::string> duplicates;
  Json::parser_callback_t cb = [&](int depth, Json::parse_event_t ev, Json& parsed) {
    const std::size_t d = static_cast<std::size_t>(depth);
    if (ev == Json::parse_event_t::object_start) {
      if (seen.size() < d + 1) seen.resize(d + 1);
      seen[d].clear();
    } else if (ev == Json::parse_event_t::key && d >= 1 && seen.size() >= d) {
      const std::string key = parsed.is_string() ? parsed.get<std::string>() : std::string();
      for (const std::string& k : seen[d - 1])
        if (k == key) duplicates.push_back(key);
      seen[d - 1].push_back(key);
    }
    return true;
  };
  const Json j = Json::parse(text.begin(), text.end(), cb, false);
  if (j.is_discarded()) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "config.json", text.substr(0, 40), "a JSON object (the file is not valid JSON)"));
    return false;
  }
  if (!j.is_object()) {
    errors.push_back(make_error(ErrorCode::WrongType, "config.json", dump(j).substr(0, 40), "a JSON object"));
    return false;
  }
  for (const std::string& k : duplicates) errors.push_back(make_error(ErrorCode::DuplicateKey, k, k, "each key once per object"));
  if (errors.size() != before) return false;

  // The family: model_type, or the architecture class when model_type is absent; a wrapper's text_config.
  auto string_at = [&](const Json& o, const char* key, const std::string& path) -> std::optional<std::string> {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
      errors.push_back(make_error(ErrorCode::WrongType, path, dump(*it), "a string"));
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  auto first_architecture = [&](const Json& o) -> std::optional<std::string> {
    auto it = o.find("architectures");
    if (it == o.end() || it->is_null()) return std::nullopt;
    if (!it->is_array() || it->empty() || !(*it)[0].is_string()) {
      errors.push_back(make_error(ErrorCode::WrongType, "architectures", dump(*it), "a list of class names"));
      return std::nullopt;
    }
    return (*it)[0].get<std::string>();
  };
  std::optional<std::string> type = string_at(j, "model_type", "model_type");
  const std::optional<std::string> arch = first_architecture(j);
  if (errors.size() != before) return false;
  if (!type && arch) {
    for (const FamilyInfo& f : kFamilies)
      if (*arch == f.architecture) type = f.model_type;
    for (const Wrapper& w : kWrappers)
      if (*arch == w.architecture) type = w.model_type;
  }
  if (!type) {
    errors.push_back(make_error(ErrorCode::MissingField, "model_type", arch.value_or(""),
                                "a model_type (or an architectures class) of: " + families_text()));
    return false;
  }
  const Json* lm = &j;
  const Json* top = nullptr;
  std::string prefix;
  std::string text_type = *type;
  auto tc = j.find("text_config");
  const bool nested = tc != j.end() && !tc->is_null();
  if (nested) {
    if (!tc->is_object()) {
      errors.push_back(make_error(ErrorCode::WrongType, "text_config", dump(*tc), "an object holding the language model's fields"));
      return false;
    }
    lm = &*tc;
    top = &j;
    prefix = "text_config.";
    std::optional<std::string> inner = string_at(*tc, "model_type", "text_config.model_type");
    if (errors.size() != before) return false;
    if (!inner) {
      for (const Wrapper& w : kWrappers)
        if (*type == w.model_type) inner = w.text_type;
    }
    if (!inner) {
      errors.push_back(make_error(ErrorCode::MissingField, "text_config.model_type", *type,
                                  "the language model's family (text_config.model_type) of: " + families_text()));
      return false;
    }
    text_type = *inner;
  } else {
    for (const Wrapper& w : kWrappers)
      if (*type == w.model_type) text_type = w.text_type;  // a text-only file under the wrapper's name
  }
  if (is_recurrent(text_type)) {
    errors.push_back(make_error(ErrorCode::Unrepresentable, prefix + "model_type", text_type, kWhyRecurrent));
    return false;
  }
  const FamilyInfo* fam = family_by_type(text_type);
  if (!fam) {
    errors.push_back(make_error(ErrorCode::UnknownFamily, prefix + "model_type", text_type, families_text()));
    return false;
  }

  // The name, for sources and the preset: the file's own, then the caller's, then the class.
  std::string name;
  if (auto it = j.find("_name_or_path"); it != j.end() && it->is_string()) name = clean_name(it->get<std::string>());
  if (name.empty()) name = clean_name(name_hint);
  if (name.empty()) name = clean_name(arch.value_or(text_type));

  Reader r{*lm, top, prefix, name, errors, {}, {}, {}, {}};
  // The family and the name were read above, at whichever level holds them.
  for (const char* k : {"model_type", "architectures", "_name_or_path", "text_config"}) {
    r.used_top.insert(k);
    if (!nested) r.used_lm.insert(k);
  }
  r.used_lm.insert("model_type");
  std::optional<HfModel> got = read_model(r, fam->fam, text_type);
  if (!got || errors.size() != before) return false;

  // Everything not read, said once: it has no bearing on memory or time.
  std::string ignored;
  auto collect = [&](const Json& o, const std::set<std::string>& used, const std::string& pre) {
    for (auto it = o.begin(); it != o.end(); ++it) {
      if (used.count(it.key())) continue;
      if (it.key() == "vision_config" || it.key() == "audio_config") {
        r.notes.push_back(pre + it.key() + ": the " + (it.key() == "vision_config" ? "vision" : "audio") +
                          " encoder is not modelled (its weights are not counted; its tokens count as context)");
        continue;
      }
      if (it.key() == "rope_scaling" && it->is_object()) {
        r.notes.push_back(pre + "rope_scaling: positions only, no bearing on memory or time; the context limit is max_position_embeddings (" +
                          std::to_string(got->model.max_pos) + ")");
        continue;
      }
      ignored += (ignored.empty() ? "" : ", ") + pre + it.key();
    }
  };
  collect(*lm, r.used_lm, prefix);
  if (top) collect(*top, r.used_top, "");
  if (!ignored.empty()) r.notes.push_back("ignored (no bearing on memory or time): " + ignored);

  got->name = name;
  got->inputs = std::move(r.inputs);
  got->notes = std::move(r.notes);
  out = std::move(*got);
  return true;
}

bool apply_hf_config(Scenario& s, std::string_view json, std::string_view name_hint, Errors& errors, std::vector<std::string>& notes) {
  HfModel hf;
  if (!read_hf_config(json, name_hint, hf, errors)) return false;
  Scenario next = s;
  next.origin.reset();
  next.model = hf.model;
  next.preset = "config:" + hf.name;

  // The old layout may not split the new model: move it the least, as a person changing the GPU count would.
  Adjustments moved;
  fit_layout(next, moved);
  if (next.work.spec_tokens > 0 && next.model.draft_layers < 1) {
    moved.push_back({"spec_tokens", std::to_string(next.work.spec_tokens), "0", "the loaded model has no draft (MTP) module"});
    next.work.spec_tokens = 0;
  }
  Errors cross = validate(next);
  if (!cross.empty()) {
    errors.insert(errors.end(), cross.begin(), cross.end());
    return false;
  }

  auto origin = std::make_shared<ScenarioOrigin>();
  origin->base_preset = std::string(base_preset_name(s));
  origin->label = hf.name + " (config.json) · " + std::to_string(next.hw.gpus) + "×" + gpu_info(next.hw.gpu).label;
  origin->inputs = std::move(hf.inputs);
  for (const Adjustment& a : moved) {
    origin->inputs.push_back(InputOrigin{a.field, Provenance::Derived,
                                         "moved from " + a.from + " when " + hf.name + "'s config.json was loaded: " + a.why});
  }
  origin->loaded = next;

  notes = std::move(hf.notes);
  for (const Adjustment& a : moved) {
    notes.push_back(std::string(a.field == "spec_tokens" ? "workload: " : "layout: ") + a.field + " " + a.from + " → " + a.to + " (" + a.why + ")");
  }
  next.origin = std::move(origin);
  s = std::move(next);
  return true;
}

}  // namespace tierscope::model
