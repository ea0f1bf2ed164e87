// The decode step on the busiest GPU: its expert load, bytes and FLOP, the step split into named terms,
// its rates, and the batch where the roofs cross, with their formulas.
//
// Sections: compute_decode_step (load, bytes, roofs) · compute_decode_terms (the step's terms) ·
// compute_decode_rates (step time, tokens per second) · compute_crossover (regula falsi on the roofs) ·
// describe_decode_experts · describe_decode_bytes · describe_decode_terms · describe_decode_rates.
#include "roofline/topics.h"

namespace tierscope::model::topics {

// --- Values ------------------------------------------------------------------------------------------

void compute_decode_step(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Workload& w = c.s.work;
  Terms& t = c.t;
  c.batch = std::max(1, w.batch);
  const double batch = c.batch;
  const double d = std::max(0, w.spec_tokens);
  t.q = 1.0 + d;
  t.batch_replica = std::ceil(batch / t.dp - 1e-9);
  t.tokens_replica = t.batch_replica * t.q;
  t.tokens_moe = batch * t.q;
  Work dw;
  double dkv = 0;
  t.step = decode_pass(c, batch, t.q, 0, 0, &dw, &dkv);
  const Pass& st = t.step;
  t.w_step_dense = dw.w_dense + t.w_head;
  t.w_step_experts = dw.w_experts;
  t.flop_dense = dw.flop_dense + 2.0 * t.p_head * t.tokens_replica / t.tp;
  t.flop_experts = dw.flop_experts;
  t.flop_attn = dw.flop_attn;
  t.flop_index = dw.flop_index;
  t.append_bytes = st.kv_bytes - dkv;
  t.kernels_per_step = c.kernel_s > 0 ? (st.floor_c[0] + st.floor_c[1] + st.floor_c[2] + st.floor_c[3]) / c.kernel_s : 0.0;
  t.ar_attn = dw.ar_attn;
  t.ar_ffn = dw.ar_ffn;
  t.a2a = dw.a2a;
  v[F::DecodeDistinctExperts] = distinct_experts(m.experts, c.k, t.tokens_moe);
  v[F::DecodeExpertsPerRank] = dw.load.distinct_rank;
  v[F::DecodeBusiestRank] = dw.load.busiest;
  v[F::DecodeImbalance] = dw.load.imbalance();
  v[F::DecodeDestRanks] = dw.load.dest_ranks;
  v[F::DecodeWeightBytes] = st.weight_bytes;
  v[F::DecodeKvBytes] = st.kv_bytes;
  v[F::DecodeFlop] = st.flop;
  v[F::DecodeMemoryRoof] = st.t_memory;
  v[F::DecodeComputeRoof] = st.t_compute;
}

// The step split into the terms a profile shows (step_terms.h), the drafts, and batch 1's weight bytes.
void compute_decode_terms(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Workload& w = c.s.work;
  Terms& t = c.t;
  const KvSizes& z = c.z;
  const Pass& st = t.step;
  const double d = std::max(0, w.spec_tokens);
  const double gather_q = std::min(t.dec.gather * t.q, t.dec.rows_all * z.main);
  const double kvb = t.batch_replica * t.kv_share;
  // Each read at its own class's bandwidth: weights at the GEMM classes', the KV at attention's, the
  // index keys at the indexer's.
  v[F::DecodeTWeights] = st.bytes_c[0] / st.bw_c[0] + (st.bytes_c[1] > 0 ? st.bytes_c[1] / st.bw_c[1] : 0.0);
  v[F::DecodeTIndex] = st.bytes_c[3] > 0 ? st.bytes_c[3] / st.bw_c[3] : 0.0;
  v[F::DecodeTGather] = kvb * (gather_q + t.dec.dense) / st.bw_c[2];
  v[F::DecodeTWindow] = kvb * t.dec.window / st.bw_c[2];
  v[F::DecodeTAppend] = t.append_bytes / st.bw_c[2];
  v[F::DecodeTCompute] = st.t_above_memory;
  v[F::DecodeTTopk] = t.selecting_layers > 0
                          ? t.selecting_layers * t.sram_lat + t.tokens_replica * t.dec.select_keys * kTopkScoreBytes * kTopkPasses / t.sram_bw
                          : 0.0;
  v[F::DecodeTA2a] = t.a2a;
  v[F::DecodeTAllreduce] = t.ar_attn + t.ar_ffn;
  v[F::DecodeTOverhead] = st.t_above_roofs;
  if (d > 0 && m.draft_layers > 0) {
    const Pass one = decode_pass(c, c.batch, 1.0, 0, 0);
    v[F::DecodeTDraft] = d * m.draft_layers * (one.time() / std::max(1.0, t.layers));
  }
  t.weight_bytes_b1 = decode_pass(c, 1, 1, 0, 0).weight_bytes;
}

// After the Engram stall: the step's time and what it yields.
void compute_decode_rates(Ctx& c, Values& v) {
  const Workload& w = c.s.work;
  Terms& t = c.t;
  const Pass& st = t.step;
  const double batch = c.batch;
  const double d = std::max(0, w.spec_tokens);
  // The host runs one step ahead (overlap scheduler): it shows where it outlasts the GPU, plus its residual.
  t.gpu_step = st.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft] + v[F::DecodeTStall];
  t.host_step = (t.host_us + t.host_per_seq_us * t.batch_replica) * 1e-6;
  v[F::DecodeTHost] = std::max(0.0, t.host_step - t.gpu_step) + t.host_res_us * 1e-6;
  v[F::DecodeStepTime] = t.gpu_step + v[F::DecodeTHost];
  const double p = std::clamp(w.spec_accept, 0.0, 1.0);
  t.accepted = d > 0 ? (p < 1.0 ? (1.0 - std::pow(p, d + 1.0)) / (1.0 - p) : d + 1.0) : 1.0;
  v[F::DecodeTokensPerStep] = t.accepted;
  v[F::DecodeTpot] = v[F::DecodeStepTime] / t.accepted;
  v[F::DecodeTokensPerS] = batch * t.accepted / v[F::DecodeStepTime];
  v[F::DecodeTokensPerSGpu] = v[F::DecodeTokensPerS] / t.gpus;
  const double step_bytes = st.weight_bytes + st.kv_bytes;
  v[F::DecodeWeightShare] = step_bytes > 0 ? st.weight_bytes / step_bytes : 0.0;
}

