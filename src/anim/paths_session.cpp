// The session paths: SWA resume (hit and miss), prefix-cache promotion, and the decode step budget.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "base/text.h"
#include "model/params.h"
#include "roofline/timing.h"

namespace tierscope::anim::detail {

using model::FigureId;

// [SECTION] swa-resume --------------------------------------------------------------------------------
void build_swa_resume(Builder& b) {
  b.base_residency(1, b.s.work.ctx);
  if (b.m.n_win <= 0) {
    b.out.note = "This model keeps no sliding window, so there is no short-lived SWA state to park or replay.";
    return;
  }
  const model::Terms& t = b.t;
  const double ctx = b.s.work.ctx;
  const double win = std::min<double>(b.m.n_win, ctx);
  const double window_bytes = t.window_layers * win * b.z.swa * t.kv_share;
  const double global_bytes = ctx * b.val(FigureId::KvGlobalPerToken) * t.kv_share;
  const double index_bytes = ctx * b.val(FigureId::KvIndexerPerToken) * t.kv_share;  // part of the global KV, drawn beside it
  const double pool = b.val(FigureId::SwaPoolSessions), hbm = b.val(FigureId::HbmSessionsPerNode);
  // The pool outlives HBM when it holds more sessions: a session still in the pool has usually left HBM.
  const bool kv_left_hbm = pool > hbm;
  {
    LedgerEntry& e = b.add_timed("park", Endpoint::Hbm, Endpoint::Dram, ObjectKind::SwaPool, FigureId::SwaRestoreSessionTime);
    e.phase = "park";
    e.bytes = window_bytes;
    e.overlapped = true;
    b.cite(e, FigureId::SwaRestoreSessionTime, b.fig(FigureId::SwaRestoreSessionTime).formula() + " (the same link in the other direction)");
    e.highlight.add(ObjectKind::SwaWindow);
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::SwaWindow, -window_bytes, -win};
    e.changes[1] = {ObjectKind::SwaPool, window_bytes, win};
    e.sentence = "The session goes idle: its " + B(window_bytes) + " window moves to the recent-session pool in host DRAM, which holds " +
                 model::human(pool, "sessions") + ".";
  }
  if (kv_left_hbm) {
    LedgerEntry& e = b.add("leave-hbm", Endpoint::Hbm, Endpoint::Dram, ObjectKind::GlobalKv, 0);
    e.phase = "park";
    b.cite(e, FigureId::SwaPoolVsHbm, b.fig(FigureId::SwaPoolVsHbm).formula() + "; the rows were persisted with the prefix, so freeing them moves nothing");
    e.changes[0] = {ObjectKind::GlobalKv, -global_bytes, -ctx};
    if (index_bytes > 0) e.changes[1] = {ObjectKind::IndexerKeys, -index_bytes, -ctx};
    e.sentence = "HBM holds " + model::human(hbm, "sessions") + " per node against the pool's " + model::human(pool, "sessions") +
                 ", so while the session idles its " + B(global_bytes) + " of global KV is released from HBM; its copy waits in host DRAM.";
  }
  {
    LedgerEntry& e = b.add_timed("restore", Endpoint::Dram, Endpoint::Hbm, ObjectKind::SwaWindow, FigureId::SwaRestoreSessionTime);
    e.phase = "hit";
    e.bytes = window_bytes;
    e.overlapped = true;
    b.cite(e, FigureId::SwaRestoreSessionTime,
           b.fig(FigureId::SwaRestoreSessionTime).formula() + "; per layer " + b.fig(FigureId::SwaRestoreLayerTime).formula());
    e.highlight.add(ObjectKind::SwaPool);
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::SwaPool, -window_bytes, -win};
    e.changes[1] = {ObjectKind::SwaWindow, window_bytes, win};
    e.sentence = "Hit: the session returns while its window is still in the pool; it comes back layer by layer (" + S(b.val(FigureId::SwaRestoreLayerTime)) +
                 " each), hidden behind the previous layer's compute.";
  }
  if (kv_left_hbm) {
    LedgerEntry& e = b.add_timed("reload-kv", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, FigureId::ResumeKvReloadTime);
    e.phase = "hit";
    e.bytes = global_bytes;
    b.cite(e, FigureId::ResumeKvReloadTime, b.fig(FigureId::ResumeKvReloadTime).formula());
    e.changes[0] = {ObjectKind::GlobalKv, global_bytes, ctx};
    if (index_bytes > 0) e.changes[1] = {ObjectKind::IndexerKeys, index_bytes, ctx};
    e.sentence = "Its global KV left HBM while it idled, so the " + B(global_bytes) + " come back from host DRAM before the turn starts.";
  }
  {
    LedgerEntry& e = b.add("drop", Endpoint::Dram, Endpoint::Dram, ObjectKind::SwaPool, 0);
    e.phase = "miss";
    b.cite(e, FigureId::SwaPoolSessions, "the pool evicts its least recent window: nothing moves; pool " + b.fig(FigureId::SwaPoolSessions).formula());
    e.highlight.add(ObjectKind::SwaPool);
    e.changes[0] = {ObjectKind::SwaPool, -window_bytes, -win};
    e.sentence = "Miss: another time the session idles longer than " + model::human(pool, "sessions") +
                 " newer ones, and the full pool drops its window. SWA KV is never written to SSD.";
  }
  if (kv_left_hbm) {
    LedgerEntry& a = b.add_timed("promote-kv-ssd", Endpoint::Ssd, Endpoint::Dram, ObjectKind::PrefixCache, FigureId::ResumeKvSsdTime);
    a.phase = "miss";
    a.bytes = ctx * b.val(FigureId::KvGlobalPerToken);
    b.cite(a, FigureId::ResumeKvSsdTime, b.fig(FigureId::ResumeKvSsdTime).formula());
    a.sentence = "A session idle that long has lost its global KV from host DRAM too: it is read back from the SSD prefix cache.";
    LedgerEntry& e = b.add_timed("promote-kv-hbm", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, FigureId::ResumeKvReloadTime);
    e.phase = "miss";
    e.bytes = global_bytes;
    b.cite(e, FigureId::ResumeKvReloadTime, b.fig(FigureId::ResumeKvReloadTime).formula());
    e.changes[0] = {ObjectKind::GlobalKv, global_bytes, ctx};
    if (index_bytes > 0) e.changes[1] = {ObjectKind::IndexerKeys, index_bytes, ctx};
    e.sentence = "…and promoted into HBM before the turn starts.";
  }
  if (b.m.bounded_replay) {
    LedgerEntry& e = b.add_timed("bounded-replay", Endpoint::Tokens, Endpoint::Decoder, ObjectKind::HiddenStream, FigureId::ReplayTime);
    e.phase = "miss";
    e.flop = b.val(FigureId::ReplayFlop);
    b.cite(e, FigureId::ReplayTime, b.fig(FigureId::ReplayTime).formula() + "; alone it would take " + b.fig(FigureId::ReplayTimeStandalone).formula());
    e.highlight.layers = b.all_layers();
    e.highlight.add(Endpoint::Encoder);
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "Bounded replay: the last " + N(win) + " tokens run through all " + N(t.layers) +
                 " layers again, riding the next decode step, reading the global KV now in HBM to rebuild every layer's window.";
    LedgerEntry& r = b.add("rebuild", Endpoint::Decoder, Endpoint::Hbm, ObjectKind::SwaWindow, model::hbm_transfer_time(t, window_bytes));
    r.phase = "miss";
    r.bytes = window_bytes;
    r.overlapped = true;
    b.cite(r, FigureId::KvSwaPerSession, b.fig(FigureId::KvSwaPerSession).formula() + "; " + S(r.duration) + " = " + B(window_bytes) + " / HBM, inside the replay");
    r.highlight.layers = b.all_layers();
    r.changes[0] = {ObjectKind::SwaWindow, window_bytes, win};
    r.sentence = "The replay writes the " + B(window_bytes) + " window back to HBM: the miss cost compute instead of a copy, and nothing came from SSD "
                 "for the window.";
  } else {
    const double bytes = b.val(FigureId::KvSwaPerSession);
    LedgerEntry& e = b.add("restore-window-ssd", Endpoint::Ssd, Endpoint::Hbm, ObjectKind::SwaWindow,
                           model::ssd_read_time(t, bytes) + model::host_transfer_time(t, bytes * t.kv_share));
    e.phase = "miss";
    e.bytes = bytes;
    b.cite(e, FigureId::KvSwaPerSession, b.fig(FigureId::KvSwaPerSession).formula() + "; " + S(e.duration) + " = SSD read " +
                                             S(model::ssd_read_time(t, bytes)) + " + host link " + S(model::host_transfer_time(t, bytes * t.kv_share)));
    e.changes[0] = {ObjectKind::SwaWindow, window_bytes, win};
    e.sentence = "This model has no bounded replay: its window was cached with the prefix, so the miss reads it back from SSD.";
  }
}

