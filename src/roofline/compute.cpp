// The numeric core of the model: placement on each GPU, then a roofline for every timed step, in closed
// form (no per-token or per-session loops). Formulas and sources are in docs/model.md.
#include <algorithm>
#include <cmath>

#include "model/layers.h"
#include "model/parallel.h"
#include "roofline/figures.h"
#include "roofline/timing.h"

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

void Pass::close(const double* peak, double bw) {
  flop = 0;
  t_compute = t_memory = t_by_compute = t_by_memory = t_by_launch = t_above_memory = t_above_roofs = 0;
  for (int i = 0; i < kWorkClasses; ++i) {
    flop += flop_c[i];
    const double c = peak[i] > 0 ? flop_c[i] / peak[i] : 0.0, m = bw > 0 ? bytes_c[i] / bw : 0.0, f = floor_c[i];
    t_compute += c;
    t_memory += m;
    t_above_memory += std::max(0.0, c - m);
    t_above_roofs += std::max(0.0, f - std::max(c, m));
    if (f > c && f > m) t_by_launch += f;
    else if (c > m) t_by_compute += c;
    else t_by_memory += m;
  }
}

namespace {

// Activations cross the scale-up link in BF16; MoE dispatch goes in FP8 with one FP32 scale per 128
// values and the combine comes back in BF16 (FACTS-parallel §3.1, DeepSeek's production choice).
constexpr double kActBytes = 2.0;
constexpr double kTopkScoreBytes = 4.0;  // one FP32 score per candidate
constexpr double kTopkPasses = 2.0;      // a radix select reads the scores about twice

// Kernels per layer, by class (docs/model.md: what a decode layer launches in the engines' fused form).
constexpr double kKernelsNorms = 1;        // the norms, fused with the residual add
constexpr double kKernelsMhaProj = 2;      // QKV, output
constexpr double kKernelsLatentProj = 4;   // fused down-projections, query up, key/value up (or absorb), output
constexpr double kKernelsGroupedOut = 1;   // the grouped low-rank output of V4-style attention
constexpr double kKernelsDenseFfn = 2;     // gate-up, down (activation fused)
constexpr double kKernelsRouter = 1;       // router GEMM with top-k
constexpr double kKernelsShared = 2;       // shared expert gate-up, down
constexpr double kKernelsExperts = 3;      // permute, grouped gate-up, grouped down (with combine)
constexpr double kKernelsAttention = 2;    // cache write with RoPE, attention
constexpr double kKernelsIndexer = 3;      // index query projection, scoring, top-k
constexpr double kKernelsEngram = 2;       // hashed row gather, gate

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
    r.gather_rows += n * x.gathered;
    if (x.gathered > 0) r.rows_all += n * x.rows;
    r.positions += n * x.positions();
    r.keys += n * x.keys_scored();
    if (x.mode == LayerMode::Full || x.mode == LayerMode::Reindex) r.select_keys += n * x.keys_scored();
  }
  return r;
}

// What a layer range holds, counted once: layers, MoE and dense-FFN layers, indexing and Engram layers.
struct RangeInfo {
  int first = 0, last = 0;
  double n = 0, n_moe = 0, n_dffn = 0, index_layers = 0, engram_layers = 0;
};

RangeInfo range_info(const ModelArch& m, const LayerPlan& plan, int range) {
  RangeInfo r;
  r.first = range == LayerPlan::FromSplit ? plan.split : 0;
  r.last = range == LayerPlan::BeforeSplit ? plan.split : m.layer_count;
  r.n = std::max(0, r.last - r.first);
  if (m.experts > 0) r.n_moe = std::max(0, r.last - std::max(r.first, m.dense_layers));
  r.n_dffn = r.n - r.n_moe;
  for (int g = 0; g < plan.group_count[range]; ++g) {
    const LayerMode mode = plan.groups[range][g].role.mode;
    if (mode == LayerMode::Full || mode == LayerMode::Reindex) r.index_layers += plan.groups[range][g].count;
  }
  for (int j = 0; j < m.engram_count; ++j) {
    const int id = m.engram_layers[static_cast<std::size_t>(j)];
    if (id >= r.first && id < r.last) r.engram_layers += 1;
  }
  return r;
}

// The expert-parallel constants of a scenario (independent of the token count), so a pass costs one pow
// and one sqrt for its expert load.
struct EpConst {
  double E = 0, k = 0, ep = 1, per_rank = 0, miss = 1, var = 0, c = 0, dest = 1;
};

EpConst ep_const(double E, double k, int ep) {
  EpConst x;
  const ExpertLoad one = expert_load(E, k, ep, 1);  // the formulas' constants, from the public function
  x.E = E;
  x.k = k;
  x.ep = ep;
  x.per_rank = ep > 0 ? E / ep : 0;
  x.miss = E > 0 ? std::max(0.0, 1.0 - k / E) : 1.0;
  x.var = E > 1 && ep > 1 ? k * (1.0 / ep) * (1.0 - 1.0 / ep) * (E - k) / (E - 1.0) : 0.0;
  x.c = one.c;
  x.dest = one.dest_ranks;
  return x;
}

