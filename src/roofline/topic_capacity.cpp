// Placement and capacity: the parallel layout, what each GPU holds of the weights and of a session's KV,
// how many sessions fit in HBM, and whether the setup can run at all, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// The parallel layout and the fabric its collectives use.
void layout(Ctx& c, const Values& v) {
  const Scenario& s = c.s;
  const Hardware& hw = s.hw;
  Terms& t = c.t;
  t.gpus = std::max(1, hw.gpus);
  t.tp = std::max(1, s.par.tp);
  t.dp = std::max(1, s.par.dp);
  t.ep = std::max(1, s.par.ep);
  // Real routing's floor on the busiest rank: the balancer's residual with redundant slots, else the skew.
  const double skew = routing_skew(s.par);
  t.mt = std::max(1.0, t.gpus / t.ep);
  t.node_gpus = node_gpus(hw);
  t.cross_node = t.gpus > link_domain(hw);
  // Ranks per scale-up domain, in EP ranks: what normal all-to-all kernels fan out to over NVLink.
  const int domain_ranks = static_cast<int>(std::max(1.0, link_domain(hw) / t.mt));
  c.epc = ep_const(c.E, c.k, static_cast<int>(t.ep), skew, t.cross_node ? domain_ranks : 0);
  t.link_bw = v[F::HwLinkBw] * hw.link_eff;
  t.link_lat_ar = hw.ar_lat_us * 1e-6;
  t.rdma_lat_ar = hw.ar_rdma_lat_us * 1e-6;
  t.link_lat_a2a = (t.cross_node ? hw.a2a_rdma_lat_us : hw.a2a_lat_us) * 1e-6;
}

}  // namespace

void compute_placement(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Hardware& hw = c.s.hw;
  Terms& t = c.t;
  layout(c, v);
  // Attention, shared experts and dense FFN are split by TP and copied per replica; routed experts are
  // spread over all GPUs; the router is copied everywhere; embedding and head are split by TP; Engram
  // tables in HBM are row-sharded over the instance.
  t.w_attn = t.p_attn * t.bpv_dense / t.tp;
  // A tensor parallel wider than the KV heads keeps each KV head (and its K, V projections) on tp ÷ kv_heads GPUs.
  if (m.attn == AttnKind::MHA && m.kv_heads > 0 && t.tp > m.kv_heads) t.w_attn += t.p_kv_proj * t.bpv_dense * (1.0 / m.kv_heads - 1.0 / t.tp);
  t.w_dense = (t.p_shared + t.p_dense_ffn) * t.bpv_dense / t.tp;
  t.w_experts = t.moe_layers * c.E * t.p_expert * t.bpv_experts / t.gpus;
  t.w_router = t.p_router * t.bpv_head;
  // A latent MoE's projections are whole on every GPU (SGLang's ReplicatedLinear), like the router.
  t.w_latent = t.p_latent_proj * t.bpv_dense;
  t.w_head = t.p_head * t.bpv_head / t.tp;
  const double w_emb = t.p_emb * t.bpv_head / t.tp;
  t.w_engram = m.engram_home == EngramHome::Hbm ? v[F::EngramTableBytes] / t.gpus : 0.0;
  const double resident = t.w_attn + t.w_dense + t.w_experts + t.w_router + t.w_latent + t.w_head + w_emb + t.w_engram;
  v[F::HbmWeightsPerGpu] = resident;
  v[F::HbmWeights] = resident * t.gpus;
  // A single-latent (Latent, MLA) cache has one KV head, so TP copies it to every rank; GQA splits heads.
  // Wider than the KV heads, each head is copied on tp ÷ kv_heads GPUs (engines replicate it).
  t.kv_share = m.attn == AttnKind::MHA ? std::max(1.0 / t.tp, m.kv_heads > 0 ? 1.0 / m.kv_heads : 1.0) : 1.0;
  // A linear-attention state is split over tp by its value heads.
  t.lin_share = m.lin_v_heads > 0 ? std::max(1.0 / t.tp, 1.0 / m.lin_v_heads) : 1.0;
  v[F::HbmKvCopies] = t.kv_share * t.tp;
  v[F::HbmKvSessionPerGpu] = (v[F::KvPerSession] - c.state_session) * t.kv_share + c.state_session * t.lin_share;
  t.usable = v[F::HwHbmPerGpu] * hw.hbm_usable - hw.workspace_gb * 1e9;
  v[F::HbmKvBudget] = t.usable - resident;
  t.sessions_raw = v[F::HbmKvSessionPerGpu] > 0 ? std::max(0.0, v[F::HbmKvBudget]) / v[F::HbmKvSessionPerGpu] : 0.0;
  t.sessions_replica = std::floor(t.sessions_raw);
  // Capacity: what fits in HBM, at most the engine's running-batch cap (model/engine.h).
  t.sessions_hbm = t.sessions_replica * t.dp;
  t.batch_cap = c.er.max_batch;
  v[F::HbmSessions] = std::min(t.sessions_hbm, t.batch_cap);
  v[F::HbmSessionsPerGpu] = v[F::HbmSessions] / t.gpus;
  const double instances_per_node = t.gpus <= t.node_gpus ? std::floor(t.node_gpus / t.gpus) : t.node_gpus / t.gpus;
  v[F::HbmSessionsPerNode] = std::floor(v[F::HbmSessions] * instances_per_node);
}

