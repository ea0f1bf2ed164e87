// The model's parameters by part, from its architecture: attention by kind, experts, router, dense FFN,
// head and embedding.
#include "model/param_count.h"

#include <algorithm>

#include "model/layers.h"

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

double linear_attention_params(const ModelArch& m) {
  const double h = m.hidden, qk = static_cast<double>(m.lin_k_heads) * m.lin_k_dim, vv = static_cast<double>(m.lin_v_heads) * m.lin_v_dim;
  const double conv = m.lin_conv > 0 ? (2.0 * qk + vv) * m.lin_conv : 0.0;
  return h * (2.0 * qk + 2.0 * vv + m.lin_v_heads) + conv + vv * h;
}

double layer_attention_params(const ModelArch& m, int layer) {
  const Layer& l = m.layers[static_cast<std::size_t>(layer)];
  if (l.mode == LayerMode::Linear) return linear_attention_params(m);
  const bool local = l.mode == LayerMode::SwaOnly || l.mode == LayerMode::Chunked;
  if (!local || m.attn != AttnKind::MHA || (m.swa_kv_heads <= 0 && m.swa_head_dim <= 0 && m.swa_v_dim <= 0)) return attention_params_per_layer(m);
  // A local layer with heads of its own: queries and output at its head dims, K and V over its KV heads.
  const double h = m.hidden, qh = m.q_heads;
  const double kvh = m.swa_kv_heads > 0 ? m.swa_kv_heads : m.kv_heads;
  const double hd = m.swa_head_dim > 0 ? m.swa_head_dim : m.head_dim, vd = m.swa_v_dim > 0 ? m.swa_v_dim : m.v_dim;
  const double q = m.q_lora > 0 ? h * m.q_lora + m.q_lora * qh * hd : h * qh * hd;
  return q + h * kvh * (hd + vd) + qh * vd * h;
}

bool mixed_layers(const ModelArch& m) {
  if (m.ffn_count > 0) return true;
  const bool local_heads = m.attn == AttnKind::MHA && (m.swa_kv_heads > 0 || m.swa_head_dim > 0 || m.swa_v_dim > 0);
  for (int i = 0; i < m.layer_count; ++i) {
    const LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    if (mode == LayerMode::Linear || (local_heads && (mode == LayerMode::SwaOnly || mode == LayerMode::Chunked))) return true;
  }
  return false;
}

[[gnu::noinline]] LayerSums sum_layers(const ModelArch& m, int first, int last) {
  LayerSums x;
  const double full = attention_params_per_layer(m);
  bool uniform = true;
  for (int i = first; i < last; ++i) {
    const FfnKind k = ffn_of(m, i);
    x.moe += k == FfnKind::Moe ? 1 : 0;
    x.dense_ffn += k == FfnKind::Dense ? 1 : 0;
    const double p = layer_attention_params(m, i);
    uniform = uniform && p == full;
    x.p_attn += p;
    // The K and V projections, which a tensor parallel wider than the KV heads copies (topic_capacity.cpp).
    const LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    if (m.attn == AttnKind::MHA && mode != LayerMode::Linear) {
      const bool local = mode == LayerMode::SwaOnly || mode == LayerMode::Chunked;
      x.p_kv_proj += m.hidden * (local ? window_kv_dims(m) : kv_dims(m));
    }
  }
  // n × one full layer's when every layer is a full one: the figures stay exact products.
  if (uniform) x.p_attn = std::max(0, last - first) * full;
  return x;
}

double latent_projection_params(const ModelArch& m) {
  return has_latent_experts(m) ? 2.0 * m.hidden * static_cast<double>(m.expert_latent) : 0.0;
}

ParamCount count_params(const ModelArch& m) {
  ParamCount n;
  const double H = m.hidden;
  n.layers = m.layer_count;
  n.moe_layers = m.experts > 0 ? std::max(0, m.layer_count - m.dense_layers) : 0;
  n.ffn_dense_layers = n.layers - n.moe_layers;
  n.expert = ffn_matrices(m) * m.expert_inter * static_cast<double>(expert_width(m));
  n.shared_expert = ffn_matrices(m) * m.expert_inter * H;
  n.latent_layer = latent_projection_params(m);
  n.attn_layer = attention_params_per_layer(m);
  n.attn = n.layers * n.attn_layer;
  n.kv_proj = m.attn == AttnKind::MHA ? n.layers * H * kv_dims(m) : 0.0;
  if (mixed_layers(m)) {
    // Layers of several kinds (interleaved MoE, hybrids' linear and mixer-only layers): summed one by one.
    const LayerSums x = sum_layers(m, 0, m.layer_count);
    n.moe_layers = x.moe;
    n.ffn_dense_layers = x.dense_ffn;
    n.attn = x.p_attn;
    n.kv_proj = x.p_kv_proj;
  }
  n.routed_active = n.moe_layers * m.experts_per_token * n.expert;
  n.routed_all = n.moe_layers * m.experts * n.expert;
  n.shared = n.moe_layers * m.shared_experts * n.shared_expert;
  n.latent_proj = n.moe_layers * n.latent_layer;
  n.router = n.moe_layers * m.experts * H;
  n.dense_ffn = n.ffn_dense_layers * ffn_matrices(m) * m.dense_inter * H;
  n.head = static_cast<double>(m.vocab) * H;
  n.emb = m.tied_embed ? 0.0 : n.head;
  return n;
}

}  // namespace tierscope::model
