// config.json → ModelArch: the stack's size, the attention (heads, MLA, V4's single latent), the layers'
// kinds, the feed-forward blocks per layer, the formats, each key with the field it came from. The layouts
// of the 2026 families are in hf_hybrid.cpp, what their layers carry beyond attention and FFN in
// hf_layer_extras.cpp; the weight formats in hf_formats.cpp; Kimi K3's latent experts in
// hf_kimi_k3.cpp.
//
// Sections: attention · feed-forward kinds per layer · experts and shared experts · the feed-forward block ·
// the parameter check · layer modes · weight formats · read_model, which runs the sections in order.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// The attention projections and the KV layout: DeepSeek-V4's single K = V latent, MLA's latent and low-rank
// query, or heads of head_dim (grouped by num_key_value_heads). False when a field it needs is missing or wrong.
bool read_attention(Reader& r, Fam fam, long long H, long long Q, const std::string& model_type, ModelArch& m) {
  const bool gemma = fam == Fam::Gemma2 || fam == Fam::Gemma3;
  m.q_heads = static_cast<std::int32_t>(Q);
  r.read("q_heads", "num_attention_heads");
  // Gemma 4 names its global layers' heads apart: global_head_dim always, num_global_key_value_heads only on
  // layers that take V from K (attention_k_eq_v), as transformers' Gemma4TextAttention picks them.
  const bool k_eq_v = fam == Fam::Gemma4 && r.boolean("attention_k_eq_v").value_or(false);
  // StepFun's Step 3.5 names its KV heads num_attention_groups (vLLM's and SGLang's Step3p5 attention).
  const char* kv_key = k_eq_v && r.present("num_global_key_value_heads") ? "num_global_key_value_heads"
                       : fam == Fam::Step3p5                              ? "num_attention_groups"
                                                                          : "num_key_value_heads";
  std::optional<long long> KV = r.param_int(kv_key, "kv_heads", fam == Fam::Step3p5, "KV heads");
  if (KV) {
    r.read("kv_heads", kv_key);
  } else {
    KV = Q;
    r.set("kv_heads", P::Derived, r.src("num_attention_heads (no num_key_value_heads: transformers uses one KV head per query head)"));
  }
  m.kv_heads = static_cast<std::int32_t>(*KV);
  if (fam == Fam::DeepseekV4) {
    // One 512-wide latent per token serves as K and V for every head; queries through a low-rank, the output
    // through grouped low-rank projections (o_groups × o_lora_rank).
    const auto hd = r.param_int("head_dim", "head_dim", true, "the shared K = V latent's width");
    const auto rope = r.integer("qk_rope_head_dim", 1, 65536, true, "RoPE dims of the latent");
    const auto ql = r.param_int("q_lora_rank", "q_lora", true, "query low-rank");
    const auto ol = r.param_int("o_lora_rank", "o_lora", true, "output low-rank");
    const auto og = r.param_int("o_groups", "o_groups", true, "output projection groups");
    if (!hd || !rope || !ql || !ol || !og) return false;
    m.attn = AttnKind::Latent;
    m.head_dim = m.v_dim = static_cast<std::int32_t>(*hd);
    m.rope_dim = static_cast<std::int32_t>(*rope);
    m.q_lora = static_cast<std::int32_t>(*ql);
    m.o_lora = static_cast<std::int32_t>(*ol);
    m.o_groups = static_cast<std::int32_t>(*og);
    r.read("head_dim,v_dim", "head_dim (one K = V latent per token)");
    r.read("rope_dim", "qk_rope_head_dim");
    r.read("q_lora", "q_lora_rank");
    r.read("o_lora", "o_lora_rank");
    r.read("o_groups", "o_groups");
    r.set("attn", P::Paper, r.src("num_key_value_heads 1, head_dim (a single shared latent, DeepSeek-V4)"));
    r.set("kv_lora", P::Paper, r.src("no MLA latent (the latent is head_dim)"));
    return true;
  }
  if (mla_family(fam)) {
    // Kimi-Linear's MLA layers run without RoPE (qk_rope_head_dim 0).
    const auto nope = r.integer("qk_nope_head_dim", 0, 65536, true, "key dims without RoPE per head");
    const auto rope = r.integer("qk_rope_head_dim", fam == Fam::KimiLinear ? 0 : 1, 65536, true, "RoPE key dims per head");
    const auto vd = r.param_int("v_head_dim", "v_dim", true, "value dims per head");
    const auto kvl = r.param_int("kv_lora_rank", "kv_lora", true, "the MLA latent");
    if (!r.look("q_lora_rank").v) r.missing(r.prefix + "q_lora_rank", "the query low-rank, or null when queries are projected in full");
    const auto ql = r.param_int("q_lora_rank", "q_lora", false, "query low-rank");
    if (!nope || !rope || !vd || !kvl) return false;
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
    r.set("o_lora,o_groups", P::Paper, r.src("a full output projection (no low-rank output)"));
    return true;
  }
  const char* hd_key = fam == Fam::Gemma4 && r.present("global_head_dim") ? "global_head_dim"
                       : fam == Fam::NemotronH && !r.present("head_dim")  ? "attention_head_dim"
                                                                          : "head_dim";
  std::optional<long long> hd = r.param_int(hd_key, "head_dim", false, "dims per head");
  if (hd) {
    r.read("head_dim,v_dim", hd_key);
  } else if (gemma) {
    hd = 256;  // Gemma2Config and Gemma3TextConfig default
    r.set("head_dim,v_dim", P::Assumed, "assumed 256: transformers' Gemma config default (config.json gives no head_dim)");
    r.notes.push_back("head_dim: not given; the Gemma config default of 256 is taken (assumed)");
  } else if (H % Q == 0) {
    hd = H / Q;
    r.set("head_dim,v_dim", P::Derived, r.src("hidden_size ÷ num_attention_heads (no head_dim)"));
  } else {
    r.missing(r.prefix + "head_dim", "dims per head (hidden_size " + std::to_string(H) + " is not a multiple of " + std::to_string(Q) + " heads)");
    return false;
  }
  m.attn = AttnKind::MHA;
  m.head_dim = m.v_dim = static_cast<std::int32_t>(*hd);
  // MiMo-V2-Flash's values are narrower than its keys (v_head_dim).
  if (const auto vd = r.param_int("v_head_dim", "v_dim", false, "value dims per head")) {
    m.v_dim = static_cast<std::int32_t>(*vd);
    r.read("v_dim", "v_head_dim");
  }
  r.set("attn", P::Paper, r.src("num_key_value_heads (grouped-query attention: K and V per KV head)"));
  r.set("kv_lora,q_lora,rope_dim", P::Paper, r.src("no MLA latent or low-rank query in a " + model_type + " model"));
  r.set("o_lora,o_groups", P::Paper, r.src("a full output projection (no low-rank output)"));
  return true;
}