void compute_feasibility(Ctx& c, const Values& v) {
  const ModelArch& m = c.m;
  const Hardware& hw = c.s.hw;
  const Workload& w = c.s.work;
  Terms& t = c.t;
  const double resident = v[F::HbmWeightsPerGpu];
  if (resident > t.usable) add_infeasible(t, Infeasible::WeightsDoNotFit, "gpus", resident, t.usable, "B", hw.gpus);
  else if (t.sessions_replica < 1) add_infeasible(t, Infeasible::KvDoesNotFit, "ctx", v[F::HbmKvSessionPerGpu], v[F::HbmKvBudget], "B", w.ctx);
  else if (w.batch > v[F::HbmSessions]) {
    add_infeasible(t, Infeasible::BatchOverCapacity, "batch", w.batch, v[F::HbmSessions], "sessions", w.batch);
    // Name the engine's cap when it, not HBM, is what the batch runs into.
    if (t.batch_cap < t.sessions_hbm) t.infeasible[t.infeasible_count - 1].engine_cap = t.batch_cap;
  }
  if (m.max_pos > 0 && w.ctx > m.max_pos) add_infeasible(t, Infeasible::CtxOverMaxPos, "ctx", w.ctx, m.max_pos, "tokens", w.ctx);
  if (m.max_pos > 0 && w.prompt > m.max_pos) add_infeasible(t, Infeasible::PromptOverMaxPos, "prompt", w.prompt, m.max_pos, "tokens", w.prompt);
}

namespace {

Expr by_tp(Expr e, double tp) { return tp > 1 ? std::move(e) / n(tp).named("tp") : e; }

// The K and V projections of a head tensor parallel copies: each GPU holds a whole head's, not 1/tp of one
// (out of line, as describe_copies).
[[gnu::noinline]] Expr copied_kv_projections(const Say& y) {
  const Terms& t = y.t;
  return (q(t.p_kv_proj * t.bpv_dense, "B", "K and V projections") * (n(1) / n(y.m.kv_heads, "KV heads") - n(1) / n(t.tp, "tp")))
      .named("copied with their KV heads");
}

// What one GPU holds of the weights: the TP-split parts, its share of the expert slots, the router whole.
Expr weights_per_gpu(const Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const double slots = m.experts + (m.experts > 0 ? y.s.par.redundant : 0);  // as compute_params counts them
  Expr e = by_tp(q(t.p_attn * t.bpv_dense, "B", "attention"), t.tp);
  if (m.attn == AttnKind::MHA && m.kv_heads > 0 && t.tp > m.kv_heads) e = std::move(e) + copied_kv_projections(y);
  if (t.p_shared + t.p_dense_ffn > 0) {
    const char* what = t.p_shared > 0 && t.p_dense_ffn > 0 ? "shared experts and dense FFN" : t.p_shared > 0 ? "shared experts" : "dense FFN";
    e = std::move(e) + by_tp(q((t.p_shared + t.p_dense_ffn) * t.bpv_dense, "B", what), t.tp);
  }
  if (t.moe_layers > 0 && slots > 0) {
    e = std::move(e) + q(t.moe_layers * slots * t.p_expert * t.bpv_experts, "B", "routed expert slots") / n(t.gpus, "GPUs");
  }
  if (t.w_router > 0) e = std::move(e) + std::move(q(t.w_router, "B", "router").note("every GPU"));
  if (t.w_latent > 0) e = std::move(e) + std::move(q(t.w_latent, "B", "latent projections").note("every GPU"));
  e = std::move(e) + by_tp(q((t.p_head + t.p_emb) * t.bpv_head, "B", "head and embedding"), t.tp);
  if (t.w_engram > 0) {
    e = std::move(e) + std::move((q(y.v[F::EngramTableBytes], "B", "Engram tables") / n(t.gpus, "GPUs")).note("row-sharded in HBM"));
  } else if (m.engram_count > 0) {
    e.note("Engram tables outside HBM");
  }
  return e;
}

// Whole sessions: ⌊budget / one session's KV⌋, the budget at least nothing.
Expr sessions_per_replica(const Say& y) {
  const double budget = y.v[F::HbmKvBudget];
  Expr room = budget >= 0 ? q(budget, "B", "KV budget") : max_of({q(0, "B"), q(budget, "B", "KV budget")});
  return floor_of(std::move(room) / q(y.v[F::HbmKvSessionPerGpu], "B", "one session"));
}

// The KV of a tensor parallel wider than the KV heads, and a recurrent state beside the KV (out of line: the
// first frame's model has neither, so its module does not carry them).
[[gnu::noinline]] void describe_copies(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  if (m.attn == AttnKind::MHA && t.tp > m.kv_heads) {
    // Wider than the KV heads, tensor parallel keeps a copy of each head on tp ÷ kv_heads GPUs.
    y.set(F::HbmKvCopies, std::move((n(t.tp, "GPUs") / n(m.kv_heads, "KV heads"))
                                        .note("engines copy each KV head on tp ÷ kv_heads GPUs; each copy takes HBM")));
  } else if (m.attn == AttnKind::MHA) {
    y.set(F::HbmKvCopies, n(t.tp, "GPUs") * (n(m.kv_heads / t.tp, "KV heads") / n(m.kv_heads, "KV heads")));
  } else {
    y.set(F::HbmKvCopies, std::move(n(t.tp, "GPUs").note("one KV head: whole on every GPU")));
  }
  const double state = v[F::KvRecurrentPerSession];
  if (state > 0) {
    // Attention KV at its share; the recurrent state split over tp by its heads.
    Expr kv = q(v[F::KvPerSession] - state, "B", "session's KV") * sig(t.kv_share, 6, "share per GPU");
    y.set(F::HbmKvSessionPerGpu, std::move(kv) + q(state, "B", "recurrent state") * sig(t.lin_share, 6, "share per GPU"));
  } else {
    y.set(F::HbmKvSessionPerGpu, std::move((q(v[F::KvPerSession], "B", "session's KV") / n(m.kv_heads).named("kv_heads"))
                                               .note("one KV head per GPU, copied on " + num(t.tp / m.kv_heads) + " GPUs")));
  }
}

}  // namespace

