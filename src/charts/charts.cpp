// make_chart: the roofline, sweep and breakdown series from the model, through the same SweepRunner as
// `tierscope sweep` (axes and ticks: chart_axes.cpp; the JSON and CSV writers: chart_text.cpp).
//
// Chart keys and labels: chart_keys.cpp; two scenarios as one chart: chart_pair.cpp.
//
// Sections: numbers and axis labels · a sweep's lines and the spans where none runs · the measured points as
// marks · the roofline chart · the sweep chart · the breakdown chart · make_chart and make_chart_pair (A
// beside B while comparing).
#include "charts/charts.h"
#include "charts/flip_mark.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/text.h"
#include "evidence/anchors.h"
#include "evidence/card_check.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/sweep.h"

namespace tierscope::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using F = FigureId;

// A typed value as a number, without exceptions: false for anything strtod does not read whole.
bool read_number(const std::string& text, double& out) {
  if (text.empty() || text.size() > 64) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

double number(const std::string& text) {
  double d = 0;
  return read_number(text, d) ? d : kNaN;
}

// The parameter's current value as a number (Int and Real keys).
double value_of(const Scenario& s, const ParamDef& p) { return get_param_number(s, p); }

std::string axis_label(const ParamDef& p) {
  std::string d = p.description;
  if (!d.empty()) d[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(d[0])));
  return d;
}

// Whether every model-architecture input of `a` equals that of `b`: measured points count for a chart
// only when they were measured on the model being shown.
bool same_model(const Scenario& a, const Scenario& b) {
  for (const ParamDef& p : params()) {
    if (p.group == ParamGroup::Model && !param_equal(a, b, p)) return false;
  }
  return true;
}

// Runs the sweep: one line per family value (or one line), NaN where a figure is not shown. Each
// point's feasibility goes to `feasible` (per line, per x).
bool run_lines(const Scenario& s, const std::vector<FigureId>& figs, const ParamDef& x, const std::vector<std::string>& xv,
               const ParamDef* fam, const std::vector<std::string>& fv, std::vector<std::vector<double>>& ys,
               std::vector<std::vector<char>>& feasible, std::vector<std::string>& why, Errors& errors) {
  const std::size_t nf = fam ? fv.size() : 1;
  const ParamDef* keys[] = {&x, fam};
  SweepRunner runner(s, figs, std::span<const ParamDef* const>(keys, fam ? 2 : 1));
  ys.assign(nf * figs.size(), std::vector<double>(xv.size(), kNaN));
  feasible.assign(nf, std::vector<char>(xv.size(), 0));
  why.assign(nf, std::string());
  Computed c;
  for (std::size_t j = 0; j < nf; ++j) {
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const SweepSetting set[] = {{&x, xv[i]}, {fam, fam ? std::string_view(fv[j]) : std::string_view()}};
      Errors e;
      if (!runner.run(std::span<const SweepSetting>(set, fam ? 2 : 1), c, e)) {
        for (Error& err : e) err.field = std::string(x.key) + "=" + xv[i] + (fam ? std::string(", ") + fam->key + "=" + fv[j] : "") + ": " + err.field;
        errors.insert(errors.end(), e.begin(), e.end());
        return false;
      }
      feasible[j][i] = c.terms.feasible() ? 1 : 0;
      if (!feasible[j][i] && why[j].empty()) why[j] = infeasible_summary(c.terms);
      for (std::size_t k = 0; k < figs.size(); ++k) {
        if (figure_shown(c.terms, figs[k])) ys[j * figs.size() + k][i] = c.values[figs[k]];
      }
    }
  }
  return true;
}

// Contiguous runs of x where no line can run, each with the reason at its first point.
void spans_where_none_run(Chart& c, const std::vector<std::vector<char>>& feasible, const Scenario& s, const ParamDef& x) {
  const std::size_t n = c.xs.size();
  std::size_t i = 0;
  SweepRunner runner(s, std::vector<FigureId>{F::HbmSessions}, std::vector<const ParamDef*>{&x});
  while (i < n) {
    bool none = true;
    for (const auto& line : feasible) none = none && !line[i];
    if (!none) {
      ++i;
      continue;
    }
    ChartSpan span;
    span.from = c.xs[i];
    std::size_t j = i;
    while (j + 1 < n) {
      bool next_none = true;
      for (const auto& line : feasible) next_none = next_none && !line[j + 1];
      if (!next_none) break;
      ++j;
    }
    span.to = c.xs[j];
    Computed comp;
    Errors e;
    const SweepSetting set[] = {{&x, c.x_text[i]}};
    if (runner.run(set, comp, e)) span.why = infeasible_summary(comp.terms);
    c.infeasible.push_back(std::move(span));
    i = j + 1;
  }
}

