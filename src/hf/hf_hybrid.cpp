// config.json of the 2026 families: layouts with layers of several kinds (sparse-attention indexers on every
// layer, DeepSeek-V4's compress_ratios, linear-attention and Mamba-2 layers, chunked-local and per-layer
// windows, per-layer MoE lists). What those layers carry beyond attention and FFN: hf_layer_extras.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "hf/hf_reader.h"

namespace tierscope::model::hf {

std::optional<std::vector<long long>> int_array(Reader& r, const Json* v, const std::string& path, long long lo, long long hi) {
  if (!v || v->is_null()) return std::nullopt;
  const std::string allowed = "a list of integers from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (!v->is_array()) {
    r.error(ErrorCode::WrongType, path, dump(*v), allowed);
    return std::nullopt;
  }
  std::vector<long long> out;
  for (const Json& x : *v) {
    if (!x.is_number_integer() || x.get<long long>() < lo || x.get<long long>() > hi) {
      r.error(x.is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, path, dump(x), allowed);
      return std::nullopt;
    }
    out.push_back(x.get<long long>());
  }
  return out;
}

namespace {

// Nemotron-H's pattern, one character per block: M a Mamba-2 mixer, * attention, - an MLP, E routed experts.
// Each mixer and the FFN block after it make one layer; an FFN block with no mixer before it has no layer.
struct Blocks {
  std::vector<char> mixer;     // 'L' (Mamba-2) or 'D' (attention), per layer
  std::vector<FfnKind> ffn;    // its FFN block, per layer
  bool ok = true;
};

Blocks nemotron_blocks(Reader& r, const std::string& pattern, const std::string& path) {
  Blocks b;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == 'M' || c == '*') {
      b.mixer.push_back(c == 'M' ? 'L' : 'D');
      b.ffn.push_back(FfnKind::None);
    } else if (c == '-' || c == 'E') {
      if (b.mixer.empty() || b.ffn.back() != FfnKind::None) {
        r.error(ErrorCode::Unrepresentable, path, "block " + std::to_string(i) + " ('" + std::string(1, c) + "')",
                "an MLP (-) or MoE (E) block right after a Mamba (M) or attention (*) block: tierscope's layer is a mixer and its FFN");
        b.ok = false;
        return b;
      }
      b.ffn.back() = c == 'E' ? FfnKind::Moe : FfnKind::Dense;
    } else {
      r.error(ErrorCode::BadEnum, path, "block " + std::to_string(i) + " ('" + std::string(1, c) + "')", "M (Mamba-2), * (attention), - (MLP), E (MoE)");
      b.ok = false;
      return b;
    }
  }
  return b;
}

std::optional<std::string> nemotron_pattern(Reader& r) {
  const std::optional<std::string> p = r.text("hybrid_override_pattern");
  if (!p && !r.present("hybrid_override_pattern")) r.missing(r.prefix + "hybrid_override_pattern", "the block pattern (M, *, -, E per block)");
  return p;
}

