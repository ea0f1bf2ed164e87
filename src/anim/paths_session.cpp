// The session paths: SWA resume (hit and miss), prefix-cache promotion, and the decode step budget.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "model/params.h"
#include "model/text.h"

namespace tierscope::anim::detail {

using model::FigureId;

namespace {

LedgerEntry& replay(Builder& b, std::string_view step) {
  LedgerEntry& e = b.add(step, Endpoint::Tokens, Endpoint::Decoder, ObjectKind::HiddenStream, b.val(FigureId::ReplayTime));
  e.flop = b.val(FigureId::ReplayFlop);
  b.cite(e, FigureId::ReplayTime,
         b.fig(FigureId::ReplayFlop).formula + "; " + b.fig(FigureId::ReplayTime).formula + " (alone: " +
             S(b.val(FigureId::ReplayTimeStandalone)) + ")");
  e.highlight.layers = b.all_layers();
  e.highlight.add(Endpoint::Encoder);
  e.highlight.add(ObjectKind::GlobalKv);
  return e;
}

}  // namespace

// [SECTION] swa-resume --------------------------------------------------------------------------------
void build_swa_resume(Builder& b) {
  b.base_residency(1, b.ctx);
  if (b.m.n_win <= 0) {
    b.out.note = "This model keeps no sliding window, so there is no short-lived SWA state to park or replay.";
    return;
  }
  const double bytes = b.val(FigureId::KvSwaPerSession);
  const double win = std::min<double>(b.m.n_win, b.ctx);
  const double window_bytes = b.t.window_layers * win * b.val(FigureId::KvSwaEntry);
  {
    LedgerEntry& e = b.add("park", Endpoint::Hbm, Endpoint::Dram, ObjectKind::SwaPool, b.val(FigureId::SwaRestoreSessionTime));
    e.phase = "park";
    e.bytes = window_bytes;
    e.overlapped = true;
    b.cite(e, FigureId::SwaRestoreSessionTime,
           b.fig(FigureId::KvSwaPerSession).formula + "; " + b.fig(FigureId::SwaRestoreSessionTime).formula +
               " (the same link in the other direction)");
    e.highlight.add(ObjectKind::SwaWindow);
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::SwaWindow, -window_bytes, -win};
    e.changes[1] = {ObjectKind::SwaPool, window_bytes, win};
    e.sentence = "The session goes idle: its " + B(bytes) + " window moves to the recent-session pool in host DRAM, "
                 "which holds " + N(b.val(FigureId::SwaPoolSessions)) + " such windows; its global KV stays where it is.";
  }
  {
    LedgerEntry& e = b.add("restore", Endpoint::Dram, Endpoint::Hbm, ObjectKind::SwaWindow, b.val(FigureId::SwaRestoreSessionTime));
    e.phase = "hit";
    e.bytes = window_bytes;
    e.overlapped = true;
    b.cite(e, FigureId::SwaRestoreSessionTime,
           b.fig(FigureId::SwaRestoreSessionTime).formula + "; per layer " + b.fig(FigureId::SwaRestoreLayerTime).formula);
    e.highlight.add(ObjectKind::SwaPool);
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::SwaPool, -window_bytes, -win};
    e.changes[1] = {ObjectKind::SwaWindow, window_bytes, win};
    e.sentence = "Hit: the session returns and its window is prefetched back layer by layer (" +
                 S(b.val(FigureId::SwaRestoreLayerTime)) + " each), hidden behind the previous layer's compute.";
  }
  {
    LedgerEntry& e = b.add("drop", Endpoint::Hbm, Endpoint::Hbm, ObjectKind::SwaWindow, b.lat_hbm);
    e.phase = "miss";
    b.cite(e, FigureId::SwaPoolSessions,
           S(b.lat_hbm) + " = lat_hbm " + N(b.s.hw.lat_hbm_us) + " µs to release the window; pool " +
               b.fig(FigureId::SwaPoolSessions).formula);
    e.highlight.add(ObjectKind::SwaPool);
    e.changes[0] = {ObjectKind::SwaWindow, -window_bytes, -win};
    e.sentence = "Miss: another time the session idles too long and the pool, full, has evicted its window; only the "
                 "global KV remains. SWA KV is never written to SSD.";
  }
  {
    LedgerEntry& e = replay(b, "bounded-replay");
    e.phase = "miss";
    e.sentence = "Bounded replay: the last " + N(win) + " tokens run through all " + N(b.t.layers) +
                 " layers again, reading the global KV already in HBM, to rebuild every layer's window.";
  }
  {
    LedgerEntry& e = b.add("rebuild", Endpoint::Decoder, Endpoint::Hbm, ObjectKind::SwaWindow, window_bytes / b.bw_total);
    e.phase = "miss";
    e.bytes = window_bytes;
    b.cite(e, FigureId::KvSwaPerSession,
           b.fig(FigureId::KvSwaPerSession).formula + "; " + S(e.duration) + " = " + B(window_bytes) + " / " +
               model::human(b.bw_total, "B/s"));
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::SwaWindow, window_bytes, win};
    e.sentence = "The replay writes the " + B(window_bytes) + " window back to HBM: the miss cost compute (" +
                 S(b.val(FigureId::ReplayTime)) + ") instead of a " + S(b.val(FigureId::SwaRestoreSessionTime)) +
                 " copy, and nothing came from SSD.";
  }
}

