// Fleet charts from a finished run: occupancy shares from the five-minute samples, hourly hit rates, and
// the sweep's hit-rate curve with the scenario's capacity and the knee marked.
#include "sim/fleet_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/text.h"

namespace tierscope::sim {

namespace {

using model::Chart;
using model::ChartLine;
using model::ChartMark;
using model::human;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// y over a chart's lines, for its axis: finite values only.
void y_range(const Chart& c, double& lo, double& hi) {
  lo = 0;
  hi = 0;
  for (const ChartLine& l : c.lines)
    for (double v : l.y)
      if (std::isfinite(v)) hi = std::max(hi, v);
  for (const ChartMark& m : c.marks)
    if (std::isfinite(m.y)) hi = std::max(hi, m.y);
}

// Shares of capacity and hit rates: 0 to 100 % (more only when a tier ran over, which the sim never lets).
void share_axis(Chart& c, const char* label) {
  c.y.key = "share";
  c.y.label = label;
  c.y.unit = "fraction";
  double lo = 0, hi = 0;
  y_range(c, lo, hi);
  model::axis_ticks(c.y, 0, std::max(1.0, hi));
}

// Where and how high a line peaks, in words for the chart's description.
std::string peak_text(const Chart& c, const ChartLine& l) {
  std::size_t at = 0;
  double best = -1;
  for (std::size_t i = 0; i < l.y.size(); ++i)
    if (std::isfinite(l.y[i]) && l.y[i] > best) {
      best = l.y[i];
      at = i;
    }
  if (best < 0) return l.label + ": no data";
  return l.label + " " + human(best, "fraction") + " at " + human(c.xs[at], c.x.unit);
}

bool occupancy(const FleetResult& r, Chart& c, model::Errors& errors) {
  if (r.samples.empty()) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "samples", "none", "a run of at least five simulated minutes"));
    return false;
  }
  const double n = std::max(1, r.nodes);
  c.title = "Occupancy over the run";
  c.x = {};
  c.x.key = "t";
  c.x.label = "simulated time";
  c.x.unit = "h";
  for (const Sample& s : r.samples) c.xs.push_back(s.t / 3600.0);
  // Each tier's use as a share of what the run may hold there (per node × nodes); a tier switched off
  // (zero capacity) has no line.
  struct Tier {
    const char* id;
    const char* name;
    double capacity;  // per node
    const char* unit;
    double Sample::*field;
  };
  const Tier tiers[] = {{"hbm", "HBM for KV", r.hbm_bytes, "B", &Sample::hbm_bytes},
                        {"pool", "SWA pool", r.pool_on ? r.pool_sessions : 0.0, "sessions", &Sample::pool_sessions},
                        {"dram", "DRAM prefix cache", r.dram_bytes, "B", &Sample::dram_bytes},
                        {"ssd", "SSD prefix cache", r.ssd_bytes, "B", &Sample::ssd_bytes}};
  for (const Tier& t : tiers) {
    if (!(t.capacity > 0) || !std::isfinite(t.capacity)) continue;
    ChartLine l;
    l.id = t.id;
    l.label = std::string(t.name) + " (" + human(t.capacity * n, t.unit) + ")";
    l.role = "model";
    for (const Sample& s : r.samples) l.y.push_back(s.*t.field / (n * t.capacity));
    c.lines.push_back(std::move(l));
  }
  model::axis_ticks(c.x, 0, std::max(c.xs.back(), r.horizon_s / 3600.0));
  share_axis(c, "share of capacity in use");
  c.description = "Each tier's use as a share of its capacity, every five simulated minutes over " + human(r.t / 3600.0, "hours") +
                  " (" + std::to_string(r.nodes) + (r.nodes == 1 ? " node" : " nodes") + "). Highest:";
  for (std::size_t i = 0; i < c.lines.size(); ++i) c.description += (i ? "; " : " ") + peak_text(c, c.lines[i]);
  c.description += ".";
  return true;
}

bool hits(const FleetResult& r, Chart& c, model::Errors& errors) {
  if (r.hours.empty()) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "hours", "none", "a run with at least one simulated hour"));
    return false;
  }
  c.title = "Hit rates hour by hour";
  c.x = {};
  c.x.key = "hour";
  c.x.label = "simulated hour";
  c.x.unit = "h";
  c.x.integer = true;
  for (std::size_t i = 0; i < r.hours.size(); ++i) c.xs.push_back(static_cast<double>(i));
  const auto rate = [](double v) { return v < 0 ? kNaN : v; };
  struct Line {
    const char* id;
    const char* label;
    double HitRates::*field;
  };
  std::vector<Line> lines = {{"prefix_hit", "prefix hits (share of prompt tokens)", &HitRates::prefix},
                             {"hbm_hit", "from HBM", &HitRates::hbm},
                             {"dram_hit", "from DRAM", &HitRates::dram},
                             {"ssd_hit", "from SSD", &HitRates::ssd}};
  if (r.pool_on) lines.push_back({"pool_hit", "SWA pool hits (share of returning turns)", &HitRates::pool});
  for (const Line& d : lines) {
    ChartLine l;
    l.id = d.id;
    l.label = d.label;
    l.role = std::string(d.id) == "prefix_hit" || std::string(d.id) == "pool_hit" ? "model" : "family";
    for (const HourStats& h : r.hours) l.y.push_back(rate(hit_rates(h, r.pool_on).*d.field));
    c.lines.push_back(std::move(l));
  }
  model::axis_ticks(c.x, 0, std::max(1.0, c.xs.back()));
  share_axis(c, "hit rate");
  const HitRates t = hit_rates(r.total, r.pool_on);
  c.description = "Hit rates in each simulated hour (by the hour a turn is admitted). Over the run: prefix hits " + fleet_percent(t.prefix) +
                  " (HBM " + fleet_percent(t.hbm) + ", DRAM " + fleet_percent(t.dram) + ", SSD " + fleet_percent(t.ssd) + ")" +
                  (r.pool_on ? ", SWA pool hits " + fleet_percent(t.pool) : std::string()) + ".";
  return true;
}

