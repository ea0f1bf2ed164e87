// Claims from the design card (FACTS §4) and the search that turns them into verdicts with conditions.
#include "evidence/card_check.h"

#include <cmath>
#include <limits>
#include <vector>

#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::model {

namespace {

using F = FigureId;
constexpr F kNone = FigureId::Count;
constexpr double kInf = std::numeric_limits<double>::infinity();

const Claim kClaims[] = {
    {"params-total", "552B total", 540e9, 565e9, F::ParamsTotal, kNone, "", {}},
    {"params-active", "16B active", 15.5e9, 16.5e9, F::ParamsActiveDecode, kNone, "", {}},
    {"weights-per-token", "~32 GB/token streamed", 24e9, 40e9, F::WeightsPerToken, kNone, "", {"experts_fmt", 0, 0}},
    {"step-floor", "~0.4–0.5 ms floor", 0.4e-3, 0.5e-3, F::DecodeStepTime, F::DecodeMemoryRoof,
     "read as the memory roof alone (bytes ÷ bandwidth, no per-layer, collective or latency terms)", {"gpus", 1, 64}},
    {"weight-share", "≥95% of every decode step", 0.95, 1.0, F::DecodeWeightShare, kNone, "", {"ctx", 1024, 16777216}},
    {"topk-slice", "Top-512 slice ≈ 450 KB", 405e3, 495e3, F::TopkSliceBytes, kNone, "", {}},
    {"topk-time", "~1 µs/step at 8 TB/s (FP4 global KV)", 0.5e-6, 1.5e-6, F::TopkSliceTime, F::GatherTime,
     "read as the physical gather: every reading layer fetches its own top-k rows", {}},
    {"index-sub-us", "CSA2 sparse index sub-µs; candidate pool caps scoring", 0, 1e-6, F::IndexFullpoolTime, F::IndexCandidateTime,
     "read as the candidate-pool indexers only (the Full layers still scan the whole pool)", {"ctx", 1024, 16777216}},
    {"swa-window", "SWA KV active window <1 µs", 0, 1e-6, F::SwaWindowTime, kNone, "", {}},
    {"swa-capacity", "SWA capacity cost ≈ zero", 0, 0.05, F::KvSwaShare, kNone, "", {"ctx", 1024, 16777216}},
    {"swa-hit", "SWA pool hit 1.5–3 µs", 1.5e-6, 3e-6, F::SwaRestoreSessionTime, F::SwaRestoreLayerTime,
     "read as one layer's restore, pipelined behind the previous layer's compute", {"host_link", 0, 0}},
    {"replay", "bounded replay ≈ 10–100 µs of compute", 10e-6, 100e-6, F::ReplayTime, F::ReplayTimeStandalone,
     "read as the replay run alone", {"batch", 1, 65536}},
    {"engram-params", "Engram — 196B learned weight tables", 186e9, 206e9, F::EngramParams, kNone, "", {}},
    {"engram-stall", "Engram ~2 µs if stalled", 1e-6, 3e-6, F::EngramFetchTime, kNone, "", {"engram_home", 0, 0}},
    {"engram-hidden", "Engram ~0 on the critical path", 0, 0.1e-6, F::EngramStall, kNone, "", {"batch", 1, 65536}},
    {"ssd-hit", "SSD prefix hit ~60–100 µs", 60e-6, 100e-6, F::PrefixSsdPathTime, F::PrefixSsdReadTime,
     "read as the SSD read alone, before the copy into HBM", {"prefix_hit", 64, 1048576}},
    {"retention", "persistent prefix cache ≥72 h", 72, kInf, F::SsdRetentionHours, kNone, "", {"ssd_tb", 0.96, 122.88}},
    {"hbm-capacity", "HBM 141–192 GB/GPU", 141e9, 192e9, F::HwHbmPerGpu, kNone, "", {"gpu", 0, 0}},
    {"hbm-bandwidth", "HBM 5–8 TB/s", 5e12, 8e12, F::HwHbmBwPerGpu, kNone, "", {"gpu", 0, 0}},
    {"sram-capacity", "GPU SRAM ~50 MB", 37.5e6, 62.5e6, F::HwSramPerGpu, kNone, "", {"gpu", 0, 0}},
    {"sram-latency", "GPU SRAM ~1–5 ns", 1e-9, 5e-9, F::HwSramLatency, kNone, "", {"lat_sram_ns", 0, 0}},
    {"host-link", "host DRAM ~64 GB/s hop", 48e9, 80e9, F::HwHostLinkBw, kNone, "", {"host_link", 0, 0}},
    {"ssd-bandwidth", "NVMe ~12–14 GB/s per drive", 12e9, 14e9, F::HwSsdBwPerDrive, kNone, "", {}},
};

bool inside(double v, const Claim& c) { return std::isfinite(v) && v >= c.lo && v <= c.hi; }
std::string show(FigureId f, double v) { return human(v, figure_info(f).unit); }

// The figure's value with one input set as a person would set it (dependent fields follow); NaN when the
// value is not allowed or the setup cannot run there.
double value_at(const Scenario& base, const ParamDef& p, const std::string& text, FigureId fig) {
  Scenario s = base;
  Adjustments moved;
  Error err;
  if (!edit_param(s, p, text, moved, err) || !validate(s).empty()) return std::nan("");
  Computed c;
  compute_values(s, c);
  if (!figure_shown(c.terms, fig)) return std::nan("");
  return c.values[fig];
}

std::string value_text(const ParamDef& p, double x) {
  if (p.kind == ParamKind::Int) return std::to_string(static_cast<long long>(std::llround(x)));
  return num_exact(x);
}

// Where a claim holds while one input varies: the condition in words (empty: nowhere), and the value
// nearest the band with where it was found.
struct Found {
  std::string condition;
  double nearest = std::nan("");
  std::string nearest_at;
};

// Enums and the SRAM level try every alternative; numbers walk a ×2 grid, then bisect every edge of the
// band: between a grid point inside and one outside, or between two outside on either side of the band.
Found search(const Scenario& s, const Claim& c, FigureId fig) {
  Found out;
  const ParamDef* p = find_param(c.search.key);
  if (!p) return out;
  double best = kInf;
  auto track = [&](double v, const std::string& at) {
    if (!std::isfinite(v)) return;
    const double d = v < c.lo ? (c.lo - v) / std::max(std::fabs(c.lo), 1e-30) : v > c.hi ? (v - c.hi) / std::max(std::fabs(c.hi), 1e-30) : 0;
    if (d < best) {
      best = d;
      out.nearest = v;
      out.nearest_at = at;
    }
  };
  if (std::string_view(p->key) == "lat_sram_ns") {
    // The card's "SRAM" spans three on-chip levels; try each of this GPU's.
    const GpuInfo& g = gpu_info(s.hw.gpu);
    const double levels[3] = {g.reg_ns, g.l1_ns, g.l2_ns};
    const char* names[3] = {"the register file", "L1/shared memory", "L2"};
    std::string ok;
    for (int i = 0; i < 3; ++i) {
      const double v = levels[i] * 1e-9;
      track(v, std::string(names[i]) + " (" + num(levels[i]) + " ns)");
      if (inside(v, c)) ok += (ok.empty() ? "" : " or ") + std::string(names[i]);
    }
    if (!ok.empty()) out.condition = "read as " + ok;
    return out;
  }
  if (p->kind == ParamKind::Enum) {
    std::string ok;
    for (int i = 0; i < p->enum_count; ++i) {
      std::string text = p->enum_keys[i];
      Scenario base = s;
      // Formats: the card reads "all weights" in one format, so experts, dense and head move together.
      if (std::string_view(p->key) == "experts_fmt") {
        Error e;
        set_param_text(base, *find_param("dense_fmt"), text, e);
        set_param_text(base, *find_param("head_fmt"), text, e);
      }
      const double v = value_at(base, *p, text, fig);
      track(v, std::string(p->key) + " = " + text);
      if (inside(v, c)) ok += (ok.empty() ? "" : ", ") + text;
    }
    if (ok.empty()) return out;
    out.condition = std::string_view(p->key) == "experts_fmt" ? "every weight is stored as " + ok : std::string(p->key) + " is " + ok;
    return out;
  }
  std::vector<double> xs, vs;
  for (double x = c.search.lo; x <= c.search.hi * 1.0000001; x *= 2) {
    const double xr = p->kind == ParamKind::Int ? std::round(x) : x;
    xs.push_back(xr);
    const double v = value_at(s, *p, value_text(*p, xr), fig);
    vs.push_back(v);
    track(v, std::string(p->key) + " = " + num(xr));
  }
  auto at = [&](double x) { return value_at(s, *p, value_text(*p, x), fig); };
  // Bisects between x_in (inside) and x_out (outside) for the edge; returns the last inside point.
  auto edge = [&](double in, double out_x) {
    for (int k = 0; k < 24; ++k) {
      double mid = 0.5 * (in + out_x);
      if (p->kind == ParamKind::Int) {
        mid = std::round(mid);
        if (mid == in || mid == out_x) break;
      }
      (inside(at(mid), c) ? in : out_x) = mid;
    }
    return in;
  };
  const std::size_t n = xs.size();
  std::vector<std::pair<double, double>> ranges;  // inside intervals, refined
  for (std::size_t i = 0; i < n; ++i) {
    const bool in_i = inside(vs[i], c);
    if (in_i && (i == 0 || !inside(vs[i - 1], c))) {
      const double a = i == 0 ? xs[0] : edge(xs[i], xs[i - 1]);
      std::size_t j = i;
      while (j + 1 < n && inside(vs[j + 1], c)) ++j;
      const double b = j + 1 < n ? edge(xs[j], xs[j + 1]) : xs[n - 1];
      ranges.push_back({a, b});
    }
    // Two neighbours outside on either side of the band: look for the band between them.
    if (!in_i && i + 1 < n && !inside(vs[i + 1], c) && std::isfinite(vs[i]) && std::isfinite(vs[i + 1]) &&
        ((vs[i] < c.lo && vs[i + 1] > c.hi) || (vs[i] > c.hi && vs[i + 1] < c.lo))) {
      double lo_x = xs[i], hi_x = xs[i + 1];
      const bool rising = vs[i] < c.lo;
      for (int k = 0; k < 40; ++k) {
        double mid = 0.5 * (lo_x + hi_x);
        if (p->kind == ParamKind::Int) {
          mid = std::round(mid);
          if (mid == lo_x || mid == hi_x) break;
        }
        const double v = at(mid);
        track(v, std::string(p->key) + " = " + num(mid));
        if (inside(v, c)) {
          ranges.push_back({edge(mid, lo_x), edge(mid, hi_x)});
          break;
        }
        ((v < c.lo) == rising ? lo_x : hi_x) = mid;
      }
    }
  }
  if (ranges.empty()) return out;
  const std::string unit = p->unit[0] ? std::string(" ") + p->unit : std::string();
  for (const auto& [a, b] : ranges) {
    std::string r;
    if (a == xs.front() && b == xs.back()) r = "anywhere from " + num(a) + " to " + num(b) + unit;
    else if (a == xs.front()) r = "≤ " + num_sig(b, 3) + unit;
    else if (b == xs.back()) r = "≥ " + num_sig(a, 3) + unit;
    else if (a == b) r = "= " + num_sig(a, 3) + unit;
    else r = "from " + num_sig(a, 3) + " to " + num_sig(b, 3) + unit;
    out.condition += (out.condition.empty() ? std::string(p->key) + " " : std::string(" or ")) + r;
  }
  return out;
}

// The largest batch at which the node's SSDs still hold `hours` of new prefixes (the write rate grows with
// the batch), or 0 when not even batch 1 does; the batch limit of the instance bounds the search.
double retention_batch_limit(const Scenario& s, double hours) {
  const ParamDef& p = *find_param("batch");
  auto holds = [&](double b) {
    const double v = value_at(s, p, value_text(p, b), F::SsdRetentionHours);
    return std::isfinite(v) && v >= hours;
  };
  if (!holds(1)) return 0;
  double lo = 1, hi = 2;
  while (hi <= p.max && holds(hi)) {
    lo = hi;
    hi *= 2;
  }
  if (hi > p.max) return lo;
  while (hi - lo > 1) {
    const double mid = std::floor(0.5 * (lo + hi));
    (holds(mid) ? lo : hi) = mid;
  }
  return lo;
}

// The retention row at the scenario's own load: the batch and turn shape that set the write rate, what 72 h
// needs in bytes and drive writes, and the largest batch at which the drives still hold it.
std::string retention_note(const Values& v, const Scenario& s) {
  auto H = [&](F f) { return human(v[f], figure_info(f).unit); };
  const Workload& w = s.work;
  const double need = v[F::SsdWriteRate] * s.hw.retention_h * 3600;
  const double per_drive = s.hw.ssd_count > 0 ? need / s.hw.ssd_count : 0;
  const double limit = retention_batch_limit(s, s.hw.retention_h);
  std::string out = "at the scenario's load, batch " + num(w.batch) + " with " + num(w.prompt - std::min(w.prefix_hit, w.prompt)) +
                    " new prompt and " + num(w.output) + " output tokens per turn: " + H(F::SsdWriteRate) + " of new prefixes per node; " +
                    num(s.hw.retention_h) + " h needs " + human(need, "B") + " (" + num(s.hw.ssd_count) + " drives of " + human(per_drive, "B") +
                    ") against " + H(F::SsdCapacity) + ", and writes " + num_sig(v[F::SsdDwpdNeeded], 3) + " drive writes per day against a rated " +
                    num(s.hw.ssd_dwpd);
  out += limit >= 1 ? "; the drives hold " + num(s.hw.retention_h) + " h up to batch " + num(limit)
                    : "; not even batch 1 keeps " + num(s.hw.retention_h) + " h";
  return out + "; DeepSeek documents only hours to days";
}

// Context for a row, generated from figures of the scenario.
std::string note_for(const Claim& c, const Values& v, const Terms& t, const Scenario& s) {
  const std::string id = c.id;
  auto H = [&](F f) { return human(v[f], figure_info(f).unit); };
  if (id == "topk-slice")
    return num(s.model.top_k) + " × " + H(F::KvGlobalPerToken) + " counts every owner's row and index key; one layer's selected row is " +
           H(F::KvMainEntry) + ", so the physical gather is " + H(F::GatherBytes) + " per session";
  if (id == "step-floor")
    return "memory roof " + H(F::DecodeMemoryRoof) + ", compute roof " + H(F::DecodeComputeRoof) + ", fixed terms (collectives, per-layer costs) " +
           human(v[F::DecodeTA2a] + v[F::DecodeTAllreduce] + v[F::DecodeTOverhead], "s");
  if (id == "weights-per-token") return "as stored: " + H(F::WeightsPerToken) + " per token at batch 1";
  if (id == "index-sub-us") return "full-pool scan " + H(F::IndexFullpoolBytes) + " per session grows with the context; candidate scoring " +
                                   H(F::IndexCandidateBytes) + " stays flat";
  if (id == "replay")
    return "alone " + H(F::ReplayTimeStandalone) + ": " + H(F::ReplayWeightBytes) + " of expert weights for the window's tokens; riding a step " +
           H(F::ReplayTime);
  if (id == "ssd-hit")
    return H(F::PrefixHitBytes) + " for the hit: SSD read " + H(F::PrefixSsdReadTime) + " and host link " + H(F::PrefixUploadTime) +
           "; this scenario serves it from " + prefix_tier_name(t.prefix_from) + " in " + H(F::PrefixHitTime);
  if (id == "retention") return retention_note(v, s);
  if (id == "swa-capacity") return H(F::KvSwaPerSession) + " of window against " + H(F::KvPerSession) + " per session at " + num(s.work.ctx) + " tokens";
  if (id == "engram-stall") return H(F::EngramBytesPerToken) + " per token; fetched from where the tables live";
  if (id == "sram-latency") return "the card's 1–5 ns sits between one register access and the L1";
  return "";
}

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
  if (!std::isfinite(c.hi)) return "at least " + human(c.lo, unit);
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
    r.value = figure_shown(here.terms, c.figure) ? here.values[c.figure] : std::nan("");
    r.card_value = there.values[c.figure];
    const bool has_alt = c.alt != kNone;
    r.alt_value = has_alt ? here.values[c.alt] : 0.0;
    r.note = note_for(c, here.values, here.terms, scenario);
    const std::string band = claim_band(c);
    if (!std::isfinite(r.value)) {
      r.verdict = Verdict::Inconsistent;
      r.reason = "not computed: this setup cannot run (" + infeasible_summary(here.terms) + ")";
      rows.push_back(std::move(r));
      continue;
    }
    const std::string base = "scenario computes " + show(c.figure, r.value) + " (claim " + band + ")";
    Found main, alt;
    if (c.search.key[0]) main = search(scenario, c, c.figure);
    if (c.search.key[0] && has_alt && main.condition.empty()) alt = search(scenario, c, c.alt);
    if (inside(r.value, c)) {
      r.verdict = Verdict::Consistent;
      r.reason = base + ": inside the band";
    } else if (has_alt && inside(r.alt_value, c)) {
      r.verdict = Verdict::HoldsOnlyIf;
      r.condition = c.alt_reading;
      r.reason = base + "; read as " + figure_info(c.alt).label + " it is " + show(c.alt, r.alt_value);
    } else if (!main.condition.empty()) {
      r.verdict = Verdict::HoldsOnlyIf;
      r.condition = main.condition;
      r.reason = base + "; found by varying " + c.search.key + " with everything else as in the scenario";
    } else if (!alt.condition.empty()) {
      r.verdict = Verdict::HoldsOnlyIf;
      r.condition = std::string(c.alt_reading) + ", and " + alt.condition;
      r.reason = base + "; read as " + figure_info(c.alt).label + " it is " + show(c.alt, r.alt_value) + ", in the band once " + alt.condition;
    } else {
      r.verdict = Verdict::Inconsistent;
      r.reason = base;
      if (has_alt) r.reason += "; read as " + std::string(figure_info(c.alt).label) + " " + show(c.alt, r.alt_value);
      if (c.search.key[0]) {
        r.reason += "; no value of " + std::string(c.search.key) + " puts it in the band";
        if (std::isfinite(main.nearest)) r.reason += " (closest: " + show(c.figure, main.nearest) + " at " + main.nearest_at + ")";
      }
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace tierscope::model
