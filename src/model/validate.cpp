// Cross-field validation: values that are each in range but contradict one another.
#include <string>

#include "base/text.h"
#include "model/params.h"

namespace tierscope::model {

namespace {
void add(Errors& out, std::string_view field, std::string value, std::string allowed) {
  out.push_back(make_error(ErrorCode::Inconsistent, field, value, allowed));
}
std::string str(long long v) { return std::to_string(v); }

// A per-layer feed-forward list: one letter per layer, and experts for its MoE layers (a function of its own:
// most models have no list, so the page's first-frame module leaves it out).
[[gnu::noinline]] void check_ffn_list(const ModelArch& m, Errors& e) {
  if (m.ffn_count != m.layer_count) add(e, "ffn", str(m.ffn_count) + " layers", "one letter per layer (" + str(m.layer_count) + ") or empty");
  for (int i = 0; i < m.ffn_count && i < m.layer_count; ++i) {
    if (m.ffn[static_cast<std::size_t>(i)] == FfnKind::Moe && m.experts <= 0) {
      add(e, "ffn", "layer " + str(i) + " (M)", "experts above 0");
      break;
    }
  }
}
}  // namespace

Errors validate(const Scenario& s) {
  Errors e;
  const ModelArch& m = s.model;
  const Workload& w = s.work;

  if (m.layer_count < 1 || m.layer_count > kMaxLayers) add(e, "modes", str(m.layer_count), "1 to 128 layers");
  if (m.enc_layers > m.layer_count)
    add(e, "enc_layers", str(m.enc_layers), "at most the layer count (" + str(m.layer_count) + ")");
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    // Named only when something is wrong: validate() runs for every point of a sweep.
    const auto at = [&] { return "layer " + str(i) + " (" + layer_mode_name(l.mode) + ")"; };
    if (l.mode == LayerMode::SwaOnly && m.n_win <= 0 && l.span <= 0) add(e, "modes", at(), "n_win > 0 or a window of its own (S512)");
    if (l.mode == LayerMode::Linear && (m.lin_v_heads <= 0 || m.lin_k_dim <= 0 || m.lin_v_dim <= 0))
      add(e, "modes", at(), "lin_v_heads, lin_k_dim and lin_v_dim above 0");
    if (l.mode == LayerMode::Full && (m.idx_dim <= 0 || m.idx_heads <= 0 || m.top_k <= 0))
      add(e, "modes", at(), "Full layers need idx_heads, idx_dim and top_k above 0");
    if (l.mode == LayerMode::Reindex || l.mode == LayerMode::Reuse) {
      const int src = kv_source_of(m, i);
      if (src < 0) {
        add(e, "modes", at(), "a D or F layer before every I and U layer");
      } else if (l.mode == LayerMode::Reindex && m.layers[static_cast<std::size_t>(src)].mode != LayerMode::Full) {
        add(e, "modes", at(), "Reindex layers read index keys, so their source must be an F layer");
      }
    }
  }
  if (m.cand_src >= 0) {
    if (m.cand_src >= m.layer_count || m.layers[static_cast<std::size_t>(m.cand_src)].mode != LayerMode::Full)
      add(e, "cand_src", str(m.cand_src), "-1 or the index of an F layer");
    if (m.cand_blocks <= 0 || m.cand_block <= 0)
      add(e, "cand_blocks", str(m.cand_blocks) + " x " + str(m.cand_block), "both above 0 when cand_src is set");
  }
  if (m.attn == AttnKind::MLA && m.kv_lora <= 0) add(e, "kv_lora", str(m.kv_lora), "above 0 for MLA");
  if (m.attn == AttnKind::MLA && m.rope_dim >= m.head_dim)
    add(e, "rope_dim", str(m.rope_dim), "below head_dim (" + str(m.head_dim) + ") for MLA");
  if (m.attn == AttnKind::MHA && m.q_heads % m.kv_heads != 0)
    add(e, "kv_heads", str(m.kv_heads), "a divisor of q_heads (" + str(m.q_heads) + ")");
  if (m.o_lora > 0 && (m.o_groups <= 0 || m.q_heads % m.o_groups != 0))
    add(e, "o_groups", str(m.o_groups), "a divisor of q_heads (" + str(m.q_heads) + ") when o_lora is set");
  if (m.kv_rope_bf16 != 0 && (m.rope_dim <= 0 || m.rope_dim >= m.head_dim))
    add(e, "kv_rope_bf16", "1", "only with 0 < rope_dim < head_dim");
  if (m.experts > 0) {
    if (m.experts_per_token < 1 || m.experts_per_token > m.experts)
      add(e, "experts_per_token", str(m.experts_per_token), "1 to experts (" + str(m.experts) + ")");
    if (m.expert_inter <= 0) add(e, "expert_inter", str(m.expert_inter), "above 0 when experts > 0");
    if (m.expert_latent > m.hidden)
      add(e, "expert_latent", str(m.expert_latent), "0 (no latent) or at most hidden (" + str(m.hidden) + "): a latent narrows the experts' width");
  } else if (m.shared_experts > 0 || m.experts_per_token > 0) {
    add(e, "experts", "0", "above 0 when shared_experts or experts_per_token is set");
  }
  if (m.ffn_count > 0) check_ffn_list(m, e);
  if (m.dense_layers > m.layer_count)
    add(e, "dense_layers", str(m.dense_layers), "at most the layer count (" + str(m.layer_count) + ")");
  if (m.engram_count > 0) {
    for (int i = 0; i < m.engram_count; ++i) {
      const int id = m.engram_layers[static_cast<std::size_t>(i)];
      if (id >= m.layer_count) add(e, "engram", str(id), "layer ids below the layer count (" + str(m.layer_count) + ")");
      if (i > 0 && id <= m.engram_layers[static_cast<std::size_t>(i - 1)])
        add(e, "engram", str(id), "layer ids in increasing order");
    }
    if (m.engram_ngram < 2) add(e, "engram_ngram", str(m.engram_ngram), "2 or more when Engram tables exist");
    if (m.engram_heads < 1) add(e, "engram_heads", str(m.engram_heads), "1 or more when Engram tables exist");
    if (m.engram_dim < 1) add(e, "engram_dim", str(m.engram_dim), "1 or more when Engram tables exist");
  }
  if (w.prefix_hit > w.prompt) add(e, "prefix_hit", str(w.prefix_hit), "at most prompt (" + str(w.prompt) + ")");
  if (w.spec_tokens > 0 && m.draft_layers < 1)
    add(e, "spec_tokens", str(w.spec_tokens), "0 unless the model has a draft module (draft_layers ≥ 1)");