ChartAxis axis(std::string key, std::string label, std::string unit, bool log) {
  ChartAxis a;
  a.key = std::move(key);
  a.label = std::move(label);
  a.unit = std::move(unit);
  a.log = log;
  return a;
}

std::string bound_of(const Terms& t) { return bound_name(t.step); }

// The measured points with the preset each was measured on, worked out once: anchors, presets and the
// engine's constants are fixed for the program's life, and a dragged value redraws a chart every frame.
struct MeasuredPoint {
  Scenario base;  // the anchor's preset, to tell whether it was measured on the model shown
  AnchorResult result;
};
const std::vector<MeasuredPoint>& measured_points() {
  static const std::vector<MeasuredPoint> list = [] {
    std::vector<MeasuredPoint> out;
    for (const Anchor& a : anchors()) {
      // A chart draws decode steps: prefill points and points of a serving curve (no one step) stay out.
      if (a.replay || !anchor_is_decode(a.metric)) continue;
      MeasuredPoint p;
      if (!make_preset(a.preset, p.base)) continue;
      p.result = evaluate_anchor(a);
      if (p.result.ok) out.push_back(std::move(p));
    }
    return out;
  }();
  return list;
}

// Whether two scenarios run on the same hardware with the same layout: a measured point from elsewhere
// is not a point of the chart's own setup, and says so.
bool same_setup(const Scenario& a, const Scenario& b) {
  return a.hw.gpu == b.hw.gpu && a.hw.gpus == b.hw.gpus && a.par.tp == b.par.tp && a.par.dp == b.par.dp && a.par.ep == b.par.ep;
}

void add_measured_marks(const Scenario& s, Chart& c) {
  for (const MeasuredPoint& p : measured_points()) {
    if (!same_model(p.base, s)) continue;
    const AnchorResult& r = p.result;
    const Anchor& a = *r.anchor;
    ChartMark m;
    m.id = a.id;
    m.kind = "measured";
    m.label = a.what;
    m.x = r.scenario.work.batch;
    m.y = r.step_measured;
    m.model = r.step_model;
    m.ratio = r.step_measured > 0 ? r.step_model / r.step_measured : 0;
    m.setup = setup_text(r.scenario);
    m.elsewhere = !same_setup(r.scenario, s);
    m.brief = (m.elsewhere ? "measured on " + m.setup : std::string("measured")) + " · model " + num_sig(m.ratio, 3) + "×";
    m.text = "measured on " + m.setup + (m.elsewhere ? " (this chart: " + setup_text(s) + ")" : std::string()) + ": " +
             human(r.step_measured, "s") + " per decode step at batch " + num(m.x) + " (" + anchor_metric_name(a.metric) + " " +
             human(a.measured, anchor_unit(a.metric)) + "); the model gives " + human(r.step_model, "s") +
             " for that setup and settings: model ÷ measured " + num_sig(m.ratio, 3) + "× · " + a.url;
    c.marks.push_back(std::move(m));
  }
}