void describe_placement(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::HbmWeightsPerGpu, weights_per_gpu(y));
  {
    Expr e = n(t.gpus, "GPUs") * q(v[F::HbmWeightsPerGpu], "B", "per GPU");
    if (t.dp > 1) e.note("the TP-split parts are copied in each of " + num(t.dp) + " replicas");
    y.set(F::HbmWeights, std::move(e));
  }
  const bool wide = m.attn == AttnKind::MHA && t.tp > m.kv_heads;
  if (wide || v[F::KvRecurrentPerSession] > 0) {
    describe_copies(y);  // out of line: the first frame's model has neither
  } else if (m.attn == AttnKind::MHA) {
    // Each GPU of a replica holds its share of the KV heads: one copy in all.
    y.set(F::HbmKvCopies, n(t.tp, "GPUs") * (n(m.kv_heads / t.tp, "KV heads") / n(m.kv_heads, "KV heads")));
  } else {
    y.set(F::HbmKvCopies, std::move(n(t.tp, "GPUs").note(std::string(m.attn == AttnKind::MLA ? "an MLA latent" : "one shared latent") +
                                                         " per token has a single KV head, which tensor parallelism cannot split: each GPU of "
                                                         "a replica holds every session's KV")));
  }
  if (wide || v[F::KvRecurrentPerSession] > 0) {
    // written by describe_copies
  } else if (t.kv_share < 1) {
    y.set(F::HbmKvSessionPerGpu, q(v[F::KvPerSession], "B", "session's KV") / n(t.tp).named("tp"));
  } else {
    y.set(F::HbmKvSessionPerGpu, std::move(q(v[F::KvPerSession], "B", "session's KV").note("whole, on every GPU of the replica")));
  }
  y.set(F::HbmKvBudget, q(v[F::HwHbmPerGpu], "B", "HBM") * n(hw.hbm_usable).named("usable") - q(hw.workspace_gb * 1e9, "B", "workspace") -
                            q(v[F::HbmWeightsPerGpu], "B", "weights per GPU"));
  if (v[F::HbmKvSessionPerGpu] > 0) {
    // Capacity: the sessions HBM holds, at most the engine's running-batch cap (max_batch or its default).
    Expr hbm = t.dp > 1 ? sessions_per_replica(y).named("per replica") * n(t.dp, "replicas") : sessions_per_replica(y);
    y.set(F::HbmSessions, min_of({std::move(hbm.named("in HBM")), n(t.batch_cap, y.s.engine.max_batch > 0 ? "max_batch" : "the engine's default cap")})
                              .note(y.s.engine.max_batch > 0 ? std::string("max_batch set")
                                                             : std::string(engine_label(y.s.engine.kind)) + " caps each replica at " +
                                                                   num(t.batch_cap / t.dp) + " running sessions"));
  }
  else y.set(F::HbmSessions, words("no KV per session: capacity not bounded by HBM"));
  {
    Expr e = q(v[F::HbmSessions], "sessions") / n(t.gpus, "GPUs");
    if (t.kv_share >= 1 && t.tp > 1) e.note("each GPU of a replica still holds the KV of all its replica's sessions");
    y.set(F::HbmSessionsPerGpu, std::move(e));
  }
  if (t.gpus <= t.node_gpus) {
    y.set(F::HbmSessionsPerNode, floor_of(n(t.node_gpus, "GPUs per node") / n(t.gpus, "GPUs")).named("instances") * q(v[F::HbmSessions], "sessions"));
  } else {
    y.set(F::HbmSessionsPerNode, floor_of(q(v[F::HbmSessions], "sessions") * (n(t.node_gpus, "GPUs per node") / n(t.gpus, "GPUs of the instance"))));
  }
}

}  // namespace tierscope::model::topics
