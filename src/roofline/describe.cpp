// describe(): turns computed values into Figures whose formulas quote the scenario's own numbers, name the
// roof that won for every timed step, and carry where each input comes from. Each formula sits beside its
// arithmetic in its topic (topic_*.cpp); this file fills every figure's facts and provenance, formats the
// phrases many formulas share (topics::Say) and calls the topics.
#include <limits>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/topics.h"

namespace tierscope::model {

namespace {

// Weakest first: a figure built on an override or an assumption says so.
int strength(Provenance p) {
  switch (p) {
    case Provenance::Override: return 0;
    case Provenance::Assumed: return 1;
    case Provenance::Card: return 2;
    case Provenance::Derived: return 3;
    case Provenance::ThirdParty: return 4;
    case Provenance::Measured: return 5;
    case Provenance::Engine: return 6;
    case Provenance::Paper: return 7;
    case Provenance::Count: break;
  }
  return 1;
}

// Every figure's static facts and value, its provenance for this scenario, and whether it is shown.
void fill_facts(Figures& out) {
  const Values& v = out.computed.values;
  const Terms& t = out.computed.terms;
  out.list.resize(kFigureCount);
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureId fid = static_cast<FigureId>(i);
    const FigureInfo& info = figure_info(fid);
    Figure& f = out.list[static_cast<std::size_t>(i)];
    f.id = info.id;
    f.fid = fid;
    f.label = info.label;
    f.unit = info.unit;
    f.value = v.v[i];
    f.deps = info.deps;
    f.tier = info.tier;
    f.lifetime = info.lifetime;
    f.provenance = Provenance::Derived;
    // A fact (not a computation) takes the weakest provenance among its inputs for this scenario.
    bool overridden = false;
    Provenance weakest = Provenance::Paper;
    for (std::uint8_t idx : figure_dep_indices(fid)) {
      const Provenance p = out.inputs[idx].provenance;
      if (p == Provenance::Override) overridden = true;
      if (strength(p) < strength(weakest)) weakest = p;
    }
    if (info.provenance != Provenance::Derived) f.provenance = weakest;
    else if (overridden) f.provenance = Provenance::Override;
    if (!figure_shown(t, fid)) {
      f.feasible = false;
      f.value = std::numeric_limits<double>::quiet_NaN();
    }
  }
}

}  // namespace

namespace topics {

Say::Say(std::vector<Figure>& figures, const Computed& computed, const Scenario& scenario)
    : s(scenario),
      m(scenario.model),
      hw(scenario.hw),
      w(scenario.work),
      v(computed.values),
      t(computed.terms),
      list(figures),
      said(static_cast<std::size_t>(kFigureCount)) {
  why_not = t.feasible() ? std::string() : infeasible_summary(t);
  bw = human(t.bw_raw, "B/s") + " × streaming share " + num_sig(t.bw_raw > 0 ? t.bw / t.bw_raw : 0.0, 3);
  peak = human(t.peak_raw, "FLOP/s") + " × FLOP share " + num_sig(t.peak_raw > 0 ? t.peak / t.peak_raw : 0.0, 3);
  per_gpu_note = " (one GPU of " + num(t.gpus) + ")";
  per_gpu = " / (" + bw + ")";
  tp = num(t.tp);
  gpus = num(t.gpus);
  link = " / " + human(t.host_bw, "B/s") + " " + link_info(hw.host_link).label;
  share = t.kv_share < 1 ? " / tp " + tp : std::string();
  win = has_swa(m);
  replays = replays_window(m);
  no_replay = !win ? "no sliding window, nothing to replay" : "this model caches its window with the prefix: no replay";
  hit = std::min(w.prefix_hit, w.prompt);
}

std::string Say::classes(const Pass& p) const {
  std::string x = "Σ over kernel classes of max(FLOP / achieved FLOP/s, bytes / achieved B/s, kernels × launch floor): ";
  bool first = true;
  for (int i = 0; i < kWorkClasses; ++i) {
    if (p.flop_c[i] <= 0 && p.bytes_c[i] <= 0) continue;
    const double c = p.rate_c[i] > 0 ? p.flop_c[i] / p.rate_c[i] : 0, mm = p.bw_c[i] > 0 ? p.bytes_c[i] / p.bw_c[i] : 0, fl = p.floor_c[i];
    x += (first ? "" : " + ") + std::string(work_class_name(static_cast<WorkClass>(i))) + " " + S(std::max({c, mm, fl})) + " (" +
         (fl > c && fl > mm ? "launch floor, launch-bound"
          : c > mm          ? FL(p.flop_c[i]) + " at " + human(p.rate_c[i], "FLOP/s") + ", compute-bound"
                            : B(p.bytes_c[i]) + " at " + human(p.bw_c[i], "B/s") + ", memory-bound") +
         ")";
    first = false;
  }
  return x + " = " + S(p.core()) + ", " + bound_name(p);
}

Expr Say::classes_expr(const Pass& p) const {
  std::vector<Expr> parts;
  for (int i = 0; i < kWorkClasses; ++i) {
    if (p.flop_c[i] <= 0 && p.bytes_c[i] <= 0 && p.floor_c[i] <= 0) continue;
    // Each class at its own achieved rates in this pass (class_rates) and the pass's launch floor.
    const double kernels = p.launch_s > 0 ? p.floor_c[i] / p.launch_s : 0.0;
    std::vector<Expr> roofs;
    if (p.flop_c[i] > 0 && p.rate_c[i] > 0) roofs.push_back(q(p.flop_c[i], "FLOP") / q(p.rate_c[i], "FLOP/s"));
    if (p.bytes_c[i] > 0 && p.bw_c[i] > 0) roofs.push_back(q(p.bytes_c[i], "B") / q(p.bw_c[i], "B/s"));
    if (p.floor_c[i] > 0) roofs.push_back(n(kernels, "kernels") * q(p.launch_s, "s"));
    if (roofs.empty()) continue;
    Expr part = roofs.size() == 1 ? std::move(roofs[0]) : max_of(std::move(roofs));
    part.named(work_class_name(static_cast<WorkClass>(i)));
    parts.push_back(std::move(part));
  }
  return sum_of(std::move(parts));
}

}  // namespace topics

Figures describe(const Scenario& s) {
  Figures out;
  compute_values(s, out.computed);
  // Where every input comes from, once.
  out.origin = s.origin;
  all_input_provenance(s, out.inputs);
  fill_facts(out);
  using namespace topics;
  Say y(out.list, out.computed, s);
  describe_params(y);          // parameters and weights
  describe_kv(y);              // KV layout
  describe_placement(y);       // placement and capacity
  describe_decode_experts(y);  // the decode step
  describe_decode_bytes(y);
  describe_decode_terms(y);
  describe_engram(y);          // Engram tables, fetch and stall
  describe_decode_rates(y);
  describe_serving(y);         // steady serving
  describe_sparse_reads(y);    // sparse reads per session
  describe_swa(y);             // SWA restore and pool
  describe_replay(y);          // replay
  describe_prefill(y);         // prefill
  describe_prefix(y);          // prefix cache
  describe_ssd(y);             // SSD retention
  describe_turn_cost(y);       // cost
  describe_hardware(y);        // hardware facts
  return out;
}

}  // namespace tierscope::model