// Adds `extra` (x values as typed) to `xv` within [lo, hi], then sorts by value and keeps each value once.
void merge_values(std::vector<std::string>& xv, const std::vector<std::string>& extra, double lo, double hi) {
  for (const std::string& t : extra) {
    const double d = number(t);
    if (d >= lo && d <= hi) xv.push_back(t);
  }
  std::vector<std::pair<double, std::string>> by_value;
  by_value.reserve(xv.size());
  for (std::string& t : xv) by_value.emplace_back(number(t), std::move(t));
  std::stable_sort(by_value.begin(), by_value.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  xv.clear();
  double last = kNaN;
  for (auto& entry : by_value) {
    if (xv.empty() || entry.first != last) xv.push_back(std::move(entry.second));
    last = entry.first;
  }
}

// `extra`: x values to compute besides the chart's own (another scenario's, when two are compared).
bool roofline(const Scenario& s, int points, const std::vector<std::string>& extra, Chart& c, Errors& errors) {
  const ParamDef& batch = *find_param("batch");
  Computed now;
  compute_values(s, now);
  const Values& v = now.values;
  const double capacity = std::max(1.0, v[F::HbmSessions]);
  const double cross = v[F::DecodeCrossoverBatch];
  double hi = std::max({2.0 * capacity, 2.0 * s.work.batch, cross > 0 ? 2.0 * cross : 0.0, 16.0});
  hi = std::min(hi, batch.max);
  Error err;
  std::vector<std::string> xv = axis_values(batch, 1, hi, points, true, err);
  if (xv.empty()) {
    errors.push_back(err);
    return false;
  }
  // The scenario's own batch and the capacity edge are points of their own, so the shading starts
  // exactly where the setup stops fitting.
  auto add_x = [&](double b) {
    if (b >= 1 && b <= hi) xv.push_back(std::to_string(static_cast<long long>(std::round(b))));
  };
  add_x(s.work.batch);
  add_x(capacity);
  add_x(capacity + 1);
  // In numeric order, each value once.
  merge_values(xv, extra, 1, batch.max);

  const std::vector<FigureId> figs = {F::DecodeStepTime, F::DecodeMemoryRoof, F::DecodeComputeRoof, F::DecodeTokensPerS};
  std::vector<std::vector<double>> ys;
  std::vector<std::vector<char>> ok;
  std::vector<std::string> why;
  if (!run_lines(s, figs, batch, xv, nullptr, {}, ys, ok, why, errors)) return false;

  c.title = "Decode roofline: step time against batch";
  c.x = axis("batch", "Concurrent decode sessions per instance (batch)", batch.unit, true);
  c.x.integer = true;
  c.y = axis("decode.step_time", "Decode step time, per instance", "s", true);
  c.x_text = xv;
  for (const std::string& t : xv) c.xs.push_back(number(t));
  c.lines.push_back({"decode.step_time", "Decode step (model)", "model", "", "", ys[0]});
  c.lines.push_back({"decode.memory_roof", "Memory roof: bytes ÷ (bandwidth × MBU)", "memory-roof", "", "", ys[1]});
  c.lines.push_back({"decode.compute_roof", "Compute roof: FLOP ÷ (peak × MFU)", "compute-roof", "", "", ys[2]});
  c.lines.push_back({"decode.tokens_per_s", "Output tokens/s per instance", "secondary", "tokens/s", "", ys[3]});
  spans_where_none_run(c, ok, s, batch);

  ChartMark here;
  here.id = "now";
  here.kind = "now";
  here.label = "This scenario";
  here.x = s.work.batch;
  here.reachable = now.terms.feasible();
  here.y = here.reachable ? v[F::DecodeStepTime] : kNaN;
  here.brief = "this scenario";
  here.text = here.reachable ? "batch " + num(here.x) + ": " + human(here.y, "s") + " per decode step, " + bound_of(now.terms) + ", " +
                                   human(v[F::DecodeTokensPerS], "") + " tokens/s per instance"
                             : "batch " + num(here.x) + " cannot run: " + infeasible_summary(now.terms);
  c.marks.push_back(here);

  if (cross >= 1) {
    // Where the roofs meet: both roofs at that batch (rounded up to whole sessions), so the mark sits on
    // the lines drawn.
    ChartMark m;
    m.id = "crossover";
    m.kind = "crossover";
    m.label = "Roofs cross";
    m.x = cross;
    Scenario at = s;
    at.work.batch = static_cast<std::int32_t>(std::min(batch.max, std::ceil(cross)));
    Computed cc;
    compute_values(at, cc);
    m.y = std::max(cc.values[F::DecodeMemoryRoof], cc.values[F::DecodeComputeRoof]);
    m.reachable = cross <= capacity;
    m.brief = "roofs cross · batch " + num(cross);
    m.text = "compute roof meets memory roof at batch " + num(cross) +
             (m.reachable ? "" : ", beyond the " + num(capacity) + " sessions HBM holds: this setup never becomes compute-bound in decode");
    c.marks.push_back(std::move(m));
  }
  add_measured_marks(s, c);
  c.description = "Log-log chart of the decode step time against batch, 1 to " + num(hi) + " sessions, with the memory and compute roofs. " +
                  here.text + "." +
                  (cross >= 1 ? " The roofs cross at batch " + num(cross) + "." : " The compute roof stays below the memory roof over this range.") +
                  (c.infeasible.empty() ? "" : " Beyond " + num(capacity) + " sessions the setup cannot run (shaded).");
  c.command = "tierscope sweep --preset " + s.preset + " --over batch=" + xv.front() + "," + "… --figures decode.step_time,decode.memory_roof,decode.compute_roof,decode.tokens_per_s";
  return true;
}

bool sweep(const Scenario& s, const ChartOptions& o, const std::vector<std::string>& extra, Chart& c, Errors& errors) {
  const FigureId fig = figure_id(o.figure);
  if (fig == F::Count) {
    errors.push_back(make_error(ErrorCode::UnknownKey, "figure", o.figure, "a figure id of `tierscope figures --format csv`"));
    return false;
  }
  const std::string xkey = o.x_key.empty() ? "batch" : o.x_key;
  const ParamDef* x = find_param(xkey);
  if (!x || !sweep_axis_param(*x)) {
    errors.push_back(make_error(x ? ErrorCode::WrongType : ErrorCode::UnknownKey, "x", xkey, "a numeric scenario parameter (`tierscope params`)"));
    return false;
  }
  const ParamDef* fam = nullptr;
  if (!o.family_key.empty()) {
    fam = find_param(o.family_key);
    if (!fam || fam == x) {
      errors.push_back(make_error(fam ? ErrorCode::Inconsistent : ErrorCode::UnknownKey, "family", o.family_key,
                                  "a scenario parameter other than the x axis"));
      return false;
    }
    if (o.family_values.empty() || o.family_values.size() > 8) {
      errors.push_back(make_error(ErrorCode::OutOfRange, "family values", std::to_string(o.family_values.size()), "1 to 8 values"));
      return false;
    }
  }
  std::vector<std::string> xv = o.x_values;
  bool log = false;
  if (xv.empty()) {
    // A default range around the scenario's own value: ÷16 to ×16, within the key's limits.
    const double cur = value_of(s, *x);
    double lo = cur > 0 ? std::max(x->min, cur / 16) : x->min;
    double hi = cur > 0 ? std::min(x->max, cur * 16) : std::min(x->max, x->min + 1);
    if (xkey == "batch") hi = std::min(x->max, std::max(hi, 2.0 * value_of(s, *find_param("batch"))));
    log = lo > 0 && hi / lo >= 20;
    Error err;
    xv = axis_values(*x, lo, hi, o.points, log, err);
    if (xv.empty()) {
      errors.push_back(err);
      return false;
    }
    merge_values(xv, extra, x->min, x->max);
  } else {
    if (xv.size() > 256) {
      errors.push_back(make_error(ErrorCode::OutOfRange, "x values", std::to_string(xv.size()), "at most 256 points"));
      return false;
    }
    for (const std::string& t : xv) {
      double d = 0;
      if (!read_number(t, d)) {
        errors.push_back(make_error(ErrorCode::BadSyntax, "x values", t, "numbers"));
        return false;
      }
    }
    const double lo = number(xv.front()), hi = number(xv.back());
    log = lo > 0 && hi / lo >= 20;
  }
  std::vector<std::vector<double>> ys;
  std::vector<std::vector<char>> ok;
  std::vector<std::string> why;
  if (!run_lines(s, {fig}, *x, xv, fam, o.family_values, ys, ok, why, errors)) return false;
  const FigureInfo& info = figure_info(fig);
  c.title = std::string(info.label) + " against " + x->key;
  c.x = axis(x->key, axis_label(*x), x->unit, log);
  c.x.integer = x->kind == ParamKind::Int;
  bool ylog = true;
  double ymin = std::numeric_limits<double>::infinity(), ymax = 0;
  for (const auto& line : ys) {
    for (double y : line) {
      if (!std::isfinite(y)) continue;
      ylog = ylog && y > 0;
      ymin = std::min(ymin, y);
      ymax = std::max(ymax, y);
    }
  }
  ylog = ylog && ymax > 0 && ymax / ymin >= 20;
  c.y = axis(info.id, info.label, info.unit, ylog);
  c.x_text = xv;
  for (const std::string& t : xv) c.xs.push_back(number(t));
  for (std::size_t j = 0; j < ys.size(); ++j) {
    ChartLine l;
    l.id = fam ? std::string(fam->key) + "=" + o.family_values[j] : std::string(info.id);
    l.label = fam ? std::string(fam->key) + " " + o.family_values[j] : std::string(info.label);
    l.role = fam ? "family" : "model";
    l.y = std::move(ys[j]);
    c.lines.push_back(std::move(l));
  }
  spans_where_none_run(c, ok, s, *x);
  // The scenario's own point, when it lies on the chart (and on its first line).
  const double cur = value_of(s, *x);
  if (cur >= c.xs.front() && cur <= c.xs.back()) {
    Computed now;
    compute_values(s, now);
    ChartMark m;
    m.id = "now";
    m.kind = "now";
    m.label = "This scenario";
    m.brief = "this scenario";
    m.x = cur;
    m.reachable = figure_shown(now.terms, fig);
    m.y = m.reachable ? now.values[fig] : kNaN;
    m.text = std::string(x->key) + " " + num(cur) + ": " + (m.reachable ? human(m.y, info.unit) : "cannot run: " + infeasible_summary(now.terms));
    c.marks.push_back(std::move(m));
  }
  if (!fam) add_flip_mark(s, fig, *x, c);  // where an offload's change flips sign, as the figures found it
  for (const Claim& claim : claims()) {
    if (claim.figure != fig && claim.alt != fig) continue;
    c.bands.push_back({claim.id, std::string("design card: ") + claim.text + " (" + claim_band(claim) + ")", claim.lo, claim.hi});
  }
  c.description = std::string(info.label) + " (" + info.id + ") against " + x->key + " from " + xv.front() + " to " + xv.back() +
                  (fam ? ", one line per " + std::string(fam->key) : std::string()) + "." +
                  (c.bands.empty() ? "" : " The design card's band is drawn.") +
                  (c.infeasible.empty() ? "" : " Shaded: " + c.infeasible.front().why + ".");
  c.command = "tierscope sweep --preset " + s.preset + " --over " + x->key + "=" + xv.front() + ",…" +
              (fam ? " --over " + std::string(fam->key) + "=" + o.family_values.front() + ",…" : "") + " --figures " + info.id;
  return true;
}

bool breakdown(const Scenario& s, Chart& c, Errors&) {
  Computed now;
  compute_values(s, now);
  c.title = "Where a decode step's time goes";
  c.x = axis("term", "Term of the decode step", "", false);
  c.y = axis("decode.step_time", "Decode step time, per instance", "s", false);
  ChartBar bar;
  bar.id = "now";
  bar.label = "This scenario · batch " + num(s.work.batch);
  if (now.terms.feasible()) {
    bar.terms = step_terms(now.values, false);
    bar.total = now.values[F::DecodeStepTime];
    bar.bound = bound_of(now.terms);
  } else {
    bar.bound = "cannot run: " + infeasible_summary(now.terms);
  }
  c.bars.push_back(std::move(bar));
  for (const MeasuredPoint& p : measured_points()) {
    if (!same_model(p.base, s)) continue;
    const AnchorResult& r = p.result;
    const Anchor& a = *r.anchor;
    ChartBar b;
    b.id = a.id;
    b.label = a.what;
    b.terms = r.terms;
    b.total = r.step_model;
    b.measured = r.step_measured;
    Computed cc;
    compute_values(r.scenario, cc);
    b.bound = bound_of(cc.terms);
    c.bars.push_back(std::move(b));
  }
  const ChartBar& first = c.bars.front();
  c.description = "Stacked bars of the decode step split by term: " + first.label + " (" +
                  (first.total > 0 ? human(first.total, "s") + ", " + first.bound : first.bound) + ")" +
                  (c.bars.size() > 1 ? ", and " + num(static_cast<double>(c.bars.size() - 1)) +
                                           " measured points for this model with the model's terms at their settings and the measured step beside them."
                                     : ". No measured point is carried for this model.");
  // The figures the bars are made of (the terms' rows, step_terms.h), so the command never leaves one out.
  c.command = "tierscope anchors; tierscope figures --figures ";
  bool first_id = true;
  for (const DecodeTermDef& t : kDecodeTerms) {
    if (t.serve_only) continue;
    for (const FigureId f : t.figures) {
      if (f == FigureId::Count) break;
      c.command += (first_id ? "" : ",") + std::string(figure_info(f).id);
      first_id = false;
    }
  }
  return true;
}


}  // namespace


