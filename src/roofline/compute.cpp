// The numeric core of the model: placement on each GPU, then a roofline for every timed step, in closed
// form (no per-token or per-session loops). Formulas and sources are in docs/model.md. This file holds the
// shared passes every topic builds on and the driver that calls the topics (topic_*.cpp) in order.
//
// Sections: a pass's roofs (bound_name, Pass::close) · kernel counts per layer · what a layer range reads
// (read_sums) · the expert load (ep_const) · a layer range's work (layers_work, add_work) · the decode and
// prompt passes (decode_pass, prompt_pass, prefill_of) · feasibility reasons · Engram's fetch path ·
// compute_values and its scopes · compute_all, the driver. The parameter count is model/param_count.cpp's.
#include "roofline/topics.h"

namespace tierscope::model {

const char* bound_name(const Pass& p) {
  if (p.t_by_launch > p.t_by_compute && p.t_by_launch > p.t_by_memory) return "launch-bound";
  return p.t_by_compute > p.t_by_memory ? "compute-bound" : "memory-bound";
}

const char* work_class_name(WorkClass c) {
  switch (c) {
    case WorkClass::Dense: return "dense projections";
    case WorkClass::Experts: return "routed experts";
    case WorkClass::Attention: return "attention";
    case WorkClass::Index: return "indexer";
    case WorkClass::Count: break;
  }
  return "";
}

void Pass::close(const double* rate, const double* bw) {
  flop = 0;
  t_compute = t_memory = t_by_compute = t_by_memory = t_by_launch = t_above_memory = t_above_roofs = 0;
  for (int i = 0; i < kWorkClasses; ++i) {
    rate_c[i] = rate[i];
    bw_c[i] = bw[i];
    flop += flop_c[i];
    const double c = rate[i] > 0 ? flop_c[i] / rate[i] : 0.0, m = bw[i] > 0 ? bytes_c[i] / bw[i] : 0.0, f = floor_c[i];
    t_compute += c;
    t_memory += m;
    t_above_memory += std::max(0.0, c - m);
    // A kernel takes its launch floor or its roofline time plus its ramp, whichever is longer (summed over
    // the class's kernels): a small slice of a matrix streams far below the HBM roof.
    const double rp = ramp(i), roof = std::max(c, m);
    t_above_roofs += std::max(rp, f - roof) + small_c[i];
    if (f > roof + rp) t_by_launch += f;
    else {
      t_by_launch += rp;
      if (c > m) t_by_compute += c;
      else t_by_memory += m;
    }
    t_by_launch += small_c[i];
  }
}

void Pass::close(const double* rate, double bw) {
  const double b[kWorkClasses] = {bw, bw, bw, bw};
  close(rate, b);
}

namespace topics {

namespace {

// Kernels per layer, by class (docs/model.md: what a decode layer launches in the engines' fused form).
constexpr double kKernelsNorms = 1;        // the norms, fused with the residual add
constexpr double kKernelsMhaProj = 2;      // QKV, output
constexpr double kKernelsLatentProj = 4;   // fused down-projections, query up, key/value up (or absorb), output
constexpr double kKernelsGroupedOut = 1;   // the grouped low-rank output of V4-style attention
constexpr double kKernelsDenseFfn = 2;     // gate-up, down (activation fused)
constexpr double kKernelsRouter = 1;       // router GEMM with top-k
constexpr double kKernelsShared = 2;       // shared expert gate-up, down
constexpr double kKernelsExperts = 3;      // permute, grouped gate-up, grouped down (with combine)
constexpr double kKernelsLatentMoe = 3;    // a latent MoE's down-projection, the latent's norm, the up-projection
constexpr double kKernelsAttention = 2;    // cache write with RoPE, attention
constexpr double kKernelsIndexer = 3;      // index query projection, scoring, top-k
constexpr double kKernelsEngram = 2;       // hashed row gather, gate
// A linear-attention layer's kernels beyond the GQA layer's projections and attention counted above, from the
// engines' model code (SGLang's Qwen3.5 Gated DeltaNet and the flash-linear-attention chunk path it runs): a
// prompt pass adds the gate projection (in_proj_ba), the split of the fused projections, the causal conv1d,
// the gating, the chunked delta rule's l2 norms of q and k, gate cumsum, K·Kᵀ, triangular solve, W/U, state
// recurrence over 64-token chunks and output, and the gated norm (thirteen, less the two attention kernels
// and the one small kernel a GQA layer already counts); decode runs the gate projection, the split, the conv
// update, one fused gating-and-recurrent-update kernel and the gated norm (five, less the same three). Mamba-2's
// chunked scan (cumsum, chunk state, state passing, chunk bmm, chunk scan) and KDA's chunk path launch
// sets of the same size.
constexpr double kKernelsLinearPrompt = 10;
constexpr double kKernelsLinearDecode = 2;

}  // namespace

ReadSums read_sums(const ModelArch& m, const LayerPlan& plan, int range, double ctx, const KvSizes& z) {
  ReadSums r;
  for (int g = 0; g < plan.group_count[range]; ++g) {
    const LayerGroup& grp = plan.groups[range][g];
    const LayerRead x = layer_read(m, grp.role, ctx);
    const double n = grp.count;
    r.fullpool += n * x.fullpool_bytes(z);
    r.pool += n * x.pool_bytes(z);
    r.gather += n * x.gather_bytes(z);
    r.dense += n * x.dense_bytes(z);
    r.window += n * x.window_bytes(z);
    r.state += n * x.state_bytes(z);
    r.state_layers += n * x.state;
    r.gather_rows += n * x.gathered;
    if (x.gathered > 0) r.rows_all += n * x.rows;
    r.positions += n * x.positions();
    r.keys += n * x.keys_scored();
    if (x.mode == LayerMode::Full || x.mode == LayerMode::Reindex) r.select_keys += n * x.keys_scored();
  }
  return r;
}

EpConst ep_const(double E, double k, int ep, double skew, int node_ranks) {
  EpConst x;
  const ExpertLoad one = expert_load(E, k, ep, 1);  // the formulas' constants, from the public function
  x.E = E;
  x.k = k;
  x.ep = ep;
  x.per_rank = ep > 0 ? E / ep : 0;
  x.miss = E > 0 ? std::max(0.0, 1.0 - k / E) : 1.0;
  x.var = E > 1 && ep > 1 ? k * (1.0 / ep) * (E - k) / (E - 1.0) : 0.0;  // effective, per token (parallel.h)
  x.pair_miss = E > 1 ? std::max(0.0, (E - k) * (E - k - 1.0) / (E * (E - 1.0))) : 0.0;
  x.skew = std::max(1.0, skew);
  x.c = one.c;
  x.dest = one.dest_ranks;
  x.dest_nodes = node_ranks > 0 ? remote_dest_nodes(E, k, ep, node_ranks) : 0.0;
  return x;
}

void class_rates(const Ctx& c, double tokens, double rows_expert, double* rate, double* bw) {
  const EngineRates& e = c.er;
  const double b = c.t.bw_raw;
  rate[0] = c.peak_raw[0] * e.gemm.flop_at(tokens);
  bw[0] = b * e.gemm.bw_at(tokens);
  rate[1] = c.peak_raw[1] * e.expert.flop_at(rows_expert);
  bw[1] = b * e.expert.bw_at(rows_expert);
  rate[2] = c.peak_raw[2] * e.attn_flop;
  bw[2] = b * e.attn_bw;
  rate[3] = c.peak_raw[3] * e.index_flop;
  bw[3] = b * e.index_bw;
}

void close_at(const Ctx& c, Pass& p, double tokens, double rows_expert) {
  double rate[kWorkClasses], bw[kWorkClasses];
  class_rates(c, std::max(1.0, tokens), rows_expert, rate, bw);
  p.close(rate, bw);
}

Work layers_work(const Ctx& c, int range, double tokens, double moe_tokens, const ReadSums& r, double queries, bool pre) {
  const ModelArch& m = c.m;
  const Terms& t = c.t;
  const RangeInfo& ri = c.range[range];
  Work w;
  if (ri.n <= 0 || tokens <= 0) return w;
  const double n = ri.n, n_moe = ri.n_moe, n_dffn = ri.n_dffn;
  w.layers = n;
  const double p_ffn_dense = n_moe * m.shared_experts * t.p_shared_expert + n_dffn * ffn_matrices(m) * m.dense_inter * c.H;
  const double p_router = n_moe * m.experts * c.H;
  w.w_dense = (ri.p_attn + p_ffn_dense) * t.bpv_dense / t.tp + p_router * t.bpv_head;
  w.flop_dense = 2.0 * tokens * ((ri.p_attn + p_ffn_dense) / t.tp + p_router);
  if (t.p_latent_layer > 0) {
    // A latent MoE's down- and up-projections, whole on every GPU (SGLang's ReplicatedLinear, BF16) like the
    // router: each GPU streams them and runs them on its replica's tokens.
    const double p_latent = n_moe * t.p_latent_layer;
    w.w_dense += p_latent * t.bpv_dense;
    w.flop_dense += 2.0 * tokens * p_latent;
  }
  if (n_moe > 0) {
    w.load = load_at(c.epc, moe_tokens);
    w.w_experts = n_moe * w.load.distinct_busiest * t.p_expert * t.bpv_experts / t.mt;
    w.flop_experts = 2.0 * t.p_expert * n_moe * w.load.busiest / t.mt;
    w.rows_expert = w.load.distinct_busiest > 0 ? std::max(1.0, w.load.busiest / w.load.distinct_busiest) : 1.0;
  }
  w.tokens = tokens;
  w.flop_attn = queries * (r.positions * (pre ? c.attn_flop_pre : c.attn_flop_dec) + r.state_layers * c.lin_flop) / t.tp;
  w.flop_index = queries * r.keys * c.key_flop / t.tp;
  w.flop_experts_all = 2.0 * t.p_expert * n_moe * moe_tokens * c.k;
  w.flop_all = (w.flop_dense + w.flop_attn + w.flop_index) * t.tp + w.flop_experts_all;
  // Kernel floors: every kernel takes at least its launch cost, however little it has to do (decode
  // replays CUDA graphs up to the engine's captured batch; prompts run eagerly).
  const double ks = pre ? c.prefill_kernel_s : c.kernel_s;
  w.kernel_s = ks;
  w.ramp_s = c.ramp_s;
  const bool latent = m.attn != AttnKind::MHA || m.q_lora > 0;
  const double per_layer = kKernelsNorms + (latent ? kKernelsLatentProj : kKernelsMhaProj) + (m.o_lora > 0 ? kKernelsGroupedOut : 0);
  w.floor_dense = ks * (n * per_layer + n_dffn * kKernelsDenseFfn +
                                n_moe * (kKernelsRouter + (m.shared_experts > 0 ? kKernelsShared : 0)) + ri.engram_layers * kKernelsEngram);
  if (t.p_latent_layer > 0) w.floor_dense += ks * n_moe * kKernelsLatentMoe;
  w.floor_experts = ks * n_moe * kKernelsExperts;
  w.floor_attn = ks * (n * kKernelsAttention + ri.linear_layers * (pre ? kKernelsLinearPrompt : kKernelsLinearDecode));
  w.floor_index = ks * ri.index_layers * kKernelsIndexer;
  const SmallKernels& sk = c.er.small;
  w.small_dense = ks * n_dffn * sk.dense_ffn;
  w.small_experts = ks * n_moe * sk.moe;
  w.small_attn = ks * n * (latent ? sk.attn_latent : sk.attn_gqa);
  // Collectives per layer: an all-reduce after attention when heads are split; the FFN's reduction, or
  // the MoE all-to-all when attention is data-parallel and experts are spread.
  const double act = tokens * c.H * kActBytes;
  if (t.tp > 1) {
    const double one = c.allreduce(t.tp, act);
    w.ar_attn = n * one;
    w.ar_ffn += n_dffn * one;
    w.comm_lat += (n + n_dffn) * c.allreduce_lat(t.tp);
    w.ar_count_tp = n + n_dffn;
    w.ar_bytes_tp = act;
  }
  if (n_moe > 0 && t.gpus > 1) {
    if (t.dp > 1 && t.ep > 1) {
      // Low-latency kernels send each token-expert assignment on its own (expert-major), so the busiest
      // rank receives its assignments; normal kernels send a token once per destination rank.
      const A2aKind kind = c.s.engine.a2a;
      w.a2a_ll = kind == A2aKind::LowLatency || (kind == A2aKind::Auto && !pre);
      const double pay = t.pay_dispatch + t.pay_combine;
      const double per_dest = moe_tokens / t.gpus * (1.0 + w.load.imbalance()) * pay;
      w.a2a_bytes = w.a2a_ll ? w.load.busiest * pay : per_dest * w.load.dest_ranks;
      double wire = w.a2a_bytes / (t.cross_node ? t.nic_bw : t.link_bw);
      if (!w.a2a_ll && t.cross_node) {
        // Normal kernels across nodes send a token once per remote node over RDMA and forward it to its
        // ranks there over NVLink; the two run pipelined, so the slower of the two sets the phase.
        w.a2a_node_bytes = per_dest * c.epc.dest_nodes;
        wire = std::max(w.a2a_node_bytes / t.nic_bw, w.a2a_bytes / t.link_bw);
      }
      w.a2a = n_moe * (2.0 * t.link_lat_a2a + wire);
      w.comm_lat += n_moe * 2.0 * t.link_lat_a2a;
    } else {
      // A latent MoE reduces the routed experts' latent-wide sum before its norm and up-projection, and the
      // shared experts' hidden-wide sum beside it, in one collective (SGLang's concat reduce).
      const double width = has_latent_experts(m) ? m.expert_latent + (m.shared_experts > 0 ? c.H : 0.0) : c.H;
      const double moe_act = (t.dp > 1 ? moe_tokens : tokens) * width * kActBytes;
      w.ar_ffn += n_moe * c.allreduce(t.gpus, moe_act);
      w.comm_lat += n_moe * c.allreduce_lat(t.gpus);
      w.ar_count_moe = n_moe;
      w.ar_bytes_moe = moe_act;
    }
  }
  return w;
}

// Fills a pass's four classes from one or more works (each taken `times` times).
void add_work(Pass& p, const Work& w, double times) {
  if (w.kernel_s > 0) p.launch_s = w.kernel_s, p.ramp_s = w.ramp_s;
  p.flop_c[0] += times * w.flop_dense;
  p.bytes_c[0] += times * w.w_dense;
  p.floor_c[0] += times * w.floor_dense;
  p.small_c[0] += times * w.small_dense;
  p.small_c[1] += times * w.small_experts;
  p.small_c[2] += times * w.small_attn;
  p.flop_c[1] += times * w.flop_experts;
  p.bytes_c[1] += times * w.w_experts;
  p.floor_c[1] += times * w.floor_experts;
  p.flop_c[2] += times * w.flop_attn;
  p.floor_c[2] += times * w.floor_attn;
  p.flop_c[3] += times * w.flop_index;
  p.floor_c[3] += times * w.floor_index;
  p.t_comm += times * w.comm();
  p.t_comm_lat += times * w.comm_lat;
}

// The decode step for `batch` sessions with `q` query tokens each, plus `extra` tokens of one session that
// ride along (a replayed window) reading `extra_kv` more bytes.
Pass decode_pass(const Ctx& c, double batch, double q, double extra, double extra_kv, Work* out_work,
                 double* out_kv) {
  const Terms& t = c.t;
  const double br = std::ceil(batch / t.dp - 1e-9);
  const double tokens = br * q + extra;
  const double moe_tokens = batch * q + extra;
  const Work w = layers_work(c, LayerPlan::All, tokens, moe_tokens, t.dec, tokens, false);
  const double gather = std::min(t.dec.gather * q, t.dec.rows_all * c.z.main);
  const double kv = br * t.kv_share * (t.dec.fullpool + t.dec.pool + gather + t.dec.dense + t.dec.window) + extra_kv;
  const double append = tokens * t.kv_share * (c.b_tok + (t.window_layers + t.chunk_layers) * c.z.swa);
  const double index = br * t.kv_share * (t.dec.fullpool + t.dec.pool);
  // A linear-attention layer reads its session's fixed state once per step and writes it back.
  const double state = 2.0 * br * t.lin_share * t.dec.state;
  Pass p;
  add_work(p, w, 1);
  p.flop_c[0] += 2.0 * t.p_head * tokens / t.tp;
  p.bytes_c[0] += t.w_head;
  p.bytes_c[2] += kv - index + append + state;
  p.bytes_c[3] += index;
  close_at(c, p, tokens, w.rows_expert);
  p.flop_all = (w.flop_all - w.flop_experts_all) * t.dp + w.flop_experts_all + 2.0 * t.p_head * batch * q;
  p.weight_bytes = w.weights() + t.w_head;
  p.kv_bytes = kv + append + state;
  if (out_work) *out_work = w;
  if (out_kv) *out_kv = kv + state;
  return p;
}

namespace {

// One replica's share of a work whose experts saw `dp` replicas' tokens: every GPU's dense and attention
// FLOP, and the experts' FLOP for this replica's tokens alone.
double own_flop(const Work& w, double dp) { return w.flop_all - w.flop_experts_all * (1.0 - 1.0 / dp); }

// A prompt: `full` tokens through the layers before the last KV source (chunked, each query seeing
// `ctx_full` positions on average), then `win` tokens through the rest (seeing `ctx_win`), on one replica.
// Under data-parallel attention the replicas step together through every MoE layer (idle ranks run dummy
// batches), so at load every replica prefills a prompt of its own at once: the experts see `dp` prompts'
// tokens and the all-to-all carries them all. flop_all counts this prompt's own FLOP (its tokens at the
// experts), not the other replicas'.
PromptPasses prompt_pass(const Ctx& c, double full, double win, double ctx_full, double ctx_win, double* chunk_weights,
                         Work* full_out, Work* win_out, double* proj_out) {
  const Terms& t = c.t;
  const ModelArch& m = c.m;
  PromptPasses pp;
  if (full <= 0 && win <= 0) return pp;
  const double chunks = full > 0 ? std::ceil(full / std::max(1, c.s.work.chunk)) : 0.0;
  pp.chunks = chunks;
  const int split = c.plan().split;
  Work fw, ww;
  if (chunks > 0) {
    const double per = full / chunks;
    const ReadSums r = read_sums(m, c.plan(), LayerPlan::BeforeSplit, ctx_full, c.z);
    fw = layers_work(c, LayerPlan::BeforeSplit, per, per * t.dp, r, per, true);
  }
  if (win > 0) {
    const ReadSums r = read_sums(m, c.plan(), LayerPlan::FromSplit, ctx_win, c.z);
    ww = layers_work(c, LayerPlan::FromSplit, win, win * t.dp, r, win, true);
  }
  // The sources from the split on still project every prompt token into their cache.
  double proj_flop = 0;
  if (full > 0) {
    for (int i = split; i < m.layer_count; ++i) {
      if (owns_kv(m.layers[static_cast<std::size_t>(i)].mode)) proj_flop += 2.0 * c.H * kv_dims(m) * full / t.tp;
    }
  }
  Pass& f = pp.full;
  add_work(f, fw, chunks);
  f.bytes_c[2] += full * t.kv_share * c.b_tok;  // the prompt's global KV written as it is authored
  // Chunked layers write each token's KV too (kept until their chunk ends); linear layers read and write their
  // state once per chunk.
  f.bytes_c[2] += full * t.kv_share * t.chunk_layers * c.z.swa + 2.0 * chunks * t.lin_share * c.state_session;
  close_at(c, f, fw.tokens, fw.rows_expert);
  f.flop_all = chunks * own_flop(fw, t.dp);
  f.weight_bytes = chunks * fw.weights();
  f.kv_bytes = f.bytes_c[2];
  Pass& g = pp.win;
  add_work(g, ww, 1);
  g.flop_c[0] += proj_flop + 2.0 * t.p_head / t.tp;
  g.bytes_c[0] += t.w_head;
  g.bytes_c[2] += win * t.kv_share * t.window_layers * c.z.swa;
  close_at(c, g, ww.tokens, ww.rows_expert);
  g.flop_all = own_flop(ww, t.dp) + proj_flop * t.tp + 2.0 * t.p_head;
  g.weight_bytes = ww.weights() + t.w_head;
  g.kv_bytes = g.bytes_c[2];
  if (chunk_weights) *chunk_weights = fw.weights();
  if (full_out) *full_out = fw;
  if (win_out) *win_out = ww;
  if (proj_out) *proj_out = proj_flop;
  return pp;
}

}  // namespace

// Fresh prompt of n tokens after `before` cached ones: causal average before the split, the last window
// (or last token) after it.
PromptPasses prefill_of(const Ctx& c, double n, double before, double* chunk_w, Work* fw, Work* ww, double* proj) {
  if (n <= 0) return PromptPasses{};
  const double win = c.m.n_win > 0 ? std::min<double>(c.m.n_win, n) : 1.0;
  return prompt_pass(c, n, win, before + n / 2.0, before + n, chunk_w, fw, ww, proj);
}

void add_infeasible(Terms& t, Infeasible kind, std::string_view field, double value, double limit, const char* unit, double setting) {
  if (t.infeasible_count >= kMaxInfeasible) return;
  t.infeasible[t.infeasible_count++] = InfeasibleReason{kind, field, value, limit, unit, setting};
}

}  // namespace topics

double engram_fetch_time(const Terms& t, EngramHome home, double bytes) {
  switch (home) {
    case EngramHome::Dram: return host_transfer_time(t, bytes);
    case EngramHome::Remote: return t.rdma_lat + bytes / t.nic_bw;
    case EngramHome::Hbm:
    case EngramHome::Count: break;
  }
  return t.hbm_lat + hbm_transfer_time(t, bytes);
}

namespace topics {

void compute_through_decode(Ctx& c, Values& v, const LayerPlan* given) {
  if (given) c.plan_ptr = given;  // the layer plan: the caller's, or planned here
  else plan_layers(c.m, c.own);
  compute_params(c, v);         // parameters by part, bytes per value
  compute_kv_layout(c, v);      // KV owners, entry sizes, bytes per token and per session
  compute_kv_reads(c, v);       // what one decode query reads at ctx
  compute_engram_tables(c, v);  // the Engram tables' rows and bytes
  compute_weights(c, v);        // whole-model weight bytes at their stored formats
  compute_hardware(c, v);       // catalog facts, achieved rates, each class's FLOP rate
  compute_placement(c, v);      // the parallel layout, what each GPU holds, sessions in HBM
  compute_feasibility(c, v);
  compute_decode_step(c, v);    // the decode step on the busiest GPU
  compute_decode_terms(c, v);
  compute_engram_stall(c, v);
  compute_decode_rates(c, v);
}

}  // namespace topics

namespace {

// The whole evaluation, topic by topic, each reading what the ones before it filled; `given` is s.model's
// layer plan when the caller already has it, and `scope` leaves out the passes no requested figure needs.
void compute_all(const Scenario& s, const LayerPlan* given, Computed& out, unsigned scope) {
  using namespace topics;
  Terms& t = out.terms;
  Values& v = out.values;
  t = Terms{};
  v = Values{};
  Ctx c(s, t);
  compute_through_decode(c, v, given);
  compute_reload_path(c, v);    // what a prefix hit's reload climbs (the simulators read it too)
  if (scope & kScopeCrossover) compute_crossover(c, v);
  compute_sparse_reads(c, v);   // per session per step on one GPU
  compute_swa(c, v);            // the window's restore and pool, a resumed session's KV
  if (scope & kScopePrompt) compute_prefill(c, v);
  if (replays_window(s.model) && (scope & kScopeReplay)) compute_replay(c, v);
  compute_turn_cost(c, v);      // the prefix hit's size and the turn's price
  compute_ssd_capacity(c, v);
  if (!(scope & kScopePrompt)) return;
  compute_prefix(c, v);         // promotion, the window's replay, the rest of the prompt, recompute
  compute_offload(c, v);        // each tier's TTFT at the load against recomputing
  if (scope & kScopeOffload) compute_offload_flips(c, v);  // where the sign flips: a search
  compute_serving(c, v);        // each step also carries the prefill of arriving prompts
  compute_ssd_retention(c, v);  // the node's KV persisted at the serving rate
  compute_handoff(c, v);        // the prompt's KV handed from a prefill worker to the decode instance
}

}  // namespace

void compute_values(const Scenario& s, Computed& out) { compute_all(s, nullptr, out, kScopeAll); }
void compute_values(const Scenario& s, const LayerPlan& plan, Computed& out, unsigned scope) { compute_all(s, &plan, out, scope); }

unsigned figure_scope(FigureId id) {
  using F = FigureId;
  switch (id) {
    case F::DecodeCrossoverBatch: return kScopeCrossover;
    case F::ReplayFlop:
    case F::ReplayTime:
    case F::ReplayTimeStandalone:
    case F::ReplayWeightBytes: return kScopeReplay;
    case F::PrefillFlop:
    case F::PrefillTime:
    case F::PrefillFullTime:
    case F::PrefillWindowTime:
    case F::PrefillChunkWeightBytes:
    case F::PrefixHitBytes:
    case F::PrefixSsdReadTime:
    case F::PrefixUploadTime:
    case F::PrefixSsdPathTime:
    case F::PrefixHitTime:
    case F::PrefixReplayTime:
    case F::PrefixRestTime:
    case F::PrefixRecomputeTime:
    case F::PrefixTtftMiss:
    case F::PrefixTtftHit:
    case F::PrefixSpeedup:
    case F::OffloadHitBytes:
    case F::OffloadUploadRate:
    case F::OffloadSsdRate:
    case F::OffloadTtftOff:
    case F::OffloadTtftHbm:
    case F::OffloadTtftDram:
    case F::OffloadTtftSsd:
    case F::OffloadChangeDram:
    case F::OffloadChangeSsd:
    case F::ServePrefillShare:
    case F::ServeTpot:
    case F::ServeTokensPerSGpu:
    case F::SsdWriteRate:
    case F::SsdRetentionBytes:
    case F::SsdDwpdNeeded:
    case F::SsdRetentionHours:
    case F::PdKvBytes:
    case F::PdPages:
    case F::PdWireTime:
    case F::PdTransferTime: return kScopePrompt;
    case F::OffloadFlipHitDram:
    case F::OffloadFlipHitSsd:
    case F::OffloadFlipLoadDram:
    case F::OffloadFlipLoadSsd: return kScopePrompt | kScopeOffload;
    default: return 0;
  }
}

}  // namespace tierscope::model