// The per-layer FFN kinds a family's MoE rule gives (an explicit list from the layout, else the rule).
std::vector<FfnKind> ffn_kinds(Reader& r, Fam fam, int layers, const Layout& lay, std::string& fields) {
  if (!lay.ffn.empty()) {
    fields = lay.fields;
    return lay.ffn;
  }
  std::vector<FfnKind> out(static_cast<std::size_t>(layers), FfnKind::Moe);
  if (fam == Fam::DeepseekV4 || fam == Fam::MinimaxM2) {
    fields = "num_hidden_layers (every layer MoE)";
    return out;
  }
  if (fam == Fam::Gemma4) {
    fields = "enable_moe_block (the expert block beside the dense MLP in every layer)";
    return out;
  }
  const std::vector<bool> moe = moe_layers(r, fam, layers, fields);
  for (int i = 0; i < layers; ++i) out[static_cast<std::size_t>(i)] = moe[static_cast<std::size_t>(i)] ? FfnKind::Moe : FfnKind::Dense;
  return out;
}

const char* experts_key_of(Fam fam) {
  switch (fam) {
    case Fam::Mixtral:
    case Fam::GptOss:
    case Fam::MinimaxM2:
    case Fam::MinimaxM3:
    case Fam::Llama4: return "num_local_experts";
    case Fam::Qwen2Moe:
    case Fam::Qwen3Moe:
    case Fam::Qwen35Moe:
    case Fam::KimiLinear:
    case Fam::Gemma4: return "num_experts";
    case Fam::NemotronH:
    case Fam::MimoV2Flash: return "n_routed_experts";
    case Fam::Step3p5: return "moe_num_experts";
    default: return deepseek_moe(fam) ? "n_routed_experts" : nullptr;
  }
}