// expert_load() for `tokens`, from the constants (tested against it).
ExpertLoad load_at(const EpConst& x, double tokens) {
  ExpertLoad l;
  if (x.E <= 0 || x.k <= 0 || tokens <= 0) return l;
  l.mean = tokens * x.k / x.ep;
  l.distinct_rank = x.per_rank * (1.0 - std::pow(x.miss, tokens));
  l.c = x.c;
  l.dest_ranks = x.dest;
  if (x.ep <= 1) {
    l.busiest = l.mean;
    return l;
  }
  l.sigma = std::sqrt(tokens * x.var);
  l.busiest = std::min(tokens * std::min(x.k, x.per_rank), l.mean + x.c * l.sigma);
  return l;
}

// Everything the passes below share, worked out once per scenario.
struct Ctx {
  Ctx(const Scenario& scenario, Terms& terms) : s(scenario), m(scenario.model), t(terms), z(kv_sizes(scenario.model)) {}
  const Scenario& s;
  const ModelArch& m;
  Terms& t;
  KvSizes z;
  LayerPlan own;   // filled by plan_layers() unless the caller has the plan (uninitialised until then)
  const LayerPlan* plan_ptr = &own;
  const LayerPlan& plan() const { return *plan_ptr; }
  RangeInfo range[3];
  EpConst epc;
  double H = 0, E = 0, k = 0, L = 0;
  double attn_flop_dec = 0, attn_flop_pre = 0, key_flop = 0;  // per position / per key, whole model width
  double b_tok = 0, swa_session = 0;
  double kernel_s = 0;
  double peak[kWorkClasses] = {};  // FLOP/s × MFU by class

  // Collective over n GPUs: the scale-up link inside its domain, the NIC beyond it.
  double allreduce(double n, double bytes) const {
    const bool far = n > link_domain(s.hw);
    return allreduce_time(static_cast<int>(n), bytes, far ? t.nic_bw : t.link_bw, far ? t.rdma_lat : t.link_lat_ar);
  }
};

// One replica's `tokens` tokens through layers [first, last) on the busiest GPU: FLOP, weight bytes,
// kernel floors and collectives. `moe_tokens` is how many tokens meet in each MoE layer (all replicas'
// under DP attention); `queries` tokens attend with per-query reads `r` (the attention core, the indexer).
struct Work {
  double flop_dense = 0, flop_experts = 0, flop_attn = 0, flop_index = 0;
  double flop_all = 0;  // every GPU of one replica's FLOP together, plus the experts' for all tokens
  double flop_experts_all = 0;
  double w_dense = 0, w_experts = 0;
  double floor_dense = 0, floor_experts = 0, floor_attn = 0, floor_index = 0;
  double ar_attn = 0, ar_ffn = 0, a2a = 0;
  double layers = 0;
  ExpertLoad load;
  double flop() const { return flop_dense + flop_experts + flop_attn + flop_index; }
  double weights() const { return w_dense + w_experts; }
  double comm() const { return ar_attn + ar_ffn + a2a; }
};

Work layers_work(const Ctx& c, int range, double tokens, double moe_tokens, const ReadSums& r, double queries, bool pre) {
  const ModelArch& m = c.m;
  const Terms& t = c.t;
  const RangeInfo& ri = c.range[range];
  Work w;
  if (ri.n <= 0 || tokens <= 0) return w;
  const double n = ri.n, n_moe = ri.n_moe, n_dffn = ri.n_dffn;
  w.layers = n;
  const double p_ffn_dense = n_moe * m.shared_experts * t.p_expert + n_dffn * 3.0 * m.dense_inter * c.H;
  const double p_router = n_moe * m.experts * c.H;
  w.w_dense = (n * t.p_attn_layer + p_ffn_dense) * t.bpv_dense / t.tp + p_router * t.bpv_head;
  w.flop_dense = 2.0 * tokens * ((n * t.p_attn_layer + p_ffn_dense) / t.tp + p_router);
  if (n_moe > 0) {
    w.load = load_at(c.epc, moe_tokens);
    w.w_experts = n_moe * w.load.distinct_rank * t.p_expert * t.bpv_experts / t.mt;
    w.flop_experts = 2.0 * t.p_expert * n_moe * w.load.busiest / t.mt;
  }
  w.flop_attn = queries * r.positions * (pre ? c.attn_flop_pre : c.attn_flop_dec) / t.tp;
  w.flop_index = queries * r.keys * c.key_flop / t.tp;
  w.flop_experts_all = 2.0 * t.p_expert * n_moe * moe_tokens * c.k;
  w.flop_all = (w.flop_dense + w.flop_attn + w.flop_index) * t.tp + w.flop_experts_all;
  // Kernel floors: every kernel takes at least kernel_us, however little it has to do.
  const bool latent = m.attn != AttnKind::MHA || m.q_lora > 0;
  const double per_layer = kKernelsNorms + (latent ? kKernelsLatentProj : kKernelsMhaProj) + (m.o_lora > 0 ? kKernelsGroupedOut : 0);
  w.floor_dense = c.kernel_s * (n * per_layer + n_dffn * kKernelsDenseFfn +
                                n_moe * (kKernelsRouter + (m.shared_experts > 0 ? kKernelsShared : 0)) + ri.engram_layers * kKernelsEngram);
  w.floor_experts = c.kernel_s * n_moe * kKernelsExperts;
  w.floor_attn = c.kernel_s * n * kKernelsAttention;
  w.floor_index = c.kernel_s * ri.index_layers * kKernelsIndexer;
  // Collectives per layer: an all-reduce after attention when heads are split; the FFN's reduction, or
  // the MoE all-to-all when attention is data-parallel and experts are spread.
  const double act = tokens * c.H * kActBytes;
  if (t.tp > 1) w.ar_attn = n * c.allreduce(t.tp, act);
  if (t.tp > 1) w.ar_ffn += n_dffn * c.allreduce(t.tp, act);
  if (n_moe > 0 && t.gpus > 1) {
    if (t.dp > 1 && t.ep > 1) {
      const double per_gpu = moe_tokens / t.gpus;
      const double bytes = per_gpu * w.load.dest_ranks * (t.pay_dispatch + t.pay_combine) * (1.0 + w.load.imbalance());
      w.a2a = n_moe * (2.0 * t.link_lat_a2a + bytes / (t.cross_node ? t.nic_bw : t.link_bw));
    } else {
      const double moe_act = (t.dp > 1 ? moe_tokens : tokens) * c.H * kActBytes;
      w.ar_ffn += n_moe * c.allreduce(t.gpus, moe_act);
    }
  }
  return w;
}

