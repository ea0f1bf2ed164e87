// config.json of the 2026 families, what their layers carry beyond attention and FFN: the linear layers'
// state dims and formats, the sliding layers' own heads, the sparse-attention indexer, the draft (MTP)
// layers. Their layouts: hf_hybrid.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// A recurrent state's storage format from the file's dtype word; SGLang's default float32 when it says none.
void state_format(Reader& r, const char* key, ModelArch& m, std::string& source) {
  const std::optional<std::string> dt = r.text(key);
  m.lin_fmt = NumFormat::FP32;
  if (!dt) {
    source = "assumed float32: SGLang keeps the recurrent state in float32 by default (--mamba-ssm-dtype, "
             "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py); config.json names no " + std::string(key);
    return;
  }
  if (*dt == "bfloat16" || *dt == "float16") m.lin_fmt = NumFormat::BF16;
  else if (*dt != "float32") r.error(ErrorCode::BadEnum, r.prefix + key, *dt, "float32, bfloat16 or float16");
  source = r.src(key);
}

}  // namespace

bool read_linear(Reader& r, Fam fam, bool any_linear, ModelArch& m) {
  const char* keys = "lin_k_heads,lin_v_heads,lin_k_dim,lin_v_dim,lin_conv,lin_fmt";
  if (!any_linear) {
    r.set(keys, P::Paper, r.src("no linear-attention or SSM layer"));
    return true;
  }
  std::string fmt_source;
  if (fam == Fam::Qwen35 || fam == Fam::Qwen35Moe) {
    const auto kh = r.param_int("linear_num_key_heads", "lin_k_heads", true, "Gated DeltaNet key heads");
    const auto vh = r.param_int("linear_num_value_heads", "lin_v_heads", true, "Gated DeltaNet value heads");
    const auto kd = r.param_int("linear_key_head_dim", "lin_k_dim", true, "key dims per head");
    const auto vd = r.param_int("linear_value_head_dim", "lin_v_dim", true, "value dims per head");
    const auto conv = r.integer("linear_conv_kernel_dim", 0, 64, true, "the short convolution's width");
    if (!kh || !vh || !kd || !vd || !conv) return false;
    m.lin_k_heads = static_cast<std::int32_t>(*kh), m.lin_v_heads = static_cast<std::int32_t>(*vh);
    m.lin_k_dim = static_cast<std::int32_t>(*kd), m.lin_v_dim = static_cast<std::int32_t>(*vd), m.lin_conv = static_cast<std::int32_t>(*conv);
    r.read("lin_k_heads", "linear_num_key_heads");
    r.read("lin_v_heads", "linear_num_value_heads");
    r.read("lin_k_dim", "linear_key_head_dim");
    r.read("lin_v_dim", "linear_value_head_dim");
    r.read("lin_conv", "linear_conv_kernel_dim");
    state_format(r, "mamba_ssm_dtype", m, fmt_source);
  } else if (fam == Fam::NemotronH) {
    // Mamba-2: heads × head_dim × state per layer; B and C in n_groups groups.
    const auto heads = r.param_int("mamba_num_heads", "lin_v_heads", true, "Mamba-2 heads");
    const auto hd = r.param_int("mamba_head_dim", "lin_v_dim", true, "dims per Mamba-2 head");
    const auto state = r.param_int("ssm_state_size", "lin_k_dim", true, "the SSM state size");
    const auto groups = r.param_int("n_groups", "lin_k_heads", true, "B and C groups");
    const auto conv = r.integer("conv_kernel", 0, 64, true, "the short convolution's width");
    if (!heads || !hd || !state || !groups || !conv) return false;
    m.lin_v_heads = static_cast<std::int32_t>(*heads), m.lin_v_dim = static_cast<std::int32_t>(*hd);
    m.lin_k_dim = static_cast<std::int32_t>(*state), m.lin_k_heads = static_cast<std::int32_t>(*groups), m.lin_conv = static_cast<std::int32_t>(*conv);
    r.read("lin_v_heads", "mamba_num_heads");
    r.read("lin_v_dim", "mamba_head_dim");
    r.read("lin_k_dim", "ssm_state_size");
    r.read("lin_k_heads", "n_groups");
    r.read("lin_conv", "conv_kernel");
    state_format(r, "mamba_ssm_cache_dtype", m, fmt_source);
  } else if (fam == Fam::KimiLinear) {
    const Reader::Found cfg = r.look("linear_attn_config");
    auto field = [&](const char* key, long long hi) -> std::optional<long long> {
      auto it = cfg.v->find(key);
      const std::string path = cfg.path + "." + key;
      if (it == cfg.v->end() || it->is_null()) {
        r.missing(path, std::string("the KDA layers' ") + key);
        return std::nullopt;
      }
      if (!it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > hi) {
        r.error(it->is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, path, dump(*it), "an integer from 1 to " + std::to_string(hi));
        return std::nullopt;
      }
      return it->get<long long>();
    };
    const auto heads = field("num_heads", 4096), hd = field("head_dim", 65536), conv = field("short_conv_kernel_size", 64);
    if (!heads || !hd || !conv) return false;
    m.lin_k_heads = m.lin_v_heads = static_cast<std::int32_t>(*heads);
    m.lin_k_dim = m.lin_v_dim = static_cast<std::int32_t>(*hd);
    m.lin_conv = static_cast<std::int32_t>(*conv);
    r.read("lin_k_heads,lin_v_heads", "linear_attn_config.num_heads");
    r.read("lin_k_dim,lin_v_dim", "linear_attn_config.head_dim");
    r.read("lin_conv", "linear_attn_config.short_conv_kernel_size");
    state_format(r, "mamba_ssm_dtype", m, fmt_source);
    // KDA's output gate and per-channel decay: low-rank pairs of rank head_dim in Kimi-Linear-48B-A3B's weights
    // (g_a/g_b, f_a/f_b); with use_full_rank_gate (Kimi K3) the gate is full-width and the decay still low-rank.
    // The count takes Gated DeltaNet's full-width gate and no decay projection: the difference is said, not left
    // for a reader to find against the checkpoint.
    const auto full_gate = cfg.v->find("use_full_rank_gate");
    const bool gate_full = full_gate != cfg.v->end() && full_gate->is_boolean() && full_gate->get<bool>();
    int kda_layers = 0;
    for (int i = 0; i < m.layer_count; ++i) kda_layers += m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear ? 1 : 0;
    const double width = static_cast<double>(*heads) * static_cast<double>(*hd), rank = static_cast<double>(*hd);
    const double low_rank_pair = rank * (m.hidden + width);
    if (gate_full) {
      r.notes.push_back("linear_attn_config: the KDA layers' per-channel decay is low-rank (rank head_dim " + num(rank) + ") and not counted: " +
                        num(kda_layers) + " layers × " + num(rank) + " × (" + num(m.hidden) + " + " + num(width) + ") = " +
                        num(kda_layers * low_rank_pair) + " parameters fewer than the checkpoint holds");
    } else {
      const double extra = kda_layers * (m.hidden * width - 2.0 * low_rank_pair);
      r.notes.push_back("linear_attn_config: the KDA layers' output gate and per-channel decay are low-rank (rank head_dim " + num(rank) +
                        ") in the published weights, counted as one full-width gate: " + num(kda_layers) + " layers × (" + num(m.hidden) +
                        " × " + num(width) + " − 2 × " + num(rank) + " × (" + num(m.hidden) + " + " + num(width) + ")) = " + num(extra) +
                        " parameters more than the checkpoint holds");
    }
  }
  r.set("lin_fmt", fmt_source.starts_with("assumed") ? P::Assumed : P::Paper, fmt_source);
  return true;
}

