// config.json weight formats: the checkpoint's dtype and quantization_config mapped onto the scenario's
// storage formats, with the modules a quantization leaves out checked against what one format per class allows.
#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// Modules without a weight matrix a GEMM streams (layer norms, biases, the router's score-correction bias):
// a quantization that lists them as unconverted leaves every linear layer as it says.
bool non_linear_module(std::string_view m) {
  return m.find("norm") != std::string_view::npos || m.find("bias") != std::string_view::npos ||
         m.find("rotary") != std::string_view::npos;
}

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
    if (head_module(name) || non_linear_module(name)) continue;
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

}  // namespace

namespace {

// INT4 with a scale per `group` values (and a zero point when asymmetric): the weight-only formats engines
// run as W4A16 (dequantised inside the GEMM, BF16/FP16 activations).
std::optional<NumFormat> int4_format(long long group, bool zero_point) {
  if (zero_point) return group == 128 ? std::optional<NumFormat>(NumFormat::INT4_G128Z) : std::nullopt;
  if (group == 32) return NumFormat::INT4_G32;
  if (group == 64) return NumFormat::INT4_G64;
  if (group == 128) return NumFormat::INT4_G128;
  return std::nullopt;
}

std::optional<long long> int_in(const Json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<long long>();
}

// Whether a compressed-tensors ignore list (names or "re:" patterns) leaves attention in the dtype.
bool ignores(const Json& list, std::string_view what) {
  if (!list.is_array()) return false;
  for (const Json& x : list)
    if (x.is_string() && x.get<std::string>().find(what) != std::string::npos) return true;
  return false;
}

// compressed-tensors (llm-compressor): config_groups of weights and activations. INT4 weight-only groups
// (W4A16, e.g. Kimi-K2.5's routed experts) or FP8; the ignore list says which linear layers keep the dtype.
void compressed_tensors(Reader& r, const Json& q, Formats& f) {
  const std::string qsrc = r.src("quantization_config");
  auto groups = q.find("config_groups");
  if (groups == q.end() || !groups->is_object() || groups->empty()) {
    r.error(groups == q.end() ? ErrorCode::MissingField : ErrorCode::WrongType, "quantization_config.config_groups",
            groups == q.end() ? "" : dump(*groups), "one or more quantization groups (weights, input_activations)");
    return;
  }
  if (groups->size() > 1) r.notes.push_back("quantization_config.config_groups: " + std::to_string(groups->size()) + " groups; the first is read");
  const Json& g = (*groups)[0];
  const std::string path = "quantization_config.config_groups." + groups->begin().key();
  auto w = g.find("weights");
  if (w == g.end() || !w->is_object()) {
    r.error(ErrorCode::MissingField, path + ".weights", "", "the weights' num_bits, type, strategy and group_size");
    return;
  }
  const long long bits = int_in(*w, "num_bits").value_or(0);
  const std::string type = w->contains("type") && w->find("type")->is_string() ? w->find("type")->get<std::string>() : "";
  NumFormat fmt = NumFormat::BF16;
  std::string what;
  if (bits == 4 && type == "int") {
    const std::string strategy = w->contains("strategy") && w->find("strategy")->is_string() ? w->find("strategy")->get<std::string>() : "";
    const long long group = int_in(*w, "group_size").value_or(0);
    const bool symmetric = !(w->contains("symmetric") && w->find("symmetric")->is_boolean() && !w->find("symmetric")->get<bool>());
    const std::optional<NumFormat> f4 = strategy == "group" ? int4_format(group, !symmetric) : std::nullopt;
    if (!f4) {
      r.error(ErrorCode::BadEnum, path + ".weights", "INT4, strategy " + strategy + ", group_size " + std::to_string(group) + (symmetric ? "" : ", asymmetric"),
              "INT4 groups of 32, 64 or 128 (symmetric), or 128 with zero points");
      return;
    }
    fmt = *f4;
    what = "INT4 weights, group_size " + std::to_string(group);
  } else if (bits == 8 && type == "float") {
    fmt = NumFormat::FP8;
    what = "FP8 weights";
  } else if (bits == 4 && type == "float" && int_in(*w, "group_size").value_or(0) == 32) {
    // MXFP4 (format mxfp4-pack-quantized): E2M1 values with one 8-bit power-of-two scale per 32.
    fmt = NumFormat::FP4_G32;
    what = "4-bit float weights with a scale per 32 (MXFP4)";
  } else {
    r.error(ErrorCode::BadEnum, path + ".weights", std::to_string(bits) + "-bit " + type + ", group_size " + std::to_string(int_in(*w, "group_size").value_or(0)),
            "4-bit int (W4A16), 4-bit float in groups of 32 (MXFP4) or 8-bit float weights");
    return;
  }
  // Activations: none stated means they stay in the dtype (weight-only), else FP8 dynamic.
  auto a = g.find("input_activations");
  if (a != g.end() && a->is_object()) {
    const long long abits = int_in(*a, "num_bits").value_or(0);
    if (abits == 8) {
      f.act = NumFormat::FP8;
      f.act_prov = P::Paper;
      f.act_src = qsrc + " compressed-tensors input_activations 8-bit";
    } else {
      r.error(ErrorCode::BadEnum, path + ".input_activations", std::to_string(abits) + "-bit", "8-bit activations, or none (weight-only)");
    }
  } else {
    f.act_src = qsrc + " compressed-tensors input_activations null: weight-only, activations in the " + std::string(format_info(f.dtype).label) +
                " dtype (dequantised inside the GEMM)";
    f.act_prov = P::Paper;
  }
  // The ignore list: attention, shared experts and dense FFN left in the dtype, or every linear layer converted.
  const Json* ign = q.contains("ignore") ? &*q.find("ignore") : nullptr;
  const bool attn_kept = ign && ignores(*ign, "attn"), shared_kept = ign && (ignores(*ign, "shared_expert") || ignores(*ign, "mlp"));
  if (attn_kept != shared_kept) {
    r.error(ErrorCode::Unrepresentable, "quantization_config.ignore", attn_kept ? "attention only" : "the FFN only",
            "attention, shared experts and dense FFN converted together or kept together: tierscope gives them one format (dense_fmt)");
    return;
  }
  f.experts = fmt;
  f.experts_src = qsrc + " compressed-tensors, " + what + " (routed experts)";
  f.experts_prov = P::Paper;
  if (!attn_kept) {
    f.dense = fmt;
    f.dense_src = qsrc + " compressed-tensors, " + what;
    f.dense_prov = P::Paper;
  } else {
    f.dense_src += " (compressed-tensors ignore keeps attention, shared experts and dense FFN)";
  }
}

// GPTQ and AWQ checkpoints: every linear layer of the decoder in 4 bits (the head and embedding stay), the
// group size from the file; GPTQ symmetric, AWQ with zero points.
void int4_method(Reader& r, const Json& q, const std::string& method, Formats& f) {
  const std::string qsrc = r.src("quantization_config");
  const long long bits = int_in(q, method == "awq" ? "bits" : "bits").value_or(method == "awq" ? (int_in(q, "w_bit").value_or(0)) : 0);
  const long long group = int_in(q, "group_size").value_or(int_in(q, "q_group_size").value_or(0));
  bool zero = method == "awq";
  if (auto it = q.find("zero_point"); it != q.end() && it->is_boolean()) zero = it->get<bool>();
  if (auto it = q.find("sym"); it != q.end() && it->is_boolean()) zero = !it->get<bool>();
  const std::optional<NumFormat> f4 = bits == 4 ? int4_format(group, zero) : std::nullopt;
  if (!f4) {
    r.error(bits == 4 ? ErrorCode::BadEnum : ErrorCode::OutOfRange, "quantization_config." + std::string(bits == 4 ? "group_size" : "bits"),
            bits == 4 ? std::to_string(group) : std::to_string(bits),
            bits == 4 ? "group_size 32, 64 or 128 (symmetric), or 128 with zero points" : "4-bit weights (W4A16)");
    return;
  }
  check_excluded(r, q, "modules_to_not_convert", method, false);
  f.experts = f.dense = *f4;
  f.experts_src = f.dense_src = qsrc + " quant_method " + method + ", " + std::to_string(bits) + " bits, group_size " + std::to_string(group) +
                                (zero ? " with zero points" : " symmetric");
  f.experts_prov = f.dense_prov = P::Paper;
  f.act_prov = P::Paper;
  f.act_src = qsrc + " " + method + ": weight-only, activations in the " + std::string(format_info(f.dtype).label) + " dtype (dequantised inside the GEMM)";
}

// NVIDIA ModelOpt: FP8 or NVFP4 (E2M1 + E4M3 per 16) weights and activations, from config.json's
// quantization_config or the hf_quant_config.json beside it.
void modelopt(Reader& r, const Json& q, const std::string& where, Formats& f) {
  auto get_str = [&](const char* key) -> std::optional<std::string> {
    auto it = q.find(key);
    if (it == q.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
      r.error(ErrorCode::WrongType, where + "." + key, dump(*it), "a string");
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  const std::optional<std::string> algo = get_str("quant_algo");
  NumFormat w = NumFormat::BF16;
  if (algo && *algo == "FP8") w = NumFormat::FP8;
  else if (algo && *algo == "NVFP4") w = NumFormat::FP4_G16;
  else {
    r.error(algo ? ErrorCode::BadEnum : ErrorCode::MissingField, where + ".quant_algo", algo.value_or(""), "FP8 or NVFP4");
    return;
  }
  check_excluded(r, q, "exclude_modules", "modelopt", false);
  const std::string qsrc = where == "quantization_config" ? r.src("quantization_config") : "hf_quant_config.json of " + r.name + ": quantization";
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
      r.error(ErrorCode::BadEnum, where + ".kv_cache_quant_algo", *kv, "FP8 (or none: a 16-bit cache)");
    }
  }
}

}  // namespace