// A per-layer list of strings (layer_types), checked for its length.
std::optional<std::vector<std::string>> string_list(Reader& r, const char* key, int layers) {
  const Reader::Found f = r.look(key);
  if (!f.v || f.v->is_null()) return std::nullopt;
  if (!f.v->is_array()) {
    r.error(ErrorCode::WrongType, f.path, dump(*f.v), "a list of layer types, one per layer");
    return std::nullopt;
  }
  if (f.v->size() != static_cast<std::size_t>(layers)) {
    r.error(ErrorCode::Inconsistent, f.path, std::to_string(f.v->size()) + " entries", "one entry per layer (num_hidden_layers = " + std::to_string(layers) + ")");
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (const Json& t : *f.v) out.push_back(t.is_string() ? t.get<std::string>() : dump(t));
  return out;
}

// layer_types entries mapped by `kinds` (type → layer letter); the others are refused, listing the layers.
bool map_types(Reader& r, const std::vector<std::string>& types, std::initializer_list<std::pair<const char*, char>> kinds, Layout& l,
               const std::string& allowed) {
  std::vector<int> odd;
  std::string odd_types;
  for (std::size_t i = 0; i < types.size(); ++i) {
    bool known = false;
    for (const auto& [name, letter] : kinds) {
      if (types[i] == name) {
        l.kind[i] = letter;
        known = true;
      }
    }
    if (!known) {
      odd.push_back(static_cast<int>(i));
      if (odd_types.find(types[i]) == std::string::npos) odd_types += (odd_types.empty() ? "" : ", ") + types[i];
    }
  }
  if (!odd.empty()) r.error(ErrorCode::Unrepresentable, r.prefix + "layer_types", "layers " + ranges(odd) + " (" + odd_types + ")", allowed);
  return odd.empty();
}

// DeepSeek-V4: compress_ratios per layer — 0 keeps only the 128-token window, 4 is CSA (its KV compressed 4
// tokens to a row, a lightning indexer picking index_topk rows), 128 HCA (dense attention over rows of 128
// tokens); every layer also keeps the sliding window. Entries past the layers are the MTP layers'.
bool v4_layout(Reader& r, int layers, std::optional<long long>& window, Layout& l) {
  const Reader::Found f = r.look("compress_ratios");
  if (!f.v || f.v->is_null()) {
    r.missing(f.path, "the KV compression of each layer (0 window-only, 4 CSA, 128 HCA)");
    return true;
  }
  const std::optional<std::vector<long long>> ratios = int_array(r, f.v, f.path, 0, 4096);
  if (!ratios) return true;
  if (ratios->size() < static_cast<std::size_t>(layers)) {
    r.error(ErrorCode::Inconsistent, f.path, std::to_string(ratios->size()) + " entries", "at least one per layer (num_hidden_layers = " + std::to_string(layers) + ")");
    return true;
  }
  for (int i = 0; i < layers; ++i) {
    const long long ratio = (*ratios)[static_cast<std::size_t>(i)];
    l.kind[static_cast<std::size_t>(i)] = ratio == 0 ? 'S' : ratio == 4 ? 'F' : 'D';
    l.ratio[static_cast<std::size_t>(i)] = static_cast<int>(std::max(1LL, ratio));
  }
  if (ratios->size() > static_cast<std::size_t>(layers)) {
    r.notes.push_back("compress_ratios: " + std::to_string(ratios->size()) + " entries for " + std::to_string(layers) + " layers; the last " +
                      std::to_string(ratios->size() - static_cast<std::size_t>(layers)) + " are the MTP layers' (read as draft_layers)");
  }
  window = r.param_int("sliding_window", "n_win", true, "tokens in the sliding window every layer keeps");
  l.fields = "compress_ratios (0 window-only, 4 CSA with the indexer, 128 HCA), sliding_window on every layer";
  return true;
}

// Llama 4: chunked-local layers (RoPE, attending within attention_chunk_size tokens) and NoPE global layers,
// from layer_types, else no_rope_layers (1: RoPE and chunked, 0: NoPE and global), else transformers'
// default (every fourth layer global); MoE on the layers moe_layers lists, else every interleave_moe_layer_step-th.
bool llama4_layout(Reader& r, int layers, long long max_pos, Layout& l) {
  const std::optional<long long> chunk = r.integer("attention_chunk_size", 1, 16777216, false, "tokens a chunked layer attends within");
  std::string how;
  if (const auto types = string_list(r, "layer_types", layers)) {
    map_types(r, *types, {{"chunked_attention", 'C'}, {"full_attention", 'D'}}, l, "chunked_attention or full_attention");
    how = "layer_types";
  } else {
    const Reader::Found nr = r.look("no_rope_layers");
    const std::optional<std::vector<long long>> flags = int_array(r, nr.v, nr.path, 0, 1);
    if (flags && !flags->empty()) {
      if (flags->size() != static_cast<std::size_t>(layers)) {
        r.error(ErrorCode::Inconsistent, nr.path, std::to_string(flags->size()) + " entries", "one per layer (num_hidden_layers = " + std::to_string(layers) + ")");
        return true;
      }
      for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = (*flags)[static_cast<std::size_t>(i)] ? 'C' : 'D';
      how = "no_rope_layers (1: RoPE and chunked, 0: NoPE and global)";
    } else {
      const long long every = r.integer("no_rope_layer_interval", 1, 4096, false, "layers per NoPE global layer").value_or(4);
      for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = (i + 1) % every != 0 ? 'C' : 'D';
      how = "no_rope_layer_interval " + std::to_string(every) + " (transformers' Llama4TextConfig default when no_rope_layers is empty)";
      l.prov = P::Derived;
    }
  }
  const bool chunked = std::find(l.kind.begin(), l.kind.end(), 'C') != l.kind.end();
  if (chunked && !chunk) {
    r.missing(r.prefix + "attention_chunk_size", "the chunk the chunked-local layers attend within");
    return true;
  }
  if (chunked && *chunk >= max_pos) {
    r.notes.push_back("attention_chunk_size " + std::to_string(*chunk) + " ≥ max_position_embeddings: the chunk never bites, every layer is global");
    std::fill(l.kind.begin(), l.kind.end(), 'D');
  }
  for (int i = 0; i < layers; ++i)
    if (l.kind[static_cast<std::size_t>(i)] == 'C') l.span[static_cast<std::size_t>(i)] = static_cast<int>(*chunk);
  r.notes.push_back("no_rope_layers: NoPE (global) layers differ from RoPE ones in positions only, no bearing on memory or time");
  // Which layers route to experts (the rest run the dense FFN of intermediate_size_mlp).
  l.ffn.assign(static_cast<std::size_t>(layers), FfnKind::Dense);
  const Reader::Found ml = r.look("moe_layers");
  const std::optional<std::vector<long long>> moe = int_array(r, ml.v, ml.path, 0, layers - 1);
  std::string moe_how;
  if (moe) {
    for (long long i : *moe) l.ffn[static_cast<std::size_t>(i)] = FfnKind::Moe;
    moe_how = "moe_layers";
  } else {
    const long long step = r.integer("interleave_moe_layer_step", 1, 4096, false, "every how many layers one is MoE").value_or(1);
    for (int i = static_cast<int>(step) - 1; i < layers; i += static_cast<int>(step)) l.ffn[static_cast<std::size_t>(i)] = FfnKind::Moe;
    moe_how = "interleave_moe_layer_step " + std::to_string(step);
  }
  l.fields = how + ", attention_chunk_size; " + moe_how;
  return true;
}

}  // namespace