void read_local_heads(Reader& r, Fam fam, ModelArch& m) {
  const char* keys = "swa_kv_heads,swa_head_dim,swa_v_dim";
  if (fam == Fam::MimoV2Flash) {
    // The sliding layers' own KV heads and dims.
    const auto kv = r.param_int("swa_num_key_value_heads", "swa_kv_heads", false, "the sliding layers' KV heads");
    const auto hd = r.param_int("swa_head_dim", "swa_head_dim", false, "the sliding layers' key dims per head");
    const auto vd = r.param_int("swa_v_head_dim", "swa_v_dim", false, "the sliding layers' value dims per head");
    m.swa_kv_heads = static_cast<std::int32_t>(kv.value_or(0));
    m.swa_head_dim = static_cast<std::int32_t>(hd.value_or(0));
    m.swa_v_dim = static_cast<std::int32_t>(vd.value_or(0));
    r.read("swa_kv_heads", kv ? "swa_num_key_value_heads" : "swa_num_key_value_heads (absent: as the global layers)");
    r.read("swa_head_dim", hd ? "swa_head_dim" : "swa_head_dim (absent: head_dim)");
    r.read("swa_v_dim", vd ? "swa_v_head_dim" : "swa_v_head_dim (absent: v_head_dim)");
    if (const auto q = r.integer("swa_num_attention_heads", 1, 4096, false, "the sliding layers' query heads"); q && *q != m.q_heads) {
      r.notes.push_back("swa_num_attention_heads " + std::to_string(*q) + ": the sliding layers' query heads are taken as num_attention_heads (" +
                        std::to_string(m.q_heads) + ")");
    }
    return;
  }
  if (fam == Fam::Step3p5) {
    step3p5_local_heads(r, m);
    return;
  }
  if (fam == Fam::Gemma4) {
    // Gemma 4 writes the sliding layers' heads as head_dim / num_key_value_heads and the global layers' as
    // global_head_dim / num_global_key_value_heads when they take V from K (read as the model's own in read_attention).
    const auto kv = r.param_int("num_key_value_heads", "swa_kv_heads", false, "the sliding layers' KV heads");
    const auto hd = r.param_int("head_dim", "swa_head_dim", false, "the sliding layers' dims per head");
    m.swa_kv_heads = static_cast<std::int32_t>(kv.value_or(0));
    m.swa_head_dim = m.swa_v_dim = static_cast<std::int32_t>(hd.value_or(0));
    r.read("swa_kv_heads", "num_key_value_heads (the sliding layers')");
    r.read("swa_head_dim,swa_v_dim", "head_dim (the sliding layers')");
    return;
  }
  r.set(keys, P::Paper, r.src("no local layers with KV heads of their own"));
}

