// The numeric core of the model: every figure's value in closed form (no per-token or per-session loops).
#include <algorithm>
#include <cmath>

#include "model/figures.h"

namespace tierscope::model {

namespace {

// Stored bytes of one per-token vector of `dims` values in format f, honouring the V4-style layout
// where RoPE dims are kept apart in BF16, plus alignment padding.
double kv_vector_bytes(const ModelArch& m, NumFormat f, double dims) {
  if (m.kv_rope_bf16 != 0 && m.rope_dim > 0 && dims > m.rope_dim) {
    return vector_bytes(f, dims - m.rope_dim) + 2.0 * m.rope_dim + m.kv_pad;
  }
  return vector_bytes(f, dims) + m.kv_pad;
}

// Values per token that one KV-owning layer stores, by attention kind.
double kv_dims(const ModelArch& m) {
  switch (m.attn) {
    case AttnKind::MHA: return static_cast<double>(m.kv_heads) * (m.head_dim + m.v_dim);
    case AttnKind::MLA: return static_cast<double>(m.kv_lora) + m.rope_dim;
    case AttnKind::Latent:
    case AttnKind::Count: break;
  }
  return static_cast<double>(m.head_dim);
}

// Width of one query's dot products per attended position (scores + value mix). Prefill engines run
// MLA un-absorbed (per-head keys and values), so the per-head dims apply to every kind.
double attn_dims(const ModelArch& m) { return static_cast<double>(m.head_dim) + m.v_dim; }

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

double ratio_of(const ModelArch& m, int layer) {
  return layer >= 0 ? static_cast<double>(m.layers[static_cast<std::size_t>(layer)].ratio) : 1.0;
}

}  // namespace

double prefill_flop(const Scenario& s, const Terms& t, double n, double* weights, double* attn, double* index) {
  const ModelArch& m = s.model;
  // Weights: every prefill layer's matrices once per token; the embedding is a lookup, not a matmul.
  const double share = t.layers > 0 ? t.prefill_layers / t.layers : 0;
  const double w_params = share * (t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn);
  const double fw = 2.0 * w_params * n;
  // Attention core and indexer scoring, per prefill layer, with causal averages (a query at position
  // t sees t positions: N²/2 in total, closed form).
  const double per_pos = 2.0 * m.q_heads * attn_dims(m);
  const double per_idx = 2.0 * m.idx_heads * m.idx_dim;
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  double fa = 0, fi = 0;
  const int pl = static_cast<int>(t.prefill_layers);
  for (int i = 0; i < pl; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    const int src = kv_source_of(m, i);
    const double rows_avg = n / (2.0 * ratio_of(m, src));  // mean rows visible to a query
    if (has_window(m, i)) fa += per_pos * n * std::min<double>(m.n_win, n);
    switch (l.mode) {
      case LayerMode::Dense: fa += per_pos * n * rows_avg; break;
      case LayerMode::Full:
        fa += per_pos * n * std::min<double>(m.top_k, rows_avg);
        fi += per_idx * n * rows_avg;
        break;
      case LayerMode::Reindex:
        fa += per_pos * n * std::min<double>(m.top_k, rows_avg);
        fi += per_idx * n * ((m.cand_src >= 0 && i > m.cand_src && pool > 0) ? std::min(pool, rows_avg) : rows_avg);
        break;
      case LayerMode::Reuse:
        if (src >= 0 && m.layers[static_cast<std::size_t>(src)].mode == LayerMode::Dense) {
          fa += per_pos * n * rows_avg;
        } else {
          fa += per_pos * n * std::min<double>(m.top_k, rows_avg);
        }
        break;
      case LayerMode::SwaOnly:
      case LayerMode::Count: break;
    }
  }
  if (weights) *weights = fw;
  if (attn) *attn = fa;
  if (index) *index = fi;
  return fw + fa + fi;
}

void compute_values(const Scenario& s, Computed& out) {
  const ModelArch& m = s.model;
  const Hardware& hw = s.hw;
  const Workload& w = s.work;
  Terms& t = out.terms;
  Values& v = out.values;
  t = Terms{};
  v = Values{};
  using F = FigureId;

  // --- Parameters -----------------------------------------------------------------------------
  t.layers = m.layer_count;
  t.moe_layers = m.experts > 0 ? std::max(0, m.layer_count - m.dense_layers) : 0;
  t.ffn_dense_layers = t.layers - t.moe_layers;
  t.prefill_layers = m.enc_layers > 0 ? m.enc_layers : m.layer_count;
  const double h = m.hidden;
  const double p_expert = 3.0 * m.expert_inter * h;
  t.p_attn_layer = attention_params_per_layer(m);
  t.p_attn = t.layers * t.p_attn_layer;
  t.p_routed_active = t.moe_layers * m.experts_per_token * p_expert;
  t.p_shared = t.moe_layers * m.shared_experts * p_expert;
  t.p_router = t.moe_layers * m.experts * h;
  t.p_dense_ffn = t.ffn_dense_layers * 3.0 * m.dense_inter * h;
  t.p_head = static_cast<double>(m.vocab) * h;
  t.p_emb = t.p_head;
  const double p_routed_all = t.moe_layers * m.experts * p_expert;
  const double engram_params = [&] {
    double rows = 0;
    for (int i = 0; i < m.engram_count; ++i) rows += m.engram_rows[static_cast<std::size_t>(i)];
    return rows * m.engram_dim;
  }();
  v[F::ParamsPerExpert] = p_expert;
  v[F::ParamsTotal] = p_routed_all + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
  v[F::ParamsActiveDecode] = t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
  v[F::ParamsActivePrefill] = (t.layers > 0 ? t.prefill_layers / t.layers : 0) *
                                  (t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn) +
                              t.p_emb;
  t.bpv_experts = bytes_per_value(m.experts_fmt);
  t.bpv_dense = bytes_per_value(m.dense_fmt);
  t.bpv_head = bytes_per_value(m.head_fmt);

  // --- KV layout and per-step reads (one pass over the layers) ---------------------------------
  const double dims = kv_dims(m);
  const double main = kv_vector_bytes(m, m.kv_fmt, dims);
  const double idx = vector_bytes(m.idx_fmt, m.idx_dim);
  const double swa = m.n_win > 0 ? kv_vector_bytes(m, m.swa_fmt, dims) : 0.0;
  v[F::KvMainEntry] = main;
  v[F::KvIndexEntry] = idx;
  v[F::KvSwaEntry] = swa;
  const double n = w.ctx;
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  double read_fullpool = 0, read_pool = 0, read_gather = 0, read_swa = 0;
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (has_window(m, i)) {
      t.window_layers += 1;
      read_swa += std::min<double>(m.n_win, n) * swa;
    }
    if (l.mode == LayerMode::SwaOnly) continue;
    const int src = kv_source_of(m, i);
    if (src < 0) continue;  // validation rejects this; skip rather than divide by nothing
    const double r = ratio_of(m, src);
    const double rows = n / r;
    t.read_layers += 1;
    // An indexer that scores every stored position of its source, and a layer that gathers its top-k rows.
    const auto scan_full_pool = [&] {
      t.fullpool_indexers += 1;
      t.fullpool_rows_idx += rows;
      read_fullpool += rows * idx;
    };
    const auto gather_top_k = [&] {
      t.gather_layers += 1;
      read_gather += std::min<double>(m.top_k, rows) * main;
    };
    switch (l.mode) {
      case LayerMode::Dense:
        t.owners += 1;
        t.inv_ratio_main += 1.0 / r;
        t.dense_readers += 1;
        t.read_dense += rows * main;
        break;
      case LayerMode::Full:
        t.owners += 1;
        t.index_owners += 1;
        t.inv_ratio_main += 1.0 / r;
        t.inv_ratio_index += 1.0 / r;
        scan_full_pool();
        gather_top_k();
        break;
      case LayerMode::Reindex:
        if (m.cand_src >= 0 && i > m.cand_src && pool > 0) {
          t.pool_indexers += 1;
          t.pool_positions = std::min(pool, rows);
          read_pool += t.pool_positions * idx;
        } else {
          scan_full_pool();
        }
        gather_top_k();
        break;
      case LayerMode::Reuse:
        if (m.layers[static_cast<std::size_t>(src)].mode == LayerMode::Dense) {
          t.dense_readers += 1;
          t.read_dense += rows * main;
        } else {
          gather_top_k();
        }
        break;
      case LayerMode::SwaOnly:
      case LayerMode::Count: break;
    }
  }
  const double b_tok = t.inv_ratio_main * main + t.inv_ratio_index * idx;
  v[F::KvGlobalPerToken] = b_tok;
  v[F::KvSwaPerSession] = t.window_layers * m.n_win * swa;
  v[F::KvPerSession] = n * b_tok + v[F::KvSwaPerSession];

