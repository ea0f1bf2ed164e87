// Claims from the design card (FACTS §4) and the comparison that turns them into verdicts.
#include "model/card_check.h"

#include "model/presets.h"
#include "model/text.h"

namespace tierscope::model {

namespace {

using F = FigureId;
constexpr F kNone = FigureId::Count;

const Claim kClaims[] = {
    {"params-total", "552B total", 540e9, 565e9, F::ParamsTotal, kNone, "", "", "FACTS §4 #1: the backbone; Engram's 196.6B is extra"},
    {"params-active", "16B active", 15.5e9, 16.5e9, F::ParamsActiveDecode, kNone, "", "",
     "FACTS §4 #1: decode activates 16.4B, prefill 8.2B"},
    {"weights-per-token", "~32 GB/token streamed", 24e9, 40e9, F::DecodeWeightBytes, kNone, "",
     "all weights are BF16 (the released checkpoint is FP4 experts + FP8 dense)", "FACTS §4 #2"},
    {"step-floor", "~0.4–0.5 ms floor", 0.4e-3, 0.5e-3, F::DecodeStepFloor, kNone, "",
     "BF16 weights, 8 GPUs at 8 TB/s, MBU 1, batch 1", "FACTS §4 #3: one GPU would take 4 ms; measured TPOT is 2.1 ms on 4×GB300"},
    {"weight-share", "≥95% of every decode step", 0.95, 1.0, F::DecodeWeightShare, kNone, "",
     "short contexts or small batches", "FACTS §4 #4: fails at long context with large batch"},
    {"topk-slice", "Top-512 slice ≈ 450 KB", 405e3, 495e3, F::TopkSliceBytes, kNone, "", "",
     "FACTS §4 #5: 512 × 890 B multiplies by the whole-model bytes per token, not a per-layer row (288 B)"},
    {"topk-time", "~1 µs/step at 8 TB/s (FP4 global KV)", 0.5e-6, 1.5e-6, F::TopkSliceTime, F::GatherTime,
     "read as the physical gather: every reading layer fetches its top-k rows of 288 B", "",
     "FACTS §4 #6: 456 KB at 8 TB/s is 57 ns"},
    {"index-sub-us", "CSA2 sparse index sub-µs; candidate pool caps scoring", 0, 1e-6, F::IndexFullpoolTime,
     F::IndexCandidateTime, "only the candidate-pool (Reindex) indexers; the Full layers still scan the whole pool", "",
     "FACTS §4 #7: full-pool scan grows with context (22 MB at 128K)"},
    {"swa-window", "SWA KV active window <1 µs", 0, 1e-6, F::SwaWindowTime, kNone, "", "batch 1",
     "FACTS §4 #8: scales with the batch"},
    {"swa-hit", "SWA pool hit 1.5–3 µs", 1.5e-6, 3e-6, F::SwaRestoreSessionTime, F::SwaRestoreLayerTime,
     "the restore is pipelined one layer at a time behind compute", "", "FACTS §4 #13: a whole session is ~42 µs over PCIe 5"},
    {"replay", "bounded replay ≈ 10–100 µs of compute", 10e-6, 100e-6, F::ReplayTime, kNone, "",
     "FP4 compute on 8 GPUs with the replay merged into a prefill batch", "FACTS §4 #14: 116 µs at FP8, 58 µs at FP4 on 8×B200"},
    {"engram-params", "Engram — 196B learned weight tables", 186e9, 206e9, F::EngramParams, kNone, "", "", "FACTS §4 #15"},
    {"engram-stall", "Engram ~2 µs if stalled", 1e-6, 3e-6, F::EngramFetchTime, kNone, "", "",
     "FACTS §4 #16: 12.7 KB per token plus RDMA latency"},
    {"engram-hidden", "Engram ~0 on the critical path", 0, 0.1e-6, F::EngramStall, kNone, "", "",
     "FACTS §4 #16: layer 1's prefetch window is ~1/40 of a step"},
    {"ssd-hit", "SSD prefix hit ~60–100 µs", 60e-6, 100e-6, F::PrefixSsdHitTime, kNone, "",
     "the hit is about 1K tokens (the card preset hits 1,024)", "FACTS §4 #19: model a hit as latency + bytes / bandwidth"},
    {"hbm-capacity", "HBM 141–192 GB/GPU", 141e9, 192e9, F::HwHbmPerGpu, kNone, "", "", "FACTS §4 #10: B300/MI355X reach 288 GB"},
    {"hbm-bandwidth", "HBM 5–8 TB/s", 5e12, 8e12, F::HwHbmBwPerGpu, kNone, "", "", "FACTS §4 #10: H100 is 3.35 TB/s"},
    {"sram-capacity", "GPU SRAM ~50 MB", 37.5e6, 62.5e6, F::HwSramPerGpu, kNone, "", "",
     "FACTS §4 #9: matches H100/H200 L2 (50 MB); B200 has 126 MB"},
    {"host-link", "host DRAM ~64 GB/s hop", 48e9, 80e9, F::HwHostLinkBw, kNone, "", "", "FACTS §4 #12: PCIe 5 x16 per direction"},
    {"ssd-bandwidth", "NVMe ~12–14 GB/s per drive", 12e9, 14e9, F::HwSsdBwPerDrive, kNone, "", "", "FACTS §4 #17"},
};

bool inside(double v, const Claim& c) { return v >= c.lo && v <= c.hi; }

std::string show(const Claim& c, double v) { return human(v, figure_info(c.figure).unit); }

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Consistent: return "consistent";
    case Verdict::HoldsOnlyIf: return "holds only if";
    case Verdict::Inconsistent: return "inconsistent";
  }
  return "inconsistent";
}

std::span<const Claim> claims() { return {kClaims, sizeof kClaims / sizeof kClaims[0]}; }

std::string claim_band(const Claim& c) {
  const char* unit = figure_info(c.figure).unit;
  return human(c.lo, unit) + " to " + human(c.hi, unit);
}

std::vector<CardRow> check_card(const Scenario& scenario) {
  Scenario card;
  make_preset("v41-flash-card", card);
  Computed here, there;
  compute_values(scenario, here);
  compute_values(card, there);
  std::vector<CardRow> rows;
  rows.reserve(claims().size());
  for (const Claim& c : claims()) {
    CardRow r;
    r.claim = &c;
    r.value = here.values[c.figure];
    r.card_value = there.values[c.figure];
    const bool has_alt = c.alt != kNone;
    r.alt_value = has_alt ? here.values[c.alt] : 0.0;
    const std::string band = claim_band(c);
    const std::string base = "scenario computes " + show(c, r.value) + " (claim " + band + ")";
    if (inside(r.value, c)) {
      r.verdict = Verdict::Consistent;
      r.reason = base + ": inside the band";
    } else if (has_alt && inside(r.alt_value, c)) {
      r.verdict = Verdict::HoldsOnlyIf;
      r.condition = c.alt_condition;
      r.reason = base + "; read as " + figure_info(c.alt).label + " it is " + human(r.alt_value, figure_info(c.alt).unit);
    } else if (c.card_condition[0] != '\0' && inside(r.card_value, c)) {
      r.verdict = Verdict::HoldsOnlyIf;
      r.condition = c.card_condition;
      r.reason = base + "; under the card's assumptions it is " + show(c, r.card_value);
    } else {
      r.verdict = Verdict::Inconsistent;
      r.reason = base + "; under the card's assumptions " + show(c, r.card_value) +
                 (has_alt ? "; read as " + std::string(figure_info(c.alt).label) + " " +
                                human(r.alt_value, figure_info(c.alt).unit)
                          : std::string());
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace tierscope::model
