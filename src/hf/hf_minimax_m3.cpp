// MiniMax-M3 (minimax_m3, in a minimax_m3_vl file's text_config): grouped-query attention on every layer, and
// from the layers sparse_attention_config marks on, MiniMax Sparse Attention — an indexer keeps one key per
// token and layer, scores every key, and the attention reads the top-k blocks of keys and the local block.
// Read as the sparse layers tierscope models (an indexer picking the positions its attention reads), with
// the block rule said in a note.
#include <string>
#include <vector>

#include "hf/hf_reader.h"

namespace tierscope::model::hf {

namespace {

// An integer of sparse_attention_config in [lo, hi]; absent: `fallback` when one is given, else missing.
std::optional<long long> sparse_field(Reader& r, const Reader::Found& cfg, const char* key, long long lo, long long hi, const char* what,
                                      std::optional<long long> fallback = std::nullopt) {
  const std::string path = cfg.path + "." + key;
  const auto it = cfg.v->find(key);
  if (it == cfg.v->end() || it->is_null()) {
    if (!fallback) r.missing(path, what);
    return fallback;
  }
  if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi) {
    r.error(it->is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, path, dump(*it),
            "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what + ")");
    return std::nullopt;
  }
  return it->get<long long>();
}

// sparse_attention_config, when it is an object; errors otherwise.
const Json* sparse_config(Reader& r, Reader::Found& found) {
  found = r.look("sparse_attention_config");
  if (!found.v || found.v->is_null()) {
    r.missing(found.path, "MiniMax Sparse Attention's settings (an object)");
    return nullptr;
  }
  if (!found.v->is_object()) {
    r.error(ErrorCode::WrongType, found.path, dump(*found.v), "an object");
    return nullptr;
  }
  return found.v;
}

bool sparse_on(const Json& cfg) {
  const auto it = cfg.find("use_sparse_attention");
  return it != cfg.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

bool minimax_m3_layout(Reader& r, int layers, Layout& l) {
  // moe_layer_freq: 1 MoE, 0 dense, per layer.
  const Reader::Found mf = r.look("moe_layer_freq");
  const std::optional<std::vector<long long>> moe = int_array(r, mf.v, mf.path, 0, 1);
  if (!moe) {
    if (!mf.v || mf.v->is_null()) r.missing(mf.path, "1 (MoE) or 0 (dense) per layer");
    return true;
  }
  if (moe->size() != static_cast<std::size_t>(layers)) {
    r.error(ErrorCode::Inconsistent, mf.path, std::to_string(moe->size()) + " entries", "one per layer (num_hidden_layers = " + std::to_string(layers) + ")");
    return true;
  }
  l.ffn.assign(static_cast<std::size_t>(layers), FfnKind::Dense);
  for (int i = 0; i < layers; ++i) l.ffn[static_cast<std::size_t>(i)] = (*moe)[static_cast<std::size_t>(i)] ? FfnKind::Moe : FfnKind::Dense;
  std::fill(l.kind.begin(), l.kind.end(), 'D');
  l.fields = "sparse_attention_config.use_sparse_attention false (full attention on every layer); moe_layer_freq (1: MoE)";
  if (r.boolean("attention_output_gate").value_or(false)) {
    r.notes.push_back("attention_output_gate: the attention's output gate (a hidden_size × heads × head_dim projection per layer) is not counted");
  }
  Reader::Found found;
  const Json* cfg = sparse_config(r, found);
  if (!cfg) return true;
  if (const auto use = cfg->find("use_sparse_attention"); use != cfg->end() && !use->is_boolean()) {
    r.error(ErrorCode::WrongType, found.path + ".use_sparse_attention", dump(*use), "true or false");
    return true;
  }
  if (!sparse_on(*cfg)) return true;
  // sparse_attention_freq: 1 a sparse layer, 0 full attention, per layer.
  const std::string path = found.path + ".sparse_attention_freq";
  const auto it = cfg->find("sparse_attention_freq");
  const std::optional<std::vector<long long>> freq = int_array(r, it == cfg->end() ? nullptr : &*it, path, 0, 1);
  if (!freq) {
    if (it == cfg->end() || it->is_null()) r.missing(path, "1 (sparse) or 0 (full attention) per layer");
    return true;
  }
  if (freq->size() != static_cast<std::size_t>(layers)) {
    r.error(ErrorCode::Inconsistent, path, std::to_string(freq->size()) + " entries", "one per layer (num_hidden_layers = " + std::to_string(layers) + ")");
    return true;
  }
  for (int i = 0; i < layers; ++i) l.kind[static_cast<std::size_t>(i)] = (*freq)[static_cast<std::size_t>(i)] ? 'F' : 'D';
  l.fields = "sparse_attention_config.sparse_attention_freq (1: MiniMax Sparse Attention, 0: full attention); moe_layer_freq (1: MoE)";
  return true;
}

bool minimax_m3_indexer(Reader& r, ModelArch& m) {
  const char* keys = "idx_fmt,idx_heads,idx_dim,top_k,cand_src,cand_blocks,cand_block";
  m.cand_src = -1;
  Reader::Found found;
  const Json* cfg = sparse_config(r, found);
  if (!cfg) return false;
  if (!sparse_on(*cfg)) {
    m.idx_fmt = NumFormat::FP4_G32;
    r.set(keys, P::Paper, r.src("sparse_attention_config.use_sparse_attention false (no indexer)"));
    return true;
  }
  const auto heads = sparse_field(r, found, "sparse_num_index_heads", 1, 4096, "the indexer's query heads");
  const auto dim = sparse_field(r, found, "sparse_index_dim", 1, 65536, "index key dims");
  const auto blocks = sparse_field(r, found, "sparse_topk_blocks", 1, 1 << 20, "blocks each query's attention reads");
  const auto block = sparse_field(r, found, "sparse_block_size", 1, 65536, "positions per block");
  const auto local = sparse_field(r, found, "sparse_local_block", 0, 1 << 20, "local blocks read beside the top-k", 0);
  const auto init = sparse_field(r, found, "sparse_init_block", 0, 1 << 20, "leading blocks read beside the top-k", 0);
  if (!heads || !dim || !blocks || !block || !local || !init) return false;
  m.idx_heads = static_cast<std::int32_t>(*heads);
  m.idx_dim = static_cast<std::int32_t>(*dim);
  const long long positions = (*blocks + *local + *init) * *block;
  m.top_k = static_cast<std::int32_t>(std::min<long long>(positions, 1LL << 30));
  r.read("idx_heads", "sparse_attention_config.sparse_num_index_heads");
  r.read("idx_dim", "sparse_attention_config.sparse_index_dim (one index key per token and sparse layer)");
  r.set("top_k", P::Derived,
        r.src("(sparse_topk_blocks " + num(static_cast<double>(*blocks)) + " + sparse_local_block " + num(static_cast<double>(*local)) + " + sparse_init_block " + num(static_cast<double>(*init)) +
              ") × sparse_block_size " + num(static_cast<double>(*block)) + ": the positions each query's attention reads in a sparse layer"));
  r.set("cand_src,cand_blocks,cand_block", P::Paper, r.src("no shared candidate pool (each sparse layer's indexer scores every key)"));
  m.idx_fmt = NumFormat::BF16;
  r.set("idx_fmt", P::Assumed,
        "assumed bf16: config.json names no storage for MiniMax Sparse Attention's index keys; taken at the checkpoint's bfloat16");
  std::string score = "max";
  if (const auto s = cfg->find("sparse_score_type"); s != cfg->end() && s->is_string()) score = s->get<std::string>();
  r.notes.push_back("sparse_attention_config: the indexer picks whole blocks of " + num(static_cast<double>(*block)) + " keys (scored by sparse_score_type " + score +
                    ") and the attention reads them with the local block: counted as top_k " + num(static_cast<double>(positions)) +
                    " positions read per step in each sparse layer, the indexer scoring every key");
  if (cfg->contains("sparse_disable_index_value")) {
    r.notes.push_back("sparse_attention_config.sparse_disable_index_value: the per-layer flags are read for no figure (not modelled)");
  }
  return true;
}

}  // namespace tierscope::model::hf