// The shared experts always run: counted (DeepSeek, Kimi-Linear), or one FFN stated by its width, counted in
// routed-expert widths (Qwen, Nemotron-H, MiniMax); Llama 4 has one of the experts' width in every MoE layer.
bool read_shared(Reader& r, Fam fam, long long ei, const std::string& model_type, ModelArch& m) {
  if (deepseek_moe(fam) || fam == Fam::MimoV2Flash || fam == Fam::KimiLinear) {
    const char* key = fam == Fam::KimiLinear ? "num_shared_experts" : "n_shared_experts";
    const auto sh = r.param_int(key, "shared_experts", false, "shared experts", 0);
    m.shared_experts = static_cast<std::int32_t>(sh.value_or(0));
    r.read("shared_experts", sh ? std::string(key) : std::string(key) + " (absent or null: none)");
    return true;
  }
  // Gemma 4's MoE layers run their dense MLP (intermediate_size) beside the routed experts, on every token.
  const char* width_key = fam == Fam::Gemma4                               ? "intermediate_size"
                          : fam == Fam::Qwen2Moe || fam == Fam::Qwen35Moe ? "shared_expert_intermediate_size"
                          : fam == Fam::NemotronH                       ? "moe_shared_expert_intermediate_size"
                          : fam == Fam::MinimaxM2 || fam == Fam::MinimaxM3 ? "shared_intermediate_size"
                          : fam == Fam::Step3p5                         ? "share_expert_dim"
                                                                        : nullptr;
  if (fam == Fam::Llama4) {
    m.shared_experts = 1;
    r.read("shared_experts", "intermediate_size (Llama4TextMoe's one shared expert, as wide as a routed one)");
    return true;
  }
  if (!width_key) {
    r.set("shared_experts", P::Paper, r.src("no shared expert in a " + model_type + " model"));
    return true;
  }
  const auto sw = r.integer(width_key, 0, 16777216, false, "the shared expert's FFN width");
  // vLLM's Step3p5Config without share_expert_dim: moe_intermediate_size × moe_top_k.
  const bool step_default = fam == Fam::Step3p5 && !sw;
  const long long width = step_default ? ei * m.experts_per_token : sw.value_or(0);
  if (width % ei != 0) {
    r.error(ErrorCode::Unrepresentable, r.prefix + width_key, std::to_string(width),
            "a multiple of the expert width (" + std::to_string(ei) + "): tierscope counts shared experts in routed-expert widths");
    return false;
  }
  m.shared_experts = static_cast<std::int32_t>(width / ei);
  if (step_default) r.set("shared_experts", P::Derived, r.src("no share_expert_dim: vLLM's Step3p5Config default, moe_intermediate_size × moe_top_k"));
  else r.read("shared_experts", std::string(width_key) + " ÷ the expert width");
  if (fam == Fam::MinimaxM3) {
    // MiniMax-M3 states the count beside the width; the two must agree.
    if (const auto n = r.integer("n_shared_experts", 0, 64, false, "shared experts"); n && *n != m.shared_experts) {
      r.error(ErrorCode::Inconsistent, r.prefix + "n_shared_experts", std::to_string(*n),
              std::to_string(m.shared_experts) + " (shared_intermediate_size " + std::to_string(width) + " ÷ the expert width " + std::to_string(ei) + ")");
      return false;
    }
  }
  if (fam == Fam::Gemma4) {
    r.notes.push_back("intermediate_size " + std::to_string(width) + ": each layer's dense MLP runs beside the routed experts on every token, "
                      "counted as " + std::to_string(m.shared_experts) + " shared experts of the expert width " + std::to_string(ei));
  } else if (m.shared_experts > 0 && fam != Fam::NemotronH && fam != Fam::MinimaxM3 && fam != Fam::Step3p5)
    r.notes.push_back("shared_expert_gate: the shared expert's one-row gate is not counted (hidden_size parameters per layer)");
  return true;
}

