// config.json weight formats: the checkpoint's dtype and quantization_config mapped onto the scenario's
// storage formats, with the modules a quantization leaves out checked against what one format per class allows.
#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

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

}  // namespace

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

}  // namespace tierscope::model::hf