std::optional<long long> read_layer_count(Reader& r, Fam fam) {
  if (fam != Fam::NemotronH) return r.integer("num_hidden_layers", 1, kMaxLayers, true, "decoder layers; tierscope holds at most 128");
  const std::optional<std::string> pattern = nemotron_pattern(r);
  const std::optional<long long> blocks = r.integer("num_hidden_layers", 1, 4096, false, "blocks of the pattern");
  if (!pattern) return std::nullopt;
  if (blocks && *blocks != static_cast<long long>(pattern->size())) {
    r.error(ErrorCode::Inconsistent, r.prefix + "hybrid_override_pattern", std::to_string(pattern->size()) + " blocks",
            "one block per num_hidden_layers (" + std::to_string(*blocks) + ")");
    return std::nullopt;
  }
  const Blocks b = nemotron_blocks(r, *pattern, r.prefix + "hybrid_override_pattern");
  if (!b.ok) return std::nullopt;
  if (b.mixer.empty() || b.mixer.size() > static_cast<std::size_t>(kMaxLayers)) {
    r.error(ErrorCode::OutOfRange, r.prefix + "hybrid_override_pattern", std::to_string(b.mixer.size()) + " mixer layers", "1 to 128 layers (a mixer with its FFN)");
    return std::nullopt;
  }
  return static_cast<long long>(b.mixer.size());
}