// Crossover: the batch at which the compute roof meets the memory roof. ln(compute / memory) is smooth
// and nearly straight in log batch, so regula falsi (Illinois) on it converges in a few passes.
// The two roofs as functions of a continuous batch, from the same per-token work the step uses.
void compute_crossover(Ctx& c, Values& v) {
  const Terms& t = c.t;
  const KvSizes& z = c.z;
  const Work unit = layers_work(c, LayerPlan::All, 1, 1, t.dec, 1, false);
  const double fd = unit.flop_dense + 2.0 * t.p_head / t.tp, fa = unit.flop_attn, fi = unit.flop_index;
  const double wd = unit.w_dense + t.w_head;
  const double n_moe = c.range[LayerPlan::All].n_moe;
  const double kv_sess = t.kv_share * (t.dec.fullpool + t.dec.pool + std::min(t.dec.gather * t.q, t.dec.rows_all * z.main) +
                                       t.dec.dense + t.dec.window);
  const double app_tok = t.kv_share * (c.b_tok + t.window_layers * z.swa);
  auto gap = [&](double x) {
    const double b = std::exp2(x), br = b / t.dp, tokens = br * t.q;
    const ExpertLoad l = load_at(c.epc, b * t.q);
    const double comp = tokens * fd / c.peak[0] + (n_moe > 0 ? 2.0 * t.p_expert * n_moe * l.busiest / t.mt / c.peak[1] : 0.0) +
                        tokens * fa / c.peak[2] + tokens * fi / c.peak[3];
    const double mem = (wd + n_moe * l.distinct_rank * t.p_expert * t.bpv_experts / t.mt + br * kv_sess + tokens * app_tok) / t.bw;
    return mem > 0 && comp > 0 ? std::log(comp / mem) : -1.0;
  };
  double lo = 0, hi = 27;  // batch 1 to 2^27
  double glo = gap(lo), ghi = gap(hi);
  if (glo >= 0) {
    v[F::DecodeCrossoverBatch] = 1;
    return;
  }
  if (ghi < 0) {
    v[F::DecodeCrossoverBatch] = 0;  // never within reach
    return;
  }
  int side = 0;
  double x = lo;
  for (int i = 0; i < 16 && hi - lo > 2e-3; ++i) {
    x = (lo * ghi - hi * glo) / (ghi - glo);
    const double gx = gap(x);
    if (gx < 0) {
      lo = x;
      glo = gx;
      if (side == -1) ghi *= 0.5;
      side = -1;
    } else {
      hi = x;
      ghi = gx;
      if (side == 1) glo *= 0.5;
      side = 1;
    }
  }
  v[F::DecodeCrossoverBatch] = std::exp2(x);
}

// --- Formulas ----------------------------------------------------------------------------------------

