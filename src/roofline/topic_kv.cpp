// KV layout: which layers own KV and index keys, the bytes of one entry and of a session, what one query
// reads at the context (the layer plan's sums), with their formulas.
#include "model/param_count.h"
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
  r.p_attn = r.n * attention_params_per_layer(m);
  if (mixed_layers(m)) {
    const LayerSums x = sum_layers(m, r.first, r.last);
    r.n_moe = x.moe;
    r.n_dffn = x.dense_ffn;
    r.p_attn = x.p_attn;
  }
  for (int g = 0; g < plan.group_count[range]; ++g) {
    const LayerMode mode = plan.groups[range][g].role.mode;
    if (mode == LayerMode::Full || mode == LayerMode::Reindex) r.index_layers += plan.groups[range][g].count;
    if (mode == LayerMode::Linear) r.linear_layers += plan.groups[range][g].count;
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
  t.chunk_layers = n.chunk_layers;
  t.linear_layers = n.linear_layers;
  t.owners = n.owners;
  t.inv_ratio_main = n.inv_ratio_main;
  t.last_source = n.last_source;
  t.index_owners = n.index_owners;
  t.inv_ratio_index = n.inv_ratio_index;
  t.selecting_layers = n.selecting_layers;
  t.full_layers = c.plan().split;  // the last KV source, after any linear layer (layers.h); every layer when none
  v[F::KvMainEntry] = z.main;
  v[F::KvIndexEntry] = z.idx;
  v[F::KvSwaEntry] = z.swa;
  c.b_tok = t.inv_ratio_main * z.main + t.inv_ratio_index * z.idx;
  v[F::KvGlobalPerToken] = c.b_tok;
  c.swa_session = n.window_tokens * z.swa;
  v[F::KvSwaPerSession] = c.swa_session;
  const double ctx = c.s.work.ctx;
  // A chunked layer keeps the tokens of the chunk in progress: at most its chunk, fewer early on.
  c.chunk_session = 0;
  if (t.chunk_layers > 0) {
    for (int i = 0; i < m.layer_count; ++i)
      if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) c.chunk_session += std::min<double>(layer_window(m, i), ctx) * z.swa;
  }
  v[F::KvChunkPerSession] = c.chunk_session;
  c.state_session = t.linear_layers * z.state;
  v[F::KvRecurrentPerSession] = c.state_session;
  v[F::KvPerSession] = ctx * c.b_tok + c.swa_session + c.chunk_session + c.state_session;
  v[F::KvSwaShare] = v[F::KvPerSession] > 0 ? c.swa_session / v[F::KvPerSession] : 0.0;
  v[F::KvIndexerPerToken] = t.inv_ratio_index * z.idx;
}

// Engines' recurrent-state checkpoints for prefix caching. SGLang tracks the state every 256 tokens
// (--mamba-track-interval, python/sglang/srt/server_args.py). vLLM's default "align" mode keeps it at each
// attention block boundary, the block raised until one block's KV page holds a layer's state (16-token
// alignment; vllm/config/cache.py, HybridAttentionMambaModelConfig). TensorRT-LLM and DeepSeek: assumed as SGLang.
namespace {
constexpr double kSglangStateTrack = 256;
constexpr double kVllmBlockAlign = 16;
[[gnu::noinline]] double state_checkpoint_tokens(const Ctx& c) {
  if (c.s.engine.state_ckpt > 0) return c.s.engine.state_ckpt;
  if (c.s.engine.kind != EngineKind::Vllm || c.z.main <= 0) return kSglangStateTrack;
  const double layer_state = c.t.linear_layers > 0 ? c.z.state : 0.0;
  return kVllmBlockAlign * std::max(1.0, std::ceil(layer_state / (kVllmBlockAlign * c.z.main)));
}
}  // namespace

