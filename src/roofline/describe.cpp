// describe(): turns computed values into Figures whose formulas quote the scenario's own numbers, name the
// roof that won for every timed step, and carry where each input comes from.
#include <algorithm>
#include <cmath>
#include <limits>

#include "base/text.h"
#include "model/layers.h"
#include "model/parallel.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

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
  auto counts = [&](const Layer& l) { return index_only ? l.mode == LayerMode::Full : owns_kv(l.mode); };
  int owners = 0;
  for (int i = 0; i < m.layer_count; ++i) owners += counts(m.layers[static_cast<std::size_t>(i)]) ? 1 : 0;
  std::string s = "(";
  if (owners <= 6) {
    bool first = true;
    for (int i = 0; i < m.layer_count; ++i) {
      const Layer& l = m.layers[static_cast<std::size_t>(i)];
      if (!counts(l)) continue;
      if (!first) s += "+";
      s += "1/" + std::to_string(l.ratio);
      first = false;
    }
  } else {
    int seen[kMaxLayers];
    int nseen = 0;
    for (int i = 0; i < m.layer_count; ++i) {
      const Layer& l = m.layers[static_cast<std::size_t>(i)];
      if (!counts(l)) continue;
      bool known = false;
      for (int k = 0; k < nseen; ++k) known = known || seen[k] == l.ratio;
      if (known) continue;
      seen[nseen++] = l.ratio;
      int count = 0;
      for (int j = 0; j < m.layer_count; ++j) {
        const Layer& o = m.layers[static_cast<std::size_t>(j)];
        if (counts(o) && o.ratio == l.ratio) ++count;
      }
      if (nseen > 1) s += " + ";
      s += std::to_string(count) + "/" + std::to_string(l.ratio);
    }
  }
  return s + ")";
}

