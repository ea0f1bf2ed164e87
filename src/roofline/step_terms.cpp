// The decode step's terms, grouped as a profile groups kernels (reads together, then compute, then each
// collective and floor).
#include "roofline/step_terms.h"

namespace tierscope::model {

namespace {
using F = FigureId;
}  // namespace

std::vector<StepTerm> step_terms(const Values& v, bool serve) {
  return {
      {"weights", v[F::DecodeTWeights]},
      {"KV and index reads", v[F::DecodeTIndex] + v[F::DecodeTGather] + v[F::DecodeTWindow] + v[F::DecodeTAppend] + v[F::DecodeTState]},
      {"compute above the reads", v[F::DecodeTCompute]},
      {"top-k selection", v[F::DecodeTTopk]},
      {"MoE all-to-all", v[F::DecodeTA2a]},
      {"all-reduce", v[F::DecodeTAllreduce]},
      {"kernel launch floors", v[F::DecodeTOverhead]},
      {"speculative drafts", v[F::DecodeTDraft]},
      {"Engram stall", v[F::DecodeTStall]},
      {"host and scheduler", v[F::DecodeTHost]},
      {"prefill interleaved", serve ? v[F::ServePrefillShare] : 0.0},
  };
}

}  // namespace tierscope::model