bool read_indexer(Reader& r, Fam fam, ModelArch& m) {
  const char* keys = "idx_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block";
  m.cand_src = -1;
  if (fam == Fam::MinimaxM3) return minimax_m3_indexer(r, m);
  if (fam != Fam::DeepseekV32 && fam != Fam::GlmMoeDsa && fam != Fam::DeepseekV4) {
    m.idx_fmt = NumFormat::FP4_G32;
    r.set(keys, P::Paper, r.src("no sparse indexer or candidate pool"));
    return true;
  }
  const auto heads = r.param_int("index_n_heads", "idx_heads", true, "lightning indexer heads");
  const auto dim = r.param_int("index_head_dim", "idx_dim", true, "index key dims");
  const auto topk = r.param_int("index_topk", "top_k", true, "rows each query's attention reads");
  if (!heads || !dim || !topk) return false;
  m.idx_heads = static_cast<std::int32_t>(*heads);
  m.idx_dim = static_cast<std::int32_t>(*dim);
  m.top_k = static_cast<std::int32_t>(*topk);
  r.read("idx_heads", "index_n_heads");
  r.read("idx_dim", "index_head_dim");
  r.read("top_k", "index_topk");
  r.set("cand_src,cand_blocks,cand_block", P::Paper, r.src("no hierarchical candidate pool (every indexer scores every key)"));
  if (fam == Fam::DeepseekV4) {
    // config.json does not say how the cache is stored; the engines' layout as reconstructed for the
    // v4-flash-8xb200 preset (FACTS §1.3): FP8 rows of 448 values + E8M0 per 64 + 64 BF16 RoPE dims + 1 pad
    // (584 B), FP4 index keys (68 B), the window in the same FP8 layout.
    m.idx_fmt = NumFormat::FP4_G32;
    m.kv_fmt = m.swa_fmt = NumFormat::FP8_G64;
    m.kv_rope_bf16 = 1;
    m.kv_pad = 1;
    const std::string why =
        "engine layout (FACTS §1.3, third-party reconstruction): FP8 main rows ≈ 584 B (448 FP8 values, E8M0 per 64, 64 BF16 RoPE dims, 1 pad), "
        "FP4 index keys of 68 B; config.json does not say how the cache is stored";
    r.set("idx_fmt,kv_fmt,swa_fmt,kv_rope_bf16,kv_pad", P::ThirdParty, why);
  } else {
    // vLLM's and SGLang's DeepSeek-V3.2 indexer cache: FP8 keys with one FP32 scale per 128 values (132 B).
    m.idx_fmt = NumFormat::FP8_S128;
    r.set("idx_fmt", P::Engine,
          "engine layout: the indexer's key cache in FP8 with an FP32 scale per 128 values, 132 B per key (vLLM and SGLang's DeepSeek-V3.2 indexer, "
          "https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/deepseek_v2.py); config.json does not say");
  }
  return true;
}

