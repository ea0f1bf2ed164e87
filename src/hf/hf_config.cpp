// config.json reader: finds the family, reads each field with its type checked and its name kept, and maps
// the family's fields onto ModelArch (heads, per-layer windows, MLA, the MoE layout, weight formats).
// Defaults are taken only where transformers' own config class defines one and real files rely on it;
// each is tagged assumed or derived with the reason.
//
// Sections: [SECTION] families (the model_type values read, and wrappers) · [SECTION] the model (attention,
// FFN and MoE, the parameter check, read_model) · the file itself (depth, duplicates, the family's level) ·
// read_hf_config · apply_hf_config.
#include "hf/hf_config.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/text.h"
#include "hf/hf_reader.h"
#include "model/model_names.h"
#include "model/presets.h"

namespace tierscope::model {

namespace hf {
const char* const kWhyRecurrent =
    "tierscope's layers hold KV (full or sliding-window attention); linear-attention and recurrent layers keep a "
    "fixed-size state it does not model";
}  // namespace hf

namespace {

using namespace hf;

// [SECTION] families ----------------------------------------------------------------------------------

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

// [SECTION] the model ---------------------------------------------------------------------------------

// The attention projections and the KV layout: MLA's latent and low-rank query, or heads of head_dim
// (grouped by num_key_value_heads). False when a field it needs is missing or wrong.
bool read_attention(Reader& r, Fam fam, long long H, long long Q, const std::string& model_type, ModelArch& m) {
  const bool gemma = fam == Fam::Gemma2 || fam == Fam::Gemma3;
  const bool mla = fam == Fam::DeepseekV2 || fam == Fam::DeepseekV3;
  std::optional<long long> KV = r.param_int("num_key_value_heads", "kv_heads", false, "KV heads");
  if (KV) {
    r.read("kv_heads", "num_key_value_heads");
  } else {
    KV = Q;
    r.set("kv_heads", P::Derived, r.src("num_attention_heads (no num_key_value_heads: transformers uses one KV head per query head)"));
  }
  m.q_heads = static_cast<std::int32_t>(Q);
  m.kv_heads = static_cast<std::int32_t>(*KV);
  r.read("q_heads", "num_attention_heads");
  if (mla) {
    const auto nope = r.integer("qk_nope_head_dim", 0, 65536, true, "key dims without RoPE per head");
    const auto rope = r.integer("qk_rope_head_dim", 1, 65536, true, "RoPE key dims per head");
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
  } else {
    std::optional<long long> hd = r.param_int("head_dim", "head_dim", false, "dims per head");
    if (hd) {
      r.read("head_dim,v_dim", "head_dim");
    } else if (gemma) {
      hd = 256;  // Gemma2Config and Gemma3TextConfig default
      r.set("head_dim,v_dim", P::Assumed, "assumed 256: transformers' Gemma config default (config.json gives no head_dim)");
      r.notes.push_back("head_dim: not given; the Gemma config default of 256 is taken (assumed)");
    } else if (H % Q == 0) {
      hd = H / Q;
      r.set("head_dim,v_dim", P::Derived, r.src("hidden_size ÷ num_attention_heads (no head_dim)"));
    } else {
      r.missing(r.prefix + "head_dim", "dims per head (hidden_size " + std::to_string(H) + " is not a multiple of " +
                                          std::to_string(Q) + " heads)");
      return false;
    }
    m.attn = AttnKind::MHA;
    m.head_dim = m.v_dim = static_cast<std::int32_t>(*hd);
    r.set("attn", P::Paper, r.src("num_key_value_heads (grouped-query attention: K and V per KV head)"));
    r.set("kv_lora,q_lora,rope_dim", P::Paper, r.src("no MLA latent or low-rank query in a " + model_type + " model"));
  }
  return true;
}

// The feed-forward layers: routed experts (their count, width and top-k), shared experts, and the dense
// layers before the first MoE layer; or one dense FFN in every layer. False when a field is missing or the
// layout is one tierscope cannot hold.
bool read_ffn(Reader& r, Fam fam, int layers, const std::string& model_type, ModelArch& m) {
  const bool mla = fam == Fam::DeepseekV2 || fam == Fam::DeepseekV3;
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
      return false;
    }
    const auto k = r.param_int("num_experts_per_tok", "experts_per_token", true, "routed experts each token uses");
    const char* expert_inter_key = inter_is_expert ? "intermediate_size" : "moe_intermediate_size";
    const auto ei = r.param_int(expert_inter_key, "expert_inter", true, "each expert's FFN width");
    if (!k || !ei) return false;
    if (*k > *E) {
      r.error(ErrorCode::Inconsistent, r.prefix + "num_experts_per_tok", std::to_string(*k), "at most the " + std::to_string(*E) + " routed experts");
      return false;
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
        return false;
      }
      m.shared_experts = static_cast<std::int32_t>(width / *ei);
      r.read("shared_experts", "shared_expert_intermediate_size ÷ moe_intermediate_size");
      if (m.shared_experts > 0) r.notes.push_back("shared_expert_gate: the shared expert's one-row gate is not counted (hidden_size parameters per layer)");
    } else {
      r.set("shared_experts", P::Paper, r.src("no shared expert in a " + model_type + " model"));
    }
    if (leading > 0) {
      inter = r.param_int("intermediate_size", "dense_inter", true, "the dense FFN's width");
      if (!inter) return false;
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
    if (!inter) return false;
    m.dense_layers = layers;
    r.read("dense_inter", "intermediate_size");
    r.set("dense_layers", P::Paper, r.src("num_hidden_layers (a dense FFN in every layer)"));
    r.set("experts,shared_experts,experts_per_token,expert_inter", P::Paper,
          r.src(experts_key ? std::string(experts_key) + " (no routed experts)" : "no routed experts in a " + model_type + " model"));
  }
  if (inter) m.dense_inter = static_cast<std::int32_t>(*inter);
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

std::optional<HfModel> read_model(Reader& r, Fam fam, const std::string& model_type) {
  HfModel out;
  ModelArch m{};
  const bool gemma = fam == Fam::Gemma2 || fam == Fam::Gemma3;

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

  if (!read_attention(r, fam, *H, *Q, model_type, m)) return std::nullopt;
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

  if (!read_ffn(r, fam, layers, model_type, m)) return std::nullopt;

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

  check_params(r, m);
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

// The file parsed into `doc`, refused when it is too large, too deep, not JSON, not an object, or has a key
// twice (JSON libraries merge duplicates silently; which one was meant is a guess).
bool parse_config(std::string_view text, json::Document& doc, Errors& errors) {
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
  std::vector<std::string> duplicates;
  const bool parsed = doc.parse(text, &duplicates);
  const Json& j = doc.root();
  if (!parsed) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "config.json", text.substr(0, 40), "a JSON object (the file is not valid JSON)"));
    return false;
  }
  if (!j.is_object()) {
    errors.push_back(make_error(ErrorCode::WrongType, "config.json", dump(j).substr(0, 40), "a JSON object"));
    return false;
  }
  for (const std::string& k : duplicates) errors.push_back(make_error(ErrorCode::DuplicateKey, k, k, "each key once per object"));
  return errors.size() == before;
}

