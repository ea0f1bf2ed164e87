// The decode step on the busiest GPU: its expert load, bytes and FLOP, the step split into named terms,
// its rates, and the batch where the roofs cross, with their formulas.
//
// Sections: compute_decode_step (load, bytes, roofs) · compute_decode_terms (the step's terms) ·
// compute_decode_rates (step time, tokens per second) · compute_crossover (regula falsi on the roofs) ·
// describe_decode_experts · describe_decode_bytes · describe_decode_terms · describe_decode_rates.
#include "roofline/topics.h"

namespace tierscope::model::topics {

// --- Values ------------------------------------------------------------------------------------------

namespace {

// Two-batch overlap where the engine runs it: SGLang and DeepSeek split the step when attention is
// data-parallel over expert parallelism and the all-to-all leaves the NVLink domain (H100 EP72 runs it;
// NVLink-only GB200 NVL72 turned it off, FACTS-parallel §3.7).
bool runs_tbo(const Ctx& c) {
  const Terms& t = c.t;
  if (t.dp <= 1 || t.ep <= 1 || t.gpus <= 1) return false;
  switch (c.s.engine.tbo) {
    case Tbo::On: return true;
    case Tbo::Off: return false;
    case Tbo::Auto:
    case Tbo::Count: break;
  }
  const EngineKind e = c.s.engine.kind;
  return (e == EngineKind::Sglang || e == EngineKind::Deepseek) && t.cross_node;
}

// Under two-batch overlap each half's all-to-all runs behind the other half's compute: the step takes
// 2 × max(half compute, half all-to-all), each half reading the weights again. What the step pays for the
// all-to-all is that minus the one-pass compute (negative where the overlap wins more than it hides).
void overlap_two_batches(Ctx& c, double batch) {
  Terms& t = c.t;
  Work hw;
  const Pass half = decode_pass(c, batch / 2.0, t.q, 0, 0, &hw);
  t.tbo_core_half = half.core();
  t.tbo_a2a_half = hw.a2a;
  t.tbo_core_full = t.step.core();
  t.a2a = 2.0 * std::max(t.tbo_core_half, t.tbo_a2a_half) - t.tbo_core_full;
  t.step.t_comm += t.a2a - t.a2a_serial;
}

}  // namespace

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
  t.a2a = t.a2a_serial = dw.a2a;
  t.a2a_layer_bytes = dw.a2a_bytes;
  t.ar_count_tp = dw.ar_count_tp;
  t.ar_count_moe = dw.ar_count_moe;
  t.ar_bytes_tp = dw.ar_bytes_tp;
  t.ar_bytes_moe = dw.ar_bytes_moe;
  t.a2a_ll = dw.a2a_ll;
  t.tbo = dw.a2a > 0 && batch >= 2 && runs_tbo(c);
  if (t.tbo) overlap_two_batches(c, batch);
  v[F::DecodeDistinctExperts] = distinct_experts(m.experts, c.k, t.tokens_moe);
  v[F::DecodeExpertsPerRank] = dw.load.distinct_busiest;
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
  v[F::DecodeTWeights] = hbm_transfer_time(t, st.weight_bytes);
  v[F::DecodeTIndex] = hbm_transfer_time(t, kvb * (t.dec.fullpool + t.dec.pool));
  v[F::DecodeTGather] = hbm_transfer_time(t, kvb * (gather_q + t.dec.dense));
  v[F::DecodeTWindow] = hbm_transfer_time(t, kvb * t.dec.window);
  v[F::DecodeTAppend] = hbm_transfer_time(t, t.append_bytes);
  v[F::DecodeTCompute] = st.t_above_memory;
  v[F::DecodeTTopk] = topk_select_time(c, t.tokens_replica);
  v[F::DecodeTA2a] = t.a2a;
  v[F::DecodeTAllreduce] = t.ar_attn + t.ar_ffn;
  v[F::DecodeTOverhead] = st.t_above_roofs;
  if (d > 0 && m.draft_layers > 0) {
    // Each draft token runs the draft module's layer(s) at the batch's M (one token per session), reading
    // its own weights and KV like an average layer of the one-token step, then the head for its logits.
    const Pass one = decode_pass(c, c.batch, 1.0, 0, 0);
    const double head_flop = 2.0 * t.p_head * t.batch_replica / t.tp;
    t.draft_head = std::max(c.peak[0] > 0 ? head_flop / c.peak[0] : 0.0, t.bw > 0 ? t.w_head / t.bw : 0.0);
    t.draft_one = one.time();
    t.draft_layer = (t.draft_one - t.draft_head) / std::max(1.0, t.layers);
    v[F::DecodeTDraft] = d * (m.draft_layers * t.draft_layer + t.draft_head);
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
  v[F::DecodeStepTime] = st.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft] + v[F::DecodeTStall];
  const double p = std::clamp(w.spec_accept, 0.0, 1.0);
  // An engine's reported acceptance length (accepted drafts + the bonus token) wins over the per-draft chance.
  t.accepted = d <= 0                   ? 1.0
               : w.spec_accept_len > 0 ? std::clamp(w.spec_accept_len, 1.0, d + 1.0)
               : p < 1.0               ? (1.0 - std::pow(p, d + 1.0)) / (1.0 - p)
                                       : d + 1.0;
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
    const double mem = (wd + n_moe * l.distinct_busiest * t.p_expert * t.bpv_experts / t.mt + br * kv_sess + tokens * app_tok) / t.bw;
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

namespace {

// The skew real routing puts on the busiest rank, as the load used it (topic_capacity.cpp).
double routing_skew(const Scenario& s) { return std::max(1.0, s.par.redundant > 0 ? 1.0 + s.par.eplb_residual : s.par.route_skew); }
Expr skew_leaf(const Scenario& s) {
  return s.par.redundant > 0 ? n(routing_skew(s)).named("EPLB floor") : n(routing_skew(s)).named("routing skew");
}

// One all-reduce over `ranks` GPUs, the ring model of parallel.h: latency + 2(n − 1)/n × bytes / bandwidth.
Expr ring(const Say& y, double ranks, double bytes) {
  const bool far = ranks > link_domain(y.hw);
  return q(far ? y.t.rdma_lat : y.t.link_lat_ar, "s", "latency") +
         n(2.0 * (ranks - 1) / ranks) * q(bytes, "B") / q(far ? y.t.nic_bw : y.t.link_bw, "B/s");
}

}  // namespace

void describe_decode_experts(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  if (m.experts <= 0) {
    for (F id : {F::DecodeDistinctExperts, F::DecodeExpertsPerRank, F::DecodeBusiestRank, F::DecodeImbalance, F::DecodeDestRanks})
      y.set(id, words("dense model, no experts"));
    return;
  }
  const double T = t.tokens_moe, k = m.experts_per_token, ep = t.ep;
  const double slots = m.experts + y.s.par.redundant, per = slots / ep, skew = routing_skew(y.s);
  const Expr tokens = n(T, "tokens"), picks = n(k);
  y.set(F::DecodeDistinctExperts,
        (n(m.experts) * (n(1) - pow_of(n(1) - picks / n(m.experts), tokens))).note("uniform routing"));
  const ExpertLoad l = expert_load(slots, k, static_cast<int>(ep), T, skew);
  const Expr miss = n(1) - picks / n(slots, "slots");
  if (ep <= 1) {
    y.set(F::DecodeExpertsPerRank, n(slots, "slots") * (n(1) - pow_of(miss, tokens)));
    y.set(F::DecodeBusiestRank, (tokens * picks).note("one expert rank holds every slot"));
  } else {
    Expr uniform_d = sig(l.distinct_uniform, 4, "experts", "uniform routing's busiest rank");
    uniform_d.note("expected max over " + num(ep) + " ranks of a binomial count of " + num(per) + " slots, spread by its exact variance");
    y.set(F::DecodeExpertsPerRank, max_of({std::move(uniform_d), (n(per, "slots per rank") * (n(1) - pow_of(miss, skew_leaf(y.s) * tokens)))
                                                                     .named("the hot rank's traffic")}));
    Expr uniform = sig(l.uniform, 4, "assignments", "uniform routing's busiest rank");
    uniform.note("expected max of " + num(ep) + " fixed-sum rank counts: Poisson shape, spread √(T·k/ep·(E − k)/(E − 1)), c(" + num(ep) + ") = " +
                 num_sig(l.c, 4));
    y.set(F::DecodeBusiestRank, min_of({(tokens * n(std::min(k, per))).named("cap"),
                                        max_of({std::move(uniform), skew_leaf(y.s) * (tokens * picks / n(ep, "ranks")).named("mean")})}));
  }
  const double mean = T * k / std::max(1.0, ep);
  y.set(F::DecodeImbalance, mean > 0 ? sig(v[F::DecodeBusiestRank], 6, "assignments", "busiest") / sig(mean, 6, "", "mean") - n(1)
                                     : words("no tokens"));
  if (ep <= 1) {
    y.set(F::DecodeDestRanks, n(1, "rank").note("one expert rank"));
  } else {
    Expr none = sig(1.0 - v[F::DecodeDestRanks] / ep, 6, "", "C(" + num(slots) + " − " + num(per) + ", " + num(k) + ") / C(" + num(slots) + ", " + num(k) + ")");
    y.set(F::DecodeDestRanks, n(ep, "ranks") * (n(1) - std::move(none)));
  }
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

namespace {

// The step's all-to-all (serial, or what two-batch overlap leaves) and its all-reduces.
void describe_collectives(Say& y) {
  const Terms& t = y.t;
  if (t.a2a_serial > 0) {
    const double bw = t.cross_node ? t.nic_bw : t.link_bw;
    const Expr pay = (q(t.pay_dispatch, "B", "FP8 dispatch") + q(t.pay_combine, "B", "BF16 combine"));
    Expr bytes = t.a2a_ll ? (sig(y.v[F::DecodeBusiestRank], 6, "assignments", "busiest rank") * pay).named("low-latency kernels, expert-major")
                          : (n(t.tokens_moe, "tokens") / n(t.gpus, "GPUs") * sig(y.v[F::DecodeDestRanks], 6, "ranks") *
                             (n(1) + sig(y.v[F::DecodeImbalance], 6, "imbalance")) * pay)
                                .named("normal kernels, rank-major");
    Expr serial = n(t.moe_layers, "MoE layers") * (n(2) * q(t.link_lat_a2a, "s", "floor") + std::move(bytes) / q(bw, "B/s"));
    serial.note(t.cross_node ? "over the NIC" : "over the scale-up link");
    if (t.tbo) {
      y.set(F::DecodeTA2a, (n(2) * max_of({q(t.tbo_core_half, "s", "half-batch compute"), q(t.tbo_a2a_half, "s", "half-batch all-to-all")}) -
                            q(t.tbo_core_full, "s", "one-pass compute"))
                               .note("two-batch overlap: each half's all-to-all behind the other's compute; un-overlapped " + S(t.a2a_serial)));
    } else {
      y.set(F::DecodeTA2a, std::move(serial));
    }
  } else {
    y.set(F::DecodeTA2a, t.gpus <= 1 ? words("one GPU: no all-to-all")
                                     : words("no all-to-all: attention is not data-parallel or experts are not spread, so the MoE output is all-reduced"));
  }
  if (t.ar_attn + t.ar_ffn > 0) {
    std::vector<Expr> parts;
    if (t.ar_count_tp > 0) parts.push_back((n(t.ar_count_tp, "attention and dense-FFN all-reduces") * ring(y, t.tp, t.ar_bytes_tp)).named("over tp " + y.tp));
    if (t.ar_count_moe > 0) parts.push_back((n(t.ar_count_moe, "MoE all-reduces") * ring(y, t.gpus, t.ar_bytes_moe)).named("over " + y.gpus + " GPUs"));
    y.set(F::DecodeTAllreduce, sum_of(std::move(parts)).note("ring"));
  } else {
    y.set(F::DecodeTAllreduce, words("no all-reduce: nothing is tensor-split"));
  }
}

}  // namespace

void describe_decode_terms(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::DecodeTCompute, "the compute-bound classes' FLOP time above their own reads: " + S(t.step.core()) + " − memory " + y.H(F::DecodeMemoryRoof) +
                               " (" + bound_name(t.step) + ")");
  if (t.selecting_layers > 0) {
    y.set(F::DecodeTTopk, (n(t.tokens_replica, "queries") * n(t.dec.select_keys, "candidate scores each") / n(topk_keys_per_s(hw.gpu), "keys/s"))
                              .note("a radix-select kernel over " + num(t.selecting_layers) + " selecting layers' candidates"));
  } else {
    y.set(F::DecodeTTopk, words("no top-k selection"));
  }
  describe_collectives(y);
  y.set(F::DecodeTOverhead, "Σ over kernel classes of max(0, kernels × " + num(hw.kernel_us) + " µs − both roofs): " + num(t.layers) +
                                " layers launch " + num(t.kernels_per_step) + " kernels, each taking at least " + num(hw.kernel_us) + " µs");
  if (v[F::DecodeTDraft] > 0) {
    y.set(F::DecodeTDraft, n(y.w.spec_tokens, "drafts") *
                               (n(m.draft_layers, "draft layer") * ((q(t.draft_one, "s", "one-token step") - q(t.draft_head, "s", "head")) /
                                                                   n(std::max(1.0, t.layers), "layers"))
                                                                      .named("an average layer at the batch") +
                                q(t.draft_head, "s", "head")));
  } else {
    y.set(F::DecodeTDraft, words("no speculative drafts"));
  }
}

void describe_decode_rates(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  y.set(F::DecodeStepTime, y.classes(t.step) + "; + top-k " + y.H(F::DecodeTTopk) + " + all-to-all " + y.H(F::DecodeTA2a) + " + all-reduce " +
                               y.H(F::DecodeTAllreduce) + " + per-layer costs " + y.H(F::DecodeTOverhead) + " + drafts " + y.H(F::DecodeTDraft) +
                               " + Engram stall " + y.H(F::DecodeTStall));
  if (w.spec_tokens <= 0) {
    y.set(F::DecodeTokensPerStep, n(1).note("no speculative decoding"));
  } else if (w.spec_accept_len > 0) {
    y.set(F::DecodeTokensPerStep, max_of({n(1), min_of({n(w.spec_accept_len).named("the engine's acceptance length"), n(w.spec_tokens, "drafts") + n(1)})}));
  } else if (std::clamp(w.spec_accept, 0.0, 1.0) < 1.0) {
    const double p = std::clamp(w.spec_accept, 0.0, 1.0);
    y.set(F::DecodeTokensPerStep, (n(1) - pow_of(n(p).named("p"), n(w.spec_tokens, "drafts") + n(1))) / (n(1) - n(p).named("p")));
  } else {
    y.set(F::DecodeTokensPerStep, n(w.spec_tokens, "drafts") + n(1));
  }
  y.set(F::DecodeTpot, y.H(F::DecodeStepTime) + " / " + num_sig(t.accepted, 4) + " tokens per step");
  y.set(F::DecodeTokensPerS, num(w.batch) + " sessions × " + num_sig(t.accepted, 4) + " / " + y.H(F::DecodeStepTime));
  y.set(F::DecodeTokensPerSGpu, y.H(F::DecodeTokensPerS) + " / " + y.gpus + " GPUs");
  y.set(F::DecodeWeightShare, y.H(F::DecodeWeightBytes) + " / (" + y.H(F::DecodeWeightBytes) + " + " + y.H(F::DecodeKvBytes) + ")");
  y.set(F::DecodeCrossoverBatch, words(v[F::DecodeCrossoverBatch] == 1 ? std::string("compute-bound from batch 1")
                                       : v[F::DecodeCrossoverBatch] == 0
                                           ? std::string("the compute roof stays below the memory roof up to batch 2^27")
                                           : "the batch at which compute roof = memory roof, found by regula falsi at this context (HBM capacity not applied)"));
}

}  // namespace tierscope::model::topics
