// The frontier chart: layouts × concurrencies replayed, the Pareto front over all of them, the measured
// points of the same preset and GPU placed with the replay supplying the coordinate the source does not give.
//
// Sections: layouts and concurrencies to replay · the measured points as marks · pareto_front · the replay
// grid and replayed_front · the source space (--source-space: layouts@concurrencies, conc, lengths) ·
// front_at · frontier_chart.
#include "serve/frontier.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "base/text.h"
#include "evidence/anchors.h"
#include "model/params.h"
#include "roofline/figures.h"
#include "serve/serve.h"
#include "serve/serve_anchors.h"

namespace tierscope::serve {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Point {
  std::size_t layout = 0;
  int concurrency = 0;
  double x = 0, y = 0;  // tokens/s per user, output tokens/s per GPU
};

struct Layout {
  model::Scenario s;
  std::string id, label, settings;
  SourceLayout source;  // how many instances, a fixed prefill pool and its concurrencies (a source's recipe)
};

// Sets one key as a person would (dependent fields follow); false when the value is refused.
bool set_key(model::Scenario& s, const char* key, const std::string& value) {
  const model::ParamDef* p = model::find_param(key);
  model::Adjustments moved;
  model::Error err;
  return p && model::edit_param(s, *p, value, moved, err);
}

int draft_count(const model::Scenario& base) {
  return base.model.draft_layers > 0 ? std::max(1, base.work.spec_tokens > 0 ? base.work.spec_tokens : 3) : 0;
}

// `base` split as tp × dp with `ep` expert ranks and `spec` draft tokens (on `gpus` GPUs; 0 keeps the
// scenario's count), at batch 1. False when a key is refused, the model moves the split (its heads or
// experts allow another) or the layout cannot run.
bool split(const model::Scenario& base, int gpus, int tp, int dp, int ep, int spec, model::Scenario& out) {
  out = base;
  if (gpus > 0 && !set_key(out, "gpus", std::to_string(gpus))) return false;
  if (!set_key(out, "tp", std::to_string(tp)) || !set_key(out, "dp", std::to_string(dp)) || !set_key(out, "ep", std::to_string(ep)) ||
      !set_key(out, "spec_tokens", std::to_string(spec)))
    return false;
  if ((gpus > 0 && out.hw.gpus != gpus) || out.par.tp != tp || out.par.dp != dp) return false;
  out.work.batch = 1;
  return model::validate(out).empty();
}

// The layouts a measured curve's source ran (tpN, tepN, depN, each an instance of its own N GPUs: the
// per-GPU throughput of one instance is that of several side by side), MTP as it ran it, and for a
// disaggregated recipe its workers and prefill pool.
std::vector<Layout> source_layouts(const model::Scenario& base, const std::vector<SourceLayout>& only) {
  std::vector<Layout> out;
  const int drafts = draft_count(base);
  const bool moe = base.model.experts > 0;
  for (const SourceLayout& sl : only) {
    if (sl.mtp && drafts == 0) continue;                      // the model has no draft module
    if (sl.kind != SourceLayout::Kind::Tp && !moe) continue;  // EP needs experts
    const int n = sl.gpus;
    const int tp = sl.kind == SourceLayout::Kind::Dep ? 1 : n, dp = n / tp, ep = sl.kind == SourceLayout::Kind::Tp ? 1 : n;
    const int spec = sl.mtp ? drafts : 0;
    Layout l;
    if (!split(base, n, tp, dp, ep, spec, l.s)) continue;
    const std::string workers = sl.workers > 1 ? std::to_string(sl.workers) + "x" : "";
    const std::string pool = sl.prefill_gpus > 0 ? "-ctx" + std::to_string(sl.prefill_gpus) : "";
    l.id = workers + "tp" + std::to_string(tp) + "-dp" + std::to_string(dp) + (ep > 1 ? "-ep" + std::to_string(ep) : "") + (sl.mtp ? "-mtp" : "") + pool;
    l.label = (sl.workers > 1 ? std::to_string(sl.workers) + " × " : "") + source_kind_name(sl.kind) + std::to_string(n) +
              (sl.mtp ? ", MTP " + std::to_string(spec) : ", no MTP") + (sl.prefill_gpus > 0 ? ", " + std::to_string(sl.prefill_gpus) + " prefill GPUs" : "");
    l.settings = "gpus=" + std::to_string(n) + "&tp=" + std::to_string(tp) + "&dp=" + std::to_string(dp) + "&ep=" + std::to_string(ep) +
                 "&spec_tokens=" + std::to_string(spec);
    l.source = sl;
    out.push_back(std::move(l));
  }
  return out;
}

// Every TP × DP split of the instance's GPUs (TP a power of two), experts over all GPUs for a MoE model,
// each with MTP off and on (the scenario's draft count, or 3) when the model has a draft module; or, given
// a source's layouts, those alone.
std::vector<Layout> layouts(const model::Scenario& base, const std::vector<SourceLayout>& only = {}) {
  if (!only.empty()) return source_layouts(base, only);
  std::vector<Layout> out;
  const int gpus = std::max(1, base.hw.gpus);
  const bool moe = base.model.experts > 0;
  const int drafts = draft_count(base);
  for (int tp = 1; tp <= gpus; tp *= 2) {
    if (gpus % tp) continue;
    for (int mtp = 0; mtp <= (drafts > 0 ? 1 : 0); ++mtp) {
      Layout l;
      const int dp = gpus / tp, ep = moe ? gpus : 1;
      const int spec = mtp ? drafts : 0;
      if (!split(base, 0, tp, dp, ep, spec, l.s)) continue;
      l.id = "tp" + std::to_string(tp) + "-dp" + std::to_string(dp) + (mtp ? "-mtp" : "");
      l.label = "TP" + std::to_string(tp) + (dp > 1 ? " DP" + std::to_string(dp) : "") + (moe && ep > 1 ? " EP" + std::to_string(ep) : "") +
                (mtp ? ", MTP " + std::to_string(spec) : ", no MTP");
      l.settings = "tp=" + std::to_string(tp) + "&dp=" + std::to_string(dp) + "&ep=" + std::to_string(ep) + "&spec_tokens=" + std::to_string(spec);
      out.push_back(std::move(l));
    }
  }
  return out;
}

// Concurrencies 1, 2, 4, … (from `from`, when given) up to what the layout holds, and that capacity itself.
std::vector<int> concurrencies(const model::Scenario& s, int input, int output, int cap, int from) {
  model::Scenario at = s;
  at.work.batch = 1;
  at.work.prompt = input;
  at.work.output = output;
  at.work.prefix_hit = 0;
  at.work.ctx = input + output / 2;
  model::Computed c;
  model::compute_values(at, c);
  if (!c.terms.fits()) return {};
  const int hold = static_cast<int>(std::min<double>(cap > 0 ? cap : 4096, c.values[model::FigureId::HbmSessions]));
  std::vector<int> out;
  for (int n = 1; n < hold; n *= 2)
    if (n >= from) out.push_back(n);
  if (hold >= 1 && hold >= from) out.push_back(hold);
  return out;
}

void measured_marks(const model::Scenario& s, model::Chart& c) {
  for (const model::Anchor& a : model::anchors()) {
    if (a.metric != model::AnchorMetric::Tpot && a.metric != model::AnchorMetric::TokensPerSGpu && a.metric != model::AnchorMetric::TotalTokensPerSGpu) continue;
    const model::AnchorResult r = model::evaluate_anchor(a);
    if (!r.ok || r.scenario.preset != s.preset || r.scenario.hw.gpu != s.hw.gpu) continue;
    model::AnchorResult as_replay = r;
    model::Anchor copy = a;
    copy.replay = true;
    as_replay.anchor = &copy;
    const ReplayedAnchor p = replay_anchor(as_replay);
    if (!p.ok) continue;
    model::ChartMark m;
    m.id = a.id;
    m.kind = "measured";
    m.label = a.what;
    m.setup = model::setup_text(r.scenario);
    m.elsewhere = r.scenario.hw.gpus != s.hw.gpus;
    // The source gives one coordinate; the replay at its settings gives the other.
    if (a.metric == model::AnchorMetric::Tpot) {
      m.x = 1.0 / a.measured;
      m.y = p.tps_gpu;
    } else {
      // The chart's y is output tokens: a total (input + output) measurement is drawn at its output share.
      m.x = p.tps_user;
      m.y = a.metric == model::AnchorMetric::TotalTokensPerSGpu ? a.measured / model::total_per_output(r.scenario) : a.measured;
    }
    m.model = p.model;
    m.ratio = p.ratio;
    m.text = m.setup + ": " + model::human(m.y, "tokens/s") + " per GPU at " + model::human(m.x, "tokens/s") + " per user (" +
             model::anchor_metric_name(a.metric) + " measured, the other from the replay at its settings); replay/measured " + model::num_sig(p.ratio, 3);
    m.brief = "measured · " + model::num_sig(p.ratio, 3) + "×";
    c.marks.push_back(std::move(m));
  }
}

}  // namespace