// Where the language model's fields are and which family reads them.
struct FamilyAt {
  const Json* lm = nullptr;   // the object holding the language model's fields
  const Json* top = nullptr;  // a wrapper's top level (its text_config is `lm`), else nullptr
  std::string prefix;         // "text_config." for a wrapper's fields
  std::string text_type;      // the language model's model_type
  const FamilyInfo* fam = nullptr;
};

// The family: model_type, or the architecture class when model_type is absent; a wrapper's text_config.
// False, with errors naming the field, for a family the app does not read.
bool find_family(const Json& j, FamilyAt& at, Errors& errors) {
  const std::size_t before = errors.size();
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
  at.lm = &j;
  at.text_type = *type;
  auto tc = j.find("text_config");
  if (tc != j.end() && !tc->is_null()) {
    if (!tc->is_object()) {
      errors.push_back(make_error(ErrorCode::WrongType, "text_config", dump(*tc), "an object holding the language model's fields"));
      return false;
    }
    at.lm = &*tc;
    at.top = &j;
    at.prefix = "text_config.";
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
    at.text_type = *inner;
  } else {
    for (const Wrapper& w : kWrappers)
      if (*type == w.model_type) at.text_type = w.text_type;  // a text-only file under the wrapper's name
  }
  if (is_recurrent(at.text_type)) {
    errors.push_back(make_error(ErrorCode::Unrepresentable, at.prefix + "model_type", at.text_type, kWhyRecurrent));
    return false;
  }
  at.fam = family_by_type(at.text_type);
  if (!at.fam) {
    errors.push_back(make_error(ErrorCode::UnknownFamily, at.prefix + "model_type", at.text_type, families_text()));
    return false;
  }
  return true;
}