void read_draft(Reader& r, Fam fam, ModelArch& m) {
  std::optional<long long> d;
  std::string from;
  if (deepseek_moe(fam) || fam == Fam::MimoV2Flash || fam == Fam::NemotronH || fam == Fam::KimiLinear || fam == Fam::MinimaxM3) {
    d = r.integer("num_nextn_predict_layers", 0, 16, false, "multi-token prediction modules");
    if (const auto stored = fam == Fam::MinimaxM3 ? r.integer("num_mtp_modules", 0, 64, false, "MTP modules the model defines") : std::nullopt;
        stored && *stored != d.value_or(0)) {
      r.notes.push_back("num_mtp_modules " + std::to_string(*stored) + ": the model defines more MTP modules than the " + std::to_string(d.value_or(0)) +
                        " num_nextn_predict_layers a draft runs; the others are not counted");
    }
    from = d ? "num_nextn_predict_layers (one MTP layer per draft token)" : "no num_nextn_predict_layers";
  } else if (fam == Fam::Step3p5) {
    // The checkpoint holds num_nextn_predict_layers MTP layers; vLLM's Step3p5MTP runs one of them per draft
    // token (layer num_hidden_layers + step mod their count).
    // Checked with the layers (step3p5_layout); read here without a second error.
    const Reader::Found f = r.look("num_nextn_predict_layers");
    const std::optional<long long> n = f.v && f.v->is_number_integer() ? std::optional<long long>(f.v->get<long long>()) : std::nullopt;
    d = n.value_or(0) > 0 ? 1 : 0;
    if (n && *n > 1) {
      r.notes.push_back("num_nextn_predict_layers " + std::to_string(*n) + ": " + std::to_string(*n) + " MTP layers, each a decoder layer with "
                        "its own eh_proj and LM head; a draft token runs one of them in turn (vLLM's Step3p5MTP), so draft_layers is 1; "
                        "their weights are not in the parameter count");
    }
    from = n ? "num_nextn_predict_layers (one of its MTP layers per draft token)" : "no num_nextn_predict_layers";
  } else if (fam == Fam::Qwen35 || fam == Fam::Qwen35Moe) {
    d = r.integer("mtp_num_hidden_layers", 0, 16, false, "layers of the MTP module");
    from = d ? "mtp_num_hidden_layers" : "no mtp_num_hidden_layers";
  } else if (fam == Fam::MinimaxM2) {
    const std::optional<bool> use = r.boolean("use_mtp");
    const auto layers = r.integer("mtp_transformer_layers", 0, 16, false, "layers of each MTP module");
    d = use.value_or(false) ? layers.value_or(1) : 0;
    from = use.value_or(false) ? "use_mtp, mtp_transformer_layers (layers one draft token runs)" : "use_mtp false";
    r.look("num_mtp_modules");  // how many drafts the modules make: a setting of speculative decoding (spec_tokens)
  } else {
    r.set("draft_layers", P::Paper, r.src("no draft (MTP) module in this family"));
    return;
  }
  m.draft_layers = static_cast<std::int32_t>(d.value_or(0));
  r.read("draft_layers", from);
}

}  // namespace tierscope::model::hf