std::vector<std::size_t> pareto_front(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    if (std::isfinite(x[i]) && std::isfinite(y[i])) idx.push_back(i);
  // Highest x first; a point joins the front when its y beats every point with more x.
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return x[a] != x[b] ? x[a] > x[b] : y[a] > y[b]; });
  std::vector<std::size_t> front;
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t i : idx) {
    if (y[i] > best) {
      front.push_back(i);
      best = y[i];
    }
  }
  std::reverse(front.begin(), front.end());
  return front;
}

namespace {

// Every layout at every concurrency it holds, replayed.
std::vector<Point> replay_grid(const std::vector<Layout>& ls, int input, int output, const FrontierOptions& o) {
  std::vector<Point> pts;
  for (std::size_t li = 0; li < ls.size(); ++li) {
    const SourceLayout& src = ls[li].source;
    const int workers = std::max(1, src.workers);
    std::vector<int> ns = src.concurrencies;
    if (ns.empty()) {
      for (int n : concurrencies(ls[li].s, input, output, o.max_concurrency, o.min_concurrency)) ns.push_back(n * workers);
    } else {
      // A recipe's own concurrencies, over all its workers, as far as each worker's HBM holds its share.
      const std::vector<int> hold = concurrencies(ls[li].s, input, output, 0, 1);
      if (hold.empty()) continue;
      ns.erase(std::remove_if(ns.begin(), ns.end(), [&](int n) { return (n + workers - 1) / workers > hold.back(); }), ns.end());
    }
    for (int n : ns) {
      ServeSpec spec;
      spec.concurrency = n;
      spec.instances = workers;
      spec.requests = o.prompts_per_client > 0 ? o.prompts_per_client * n : std::max(32, 3 * n);
      spec.lengths = Lengths::Random;
      if (o.length_floor > 0) {
        // Uniform on [f L, L] is uniform around (1 + f) L / 2, ± (1 − f) / (1 + f) of it.
        const double f = o.length_floor;
        spec.input = std::max(1, static_cast<int>(std::lround(input * (1 + f) / 2)));
        spec.output = std::max(2, static_cast<int>(std::lround(output * (1 + f) / 2)));
        spec.range_ratio = (1 - f) / (1 + f);
      } else {
        spec.input = input;
        spec.output = output;
        spec.range_ratio = kRandomRangeRatio;  // "random" as everywhere: as the replayed anchors (docs/serve.md)
      }
      spec.seed = o.seed;
      spec.prefill = src.prefill_gpus > 0 ? PrefillMode::Pd : o.prefill;  // a recipe with a prefill pool is disaggregated
      ServeResult r;
      model::Errors e;
      if (!run_serve(ls[li].s, spec, r, e) || r.completed == 0 || !(r.tps_user > 0)) continue;
      double per_gpu = r.output_tps_gpu;
      if (src.prefill_gpus > 0) {
        // A prefill pool of a fixed size: its GPUs count whether busy or not, and a pool smaller than the one
        // that kept up holds the output to its share (the prompts come out no faster).
        const double decode_gpus = static_cast<double>(r.instances) * r.gpus_per_instance;
        const double output_total = r.output_tps_gpu * (decode_gpus + r.prefill_gpus);
        const double pool = src.prefill_gpus;
        const double held = r.prefill_gpus > pool ? pool / r.prefill_gpus : 1.0;
        per_gpu = output_total * held / (decode_gpus + pool);
      }
      pts.push_back(Point{li, n, r.tps_user, per_gpu});
    }
  }
  return pts;
}

}  // namespace