// [SECTION] prefix-cache ------------------------------------------------------------------------------
void build_prefix_cache(Builder& b) {
  b.base_residency(1, 0);
  const double hit = std::min(b.s.work.prefix_hit, b.s.work.prompt);
  if (hit <= 0) {
    b.out.note = "The scenario has no prefix hit (prefix_hit = 0): the whole prompt is prefilled.";
    return;
  }
  const model::Terms& t = b.t;
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  const double bytes = b.val(FigureId::PrefixHitBytes);
  // A model with linear layers keeps its recurrent state's checkpoints beside the prefix's rows: the hit
  // restores the last one before its end (kv.recurrent_checkpoint_bytes) instead of any token rows for them.
  const double ckpt = b.val(FigureId::KvRecurrentCkptBytes);
  // The hit comes from the tier that holds it (prefix.hit_time says which and why): still in HBM beside the
  // running batch (nothing moves), in host DRAM (one upload), or on SSD (staged in DRAM, then uploaded).
  const model::PrefixTier from = t.prefix_from;
  const std::string tier_why = b.fig(FigureId::PrefixHitTime).formula();
  const std::string units = N(std::ceil(hit / kPrefixUnitTokens));
  if (from == model::PrefixTier::Hbm) {
    b.out.start[static_cast<int>(ObjectKind::GlobalKv)] = {Endpoint::Hbm, hit * b_tok * t.kv_share, hit, 0};
    LedgerEntry& e = b.add_timed("hit-hbm", Endpoint::Hbm, Endpoint::Hbm, ObjectKind::GlobalKv, FigureId::PrefixHitTime);
    e.phase = "hit";
    b.cite(e, FigureId::PrefixHitTime, tier_why);
    e.sentence = "The new turn's first " + N(hit) + " tokens match a prefix whose KV is still in HBM beside the running batch: nothing moves, "
                 "no SSD or host link is read.";
  } else {
    const Endpoint home = from == model::PrefixTier::Dram ? Endpoint::Dram : Endpoint::Ssd;
    b.out.start[static_cast<int>(ObjectKind::PrefixCache)] = {home, bytes - ckpt, hit, 0};
    if (ckpt > 0) b.out.start[static_cast<int>(ObjectKind::StateCheckpoints)] = {home, ckpt, 0, 0};
  }
  if (from == model::PrefixTier::Ssd) {
    LedgerEntry& e = b.add_timed("promote-ssd-dram", Endpoint::Ssd, Endpoint::Dram, ObjectKind::PrefixCache, FigureId::PrefixSsdReadTime);
    e.phase = "hit";
    e.bytes = bytes;
    b.cite(e, FigureId::PrefixSsdReadTime, b.fig(FigureId::PrefixHitBytes).formula() + "; " + b.fig(FigureId::PrefixSsdReadTime).formula());
    e.sources = std::string(kPrefixUnitSource) + "\n" + e.sources;
    e.highlight.add(ObjectKind::GlobalKv);
    if (ckpt > 0) e.highlight.add(ObjectKind::StateCheckpoints);
    e.sentence = "The new turn's first " + N(hit) + " tokens match " + units + " stored units: their KV is read from SSD into host DRAM" +
                 (ckpt > 0 ? ", with the recurrent state's last checkpoint before them." : ".");
  }
  if (from != model::PrefixTier::Hbm) {
    // The KV rows and, for linear layers, the checkpoint share the upload by their bytes (one transfer).
    const double kv_part = ckpt > 0 ? (bytes - ckpt) / bytes : 1.0;
    LedgerEntry& e = b.add_timed("promote-dram-hbm", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, FigureId::PrefixUploadTime, kv_part);
    e.phase = "hit";
    e.bytes = (bytes - ckpt) * t.kv_share;
    std::string formula = kv_part == 1.0 ? b.fig(FigureId::PrefixUploadTime).formula()
                                         : b.share_text(FigureId::PrefixUploadTime, kv_part) + ", the rows' share of the hit's bytes";
    if (from == model::PrefixTier::Dram) formula = b.fig(FigureId::PrefixHitBytes).formula() + "; " + formula + "; " + tier_why;
    b.cite(e, FigureId::PrefixUploadTime, formula);
    if (from == model::PrefixTier::Dram) e.highlight.add(ObjectKind::PrefixCache);
    e.changes[0] = {ObjectKind::GlobalKv, hit * b_tok * t.kv_share, hit};
    const double idx = b.val(FigureId::KvIndexerPerToken);
    if (idx > 0) {
      e.changes[1] = {ObjectKind::IndexerKeys, hit * idx * t.kv_share, hit};
      e.highlight.add(ObjectKind::IndexerKeys);
    }
    e.sentence = from == model::PrefixTier::Dram
                     ? "The new turn's first " + N(hit) + " tokens match a prefix still held in host DRAM: its rows move up into HBM over the host "
                       "link before the turn starts, and nothing is read from SSD."
                     : "From host DRAM the rows move up into HBM before the turn starts, so no step waits on SSD.";
    if (ckpt > 0) {
      LedgerEntry& r = b.add_timed("restore-state", Endpoint::Dram, Endpoint::Hbm, ObjectKind::StateCheckpoints, FigureId::PrefixUploadTime, 1.0 - kv_part);
      r.phase = "hit";
      r.bytes = ckpt * t.kv_share;
      b.cite(r, FigureId::KvRecurrentCkptBytes, b.fig(FigureId::KvRecurrentCkptBytes).formula() + "; " +
                                                    b.share_text(FigureId::PrefixUploadTime, 1.0 - kv_part) + ", the checkpoint's share of the hit's bytes");
      r.highlight.add(ObjectKind::RecurrentState);
      r.highlight.layers = b.linear_layers();
      r.changes[0] = {ObjectKind::RecurrentState, b.state_on_gpu(), 0};
      r.sentence = "The linear layers need no token rows: the hit restores their recurrent state from its last checkpoint, " + B(ckpt) +
                   " taken every " + N(b.val(FigureId::KvRecurrentCkptInterval)) + " tokens, and the tokens after it are computed again.";
    }
  }
  if (b.val(FigureId::PrefixReplayTime) > 0) {
    LedgerEntry& e = b.add_timed("replay-window", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefixReplayTime);
    e.phase = "hit";
    const double win = std::min<double>(b.m.n_win, hit);
    e.flop = t.rest_replay.flop_all() - t.rest.flop_all();
    b.cite(e, FigureId::PrefixReplayTime, b.fig(FigureId::PrefixReplayTime).formula());
    e.changes[0] = {ObjectKind::SwaWindow, t.window_layers * win * b.z.swa * t.kv_share, win};
    e.highlight.layers = b.all_layers();
    e.sentence = "SWA KV was never cached, so the hit's last " + N(win) + " tokens are replayed in front of the new ones to rebuild the window.";
  }
  const double rest = b.s.work.prompt - hit;
  if (rest > 0) {
    LedgerEntry& e = b.add_timed("prefill-rest", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefixRestTime);
    e.phase = "hit";
    e.flop = t.rest.flop_all();
    b.cite(e, FigureId::PrefixRestTime, b.fig(FigureId::PrefixRestTime).formula());
    e.highlight.layers.add_range(0, std::max(0, static_cast<int>(t.full_layers) - 1));
    e.changes[0] = {ObjectKind::GlobalKv, rest * b_tok * t.kv_share, rest};
    e.sentence = "Only the " + N(rest) + " new tokens of the prompt are prefilled; they attend over the promoted prefix.";
  }
  {
    LedgerEntry& e = b.add_timed("first-decode", Endpoint::Hbm, Endpoint::Sram, ObjectKind::MoeWeights, FigureId::DecodeStepTime);
    e.phase = "hit";
    e.bytes = b.val(FigureId::DecodeWeightBytes) + b.val(FigureId::DecodeKvBytes);
    b.cite(e, FigureId::DecodeStepTime, b.fig(FigureId::DecodeStepTime).formula());
    e.highlight.layers = b.all_layers();
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The turn's first decode step starts with the whole prefix already in HBM.";
  }
  {
    LedgerEntry& e = b.add_timed("recompute", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefixRecomputeTime);
    e.phase = "recompute";
    e.flop = t.prefill.flop_all() - t.rest.flop_all();
    b.cite(e, FigureId::PrefixRecomputeTime, b.fig(FigureId::PrefixRecomputeTime).formula() + "; against the hit: " + b.fig(FigureId::PrefixSpeedup).formula());
    e.highlight.layers.add_range(0, std::max(0, static_cast<int>(t.full_layers) - 1));
    const double ratio = b.val(FigureId::PrefixSpeedup);
    e.sentence = "Without the cache the " + N(hit) + " tokens would be recomputed: " + S(e.duration) + " against " +
                 S(b.val(FigureId::PrefixHitTime) + b.val(FigureId::PrefixReplayTime)) + (from == model::PrefixTier::Ssd ? std::string(" to promote them") : std::string(" to take them from ") + model::prefix_tier_name(from)) +
                 " and replay the window, " +
                 model::num_sig(ratio, 3) + "× " + (ratio >= 1 ? "slower." : "faster.");
  }
}

