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

// Owners, readers and the per-token footprint (one pass over the layers).
void compute_kv_layout(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
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

// The layer plan (`given` when the caller has it), its ranges, and what one decode query reads at ctx.
void compute_kv_reads(Ctx& c, const LayerPlan* given) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const double ctx = c.s.work.ctx;
  if (given) c.plan_ptr = given;
  else plan_layers(m, c.own);
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

// Many owners' ratios grouped by value: "(30/4 + 1/128)", first-seen order.
std::string grouped_ratios(const ModelArch& m, bool index_only) {
  auto counts = [&](const Layer& l) { return index_only ? l.mode == LayerMode::Full : owns_kv(l.mode); };
  std::string s;
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
  return s;
}

// Σ 1/r over KV owners written out: "(1/2+1/2+1/2+1/1)" for a few owners, grouped when many.
std::string inverse_ratio_sum(const ModelArch& m, bool index_only) {
  auto counts = [&](const Layer& l) { return index_only ? l.mode == LayerMode::Full : owns_kv(l.mode); };
  int owners = 0;
  for (int i = 0; i < m.layer_count; ++i) owners += counts(m.layers[static_cast<std::size_t>(i)]) ? 1 : 0;
  if (owners > 6) return "(" + grouped_ratios(m, index_only) + ")";
  std::string s = "(";
  bool first = true;
  for (int i = 0; i < m.layer_count; ++i) {
    const Layer& l = m.layers[static_cast<std::size_t>(i)];
    if (!counts(l)) continue;
    if (!first) s += "+";
    s += "1/" + std::to_string(l.ratio);
    first = false;
  }
  return s + ")";
}

}  // namespace

void describe_kv(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::KvMainEntry, vector_formula(m, m.kv_fmt, kv_dims(m), true));
  y.set(F::KvIndexEntry, m.idx_dim > 0 ? vector_formula(m, m.idx_fmt, m.idx_dim, false) : std::string("no index keys"));
  y.set(F::KvSwaEntry, m.n_win > 0 ? vector_formula(m, m.swa_fmt, kv_dims(m), true) : std::string("no sliding window"));
  {
    const std::string inv_main = inverse_ratio_sum(m, false);
    std::string g;
    if (t.index_owners == 0) g = inv_main + " × " + num(v[F::KvMainEntry]) + " B";
    else if (t.index_owners == t.owners) g = inv_main + " × (" + num(v[F::KvMainEntry]) + " + " + num(v[F::KvIndexEntry]) + ") B";
    else g = inv_main + " × " + num(v[F::KvMainEntry]) + " B + " + inverse_ratio_sum(m, true) + " × " + num(v[F::KvIndexEntry]) + " B";
    y.set(F::KvGlobalPerToken, "Σ over " + num(t.owners) + " KV-owning layers of 1/ratio: " + g);
  }
  y.set(F::KvSwaPerSession, num(t.window_layers) + " layers × " + num(m.n_win) + " tokens × " + num(v[F::KvSwaEntry]) + " B");
  y.set(F::KvPerSession, num(y.w.ctx) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token + " + y.H(F::KvSwaPerSession) + " SWA");

  y.set(F::KvSwaShare, y.H(F::KvSwaPerSession) + " / " + y.H(F::KvPerSession));
}

}  // namespace tierscope::model::topics
