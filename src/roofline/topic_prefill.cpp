// Prefill of the prompt: the layers before the last KV source over every prompt token in chunks, then the
// rest over the last window, on one replica, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

void compute_prefill(Ctx& c, Values& v) {
  Terms& t = c.t;
  Work pw;
  t.prefill = prefill_of(c, c.s.work.prompt, 0, &v[F::PrefillChunkWeightBytes], &pw);
  t.prefill_chunks = t.prefill.chunks;
  t.prefill_flop_weights = t.prefill_chunks * (pw.flop_dense + pw.flop_experts);
  t.prefill_flop_attn = t.prefill_chunks * pw.flop_attn;
  t.prefill_flop_index = t.prefill_chunks * pw.flop_index;
  v[F::PrefillFlop] = t.prefill.flop_all();
  v[F::PrefillFullTime] = t.prefill.full.time();
  v[F::PrefillWindowTime] = t.prefill.win.time();
  v[F::PrefillTime] = t.prefill.time();
}

void describe_prefill(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Workload& w = y.w;
  y.set(F::PrefillFlop, "every GPU: weights and attention projections " + FL(t.prefill_flop_weights * t.tp) + " + attention core " +
                            FL(t.prefill_flop_attn * t.tp) + " + indexer " + FL(t.prefill_flop_index * t.tp) + " over " + num(w.prompt) +
                            " tokens (layers before " + (t.last_source >= 0 ? "layer " + num(t.last_source) : std::string("the end")) +
                            " see every token, the rest the last window)");
  y.set(F::PrefillFullTime, num(t.prefill_chunks) + (t.prefill_chunks == 1 ? " chunk" : " chunks") + " of ≤ " + num(w.chunk) + " tokens through " +
                                num(t.full_layers) + " layers on one replica: " + y.roof(t.prefill.full));
  y.set(F::PrefillWindowTime, "the last " + num(m.n_win > 0 ? std::min<double>(m.n_win, w.prompt) : 1.0) + " tokens through the " +
                                  num(t.layers - t.full_layers) + " layers from the last KV source on (they own no other KV): " + y.roof(t.prefill.win));
  y.set(F::PrefillTime, y.H(F::PrefillFullTime) + " + " + y.H(F::PrefillWindowTime));
  y.set(F::PrefillChunkWeightBytes, "attention and dense parts + " + num(t.moe_layers) + " MoE layers × the experts " +
                                        num(t.prefill_chunks > 0 ? w.prompt / t.prefill_chunks : 0) + " tokens touch on one rank" + y.per_gpu_note);
}

}  // namespace tierscope::model::topics
