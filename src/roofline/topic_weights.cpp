// Parameters and weights: the model's parameter counts by part and the bytes they take at their stored
// formats, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// Parameters one layer activates on average (routed, shared, attention, router, dense FFN).
double per_layer_active(const Terms& t) {
  return t.layers > 0 ? (t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn) / t.layers : 0;
}

}  // namespace

void compute_params(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  t.layers = m.layer_count;
  t.moe_layers = m.experts > 0 ? std::max(0, m.layer_count - m.dense_layers) : 0;
  t.ffn_dense_layers = t.layers - t.moe_layers;
  c.H = m.hidden;
  c.E = m.experts + (m.experts > 0 ? c.s.par.redundant : 0);  // expert slots, redundant copies included
  c.k = m.experts_per_token;
  c.L = t.layers;
  t.p_expert = 3.0 * m.expert_inter * c.H;
  t.p_attn_layer = attention_params_per_layer(m);
  t.p_attn = t.layers * t.p_attn_layer;
  t.p_routed_active = t.moe_layers * m.experts_per_token * t.p_expert;
  t.p_routed_all = t.moe_layers * m.experts * t.p_expert;
  t.p_shared = t.moe_layers * m.shared_experts * t.p_expert;
  t.p_router = t.moe_layers * m.experts * c.H;
  t.p_dense_ffn = t.ffn_dense_layers * 3.0 * m.dense_inter * c.H;
  t.p_head = static_cast<double>(m.vocab) * c.H;
  t.p_emb = m.tied_embed ? 0.0 : t.p_head;  // a tied model's embedding is its LM head's matrix, counted once
  v[F::ParamsPerExpert] = t.p_expert;
  v[F::ParamsTotal] = t.p_routed_all + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
  v[F::ParamsActiveDecode] = t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
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
  t.weights_bytes_dense = (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense;
  t.weights_bytes_head = (t.p_router + t.p_head + t.p_emb) * t.bpv_head;
  v[F::WeightsDerived] = t.weights_bytes_experts + t.weights_bytes_dense + t.weights_bytes_head + v[F::EngramTableBytes];
  v[F::CheckpointPublished] = m.checkpoint_gb * 1e9;
  v[F::WeightsPerToken] = t.p_routed_active * t.bpv_experts + (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense +
                          (t.p_router + t.p_head) * t.bpv_head;
}

void describe_params(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  const std::string emb_text = m.tied_embed ? std::string(" (embedding tied to the head: one matrix)") : " + embedding " + P(t.p_emb);
  const double p_exp = t.p_expert;
  y.set(F::ParamsPerExpert, "3 matrices × " + num(m.expert_inter) + " intermediate × " + num(m.hidden) + " hidden");
  y.set(F::ParamsTotal, num(t.moe_layers) + " MoE layers × (" + num(m.experts) + " routed + " + num(m.shared_experts) +
                            " shared) × " + P(p_exp) + " + attention " + P(t.p_attn) + " + router " + P(t.p_router) +
                            " + dense FFN " + P(t.p_dense_ffn) + " + head " + P(t.p_head) + emb_text +
                            " (Engram tables counted apart)");
  y.set(F::ParamsActiveDecode, "routed " + num(m.experts_per_token) + " × " + num(t.moe_layers) + " × " + P(p_exp) + " + shared " +
                                   P(t.p_shared) + " + attention " + num(t.layers) + " × " + P(t.p_attn_layer) + " + router " +
                                   P(t.p_router) + " + dense FFN " + P(t.p_dense_ffn) + " + head " + P(t.p_head) + emb_text);
  y.set(F::ParamsActivePrefill,
        num(t.full_layers) + "/" + num(t.layers) + " layers × " +
            P(t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn) + " per-layer total" + (m.tied_embed ? std::string(" (embedding tied to the head)") : " + embedding " + P(t.p_emb)) +
            (t.last_source >= 0 && t.full_layers < t.layers
                 ? " (the layers from the last KV source, layer " + num(t.last_source) + ", run only on the prompt's last window)"
                 : std::string()));
  y.set(F::WeightsDerived, "routed experts " + P(t.p_routed_all) + " × " + num_sig(t.bpv_experts, 6) + " B + attention, shared and dense FFN " +
                               P(t.p_shared + t.p_attn + t.p_dense_ffn) + " × " + num_sig(t.bpv_dense, 6) + " B + router, head and embedding " +
                               P(t.p_router + t.p_head + t.p_emb) + " × " + num_sig(t.bpv_head, 6) + " B" +
                               (m.engram_count > 0 ? " + Engram tables " + y.H(F::EngramTableBytes) : std::string()));
  y.set(F::CheckpointPublished,
        m.checkpoint_gb > 0 ? "published " + num(m.checkpoint_gb) + " GB against " + y.H(F::WeightsDerived) +
                                  " derived from the dims: the " + B(v[F::CheckpointPublished] - v[F::WeightsDerived]) +
                                  " difference is what the dims leave out (vision encoder, draft blocks, norms)"
                            : std::string("no published size carried"));

  y.set(F::WeightsPerToken, "routed " + P(t.p_routed_active) + " × " + num_sig(t.bpv_experts, 6) + " B + attention, shared and dense FFN " +
                                P(t.p_shared + t.p_attn + t.p_dense_ffn) + " × " + num_sig(t.bpv_dense, 6) + " B + router and head " +
                                P(t.p_router + t.p_head) + " × " + num_sig(t.bpv_head, 6) + " B");
}

}  // namespace tierscope::model::topics
