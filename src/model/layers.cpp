// The per-layer read rule (see layers.h) and the KV entry sizes it is measured in.
#include "model/layers.h"

#include <algorithm>
#include <cstdint>

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

double window_kv_dims(const ModelArch& m) {
  if (m.attn != AttnKind::MHA || m.swa_kv_heads <= 0) return kv_dims(m);
  const double hd = m.swa_head_dim > 0 ? m.swa_head_dim : m.head_dim, vd = m.swa_v_dim > 0 ? m.swa_v_dim : m.v_dim;
  return static_cast<double>(m.swa_kv_heads) * (hd + vd);
}

double linear_state_values(const ModelArch& m) { return static_cast<double>(m.lin_v_heads) * m.lin_k_dim * m.lin_v_dim; }

double linear_conv_values(const ModelArch& m) {
  if (m.lin_conv <= 1) return 0.0;
  return (m.lin_conv - 1.0) * (2.0 * m.lin_k_heads * m.lin_k_dim + static_cast<double>(m.lin_v_heads) * m.lin_v_dim);
}

// The convolution's state is kept in the activations' 16 bits (vLLM's and SGLang's conv cache follow the
// model's dtype); the recurrent state in lin_fmt (SGLang's mamba_ssm_dtype defaults to float32).
double linear_state_bytes(const ModelArch& m) {
  return linear_state_values(m) * bytes_per_value(m.lin_fmt) + linear_conv_values(m) * 2.0;
}

bool any_window(const ModelArch& m) {
  for (int i = 0; i < m.layer_count; ++i)
    if (has_window(m, i)) return true;
  return false;
}

KvSizes kv_sizes(const ModelArch& m) {
  KvSizes z;
  const double dims = kv_dims(m);
  z.main = kv_vector_bytes(m, m.kv_fmt, dims);
  z.idx = m.idx_dim > 0 ? vector_bytes(m.idx_fmt, m.idx_dim) : 0.0;
  z.swa = m.n_win > 0 || any_window(m) ? kv_vector_bytes(m, m.swa_fmt, window_kv_dims(m)) : 0.0;
  z.state = linear_state_bytes(m);
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
// Layers read alike when these agree (the source's index does not matter, only its ratio and kind).
std::uint64_t role_key(const LayerRole& r) {
  return static_cast<std::uint64_t>(r.mode) | static_cast<std::uint64_t>(r.window) << 3 |
         static_cast<std::uint64_t>(r.pool_scorer) << 4 | static_cast<std::uint64_t>(r.dense_source) << 5 |
         static_cast<std::uint64_t>(r.source >= 0) << 6 | static_cast<std::uint64_t>(r.recurrent) << 7 |
         static_cast<std::uint64_t>(r.ratio) << 8 | static_cast<std::uint64_t>(r.win) << 32;
}

// Walks the layers forward to `upto` (exclusive), filling each role: sources and selectors only look back.
void walk(const ModelArch& m, int upto, LayerRole* roles, int* last_source) {
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  int source = -1, selector = -1, after_linear = 0;
  *last_source = upto;
  for (int i = 0; i < upto; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    // A linear layer builds its state from every prompt token, so the prompt's full pass runs through it.
    if (l.mode == LayerMode::Linear) after_linear = i + 1;
    if (owns_kv(l.mode)) {
      source = i;
      selector = -1;  // a new source starts a new selection chain
      *last_source = i;
    }
    if (l.mode == LayerMode::Full || l.mode == LayerMode::Reindex) selector = i;
    LayerRole& r = roles[i];
    const int win = layer_window(m, i);
    r = LayerRole{l.mode, -1, -1, 1.0, win > 0, win, l.mode == LayerMode::Linear, false, false, 0};
    // Sliding, chunked and linear layers keep their own state and read no KV source.
    if (l.mode == LayerMode::SwaOnly || l.mode == LayerMode::Chunked || l.mode == LayerMode::Linear || source < 0) {
      r.key = role_key(r);
      continue;
    }
    r.source = source;
    r.ratio = m.layers[static_cast<std::size_t>(source)].ratio;
    r.dense_source = m.layers[static_cast<std::size_t>(source)].mode == LayerMode::Dense;
    r.selector = (l.mode == LayerMode::Reuse && r.dense_source) ? -1 : selector;
    r.pool_scorer = l.mode == LayerMode::Reindex && m.cand_src >= 0 && i > m.cand_src && pool > 0;
    r.key = role_key(r);
  }
  if (*last_source < upto && *last_source < after_linear) *last_source = after_linear;
}
}  // namespace

