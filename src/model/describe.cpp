// describe(): turns computed values into Figures whose formulas quote the scenario's own numbers.
#include <algorithm>
#include <cmath>

#include "model/figures.h"
#include "model/text.h"

namespace tierscope::model {

namespace {

std::string fmt_label(NumFormat f) { return format_info(f).label; }

// "288 B = 512 values × 4/8 + ⌈512/16⌉ × 1 B (FP4 E2M1 + E4M3 scale per 16)"
std::string vector_formula(const ModelArch& m, NumFormat f, double dims, bool kv_layout) {
  const FormatInfo& i = format_info(f);
  const bool rope_apart = kv_layout && m.kv_rope_bf16 != 0 && m.rope_dim > 0 && dims > m.rope_dim;
  const double body = rope_apart ? dims - m.rope_dim : dims;
  std::string s = num(body) + " values × " + num(i.value_bits) + "/8 B";
  if (i.scale_group > 0) s += " + ⌈" + num(body) + "/" + num(i.scale_group) + "⌉ × " + num(i.scale_bytes) + " B scale";
  if (rope_apart) s += " + " + num(m.rope_dim) + " RoPE dims × 2 B (BF16)";
  if (kv_layout && m.kv_pad > 0) s += " + " + num(m.kv_pad) + " B pad";
  s += " (" + fmt_label(f) + ")";
  return s;
}

// Σ 1/r over KV owners written out: "(1/2+1/2+1/2+1/1)" for a few owners, grouped when many.
std::string inverse_ratio_sum(const ModelArch& m, bool index_only) {
  int owners = 0;
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (index_only ? l.mode == LayerMode::Full : owns_kv(l.mode)) ++owners;
  }
  std::string s = "(";
  if (owners <= 6) {
    bool first = true;
    for (int i = 0; i < m.layer_count; ++i) {
      const Layer& l = m.layers[static_cast<std::size_t>(i)];
      if (!(index_only ? l.mode == LayerMode::Full : owns_kv(l.mode))) continue;
      if (!first) s += "+";
      s += "1/" + std::to_string(l.ratio);
      first = false;
    }
  } else {
    // Group by ratio in order of first appearance: "21/4 + 20/128".
    int seen[kMaxLayers];
    int nseen = 0;
    for (int i = 0; i < m.layer_count; ++i) {
      const Layer& l = m.layers[static_cast<std::size_t>(i)];
      if (!(index_only ? l.mode == LayerMode::Full : owns_kv(l.mode))) continue;
      bool known = false;
      for (int k = 0; k < nseen; ++k) known = known || seen[k] == l.ratio;
      if (known) continue;
      seen[nseen++] = l.ratio;
      int count = 0;
      for (int j = 0; j < m.layer_count; ++j) {
        const Layer& o = m.layers[static_cast<std::size_t>(j)];
        if ((index_only ? o.mode == LayerMode::Full : owns_kv(o.mode)) && o.ratio == l.ratio) ++count;
      }
      if (nseen > 1) s += " + ";
      s += std::to_string(count) + "/" + std::to_string(l.ratio);
    }
  }
  return s + ")";
}

std::string bw_text(double bytes_per_s) { return human(bytes_per_s, "B/s"); }

}  // namespace