  const Fleet& f = s.fleet;
  if (f.wm_low > f.wm_high)
    add(e, "wm_low", num_exact(f.wm_low), "at most wm_high (" + num_exact(f.wm_high) + ")");

  // The parallel layout must cover the GPUs and divide what it shards.
  const Parallel& p = s.par;
  const Hardware& hw = s.hw;
  // The heads first: a tp that cannot split the model is the reason to give, whatever dp is.
  if (!tp_splits_heads(m, p.tp)) add(e, "tp", str(p.tp), tp_allowed_text(m));
  if (static_cast<long long>(p.tp) * p.dp != hw.gpus)
    add(e, "tp", "tp × dp = " + str(p.tp) + " × " + str(p.dp), "tp × dp = gpus (" + str(hw.gpus) + ")");
  if (hw.gpus % p.ep != 0) add(e, "ep", str(p.ep), "a divisor of gpus (" + str(hw.gpus) + ")");
  if (m.experts > 0 && (m.experts + p.redundant) % p.ep != 0)
    add(e, "ep", str(p.ep),
        "a divisor of the expert slots (" + str(m.experts + p.redundant) + " = experts + redundant): each rank holds whole experts");
  if (m.experts == 0 && p.redundant != 0) add(e, "redundant", str(p.redundant), "0 for a model without routed experts");
  if (m.experts == 0 && p.ep != 1) add(e, "ep", str(p.ep), "1 for a model without routed experts");
  // The prefill workers of a disaggregated deployment shard their KV by the same rules.
  if (const int ptp = s.pd.prefill_tp; ptp > 0 && (m.q_heads % ptp != 0 || !tp_splits_heads(m, ptp)))
    add(e, "pd_tp", str(ptp), "0 (the scenario's tp), or " + tp_allowed_text(m));
  return e;
}

}  // namespace tierscope::model
