// The decode step's terms (step_terms.h): each row's seconds from its figures.
#include "roofline/step_terms.h"

namespace tierscope::model {

const DecodeTermDef& decode_term(DecodeTerm t) {
  const int i = static_cast<int>(t);
  return kDecodeTerms[i >= 0 && i < kDecodeTermCount ? i : 0];
}

double term_seconds(const DecodeTermDef& t, const Values& v) {
  double s = 0;
  for (const FigureId f : t.figures) {
    if (f == FigureId::Count) break;
    s += v[f];
  }
  return s;
}

std::vector<StepTerm> step_terms(const Values& v, bool serve) {
  std::vector<StepTerm> out;
  out.reserve(kDecodeTermCount);
  for (const DecodeTermDef& t : kDecodeTerms) out.push_back({t.label, t.serve_only && !serve ? 0.0 : term_seconds(t, v)});
  return out;
}

}  // namespace tierscope::model