bool sweep_chart(const FleetResult& r, const SweepResult* sw, Chart& c, model::Errors& errors) {
  if (!sw || sw->points.empty()) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "sweep", "none",
                                       "a fleet run with a sweep (runFleet({sweep: 'pool'}) in the page, --sweep pool on the command line)"));
    return false;
  }
  const bool pool = sw->tier == SweepTier::Pool;
  const char* tier_name = pool ? "SWA pool" : sw->tier == SweepTier::Dram ? "DRAM prefix cache" : "SSD";
  c.title = std::string("Hit rate against the ") + tier_name + "'s capacity";
  c.x = {};
  c.x.key = sweep_tier_name(sw->tier);
  c.x.label = std::string(tier_name) + " capacity per node";
  c.x.unit = pool ? "sessions" : "B";
  c.x.log = true;
  c.x.integer = pool;
  for (const SweepPoint& p : sw->points) c.xs.push_back(p.capacity);
  const auto rate = [](double v) { return v < 0 ? kNaN : v; };
  auto line = [&](const char* id, const char* label, const char* role, double HitRates::*field) {
    ChartLine l;
    l.id = id;
    l.label = label;
    l.role = role;
    for (const SweepPoint& p : sw->points) l.y.push_back(rate(p.hits.*field));
    c.lines.push_back(std::move(l));
  };
  if (pool) {
    line("pool_hit", "SWA pool hits (share of returning turns)", "model", &HitRates::pool);
    line("prefix_hit", "prefix hits (share of prompt tokens)", "family", &HitRates::prefix);
  } else {
    line("prefix_hit", "prefix hits (share of prompt tokens)", "model", &HitRates::prefix);
    line("hbm_hit", "from HBM", "family", &HitRates::hbm);
    line("dram_hit", "from DRAM", "family", &HitRates::dram);
    line("ssd_hit", "from SSD", "family", &HitRates::ssd);
  }
  const auto curve = [&](const SweepPoint& p) { return rate(pool ? p.hits.pool : p.hits.prefix); };
  for (std::size_t i = 0; i < sw->points.size(); ++i) {
    const SweepPoint& p = sw->points[i];
    const std::string cap = human(p.capacity, c.x.unit);
    if (p.factor == 1) {
      ChartMark m;
      m.id = "now";
      m.kind = "now";
      m.label = "this scenario";
      m.text = cap + ": " + human(curve(p), "fraction");
      m.brief = "now · " + human(curve(p), "fraction");
      m.x = p.capacity;
      m.y = curve(p);
      m.reachable = std::isfinite(m.y);
      c.marks.push_back(std::move(m));
    }
    if (static_cast<int>(i) == sw->knee) {
      ChartMark m;
      m.id = "knee";
      m.kind = "knee";
      m.label = "flattens here";
      m.text = cap + ": " + human(curve(p), "fraction") + ", within one point of the largest capacity's";
      m.brief = "flattens · " + cap;
      m.x = p.capacity;
      m.y = curve(p);
      m.reachable = std::isfinite(m.y);
      c.marks.push_back(std::move(m));
    }
  }
  model::axis_ticks(c.x, c.xs.front(), c.xs.back());
  share_axis(c, "hit rate");
  c.description = std::string("The same traffic (seed ") + std::to_string(r.seed) + ") at " + model::num_sig(sw->points.front().factor, 3) +
                  " to " + model::num_sig(sw->points.back().factor, 3) + " times the " + tier_name + "'s capacity. ";
  if (sw->knee >= 0) {
    const SweepPoint& k = sw->points[static_cast<std::size_t>(sw->knee)];
    c.description += std::string(pool ? "Pool hits" : "Prefix hits") + " flatten at " + human(k.capacity, c.x.unit) + " (" + human(curve(k), "fraction") +
                     "); past it more capacity buys less than one point.";
  }
  return true;
}

}  // namespace

bool fleet_chart(const FleetResult& r, const SweepResult* sweep, model::ChartKind kind, model::Chart& out, model::Errors& errors) {
  Chart c;
  c.kind = kind;
  bool ok = false;
  switch (kind) {
    case model::ChartKind::FleetOccupancy: ok = occupancy(r, c, errors); break;
    case model::ChartKind::FleetHits: ok = hits(r, c, errors); break;
    case model::ChartKind::FleetSweep: ok = sweep_chart(r, sweep, c, errors); break;
    default:
      errors.push_back(model::make_error(model::ErrorCode::BadEnum, "chart", model::chart_key(kind), "fleet-occupancy, fleet-hits or fleet-sweep"));
      break;
  }
  if (!ok) return false;
  c.command = std::string("tierscope chart ") + model::chart_key(kind) + (kind == model::ChartKind::FleetSweep && sweep ? std::string(" --sweep ") + sweep_tier_name(sweep->tier) : std::string()) +
              (r.mode == Mode::Trace ? " --trace TRACE.jsonl" : "") + " --hash '#" + r.scenario + "' --format json";
  out = std::move(c);
  return true;
}

}  // namespace tierscope::sim
