// config.json layer patterns: which layers slide (layer_types or the family's own rule) and which route
// to experts (first_k_dense_replace, moe_layer_freq, decoder_sparse_step, mlp_only_layers); Gemma 4's
// unmodelled fields.
#include "hf/hf_reader.h"

#include <algorithm>

namespace tierscope::model::hf {

// Which layers attend over a sliding window, from layer_types or the family's own rule.
Layout read_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window) {
  Layout l;
  l.kind.assign(static_cast<std::size_t>(layers), 'D');
  l.span.assign(static_cast<std::size_t>(layers), 0);
  l.ratio.assign(static_cast<std::size_t>(layers), 1);
  l.fields = "num_hidden_layers (every layer attends over the whole context)";
  if (read_hybrid_layout(r, fam, layers, max_pos, window, l)) return l;
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
      default:  // the 2026 families read their layouts in hf_hybrid.cpp
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
    case Fam::Qwen3Moe:
    case Fam::Qwen35Moe: {
      // transformers: MoE where the layer is not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0.
      const long long step = r.integer("decoder_sparse_step", 1, 4096, false, "every how many layers one is MoE").value_or(1);
      const std::vector<long long> only = r.int_list("mlp_only_layers", 0, layers - 1).value_or(std::vector<long long>{});
      for (int i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      for (long long i : only) moe[static_cast<std::size_t>(i)] = false;
      fields = "decoder_sparse_step, mlp_only_layers";
      break;
    }
    case Fam::DeepseekV2:
    case Fam::DeepseekV3:
    case Fam::DeepseekV32:
    case Fam::GlmMoeDsa:
    case Fam::KimiK2:
    case Fam::KimiLinear: {
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

void gemma4_unmodelled(Reader& r, int global_layers) {
  // attention_k_eq_v: the global layers have no v_proj, V is K's projection before K's norm and RoPE, so the
  // two still differ and engines cache both (transformers' and mlx-lm's Gemma4TextAttention). The count takes a
  // V projection on those layers: the difference is said.
  if (r.boolean("attention_k_eq_v").value_or(false)) {
    const auto quiet = [&r](const char* key) {
      const Reader::Found f = r.look(key);
      return f.v && f.v->is_number_integer() ? f.v->get<long long>() : 0LL;
    };
    const long long hidden = quiet("hidden_size"), heads = quiet("num_global_key_value_heads"), dim = quiet("global_head_dim");
    r.notes.push_back("attention_k_eq_v: the global layers take V from K's projection (no v_proj; K and V are normed apart and engines cache "
                      "both); their V projection is counted: " + std::to_string(global_layers) + " layers × " + std::to_string(hidden) + " × " +
                      std::to_string(heads) + " × " + std::to_string(dim) + " = " +
                      std::to_string(static_cast<long long>(global_layers) * hidden * heads * dim) + " parameters more than the checkpoint holds");
  }
  if (const auto shared = r.integer("num_kv_shared_layers", 0, 4096, false, "last layers reusing earlier layers' KV"); shared && *shared > 0) {
    r.notes.push_back("num_kv_shared_layers " + std::to_string(*shared) + ": the last layers reuse the KV of the last earlier layer of "
                      "their kind; counted here as keeping their own (an overcount)");
  }
  if (const auto ple = r.integer("hidden_size_per_layer_input", 0, 1 << 20, false, "per-layer input width"); ple && *ple > 0) {
    r.look("vocab_size_per_layer_input");
    r.notes.push_back("hidden_size_per_layer_input " + std::to_string(*ple) + ": the per-layer embedding tables (vocab_size_per_layer_input "
                      "× layers × that width) are not counted");
  }
}

}  // namespace tierscope::model::hf
