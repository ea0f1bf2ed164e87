// Sparse reads, per session per step on one GPU: the top-k slice and its selection, the gather, the
// indexers' scans (each on its own roofline where FLOP are done) and the SWA window, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

// A radix top-k select is a kernel over its candidates: a fixed time per call (its passes over a row
// are latency-bound) plus the scores at a streaming rate, not the chip's on-chip bandwidth. On B200,
// TensorRT-LLM's radix kernel selects top-2,048 of 1,024 rows × ~131K FP32 scores in 461-497 µs (~288 G
// scores/s, https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog29_GVR_V2_Self_Sampling_Exact_TopK_for_Sparse_Attention.md)
// and short rows take ~13-14 µs a call (64 × 9,295 scores 14.3 µs,
// https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/tech_blog/blog15_Optimizing_DeepSeek_V32_on_NVIDIA_Blackwell_GPUs.md ;
// 4 × 16,384 13.5 µs, https://github.com/vllm-project/vllm/pull/37421). Hopper and the AMD parts are
// assumed at 150 G scores/s (about half the HBM bandwidth; no measurement found) with the same call time;
// Ampere and Ada at half that again (A100's 2.0 TB/s and L40S's 0.86 TB/s against Hopper's 3.35-4.8; assumed).
constexpr double kTopkCallS = 13e-6;
double topk_keys_per_s(GpuGen g) {
  switch (g) {
    case GpuGen::Blackwell: return 288e9;
    case GpuGen::Ampere:
    case GpuGen::Ada: return 75e9;
    case GpuGen::Hopper:
    case GpuGen::Cdna:
    case GpuGen::Count: break;
  }
  return 150e9;
}

double topk_rate(const Scenario& s) { return s.engine.topk_gkeys > 0 ? s.engine.topk_gkeys * 1e9 : topk_keys_per_s(gpu_gen(s.hw.gpu)); }
double topk_call_s() { return kTopkCallS; }

double topk_select_time(const Ctx& c, double queries) {
  return c.t.selecting_layers > 0 ? c.t.selecting_layers * kTopkCallS + queries * c.t.dec.select_keys / topk_rate(c.s) : 0.0;
}

void compute_sparse_reads(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Terms& t = c.t;
  v[F::TopkSliceBytes] = m.top_k * c.b_tok;
  v[F::TopkSliceTime] = v[F::TopkSliceBytes] / t.bw;
  v[F::TopkSelectTime] = topk_select_time(c, 1);
  v[F::GatherBytes] = t.dec.gather;
  v[F::GatherTime] = t.dec.gather / t.bw;
  v[F::IndexFullpoolBytes] = t.dec.fullpool;
  v[F::IndexFullpoolTime] = std::max(t.dec.fullpool / t.bw, t.fullpool_rows_idx * c.key_flop / c.peak[3]);  // its own roofline
  v[F::IndexCandidateBytes] = t.dec.pool;
  v[F::IndexCandidateTime] = std::max(t.dec.pool / t.bw, t.pool_indexers * t.pool_positions * c.key_flop / c.peak[3]);
  v[F::SwaWindowBytes] = t.dec.window;
  v[F::SwaWindowTime] = t.dec.window / t.bw;
}

namespace {

// One indexer's time: the larger of its reads and its scoring FLOP, each at its own roof.
Expr index_time(const Say& y, double bytes, double flop, const std::string& flop_note) {
  const Terms& t = y.t;
  Expr fl = q(flop, "FLOP", "scoring");
  if (!flop_note.empty()) fl.note(flop_note);
  return max_of({q(bytes, "B", "reads") / q(t.bw, "B/s"), fl / q(t.peak_c[3], "FLOP/s")});
}

}  // namespace

void describe_sparse_reads(Say& y) {
  const ModelArch& m = y.m;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  const std::string gpu = "one GPU of " + num(t.gpus);
  y.set(F::TopkSliceBytes, (n(m.top_k, "selected") * q(v[F::KvGlobalPerToken], "B", "per token"))
                               .note("the card multiplies by the whole-model bytes per token"));
  y.set(F::TopkSliceTime, q(v[F::TopkSliceBytes], "B") / q(t.bw, "B/s"));
  if (t.selecting_layers > 0) {
    y.set(F::TopkSelectTime, (n(t.selecting_layers, "selecting layers") * q(topk_call_s(), "s", "a call") +
                              n(t.dec.select_keys, "candidate scores") / n(topk_rate(y.s), "keys/s"))
                                 .note("a radix-select kernel: a fixed time per call plus the scores at its streaming rate"));
  } else {
    y.set(F::TopkSelectTime, words("no top-k selection"));
  }
  y.set(F::GatherBytes, q(t.dec.gather, "B").note("Σ over " + num(t.gather_layers) + " reading layers of min(" + num(m.top_k) + ", " + num(w.ctx) +
                                                   "/ratio) rows × " + num(v[F::KvMainEntry]) + " B main entry"));
  y.set(F::GatherTime, (q(v[F::GatherBytes], "B") / q(t.bw, "B/s")).note("bandwidth only; add " + num(y.hw.lat_hbm_us) + " µs for a dependent access"));
  y.set(F::IndexFullpoolBytes, q(t.dec.fullpool, "B").note(num(t.fullpool_indexers) + " full-pool indexers scan " + num(t.fullpool_rows_idx) +
                                                           " index rows (" + num(w.ctx) + " tokens / ratio each) × " + num(v[F::KvIndexEntry]) + " B"));
  y.set(F::IndexFullpoolTime, index_time(y, v[F::IndexFullpoolBytes], t.fullpool_rows_idx * 2.0 * m.idx_heads * m.idx_dim,
                                         "2 × " + num(m.idx_heads) + " heads × " + num(m.idx_dim) + " dims per key"));
  y.set(F::IndexCandidateBytes, q(t.dec.pool, "B").note(num(t.pool_indexers) + " candidate-pool indexers × " + num(t.pool_positions) + " positions (≤ " +
                                                        num(m.cand_blocks) + " blocks × " + num(m.cand_block) + ") × " + num(v[F::KvIndexEntry]) + " B"));
  y.set(F::IndexCandidateTime, index_time(y, v[F::IndexCandidateBytes], t.pool_indexers * t.pool_positions * 2.0 * m.idx_heads * m.idx_dim, ""));
  y.set(F::SwaWindowBytes, q(t.dec.window, "B").note(num(t.window_layers) + " layers × min(" + num(m.n_win) + ", " + num(w.ctx) + ") tokens × " +
                                                     num(v[F::KvSwaEntry]) + " B"));
  y.set(F::SwaWindowTime, (q(v[F::SwaWindowBytes], "B") / q(t.bw, "B/s")).note(gpu));
}

}  // namespace tierscope::model::topics