// Fills a pass's four classes from one or more works (each taken `times` times).
void add_work(Pass& p, const Work& w, double times) {
  p.flop_c[0] += times * w.flop_dense;
  p.bytes_c[0] += times * w.w_dense;
  p.floor_c[0] += times * w.floor_dense;
  p.flop_c[1] += times * w.flop_experts;
  p.bytes_c[1] += times * w.w_experts;
  p.floor_c[1] += times * w.floor_experts;
  p.flop_c[2] += times * w.flop_attn;
  p.floor_c[2] += times * w.floor_attn;
  p.flop_c[3] += times * w.flop_index;
  p.floor_c[3] += times * w.floor_index;
  p.t_comm += times * w.comm();
}

// The decode step for `batch` sessions with `q` query tokens each, plus `extra` tokens of one session that
// ride along (a replayed window) reading `extra_kv` more bytes.
Pass decode_pass(const Ctx& c, double batch, double q, double extra, double extra_kv, Work* out_work = nullptr,
                 double* out_kv = nullptr) {
  const Terms& t = c.t;
  const double br = std::ceil(batch / t.dp - 1e-9);
  const double tokens = br * q + extra;
  const double moe_tokens = batch * q + extra;
  const Work w = layers_work(c, LayerPlan::All, tokens, moe_tokens, t.dec, tokens, false);
  const double gather = std::min(t.dec.gather * q, t.dec.rows_all * c.z.main);
  const double kv = br * t.kv_share * (t.dec.fullpool + t.dec.pool + gather + t.dec.dense + t.dec.window) + extra_kv;
  const double append = tokens * t.kv_share * (c.b_tok + t.window_layers * c.z.swa);
  const double index = br * t.kv_share * (t.dec.fullpool + t.dec.pool);
  Pass p;
  add_work(p, w, 1);
  p.flop_c[0] += 2.0 * t.p_head * tokens / t.tp;
  p.bytes_c[0] += t.w_head;
  p.bytes_c[2] += kv - index + append;
  p.bytes_c[3] += index;
  p.close(c.peak, t.bw);
  p.flop_all = (w.flop_all - w.flop_experts_all) * t.dp + w.flop_experts_all + 2.0 * t.p_head * batch * q;
  p.weight_bytes = w.weights() + t.w_head;
  p.kv_bytes = kv + append;
  if (out_work) *out_work = w;
  if (out_kv) *out_kv = kv;
  return p;
}

// A prompt: `full` tokens through the layers before the last KV source (chunked, each query seeing
// `ctx_full` positions on average), then `win` tokens through the rest (seeing `ctx_win`), one replica.
PromptPasses prompt_pass(const Ctx& c, double full, double win, double ctx_full, double ctx_win, double* chunk_weights = nullptr,
                         Work* full_out = nullptr) {
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
    fw = layers_work(c, LayerPlan::BeforeSplit, per, per, r, per, true);
  }
  if (win > 0) {
    const ReadSums r = read_sums(m, c.plan(), LayerPlan::FromSplit, ctx_win, c.z);
    ww = layers_work(c, LayerPlan::FromSplit, win, win, r, win, true);
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
  f.close(c.peak, t.bw);
  f.flop_all = chunks * fw.flop_all;
  f.weight_bytes = chunks * fw.weights();
  f.kv_bytes = f.bytes_c[2];
  Pass& g = pp.win;
  add_work(g, ww, 1);
  g.flop_c[0] += proj_flop + 2.0 * t.p_head / t.tp;
  g.bytes_c[0] += t.w_head;
  g.bytes_c[2] += win * t.kv_share * t.window_layers * c.z.swa;
  g.close(c.peak, t.bw);
  g.flop_all = ww.flop_all + proj_flop * t.tp + 2.0 * t.p_head;
  g.weight_bytes = ww.weights() + t.w_head;
  g.kv_bytes = g.bytes_c[2];
  if (chunk_weights) *chunk_weights = fw.weights();
  if (full_out) *full_out = fw;
  return pp;
}