// [SECTION] step-budget -------------------------------------------------------------------------------
void build_step_budget(Builder& b) {
  b.base_residency(b.t.batch_replica, b.s.work.ctx);
  // Sweep: the scenario's own point, then the batch ×8 and ×64, then the context ×8 at the largest batch,
  // clamped to the parameters' allowed ranges. Each entry lasts its point's own figure.
  const model::ParamDef* pb = model::find_param("batch");
  const model::ParamDef* pc = model::find_param("ctx");
  const double bmax = pb ? pb->max : 1e6, cmax = pc ? pc->max : 1.6e7;
  const double b0 = b.s.work.batch, c0 = b.s.work.ctx;
  const double points[4][2] = {{b0, c0}, {std::min(bmax, 8 * b0), c0}, {std::min(bmax, 64 * b0), c0}, {std::min(bmax, 64 * b0), std::min(cmax, 8 * c0)}};
  for (const auto& p : points) {
    model::Scenario sp = b.s;
    sp.work.batch = static_cast<std::int32_t>(p[0]);
    sp.work.ctx = static_cast<std::int32_t>(p[1]);
    const model::Figures fp = model::describe(sp);
    const model::Values& v = fp.computed.values;
    const model::Terms& t = fp.computed.terms;
    const std::string phase = "batch " + N(p[0]) + " · ctx " + N(p[1]);
    if (!t.feasible()) {
      LedgerEntry& e = b.add("cannot-run", Endpoint::Hbm, Endpoint::Hbm, ObjectKind::GlobalKv, 0);
      e.phase = phase;
      e.formula = model::infeasible_summary(t);
      e.sentence = "At batch " + N(p[0]) + " and " + N(p[1]) + " tokens of context this setup cannot run: " + e.formula + ".";
      continue;
    }
    const double step = v[FigureId::DecodeStepTime];
    auto part = [&](std::string_view key, ObjectKind obj, FigureId time, FigureId what, const std::string& name, Endpoint from, Endpoint to) {
      if (v[time] <= 0) return;
      LedgerEntry& e = b.add(key, from, to, obj, v[time]);
      e.phase = phase;
      e.figure = time;
      e.provenance = fp[time].provenance;
      e.sources = model::figure_sources(fp, fp[time]);
      e.formula = fp[time].formula() + (what != FigureId::Count ? "; " + fp[what].formula() : std::string());
      e.highlight.add(Endpoint::Decoder);
      e.sentence = "At batch " + N(p[0]) + " and " + N(p[1]) + " tokens of context, " + name + " take " + S(e.duration) + ": " +
                   model::human(e.duration / step, "fraction") + " of the " + S(step) + " step (" + model::bound_name(t.step) + ").";
    };
    const Endpoint H = Endpoint::Hbm, R = Endpoint::Sram, D = Endpoint::Decoder;
    part("weights", ObjectKind::MoeWeights, FigureId::DecodeTWeights, FigureId::DecodeWeightBytes,
         "the weights (" + model::num_sig(v[FigureId::DecodeExpertsPerRank], 4) + " experts per rank)", H, R);
    part("index", ObjectKind::SparseIndex, FigureId::DecodeTIndex, FigureId::Count, "the index reads", H, R);
    part("gather", ObjectKind::GlobalKv, FigureId::DecodeTGather, FigureId::Count, "the KV reads", H, R);
    part("swa-window", ObjectKind::SwaWindow, FigureId::DecodeTWindow, FigureId::Count, "the SWA windows", H, R);
    part("recurrent-state", ObjectKind::RecurrentState, FigureId::DecodeTState, FigureId::Count, "the recurrent states", H, R);
    part("compute", ObjectKind::HiddenStream, FigureId::DecodeTCompute, FigureId::DecodeFlop, "compute above the reads", R, D);
    part("all-to-all", ObjectKind::HiddenStream, FigureId::DecodeTA2a, FigureId::Count, "the MoE all-to-all", D, D);
    part("all-reduce", ObjectKind::HiddenStream, FigureId::DecodeTAllreduce, FigureId::Count, "the all-reduces", D, D);
    part("kernel-floors", ObjectKind::WorkingSet, FigureId::DecodeTOverhead, FigureId::Count, "kernel launch floors", R, R);
    part("host", ObjectKind::WorkingSet, FigureId::DecodeTHost, FigureId::Count, "the host's scheduling and sampling", D, D);
  }
}

}  // namespace tierscope::anim::detail
