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

void describe_swa(Say& y) {
  const ModelArch& m = y.m;
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  const std::string& link = y.link;
  const std::string& share = y.share;
  const bool win = y.win;
  y.set(F::SwaRestoreLayerTime, !win ? std::string("no sliding window")
                                     : human(t.host_lat, "s") + " DMA latency + " + num(m.n_win) + " × " + num(v[F::KvSwaEntry]) + " B" + share + link);
  y.set(F::SwaRestoreSessionTime, !win ? std::string("no sliding window") : human(t.host_lat, "s") + " DMA latency + " + y.H(F::KvSwaPerSession) + share + link);
  y.set(F::SwaPoolBytes, !win ? std::string("no sliding window") : num(w.swa_pool) + " × " + num(hw.host_dram_gb) + " GB host DRAM");
  y.set(F::SwaPoolSessions, !win ? std::string("no sliding window")
                                 : "⌊" + y.H(F::SwaPoolBytes) + " / " + y.H(F::KvSwaPerSession) + "⌋ = ⌊" +
                                       num_sig(v[F::KvSwaPerSession] > 0 ? v[F::SwaPoolBytes] / v[F::KvSwaPerSession] : 0, 6) + "⌋");
  y.set(F::ResumeKvReloadTime, human(t.host_lat, "s") + " DMA latency + " + num(w.ctx) + " tokens × " + num(v[F::KvGlobalPerToken]) + " B/token" + share + link);
  y.set(F::ResumeKvSsdTime, num(hw.lat_ssd_us) + " µs + " + B(w.ctx * v[F::KvGlobalPerToken]) + " / (" + num(hw.ssd_count) + " × " + num(hw.ssd_gbps) + " GB/s)");
  y.set(F::SwaPoolVsHbm, !win ? std::string("no sliding window") : y.H(F::SwaPoolSessions) + " in the pool / " + y.H(F::HbmSessionsPerNode) + " in one node's HBM");
}

}  // namespace tierscope::model::topics