namespace {

// One chart, with `extra` x values computed besides its own (see roofline).
bool make_chart_at(const Scenario& s, ChartKind kind, const ChartOptions& options, const std::vector<std::string>& extra, Chart& out,
                   Errors& errors) {
  Chart c;
  c.kind = kind;
  bool ok = false;
  switch (kind) {
    case ChartKind::Roofline: {
      if (options.points < 2 || options.points > 256) {
        errors.push_back(make_error(ErrorCode::OutOfRange, "points", std::to_string(options.points), "2 to 256"));
        return false;
      }
      ok = roofline(s, options.points, extra, c, errors);
      break;
    }
    case ChartKind::Sweep: ok = sweep(s, options, extra, c, errors); break;
    case ChartKind::Breakdown: ok = breakdown(s, c, errors); break;
    case ChartKind::FleetOccupancy:
    case ChartKind::FleetHits:
    case ChartKind::FleetSweep:
      // Drawn from a run, not from the scenario alone (sim/fleet_charts.h).
      errors.push_back(make_error(ErrorCode::BadEnum, "chart", chart_key(kind), "a chart of the scenario (roofline, sweep, breakdown); fleet charts come from a fleet run"));
      break;
    case ChartKind::Frontier:
      // Drawn from serving replays (serve/frontier.h).
      errors.push_back(make_error(ErrorCode::BadEnum, "chart", chart_key(kind), "a chart of the scenario (roofline, sweep, breakdown); the frontier comes from serving replays"));
      break;
    case ChartKind::ServeLatency:
      // Drawn from one serving replay (serve/serve.h).
      errors.push_back(make_error(ErrorCode::BadEnum, "chart", chart_key(kind), "a chart of the scenario (roofline, sweep, breakdown); serve-latency comes from a serving replay"));
      break;
    case ChartKind::Count: errors.push_back(make_error(ErrorCode::BadEnum, "chart", "", "one of: " + chart_keys_text())); break;
  }
  if (ok) {
    finish_axes(c);
    out = std::move(c);
  }
  return ok;
}


}  // namespace

