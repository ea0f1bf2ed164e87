// The terms a decode step's time splits into, one row each: the bars of the breakdown chart, the gap of each
// measured anchor, the sum decode.step_time's formula writes and the walkthrough's "mostly …" all read these
// rows, so none of them can leave a term out or name it otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "roofline/figures.h"

namespace tierscope::model {

enum class DecodeTerm : std::uint8_t { Weights, KvReads, Compute, Topk, A2a, Allreduce, Floors, Drafts, EngramStall, Host, Prefill, Count };

// A term: the figures whose sum it is, the name the breakdown and `tierscope anchors` give it, and the name
// decode.step_time's formula gives it where the formula adds it after the kernel classes' roofs.
struct DecodeTermDef {
  DecodeTerm term;
  const char* key;        // stable: the page's catalog and the walkthrough name the term by it
  const char* label;      // the breakdown's bar and the anchors' gap ("kernel launch floors")
  std::array<FigureId, 5> figures;  // summed in this order; FigureId::Count ends the list
  // Its name in decode.step_time's sum and its place there (1, 2, …), for the terms the sum adds after the
  // kernel classes' max(compute, memory, launch floor); 0: the classes' roofs already hold it.
  const char* formula_name;
  int formula_place;
  bool serve_only;        // only a served step has it (a prompt chunk riding the step)
};

// A term's figures: one, or several summed in order (FigureId::Count ends the list).
constexpr std::array<FigureId, 5> sum_of(FigureId a, FigureId b = FigureId::Count, FigureId c = FigureId::Count, FigureId d = FigureId::Count,
                                         FigureId e = FigureId::Count) {
  return {a, b, c, d, e};
}

// In the order the breakdown stacks them (reads, then compute, then each collective and floor).
inline constexpr DecodeTermDef kDecodeTerms[] = {
    {DecodeTerm::Weights, "weights", "weights", sum_of(FigureId::DecodeTWeights), nullptr, 0, false},
    {DecodeTerm::KvReads, "kv-reads", "KV and index reads",
     sum_of(FigureId::DecodeTIndex, FigureId::DecodeTGather, FigureId::DecodeTWindow, FigureId::DecodeTAppend, FigureId::DecodeTState),
     nullptr, 0, false},
    {DecodeTerm::Compute, "compute", "compute above the reads", sum_of(FigureId::DecodeTCompute), nullptr, 0, false},
    {DecodeTerm::Topk, "top-k", "top-k selection", sum_of(FigureId::DecodeTTopk), "top-k", 3, false},
    {DecodeTerm::A2a, "all-to-all", "MoE all-to-all", sum_of(FigureId::DecodeTA2a), "all-to-all", 1, false},
    {DecodeTerm::Allreduce, "all-reduce", "all-reduce", sum_of(FigureId::DecodeTAllreduce), "all-reduce", 2, false},
    {DecodeTerm::Floors, "launch-floors", "kernel launch floors", sum_of(FigureId::DecodeTOverhead), nullptr, 0, false},
    {DecodeTerm::Drafts, "drafts", "speculative drafts", sum_of(FigureId::DecodeTDraft), "drafts", 4, false},
    {DecodeTerm::EngramStall, "engram-stall", "Engram stall", sum_of(FigureId::DecodeTStall), "Engram stall", 5, false},
    {DecodeTerm::Host, "host", "host and scheduler", sum_of(FigureId::DecodeTHost), "host", 6, false},
    {DecodeTerm::Prefill, "prefill", "prefill interleaved", sum_of(FigureId::ServePrefillShare), nullptr, 0, true},
};
constexpr int kDecodeTermCount = static_cast<int>(std::size(kDecodeTerms));

constexpr bool decode_terms_in_order() {
  for (int i = 0; i < kDecodeTermCount; ++i)
    if (static_cast<int>(kDecodeTerms[i].term) != i) return false;
  return kDecodeTermCount == static_cast<int>(DecodeTerm::Count);
}
static_assert(decode_terms_in_order(), "kDecodeTerms has one row per DecodeTerm, in order");
// The formula's places run 1, 2, … with no gap and no place twice.
constexpr bool formula_places_whole() {
  int n = 0;
  for (const DecodeTermDef& t : kDecodeTerms) n += t.formula_place > 0;
  for (int place = 1; place <= n; ++place) {
    int found = 0;
    for (const DecodeTermDef& t : kDecodeTerms) found += t.formula_place == place && t.formula_name != nullptr && t.figures[1] == FigureId::Count;
    if (found != 1) return false;
  }
  return true;
}
static_assert(formula_places_whole(), "each term decode.step_time adds has one place in its sum, and is one figure");

const DecodeTermDef& decode_term(DecodeTerm t);
// The term's seconds: its figures summed in order.
double term_seconds(const DecodeTermDef& t, const Values& v);

// A named part of a decode step ("weights", "KV and index reads", "MoE all-to-all", ...), in seconds.
struct StepTerm {
  std::string label;
  double seconds = 0;
};

// The decode step's time by term, every row of kDecodeTerms in order (they sum to decode.step_time); the
// interleaved prefill only when `serve`, else 0.
std::vector<StepTerm> step_terms(const Values& v, bool serve);

}  // namespace tierscope::model