  // --- Bandwidths ------------------------------------------------------------------------------
  const double hbm_bps = hbm_tbps_per_gpu(hw) * 1e12;
  t.bw_gpu = hbm_bps * hw.mbu;
  t.bw_total = t.bw_gpu * hw.gpus;
  t.host_bw = host_gbps(hw) * 1e9;
  t.host_lat = host_lat_us(hw) * 1e-6;
  t.pflops_total = compute_pflops_per_gpu(hw) * 1e15 * hw.gpus;
  t.ssd_bw = std::min(hw.ssd_count * hw.ssd_gbps * 1e9, t.host_bw);
  const double lat_hbm = hw.lat_hbm_us * 1e-6;
  v[F::HwHbmPerGpu] = hbm_gb_per_gpu(hw) * 1e9;
  v[F::HwHbmBwPerGpu] = hbm_bps;
  v[F::HwSramPerGpu] = gpu_info(hw.gpu).sram_mb * 1e6;
  v[F::HwHostLinkBw] = t.host_bw;
  v[F::HwSsdBwPerDrive] = hw.ssd_gbps * 1e9;

  // --- Engram ----------------------------------------------------------------------------------
  t.engram_row = m.engram_count > 0 ? vector_bytes(m.engram_fmt, m.engram_dim) : 0.0;
  v[F::EngramParams] = engram_params;
  v[F::EngramTableBytes] = m.engram_count > 0 ? engram_params / m.engram_dim * t.engram_row : 0.0;
  v[F::EngramBytesPerToken] =
      static_cast<double>(m.engram_count) * std::max(0, m.engram_ngram - 1) * m.engram_heads * t.engram_row;