std::vector<FrontPoint> replayed_front(const model::Scenario& s, const FrontierOptions& o) {
  const int input = o.input > 0 ? o.input : std::max(1, s.work.prompt);
  const int output = o.output > 0 ? o.output : std::max(2, s.work.output);
  const std::vector<Layout> ls = layouts(s, o.only);
  const std::vector<Point> pts = replay_grid(ls, input, output, o);
  std::vector<double> xs, ys;
  for (const Point& p : pts) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  std::vector<FrontPoint> front;
  for (std::size_t i : pareto_front(xs, ys)) front.push_back(FrontPoint{pts[i].x, pts[i].y, ls[pts[i].layout].id, pts[i].concurrency});
  return front;
}

namespace {

// A positive whole number of at most six digits.
bool to_count(std::string_view v, int& out) {
  if (v.empty() || v.size() > 6) return false;
  int n = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9') return false;
    n = n * 10 + (ch - '0');
  }
  out = n;
  return n > 0;
}

// One item of a space's layouts: [Wx]KINDN[+mtp][+ctxP][@C1/C2/…].
bool parse_layout(std::string_view item, SourceLayout& l, std::string& why) {
  const auto refuse = [&](const char* what) {
    why = "layouts: '" + std::string(item) + "': " + what;
    return false;
  };
  std::string_view rest = item;
  // @C1/C2/…: the concurrencies it ran
  if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
    const std::string_view list = rest.substr(at + 1);
    rest = rest.substr(0, at);
    for (const std::string_view one : model::split(list, '/')) {
      int c = 0;
      if (!to_count(one, c)) return refuse("its concurrencies are not whole numbers joined by '/'");
      l.concurrencies.push_back(c);
    }
    if (l.concurrencies.empty()) return refuse("no concurrency after '@'");
  }
  // Wx: that many decode workers
  if (const std::size_t x = rest.find('x'); x != std::string_view::npos && x > 0 && rest[0] >= '0' && rest[0] <= '9') {
    if (!to_count(rest.substr(0, x), l.workers) || l.workers > 64) return refuse("its workers are not a number from 1 to 64 before 'x'");
    rest = rest.substr(x + 1);
  }
  // +mtp, +ctxP
  const std::string_view head = rest.substr(0, rest.find('+'));
  const std::string_view mods = rest.size() > head.size() ? rest.substr(head.size() + 1) : std::string_view();
  for (const std::string_view m : model::split(mods, '+')) {
    if (m == "mtp") l.mtp = true;
    else if (m.substr(0, 3) != "ctx" || !to_count(m.substr(3), l.prefill_gpus) || l.prefill_gpus > 4096)
      return refuse("after '+' give mtp or ctxN (prefill GPUs, 1 to 4096)");
  }
  std::size_t digits = 0;
  if (head.substr(0, 3) == "tep") l.kind = SourceLayout::Kind::Tep, digits = 3;
  else if (head.substr(0, 3) == "dep") l.kind = SourceLayout::Kind::Dep, digits = 3;
  else if (head.substr(0, 2) == "tp") l.kind = SourceLayout::Kind::Tp, digits = 2;
  if (digits == 0 || !to_count(head.substr(digits), l.gpus) || l.gpus > 1024) return refuse("not tpN, tepN or depN (N from 1 to 1024)");
  return true;
}

}  // namespace