// The layer plan's ranges, and what one decode query reads at ctx.
void compute_kv_reads(Ctx& c, Values& v) {
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
  t.state_ckpt = t.linear_layers > 0 ? state_checkpoint_tokens(c) : 0.0;
  v[F::KvRecurrentCkptInterval] = t.state_ckpt;
  // A prefix hit restores the last checkpoint at or before its end; the tokens after it are computed again.
  v[F::KvRecurrentCkptBytes] = t.state_ckpt > 0 && c.s.work.prefix_hit >= t.state_ckpt ? c.state_session : 0.0;
  v[F::KvTopkRows] = t.dec.gather_rows;
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

// One min(chunk, context) per chunked layer, grouped by chunk: "36 layers × min(8,192, 131,072)".
std::vector<Expr> chunk_terms(const ModelArch& m, double ctx) {
  std::vector<Expr> parts;
  std::vector<int> seen;
  for (int i = 0; i < m.layer_count; ++i) {
    if (m.layers[static_cast<std::size_t>(i)].mode != LayerMode::Chunked) continue;
    const int span = layer_window(m, i);
    if (std::find(seen.begin(), seen.end(), span) != seen.end()) continue;
    seen.push_back(span);
    int count = 0;
    for (int j = 0; j < m.layer_count; ++j)
      count += m.layers[static_cast<std::size_t>(j)].mode == LayerMode::Chunked && layer_window(m, j) == span ? 1 : 0;
    parts.push_back(n(count, "layers") * min_of({n(span, "tokens chunk"), n(ctx, "tokens")}));
  }
  return parts;
}

// Sliding layers with windows of several sizes (Gemma, MiMo): their windows summed (out of line, as describe_chunks).
[[gnu::noinline]] void describe_windows(Say& y) {
  y.set(F::KvSwaPerSession, std::move(n(y.plan_counts.window_tokens, "tokens").named("Σ windows").note(num(y.t.window_layers) + " sliding layers")) *
                                q(y.v[F::KvSwaEntry], "B", "window entry"));
}

// The chunked layers' KV. Out of line (noinline, and above the web build's one-caller inlining size): the page's
// module is split by the functions its first frame runs, and the default model has no chunked layer.
[[gnu::noinline]] void describe_chunks(Say& y) {
  const ModelArch& m = y.m;
  const Values& v = y.v;
  y.set(F::KvChunkPerSession, std::move(sum_of(chunk_terms(m, y.w.ctx)).named("Σ min(chunk, context)")) * q(v[F::KvSwaEntry], "B", "entry"));
}

// The recurrent state, its checkpoints and what a hit restores (out of line, as describe_chunks).
[[gnu::noinline]] void describe_recurrent(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  Expr layer = sig(linear_state_values(m), 6, "values", "recurrent state") * sig(bytes_per_value(m.lin_fmt), 6, "B");
  layer.note(num(m.lin_v_heads) + " heads × " + num(m.lin_k_dim) + " × " + num(m.lin_v_dim) + ", " + fmt_label(m.lin_fmt));
  if (linear_conv_values(m) > 0) {
    Expr conv = sig(linear_conv_values(m), 6, "values", "convolution state") * n(2, "B (BF16)");
    conv.note(num(m.lin_conv - 1) + " tokens × (2 × " + num(m.lin_k_heads) + " × " + num(m.lin_k_dim) + " + " + num(m.lin_v_heads) + " × " +
              num(m.lin_v_dim) + ") channels");
    layer = std::move(layer) + std::move(conv);
  }
  y.set(F::KvRecurrentPerSession, n(t.linear_layers, "linear layers") * std::move(layer.named("each").note("whatever the context")));
  const Scenario& sc = y.s;
  Expr interval = words("");
  if (sc.engine.state_ckpt > 0) interval = std::move(n(t.state_ckpt, "tokens").note("state_ckpt set"));
  else if (sc.engine.kind == EngineKind::Vllm && y.z.main > 0)
    interval = std::move((n(16, "tokens") * ceil_of(q(y.z.state, "B", "one layer's state") / (n(16) * q(y.z.main, "B", "KV per layer per token"))))
                             .note("vLLM: one per attention block, raised until its page holds a state"));
  else
    interval = std::move(n(t.state_ckpt, "tokens").note(sc.engine.kind == EngineKind::Sglang ? "SGLang --mamba-track-interval default"
                                                                                                : "assumed as SGLang's --mamba-track-interval"));
  y.set(F::KvRecurrentCkptInterval, std::move(interval));
  if (v[F::KvRecurrentCkptBytes] > 0) {
    y.set(F::KvRecurrentCkptBytes, std::move(q(v[F::KvRecurrentPerSession], "B", "one copy of the recurrent state")
                                                 .note("the last before the hit's end; one per " + num(t.state_ckpt) + " tokens adds " +
                                                       human(v[F::KvRecurrentPerSession] / t.state_ckpt, "B") + " per cached token")));
  } else {
    y.set(F::KvRecurrentCkptBytes, words("prefix_hit below the interval: no checkpoint to restore"));
  }
}

// Selecting layers that read different counts (short contexts, sources of several ratios): each reads
// min(top_k, its source's rows), grouped by that count (out of line, as describe_chunks).
[[gnu::noinline]] void describe_topk_groups(Say& y) {
  const ModelArch& m = y.m;
  std::vector<std::pair<double, int>> groups;
  for (int i = 0; i < m.layer_count; ++i) {
    const double g = layer_read(m, i, y.w.ctx).gathered;
    if (g <= 0) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& p) { return p.first == g; });
    if (it == groups.end()) groups.emplace_back(g, 1);
    else it->second += 1;
  }
  std::vector<Expr> parts;
  for (const auto& [rows, layers] : groups) parts.push_back(n(layers, "layers") * n(rows, "rows"));
  y.set(F::KvTopkRows, std::move(sum_of(std::move(parts)).note("min(top_k " + num(m.top_k) + ", the rows at the context) per layer; the indexer still scores every key")));
}

}  // namespace