std::string setup_text(const Scenario& s) {
  std::string gpu = gpu_info(s.hw.gpu).key;
  for (char& ch : gpu) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::string t = num(s.hw.gpus) + "×" + gpu + ", TP" + num(s.par.tp);
  if (s.par.dp > 1) t += ", DP" + num(s.par.dp);
  if (s.model.experts > 0 && s.par.ep > 1) t += ", EP" + num(s.par.ep);
  return t;
}

bool make_chart(const Scenario& s, ChartKind kind, const ChartOptions& options, Chart& out, Errors& errors) {
  return make_chart_at(s, kind, options, {}, out, errors);
}

bool make_chart_pair(const Scenario& a, const Scenario& b, ChartKind kind, const ChartOptions& options, Chart& out, Errors& errors) {
  Chart ca, cb;
  Errors ea, eb;
  bool oka = make_chart(a, kind, options, ca, ea);
  bool okb = oka && make_chart(b, kind, options, cb, eb);
  // Each at the other's x values as well, so both have a value at every x where they run (a line over
  // the merged x values with a gap at every other point would be drawn as scattered moves, not a line).
  if (oka && okb && kind != ChartKind::Breakdown && ca.x_text != cb.x_text) {
    const std::vector<std::string> xa = ca.x_text, xb = cb.x_text;
    oka = make_chart_at(a, kind, options, xb, ca, ea);
    okb = oka && make_chart_at(b, kind, options, xa, cb, eb);
  }
  if (!oka || !okb) {
    for (Error& e : ea) e.field = "A: " + e.field;
    for (Error& e : eb) e.field = "B: " + e.field;
    errors.insert(errors.end(), ea.begin(), ea.end());
    errors.insert(errors.end(), eb.begin(), eb.end());
    return false;
  }
  pair_charts(ca, cb, kind, out);
  return true;
}


}  // namespace tierscope::model