const char* source_kind_name(SourceLayout::Kind k) {
  return k == SourceLayout::Kind::Tp ? "TP" : k == SourceLayout::Kind::Tep ? "TEP" : "DEP";
}

bool parse_source_space(std::string_view text, FrontierOptions& o, std::string& why) {
  FrontierOptions r = o;
  for (const std::string_view part : model::split(text, ';')) {
    const std::size_t eq = part.find('=');
    const std::string_view key = part.substr(0, eq), value = eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
    if (key == "layouts") {
      r.only.clear();
      for (const std::string_view one : model::split(value, ',')) {
        SourceLayout l;
        if (!parse_layout(one, l, why)) return false;
        r.only.push_back(std::move(l));
      }
      if (r.only.empty()) {
        why = "layouts: empty (give tpN, tepN or depN, …)";
        return false;
      }
    } else if (key == "conc") {
      const std::size_t dash = value.find('-');
      int lo = 0, hi = 0;
      if (dash == std::string_view::npos || !to_count(value.substr(0, dash), lo) || !to_count(value.substr(dash + 1), hi) || lo > hi) {
        why = "conc: '" + std::string(value) + "' is not FROM-TO (whole numbers, FROM ≤ TO)";
        return false;
      }
      r.min_concurrency = lo;
      r.max_concurrency = hi;
    } else if (key == "lengths") {
      // a floor of the uniform draw, "0.8"
      if (value.size() != 3 || value[0] != '0' || value[1] != '.' || value[2] < '1' || value[2] > '9') {
        why = "lengths: '" + std::string(value) + "' is not a floor from 0.1 to 0.9";
        return false;
      }
      r.length_floor = (value[2] - '0') / 10.0;
    } else if (key == "prompts") {
      // requests per concurrent client, "10"
      int n = 0;
      if (!to_count(value, n) || n < 1 || n > 100) {
        why = "prompts: '" + std::string(value) + "' is not a whole number of requests per client from 1 to 100";
        return false;
      }
      r.prompts_per_client = n;
    } else {
      why = "'" + std::string(key) + "' is not layouts, conc, lengths or prompts";
      return false;
    }
  }
  o = std::move(r);
  return true;
}