void describe_decode_experts(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  const std::string T = num(t.tokens_moe), ep = num(t.ep);
  const double slots = m.experts + (m.experts > 0 ? y.s.par.redundant : 0);
  const std::string routing = " (uniform routing assumed)";
  y.set(F::DecodeDistinctExperts, m.experts > 0 ? num(m.experts) + " × (1 − (1 − " + num(m.experts_per_token) + "/" + num(m.experts) + ")^" + T +
                                                      " tokens)" + routing
                                                : std::string("dense model, no experts"));
  y.set(F::DecodeExpertsPerRank, m.experts > 0 ? num(slots) + " slots / ep " + ep + " × (1 − (1 − " + num(m.experts_per_token) + "/" +
                                                     num(slots) + ")^" + T + ")" + routing
                                               : std::string("dense model, no experts"));
  {
    const double mean = t.tokens_moe * m.experts_per_token / t.ep;
    const double sigma = mean > 0 && v[F::DecodeBusiestRank] > mean && expected_max_normal(static_cast<int>(t.ep)) > 0
                             ? (v[F::DecodeBusiestRank] - mean) / expected_max_normal(static_cast<int>(t.ep))
                             : 0.0;
    y.set(F::DecodeBusiestRank, m.experts == 0 ? std::string("dense model, no experts")
                                : t.ep <= 1    ? "one expert rank holds every slot: " + T + " tokens × " + num(m.experts_per_token) + " experts"
                                               : "min(" + T + " × min(k, slots/ep), μ + c(" + ep + ")·σ) with μ = " + T + " × " +
                                                     num(m.experts_per_token) + " / " + ep + " = " + num(mean) + ", c(" + ep + ") = " +
                                                     num_sig(expected_max_normal(static_cast<int>(t.ep)), 4) +
                                                     " (Blom's expected maximum of " + ep + " normals), σ = " + num(sigma) + routing);
  }
  y.set(F::DecodeImbalance, y.H(F::DecodeBusiestRank) + " busiest / " + num(t.tokens_moe * m.experts_per_token / std::max(1.0, t.ep)) + " mean − 1");
  y.set(F::DecodeDestRanks, m.experts > 0 ? "ep " + ep + " × (1 − C(" + num(slots) + " − " + num(slots / t.ep) + ", " +
                                                num(m.experts_per_token) + ") / C(" + num(slots) + ", " + num(m.experts_per_token) + "))"
                                          : std::string("dense model, no experts"));
}

void describe_decode_bytes(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const std::string& bw = y.bw;
  y.set(F::DecodeWeightBytes, "attention, dense parts, router and head " + B(t.w_step_dense) + " + " + num(t.moe_layers) + " MoE layers × " +
                                  num_sig(v[F::DecodeExpertsPerRank], 4) + " experts × " + P(t.p_expert) + " × " + num_sig(t.bpv_experts, 6) +
                                  " B / " + num(t.mt) + " (each expert split " + num(t.mt) + " ways)" + y.per_gpu_note);
  const std::string sess = num(t.batch_replica) + (t.batch_replica == 1 ? " session" : " sessions");
  y.set(F::DecodeKvBytes, sess + " on the busiest replica (⌈" + num(y.w.batch) + "/" + num(t.dp) + "⌉) × " +
                              (t.kv_share < 1 ? "1/" + y.tp + " × " : std::string()) + "(full-pool scan " + y.H(F::IndexFullpoolBytes) +
                              " + candidate scoring " + y.H(F::IndexCandidateBytes) + " + sparse gather " + y.H(F::GatherBytes) +
                              (t.q > 1 ? " × " + num(t.q) + " queries" : std::string()) + " + dense reads " + B(t.dec.dense) +
                              " + SWA window " + y.H(F::SwaWindowBytes) + ") + appends " + B(t.append_bytes));
  y.set(F::DecodeFlop, "dense and attention projections " + FL(t.flop_dense) + " + routed experts " + FL(t.flop_experts) + " (busiest rank) + attention core " +
                           FL(t.flop_attn) + " + indexer " + FL(t.flop_index) + y.per_gpu_note);
  y.set(F::DecodeMemoryRoof, "(" + y.H(F::DecodeWeightBytes) + " + " + y.H(F::DecodeKvBytes) + ") / (" + bw + ")");
  y.set(F::DecodeComputeRoof, y.H(F::DecodeFlop) + " / (" + y.peak + ")");
  y.set(F::DecodeTWeights, y.H(F::DecodeWeightBytes) + " / (" + bw + ")");
  y.set(F::DecodeTIndex, B(t.batch_replica * t.kv_share * (t.dec.fullpool + t.dec.pool)) + " / (" + bw + ")");
  y.set(F::DecodeTGather, B(t.batch_replica * t.kv_share * (std::min(t.dec.gather * t.q, t.dec.rows_all * v[F::KvMainEntry]) + t.dec.dense)) +
                              " / (" + bw + ")");
  y.set(F::DecodeTWindow, B(t.batch_replica * t.kv_share * t.dec.window) + " / (" + bw + ")");
  y.set(F::DecodeTAppend, B(t.append_bytes) + " / (" + bw + ")");
}