// Everything not read, said once: it has no bearing on memory or time (a vision or audio encoder and
// rope_scaling each get a note of their own).
void note_unread(Reader& r, const FamilyAt& at, const HfModel& got) {
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
                          std::to_string(got.model.max_pos) + ")");
        continue;
      }
      ignored += (ignored.empty() ? "" : ", ") + pre + it.key();
    }
  };
  collect(*at.lm, r.used_lm, at.prefix);
  if (at.top) collect(*at.top, r.used_top, "");
  if (!ignored.empty()) r.notes.push_back("ignored (no bearing on memory or time): " + ignored);
}

}  // namespace

bool read_hf_config(std::string_view text, std::string_view name_hint, HfModel& out, Errors& errors) {
  const std::size_t before = errors.size();
  json::Document doc;
  if (!parse_config(text, doc, errors)) return false;
  const Json& j = doc.root();
  FamilyAt at;
  if (!find_family(j, at, errors)) return false;

  // The name, for sources, the preset and the link: the file's own, then the file's name (a folder's for a
  // plain config.json), then the family and size once the model is read (below).
  std::string name;
  if (auto it = j.find("_name_or_path"); it != j.end() && it->is_string()) name = clean_name(it->get<std::string>());
  if (name.empty()) name = name_from_file(name_hint);
  const bool named = !name.empty();
  if (!named) name = clean_name(at.text_type);

  Reader r{*at.lm, at.top, at.prefix, name, errors, {}, {}, {}, {}};
  // The family and the name were read above, at whichever level holds them.
  for (const char* k : {"model_type", "architectures", "_name_or_path", "text_config"}) {
    r.used_top.insert(k);
    if (!at.top) r.used_lm.insert(k);
  }
  r.used_lm.insert("model_type");
  std::optional<HfModel> got = read_model(r, at.fam->fam, at.text_type);
  if (!got || errors.size() != before) return false;
  note_unread(r, at, *got);

  if (!named) {
    // No name in the file or its file name: the family and the size ("qwen3_moe-30.5B"), which the
    // figures compute; sources said "config.json of qwen3_moe" until now.
    const std::string sized = sized_name(at.text_type, got->model);
    const std::string was = "config.json of " + name + ":", now = "config.json of " + sized + ":";
    for (InputOrigin& in : r.inputs)
      if (in.source.starts_with(was)) in.source.replace(0, was.size(), now);
    name = sized;
  }
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
  next.preset = std::string(kConfigPresetPrefix) + hf.name;

  // The old layout may not split the new model: move it the least, as a person changing the GPU count would.
  Adjustments moved;
  fit_layout(next, moved);
  if (next.work.spec_tokens > 0 && next.model.draft_layers < 1) {
    moved.push_back({"spec_tokens", std::to_string(next.work.spec_tokens), "0", "the loaded model has no draft (MTP) module"});
    next.work.spec_tokens = 0;
  }
  // A context the model was never trained for cannot run: take it to the trained positions, as a person would.
  fit_trained_positions(next, moved);
  Errors cross = validate(next);
  if (!cross.empty()) {
    errors.insert(errors.end(), cross.begin(), cross.end());
    return false;
  }

  auto origin = std::make_shared<ScenarioOrigin>();
  origin->base_preset = std::string(base_preset_name(s));
  origin->label = config_label(hf.name, next);
  origin->inputs = std::move(hf.inputs);
  for (const Adjustment& a : moved) {
    origin->inputs.push_back(InputOrigin{a.field, Provenance::Derived,
                                         "moved from " + a.from + " when " + hf.name + "'s config.json was loaded: " + a.why});
  }
  origin->loaded = next;

  notes = std::move(hf.notes);
  for (const Adjustment& a : moved) {
    const bool positions = a.field == "ctx" || a.field == "prompt" || a.field == "prefix_hit";
    notes.push_back(std::string(positions ? "context: " : a.field == "spec_tokens" ? "workload: " : "layout: ") + a.field + " " + a.from + " → " + a.to + " (" + a.why + ")");
  }
  next.origin = std::move(origin);
  s = std::move(next);
  return true;
}

}  // namespace tierscope::model
