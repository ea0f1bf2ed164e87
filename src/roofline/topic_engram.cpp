// Engram: the hashed n-gram tables (their rows, bytes and the bytes one token fetches), the fetch from
// wherever they live and the decode stall it causes, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

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
  const double before_stall = t.step.time() + v[F::DecodeTTopk] + v[F::DecodeTDraft];
  t.engram_window = t.layers > 0 ? m.engram_layers[0] / t.layers * before_stall : 0.0;
  v[F::DecodeTStall] = std::max(0.0, v[F::EngramStepFetchTime] - t.engram_window);
  v[F::EngramStall] = v[F::DecodeTStall];
}

void describe_engram(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  y.set(F::EngramFetchTime, m.engram_count == 0 ? std::string("no Engram")
                            : m.engram_home == EngramHome::Dram
                                ? human(t.host_lat, "s") + " host DMA latency + " + y.H(F::EngramBytesPerToken) + " / " + human(t.host_bw, "B/s") + " host link"
                            : m.engram_home == EngramHome::Remote
                                ? num(hw.lat_rdma_us) + " µs RDMA latency + " + y.H(F::EngramBytesPerToken) + " / " + human(t.nic_bw, "B/s") + " NIC"
                                : num(hw.lat_hbm_us) + " µs HBM latency + " + y.H(F::EngramBytesPerToken) + " / (" + y.bw + ") (row-sharded in HBM)");
  y.set(F::EngramStepFetchTime, m.engram_count == 0 ? std::string("no Engram")
                                                    : "the same path for " + num(t.tokens_replica) + " tokens × " + y.H(F::EngramBytesPerToken));
  y.set(F::DecodeTStall, m.engram_count == 0 ? std::string("no Engram")
                                             : "max(0, " + y.H(F::EngramStepFetchTime) + " fetch − " + S(t.engram_window) + " until layer " +
                                                   num(m.engram_layers[0]) + " of " + num(t.layers) + " runs)");
  y.set(F::EngramStall, "the step's stall: " + y.H(F::DecodeTStall));
  y.set(F::EngramPromptFetchTime, m.engram_count == 0 ? std::string("no Engram") : "the same path for " + num(y.w.prompt) + " prompt tokens × " + y.H(F::EngramBytesPerToken));
  y.set(F::EngramParams, m.engram_count > 0 ? "Σ rows of " + num(m.engram_count) + " tables × " + num(m.engram_dim) + " dims" : std::string("no Engram"));
  y.set(F::EngramBytesPerToken, m.engram_count > 0 ? num(m.engram_count) + " layers × " + num(std::max(0, m.engram_ngram - 1)) + " n-gram orders × " +
                                                         num(m.engram_heads) + " hash heads × " + num(t.engram_row_bytes) + " B row"
                                                   : std::string("no Engram"));
  y.set(F::EngramTableBytes, m.engram_count > 0 ? "Σ rows × " + num(t.engram_row_bytes) + " B per row (" + fmt_label(m.engram_fmt) + ")" : std::string("no Engram"));
}

}  // namespace tierscope::model::topics