Formats read_formats(Reader& r, bool has_experts, std::string_view quant_text) {
  Formats f;
  read_dtype(r, f);
  f.experts = f.dense = f.act = f.dtype;
  f.experts_src = f.dense_src = f.dtype_src;
  f.experts_prov = f.dense_prov = f.dtype_prov;
  f.act_src = "assumed: activations enter the GEMMs in the weights' 16-bit dtype (no activation quantization in config.json)";
  f.kv_src = "assumed bf16: config.json does not say how the KV cache is stored; engines default to the model's 16-bit dtype";

  // hf_quant_config.json beside the file (ModelOpt) states the formats the publisher exported.
  if (!quant_text.empty()) {
    json::Document qdoc;
    if (!qdoc.parse(quant_text, nullptr, true) || !qdoc.root().is_object()) {
      r.error(ErrorCode::BadSyntax, "hf_quant_config.json", std::string(quant_text.substr(0, 40)), "a JSON object (the file is not valid JSON)");
      return f;
    }
    auto qb = qdoc.root().find("quantization");
    if (qb == qdoc.root().end() || !qb->is_object()) {
      r.error(ErrorCode::MissingField, "hf_quant_config.json.quantization", "", "an object with quant_algo (FP8 or NVFP4)");
      return f;
    }
    r.look("quantization_config", true);  // read: the file beside it says the same, in ModelOpt's own words
    modelopt(r, *qb, "hf_quant_config.json.quantization", f);
    return f;
  }
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
    if (q.find("quant_method") == q.end()) r.missing("quantization_config.quant_method", "the quantization method: fp8, mxfp4, modelopt, compressed-tensors, gptq or awq");
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
    // DeepSeek-V4 stores its block scales as 8-bit exponents (scale_fmt ue8m0); the 128 × 128 format counts an
    // FP32 scale, 3 B more per 16,384 values: said, not modelled.
    if (const std::optional<std::string> scale = get_str("scale_fmt"); scale && w == NumFormat::FP8_B128 && *scale != "fp32" && *scale != "float32") {
      r.notes.push_back("quantization_config.scale_fmt " + *scale + ": each 128×128 block's scale is counted as FP32 (4 B), " +
                        (*scale == "ue8m0" ? std::string("1 B in the file: 3 B more per 16,384 values, 0.02 % of the FP8 weights' bytes")
                                           : std::string("whatever the file stores")));
    }
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
    modelopt(r, q, "quantization_config", f);
    return f;
  }
  if (*method == "compressed-tensors") {
    compressed_tensors(r, q, f);
    return f;
  }
  if (*method == "gptq" || *method == "awq") {
    int4_method(r, q, *method, f);
    return f;
  }
  r.error(ErrorCode::BadEnum, "quantization_config.quant_method", *method,
          "fp8, mxfp4, modelopt (FP8, NVFP4), compressed-tensors (INT4 weight-only, FP8), gptq or awq (INT4 weight-only)");
  return f;
}

}  // namespace tierscope::model::hf
