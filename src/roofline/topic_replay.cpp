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
  r.bytes_c[2] += kv - index + wt * t.kv_share * (t.window_layers + t.chunk_layers) * z.swa;
  r.bytes_c[3] += index;
  r.close(c.peak, t.bw);
  r.flop_all = rw.flop_all;
  t.replay_flop_dense = rw.flop_dense * t.tp;
  t.replay_flop_experts = rw.flop_experts_all;
  t.replay_flop_attn = (rw.flop_attn + rw.flop_index) * t.tp;
  t.replay_w_dense = rw.w_dense;
  t.replay_w_experts = rw.w_experts;
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
  if (!y.replays) {
    for (F id : {F::ReplayFlop, F::ReplayTimeStandalone, F::ReplayWeightBytes, F::ReplayTime}) y.set(id, words(y.no_replay));
    return;
  }
  const double wt = std::min<double>(m.n_win, w.ctx);
  const std::string tokens = "the last " + num(wt) + " tokens through all " + num(t.layers) + " layers";
  y.set(F::ReplayFlop, (q(t.replay_flop_dense, "FLOP", "dense and attention projections") + q(t.replay_flop_experts, "FLOP", "routed experts") +
                        q(t.replay_flop_attn, "FLOP", "attention and indexer over " + num(w.ctx) + " positions"))
                           .note("every GPU: " + tokens));
  y.set(F::ReplayTimeStandalone, (y.classes_expr(t.replay) + q(t.replay.t_comm, "s", "collectives")).note(tokens + ", alone"));
  y.set(F::ReplayWeightBytes, (q(t.replay_w_dense, "B", "attention and dense parts") + q(t.replay_w_experts, "B", "experts the window's tokens touch on one rank"))
                                  .note("one GPU of " + num(t.gpus)));
  const double gain = t.replay_merged_step - t.step.time();
  Expr e = q(t.replay_merged_step, "s", "decode step with the window riding along") - q(t.step.time(), "s", "the step alone");
  if (gain < 0) e = max_of({q(0, "s"), e});
  e.note("its weights are streamed anyway");
  y.set(F::ReplayTime, std::move(e));
}

}  // namespace tierscope::model::topics