// Fresh prompt of n tokens after `before` cached ones: causal average before the split, the last window
// (or last token) after it.
PromptPasses prefill_of(const Ctx& c, double n, double before, double* chunk_w = nullptr, Work* fw = nullptr) {
  if (n <= 0) return PromptPasses{};
  const double win = c.m.n_win > 0 ? std::min<double>(c.m.n_win, n) : 1.0;
  return prompt_pass(c, n, win, before + n / 2.0, before + n, chunk_w, fw);
}

void add_infeasible(Terms& t, Infeasible kind, std::string_view field, double value, double limit, const char* unit, double setting) {
  if (t.infeasible_count >= kMaxInfeasible) return;
  t.infeasible[t.infeasible_count++] = InfeasibleReason{kind, field, value, limit, unit, setting};
}

}  // namespace

double engram_fetch_time(const Terms& t, EngramHome home, double bytes) {
  switch (home) {
    case EngramHome::Dram: return host_transfer_time(t, bytes);
    case EngramHome::Remote: return t.rdma_lat + bytes / t.nic_bw;
    case EngramHome::Hbm:
    case EngramHome::Count: break;
  }
  return t.hbm_lat + hbm_transfer_time(t, bytes);
}

namespace {
void compute_all(const Scenario& s, const LayerPlan* given, Computed& out, unsigned scope);
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
    case F::PrefixHitTime:
    case F::PrefixReplayTime:
    case F::PrefixRestTime:
    case F::PrefixRecomputeTime:
    case F::PrefixSpeedup:
    case F::ServePrefillShare:
    case F::ServeTpot:
    case F::ServeTokensPerSGpu:
    case F::SsdWriteRate:
    case F::SsdRetentionBytes:
    case F::SsdDwpdNeeded:
    case F::SsdRetentionHours: return kScopePrompt;
    default: return 0;
  }
}

namespace {
// The whole evaluation; `given` is s.model's layer plan when the caller already has it.
void compute_all(const Scenario& s, const LayerPlan* given, Computed& out, unsigned scope) {
  const ModelArch& m = s.model;
  const Hardware& hw = s.hw;
  const Workload& w = s.work;
  Terms& t = out.terms;
  Values& v = out.values;
  t = Terms{};
  v = Values{};
  using F = FigureId;
  Ctx c(s, t);

  // --- Parameters -----------------------------------------------------------------------------
  t.layers = m.layer_count;
  t.moe_layers = m.experts > 0 ? std::max(0, m.layer_count - m.dense_layers) : 0;
  t.ffn_dense_layers = t.layers - t.moe_layers;
  c.H = m.hidden;
  c.E = m.experts + (m.experts > 0 ? s.par.redundant : 0);  // expert slots, redundant copies included
  c.k = m.experts_per_token;
  c.L = t.layers;
  t.p_expert = 3.0 * m.expert_inter * c.H;
  t.p_attn_layer = attention_params_per_layer(m);
  t.p_attn = t.layers * t.p_attn_layer;
  t.p_routed_active = t.moe_layers * m.experts_per_token * t.p_expert;
  t.p_routed_all = t.moe_layers * m.experts * t.p_expert;
  t.p_shared = t.moe_layers * m.shared_experts * t.p_expert;
  t.p_router = t.moe_layers * m.experts * c.H;
  t.p_dense_ffn = t.ffn_dense_layers * 3.0 * m.dense_inter * c.H;
  t.p_head = static_cast<double>(m.vocab) * c.H;
  t.p_emb = m.tied_embed ? 0.0 : t.p_head;  // a tied model's embedding is its LM head's matrix, counted once
  double engram_rows = 0;
  for (int i = 0; i < m.engram_count; ++i) engram_rows += m.engram_rows[static_cast<std::size_t>(i)];
  const double engram_params = engram_rows * m.engram_dim;
  const double per_layer_active = t.layers > 0 ? (t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn) / t.layers : 0;
  v[F::ParamsPerExpert] = t.p_expert;
  v[F::ParamsTotal] = t.p_routed_all + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
  v[F::ParamsActiveDecode] = t.p_routed_active + t.p_shared + t.p_attn + t.p_router + t.p_dense_ffn + t.p_head + t.p_emb;
  t.bpv_experts = bytes_per_value(m.experts_fmt);
  t.bpv_dense = bytes_per_value(m.dense_fmt);
  t.bpv_head = bytes_per_value(m.head_fmt);

  // --- KV layout: owners, readers and the per-token footprint (one pass over the layers) -------
  const KvSizes& z = c.z;
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (has_window(m, i)) t.window_layers += 1;
    if (owns_kv(l.mode)) {
      t.owners += 1;
      t.inv_ratio_main += 1.0 / l.ratio;
      t.last_source = i;
      if (l.mode == LayerMode::Full) {
        t.index_owners += 1;
        t.inv_ratio_index += 1.0 / l.ratio;
      }
    }
    if (l.mode == LayerMode::Full || l.mode == LayerMode::Reindex) t.selecting_layers += 1;
  }
  t.full_layers = t.last_source >= 0 ? t.last_source : t.layers;
  v[F::ParamsActivePrefill] = t.full_layers * per_layer_active + t.p_emb;
  v[F::KvMainEntry] = z.main;
  v[F::KvIndexEntry] = z.idx;
  v[F::KvSwaEntry] = z.swa;
  c.b_tok = t.inv_ratio_main * z.main + t.inv_ratio_index * z.idx;
  v[F::KvGlobalPerToken] = c.b_tok;
  c.swa_session = t.window_layers * m.n_win * z.swa;
  v[F::KvSwaPerSession] = c.swa_session;
  const double ctx = w.ctx;
  v[F::KvPerSession] = ctx * c.b_tok + c.swa_session;
  v[F::KvSwaShare] = v[F::KvPerSession] > 0 ? c.swa_session / v[F::KvPerSession] : 0.0;
  if (given) c.plan_ptr = given;
  else plan_layers(m, c.own);
  for (int r = 0; r < 3; ++r) c.range[r] = range_info(m, c.plan(), r);
  t.dec = read_sums(m, c.plan(), LayerPlan::All, ctx, z);
  for (int g = 0; g < c.plan().group_count[LayerPlan::All]; ++g) {
    const LayerGroup& grp = c.plan().groups[LayerPlan::All][g];
    const LayerRead x = layer_read(m, grp.role, ctx);
    if (x.source < 0) continue;
    const double n = grp.count;
    t.read_layers += n;
    if (x.fullpool_keys > 0) {
      t.fullpool_indexers += n;
      t.fullpool_rows_idx += n * x.fullpool_keys;
    }
    if (x.pool_scorer) {
      t.pool_indexers += n;
      t.pool_positions = x.pool_keys;
    }
    if (x.gathered > 0) t.gather_layers += n;
    if (x.dense_rows > 0) t.dense_readers += n;
  }

