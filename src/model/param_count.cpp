// The model's parameters by part, from its architecture: attention by kind, experts, router, dense FFN,
// head and embedding.
#include "model/param_count.h"

#include <algorithm>

namespace tierscope::model {

double attention_params_per_layer(const ModelArch& m) {
  const double h = m.hidden, qh = m.q_heads, hd = m.head_dim, vd = m.v_dim;
  const double q = m.q_lora > 0 ? h * m.q_lora + m.q_lora * qh * hd : h * qh * hd;
  double kv = 0;
  switch (m.attn) {
    case AttnKind::MHA: kv = h * m.kv_heads * (hd + vd); break;
    case AttnKind::MLA: kv = h * (m.kv_lora + m.rope_dim) + m.kv_lora * qh * (hd - m.rope_dim + vd); break;
    case AttnKind::Latent:
    case AttnKind::Count: kv = h * hd * std::max(1, m.kv_heads); break;
  }
  const double o = (m.o_lora > 0 && m.o_groups > 0) ? qh * vd * m.o_lora + static_cast<double>(m.o_groups) * m.o_lora * h
                                                    : qh * vd * h;
  return q + kv + o;
}

ParamCount count_params(const ModelArch& m) {
  ParamCount n;
  const double H = m.hidden;
  n.layers = m.layer_count;
  n.moe_layers = m.experts > 0 ? std::max(0, m.layer_count - m.dense_layers) : 0;
  n.ffn_dense_layers = n.layers - n.moe_layers;
  n.expert = 3.0 * m.expert_inter * H;
  n.attn_layer = attention_params_per_layer(m);
  n.attn = n.layers * n.attn_layer;
  n.routed_active = n.moe_layers * m.experts_per_token * n.expert;
  n.routed_all = n.moe_layers * m.experts * n.expert;
  n.shared = n.moe_layers * m.shared_experts * n.expert;
  n.router = n.moe_layers * m.experts * H;
  n.dense_ffn = n.ffn_dense_layers * 3.0 * m.dense_inter * H;
  n.head = static_cast<double>(m.vocab) * H;
  n.emb = m.tied_embed ? 0.0 : n.head;
  return n;
}

}  // namespace tierscope::model