double front_at(const std::vector<FrontPoint>& front, double tps_user) {
  if (front.empty() || !(tps_user > 0)) return 0.0;
  if (tps_user <= front.front().tps_user) return front.front().tps_gpu;
  for (std::size_t i = 1; i < front.size(); ++i) {
    const FrontPoint& a = front[i - 1];
    const FrontPoint& b = front[i];
    if (tps_user > b.tps_user) continue;
    const double t = std::log(tps_user / a.tps_user) / std::log(b.tps_user / a.tps_user);
    return std::exp(std::log(a.tps_gpu) + t * (std::log(b.tps_gpu) - std::log(a.tps_gpu)));
  }
  return 0.0;
}

namespace {
// Both axes over the points and the marks (the measured runs may lie beyond every replay).
void frontier_axes(model::Chart& c, double xlo, double xhi, double ylo, double yhi) {
  for (const model::ChartMark& m : c.marks) {
    if (!(m.x > 0) || !(m.y > 0)) continue;
    xlo = std::min(xlo, m.x), xhi = std::max(xhi, m.x), ylo = std::min(ylo, m.y), yhi = std::max(yhi, m.y);
  }
  model::axis_ticks(c.x, xlo, xhi);
  model::axis_ticks(c.y, ylo, yhi);
}
}  // namespace

