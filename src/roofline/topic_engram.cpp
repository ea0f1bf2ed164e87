// Engram: the hashed n-gram tables (their rows, bytes and the bytes one token fetches), the fetch from
// wherever they live and the decode stall it causes, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// The step's time before the Engram stall: the pass, top-k and the drafts (the stall's window is a share of it).
double before_engram(const Terms& t, const Values& v) { return t.step.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft]; }

// engram_fetch_time() of `bytes` as an expression: the home's latency plus the bytes over its link.
Expr fetch_expr(const Say& y, Expr bytes) {
  const Terms& t = y.t;
  switch (y.m.engram_home) {
    case EngramHome::Dram: return q(t.host_lat, "s", "host DMA latency") + std::move(bytes) / q(t.host_bw, "B/s", "host link");
    case EngramHome::Remote: return q(t.rdma_lat, "s", "RDMA latency") + std::move(bytes) / q(t.nic_bw, "B/s", "NIC");
    case EngramHome::Hbm:
    case EngramHome::Count: break;
  }
  return std::move(q(t.hbm_lat, "s", "HBM latency") + std::move(bytes) / (q(t.bw_raw, "B/s") * n(t.bw / t.bw_raw).named("streaming share")))
      .note("row-sharded in HBM");
}

// Σ rows over the tables: "(a rows + b rows)".
Expr engram_rows(const ModelArch& m) {
  std::vector<Expr> rows;
  for (int i = 0; i < m.engram_count; ++i) rows.push_back(n(m.engram_rows[static_cast<std::size_t>(i)], "rows"));
  Expr e = sum_of(std::move(rows));
  if (e.op() != Expr::Op::Leaf) e.named("rows of " + num(m.engram_count) + " tables");
  return e;
}

}  // namespace

void compute_engram_tables(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  double engram_rows = 0;
  for (int i = 0; i < m.engram_count; ++i) engram_rows += m.engram_rows[static_cast<std::size_t>(i)];
  v[F::EngramParams] = engram_rows * m.engram_dim;
  t.engram_row_bytes = m.engram_count > 0 ? vector_bytes(m.engram_fmt, m.engram_dim) : 0.0;
  v[F::EngramTableBytes] = engram_rows * t.engram_row_bytes;
  v[F::EngramBytesPerToken] =
      static_cast<double>(m.engram_count) * std::max(0, m.engram_ngram - 1) * m.engram_heads * t.engram_row_bytes;
}

// After the decode step's terms: the token is known only after sampling, so the first Engram layer's fetch
// must hide behind the layers before it.
void compute_engram_stall(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  if (m.engram_count <= 0) return;
  v[F::EngramFetchTime] = engram_fetch_time(t, m.engram_home, v[F::EngramBytesPerToken]);
  v[F::EngramPromptFetchTime] = engram_fetch_time(t, m.engram_home, c.s.work.prompt * v[F::EngramBytesPerToken]);
  v[F::EngramStepFetchTime] = engram_fetch_time(t, m.engram_home, t.tokens_replica * v[F::EngramBytesPerToken]);
  t.engram_window = t.layers > 0 ? m.engram_layers[0] / t.layers * before_engram(t, v) : 0.0;
  v[F::DecodeTStall] = std::max(0.0, v[F::EngramStepFetchTime] - t.engram_window);
  v[F::EngramStall] = v[F::DecodeTStall];
}

void describe_engram(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  if (m.engram_count == 0) {
    for (F id : {F::EngramFetchTime, F::EngramStepFetchTime, F::DecodeTStall, F::EngramStall, F::EngramPromptFetchTime, F::EngramParams,
                 F::EngramBytesPerToken, F::EngramTableBytes}) {
      y.set(id, words("no Engram"));
    }
    return;
  }
  const Expr per_token = q(v[F::EngramBytesPerToken], "B", "rows per token");
  y.set(F::EngramFetchTime, fetch_expr(y, per_token));
  y.set(F::EngramStepFetchTime, fetch_expr(y, n(t.tokens_replica, "tokens") * per_token));
  y.set(F::EngramPromptFetchTime, fetch_expr(y, n(y.w.prompt, "prompt tokens") * per_token));
  // The next token is known only after sampling: the fetch hides behind the layers before the first Engram layer.
  const Expr window = (n(m.engram_layers[0]) / n(t.layers, "layers")).named("share of the layers before Engram layer " + num(m.engram_layers[0])) *
                      q(before_engram(t, v), "s", "step before the stall");
  y.set(F::DecodeTStall, max_of({q(0, "s"), q(v[F::EngramStepFetchTime], "s", "fetch") - window}));
  y.set(F::EngramStall, q(v[F::DecodeTStall], "s", "the step's stall"));
  y.set(F::EngramParams, engram_rows(m) * n(m.engram_dim, "dims"));
  y.set(F::EngramBytesPerToken, n(m.engram_count, "layers") * n(std::max(0, m.engram_ngram - 1), "n-gram orders") *
                                    n(m.engram_heads, "hash heads") * n(t.engram_row_bytes, "B row"));
  y.set(F::EngramTableBytes, std::move((engram_rows(m) * n(t.engram_row_bytes, "B row")).note(fmt_label(m.engram_fmt))));
}

}  // namespace tierscope::model::topics
