// Prefill of the prompt: the layers before the last KV source over every prompt token in chunks, then the
// rest over the last window, on one replica (its experts meeting every replica's tokens), with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

void compute_prefill(Ctx& c, Values& v) {
  Terms& t = c.t;
  Work pw, ww;
  double proj = 0;
  t.prefill = prefill_of(c, c.s.work.prompt, 0, &v[F::PrefillChunkWeightBytes], &pw, &ww, &proj);
  const double n = t.prefill_chunks = t.prefill.chunks;
  // The prompt's own FLOP on every GPU: the experts count its tokens only, not the other replicas'.
  t.prefill_flop_weights = (n * pw.flop_dense + ww.flop_dense) * t.tp;
  t.prefill_flop_experts = (n * pw.flop_experts_all + ww.flop_experts_all) / t.dp;
  t.prefill_flop_attn = (n * pw.flop_attn + ww.flop_attn) * t.tp;
  t.prefill_flop_index = (n * pw.flop_index + ww.flop_index) * t.tp;
  t.prefill_flop_tail = c.s.work.prompt > 0 ? proj * t.tp + 2.0 * t.p_head : 0.0;
  t.prefill_chunk_w_dense = pw.w_dense;
  t.prefill_chunk_w_experts = pw.w_experts;
  v[F::PrefillFlop] = t.prefill.flop_all();
  v[F::PrefillFullTime] = t.prefill.full.time();
  v[F::PrefillWindowTime] = t.prefill.win.time();
  v[F::PrefillTime] = t.prefill.time();
}

namespace {

// A prompt pass on the busiest GPU: Σ over its kernel classes, then its collectives.
Expr pass_expr(const Say& y, const Pass& p) { return y.classes_expr(p) + q(p.t_comm, "s", "collectives"); }

}  // namespace

void describe_prefill(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Workload& w = y.w;
  const std::string replicas = t.dp > 1 ? "the experts meet " + num(t.dp) + " replicas' prompts at once" : std::string();
  {
    Expr experts = q(t.prefill_flop_experts, "FLOP", "routed experts");
    experts.note(num(w.prompt) + " tokens × " + num(m.experts_per_token) + " experts each");
    Expr e = q(t.prefill_flop_weights, "FLOP", "dense and attention projections") + experts + q(t.prefill_flop_attn, "FLOP", "attention core") +
             q(t.prefill_flop_index, "FLOP", "indexer") + q(t.prefill_flop_tail, "FLOP", "last layers' KV projections and head");
    e.note("every GPU; layers before " + (t.last_source >= 0 ? "layer " + num(t.last_source) : std::string("the end")) +
           " see every token, the rest the last window");
    y.set(F::PrefillFlop, std::move(e));
  }
  {
    Expr e = pass_expr(y, t.prefill.full);
    e.note(num(t.prefill_chunks) + (t.prefill_chunks == 1 ? " chunk" : " chunks") + " of ≤ " + num(w.chunk) + " tokens through " + num(t.full_layers) +
           " layers on one replica" + (replicas.empty() ? std::string() : "; " + replicas));
    y.set(F::PrefillFullTime, std::move(e));
  }
  {
    Expr e = pass_expr(y, t.prefill.win);
    e.note("the last " + num(m.n_win > 0 ? std::min<double>(m.n_win, w.prompt) : 1.0) + " tokens through the " + num(t.layers - t.full_layers) +
           " layers from the last KV source on");
    y.set(F::PrefillWindowTime, std::move(e));
  }
  y.set(F::PrefillTime, q(t.prefill.full.time(), "s", "every token") + q(t.prefill.win.time(), "s", "the last window"));
  {
    Expr e = q(t.prefill_chunk_w_dense, "B", "attention and dense parts") + q(t.prefill_chunk_w_experts, "B", "experts touched on the busiest rank");
    e.note(num(t.prefill_chunks > 0 ? w.prompt / t.prefill_chunks : 0) + " tokens per chunk" + (t.dp > 1 ? " × " + num(t.dp) + " replicas at the experts" : "") +
           "; one GPU of " + num(t.gpus));
    y.set(F::PrefillChunkWeightBytes, std::move(e));
  }
}

}  // namespace tierscope::model::topics
