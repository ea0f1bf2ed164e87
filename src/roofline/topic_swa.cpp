// The sliding window's restore and pool: bringing a layer's or a session's window back over the host link,
// how many sessions' windows host DRAM holds, and a resumed session's KV from DRAM or SSD, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

void compute_swa(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Hardware& hw = c.s.hw;
  const Terms& t = c.t;
  const KvSizes& z = c.z;
  const double ctx = c.s.work.ctx;
  const bool win = has_swa(m);
  v[F::SwaRestoreLayerTime] = win ? host_transfer_time(t, m.n_win * z.swa * t.kv_share) : 0.0;
  v[F::SwaRestoreSessionTime] = win ? host_transfer_time(t, c.swa_session * t.kv_share) : 0.0;
  v[F::SwaPoolBytes] = win ? c.s.work.swa_pool * hw.host_dram_gb * 1e9 : 0.0;
  v[F::SwaPoolSessions] = c.swa_session > 0 ? std::floor(v[F::SwaPoolBytes] / c.swa_session) : 0.0;
  v[F::ResumeKvReloadTime] = host_transfer_time(t, ctx * c.b_tok * t.kv_share);
  v[F::ResumeKvSsdTime] = ssd_read_time(t, ctx * c.b_tok);
  v[F::SwaPoolVsHbm] = v[F::HbmSessionsPerNode] > 0 ? v[F::SwaPoolSessions] / v[F::HbmSessionsPerNode] : 0.0;
}

namespace {

// host_transfer_time() as an expression: DMA latency + the bytes (a GPU's share of them) over the host link.
Expr host_expr(const Say& y, Expr bytes) {
  const Terms& t = y.t;
  bytes = y.kv_split(std::move(bytes));
  return q(t.host_lat, "s", "DMA latency") + std::move(bytes) / q(t.host_bw, "B/s", link_info(y.hw.host_link).label);
}

}  // namespace

void describe_swa(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  const Expr global = (n(w.ctx, "tokens") * q(v[F::KvGlobalPerToken], "B/token")).named("global KV");
  y.set(F::ResumeKvReloadTime, host_expr(y, global));
  y.set(F::ResumeKvSsdTime, q(t.ssd_lat, "s", "I/O latency") + global / (n(hw.ssd_count, "drives") * q(hw.ssd_gbps * 1e9, "B/s")));
  if (!y.win) {
    for (F id : {F::SwaRestoreLayerTime, F::SwaRestoreSessionTime, F::SwaPoolBytes, F::SwaPoolSessions, F::SwaPoolVsHbm}) {
      y.set(id, words("no sliding window"));
    }
    return;
  }
  y.set(F::SwaRestoreLayerTime, host_expr(y, (n(m.n_win, "tokens") * q(v[F::KvSwaEntry], "B")).named("one layer's window")));
  y.set(F::SwaRestoreSessionTime, host_expr(y, q(v[F::KvSwaPerSession], "B", "the session's window")));
  y.set(F::SwaPoolBytes, n(w.swa_pool).named("swa_pool") * q(hw.host_dram_gb * 1e9, "B", "host DRAM"));
  if (v[F::KvSwaPerSession] > 0) {
    y.set(F::SwaPoolSessions, floor_of(q(v[F::SwaPoolBytes], "B", "pool") / q(v[F::KvSwaPerSession], "B", "one session's window")));
  } else {
    y.set(F::SwaPoolSessions, words("no layer keeps a window"));
  }
  if (v[F::HbmSessionsPerNode] > 0) {
    y.set(F::SwaPoolVsHbm, q(v[F::SwaPoolSessions], "sessions", "in the pool") / q(v[F::HbmSessionsPerNode], "sessions", "in one node's HBM"));
  } else {
    y.set(F::SwaPoolVsHbm, words("no session fits in HBM"));
  }
}

}  // namespace tierscope::model::topics
