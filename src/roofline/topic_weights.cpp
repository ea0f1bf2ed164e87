// Parameters and weights: the model's parameter counts by part and the bytes they take at their stored
// formats, with their formulas.
#include "model/param_count.h"
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// Parameters one layer activates on average (routed, shared, attention, router, dense FFN).
double per_layer_active(const Terms& t) {
  return t.layers > 0 ? (t.p_routed_active + t.p_shared + t.p_latent_proj + t.p_attn + t.p_router + t.p_dense_ffn) / t.layers : 0;
}

}  // namespace

void compute_params(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const ParamCount n = count_params(m);
  t.layers = n.layers;
  t.moe_layers = n.moe_layers;
  t.ffn_dense_layers = n.ffn_dense_layers;
  c.H = m.hidden;
  c.E = m.experts + (m.experts > 0 ? c.s.par.redundant : 0);  // expert slots, redundant copies included
  c.k = m.experts_per_token;
  c.L = t.layers;
  t.p_expert = n.expert;
  t.p_shared_expert = n.shared_expert;
  t.p_latent_layer = n.latent_layer;
  t.p_latent_proj = n.latent_proj;
  t.p_attn_layer = n.attn_layer;
  t.p_attn = n.attn;
  t.p_kv_proj = n.kv_proj;
  t.p_routed_active = n.routed_active;
  t.p_routed_all = n.routed_all;
  t.p_shared = n.shared;
  t.p_router = n.router;
  t.p_dense_ffn = n.dense_ffn;
  t.p_head = n.head;
  t.p_emb = n.emb;  // a tied model's embedding is its LM head's matrix, counted once
  v[F::ParamsPerExpert] = t.p_expert;
  v[F::ParamsTotal] = n.total();
  v[F::ParamsActiveDecode] = n.active_decode();
  t.bpv_experts = bytes_per_value(m.experts_fmt);
  t.bpv_dense = bytes_per_value(m.dense_fmt);
  t.bpv_head = bytes_per_value(m.head_fmt);
}

// After the KV layout (which finds the last KV source) and the Engram tables.
void compute_weights(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  v[F::ParamsActivePrefill] = t.full_layers * per_layer_active(t) + t.p_emb;
  t.weights_bytes_experts = t.p_routed_all * t.bpv_experts;
  t.weights_bytes_dense = (t.p_shared + t.p_latent_proj + t.p_attn + t.p_dense_ffn) * t.bpv_dense;
  t.weights_bytes_head = (t.p_router + t.p_head + t.p_emb) * t.bpv_head;
  v[F::WeightsDerived] = t.weights_bytes_experts + t.weights_bytes_dense + t.weights_bytes_head + v[F::EngramTableBytes];
  v[F::CheckpointPublished] = m.checkpoint_gb * 1e9;
  v[F::WeightsPerToken] = t.p_routed_active * t.bpv_experts + (t.p_shared + t.p_latent_proj + t.p_attn + t.p_dense_ffn) * t.bpv_dense +
                          (t.p_router + t.p_head) * t.bpv_head;
}

namespace {

Expr params(double v, std::string_view label) { return q(v, "params", label); }
// "routed experts 1.2T params × 0.53125 B": parameters at their stored bytes per value.
Expr stored(double p, std::string_view label, double bytes_per_value) { return params(p, label) * sig(bytes_per_value, 6, "B"); }
// "attention, shared experts and dense FFN", naming only the parts the model has.
std::string dense_label(const Terms& t, std::string first) {
  std::vector<std::string> parts{std::move(first)};
  if (t.p_shared > 0) parts.push_back("shared experts");
  if (t.p_latent_proj > 0) parts.push_back("latent projections");
  if (t.p_dense_ffn > 0) parts.push_back("dense FFN");
  std::string out = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) out += (i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}
// The dense-format parameters: attention, shared experts, a latent MoE's projections, dense FFN.
double dense_params(const Terms& t) { return t.p_shared + t.p_latent_proj + t.p_attn + t.p_dense_ffn; }
// Adds a part that a model may not have (no router in a dense model, no dense FFN layers).
void add_part(std::vector<Expr>& parts, double p, std::string_view label) {
  if (p != 0) parts.push_back(params(p, label));
}

}  // namespace