bool frontier_chart(const model::Scenario& s, const FrontierOptions& o, model::Chart& out, model::Errors& errors) {
  const int input = o.input > 0 ? o.input : std::max(1, s.work.prompt);
  const int output = o.output > 0 ? o.output : std::max(2, s.work.output);
  std::vector<Layout> ls = layouts(s, o.only);
  const std::vector<Point> pts = replay_grid(ls, input, output, o);
  if (pts.empty()) {
    errors.push_back(model::make_error(model::ErrorCode::Infeasible, "frontier", model::setup_text(s),
                                       "a GPU count on which at least one TP × DP layout holds the model and one session"));
    return false;
  }
  model::Chart c;
  c.kind = model::ChartKind::Frontier;
  c.title = "Throughput against interactivity";
  c.x = {};
  c.x.key = "tokens_per_s_user";
  c.x.label = "tokens per second per user";
  c.x.unit = "tokens/s";
  c.x.log = true;
  c.y = {};
  c.y.key = "output_tokens_per_s_gpu";
  c.y.label = "output tokens per second per GPU";
  c.y.unit = "tokens/s";
  c.y.log = true;
  std::vector<double> xs, ys;
  for (const Point& p : pts) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  std::vector<std::size_t> order(pts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xs[a] < xs[b]; });
  for (std::size_t i : order) c.xs.push_back(xs[i]);
  std::vector<std::size_t> row(pts.size());
  for (std::size_t k = 0; k < order.size(); ++k) row[order[k]] = k;
  for (std::size_t li = 0; li < ls.size(); ++li) {
    model::ChartLine l;
    l.id = ls[li].id;
    l.label = ls[li].label;
    l.role = "family";
    l.y.assign(c.xs.size(), kNaN);
    bool any = false;
    for (std::size_t i = 0; i < pts.size(); ++i)
      if (pts[i].layout == li) {
        l.y[row[i]] = pts[i].y;
        any = true;
      }
    if (any) c.lines.push_back(std::move(l));
  }
  model::ChartLine front;
  front.id = "pareto";
  front.label = "Pareto front";
  front.role = "front";  // drawn in the text colour and thicker: never one of the layouts' repeating colours
  front.y.assign(c.xs.size(), kNaN);
  const std::vector<std::size_t> f = pareto_front(xs, ys);
  for (std::size_t i : f) {
    front.y[row[i]] = ys[i];
    const Point& p = pts[i];
    model::ChartMark m;
    m.id = ls[p.layout].id + "-c" + std::to_string(p.concurrency);
    m.kind = "front";
    m.label = ls[p.layout].label + ", concurrency " + std::to_string(p.concurrency);
    m.text = model::human(p.y, "tokens/s") + " per GPU at " + model::human(p.x, "tokens/s") + " per user";
    m.brief = "c" + std::to_string(p.concurrency);
    m.x = p.x;
    m.y = p.y;
    m.setup = ls[p.layout].settings + "&batch=" + std::to_string(p.concurrency);  // opens this point as the scenario
    c.marks.push_back(std::move(m));
  }
  c.lines.insert(c.lines.begin(), std::move(front));
  measured_marks(s, c);
  frontier_axes(c, c.xs.front(), c.xs.back(), *std::min_element(ys.begin(), ys.end()), *std::max_element(ys.begin(), ys.end()));
  c.description = "Output tokens per second per GPU against tokens per second per user, each point a replay of " + std::to_string(input) + "/" +
                  std::to_string(output) + "-token requests (±20 %) at one concurrency on one layout of " + model::setup_text(s) +
                  (o.max_concurrency > 0 ? " (concurrencies up to " + std::to_string(o.max_concurrency) + "; without --concurrency, up to what each layout's HBM holds)" : std::string()) +
                  ", " +
                  std::to_string(ls.size()) + " layouts in all; " + std::to_string(f.size()) + " points on the Pareto front, from " +
                  model::human(xs[f.front()], "tokens/s") + " per user at " + model::human(ys[f.front()], "tokens/s") + " per GPU to " +
                  model::human(xs[f.back()], "tokens/s") + " per user at " + model::human(ys[f.back()], "tokens/s") + " per GPU.";
  c.command = "tierscope chart frontier" + (o.max_concurrency > 0 ? " --concurrency " + std::to_string(o.max_concurrency) : std::string()) + " --format json";
  out = std::move(c);
  return true;
}

bool frontier_chart_pair(const model::Scenario& a, const model::Scenario& b, const FrontierOptions& o, model::Chart& out, model::Errors& errors) {
  model::Chart ca, cb;
  model::Errors ea, eb;
  const bool oka = frontier_chart(a, o, ca, ea);
  const bool okb = frontier_chart(b, o, cb, eb);
  if (!oka || !okb) {
    for (model::Error& e : ea) e.field = "A: " + e.field;
    for (model::Error& e : eb) e.field = "B: " + e.field;
    errors.insert(errors.end(), ea.begin(), ea.end());
    errors.insert(errors.end(), eb.begin(), eb.end());
    return false;
  }
  model::pair_charts(ca, cb, model::ChartKind::Frontier, out);
  // Each front's own workload: A's and B's requests may differ (their prompts and outputs are their own).
  out.description = "A (pinned): " + ca.description + " B (current): " + cb.description;
  double ylo = std::numeric_limits<double>::infinity(), yhi = -ylo;
  for (const model::ChartLine& l : out.lines)
    for (const double y : l.y)
      if (y > 0) ylo = std::min(ylo, y), yhi = std::max(yhi, y);
  frontier_axes(out, out.xs.front(), out.xs.back(), ylo, yhi);
  return true;
}

}  // namespace tierscope::serve