void describe_decode_terms(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::DecodeTCompute, "the compute-bound classes' FLOP time above their own reads: " + S(t.step.core()) + " − memory " + y.H(F::DecodeMemoryRoof) +
                               " (" + bound_name(t.step) + ")");
  y.set(F::DecodeTTopk, t.selecting_layers > 0 ? num(t.selecting_layers) + " selecting layers × " + num(hw.lat_sram_ns) + " ns + " +
                                                     num(t.tokens_replica) + " queries × " + num(t.dec.select_keys) +
                                                     " scores × 4 B × 2 passes / " + human(t.sram_bw, "B/s") + " on-chip"
                                               : std::string("no top-k selection"));
  if (t.a2a > 0) {
    y.set(F::DecodeTA2a, num(t.moe_layers) + " MoE layers × (2 × " + num(t.link_lat_a2a * 1e6) + " µs floor + " + num(t.tokens_moe / t.gpus) +
                             " tokens per GPU × " + num_sig(v[F::DecodeDestRanks], 3) + " ranks × (" + num(t.pay_dispatch) + " B FP8 out + " +
                             num(t.pay_combine) + " B BF16 back) × (1 + " + num_sig(v[F::DecodeImbalance], 3) + ") / " +
                             human(t.cross_node ? t.nic_bw : t.link_bw, "B/s") + (t.cross_node ? " over the NIC)" : " over the scale-up link)"));
  } else {
    y.set(F::DecodeTA2a, t.gpus <= 1 ? std::string("one GPU: no all-to-all")
                                     : std::string("no all-to-all: attention is not data-parallel or experts are not spread, so the MoE output is all-reduced"));
  }
  y.set(F::DecodeTAllreduce, t.ar_attn + t.ar_ffn > 0
                                 ? "attention " + S(t.ar_attn) + " (" + num(t.layers) + " × all-reduce over tp " + y.tp + ") + FFN/MoE " + S(t.ar_ffn) +
                                       "; ring: " + num(hw.ar_lat_us) + " µs + 2(n − 1)/n × " + B(t.tokens_replica * m.hidden * 2.0) + " / " +
                                       human(t.link_bw, "B/s") + " each"
                                 : std::string("no all-reduce: nothing is tensor-split"));
  y.set(F::DecodeTOverhead, "Σ over kernel classes of max(0, kernels × " + num(hw.kernel_us) + " µs − both roofs): " + num(t.layers) +
                                " layers launch " + num(t.kernels_per_step) + " kernels, each taking at least " + num(hw.kernel_us) + " µs");
  y.set(F::DecodeTDraft, v[F::DecodeTDraft] > 0 ? num(y.w.spec_tokens) + " draft tokens × " + num(m.draft_layers) + " layer × the one-token step's time per layer"
                                                : std::string("no speculative drafts"));
}

void describe_decode_rates(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  y.set(F::DecodeStepTime, y.classes(t.step) + "; + top-k " + y.H(F::DecodeTTopk) + " + all-to-all " + y.H(F::DecodeTA2a) + " + all-reduce " +
                               y.H(F::DecodeTAllreduce) + " + per-layer costs " + y.H(F::DecodeTOverhead) + " + drafts " + y.H(F::DecodeTDraft) +
                               " + Engram stall " + y.H(F::DecodeTStall));
  y.set(F::DecodeTokensPerStep, w.spec_tokens > 0 ? "(1 − p^(d+1)) / (1 − p) with d = " + num(w.spec_tokens) + " drafts, p = " + num(w.spec_accept) + " accepted each"
                                                  : std::string("1: no speculative decoding"));
  y.set(F::DecodeTpot, y.H(F::DecodeStepTime) + " / " + num_sig(t.accepted, 4) + " tokens per step");
  y.set(F::DecodeTokensPerS, num(w.batch) + " sessions × " + num_sig(t.accepted, 4) + " / " + y.H(F::DecodeStepTime));
  y.set(F::DecodeTokensPerSGpu, y.H(F::DecodeTokensPerS) + " / " + y.gpus + " GPUs");
  y.set(F::DecodeWeightShare, y.H(F::DecodeWeightBytes) + " / (" + y.H(F::DecodeWeightBytes) + " + " + y.H(F::DecodeKvBytes) + ")");
  y.set(F::DecodeCrossoverBatch, v[F::DecodeCrossoverBatch] == 1 ? std::string("compute-bound from batch 1")
                                 : v[F::DecodeCrossoverBatch] == 0
                                     ? std::string("the compute roof never meets the memory roof below batch 2^27")
                                     : "the batch at which compute roof = memory roof, found by bisection at this context (HBM capacity not applied)");
}

}  // namespace tierscope::model::topics