// The feed-forward layers: routed experts (their count, width and top-k), shared experts, and which layers
// are dense, routed or neither; or one dense FFN in every layer. False when a field is missing or wrong.
bool read_ffn(Reader& r, Fam fam, int layers, const Layout& lay, const std::string& model_type, ModelArch& m) {
  const char* experts_key = experts_key_of(fam);
  const bool optional_experts = fam == Fam::DeepseekV2 || fam == Fam::DeepseekV3 || fam == Fam::NemotronH;
  std::optional<long long> E;
  // Gemma 4's expert block is there when enable_moe_block says so (its dense files write num_experts null).
  const bool no_block = fam == Fam::Gemma4 && !r.boolean("enable_moe_block").value_or(false);
  if (experts_key && !no_block) E = r.param_int(experts_key, "experts", !optional_experts, "routed experts", 0);
  std::string fields;
  std::vector<FfnKind> kinds = E && *E > 0 ? ffn_kinds(r, fam, layers, lay, fields) : lay.ffn;
  if (kinds.empty()) kinds.assign(static_cast<std::size_t>(layers), FfnKind::Dense), fields = "num_hidden_layers (a dense FFN in every layer)";
  const bool any_moe = std::find(kinds.begin(), kinds.end(), FfnKind::Moe) != kinds.end();
  const bool any_dense = std::find(kinds.begin(), kinds.end(), FfnKind::Dense) != kinds.end();
  const bool routed = E && *E > 0 && any_moe;
  // Nemotron-H's MLP and experts are plain up-down projections with ReLU², not gated.
  m.ffn_mats = 0;
  if (fam == Fam::NemotronH) {
    const std::optional<std::string> act = r.text("mlp_hidden_act");
    m.ffn_mats = act.value_or("relu2") == "relu2" ? 2 : 0;
    r.set("ffn_mats", act ? P::Paper : P::Derived, r.src(act ? "mlp_hidden_act " + *act + " (relu2: up and down, no gate)" : "no mlp_hidden_act: NemotronHConfig's relu2 (up and down, no gate)"));
  } else {
    r.set("ffn_mats", P::Paper, r.src("a gated FFN (gate, up, down) in a " + model_type + " model"));
  }
  if (routed) {
    const char* k_key = fam == Fam::KimiLinear ? "num_experts_per_token"
                        : fam == Fam::Gemma4   ? "top_k_experts"
                        : fam == Fam::Step3p5  ? "moe_top_k"
                                               : "num_experts_per_tok";
    const bool width_is_inter = fam == Fam::Mixtral || fam == Fam::GptOss || fam == Fam::MinimaxM2 || fam == Fam::MinimaxM3 || fam == Fam::Llama4;
    const char* ei_key = width_is_inter ? "intermediate_size" : "moe_intermediate_size";
    const auto k = r.param_int(k_key, "experts_per_token", true, "routed experts each token uses");
    const auto ei = r.param_int(ei_key, "expert_inter", true, "each expert's FFN width");
    if (!k || !ei) return false;
    if (*k > *E) {
      r.error(ErrorCode::Inconsistent, r.prefix + k_key, std::to_string(*k), "at most the " + std::to_string(*E) + " routed experts");
      return false;
    }
    m.experts = static_cast<std::int32_t>(*E);
    m.experts_per_token = static_cast<std::int32_t>(*k);
    m.expert_inter = static_cast<std::int32_t>(*ei);
    r.read("experts", experts_key);
    r.read("experts_per_token", k_key);
    r.read("expert_inter", ei_key);
    if (!read_shared(r, fam, *ei, model_type, m)) return false;
  } else {
    if (E) r.notes.push_back(std::string(experts_key) + " " + std::to_string(*E) + (any_moe ? ": no routed experts, so no layer is MoE" : ": no layer is MoE, so the model is dense"));
    for (FfnKind& f : kinds)
      if (f == FfnKind::Moe) f = FfnKind::Dense;
    r.set("experts,shared_experts,experts_per_token,expert_inter", P::Paper,
          r.src(no_block      ? std::string("enable_moe_block (false or absent: no expert block)")
                : experts_key ? std::string(experts_key) + " (no routed experts)"
                              : "no routed experts in a " + model_type + " model"));
  }
  // Kimi K3's routed experts on a latent narrower than hidden_size (hf_kimi_k3.cpp).
  if (!read_expert_latent(r, fam, routed, m)) return false;
  // The leading dense layers then MoE layers the scenario's rule describes; anything else as a per-layer list.
  int leading = 0;
  while (leading < layers && kinds[static_cast<std::size_t>(leading)] == FfnKind::Dense) ++leading;
  bool rule = true;
  for (int i = leading; i < layers; ++i) rule = rule && kinds[static_cast<std::size_t>(i)] == (routed ? FfnKind::Moe : FfnKind::Dense);
  if (rule) {
    m.dense_layers = routed ? leading : layers;
    m.ffn_count = 0;
    r.read("dense_layers", routed ? fields : "num_hidden_layers (a dense FFN in every layer)");
    r.set("ffn", P::Paper, r.src("the first dense_layers layers dense, the rest MoE (" + (fields.empty() ? std::string("every layer dense") : fields) + ")"));
  } else {
    m.dense_layers = 0;
    m.ffn_count = layers;
    for (int i = 0; i < layers; ++i) m.ffn[static_cast<std::size_t>(i)] = kinds[static_cast<std::size_t>(i)];
    r.read("ffn", fields);
    r.set("dense_layers", P::Paper, r.src("the per-layer list (ffn) says which layers are dense"));
  }
  const bool dense_ffn = std::find(kinds.begin(), kinds.end(), FfnKind::Dense) != kinds.end();
  if (dense_ffn) {
    const char* key = fam == Fam::Llama4 ? "intermediate_size_mlp" : fam == Fam::MinimaxM3 ? "dense_intermediate_size" : "intermediate_size";
    const auto inter = r.param_int(key, "dense_inter", true, "the dense FFN's width");
    if (!inter) return false;
    m.dense_inter = static_cast<std::int32_t>(*inter);
    r.read("dense_inter", std::string(key) + " (dense layers)");
  } else {
    r.set("dense_inter", P::Paper, r.src("no dense FFN layer"));
    if (!(fam == Fam::Mixtral || fam == Fam::GptOss || fam == Fam::MinimaxM2)) r.look("intermediate_size");  // read, but no layer uses it
  }
  (void)any_dense;
  return true;
}