// [SECTION] prefix-cache ------------------------------------------------------------------------------
void build_prefix_cache(Builder& b) {
  b.base_residency(1, 0);
  const double hit = b.s.work.prefix_hit;
  if (hit <= 0) {
    b.out.note = "The scenario has no prefix hit (prefix_hit = 0): the whole prompt is prefilled.";
    return;
  }
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  const double bytes = b.val(FigureId::PrefixHitBytes);
  b.out.start[static_cast<int>(ObjectKind::PrefixCache)] = {Endpoint::Ssd, bytes, hit, 0};
  const std::string units = N(std::ceil(hit / kPrefixUnitTokens));
  double promote = 0;
  {
    LedgerEntry& e = b.add("promote-ssd-dram", Endpoint::Ssd, Endpoint::Dram, ObjectKind::PrefixCache, b.lat_ssd + bytes / b.ssd_bw);
    e.phase = "hit";
    e.bytes = bytes;
    b.cite(e, FigureId::PrefixHitBytes,
           b.fig(FigureId::PrefixHitBytes).formula + "; " + S(e.duration) + " = " + N(b.s.hw.lat_ssd_us) + " µs + " + B(bytes) +
               " / (" + N(b.s.hw.ssd_count) + " × " + N(b.s.hw.ssd_gbps) + " GB/s)");
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The new turn's first " + N(hit) + " tokens match " + units + " stored units: their global KV is read "
                 "from SSD into host DRAM.";
    promote += e.duration;
  }
  {
    LedgerEntry& e = b.add("promote-dram-hbm", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, b.host_lat + bytes / b.host_bw);
    e.phase = "hit";
    e.bytes = bytes;
    b.cite(e, FigureId::PrefixHitBytes,
           b.fig(FigureId::PrefixHitBytes).formula + "; " + S(e.duration) + " = " + S(b.host_lat) + " DMA latency + " +
               B(bytes) + " / " + model::human(b.host_bw, "B/s") + " (the model's single-hop estimate: " +
               b.fig(FigureId::PrefixSsdHitTime).formula + ")");
    e.changes[0] = {ObjectKind::GlobalKv, bytes, hit};
    e.sentence = "From host DRAM the rows move up into HBM, before the turn starts, so no decode step waits on SSD.";
    promote += e.duration;
  }
  if (b.m.n_win > 0) {
    LedgerEntry& e = replay(b, "replay-window");
    e.phase = "hit";
    const double win = std::min<double>(b.m.n_win, hit);
    e.changes[0] = {ObjectKind::SwaWindow, b.t.window_layers * win * b.val(FigureId::KvSwaEntry), win};
    e.sentence = "SWA KV was never cached, so the hit's last " + N(win) + " tokens are replayed to rebuild the window.";
  }
  const double rest = b.prompt - hit;
  if (rest > 0) {
    const double flop = model::prefill_flop(b.s, b.t, rest, nullptr, nullptr, nullptr);
    LedgerEntry& e = b.add("prefill-rest", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, flop / b.pflops);
    e.phase = "hit";
    e.flop = flop;
    b.cite(e, FigureId::PrefillFlop,
           FL(flop) + " = prefill FLOP of " + N(rest) + " new tokens; " + S(e.duration) + " = " + FL(flop) + " / " +
               model::human(b.pflops, "FLOP") + "/s");
    e.highlight.layers.add_range(0, static_cast<int>(b.t.prefill_layers) - 1);
    e.changes[0] = {ObjectKind::GlobalKv, rest * b_tok, rest};
    e.sentence = "Only the " + N(rest) + " new tokens of the prompt are prefilled.";
  }
  {
    const double step_bytes = b.val(FigureId::DecodeWeightBytes) + b.val(FigureId::DecodeKvBytes);
    LedgerEntry& e = b.add("first-decode", Endpoint::Hbm, Endpoint::Sram, ObjectKind::MoeWeights, b.val(FigureId::DecodeStepFloor));
    e.phase = "hit";
    e.bytes = step_bytes;
    b.cite(e, FigureId::DecodeStepFloor, b.fig(FigureId::DecodeStepFloor).formula);
    e.highlight.layers = b.all_layers();
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The turn's first decode step starts with the whole prefix already in HBM.";
  }
  {
    LedgerEntry& e = b.add("recompute", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream,
                           b.val(FigureId::PrefixRecomputeTime));
    e.phase = "recompute";
    e.flop = b.val(FigureId::PrefixRecomputeTime) * b.pflops;
    b.cite(e, FigureId::PrefixRecomputeTime, b.fig(FigureId::PrefixRecomputeTime).formula);
    e.highlight.layers.add_range(0, static_cast<int>(b.t.prefill_layers) - 1);
    const double ratio = promote > 0 ? e.duration / promote : 0.0;
    e.sentence = "Without the cache the " + N(hit) + " tokens would be recomputed: " + S(e.duration) + " of compute against " +
                 S(promote) + " of promotion, " + model::num_sig(ratio, 3) + "× " + (ratio >= 1 ? "slower." : "faster.");
  }
}