Figures describe(const Scenario& s) {
  Figures out;
  compute_values(s, out.computed);
  const Values& v = out.computed.values;
  const Terms& t = out.computed.terms;
  const ModelArch& m = s.model;
  const Hardware& hw = s.hw;
  const Workload& w = s.work;
  using F = FigureId;

  out.list.resize(kFigureCount);
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureInfo& info = figure_info(static_cast<FigureId>(i));
    Figure& f = out.list[static_cast<std::size_t>(i)];
    f.id = info.id;
    f.label = info.label;
    f.unit = info.unit;
    f.value = v.v[i];
    f.provenance = info.provenance;
    f.sources = info.sources;
    f.tier = info.tier;
    f.lifetime = info.lifetime;
  }
  auto H = [&](F id) { return human(v[id], figure_info(id).unit); };
  auto set = [&](F id, std::string text) { out.list[static_cast<std::size_t>(id)].formula = H(id) + " = " + text; };
  // Engram lives where the scenario puts it; the table's default tier is only a placeholder.
  for (F id : {F::EngramParams, F::EngramBytesPerToken, F::EngramTableBytes}) {
    out.list[static_cast<std::size_t>(id)].tier = m.engram_home == EngramHome::Hbm ? Tier::Hbm : Tier::Dram;
  }

  const double p_exp = v[F::ParamsPerExpert];
  set(F::ParamsPerExpert, "3 matrices × " + num(m.expert_inter) + " intermediate × " + num(m.hidden) + " hidden");
  set(F::ParamsTotal, num(t.moe_layers) + " MoE layers × (" + num(m.experts) + " routed + " + num(m.shared_experts) +
                          " shared) × " + human(p_exp, "params") + " + attention " + human(t.p_attn, "params") +
                          " + router " + human(t.p_router, "params") + " + dense FFN " + human(t.p_dense_ffn, "params") +
                          " + head " + human(t.p_head, "params") + " + embedding " + human(t.p_emb, "params") +
                          " (Engram tables counted apart)");
  set(F::ParamsActiveDecode, "routed " + num(m.experts_per_token) + " × " + num(t.moe_layers) + " × " +
                                 human(p_exp, "params") + " + shared " + human(t.p_shared, "params") + " + attention " +
                                 num(t.layers) + " × " + human(t.p_attn_layer, "params") + " + router " +
                                 human(t.p_router, "params") + " + dense FFN " + human(t.p_dense_ffn, "params") +
                                 " + head " + human(t.p_head, "params") + " + embedding " + human(t.p_emb, "params"));
  set(F::ParamsActivePrefill,
      num(t.prefill_layers) + "/" + num(t.layers) + " layers × " +
          human(t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn, "params") +
          " per-layer total + embedding " + human(t.p_emb, "params") +
          (m.enc_layers > 0 ? " (prefill runs the encoder; decoder layers see only the last window)" : ""));

  const double dims = m.attn == AttnKind::MHA ? static_cast<double>(m.kv_heads) * (m.head_dim + m.v_dim)
                      : m.attn == AttnKind::MLA ? static_cast<double>(m.kv_lora) + m.rope_dim
                                                : static_cast<double>(m.head_dim);
  set(F::KvMainEntry, vector_formula(m, m.kv_fmt, dims, true));
  set(F::KvIndexEntry, vector_formula(m, m.idx_fmt, m.idx_dim, false));
  set(F::KvSwaEntry, m.n_win > 0 ? vector_formula(m, m.swa_fmt, dims, true) : std::string("no sliding window"));
  {
    const std::string inv_main = inverse_ratio_sum(m, false);
    std::string g;
    if (t.index_owners == 0) {
      g = inv_main + " × " + num(v[F::KvMainEntry]) + " B";
    } else if (t.index_owners == t.owners) {
      g = inv_main + " × (" + num(v[F::KvMainEntry]) + " + " + num(v[F::KvIndexEntry]) + ") B";
    } else {
      g = inv_main + " × " + num(v[F::KvMainEntry]) + " B + " + inverse_ratio_sum(m, true) + " × " +
          num(v[F::KvIndexEntry]) + " B";
    }
    set(F::KvGlobalPerToken, "Σ over " + num(t.owners) + " KV-owning layers of 1/ratio: " + g);
  }
  set(F::KvSwaPerSession, num(t.window_layers) + " layers × " + num(m.n_win) + " tokens × " + num(v[F::KvSwaEntry]) + " B");
  set(F::KvPerSession, num(w.ctx) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B + " + H(F::KvSwaPerSession) + " SWA");

  set(F::HbmWeights, m.checkpoint_gb > 0
                         ? "published checkpoint " + num(m.checkpoint_gb) + " GB (incl. Engram)" +
                               (m.engram_home == EngramHome::Hbm ? std::string() : " − Engram tables " + H(F::EngramTableBytes) + " kept in host DRAM")
                         : std::string("derived from dims and weight formats") +
                               (m.engram_count > 0 && m.engram_home == EngramHome::Hbm ? " + Engram tables" : ""));
  set(F::HbmKvBudget, num(hw.gpus) + " GPUs × " + num(v[F::HwHbmPerGpu] / 1e9) + " GB × " + num(hw.hbm_usable) +
                          " usable − weights " + H(F::HbmWeights) + " − " + num(hw.gpus) + " × " +
                          num(hw.workspace_gb) + " GB workspace");
  set(F::HbmSessions, H(F::HbmKvBudget) + " / " + H(F::KvPerSession) + " per session");

  set(F::DecodeDistinctExperts, m.experts > 0 ? num(m.experts) + " × (1 − (1 − " + num(m.experts_per_token) + "/" +
                                                    num(m.experts) + ")^" + num(w.batch) + ")"
                                              : std::string("dense model, no experts"));
  set(F::DecodeWeightBytes,
      num(t.moe_layers) + " MoE layers × " + num_sig(v[F::DecodeDistinctExperts], 4) + " experts × " +
          human(p_exp, "params") + " × " + num_sig(t.bpv_experts, 6) + " B + (shared + attention + dense FFN) " +
          human(t.p_shared + t.p_attn + t.p_dense_ffn, "params") + " × " + num_sig(t.bpv_dense, 6) +
          " B + (router + head) " + human(t.p_router + t.p_head, "params") + " × " + num_sig(t.bpv_head, 6) + " B");
  set(F::DecodeKvBytes, num(w.batch) + " sessions × (full-pool scan " + H(F::IndexFullpoolBytes) + " + candidate scoring " +
                            H(F::IndexCandidateBytes) + " + sparse gather " + H(F::GatherBytes) + " + dense reads " +
                            human(t.read_dense, "B") + " + SWA window " + H(F::SwaWindowBytes) + ")");
  set(F::DecodeStepFloor, num(hw.lat_hbm_us) + " µs HBM latency + (" + H(F::DecodeWeightBytes) + " + " +
                              H(F::DecodeKvBytes) + ") / (" + num(hw.gpus) + " × " + bw_text(v[F::HwHbmBwPerGpu]) +
                              " × MBU " + num(hw.mbu) + ")");
  set(F::DecodeWeightShare, H(F::DecodeWeightBytes) + " / (" + H(F::DecodeWeightBytes) + " + " + H(F::DecodeKvBytes) + ")");
  set(F::DecodeTokensPerS, num(w.batch) + " sessions / " + H(F::DecodeStepFloor));

  const std::string per_gpu = " / (" + bw_text(v[F::HwHbmBwPerGpu]) + " × MBU " + num(hw.mbu) + ")";
  set(F::TopkSliceBytes, num(m.top_k) + " selected × " + num(v[F::KvGlobalPerToken]) +
                             " B (the card multiplies by the whole-model bytes per token)");
  set(F::TopkSliceTime, H(F::TopkSliceBytes) + per_gpu);
  set(F::GatherBytes, num(t.gather_layers) + " reading layers × min(" + num(m.top_k) + ", " + num(w.ctx) +
                          "/ratio) rows × " + num(v[F::KvMainEntry]) + " B main entry");
  set(F::GatherTime, H(F::GatherBytes) + per_gpu + " (bandwidth only; add " + num(hw.lat_hbm_us) + " µs for a dependent access)");
  set(F::IndexFullpoolBytes, num(t.fullpool_indexers) + " full-pool indexers scan " + num(t.fullpool_rows_idx) +
                                 " index rows (" + num(w.ctx) + " tokens / ratio each) × " + num(v[F::KvIndexEntry]) + " B");
  set(F::IndexFullpoolTime, H(F::IndexFullpoolBytes) + per_gpu);
  set(F::IndexCandidateBytes, num(t.pool_indexers) + " candidate-pool indexers × " + num(t.pool_positions) +
                                  " positions (≤ " + num(m.cand_blocks) + " blocks × " + num(m.cand_block) + ") × " +
                                  num(v[F::KvIndexEntry]) + " B");
  set(F::IndexCandidateTime, H(F::IndexCandidateBytes) + per_gpu);
  set(F::SwaWindowBytes, num(t.window_layers) + " layers × min(" + num(m.n_win) + ", " + num(w.ctx) + ") tokens × " +
                             num(v[F::KvSwaEntry]) + " B");
  set(F::SwaWindowTime, H(F::SwaWindowBytes) + per_gpu);
  const std::string link = " / " + bw_text(t.host_bw) + " " + link_info(hw.host_link).label;
  const bool win = m.n_win > 0;
  set(F::SwaRestoreLayerTime, !win ? std::string("no sliding window") : human(t.host_lat, "s") + " DMA latency + " + num(m.n_win) + " × " + num(v[F::KvSwaEntry]) +
                                  " B" + link);
  set(F::SwaRestoreSessionTime,
      !win ? std::string("no sliding window") : human(t.host_lat, "s") + " DMA latency + " + H(F::KvSwaPerSession) + link);
  set(F::SwaPoolBytes, num(w.swa_pool) + " × " + num(hw.host_dram_gb) + " GB host DRAM");
  set(F::SwaPoolSessions, H(F::SwaPoolBytes) + " / " + H(F::KvSwaPerSession) + " per session");

  const std::string compute = " / (" + num(hw.gpus) + " × " + num(compute_pflops_per_gpu(hw)) + " PFLOP/s dense " +
                              (hw.compute == ComputeFormat::FP4 ? "FP4" : "FP8") + ")";
  set(F::ReplayFlop, "2 × " + H(F::ParamsActiveDecode) + " active × " + num(m.n_win) + " window tokens");
  set(F::ReplayTime, H(F::ReplayFlop) + compute);
  set(F::ReplayTimeStandalone, "max(" + H(F::ReplayTime) + " compute, " + human(t.weight_bytes_b1, "B") +
                                   " weights / " + bw_text(t.bw_total) + ")");
  set(F::PrefixHitBytes, num(w.prefix_hit) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B (SWA is replayed, never cached)");
  set(F::PrefixSsdHitTime, num(hw.lat_ssd_us) + " µs + " + H(F::PrefixHitBytes) + " / min(" + num(hw.ssd_count) + " × " +
                               num(hw.ssd_gbps) + " GB/s SSD, " + bw_text(t.host_bw) + " host link)");
  set(F::PrefixRecomputeTime, "prefill FLOP of " + num(w.prefix_hit) + " tokens" + compute);

  set(F::EngramParams, m.engram_count > 0 ? "Σ rows of " + num(m.engram_count) + " tables × " + num(m.engram_dim) + " dims"
                                          : std::string("no Engram"));
  set(F::EngramBytesPerToken, num(m.engram_count) + " layers × " + num(std::max(0, m.engram_ngram - 1)) +
                                  " n-gram orders × " + num(m.engram_heads) + " hash heads × " + num(t.engram_row) +
                                  " B row");
  set(F::EngramTableBytes, "Σ rows × " + num(t.engram_row) + " B per row (" + fmt_label(m.engram_fmt) + ")");
  set(F::EngramFetchTime, num(hw.lat_rdma_us) + " µs RDMA latency + " + H(F::EngramBytesPerToken) + " / " + num(hw.nic_gbps) + " GB/s");
  set(F::EngramStall, m.engram_count > 0 ? "max(0, " + H(F::EngramFetchTime) + " − " + num(m.engram_layers[0]) + "/" +
                                               num(t.layers) + " × " + H(F::DecodeStepFloor) + " step)"
                                         : std::string("no Engram"));

  set(F::PrefillFlop, "weights 2 × " + human(t.prefill_flop_weights / (2.0 * std::max(1, w.prompt)), "params") + " × " +
                          num(w.prompt) + " tokens + attention " + human(t.prefill_flop_attn, "FLOP") + " + indexer " +
                          human(t.prefill_flop_index, "FLOP"));
  set(F::PrefillTime, H(F::PrefillFlop) + compute);
  set(F::CostTurnMiss, "(" + num(w.prompt) + " × $" + num(w.price_miss) + " + " + num(w.output) + " × $" +
                           num(w.price_out) + ") / 1M tokens");
  set(F::CostTurnHit, "(" + num(w.prompt - w.prefix_hit) + " × $" + num(w.price_miss) + " + " + num(w.prefix_hit) +
                          " × $" + num(w.price_hit) + " + " + num(w.output) + " × $" + num(w.price_out) + ") / 1M tokens");

  const GpuInfo& g = gpu_info(hw.gpu);
  set(F::HwHbmPerGpu, hw.hbm_gb > 0 ? std::string("override") : std::string(g.label) + " catalog");
  set(F::HwHbmBwPerGpu, hw.hbm_tbps > 0 ? std::string("override") : std::string(g.label) + " catalog");
  set(F::HwSramPerGpu, std::string(g.label) + " catalog");
  set(F::HwHostLinkBw, hw.host_gbps > 0 ? std::string("override") : std::string(link_info(hw.host_link).label) + " catalog");
  set(F::HwSsdBwPerDrive, "scenario parameter ssd_gbps");
  return out;
}

}  // namespace tierscope::model