void describe_kv(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  y.set(F::KvMainEntry, vector_formula(m, m.kv_fmt, kv_dims(m), true));
  y.set(F::KvIndexEntry, m.idx_dim > 0 ? vector_formula(m, m.idx_fmt, m.idx_dim, false) : words("no index keys"));
  y.set(F::KvSwaEntry, y.z.swa > 0 ? vector_formula(m, m.swa_fmt, window_kv_dims(m), true) : words("no sliding window"));
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
  const LayerCounts& counts = y.plan_counts;
  if (y.win && counts.window_tokens == t.window_layers * m.n_win) {
    y.set(F::KvSwaPerSession, n(t.window_layers, "layers") * n(m.n_win, "tokens") * q(v[F::KvSwaEntry], "B", "window entry"));
  } else if (counts.window_tokens > 0) {
    describe_windows(y);
  } else {
    y.set(F::KvSwaPerSession, words("no sliding window"));
  }
  // Chunked and linear layers' formulas out of line: a model without them (the first frame's) never runs them.
  if (t.chunk_layers > 0) describe_chunks(y);
  else y.set(F::KvChunkPerSession, words("no chunked-local layer"));
  if (t.linear_layers > 0) describe_recurrent(y);
  else
    for (F id : {F::KvRecurrentPerSession, F::KvRecurrentCkptInterval, F::KvRecurrentCkptBytes}) y.set(id, words("no linear-attention layer"));
  if (t.index_owners > 0) y.set(F::KvIndexerPerToken, inverse_ratio_sum(m, true) * q(v[F::KvIndexEntry], "B", "index key"));
  else y.set(F::KvIndexerPerToken, words("no sparse indexer"));
  if (v[F::KvTopkRows] > 0 && v[F::KvTopkRows] == t.gather_layers * m.top_k) {
    y.set(F::KvTopkRows, std::move((n(t.gather_layers, "layers") * n(m.top_k, "rows (top_k)")).note("the indexer still scores every key")));
  } else if (v[F::KvTopkRows] > 0) {
    describe_topk_groups(y);
  } else {
    y.set(F::KvTopkRows, words("no top-k selection: every layer reads all its rows"));
  }
  {
    Expr e = n(y.w.ctx, "tokens") * q(v[F::KvGlobalPerToken], "B/token", "global KV");
    if (y.win) e = std::move(e) + q(v[F::KvSwaPerSession], "B", "SWA window");
    if (t.chunk_layers > 0) e = std::move(e) + q(v[F::KvChunkPerSession], "B", "local chunks");
    if (t.linear_layers > 0) e = std::move(e) + q(v[F::KvRecurrentPerSession], "B", "recurrent state");
    y.set(F::KvPerSession, std::move(e));
  }
  if (y.win && v[F::KvPerSession] > 0) {
    y.set(F::KvSwaShare, q(v[F::KvSwaPerSession], "B", "SWA window") / q(v[F::KvPerSession], "B", "session's KV"));
  } else {
    y.set(F::KvSwaShare, words(y.win ? "no KV at this context" : "no sliding window"));
  }
}

}  // namespace tierscope::model::topics