// Every value must also be one the scenario's parameters accept, or a share link could not carry it: each
// that is not is an error naming the config.json field it came from.
void check_params(Reader& r, const ModelArch& m) {
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
}

LayerMode mode_of(char kind) {
  switch (kind) {
    case 'S': return LayerMode::SwaOnly;
    case 'F': return LayerMode::Full;
    case 'L': return LayerMode::Linear;
    case 'C': return LayerMode::Chunked;
    default: return LayerMode::Dense;
  }
}

// What the model keeps beside its weights in the stored formats (KV cache, recurrent state).
void apply_formats(Reader& r, Fam fam, const Formats& f, ModelArch& m) {
  m.experts_fmt = f.experts;
  m.dense_fmt = f.dense;
  m.head_fmt = f.dtype;
  m.act_fmt = f.act;
  std::string experts_src = f.experts_src;
  Provenance experts_prov = f.experts_prov;
  if (fam == Fam::DeepseekV4 && m.experts > 0) {
    // expert_dtype fp4: the routed experts in MXFP4 (E2M1 with an E8M0 scale per 32), the rest as quantization_config.
    if (const std::optional<std::string> ed = r.text("expert_dtype")) {
      if (*ed == "fp4") {
        m.experts_fmt = NumFormat::FP4_G32;
        experts_src = r.src("expert_dtype fp4 (MXFP4: E2M1 with an E8M0 scale per 32 values)");
        experts_prov = P::Paper;
      } else if (*ed != "fp8") {
        r.error(ErrorCode::BadEnum, r.prefix + "expert_dtype", *ed, "fp4 or fp8");
      }
    }
  }
  r.set("experts_fmt", m.experts > 0 ? experts_prov : P::Paper, m.experts > 0 ? experts_src : r.src("no routed experts (format unused)"));
  r.set("dense_fmt", f.dense_prov, f.dense_src);
  r.set("head_fmt", f.dtype_prov, f.dtype_src + " (the LM head, embedding and router stay unquantized)");
  r.set("act_fmt", f.act_prov, f.act_src);
  if (fam != Fam::DeepseekV4) {
    m.kv_fmt = m.swa_fmt = f.kv;
    r.set("kv_fmt,swa_fmt", f.kv_stated ? P::Paper : P::Assumed, f.kv_src);
    if (!f.kv_stated) r.notes.push_back("KV cache: stored in bf16 (assumed; config.json does not say). Set kv_fmt for an FP8 cache");
  }
}

}  // namespace