namespace {
// Groups layers [first, last) by their key; consecutive layers usually share a group, so the last match is
// tried first.
void group(const LayerPlan& plan, int first, int last, LayerGroup* groups, int& count, std::uint64_t* keys) {
  count = 0;
  int hit = -1;
  for (int i = first; i < last; ++i) {
    const std::uint64_t key = plan.roles[i].key;
    if (hit < 0 || keys[hit] != key) {
      hit = -1;
      for (int k = 0; k < count; ++k) {
        if (keys[k] == key) {
          hit = k;
          break;
        }
      }
      if (hit < 0) {
        hit = count++;
        keys[hit] = key;
        groups[hit] = LayerGroup{plan.roles[i], 0};
      }
    }
    groups[hit].count += 1;
  }
}
}  // namespace

LayerCounts count_layers(const ModelArch& m) {
  LayerCounts n{0, 0, 0, 0, 0, 0, 0, 0, 0, -1};
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (l.mode == LayerMode::Chunked) {
      n.chunk_layers += 1;
    } else if (has_window(m, i)) {
      n.window_layers += 1;
      n.window_tokens += layer_window(m, i);
    }
    if (l.mode == LayerMode::Linear) n.linear_layers += 1;
    if (owns_kv(l.mode)) {
      n.owners += 1;
      n.inv_ratio_main += 1.0 / l.ratio;
      n.last_source = i;
      if (l.mode == LayerMode::Full) {
        n.index_owners += 1;
        n.inv_ratio_index += 1.0 / l.ratio;
      }
    }
    if (l.mode == LayerMode::Full || l.mode == LayerMode::Reindex) n.selecting_layers += 1;
  }
  return n;
}

void plan_layers(const ModelArch& m, LayerPlan& out) {
  out.layer_count = m.layer_count;
  out.counts = count_layers(m);
  walk(m, m.layer_count, out.roles, &out.split);
  std::uint64_t keys[kMaxLayers];
  group(out, 0, m.layer_count, out.groups[LayerPlan::All], out.group_count[LayerPlan::All], keys);
  group(out, 0, out.split, out.groups[LayerPlan::BeforeSplit], out.group_count[LayerPlan::BeforeSplit], keys);
  group(out, out.split, m.layer_count, out.groups[LayerPlan::FromSplit], out.group_count[LayerPlan::FromSplit], keys);
}

LayerRead layer_read(const ModelArch& m, const LayerRole& role, double ctx) {
  LayerRead r;
  r.mode = role.mode;
  if (role.window) r.window_rows = std::min<double>(role.win, ctx);
  if (role.recurrent) r.state = 1;  // its fixed state per step, not per token
  if (role.source < 0) return r;  // sliding, chunked and linear layers; validation rejects a missing source
  r.source = role.source;
  r.selector = role.selector;
  r.pool_scorer = role.pool_scorer;
  r.rows = ctx / role.ratio;
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  const double selected = std::min<double>(m.top_k, r.rows);
  switch (role.mode) {
    case LayerMode::Dense: r.dense_rows = r.rows; break;
    case LayerMode::Full:
      r.fullpool_keys = r.rows;
      r.gathered = selected;
      break;
    case LayerMode::Reindex:
      if (role.pool_scorer) r.pool_keys = std::min(pool, r.rows);
      else r.fullpool_keys = r.rows;
      r.gathered = selected;
      break;
    case LayerMode::Reuse:
      if (role.dense_source) r.dense_rows = r.rows;
      else r.gathered = selected;
      break;
    case LayerMode::SwaOnly:
    case LayerMode::Linear:
    case LayerMode::Chunked:
    case LayerMode::Count: break;
  }
  return r;
}

LayerRead layer_read(const ModelArch& m, int i, double ctx) {
  if (i < 0 || i >= m.layer_count) return LayerRead{};
  LayerRole roles[kMaxLayers];
  int last = 0;
  walk(m, i + 1, roles, &last);
  return layer_read(m, roles[i], ctx);
}

}  // namespace tierscope::model
