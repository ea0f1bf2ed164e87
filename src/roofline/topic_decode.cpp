// The decode step on the busiest GPU: its expert load, bytes and FLOP, the step split into named terms,
// its rates, and the batch where the roofs cross, with their formulas.
//
// Sections: compute_decode_step (load, bytes, roofs) · compute_decode_terms (the step's terms) ·
// compute_decode_rates (step time, tokens per second) · compute_crossover (regula falsi on the roofs) ·
// describe_decode_experts · describe_decode_bytes · describe_decode_terms · describe_decode_rates.
#include "roofline/step_terms.h"
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
  double launched = 0;
  for (int i = 0; i < kWorkClasses; ++i) launched += st.floor_c[i] + st.small_c[i];
  t.kernels_per_step = c.kernel_s > 0 ? launched / c.kernel_s : 0.0;
  t.ar_attn = dw.ar_attn;
  t.ar_ffn = dw.ar_ffn;
  t.a2a = t.a2a_serial = dw.a2a;
  t.a2a_layer_bytes = dw.a2a_bytes;
  t.dest_nodes = c.epc.dest_nodes;
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

// The step split into the terms a profile shows (step_terms.h), and the drafts.
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
  v[F::DecodeTState] = 2.0 * t.batch_replica * t.lin_share * t.dec.state / st.bw_c[2];
  v[F::DecodeTAppend] = t.append_bytes / st.bw_c[2];
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
  const double idx_sess = t.kv_share * (t.dec.fullpool + t.dec.pool);
  const double kv_sess = t.kv_share * (std::min(t.dec.gather * t.q, t.dec.rows_all * z.main) + t.dec.dense + t.dec.window) +
                        2.0 * t.lin_share * t.dec.state;
  const double app_tok = t.kv_share * (c.b_tok + (t.window_layers + t.chunk_layers) * z.swa);
  // Both roofs at each class's own rates for this batch's M (class_rates), as the step takes them.
  auto gap = [&](double x) {
    const double b = std::exp2(x), br = b / t.dp, tokens = br * t.q;
    const ExpertLoad l = load_at(c.epc, b * t.q);
    const double rows = l.distinct_busiest > 0 ? std::max(1.0, l.busiest / l.distinct_busiest) : 1.0;
    double rate[kWorkClasses], bw[kWorkClasses];
    class_rates(c, std::max(1.0, tokens), rows, rate, bw);
    const double comp = tokens * fd / rate[0] + (n_moe > 0 ? 2.0 * t.p_expert * n_moe * l.busiest / t.mt / rate[1] : 0.0) +
                        tokens * fa / rate[2] + tokens * fi / rate[3];
    const double mem = wd / bw[0] + n_moe * l.distinct_busiest * t.p_expert * t.bpv_experts / t.mt / bw[1] + (br * kv_sess + tokens * app_tok) / bw[2] +
                       br * idx_sess / bw[3];
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
Expr skew_leaf(const Scenario& s) {
  return s.par.redundant > 0 ? n(routing_skew(s.par)).named("EPLB floor") : n(routing_skew(s.par)).named(s.par.route_skew > 0 ? "routing skew" : "routing skew at this EP size");
}

// One all-reduce over `ranks` GPUs, the ring model of parallel.h: latency + 2(n − 1)/n × bytes / bandwidth.
Expr ring(const Say& y, double ranks, double bytes) {
  const bool far = ranks > link_domain(y.hw);
  return q(far ? y.t.rdma_lat_ar : y.t.link_lat_ar, "s", "latency") +
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
  const double slots = m.experts + y.s.par.redundant, per = slots / ep, skew = routing_skew(y.s.par);
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

namespace {

// One class's time at one of its roofs, as the pass ran it: "dense projections 3.2 GB / 6.4 TB/s".
Expr class_bytes(const Pass& p, int i, std::string_view what) {
  return (q(p.bytes_c[i], "B", what) / q(p.bw_c[i], "B/s")).named(work_class_name(static_cast<WorkClass>(i)));
}
Expr class_flop(const Pass& p, int i) {
  return (q(p.flop_c[i], "FLOP") / q(p.rate_c[i], "FLOP/s")).named(work_class_name(static_cast<WorkClass>(i)));
}
// Σ over the classes with work of one roof (bytes or FLOP), each at the class's own achieved rate.
Expr roof_sum(const Pass& p, bool memory) {
  std::vector<Expr> parts;
  for (int i = 0; i < kWorkClasses; ++i) {
    if (memory && p.bytes_c[i] > 0 && p.bw_c[i] > 0) parts.push_back(class_bytes(p, i, ""));
    if (!memory && p.flop_c[i] > 0 && p.rate_c[i] > 0) parts.push_back(class_flop(p, i));
  }
  return sum_of(std::move(parts));
}
// Σ over the classes of max(0, a − b) with a, b each class's (compute, memory) or (floor, both roofs).
Expr above_sum(const Pass& p, bool floors) {
  std::vector<Expr> parts;
  for (int i = 0; i < kWorkClasses; ++i) {
    const bool has_c = p.flop_c[i] > 0 && p.rate_c[i] > 0, has_m = p.bytes_c[i] > 0 && p.bw_c[i] > 0;
    const Expr c = has_c ? q(p.flop_c[i] / p.rate_c[i], "s", "compute") : q(0, "s", "compute");
    const Expr m = has_m ? q(p.bytes_c[i] / p.bw_c[i], "s", "memory") : q(0, "s", "memory");
    if (floors) {
      if ((p.floor_c[i] <= 0 && p.small_c[i] <= 0) || p.launch_s <= 0) continue;
      const Expr ramps = p.ramp_s > 0 ? n(p.floor_c[i] / p.launch_s, "kernels") * q(p.ramp_s, "s", "ramp") : q(0, "s");
      Expr part = max_of({n(p.floor_c[i] / p.launch_s, "kernels") * q(p.launch_s, "s") - max_of({c, m}), ramps});
      if (p.small_c[i] > 0) part = std::move(part) + n(p.small_c[i] / p.launch_s, "small kernels") * q(p.launch_s, "s");
      parts.push_back(std::move(part).named(work_class_name(static_cast<WorkClass>(i))));
    } else {
      if (!has_c) continue;
      parts.push_back(max_of({c - m, q(0, "s")}).named(work_class_name(static_cast<WorkClass>(i))));
    }
  }
  return parts.empty() ? q(0, "s") : sum_of(std::move(parts));
}

}  // namespace

namespace {

// The recurrent states a step reads and writes back (out of line: the first frame's model has none).
[[gnu::noinline]] Expr state_bytes(const Say& y) {
  const Terms& t = y.t;
  return (n(2) * n(t.batch_replica, "sessions") * sig(t.lin_share, 6, "of each state") * q(t.dec.state, "B", "recurrent state"))
      .named("recurrent states read and written back");
}
[[gnu::noinline]] void describe_state_read(Say& y) {
  const Terms& t = y.t;
  y.set(F::DecodeTState, (n(2).named("read and written back") * n(t.batch_replica, "sessions on the busiest replica") *
                          sig(t.lin_share, 6, "of each state") * q(t.dec.state, "B", "recurrent state")) /
                             q(t.step.bw_c[2], "B/s", "attention"));
}

}  // namespace

void describe_decode_bytes(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const Pass& st = t.step;
  Expr weights = q(t.w_step_dense, "B", t.p_latent_proj > 0 ? "attention, dense parts, latent projections, router and head" : "attention, dense parts, router and head");
  if (t.w_step_experts > 0) {
    weights = weights + (n(t.moe_layers, "MoE layers") * sig(v[F::DecodeExpertsPerRank], 4, "experts") * q(t.p_expert, "params") *
                         sig(t.bpv_experts, 6, "B") / n(t.mt, "ways each expert is split"))
                            .named("routed experts");
  }
  y.set(F::DecodeWeightBytes, std::move(weights.note("one GPU of " + num(t.gpus))));
  const double gather_q = std::min(t.dec.gather * t.q, t.dec.rows_all * v[F::KvMainEntry]);
  Expr per_session = q(t.dec.fullpool, "B", "full-pool scan") + q(t.dec.pool, "B", "candidate scoring") + q(gather_q, "B", "sparse gather") +
                     q(t.dec.dense, "B", "dense reads") + q(t.dec.window, "B", "SWA window");
  Expr kv_bytes = n(t.batch_replica, "sessions on the busiest replica") * sig(t.kv_share, 6, "of each session's KV") * per_session +
                  q(t.append_bytes, "B", "appends");
  if (t.dec.state > 0) kv_bytes = std::move(kv_bytes) + state_bytes(y);
  y.set(F::DecodeKvBytes, std::move(kv_bytes));
  y.set(F::DecodeFlop, (q(t.flop_dense, "FLOP", "dense and attention projections") + q(t.flop_experts, "FLOP", "routed experts (busiest rank)") +
                        q(t.flop_attn, "FLOP", "attention core") + q(t.flop_index, "FLOP", "indexer"))
                           .note("one GPU of " + num(t.gpus)));
  y.set(F::DecodeMemoryRoof, roof_sum(st, true).note("each class at its own share of HBM bandwidth"));
  y.set(F::DecodeComputeRoof, roof_sum(st, false).note("each class at its own share of peak FLOP/s at its M"));
  Expr tw = class_bytes(st, 0, "weights and head");
  if (st.bytes_c[1] > 0) tw = tw + class_bytes(st, 1, "expert weights");
  y.set(F::DecodeTWeights, std::move(tw));
  const double kvb = t.batch_replica * t.kv_share;
  y.set(F::DecodeTIndex, st.bytes_c[3] > 0 ? class_bytes(st, 3, "index keys") : q(0, "s").note("no indexer"));
  y.set(F::DecodeTGather, q(kvb * (gather_q + t.dec.dense), "B", "sparse gather and dense reads") / q(st.bw_c[2], "B/s", "attention"));
  y.set(F::DecodeTWindow, q(kvb * t.dec.window, "B", "SWA window") / q(st.bw_c[2], "B/s", "attention"));
  y.set(F::DecodeTAppend, q(t.append_bytes, "B", "appends") / q(st.bw_c[2], "B/s", "attention"));
  if (t.dec.state > 0) {
    describe_state_read(y);
  } else {
    y.set(F::DecodeTState, q(0, "s").note("no linear-attention layer"));
  }
}

namespace {

// The step's all-to-all (serial, or what two-batch overlap leaves) and its all-reduces.
void describe_collectives(Say& y) {
  const Terms& t = y.t;
  if (t.a2a_serial > 0) {
    const double bw = t.cross_node ? t.nic_bw : t.link_bw;
    const bool latent = has_latent_experts(y.m);  // a latent MoE dispatches and combines its latent, not the hidden state
    const Expr pay = (q(t.pay_dispatch, "B", latent ? "FP8 dispatch of the latent" : "FP8 dispatch") +
                      q(t.pay_combine, "B", latent ? "BF16 combine of the latent" : "BF16 combine"));
    const auto per_dest = [&] {
      return n(t.tokens_moe, "tokens") / n(t.gpus, "GPUs") * (n(1) + sig(y.v[F::DecodeImbalance], 6, "imbalance")) * pay;
    };
    Expr wire = q(0, "s");
    if (t.a2a_ll) {
      wire = (sig(y.v[F::DecodeBusiestRank], 6, "assignments", "busiest rank") * pay).named("low-latency kernels, expert-major") / q(bw, "B/s");
    } else if (t.cross_node) {
      // Normal kernels across nodes: once per remote node over RDMA, fanned out over NVLink, pipelined.
      wire = max_of({(per_dest() * sig(t.dest_nodes, 6, "remote nodes")).named("RDMA, once per node") / q(t.nic_bw, "B/s", "NIC"),
                     (per_dest() * sig(y.v[F::DecodeDestRanks], 6, "ranks")).named("NVLink fan-out") / q(t.link_bw, "B/s", "scale-up link")});
    } else {
      wire = (per_dest() * sig(y.v[F::DecodeDestRanks], 6, "ranks")).named("normal kernels, rank-major") / q(bw, "B/s");
    }
    Expr serial = n(t.moe_layers, "MoE layers") * (n(2) * q(t.link_lat_a2a, "s", "floor") + std::move(wire));
    serial.note(t.cross_node ? (t.a2a_ll ? "over the NIC" : "normal kernels: RDMA between nodes, NVLink within") : "over the scale-up link");
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
    if (t.ar_count_moe > 0) {
      Expr moe = (n(t.ar_count_moe, "MoE all-reduces") * ring(y, t.gpus, t.ar_bytes_moe)).named("over " + y.gpus + " GPUs");
      if (has_latent_experts(y.m)) moe.note("the routed experts' latent-wide sum" + std::string(y.m.shared_experts > 0 ? " and the shared experts' hidden-wide one" : ""));
      parts.push_back(std::move(moe));
    }
    y.set(F::DecodeTAllreduce, sum_of(std::move(parts)).note("ring"));
  } else {
    y.set(F::DecodeTAllreduce, words("no all-reduce: nothing is tensor-split"));
  }
}

}  // namespace

void describe_decode_terms(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::DecodeTCompute, above_sum(t.step, false).note("what each compute-bound class's FLOP time adds above its own reads"));
  if (t.selecting_layers > 0) {
    y.set(F::DecodeTTopk, (n(t.selecting_layers, "selecting layers") * q(topk_call_s(), "s", "a call") +
                           n(t.tokens_replica, "queries") * n(t.dec.select_keys, "candidate scores each") / n(topk_rate(y.s), "keys/s"))
                              .note("a radix-select kernel over each selecting layer's candidates: a fixed time per call plus the scores at its streaming rate"));
  } else {
    y.set(F::DecodeTTopk, words("no top-k selection"));
  }
  describe_collectives(y);
  y.set(F::DecodeTOverhead, above_sum(t.step, true).note(num(t.kernels_per_step) + " kernels per step, each at least " + num(t.kernel_us) + " µs (" +
                                                           (t.cuda_graphs ? "replayed from CUDA graphs)" : "launched eagerly)")));
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
  // Each term once: the classes' max(compute, memory, launch floor) carry the reads, compute and kernel
  // floors; the terms the roofs do not hold follow, in their places (step_terms.h).
  Expr step = y.classes_expr(t.step);
  for (int place = 1;; ++place) {
    const DecodeTermDef* at = nullptr;
    for (const DecodeTermDef& d : kDecodeTerms)
      if (d.formula_place == place) at = &d;
    if (!at) break;
    step = std::move(step) + q(v[at->figures[0]], "s", at->formula_name);
  }
  y.set(F::DecodeStepTime, std::move(step).note(bound_name(t.step)));
  y.set(F::DecodeTHost, (max_of({(q(t.host_us * 1e-6, "s", "host per step") + q(t.host_per_seq_us * 1e-6, "s") * n(t.batch_replica, "sessions")) -
                                     q(t.gpu_step, "s", "GPU step"),
                                 q(0, "s")}) +
                         q(t.host_res_us * 1e-6, "s", "residual"))
                            .note(std::string(engine_label(y.s.engine.kind)) + " runs the host one step ahead: only what outlasts the GPU shows"));
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
  y.set(F::DecodeTpot, q(v[F::DecodeStepTime], "s", "step") / sig(t.accepted, 6, "tokens per step"));
  y.set(F::DecodeTokensPerS, n(std::max(1, w.batch), "sessions") * sig(t.accepted, 6, "tokens per step") / q(v[F::DecodeStepTime], "s", "step"));
  y.set(F::DecodeTokensPerSGpu, q(v[F::DecodeTokensPerS], "tokens/s") / n(t.gpus, "GPUs"));
  y.set(F::DecodeWeightShare, q(v[F::DecodeWeightBytes], "B", "weights") / (q(v[F::DecodeWeightBytes], "B", "weights") + q(v[F::DecodeKvBytes], "B", "KV")));
  y.set(F::DecodeCrossoverBatch, words(v[F::DecodeCrossoverBatch] == 1 ? std::string("compute-bound from batch 1")
                                       : v[F::DecodeCrossoverBatch] == 0
                                           ? std::string("the compute roof stays below the memory roof up to batch 2^27")
                                           : "the batch at which compute roof = memory roof, found by regula falsi at this context (HBM capacity not applied)"));
}

}  // namespace tierscope::model::topics