  // --- Whole-model weight bytes at their stored formats ------------------------------------------
  v[F::EngramParams] = engram_params;
  t.engram_row_bytes = m.engram_count > 0 ? vector_bytes(m.engram_fmt, m.engram_dim) : 0.0;
  v[F::EngramTableBytes] = engram_rows * t.engram_row_bytes;
  v[F::EngramBytesPerToken] =
      static_cast<double>(m.engram_count) * std::max(0, m.engram_ngram - 1) * m.engram_heads * t.engram_row_bytes;
  t.weights_bytes_experts = t.p_routed_all * t.bpv_experts;
  t.weights_bytes_dense = (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense;
  t.weights_bytes_head = (t.p_router + t.p_head + t.p_emb) * t.bpv_head;
  v[F::WeightsDerived] = t.weights_bytes_experts + t.weights_bytes_dense + t.weights_bytes_head + v[F::EngramTableBytes];
  v[F::CheckpointPublished] = m.checkpoint_gb * 1e9;
  v[F::WeightsPerToken] = t.p_routed_active * t.bpv_experts + (t.p_shared + t.p_attn + t.p_dense_ffn) * t.bpv_dense +
                          (t.p_router + t.p_head) * t.bpv_head;

  // --- Hardware and rates ----------------------------------------------------------------------
  const GpuInfo& g = gpu_info(hw.gpu);
  v[F::HwHbmPerGpu] = hbm_gb_per_gpu(hw) * 1e9;
  v[F::HwHbmBwPerGpu] = hbm_tbps_per_gpu(hw) * 1e12;
  v[F::HwSramPerGpu] = g.sram_mb * 1e6;
  v[F::HwSramLatency] = hw.lat_sram_ns * 1e-9;
  t.host_bw = host_gbps(hw) * 1e9;
  t.host_lat = host_lat_us(hw) * 1e-6;
  v[F::HwHostLinkBw] = t.host_bw;
  v[F::HwLinkBw] = link_gbps(hw) * 1e9;
  v[F::HwPeakFlops] = compute_pflops_per_gpu(hw) * 1e15;
  v[F::HwSsdBwPerDrive] = hw.ssd_gbps * 1e9;
  v[F::HwHbmLatency] = hw.lat_hbm_us * 1e-6;
  v[F::HwHostDram] = hw.host_dram_gb * 1e9;
  v[F::HwHostLatency] = host_lat_us(hw) * 1e-6;
  v[F::HwSsdLatency] = hw.lat_ssd_us * 1e-6;
  t.bw_raw = v[F::HwHbmBwPerGpu];
  t.bw = t.bw_raw * hw.mbu;
  t.peak_raw = v[F::HwPeakFlops];
  t.peak = t.peak_raw * hw.mfu;
  t.ssd_bw = hw.ssd_count * hw.ssd_gbps * 1e9;
  t.ssd_lat = hw.lat_ssd_us * 1e-6;
  t.nic_bw = hw.nic_gbps * 1e9;
  t.rdma_lat = hw.lat_rdma_us * 1e-6;
  t.hbm_lat = hw.lat_hbm_us * 1e-6;
  t.sram_bw = g.sram_tbps * 1e12;
  t.sram_lat = hw.lat_sram_ns * 1e-9;
  c.kernel_s = hw.kernel_us * 1e-6;
  // Each class at the rate its formats allow (scenario.h, ComputeFormat), times the achieved share.
  {
    const NumFormat attn_fmt = format_info(m.kv_fmt).value_bits <= 8 ? NumFormat::FP8 : NumFormat::BF16;
    const NumFormat idx_fmt = format_info(m.idx_fmt).value_bits <= 8 ? NumFormat::FP8 : NumFormat::BF16;
    c.peak[0] = gemm_pflops(hw, m.dense_fmt, m.act_fmt) * 1e15 * hw.mfu;
    c.peak[1] = gemm_pflops(hw, m.experts_fmt, m.act_fmt) * 1e15 * hw.mfu;
    c.peak[2] = gemm_pflops(hw, attn_fmt, attn_fmt) * 1e15 * hw.mfu;
    c.peak[3] = gemm_pflops(hw, idx_fmt, idx_fmt) * 1e15 * hw.mfu;
    for (int i = 0; i < kWorkClasses; ++i) t.peak_c[i] = c.peak[i];
  }
  c.attn_flop_dec = 2.0 * m.q_heads * decode_attn_dims(m);
  c.attn_flop_pre = 2.0 * m.q_heads * prefill_attn_dims(m);
  c.key_flop = 2.0 * m.idx_heads * m.idx_dim;
  t.pay_dispatch = c.H * (1.0 + 4.0 / 128.0);
  t.pay_combine = c.H * 2.0;

  // --- Layout and placement --------------------------------------------------------------------
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
  v[F::HbmSessions] = t.sessions_replica * t.dp;
  v[F::HbmSessionsPerGpu] = v[F::HbmSessions] / t.gpus;
  const double instances_per_node = t.gpus <= t.node_gpus ? std::floor(t.node_gpus / t.gpus) : t.node_gpus / t.gpus;
  v[F::HbmSessionsPerNode] = std::floor(v[F::HbmSessions] * instances_per_node);

  // --- Feasibility -----------------------------------------------------------------------------
  if (resident > t.usable) add_infeasible(t, Infeasible::WeightsDoNotFit, "gpus", resident, t.usable, "B", hw.gpus);
  else if (t.sessions_replica < 1) add_infeasible(t, Infeasible::KvDoesNotFit, "ctx", v[F::HbmKvSessionPerGpu], v[F::HbmKvBudget], "B", w.ctx);
  else if (w.batch > v[F::HbmSessions]) add_infeasible(t, Infeasible::BatchOverCapacity, "batch", w.batch, v[F::HbmSessions], "sessions", w.batch);
  if (m.max_pos > 0 && w.ctx > m.max_pos) add_infeasible(t, Infeasible::CtxOverMaxPos, "ctx", w.ctx, m.max_pos, "tokens", w.ctx);
  if (m.max_pos > 0 && w.prompt > m.max_pos) add_infeasible(t, Infeasible::PromptOverMaxPos, "prompt", w.prompt, m.max_pos, "tokens", w.prompt);

  // --- Decode step (the busiest GPU) -------------------------------------------------------------
  const double batch = std::max(1, w.batch);
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
  const double gather_q = std::min(t.dec.gather * t.q, t.dec.rows_all * z.main);
  const double kvb = t.batch_replica * t.kv_share;
  v[F::DecodeTWeights] = hbm_transfer_time(t, st.weight_bytes);
  v[F::DecodeTIndex] = hbm_transfer_time(t, kvb * (t.dec.fullpool + t.dec.pool));
  v[F::DecodeTGather] = hbm_transfer_time(t, kvb * (gather_q + t.dec.dense));
  v[F::DecodeTWindow] = hbm_transfer_time(t, kvb * t.dec.window);
  v[F::DecodeTAppend] = hbm_transfer_time(t, t.append_bytes);
  v[F::DecodeTCompute] = st.t_above_memory;
  v[F::DecodeTTopk] = t.selecting_layers > 0
                          ? t.selecting_layers * t.sram_lat + t.tokens_replica * t.dec.select_keys * kTopkScoreBytes * kTopkPasses / t.sram_bw
                          : 0.0;
  v[F::DecodeTA2a] = t.a2a;
  v[F::DecodeTAllreduce] = t.ar_attn + t.ar_ffn;
  v[F::DecodeTOverhead] = st.t_above_roofs;
  if (d > 0 && m.draft_layers > 0) {
    const Pass one = decode_pass(c, batch, 1.0, 0, 0);
    v[F::DecodeTDraft] = d * m.draft_layers * (one.time() / std::max(1.0, t.layers));
  }
  t.weight_bytes_b1 = decode_pass(c, 1, 1, 0, 0).weight_bytes;
  // Engram: the token is known only after sampling, so the first Engram layer's fetch must hide behind
  // the layers before it.
  if (m.engram_count > 0) {
    v[F::EngramFetchTime] = engram_fetch_time(t, m.engram_home, v[F::EngramBytesPerToken]);
    v[F::EngramPromptFetchTime] = engram_fetch_time(t, m.engram_home, w.prompt * v[F::EngramBytesPerToken]);
    v[F::EngramStepFetchTime] = engram_fetch_time(t, m.engram_home, t.tokens_replica * v[F::EngramBytesPerToken]);
    const double before_stall = st.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft];
    t.engram_window = t.layers > 0 ? m.engram_layers[0] / t.layers * before_stall : 0.0;
    v[F::DecodeTStall] = std::max(0.0, v[F::EngramStepFetchTime] - t.engram_window);
    v[F::EngramStall] = v[F::DecodeTStall];
  }
  v[F::DecodeStepTime] = st.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft] + v[F::DecodeTStall];
  const double p = std::clamp(w.spec_accept, 0.0, 1.0);
  t.accepted = d > 0 ? (p < 1.0 ? (1.0 - std::pow(p, d + 1.0)) / (1.0 - p) : d + 1.0) : 1.0;
  v[F::DecodeTokensPerStep] = t.accepted;
  v[F::DecodeTpot] = v[F::DecodeStepTime] / t.accepted;
  v[F::DecodeTokensPerS] = batch * t.accepted / v[F::DecodeStepTime];
  v[F::DecodeTokensPerSGpu] = v[F::DecodeTokensPerS] / t.gpus;
  const double step_bytes = st.weight_bytes + st.kv_bytes;
  v[F::DecodeWeightShare] = step_bytes > 0 ? st.weight_bytes / step_bytes : 0.0;
  // Crossover: the batch at which the compute roof meets the memory roof. ln(compute / memory) is smooth
  // and nearly straight in log batch, so regula falsi (Illinois) on it converges in a few passes.
  // The two roofs as functions of a continuous batch, from the same per-token work the step uses.
  if (scope & kScopeCrossover) {
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
    } else if (ghi < 0) {
      v[F::DecodeCrossoverBatch] = 0;  // never within reach
    } else {
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
  }

  // --- Sparse reads, per session per step, on one GPU (roofline where FLOP are done) ------------
  v[F::TopkSliceBytes] = m.top_k * c.b_tok;
  v[F::TopkSliceTime] = v[F::TopkSliceBytes] / t.bw;
  v[F::TopkSelectTime] = t.selecting_layers > 0
                             ? t.selecting_layers * t.sram_lat + t.dec.select_keys * kTopkScoreBytes * kTopkPasses / t.sram_bw
                             : 0.0;
  v[F::GatherBytes] = t.dec.gather;
  v[F::GatherTime] = t.dec.gather / t.bw;
  v[F::IndexFullpoolBytes] = t.dec.fullpool;
  v[F::IndexFullpoolTime] = std::max(t.dec.fullpool / t.bw, t.fullpool_rows_idx * c.key_flop / c.peak[3]);  // its own roofline
  v[F::IndexCandidateBytes] = t.dec.pool;
  v[F::IndexCandidateTime] = std::max(t.dec.pool / t.bw, t.pool_indexers * t.pool_positions * c.key_flop / c.peak[3]);
  v[F::SwaWindowBytes] = t.dec.window;
  v[F::SwaWindowTime] = t.dec.window / t.bw;

  // --- SWA restore and pool ----------------------------------------------------------------------
  const bool win = m.n_win > 0;
  v[F::SwaRestoreLayerTime] = win ? host_transfer_time(t, m.n_win * z.swa * t.kv_share) : 0.0;
  v[F::SwaRestoreSessionTime] = win ? host_transfer_time(t, c.swa_session * t.kv_share) : 0.0;
  v[F::SwaPoolBytes] = win ? w.swa_pool * hw.host_dram_gb * 1e9 : 0.0;
  v[F::SwaPoolSessions] = c.swa_session > 0 ? std::floor(v[F::SwaPoolBytes] / c.swa_session) : 0.0;
  v[F::ResumeKvReloadTime] = host_transfer_time(t, ctx * c.b_tok * t.kv_share);
  v[F::ResumeKvSsdTime] = ssd_read_time(t, ctx * c.b_tok);
  v[F::SwaPoolVsHbm] = v[F::HbmSessionsPerNode] > 0 ? v[F::SwaPoolSessions] / v[F::HbmSessionsPerNode] : 0.0;

  const bool prompt_scope = (scope & kScopePrompt) != 0;
  // --- Prefill of the prompt ---------------------------------------------------------------------
  Work pw;
  if (prompt_scope) {
  t.prefill = prefill_of(c, w.prompt, 0, &v[F::PrefillChunkWeightBytes], &pw);
  t.prefill_chunks = t.prefill.chunks;
  t.prefill_flop_weights = t.prefill_chunks * (pw.flop_dense + pw.flop_experts);
  t.prefill_flop_attn = t.prefill_chunks * pw.flop_attn;
  t.prefill_flop_index = t.prefill_chunks * pw.flop_index;
  v[F::PrefillFlop] = t.prefill.flop_all();
  v[F::PrefillFullTime] = t.prefill.full.time();
  v[F::PrefillWindowTime] = t.prefill.win.time();
  v[F::PrefillTime] = t.prefill.time();
  }

  // --- Bounded replay of the window (SWA miss) --------------------------------------------------
  const bool replays = win && m.bounded_replay != 0;
  if (replays && (scope & kScopeReplay)) {
    const double wt = std::min<double>(m.n_win, ctx);
    const Work rw = layers_work(c, LayerPlan::All, wt, wt, t.dec, wt, false);
    const double kv = t.kv_share * (t.dec.fullpool + t.dec.pool + std::min(t.dec.gather * wt, t.dec.rows_all * z.main) +
                                    t.dec.dense + t.dec.window);
    Pass& r = t.replay;
    const double index = t.kv_share * (t.dec.fullpool + t.dec.pool);
    add_work(r, rw, 1);
    r.bytes_c[2] += kv - index + wt * t.kv_share * t.window_layers * z.swa;
    r.bytes_c[3] += index;
    r.close(c.peak, t.bw);
    r.flop_all = rw.flop_all;
    r.weight_bytes = rw.weights();
    r.kv_bytes = r.bytes_c[2] + r.bytes_c[3];
    v[F::ReplayFlop] = r.flop_all;
    v[F::ReplayTimeStandalone] = r.time();
    v[F::ReplayWeightBytes] = r.weight_bytes;
    t.replay_merged_step = decode_pass(c, batch, t.q, wt, kv).time();
    v[F::ReplayTime] = std::max(0.0, t.replay_merged_step - st.time());
  }

  // --- Prefix-cache hit: promotion, the window's replay, the rest of the prompt, or recompute ----
  const double hit = std::min(w.prefix_hit, w.prompt);
  const double rest = w.prompt - hit;
  v[F::SsdCapacity] = hw.ssd_count * hw.ssd_tb * 1e12;
  v[F::CostTurnMiss] = (w.prompt * w.price_miss + w.output * w.price_out) / 1e6;
  v[F::CostTurnHit] = ((w.prompt - hit) * w.price_miss + hit * w.price_hit + w.output * w.price_out) / 1e6;
  if (!prompt_scope) return;
  const bool window_persisted = win && !replays;
  v[F::PrefixHitBytes] = hit > 0 ? hit * c.b_tok + (window_persisted ? c.swa_session : 0.0) : 0.0;
  if (hit > 0) {
    v[F::PrefixSsdReadTime] = ssd_read_time(t, v[F::PrefixHitBytes]);
    v[F::PrefixUploadTime] = host_transfer_time(t, v[F::PrefixHitBytes] * t.kv_share);
  }
  v[F::PrefixHitTime] = v[F::PrefixSsdReadTime] + v[F::PrefixUploadTime];
  t.rest = prefill_of(c, rest, hit);
  v[F::PrefixRestTime] = t.rest.time();
  if (hit > 0 && replays) {
    const double wh = std::min<double>(m.n_win, hit);
    t.rest_replay = prefill_of(c, rest + wh, hit - wh);
    v[F::PrefixReplayTime] = std::max(0.0, t.rest_replay.time() - t.rest.time());
  }
  v[F::PrefixRecomputeTime] = hit > 0 ? std::max(0.0, t.prefill.time() - t.rest.time()) : 0.0;
  const double served = v[F::PrefixHitTime] + v[F::PrefixReplayTime];
  v[F::PrefixSpeedup] = served > 0 ? v[F::PrefixRecomputeTime] / served : 0.0;

  // --- Steady serving: each step also carries the prefill of arriving prompts ---------------------
  if (w.output > 0) {
    const double new_tokens = batch * t.accepted * rest / w.output;
    // Mixed into decode steps, a prompt's weights are already streamed: it costs its compute, spread over
    // the data-parallel replicas.
    v[F::ServePrefillShare] = w.prompt > 0 ? new_tokens * t.prefill.t_compute() / (t.dp * w.prompt) : 0.0;
  }
  v[F::ServeTpot] = (v[F::DecodeStepTime] + v[F::ServePrefillShare]) / t.accepted;
  v[F::ServeTokensPerSGpu] = batch * t.accepted / (v[F::DecodeStepTime] + v[F::ServePrefillShare]) / t.gpus;

  // --- SSD retention at the node's serving rate ------------------------------------------------------
  if (w.output > 0) {
    t.persist_tokens_s = v[F::ServeTokensPerSGpu] * t.node_gpus * (rest + w.output) / w.output;
    v[F::SsdWriteRate] = t.persist_tokens_s * c.b_tok;
  }
  v[F::SsdRetentionBytes] = v[F::SsdWriteRate] * hw.retention_h * 3600.0;
  v[F::SsdDwpdNeeded] = v[F::SsdCapacity] > 0 ? v[F::SsdWriteRate] * 86400.0 / v[F::SsdCapacity] : 0.0;
  v[F::SsdRetentionHours] = v[F::SsdWriteRate] > 0 ? v[F::SsdCapacity] / v[F::SsdWriteRate] / 3600.0 : 0.0;
}

}  // namespace

}  // namespace tierscope::model
