// Bounded replay of the window after an SWA miss: the window's tokens alone, and what they add when they
// ride along in a decode step, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

// Only for a model that replays its window (replays_window), when a requested figure needs it.
void compute_replay(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  Terms& t = c.t;
  const KvSizes& z = c.z;
  const double wt = std::min<double>(m.n_win, c.s.work.ctx);
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
  t.replay_merged_step = decode_pass(c, c.batch, t.q, wt, kv).time();
  v[F::ReplayTime] = std::max(0.0, t.replay_merged_step - t.step.time());
}

void describe_replay(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Workload& w = y.w;
  const bool replays = y.replays;
  const std::string& no_replay = y.no_replay;
  const double wt = std::min<double>(m.n_win, w.ctx);
  y.set(F::ReplayFlop, replays ? "every GPU: the last " + num(wt) + " tokens through all " + num(t.layers) + " layers, 2 × active parameters per token + attention and indexer over " +
                                     num(w.ctx) + " positions"
                               : no_replay);
  y.set(F::ReplayTimeStandalone, replays ? y.roof(t.replay) : no_replay);
  y.set(F::ReplayWeightBytes, replays ? "attention and dense parts + " + num(t.moe_layers) + " MoE layers × the experts " + num(wt) +
                                            " tokens touch on one rank × " + P(t.p_expert) + " × " + num_sig(t.bpv_experts, 6) + " B / " + num(t.mt)
                                      : no_replay);
  y.set(F::ReplayTime, replays ? "decode step with the window's " + num(wt) + " tokens riding along " + S(t.replay_merged_step) + " − the step alone " +
                                     S(t.step.time()) + " (its weights are streamed anyway)"
                               : no_replay);
}

}  // namespace tierscope::model::topics