  // --- HBM capacity ----------------------------------------------------------------------------
  const double derived_weights = p_routed_all * t.bpv_experts + (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense +
                                 (t.p_router + t.p_head + t.p_emb) * t.bpv_head + v[F::EngramTableBytes];
  const double checkpoint = m.checkpoint_gb > 0 ? m.checkpoint_gb * 1e9 : derived_weights;
  v[F::HbmWeights] = checkpoint - (m.engram_home == EngramHome::Hbm ? 0.0 : v[F::EngramTableBytes]);
  v[F::HbmKvBudget] = hw.gpus * v[F::HwHbmPerGpu] * hw.hbm_usable - v[F::HbmWeights] - hw.gpus * hw.workspace_gb * 1e9;
  v[F::HbmSessions] = v[F::KvPerSession] > 0 ? std::max(0.0, v[F::HbmKvBudget]) / v[F::KvPerSession] : 0.0;

  // --- Decode step -----------------------------------------------------------------------------
  const double e = m.experts, k = m.experts_per_token, b = w.batch;
  const double distinct = e > 0 ? e * (1.0 - std::pow(1.0 - k / e, b)) : 0.0;
  v[F::DecodeDistinctExperts] = distinct;
  const double fixed_weights = (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense + (t.p_router + t.p_head) * t.bpv_head;
  v[F::DecodeWeightBytes] = t.moe_layers * distinct * p_expert * t.bpv_experts + fixed_weights;
  t.weight_bytes_b1 = t.moe_layers * k * p_expert * t.bpv_experts + fixed_weights;
  const double per_session = read_fullpool + read_pool + read_gather + t.read_dense + read_swa;
  v[F::DecodeKvBytes] = b * per_session;
  const double step_bytes = v[F::DecodeWeightBytes] + v[F::DecodeKvBytes];
  v[F::DecodeStepFloor] = lat_hbm + step_bytes / t.bw_total;
  v[F::DecodeWeightShare] = step_bytes > 0 ? v[F::DecodeWeightBytes] / step_bytes : 0.0;
  v[F::DecodeTokensPerS] = b / v[F::DecodeStepFloor];

  // --- Sparse reads, per session per step, at one GPU's effective bandwidth --------------------
  v[F::TopkSliceBytes] = m.top_k * b_tok;
  v[F::TopkSliceTime] = v[F::TopkSliceBytes] / t.bw_gpu;
  v[F::GatherBytes] = read_gather;
  v[F::GatherTime] = read_gather / t.bw_gpu;
  v[F::IndexFullpoolBytes] = read_fullpool;
  v[F::IndexFullpoolTime] = read_fullpool / t.bw_gpu;
  v[F::IndexCandidateBytes] = read_pool;
  v[F::IndexCandidateTime] = read_pool / t.bw_gpu;
  v[F::SwaWindowBytes] = read_swa;
  v[F::SwaWindowTime] = read_swa / t.bw_gpu;

  // --- SWA restore, pool and bounded replay ----------------------------------------------------
  v[F::SwaRestoreLayerTime] = m.n_win > 0 ? t.host_lat + m.n_win * swa / t.host_bw : 0.0;
  v[F::SwaRestoreSessionTime] = m.n_win > 0 ? t.host_lat + v[F::KvSwaPerSession] / t.host_bw : 0.0;
  v[F::SwaPoolBytes] = w.swa_pool * hw.host_dram_gb * 1e9;
  v[F::SwaPoolSessions] = v[F::KvSwaPerSession] > 0 ? v[F::SwaPoolBytes] / v[F::KvSwaPerSession] : 0.0;
  v[F::ReplayFlop] = 2.0 * v[F::ParamsActiveDecode] * m.n_win;
  v[F::ReplayTime] = v[F::ReplayFlop] / t.pflops_total;
  v[F::ReplayTimeStandalone] = std::max(v[F::ReplayTime], t.weight_bytes_b1 / t.bw_total);

  // --- Prefill, prefix cache and Engram timing -------------------------------------------------
  v[F::PrefillFlop] = prefill_flop(s, t, w.prompt, &t.prefill_flop_weights, &t.prefill_flop_attn, &t.prefill_flop_index);
  v[F::PrefillTime] = v[F::PrefillFlop] / t.pflops_total;
  v[F::PrefixHitBytes] = w.prefix_hit * b_tok;
  v[F::PrefixSsdHitTime] = w.prefix_hit > 0 ? hw.lat_ssd_us * 1e-6 + v[F::PrefixHitBytes] / t.ssd_bw : 0.0;
  v[F::PrefixRecomputeTime] = prefill_flop(s, t, w.prefix_hit, nullptr, nullptr, nullptr) / t.pflops_total;
  if (m.engram_count > 0) {
    v[F::EngramFetchTime] = hw.lat_rdma_us * 1e-6 + v[F::EngramBytesPerToken] / (hw.nic_gbps * 1e9);
    // The token is known only after sampling, so the first Engram layer's fetch must hide behind the
    // layers before it: a share layer_id / L of the step.
    t.engram_window = t.layers > 0 ? m.engram_layers[0] / t.layers * v[F::DecodeStepFloor] : 0.0;
    v[F::EngramStall] = std::max(0.0, v[F::EngramFetchTime] - t.engram_window);
  }

  // --- Cost of one turn ------------------------------------------------------------------------
  v[F::CostTurnMiss] = (w.prompt * w.price_miss + w.output * w.price_out) / 1e6;
  v[F::CostTurnHit] =
      ((w.prompt - w.prefix_hit) * w.price_miss + w.prefix_hit * w.price_hit + w.output * w.price_out) / 1e6;
}

}  // namespace tierscope::model
