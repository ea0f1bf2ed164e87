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
  c.epc = ep_const(c.E, c.k, static_cast<int>(t.ep));
  t.mt = std::max(1.0, t.gpus / t.ep);
  t.node_gpus = node_gpus(hw);
  t.cross_node = t.gpus > link_domain(hw);
  t.link_bw = v[F::HwLinkBw] * hw.link_eff;
  t.link_lat_ar = hw.ar_lat_us * 1e-6;
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
  t.w_dense = (t.p_shared + t.p_dense_ffn) * t.bpv_dense / t.tp;
  t.w_experts = t.moe_layers * c.E * t.p_expert * t.bpv_experts / t.gpus;
  t.w_router = t.p_router * t.bpv_head;
  t.w_head = t.p_head * t.bpv_head / t.tp;
  const double w_emb = t.p_emb * t.bpv_head / t.tp;
  t.w_engram = m.engram_home == EngramHome::Hbm ? v[F::EngramTableBytes] / t.gpus : 0.0;
  const double resident = t.w_attn + t.w_dense + t.w_experts + t.w_router + t.w_head + w_emb + t.w_engram;
  v[F::HbmWeightsPerGpu] = resident;
  v[F::HbmWeights] = resident * t.gpus;
  // A single-latent (Latent, MLA) cache has one KV head, so TP copies it to every rank; GQA splits heads.
  t.kv_share = m.attn == AttnKind::MHA ? 1.0 / t.tp : 1.0;
  v[F::HbmKvCopies] = t.kv_share * t.tp;
  v[F::HbmKvSessionPerGpu] = v[F::KvPerSession] * t.kv_share;
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

void describe_placement(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const std::string& tp = y.tp;
  const std::string& gpus = y.gpus;
  y.set(F::HbmWeightsPerGpu, "attention " + B(t.w_attn * t.tp) + " / tp " + tp + " + shared and dense FFN " + B(t.w_dense * t.tp) + " / " + tp +
                                 " + routed expert slots " + B(t.w_experts * t.gpus) + " / " + gpus + " GPUs + router " + B(t.w_router) +
                                 " (every GPU) + head and embedding " + B((t.p_head + t.p_emb) * t.bpv_head) + " / " + tp +
                                 (t.w_engram > 0 ? " + Engram tables " + y.H(F::EngramTableBytes) + " / " + gpus + " (row-sharded in HBM)"
                                                 : std::string(m.engram_count > 0 ? " (Engram tables outside HBM)" : "")));
  y.set(F::HbmWeights, gpus + " GPUs × " + y.H(F::HbmWeightsPerGpu) + " (the TP-split parts are copied in each of " + num(t.dp) +
                           (t.dp == 1 ? " replica)" : " replicas)"));
  y.set(F::HbmKvCopies, m.attn == AttnKind::MHA
                            ? num(m.kv_heads) + " KV heads split over tp " + tp + ": each GPU holds " + num(m.kv_heads / t.tp) +
                                  " heads, one copy in all"
                            : std::string(m.attn == AttnKind::MLA ? "an MLA latent" : "one shared latent") +
                                  " per token has a single KV head, which tensor parallelism cannot split: each of the " + tp +
                                  " GPUs of a replica holds every session's KV");
  y.set(F::HbmKvSessionPerGpu, y.H(F::KvPerSession) + (t.kv_share < 1 ? " / tp " + tp : std::string(" (whole, on every GPU of the replica)")));
  y.set(F::HbmKvBudget, num(v[F::HwHbmPerGpu] / 1e9) + " GB × " + num(hw.hbm_usable) + " usable − " + num(hw.workspace_gb) +
                            " GB workspace − weights " + y.H(F::HbmWeightsPerGpu) + " per GPU");
  // Capacity: the sessions HBM holds, at most the engine's running-batch cap (max_batch or its default).
  Expr hbm = (floor_of(q(std::max(0.0, v[F::HbmKvBudget]), "B", "KV budget") / q(v[F::HbmKvSessionPerGpu], "B", "per session")) *
              n(t.dp, t.dp == 1 ? "replica" : "replicas"))
                 .named("in HBM");
  y.set(F::HbmSessions, min_of({std::move(hbm), n(t.batch_cap, y.s.engine.max_batch > 0 ? "max_batch" : "the engine's default cap")})
                            .note(y.s.engine.max_batch > 0 ? std::string("max_batch set")
                                                           : std::string(engine_label(y.s.engine.kind)) + " caps each replica at " +
                                                                 num(t.batch_cap / t.dp) + " running sessions"));
  y.set(F::HbmSessionsPerGpu, y.H(F::HbmSessions) + " / " + gpus + " GPUs" +
                                  (t.kv_share >= 1 && t.tp > 1 ? " (each GPU of a replica still holds the KV of all its replica's sessions)" : std::string()));
  y.set(F::HbmSessionsPerNode, t.gpus <= t.node_gpus
                                   ? "⌊" + num(t.node_gpus) + " GPUs per node / " + gpus + "⌋ instances × " + y.H(F::HbmSessions)
                                   : y.H(F::HbmSessions) + " × " + num(t.node_gpus) + "/" + gpus + " of the instance per node");
}

}  // namespace tierscope::model::topics
