// The per-layer read rule (see layers.h) and the KV entry sizes it is measured in.
#include "model/layers.h"

#include <algorithm>

namespace tierscope::model {

double kv_vector_bytes(const ModelArch& m, NumFormat f, double dims) {
  if (m.kv_rope_bf16 != 0 && m.rope_dim > 0 && dims > m.rope_dim) {
    return vector_bytes(f, dims - m.rope_dim) + 2.0 * m.rope_dim + m.kv_pad;
  }
  return vector_bytes(f, dims) + m.kv_pad;
}

double kv_dims(const ModelArch& m) {
  switch (m.attn) {
    case AttnKind::MHA: return static_cast<double>(m.kv_heads) * (m.head_dim + m.v_dim);
    case AttnKind::MLA: return static_cast<double>(m.kv_lora) + m.rope_dim;
    case AttnKind::Latent:
    case AttnKind::Count: break;
  }
  return static_cast<double>(m.head_dim);
}

KvSizes kv_sizes(const ModelArch& m) {
  KvSizes z;
  const double dims = kv_dims(m);
  z.main = kv_vector_bytes(m, m.kv_fmt, dims);
  z.idx = m.idx_dim > 0 ? vector_bytes(m.idx_fmt, m.idx_dim) : 0.0;
  z.swa = m.n_win > 0 ? kv_vector_bytes(m, m.swa_fmt, dims) : 0.0;
  return z;
}

double decode_attn_dims(const ModelArch& m) {
  switch (m.attn) {
    case AttnKind::MHA: return static_cast<double>(m.head_dim) + m.v_dim;
    case AttnKind::MLA: return 2.0 * m.kv_lora + m.rope_dim;
    case AttnKind::Latent:
    case AttnKind::Count: break;
  }
  return 2.0 * m.head_dim;
}

double prefill_attn_dims(const ModelArch& m) {
  if (m.attn == AttnKind::Latent) return 2.0 * m.head_dim;
  return static_cast<double>(m.head_dim) + m.v_dim;
}

namespace {
double ratio_of(const ModelArch& m, int layer) {
  return layer >= 0 ? static_cast<double>(m.layers[static_cast<std::size_t>(layer)].ratio) : 1.0;
}
int selector_of(const ModelArch& m, int layer, int source) {
  for (int i = layer; i >= source && i >= 0; --i) {
    const LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    if (mode == LayerMode::Full || mode == LayerMode::Reindex) return i;
  }
  return -1;
}
}  // namespace

LayerRead layer_read(const ModelArch& m, int i, double ctx) {
  LayerRead r;
  if (i < 0 || i >= m.layer_count) return r;
  const Layer& l = m.layers[static_cast<std::size_t>(i)];
  r.mode = l.mode;
  if (has_window(m, i)) r.window_rows = std::min<double>(m.n_win, ctx);
  if (l.mode == LayerMode::SwaOnly) return r;
  r.source = kv_source_of(m, i);
  if (r.source < 0) return r;  // validation rejects this; read nothing rather than divide by nothing
  r.rows = ctx / ratio_of(m, r.source);
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  const double selected = std::min<double>(m.top_k, r.rows);
  const bool dense_source = m.layers[static_cast<std::size_t>(r.source)].mode == LayerMode::Dense;
  switch (l.mode) {
    case LayerMode::Dense: r.dense_rows = r.rows; break;
    case LayerMode::Full:
      r.selector = i;
      r.fullpool_keys = r.rows;
      r.gathered = selected;
      break;
    case LayerMode::Reindex:
      r.selector = i;
      if (m.cand_src >= 0 && i > m.cand_src && pool > 0) {
        r.pool_scorer = true;
        r.pool_keys = std::min(pool, r.rows);
      } else {
        r.fullpool_keys = r.rows;
      }
      r.gathered = selected;
      break;
    case LayerMode::Reuse:
      if (dense_source) {
        r.dense_rows = r.rows;
      } else {
        r.selector = selector_of(m, i, r.source);
        r.gathered = selected;
      }
      break;
    case LayerMode::SwaOnly:
    case LayerMode::Count: break;
  }
  return r;
}

}  // namespace tierscope::model