// Weakest first: a figure built on an override or an assumption says so.
int strength(Provenance p) {
  switch (p) {
    case Provenance::Override: return 0;
    case Provenance::Assumed: return 1;
    case Provenance::Card: return 2;
    case Provenance::Derived: return 3;
    case Provenance::ThirdParty: return 4;
    case Provenance::Measured: return 5;
    case Provenance::Engine: return 6;
    case Provenance::Paper: return 7;
    case Provenance::Count: break;
  }
  return 1;
}

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

  // Where every input comes from, once.
  out.origin = s.origin;
  all_input_provenance(s, out.inputs);

  out.list.resize(kFigureCount);
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureId fid = static_cast<FigureId>(i);
    const FigureInfo& info = figure_info(fid);
    Figure& f = out.list[static_cast<std::size_t>(i)];
    f.id = info.id;
    f.fid = fid;
    f.label = info.label;
    f.unit = info.unit;
    f.value = v.v[i];
    f.deps = info.deps;
    f.tier = info.tier;
    f.lifetime = info.lifetime;
    f.provenance = Provenance::Derived;
    // A fact (not a computation) takes the weakest provenance among its inputs for this scenario.
    bool overridden = false;
    Provenance weakest = Provenance::Paper;
    for (std::uint8_t idx : figure_dep_indices(fid)) {
      const Provenance p = out.inputs[idx].provenance;
      if (p == Provenance::Override) overridden = true;
      if (strength(p) < strength(weakest)) weakest = p;
    }
    if (info.provenance != Provenance::Derived) f.provenance = weakest;
    else if (overridden) f.provenance = Provenance::Override;
    if (!figure_shown(t, fid)) {
      f.feasible = false;
      f.value = std::numeric_limits<double>::quiet_NaN();
    }
  }
  const std::string why_not = t.feasible() ? std::string() : infeasible_summary(t);
  for (F id : {F::EngramParams, F::EngramBytesPerToken, F::EngramTableBytes}) {
    out.list[static_cast<std::size_t>(id)].tier = m.engram_home == EngramHome::Hbm    ? Tier::Hbm
                                                  : m.engram_home == EngramHome::Dram ? Tier::Dram
                                                                                      : Tier::Remote;
  }
  // A figure's value in words, formatted once: formulas quote other figures' values often.
  std::vector<std::string> said(static_cast<std::size_t>(kFigureCount));
  auto H = [&](F id) -> const std::string& {
    std::string& h = said[static_cast<std::size_t>(id)];
    if (h.empty()) h = human(v[id], figure_info(id).unit);
    return h;
  };
  auto set = [&](F id, std::string text) {
    Figure& f = out.list[static_cast<std::size_t>(id)];
    if (!f.feasible) {
      f.formula = "not computed: this setup cannot run (" + why_not + ")";
      return;
    }
    text.insert(0, H(id) + " = ");  // into the text's own buffer: one copy, not three
    f.formula = std::move(text);
  };
  auto B = [](double b) { return human(b, "B"); };
  auto S = [](double x) { return human(x, "s"); };
  auto FL = [](double x) { return human(x, "FLOP"); };
  auto P = [](double x) { return human(x, "params"); };
  const std::string bw = human(t.bw_raw, "B/s") + " × MBU " + num(hw.mbu);
  const std::string peak = human(t.peak_raw, "FLOP/s") + " × MFU " + num(hw.mfu);
  // "Σ over kernel classes of max(compute, memory): dense projections 4.2 ms memory-bound (…) + … = 32 ms, memory-bound"
  auto classes = [&](const Pass& p) {
    std::string x = "Σ over kernel classes of max(FLOP / (rate × MFU " + num(hw.mfu) + "), bytes / (" + bw + "), kernels × " +
                    num(hw.kernel_us) + " µs): ";
    bool first = true;
    for (int i = 0; i < kWorkClasses; ++i) {
      if (p.flop_c[i] <= 0 && p.bytes_c[i] <= 0) continue;
      const double c = t.peak_c[i] > 0 ? p.flop_c[i] / t.peak_c[i] : 0, mm = p.bytes_c[i] / t.bw, fl = p.floor_c[i];
      x += (first ? "" : " + ") + std::string(work_class_name(static_cast<WorkClass>(i))) + " " + S(std::max({c, mm, fl})) + " (" +
           (fl > c && fl > mm ? num(fl / (hw.kernel_us * 1e-6)) + " kernels, launch-bound"
            : c > mm          ? FL(p.flop_c[i]) + " at " + human(t.peak_c[i], "FLOP/s") + ", compute-bound"
                              : B(p.bytes_c[i]) + ", memory-bound") +
           ")";
      first = false;
    }
    return x + " = " + S(p.core()) + ", " + bound_name(p);
  };
  auto roof = [&](const Pass& p) {
    return classes(p) + "; + collectives " + S(p.t_comm);
  };
  const std::string per_gpu_note = " (one GPU of " + num(t.gpus) + ")";

  // --- Parameters and weights --------------------------------------------------------------------
  const std::string emb_text = m.tied_embed ? std::string(" (embedding tied to the head: one matrix)") : " + embedding " + P(t.p_emb);
  const double p_exp = t.p_expert;
  set(F::ParamsPerExpert, "3 matrices × " + num(m.expert_inter) + " intermediate × " + num(m.hidden) + " hidden");
  set(F::ParamsTotal, num(t.moe_layers) + " MoE layers × (" + num(m.experts) + " routed + " + num(m.shared_experts) +
                          " shared) × " + P(p_exp) + " + attention " + P(t.p_attn) + " + router " + P(t.p_router) +
                          " + dense FFN " + P(t.p_dense_ffn) + " + head " + P(t.p_head) + emb_text +
                          " (Engram tables counted apart)");
  set(F::ParamsActiveDecode, "routed " + num(m.experts_per_token) + " × " + num(t.moe_layers) + " × " + P(p_exp) + " + shared " +
                                 P(t.p_shared) + " + attention " + num(t.layers) + " × " + P(t.p_attn_layer) + " + router " +
                                 P(t.p_router) + " + dense FFN " + P(t.p_dense_ffn) + " + head " + P(t.p_head) + emb_text);
  set(F::ParamsActivePrefill,
      num(t.full_layers) + "/" + num(t.layers) + " layers × " +
          P(t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn) + " per-layer total" + (m.tied_embed ? std::string(" (embedding tied to the head)") : " + embedding " + P(t.p_emb)) +
          (t.last_source >= 0 && t.full_layers < t.layers
               ? " (the layers from the last KV source, layer " + num(t.last_source) + ", run only on the prompt's last window)"
               : std::string()));
  set(F::WeightsDerived, "routed experts " + P(t.p_routed_all) + " × " + num_sig(t.bpv_experts, 6) + " B + attention, shared and dense FFN " +
                             P(t.p_shared + t.p_attn + t.p_dense_ffn) + " × " + num_sig(t.bpv_dense, 6) + " B + router, head and embedding " +
                             P(t.p_router + t.p_head + t.p_emb) + " × " + num_sig(t.bpv_head, 6) + " B" +
                             (m.engram_count > 0 ? " + Engram tables " + H(F::EngramTableBytes) : std::string()));
  set(F::CheckpointPublished,
      m.checkpoint_gb > 0 ? "published " + num(m.checkpoint_gb) + " GB against " + H(F::WeightsDerived) +
                                " derived from the dims: the " + B(v[F::CheckpointPublished] - v[F::WeightsDerived]) +
                                " difference is what the dims leave out (vision encoder, draft blocks, norms)"
                          : std::string("no published size carried"));

  set(F::WeightsPerToken, "routed " + P(t.p_routed_active) + " × " + num_sig(t.bpv_experts, 6) + " B + attention, shared and dense FFN " +
                              P(t.p_shared + t.p_attn + t.p_dense_ffn) + " × " + num_sig(t.bpv_dense, 6) + " B + router and head " +
                              P(t.p_router + t.p_head) + " × " + num_sig(t.bpv_head, 6) + " B");

  // --- KV layout -------------------------------------------------------------------------------------
  set(F::KvMainEntry, vector_formula(m, m.kv_fmt, kv_dims(m), true));
  set(F::KvIndexEntry, m.idx_dim > 0 ? vector_formula(m, m.idx_fmt, m.idx_dim, false) : std::string("no index keys"));
  set(F::KvSwaEntry, m.n_win > 0 ? vector_formula(m, m.swa_fmt, kv_dims(m), true) : std::string("no sliding window"));
  {
    const std::string inv_main = inverse_ratio_sum(m, false);
    std::string g;
    if (t.index_owners == 0) g = inv_main + " × " + num(v[F::KvMainEntry]) + " B";
    else if (t.index_owners == t.owners) g = inv_main + " × (" + num(v[F::KvMainEntry]) + " + " + num(v[F::KvIndexEntry]) + ") B";
    else g = inv_main + " × " + num(v[F::KvMainEntry]) + " B + " + inverse_ratio_sum(m, true) + " × " + num(v[F::KvIndexEntry]) + " B";
    set(F::KvGlobalPerToken, "Σ over " + num(t.owners) + " KV-owning layers of 1/ratio: " + g);
  }
  set(F::KvSwaPerSession, num(t.window_layers) + " layers × " + num(m.n_win) + " tokens × " + num(v[F::KvSwaEntry]) + " B");
  set(F::KvPerSession, num(w.ctx) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token + " + H(F::KvSwaPerSession) + " SWA");

  set(F::KvSwaShare, H(F::KvSwaPerSession) + " / " + H(F::KvPerSession));

  // --- Placement and capacity ------------------------------------------------------------------------
  const std::string tp = num(t.tp), gpus = num(t.gpus);
  set(F::HbmWeightsPerGpu, "attention " + B(t.w_attn * t.tp) + " / tp " + tp + " + shared and dense FFN " + B(t.w_dense * t.tp) + " / " + tp +
                               " + routed expert slots " + B(t.w_experts * t.gpus) + " / " + gpus + " GPUs + router " + B(t.w_router) +
                               " (every GPU) + head and embedding " + B((t.p_head + t.p_emb) * t.bpv_head) + " / " + tp +
                               (t.w_engram > 0 ? " + Engram tables " + H(F::EngramTableBytes) + " / " + gpus + " (row-sharded in HBM)"
                                               : std::string(m.engram_count > 0 ? " (Engram tables outside HBM)" : "")));
  set(F::HbmWeights, gpus + " GPUs × " + H(F::HbmWeightsPerGpu) + " (the TP-split parts are copied in each of " + num(t.dp) +
                         (t.dp == 1 ? " replica)" : " replicas)"));
  set(F::HbmKvCopies, m.attn == AttnKind::MHA
                          ? num(m.kv_heads) + " KV heads split over tp " + tp + ": each GPU holds " + num(m.kv_heads / t.tp) +
                                " heads, one copy in all"
                          : std::string(m.attn == AttnKind::MLA ? "an MLA latent" : "one shared latent") +
                                " per token has a single KV head, which tensor parallelism cannot split: each of the " + tp +
                                " GPUs of a replica holds every session's KV");
  set(F::HbmKvSessionPerGpu, H(F::KvPerSession) + (t.kv_share < 1 ? " / tp " + tp : std::string(" (whole, on every GPU of the replica)")));
  set(F::HbmKvBudget, num(v[F::HwHbmPerGpu] / 1e9) + " GB × " + num(hw.hbm_usable) + " usable − " + num(hw.workspace_gb) +
                          " GB workspace − weights " + H(F::HbmWeightsPerGpu) + " per GPU");
  set(F::HbmSessions, "⌊" + H(F::HbmKvBudget) + " / " + H(F::HbmKvSessionPerGpu) + "⌋ = ⌊" + num_sig(t.sessions_raw, 5) +
                          "⌋ per replica × " + num(t.dp) + (t.dp == 1 ? " replica" : " replicas"));
  set(F::HbmSessionsPerGpu, H(F::HbmSessions) + " / " + gpus + " GPUs" +
                                (t.kv_share >= 1 && t.tp > 1 ? " (each GPU of a replica still holds the KV of all its replica's sessions)" : std::string()));
  set(F::HbmSessionsPerNode, t.gpus <= t.node_gpus
                                 ? "⌊" + num(t.node_gpus) + " GPUs per node / " + gpus + "⌋ instances × " + H(F::HbmSessions)
                                 : H(F::HbmSessions) + " × " + num(t.node_gpus) + "/" + gpus + " of the instance per node");

  // --- Decode step -------------------------------------------------------------------------------------
  const Pass& st = t.step;
  const std::string T = num(t.tokens_moe), ep = num(t.ep);
  const double slots = m.experts + (m.experts > 0 ? s.par.redundant : 0);
  const std::string routing = " (uniform routing assumed)";
  set(F::DecodeDistinctExperts, m.experts > 0 ? num(m.experts) + " × (1 − (1 − " + num(m.experts_per_token) + "/" + num(m.experts) + ")^" + T +
                                                    " tokens)" + routing
                                              : std::string("dense model, no experts"));
  set(F::DecodeExpertsPerRank, m.experts > 0 ? num(slots) + " slots / ep " + ep + " × (1 − (1 − " + num(m.experts_per_token) + "/" +
                                                   num(slots) + ")^" + T + ")" + routing
                                             : std::string("dense model, no experts"));
  {
    const double mean = t.tokens_moe * m.experts_per_token / t.ep;
    const double sigma = mean > 0 && v[F::DecodeBusiestRank] > mean && expected_max_normal(static_cast<int>(t.ep)) > 0
                             ? (v[F::DecodeBusiestRank] - mean) / expected_max_normal(static_cast<int>(t.ep))
                             : 0.0;
    set(F::DecodeBusiestRank, m.experts == 0 ? std::string("dense model, no experts")
                              : t.ep <= 1    ? "one expert rank holds every slot: " + T + " tokens × " + num(m.experts_per_token) + " experts"
                                             : "min(" + T + " × min(k, slots/ep), μ + c(" + ep + ")·σ) with μ = " + T + " × " +
                                                   num(m.experts_per_token) + " / " + ep + " = " + num(mean) + ", c(" + ep + ") = " +
                                                   num_sig(expected_max_normal(static_cast<int>(t.ep)), 4) +
                                                   " (Blom's expected maximum of " + ep + " normals), σ = " + num(sigma) + routing);
  }
  set(F::DecodeImbalance, H(F::DecodeBusiestRank) + " busiest / " + num(t.tokens_moe * m.experts_per_token / std::max(1.0, t.ep)) + " mean − 1");
  set(F::DecodeDestRanks, m.experts > 0 ? "ep " + ep + " × (1 − C(" + num(slots) + " − " + num(slots / t.ep) + ", " +
                                              num(m.experts_per_token) + ") / C(" + num(slots) + ", " + num(m.experts_per_token) + "))"
                                        : std::string("dense model, no experts"));
  set(F::DecodeWeightBytes, "attention, dense parts, router and head " + B(t.w_step_dense) + " + " + num(t.moe_layers) + " MoE layers × " +
                                num_sig(v[F::DecodeExpertsPerRank], 4) + " experts × " + P(p_exp) + " × " + num_sig(t.bpv_experts, 6) +
                                " B / " + num(t.mt) + " (each expert split " + num(t.mt) + " ways)" + per_gpu_note);
  const std::string sess = num(t.batch_replica) + (t.batch_replica == 1 ? " session" : " sessions");
  set(F::DecodeKvBytes, sess + " on the busiest replica (⌈" + num(w.batch) + "/" + num(t.dp) + "⌉) × " +
                            (t.kv_share < 1 ? "1/" + tp + " × " : std::string()) + "(full-pool scan " + H(F::IndexFullpoolBytes) +
                            " + candidate scoring " + H(F::IndexCandidateBytes) + " + sparse gather " + H(F::GatherBytes) +
                            (t.q > 1 ? " × " + num(t.q) + " queries" : std::string()) + " + dense reads " + B(t.dec.dense) +
                            " + SWA window " + H(F::SwaWindowBytes) + ") + appends " + B(t.append_bytes));
  set(F::DecodeFlop, "dense and attention projections " + FL(t.flop_dense) + " + routed experts " + FL(t.flop_experts) + " (busiest rank) + attention core " +
                         FL(t.flop_attn) + " + indexer " + FL(t.flop_index) + per_gpu_note);
  set(F::DecodeMemoryRoof, "(" + H(F::DecodeWeightBytes) + " + " + H(F::DecodeKvBytes) + ") / (" + bw + ")");
  set(F::DecodeComputeRoof, H(F::DecodeFlop) + " / (" + peak + ")");
  set(F::DecodeTWeights, H(F::DecodeWeightBytes) + " / (" + bw + ")");
  set(F::DecodeTIndex, B(t.batch_replica * t.kv_share * (t.dec.fullpool + t.dec.pool)) + " / (" + bw + ")");
  set(F::DecodeTGather, B(t.batch_replica * t.kv_share * (std::min(t.dec.gather * t.q, t.dec.rows_all * v[F::KvMainEntry]) + t.dec.dense)) +
                            " / (" + bw + ")");
  set(F::DecodeTWindow, B(t.batch_replica * t.kv_share * t.dec.window) + " / (" + bw + ")");
  set(F::DecodeTAppend, B(t.append_bytes) + " / (" + bw + ")");
  set(F::DecodeTCompute, "the compute-bound classes' FLOP time above their own reads: " + S(st.core()) + " − memory " + H(F::DecodeMemoryRoof) +
                             " (" + bound_name(st) + ")");
  set(F::DecodeTTopk, t.selecting_layers > 0 ? num(t.selecting_layers) + " selecting layers × " + num(hw.lat_sram_ns) + " ns + " +
                                                   num(t.tokens_replica) + " queries × " + num(t.dec.select_keys) +
                                                   " scores × 4 B × 2 passes / " + human(t.sram_bw, "B/s") + " on-chip"
                                             : std::string("no top-k selection"));
  if (t.a2a > 0) {
    set(F::DecodeTA2a, num(t.moe_layers) + " MoE layers × (2 × " + num(t.link_lat_a2a * 1e6) + " µs floor + " + num(t.tokens_moe / t.gpus) +
                           " tokens per GPU × " + num_sig(v[F::DecodeDestRanks], 3) + " ranks × (" + num(t.pay_dispatch) + " B FP8 out + " +
                           num(t.pay_combine) + " B BF16 back) × (1 + " + num_sig(v[F::DecodeImbalance], 3) + ") / " +
                           human(t.cross_node ? t.nic_bw : t.link_bw, "B/s") + (t.cross_node ? " over the NIC)" : " over the scale-up link)"));
  } else {
    set(F::DecodeTA2a, t.gpus <= 1 ? std::string("one GPU: no all-to-all")
                                   : std::string("no all-to-all: attention is not data-parallel or experts are not spread, so the MoE output is all-reduced"));
  }
  set(F::DecodeTAllreduce, t.ar_attn + t.ar_ffn > 0
                               ? "attention " + S(t.ar_attn) + " (" + num(t.layers) + " × all-reduce over tp " + tp + ") + FFN/MoE " + S(t.ar_ffn) +
                                     "; ring: " + num(hw.ar_lat_us) + " µs + 2(n − 1)/n × " + B(t.tokens_replica * m.hidden * 2.0) + " / " +
                                     human(t.link_bw, "B/s") + " each"
                               : std::string("no all-reduce: nothing is tensor-split"));
  set(F::DecodeTOverhead, "Σ over kernel classes of max(0, kernels × " + num(hw.kernel_us) + " µs − both roofs): " + num(t.layers) +
                              " layers launch " + num(t.kernels_per_step) + " kernels, each taking at least " + num(hw.kernel_us) + " µs");
  set(F::DecodeTDraft, v[F::DecodeTDraft] > 0 ? num(w.spec_tokens) + " draft tokens × " + num(m.draft_layers) + " layer × the one-token step's time per layer"
                                              : std::string("no speculative drafts"));
  set(F::EngramFetchTime, m.engram_count == 0 ? std::string("no Engram")
                          : m.engram_home == EngramHome::Dram
                              ? human(t.host_lat, "s") + " host DMA latency + " + H(F::EngramBytesPerToken) + " / " + human(t.host_bw, "B/s") + " host link"
                          : m.engram_home == EngramHome::Remote
                              ? num(hw.lat_rdma_us) + " µs RDMA latency + " + H(F::EngramBytesPerToken) + " / " + human(t.nic_bw, "B/s") + " NIC"
                              : num(hw.lat_hbm_us) + " µs HBM latency + " + H(F::EngramBytesPerToken) + " / (" + bw + ") (row-sharded in HBM)");
  set(F::EngramStepFetchTime, m.engram_count == 0 ? std::string("no Engram")
                                                  : "the same path for " + num(t.tokens_replica) + " tokens × " + H(F::EngramBytesPerToken));
  set(F::DecodeTStall, m.engram_count == 0 ? std::string("no Engram")
                                           : "max(0, " + H(F::EngramStepFetchTime) + " fetch − " + S(t.engram_window) + " until layer " +
                                                 num(m.engram_layers[0]) + " of " + num(t.layers) + " runs)");
  set(F::EngramStall, "the step's stall: " + H(F::DecodeTStall));
  set(F::EngramPromptFetchTime, m.engram_count == 0 ? std::string("no Engram") : "the same path for " + num(w.prompt) + " prompt tokens × " + H(F::EngramBytesPerToken));
  set(F::DecodeStepTime, classes(st) + "; + top-k " + H(F::DecodeTTopk) + " + all-to-all " + H(F::DecodeTA2a) + " + all-reduce " + H(F::DecodeTAllreduce) +
                             " + per-layer costs " + H(F::DecodeTOverhead) + " + drafts " + H(F::DecodeTDraft) + " + Engram stall " +
                             H(F::DecodeTStall));
  set(F::DecodeTokensPerStep, w.spec_tokens > 0 ? "(1 − p^(d+1)) / (1 − p) with d = " + num(w.spec_tokens) + " drafts, p = " + num(w.spec_accept) + " accepted each"
                                                : std::string("1: no speculative decoding"));
  set(F::DecodeTpot, H(F::DecodeStepTime) + " / " + num_sig(t.accepted, 4) + " tokens per step");
  set(F::DecodeTokensPerS, num(w.batch) + " sessions × " + num_sig(t.accepted, 4) + " / " + H(F::DecodeStepTime));
  set(F::DecodeTokensPerSGpu, H(F::DecodeTokensPerS) + " / " + gpus + " GPUs");
  set(F::DecodeWeightShare, H(F::DecodeWeightBytes) + " / (" + H(F::DecodeWeightBytes) + " + " + H(F::DecodeKvBytes) + ")");
  set(F::DecodeCrossoverBatch, v[F::DecodeCrossoverBatch] == 1 ? std::string("compute-bound from batch 1")
                               : v[F::DecodeCrossoverBatch] == 0
                                   ? std::string("the compute roof never meets the memory roof below batch 2^27")
                                   : "the batch at which compute roof = memory roof, found by bisection at this context (HBM capacity not applied)");
  {
    const double rest = std::max(0, w.prompt - std::min(w.prefix_hit, w.prompt));
    set(F::ServePrefillShare, w.output > 0 ? num(w.batch) + " sessions × " + num_sig(t.accepted, 4) + " tokens × " + num(rest) + "/" + num(w.output) +
                                                 " new prompt tokens per output token × " + FL(w.prompt > 0 ? v[F::PrefillFlop] / w.prompt : 0) +
                                                 " per token / (" + gpus + " GPUs × " + peak + ")"
                                           : std::string("no output tokens"));
  }
  set(F::ServeTpot, "(" + H(F::DecodeStepTime) + " + " + H(F::ServePrefillShare) + ") / " + num_sig(t.accepted, 4) + " tokens per step");
  set(F::ServeTokensPerSGpu, num(w.batch) + " × " + num_sig(t.accepted, 4) + " / (" + H(F::DecodeStepTime) + " + " + H(F::ServePrefillShare) +
                                 ") / " + gpus + " GPUs");

  // --- Sparse reads per session --------------------------------------------------------------------------
  const std::string per_gpu = " / (" + bw + ")";
  set(F::TopkSliceBytes, num(m.top_k) + " selected × " + num(v[F::KvGlobalPerToken]) +
                             " B/token (the card multiplies by the whole-model bytes per token)");
  set(F::TopkSliceTime, H(F::TopkSliceBytes) + per_gpu);
  set(F::TopkSelectTime, t.selecting_layers > 0 ? num(t.selecting_layers) + " selecting layers × " + num(hw.lat_sram_ns) + " ns + " +
                                                      num(t.dec.select_keys) + " scores × 4 B × 2 passes / " + human(t.sram_bw, "B/s")
                                                : std::string("no top-k selection"));
  set(F::GatherBytes, num(t.gather_layers) + " reading layers × min(" + num(m.top_k) + ", " + num(w.ctx) + "/ratio) rows × " +
                          num(v[F::KvMainEntry]) + " B main entry");
  set(F::GatherTime, H(F::GatherBytes) + per_gpu + " (bandwidth only; add " + num(hw.lat_hbm_us) + " µs for a dependent access)");
  set(F::IndexFullpoolBytes, num(t.fullpool_indexers) + " full-pool indexers scan " + num(t.fullpool_rows_idx) + " index rows (" + num(w.ctx) +
                                 " tokens / ratio each) × " + num(v[F::KvIndexEntry]) + " B");
  {
    const double fl = t.fullpool_rows_idx * 2.0 * m.idx_heads * m.idx_dim;
    Pass x;
    x.flop_c[3] = fl;
    x.bytes_c[3] = v[F::IndexFullpoolBytes];
    x.close(t.peak_c, t.bw);
    set(F::IndexFullpoolTime, "max(" + H(F::IndexFullpoolBytes) + per_gpu + " = " + S(x.t_memory) + ", " + FL(fl) + " (2 × " + num(m.idx_heads) +
                                  " heads × " + num(m.idx_dim) + " dims per key) / (" + peak + ") = " + S(x.t_compute) + "): " + bound_name(x));
    const double fp = t.pool_indexers * t.pool_positions * 2.0 * m.idx_heads * m.idx_dim;
    x.flop_c[3] = fp;
    x.bytes_c[3] = v[F::IndexCandidateBytes];
    x.close(t.peak_c, t.bw);
    set(F::IndexCandidateTime, "max(" + H(F::IndexCandidateBytes) + per_gpu + " = " + S(x.t_memory) + ", " + FL(fp) + " / (" + peak + ") = " +
                                   S(x.t_compute) + "): " + bound_name(x));
  }
  set(F::IndexCandidateBytes, num(t.pool_indexers) + " candidate-pool indexers × " + num(t.pool_positions) + " positions (≤ " +
                                  num(m.cand_blocks) + " blocks × " + num(m.cand_block) + ") × " + num(v[F::KvIndexEntry]) + " B");
  set(F::SwaWindowBytes, num(t.window_layers) + " layers × min(" + num(m.n_win) + ", " + num(w.ctx) + ") tokens × " + num(v[F::KvSwaEntry]) + " B");
  set(F::SwaWindowTime, H(F::SwaWindowBytes) + per_gpu);

  // --- SWA restore and pool --------------------------------------------------------------------------------
  const std::string link = " / " + human(t.host_bw, "B/s") + " " + link_info(hw.host_link).label;
  const bool win = m.n_win > 0;
  const std::string share = t.kv_share < 1 ? " / tp " + tp : std::string();
  set(F::SwaRestoreLayerTime, !win ? std::string("no sliding window")
                                   : human(t.host_lat, "s") + " DMA latency + " + num(m.n_win) + " × " + num(v[F::KvSwaEntry]) + " B" + share + link);
  set(F::SwaRestoreSessionTime, !win ? std::string("no sliding window") : human(t.host_lat, "s") + " DMA latency + " + H(F::KvSwaPerSession) + share + link);
  set(F::SwaPoolBytes, !win ? std::string("no sliding window") : num(w.swa_pool) + " × " + num(hw.host_dram_gb) + " GB host DRAM");
  set(F::SwaPoolSessions, !win ? std::string("no sliding window")
                               : "⌊" + H(F::SwaPoolBytes) + " / " + H(F::KvSwaPerSession) + "⌋ = ⌊" +
                                     num_sig(v[F::KvSwaPerSession] > 0 ? v[F::SwaPoolBytes] / v[F::KvSwaPerSession] : 0, 6) + "⌋");
  set(F::ResumeKvReloadTime, human(t.host_lat, "s") + " DMA latency + " + num(w.ctx) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token" + share + link);
  set(F::ResumeKvSsdTime, num(hw.lat_ssd_us) + " µs + " + B(w.ctx * v[F::KvGlobalPerToken]) + " / (" + num(hw.ssd_count) + " × " + num(hw.ssd_gbps) + " GB/s)");
  set(F::SwaPoolVsHbm, !win ? std::string("no sliding window") : H(F::SwaPoolSessions) + " in the pool / " + H(F::HbmSessionsPerNode) + " in one node's HBM");

  // --- Replay -----------------------------------------------------------------------------------------------
  const bool replays = win && m.bounded_replay != 0;
  const std::string no_replay = !win ? "no sliding window, nothing to replay" : "this model caches its window with the prefix: no replay";
  const double wt = std::min<double>(m.n_win, w.ctx);
  set(F::ReplayFlop, replays ? "every GPU: the last " + num(wt) + " tokens through all " + num(t.layers) + " layers, 2 × active parameters per token + attention and indexer over " +
                                   num(w.ctx) + " positions"
                             : no_replay);
  set(F::ReplayTimeStandalone, replays ? roof(t.replay) : no_replay);
  set(F::ReplayWeightBytes, replays ? "attention and dense parts + " + num(t.moe_layers) + " MoE layers × the experts " + num(wt) +
                                          " tokens touch on one rank × " + P(p_exp) + " × " + num_sig(t.bpv_experts, 6) + " B / " + num(t.mt)
                                    : no_replay);
  set(F::ReplayTime, replays ? "decode step with the window's " + num(wt) + " tokens riding along " + S(t.replay_merged_step) + " − the step alone " +
                                   S(st.time()) + " (its weights are streamed anyway)"
                             : no_replay);

  // --- Prefill ------------------------------------------------------------------------------------------------
  set(F::PrefillFlop, "every GPU: weights and attention projections " + FL(t.prefill_flop_weights * t.tp) + " + attention core " +
                          FL(t.prefill_flop_attn * t.tp) + " + indexer " + FL(t.prefill_flop_index * t.tp) + " over " + num(w.prompt) +
                          " tokens (layers before " + (t.last_source >= 0 ? "layer " + num(t.last_source) : std::string("the end")) +
                          " see every token, the rest the last window)");
  set(F::PrefillFullTime, num(t.prefill_chunks) + (t.prefill_chunks == 1 ? " chunk" : " chunks") + " of ≤ " + num(w.chunk) + " tokens through " +
                              num(t.full_layers) + " layers on one replica: " + roof(t.prefill.full));
  set(F::PrefillWindowTime, "the last " + num(m.n_win > 0 ? std::min<double>(m.n_win, w.prompt) : 1.0) + " tokens through the " +
                                num(t.layers - t.full_layers) + " layers from the last KV source on (they own no other KV): " + roof(t.prefill.win));
  set(F::PrefillTime, H(F::PrefillFullTime) + " + " + H(F::PrefillWindowTime));
  set(F::PrefillChunkWeightBytes, "attention and dense parts + " + num(t.moe_layers) + " MoE layers × the experts " +
                                      num(t.prefill_chunks > 0 ? w.prompt / t.prefill_chunks : 0) + " tokens touch on one rank" + per_gpu_note);

  // --- Prefix cache -----------------------------------------------------------------------------------------------
  const double hit = std::min(w.prefix_hit, w.prompt);
  set(F::PrefixHitBytes, hit > 0 ? num(hit) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token" +
                                       (replays ? " (SWA is replayed, never cached)" : win ? " + the window " + H(F::KvSwaPerSession) + " cached with it" : "")
                                 : std::string("no prefix hit"));
  set(F::PrefixSsdReadTime, hit > 0 ? num(hw.lat_ssd_us) + " µs + " + H(F::PrefixHitBytes) + " / (" + num(hw.ssd_count) + " × " + num(hw.ssd_gbps) + " GB/s)"
                                    : std::string("no prefix hit"));
  set(F::PrefixUploadTime, hit > 0 ? human(t.host_lat, "s") + " DMA latency + " + H(F::PrefixHitBytes) + share + link +
                                         (t.kv_share >= 1 && t.tp > 1 ? " (each of the " + tp + " GPUs over its own link, at once)" : std::string())
                                   : std::string("no prefix hit"));
  set(F::PrefixHitTime, H(F::PrefixSsdReadTime) + " SSD → DRAM + " + H(F::PrefixUploadTime) + " DRAM → HBM, before the turn starts");
  set(F::PrefixRestTime, num(w.prompt - hit) + " new tokens after the hit: " + S(t.rest.full.time()) + " + " + S(t.rest.win.time()) +
                             " (the prompt's two passes, attending over the hit's " + num(hit) + " positions too)");
  set(F::PrefixReplayTime, hit > 0 && replays ? "prefill of the new tokens with the hit's last " + num(std::min<double>(m.n_win, hit)) + " tokens in front " +
                                                    S(t.rest_replay.time()) + " − without them " + S(t.rest.time())
                                              : std::string(hit > 0 ? no_replay : "no prefix hit"));
  set(F::PrefixRecomputeTime, hit > 0 ? "prefill of the whole prompt " + H(F::PrefillTime) + " − prefill after the hit " + H(F::PrefixRestTime)
                                      : std::string("no prefix hit"));
  set(F::PrefixSpeedup, hit > 0 ? H(F::PrefixRecomputeTime) + " / (" + H(F::PrefixHitTime) + " + " + H(F::PrefixReplayTime) + " replay)"
                                : std::string("no prefix hit"));

  // --- SSD retention ------------------------------------------------------------------------------------------------
  set(F::SsdCapacity, num(hw.ssd_count) + " × " + num(hw.ssd_tb) + " TB");
  set(F::SsdWriteRate, w.output > 0 ? human(v[F::ServeTokensPerSGpu], "tokens/s") + " per GPU × " + num(t.node_gpus) + " GPUs × (" +
                                          num(w.prompt - hit) + " new prompt + " + num(w.output) + " output tokens) / " + num(w.output) +
                                          " output × " + num(v[F::KvGlobalPerToken]) + " B/token (no sharing between sessions)"
                                    : std::string("no output tokens"));
  set(F::SsdRetentionBytes, H(F::SsdWriteRate) + " × " + num(hw.retention_h) + " h");
  set(F::SsdDwpdNeeded, H(F::SsdWriteRate) + " × 86,400 s / " + H(F::SsdCapacity) + " (drives rated " + num(hw.ssd_dwpd) + " per day)");
  set(F::SsdRetentionHours, H(F::SsdCapacity) + " / " + H(F::SsdWriteRate) + " / 3,600 s");

  // --- Engram, cost, hardware ------------------------------------------------------------------------------------------
  set(F::EngramParams, m.engram_count > 0 ? "Σ rows of " + num(m.engram_count) + " tables × " + num(m.engram_dim) + " dims" : std::string("no Engram"));
  set(F::EngramBytesPerToken, m.engram_count > 0 ? num(m.engram_count) + " layers × " + num(std::max(0, m.engram_ngram - 1)) + " n-gram orders × " +
                                                       num(m.engram_heads) + " hash heads × " + num(t.engram_row_bytes) + " B row"
                                                 : std::string("no Engram"));
  set(F::EngramTableBytes, m.engram_count > 0 ? "Σ rows × " + num(t.engram_row_bytes) + " B per row (" + fmt_label(m.engram_fmt) + ")" : std::string("no Engram"));
  set(F::CostTurnMiss, "(" + num(w.prompt) + " × $" + num(w.price_miss) + " + " + num(w.output) + " × $" + num(w.price_out) + ") / 1M tokens");
  set(F::CostTurnHit, "(" + num(w.prompt - hit) + " × $" + num(w.price_miss) + " + " + num(hit) + " × $" + num(w.price_hit) + " + " + num(w.output) +
                          " × $" + num(w.price_out) + ") / 1M tokens");
  const GpuInfo& g = gpu_info(hw.gpu);
  set(F::HwHbmPerGpu, hw.hbm_gb > 0 ? std::string("override") : std::string(g.label) + " catalog");
  set(F::HwHbmBwPerGpu, hw.hbm_tbps > 0 ? std::string("override") : std::string(g.label) + " catalog");
  set(F::HwSramPerGpu, std::string(g.label) + " catalog (L2)");
  set(F::HwSramLatency, "lat_sram_ns " + num(hw.lat_sram_ns) + " ns; " + g.label + " levels: registers " + num(g.reg_ns) + " ns, L1/shared " +
                            num(g.l1_ns) + " ns, L2 " + num(g.l2_ns) + " ns");
  set(F::HwHostLinkBw, hw.host_gbps > 0 ? std::string("override") : std::string(link_info(hw.host_link).label) + " catalog (achieved DMA rate)");
  set(F::HwLinkBw, hw.link_gbps > 0 ? std::string("override") : std::string(g.label) + " catalog");
  set(F::HwPeakFlops, std::string(g.label) + " dense " + (hw.compute == ComputeFormat::FP4 && g.fp4_pflops > 0 ? "FP4" : "FP8"));
  set(F::HwSsdBwPerDrive, "scenario parameter ssd_gbps");
  set(F::HwHbmLatency, "lat_hbm_us " + num(hw.lat_hbm_us) + " µs");
  set(F::HwHostDram, "host_dram_gb " + num(hw.host_dram_gb) + " GB");
  set(F::HwHostLatency, hw.host_lat_us > 0 ? "host_lat_us " + num(hw.host_lat_us) + " µs (override)"
                                           : std::string(link_info(hw.host_link).label) + " catalog DMA latency");
  set(F::HwSsdLatency, "lat_ssd_us " + num(hw.lat_ssd_us) + " µs");
  return out;
}

}  // namespace tierscope::model