// [SECTION] step-budget -------------------------------------------------------------------------------
void build_step_budget(Builder& b) {
  b.base_residency(b.batch, b.ctx);
  // Sweep: the scenario's own point, then the batch ×8 and ×64, then the context ×8 at the largest batch,
  // clamped to the parameters' allowed ranges.
  const model::ParamDef* pb = model::find_param("batch");
  const model::ParamDef* pc = model::find_param("ctx");
  const double bmax = pb ? pb->max : 1e6, cmax = pc ? pc->max : 1.6e7;
  const double b0 = b.batch, c0 = b.ctx;
  const double points[4][2] = {{b0, c0}, {std::min(bmax, 8 * b0), c0}, {std::min(bmax, 64 * b0), c0},
                               {std::min(bmax, 64 * b0), std::min(cmax, 8 * c0)}};
  for (const auto& p : points) {
    model::Scenario sp = b.s;
    sp.work.batch = static_cast<std::int32_t>(p[0]);
    sp.work.ctx = static_cast<std::int32_t>(p[1]);
    const model::Figures fp = model::describe(sp);
    const model::Values& v = fp.computed.values;
    const model::Terms& t = fp.computed.terms;
    const double floor = v[FigureId::DecodeStepFloor];
    const std::string phase = "batch " + N(p[0]) + " · ctx " + N(p[1]);
    const std::string bw = model::human(t.bw_total, "B/s");
    const std::string per = N(p[0]) + (p[0] == 1 ? " session × " : " sessions × ");
    auto part = [&](std::string_view step, ObjectKind obj, double bytes, double extra, FigureId fid, const std::string& what,
                    const std::string& name) {
      if (bytes <= 0) return;
      LedgerEntry& e = b.add(step, Endpoint::Hbm, Endpoint::Sram, obj, extra + bytes / t.bw_total);
      e.phase = phase;
      e.bytes = bytes;
      e.figure = fid;
      e.provenance = fp[fid].provenance;
      e.sources = fp[fid].sources;
      e.formula = what + "; " + S(e.duration) + " = " + (extra > 0 ? S(extra) + " HBM latency + " : std::string()) + B(bytes) +
                  " / " + bw;
      e.highlight.add(Endpoint::Decoder);
      e.sentence = "At batch " + N(p[0]) + " and " + N(p[1]) + " tokens of context, " + name + " take " + S(e.duration) +
                   ": " + model::human(e.duration / floor, "fraction") + " of the " + S(floor) + " step.";
    };
    part("weights", ObjectKind::MoeWeights, v[FigureId::DecodeWeightBytes], b.lat_hbm, FigureId::DecodeWeightBytes,
         fp[FigureId::DecodeWeightBytes].formula, "the weights (" + model::num_sig(v[FigureId::DecodeDistinctExperts], 4) +
                                                       " distinct experts per layer)");
    part("fullpool-index", ObjectKind::SparseIndex, p[0] * v[FigureId::IndexFullpoolBytes], 0, FigureId::IndexFullpoolBytes,
         B(p[0] * v[FigureId::IndexFullpoolBytes]) + " = " + per + paren(fp[FigureId::IndexFullpoolBytes].formula),
         "the full-pool index scans");
    part("candidate-pool", ObjectKind::SparseIndex, p[0] * v[FigureId::IndexCandidateBytes], 0, FigureId::IndexCandidateBytes,
         B(p[0] * v[FigureId::IndexCandidateBytes]) + " = " + per + paren(fp[FigureId::IndexCandidateBytes].formula),
         "the candidate-pool scores");
    part("gather", ObjectKind::GlobalKv, p[0] * v[FigureId::GatherBytes], 0, FigureId::GatherBytes,
         B(p[0] * v[FigureId::GatherBytes]) + " = " + per + paren(fp[FigureId::GatherBytes].formula), "the sparse gathers");
    part("dense-read", ObjectKind::GlobalKv, p[0] * t.read_dense, 0, FigureId::DecodeKvBytes,
         B(p[0] * t.read_dense) + " = " + per + "dense reads " + B(t.read_dense), "the dense KV reads");
    part("swa-window", ObjectKind::SwaWindow, p[0] * v[FigureId::SwaWindowBytes], 0, FigureId::SwaWindowBytes,
         B(p[0] * v[FigureId::SwaWindowBytes]) + " = " + per + paren(fp[FigureId::SwaWindowBytes].formula), "the SWA windows");
  }
}

}  // namespace tierscope::anim::detail