void describe_params(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  const double p_exp = t.p_expert;
  const bool moe = t.moe_layers > 0 && m.experts > 0;
  const bool latent = has_latent_experts(m);
  if (latent) y.set(F::ParamsPerExpert, n(ffn_matrices(m), "matrices") * n(m.expert_inter, "intermediate") * n(m.expert_latent, "latent"));
  else if (m.experts > 0) y.set(F::ParamsPerExpert, n(ffn_matrices(m), "matrices") * n(m.expert_inter, "intermediate") * n(m.hidden, "hidden"));
  else y.set(F::ParamsPerExpert, words("dense model, no experts"));
  {
    std::vector<Expr> parts;
    if (moe && latent) {
      // Routed experts at the latent width, shared ones at the hidden width, and the projections between.
      parts.push_back(n(t.moe_layers, "MoE layers") * (n(m.experts, "routed") * params(p_exp, "per routed expert") +
                                                       n(m.shared_experts, "shared") * params(t.p_shared_expert, "per shared expert") +
                                                       params(t.p_latent_layer, "latent projections")));
    } else if (moe) {
      parts.push_back(n(t.moe_layers, "MoE layers") * (n(m.experts, "routed") + n(m.shared_experts, "shared")) * params(p_exp, "per expert"));
    }
    parts.push_back(params(t.p_attn, "attention"));
    add_part(parts, t.p_router, "router");
    add_part(parts, t.p_dense_ffn, "dense FFN");
    parts.push_back(params(t.p_head, "head"));
    if (m.tied_embed) parts.back().note("embedding tied to the head: one matrix");
    else parts.push_back(params(t.p_emb, "embedding"));
    y.set(F::ParamsTotal, std::move(sum_of(std::move(parts)).note("Engram tables counted apart")));
  }
  {
    std::vector<Expr> parts;
    if (moe) parts.push_back((n(m.experts_per_token, "experts") * n(t.moe_layers, "MoE layers") * params(p_exp, "each")).named("routed"));
    add_part(parts, t.p_shared, "shared");
    add_part(parts, t.p_latent_proj, "latent projections");
    if (t.p_attn == t.layers * t.p_attn_layer) parts.push_back((n(t.layers, "layers") * params(t.p_attn_layer, "each")).named("attention"));
    else parts.push_back(std::move(params(t.p_attn, "attention").note("summed by layer kind: full, local and linear-attention layers differ")));
    add_part(parts, t.p_router, "router");
    add_part(parts, t.p_dense_ffn, "dense FFN");
    parts.push_back(params(t.p_head, "head"));
    if (m.tied_embed) parts.back().note("embedding tied to the head: one matrix");
    else parts.push_back(params(t.p_emb, "embedding"));
    y.set(F::ParamsActiveDecode, sum_of(std::move(parts)));
  }
  {
    // Every layer's active parameters (the head runs once, on the last token) shared out per layer, over
    // the layers the whole prompt runs through.
    const double below_head = t.p_routed_active + t.p_shared + t.p_latent_proj + t.p_attn + t.p_router + t.p_dense_ffn;
    Expr e = (n(t.full_layers) / n(t.layers, "layers")).named("layers the whole prompt runs") * params(below_head, "active in all layers");
    if (m.tied_embed) e.note("embedding tied to the head");
    else e = std::move(e) + params(t.p_emb, "embedding");
    if (t.last_source >= 0 && t.full_layers < t.layers) {
      e.note("the layers from the last KV source, layer " + num(t.last_source) + ", run only on the prompt's last window");
    }
    y.set(F::ParamsActivePrefill, std::move(e));
  }
  {
    std::vector<Expr> parts;
    if (t.p_routed_all > 0) parts.push_back(stored(t.p_routed_all, "routed experts", t.bpv_experts));
    parts.push_back(stored(dense_params(t), dense_label(t, "attention"), t.bpv_dense));
    parts.push_back(stored(t.p_router + t.p_head + t.p_emb, t.p_router > 0 ? "router, head and embedding" : "head and embedding", t.bpv_head));
    if (m.engram_count > 0) parts.push_back(q(v[F::EngramTableBytes], "B", "Engram tables"));
    y.set(F::WeightsDerived, sum_of(std::move(parts)));
  }
  if (m.checkpoint_gb > 0) {
    y.set(F::CheckpointPublished, std::move(q(v[F::CheckpointPublished], "B", "published checkpoint")
                                               .note("against " + y.H(F::WeightsDerived) + " derived from the dims: the " +
                                                     B(v[F::CheckpointPublished] - v[F::WeightsDerived]) +
                                                     " difference is what the dims leave out (vision encoder, draft blocks, norms)")));
  } else {
    y.set(F::CheckpointPublished, words("no published size carried"));
  }
  {
    std::vector<Expr> parts;
    if (t.p_routed_active > 0) parts.push_back(stored(t.p_routed_active, "routed", t.bpv_experts));
    parts.push_back(stored(dense_params(t), dense_label(t, "attention"), t.bpv_dense));
    parts.push_back(stored(t.p_router + t.p_head, t.p_router > 0 ? "router and head" : "head", t.bpv_head));
    y.set(F::WeightsPerToken, sum_of(std::move(parts)));
  }
}

}  // namespace tierscope::model::topics
