// KV layout: which layers own KV and index keys, the bytes of one entry and of a session, what one query
// reads at the context (the layer plan's sums), with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// What a layer range holds, counted once (see RangeInfo).
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

}  // namespace

// Owners, readers and the per-token footprint (from the layer plan's counts).
void compute_kv_layout(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const KvSizes& z = c.z;
  const LayerCounts& n = c.plan().counts;  // summed once per model by plan_layers()
  t.window_layers = n.window_layers;
  t.owners = n.owners;
  t.inv_ratio_main = n.inv_ratio_main;
  t.last_source = n.last_source;
  t.index_owners = n.index_owners;
  t.inv_ratio_index = n.inv_ratio_index;
  t.selecting_layers = n.selecting_layers;
  t.full_layers = t.last_source >= 0 ? t.last_source : t.layers;
  v[F::KvMainEntry] = z.main;
  v[F::KvIndexEntry] = z.idx;
  v[F::KvSwaEntry] = z.swa;
  c.b_tok = t.inv_ratio_main * z.main + t.inv_ratio_index * z.idx;
  v[F::KvGlobalPerToken] = c.b_tok;
  c.swa_session = t.window_layers * m.n_win * z.swa;
  v[F::KvSwaPerSession] = c.swa_session;
  const double ctx = c.s.work.ctx;
  v[F::KvPerSession] = ctx * c.b_tok + c.swa_session;
  v[F::KvSwaShare] = v[F::KvPerSession] > 0 ? c.swa_session / v[F::KvPerSession] : 0.0;
}

// The layer plan's ranges, and what one decode query reads at ctx.
void compute_kv_reads(Ctx& c) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const double ctx = c.s.work.ctx;
  for (int r = 0; r < 3; ++r) c.range[r] = range_info(m, c.plan(), r);
  t.dec = read_sums(m, c.plan(), LayerPlan::All, ctx, c.z);
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
}

namespace {

// "288 B = 448 values × 0.5 B + ⌈448 / 16⌉ × 1 B scale + 64 RoPE dims × 2 B (BF16) (FP4 E2M1 + E4M3/16)",
// as kv_vector_bytes() (kv_layout) or vector_bytes() counts it.
Expr vector_formula(const ModelArch& m, NumFormat f, double dims, bool kv_layout) {
  const FormatInfo& i = format_info(f);
  const bool rope_apart = kv_layout && m.kv_rope_bf16 != 0 && m.rope_dim > 0 && dims > m.rope_dim;
  const double body = rope_apart ? dims - m.rope_dim : dims;
  Expr e = n(body, "values") * sig(i.value_bits / 8.0, 6, "B");
  if (i.scale_group > 0) e = std::move(e) + ceil_of(n(body) / n(i.scale_group)) * n(i.scale_bytes, "B scale");
  if (rope_apart) e = std::move(e) + n(m.rope_dim, "RoPE dims") * n(2, "B (BF16)");
  if (kv_layout && m.kv_pad > 0) e = std::move(e) + n(m.kv_pad, "B pad");
  e.note(fmt_label(f));
  return e;
}

// Σ 1/ratio over the KV owners (or the index owners), grouped by ratio in first-seen order:
// "30 layers / 4 + 1 layer / 128"; ratio 1 is the layers themselves.
Expr inverse_ratio_sum(const ModelArch& m, bool index_only) {
  auto counts = [&](const Layer& l) { return index_only ? l.mode == LayerMode::Full : owns_kv(l.mode); };
  std::vector<Expr> parts;
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
    parts.push_back(l.ratio == 1 ? n(count, "layers") : n(count, "layers") / n(l.ratio));
  }
  Expr e = sum_of(std::move(parts));
  // One group of ratio 1 is a plain count: "KV-owning 61 layers".
  e.named(e.op() == Expr::Op::Leaf ? (index_only ? "index-owning" : "KV-owning")
                                   : (index_only ? "index-owning layers, 1/ratio each" : "KV-owning layers, 1/ratio each"));
  return e;
}

}  // namespace

void describe_kv(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::KvMainEntry, vector_formula(m, m.kv_fmt, kv_dims(m), true));
  y.set(F::KvIndexEntry, m.idx_dim > 0 ? vector_formula(m, m.idx_fmt, m.idx_dim, false) : words("no index keys"));
  y.set(F::KvSwaEntry, m.n_win > 0 ? vector_formula(m, m.swa_fmt, kv_dims(m), true) : words("no sliding window"));
  if (t.owners == 0) {
    y.set(F::KvGlobalPerToken, words("no layer keeps KV"));
  } else {
    // Each owner keeps one entry per `ratio` tokens; index owners keep an index key beside it.
    const Expr main = q(v[F::KvMainEntry], "B", "main entry"), idx = q(v[F::KvIndexEntry], "B", "index key");
    Expr owners = inverse_ratio_sum(m, false);
    if (t.index_owners == 0) y.set(F::KvGlobalPerToken, std::move(owners) * main);
    else if (t.index_owners == t.owners) y.set(F::KvGlobalPerToken, std::move(owners) * (main + idx));
    else {
      y.set(F::KvGlobalPerToken,
            std::move(owners) * main + inverse_ratio_sum(m, true) * idx);
    }
  }
  if (y.win) {
    y.set(F::KvSwaPerSession, n(t.window_layers, "layers") * n(m.n_win, "tokens") * q(v[F::KvSwaEntry], "B", "window entry"));
  } else {
    y.set(F::KvSwaPerSession, words("no sliding window"));
  }
  {
    Expr e = n(y.w.ctx, "tokens") * q(v[F::KvGlobalPerToken], "B/token", "global KV");
    if (y.win) e = std::move(e) + q(v[F::KvSwaPerSession], "B", "SWA window");
    y.set(F::KvPerSession, std::move(e));
  }
  if (y.win && v[F::KvPerSession] > 0) {
    y.set(F::KvSwaShare, q(v[F::KvSwaPerSession], "B", "SWA window") / q(v[F::KvPerSession], "B", "session's KV"));
  } else {
    y.set(F::KvSwaShare, words(y.win ? "no KV at this context" : "no sliding window"));
  }
}

}  // namespace tierscope::model::topics