std::optional<HfModel> read_model(Reader& r, Fam fam, const std::string& model_type, std::string_view quant_text) {
  HfModel out;
  ModelArch m{};
  const bool gemma = fam == Fam::Gemma2 || fam == Fam::Gemma3;

  // Size of the stack.
  const std::optional<long long> L = read_layer_count(r, fam);
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
  // Kimi-Linear's published file states its length as model_max_length only (its config class defines no
  // max_position_embeddings); vLLM takes a model's length from that key when the others are absent.
  const bool length_as_model_max = fam == Fam::KimiLinear && !r.present("max_position_embeddings") && r.present("model_max_length");
  std::optional<long long> max_pos = length_as_model_max
                                         ? r.param_int("model_max_length", "max_pos", true, "trained positions")
                                         : r.param_int("max_position_embeddings", "max_pos", fam != Fam::Gemma3, "trained positions");
  if (length_as_model_max) {
    r.read("max_pos", "model_max_length (no max_position_embeddings; vLLM reads a model's length from model_max_length then, "
                      "https://github.com/vllm-project/vllm/blob/main/vllm/config/model.py)");
  } else if (!max_pos && fam == Fam::Gemma3 && !r.present("max_position_embeddings")) {
    max_pos = 131072;
    r.set("max_pos", P::Assumed, "assumed 131072: Gemma3TextConfig's default (config.json gives no max_position_embeddings)");
    r.notes.push_back("max_position_embeddings: not given; Gemma3TextConfig's default of 131,072 is taken (assumed)");
  } else {
    r.read("max_pos", "max_position_embeddings");
  }
  if (!L || !H || !Q || !V || !max_pos) return std::nullopt;
  const int layers = static_cast<int>(*L);
  r.read("hidden", "hidden_size");

  if (!read_attention(r, fam, *H, *Q, model_type, m)) return std::nullopt;
  m.hidden = static_cast<std::int32_t>(*H);
  m.vocab = static_cast<std::int32_t>(*V);
  m.max_pos = static_cast<std::int32_t>(*max_pos);

  // Each layer's kind: full, sliding, chunked, sparse (indexer), linear; its compression and window.
  std::optional<long long> window;
  const Layout lay = read_layout(r, fam, layers, *max_pos, window);
  if (lay.kind.size() != static_cast<std::size_t>(layers)) return std::nullopt;
  m.layer_count = layers;
  bool any_linear = false;
  for (int i = 0; i < layers; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const LayerMode mode = mode_of(lay.kind[k]);
    const bool spans = mode == LayerMode::SwaOnly || mode == LayerMode::Chunked;
    m.layers[k] = Layer{mode, static_cast<std::uint16_t>(owns_kv(mode) ? lay.ratio[k] : 1), spans ? lay.span[k] : 0};
    any_linear = any_linear || mode == LayerMode::Linear;
  }
  r.set("modes", lay.prov, r.src(lay.fields));
  m.n_win = window ? static_cast<std::int32_t>(*window) : 0;
  m.swa_all = fam == Fam::DeepseekV4 ? 1 : 0;
  if (window) r.read("n_win", "sliding_window");
  else r.set("n_win", P::Paper, r.src("no sliding-window layer"));
  if (fam == Fam::DeepseekV4) r.read("swa_all", "sliding_window (DeepSeek-V4 keeps the window on every layer, beside its compressed KV)");
  else r.set("swa_all", P::Derived, "only sliding-window layers keep a window; full-attention layers hold the whole context");

  if (!read_linear(r, fam, any_linear, m)) return std::nullopt;
  read_local_heads(r, fam, m);
  if (!read_ffn(r, fam, layers, lay, model_type, m)) return std::nullopt;
  if (fam == Fam::KimiLinear) kimi_k3_unmodelled(r, m);
  if (fam == Fam::Step3p5) step3p5_unmodelled(r, m);

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
  read_draft(r, fam, m);

  // Weight, activation and KV formats; the indexer (and V4's stored cache layout) after them.
  const Formats f = read_formats(r, m.experts > 0, quant_text);
  apply_formats(r, fam, f, m);
  if (!read_indexer(r, fam, m)) return std::nullopt;

  // What a decoder-only transformer of these families does not have.
  r.set("enc_layers", P::Paper, r.src("decoder-only (no causal encoder)"));
  if (fam != Fam::DeepseekV4) r.set("kv_rope_bf16,kv_pad", P::Paper, r.src("one stored vector per KV head, no separate RoPE part or padding"));
  r.set("engram,engram_ngram,engram_heads,engram_dim,engram_fmt,engram_home", P::Paper, r.src("no Engram tables"));
  r.set("bounded_replay", P::Paper, r.src("no bounded replay (sliding-window KV is cached with the prefix)"));
  r.set("checkpoint_gb", P::Derived, "config.json gives no checkpoint size (0: no cross-check)");
  m.engram_home = EngramHome::Hbm;
  if (fam == Fam::DeepseekV4) {
    for (const char* k : {"hc_mult", "hc_sinkhorn_iters", "hc_eps"}) r.look(k);
    r.notes.push_back("hc_mult: the " + std::string("residual streams (mHC) and their mixing weights are not modelled: a few hundred million "
                                                    "parameters and no KV; activations between layers are hc_mult × wider"));
    r.look("num_hash_layers");
    r.notes.push_back("num_hash_layers: the first layers route tokens by a hashed token-id table rather than a router GEMM; counted as routed MoE layers");
    r.notes.push_back("compressor and indexer projections: the KV compressors' and indexer's own weights are not counted (under 0.2 % of the parameters)");
  }
  if (fam == Fam::DeepseekV32 || fam == Fam::GlmMoeDsa || (fam == Fam::MinimaxM3 && m.idx_dim > 0)) {
    r.notes.push_back(std::string("indexer projections: the ") + (fam == Fam::MinimaxM3 ? "sparse attention's indexer" : "lightning indexer") +
                      "'s query and key weights are not counted (under 0.2 % of the parameters)");
  }

  check_params(r, m);
  out.model = m;
  out.model_type = model_type;
  return out;
}

}  // namespace tierscope::model::hf