bool read_hybrid_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window, Layout& l) {
  switch (fam) {
    case Fam::DeepseekV4: return v4_layout(r, layers, window, l);
    case Fam::DeepseekV32:
    case Fam::GlmMoeDsa:
      // DeepSeek Sparse Attention on every layer: the lightning indexer scores every key, top-k rows are read.
      std::fill(l.kind.begin(), l.kind.end(), 'F');
      l.fields = "index_topk (every layer: the lightning indexer picks the rows its attention reads)";
      return true;
    case Fam::Qwen35:
    case Fam::Qwen35Moe: {
      // Gated DeltaNet layers and full-attention layers: layer_types, else one full layer every
      // full_attention_interval (transformers' default 4).
      if (const auto types = string_list(r, "layer_types", layers)) {
        map_types(r, *types, {{"linear_attention", 'L'}, {"full_attention", 'D'}}, l, "linear_attention or full_attention");
        l.fields = "layer_types (linear_attention: Gated DeltaNet)";
      } else {
        const long long every = r.integer("full_attention_interval", 1, 4096, false, "layers per full-attention layer").value_or(4);
        for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = (i + 1) % every == 0 ? 'D' : 'L';
        l.fields = "full_attention_interval " + std::to_string(every);
      }
      if (r.boolean("attn_output_gate").value_or(false)) {
        r.notes.push_back("attn_output_gate: the full-attention layers' output gate (a second query-sized projection, hidden × heads × head_dim "
                          "per full layer) is not counted");
      }
      return true;
    }
    case Fam::NemotronH: {
      const std::optional<std::string> pattern = nemotron_pattern(r);
      if (!pattern) return true;
      const Blocks b = nemotron_blocks(r, *pattern, r.prefix + "hybrid_override_pattern");
      if (!b.ok || b.mixer.size() != static_cast<std::size_t>(layers)) return true;
      for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = b.mixer[static_cast<std::size_t>(i)];
      l.ffn = b.ffn;
      l.fields = "hybrid_override_pattern (M Mamba-2, * attention, each with the - MLP or E MoE block after it)";
      return true;
    }
    case Fam::Llama4: return llama4_layout(r, layers, max_pos, l);
    case Fam::MinimaxM3: return minimax_m3_layout(r, layers, l);
    case Fam::Step3p5: return step3p5_layout(r, layers, max_pos, window, l);
    case Fam::MimoV2Flash: {
      // hybrid_layer_pattern: 1 a sliding-window layer, 0 global attention; moe_layer_freq: 1 MoE, 0 dense.
      const Reader::Found hp = r.look("hybrid_layer_pattern");
      const std::optional<std::vector<long long>> pattern = int_array(r, hp.v, hp.path, 0, 1);
      const Reader::Found mf = r.look("moe_layer_freq");
      const std::optional<std::vector<long long>> moe = int_array(r, mf.v, mf.path, 0, 1);
      if (!pattern) r.missing(hp.path, "1 (sliding window) or 0 (global) per layer");
      if (!moe) r.missing(mf.path, "1 (MoE) or 0 (dense) per layer");
      if (!pattern || !moe) return true;
      if (pattern->size() != static_cast<std::size_t>(layers) || moe->size() != static_cast<std::size_t>(layers)) {
        r.error(ErrorCode::Inconsistent, pattern->size() != static_cast<std::size_t>(layers) ? hp.path : mf.path, "its length",
                "one entry per layer (num_hidden_layers = " + std::to_string(layers) + ")");
        return true;
      }
      l.ffn.assign(static_cast<std::size_t>(layers), FfnKind::Dense);
      for (int i = 0; i < layers; ++i) {
        l.kind[static_cast<std::size_t>(i)] = (*pattern)[static_cast<std::size_t>(i)] ? 'S' : 'D';
        l.ffn[static_cast<std::size_t>(i)] = (*moe)[static_cast<std::size_t>(i)] ? FfnKind::Moe : FfnKind::Dense;
      }
      window = r.param_int("sliding_window", "n_win", false, "tokens in the sliding window");
      if (!window) window = r.param_int("sliding_window_size", "n_win", true, "tokens in the sliding window");
      l.fields = "hybrid_layer_pattern, sliding_window; moe_layer_freq";
      return true;
    }
    case Fam::Gemma4: {
      // Sliding and global layers from layer_types, as Gemma 3 writes them; their heads differ (read_local_heads).
      if (const auto types = string_list(r, "layer_types", layers)) {
        map_types(r, *types, {{"sliding_attention", 'S'}, {"full_attention", 'D'}}, l, "sliding_attention or full_attention");
      } else {
        r.missing(r.prefix + "layer_types", "sliding_attention or full_attention per layer");
      }
      window = r.param_int("sliding_window", "n_win", true, "tokens in the sliding window");
      l.fields = "layer_types, sliding_window";
      gemma4_unmodelled(r, static_cast<int>(std::count(l.kind.begin(), l.kind.begin() + layers, 'D')));
      return true;
    }
    case Fam::KimiLinear: {
      // linear_attn_config lists the KDA (Kimi Delta Attention) layers and the full MLA ones, 1-based.
      const Reader::Found cfg = r.look("linear_attn_config");
      if (!cfg.v || !cfg.v->is_object()) {
        if (!cfg.v) r.missing(cfg.path, "the KDA layers and their dims (an object)");
        else r.error(ErrorCode::WrongType, cfg.path, dump(*cfg.v), "an object");
        return true;
      }
      const auto kda = int_array(r, cfg.v->contains("kda_layers") ? &*cfg.v->find("kda_layers") : nullptr, cfg.path + ".kda_layers", 1, layers);
      const auto full = int_array(r, cfg.v->contains("full_attn_layers") ? &*cfg.v->find("full_attn_layers") : nullptr, cfg.path + ".full_attn_layers", 1, layers);
      if (!kda) {
        r.missing(cfg.path + ".kda_layers", "the KDA layers, 1-based");
        return true;
      }
      std::vector<bool> listed(static_cast<std::size_t>(layers), false);
      for (long long i : *kda) l.kind[static_cast<std::size_t>(i - 1)] = 'L', listed[static_cast<std::size_t>(i - 1)] = true;
      for (long long i : full.value_or(std::vector<long long>{})) listed[static_cast<std::size_t>(i - 1)] = true;
      std::vector<int> missing;
      for (int i = 0; i < layers; ++i)
        if (!listed[static_cast<std::size_t>(i)]) missing.push_back(i + 1);
      if (!missing.empty()) {
        r.error(ErrorCode::Inconsistent, cfg.path, "layers " + ranges(missing) + " (1-based)", "every layer in kda_layers or full_attn_layers");
      }
      l.fields = "linear_attn_config.kda_layers and full_attn_layers (1-based)";
      return true;
    }
    default: return false;
  }
}

}  // namespace tierscope::model::hf
