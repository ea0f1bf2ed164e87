// The app controller's fleet view: a run of the current scenario, computed here (one sim::FleetRun per app,
// advanced in slices) or in the page's worker (its view handed over, fleet_adopt); the fleet clock over the run's hours; and what the view shows at the
// clock — the page's counters and hourly ledger, the canvas's occupancy — all as the model's own text.
//
// Sections: the clock's helpers and the view's words · start, advance, adopt, progress, cancel, status · the
// clock (hours, play, pause, seek, tick) · the clock's text and the canvas's occupancy · fleet_state_json ·
// the hourly ledger, exports and charts.
#include "app/app.h"

#include <algorithm>
#include <cmath>

#include "base/text.h"
#include "codec/url_codec.h"
#include "link/view_codec.h"
#include "sim/fleet_charts.h"
#include "sim/fleet_report.h"

namespace tierscope::app {

namespace {

using model::JsonWriter;
using model::human;

constexpr double kHour = 3600;

// How far the clock may go: the end of a finished run, else the last whole hour the run has computed.
double clock_limit(const App& app) {
  if (!app.fleet.started) return 0;
  if (app.fleet.main_done) return app.fleet.snapshot.t;
  return std::floor(app.fleet.snapshot.t / kHour) * kHour;
}

// The page hears of a new hour on screen (its counters, ledger row and sentence change), not of every frame.
void tell_hour(App& app) {
  const int h = fleet_hour(app);
  if (h != app.fleet_clock.hour_told) {
    app.fleet_clock.hour_told = h;
    ++app.revision;
  }
}

// After the run moved: a clock that follows it goes to the last whole hour computed (or the end).
void follow_run(App& app) {
  FleetClock& c = app.fleet_clock;
  if (c.seen == app.fleet.version) return;
  c.seen = app.fleet.version;
  if (c.follow) c.t = clock_limit(app);
  ++app.revision;  // a new hour of results: counters, ledger rows
  tell_hour(app);
}

// A new run on screen: the clock at its start, following it.
void restart_clock(App& app, std::string_view sweep) {
  app.fleet_clock = FleetClock{};
  app.fleet_clock.sweep = std::string(sweep);
  app.fleet_clock.seen = app.fleet.version;
  ++app.revision;
  tell_hour(app);
}

// A later view of the same run: the page hears when it ends, and the clock follows it.
void moved_on(App& app, bool was_done) {
  if (app.fleet.done != was_done) ++app.revision;
  follow_run(app);
}

// After a slice of the run computed here: its view, copied whole only when a new hour of results (or the
// sweep) arrived, else only where the run is.
void take_view(App& app) {
  const sim::FleetRun& run = app.fleet_run;
  const bool was_done = app.fleet.done;
  if (run.snapshot_version() != app.fleet.version || (run.sweep() != nullptr) != app.fleet.sweep_ready) {
    app.fleet = run.view();
  } else {
    app.fleet.done = run.done();
    app.fleet.main_done = run.main_done();
    app.fleet.progress = run.progress();
    app.fleet.now = run.now();
  }
  moved_on(app, was_done);
}

// Two digits of a clock reading.
std::string two(long v) {
  std::string s = std::to_string(v);
  return s.size() < 2 ? "0" + s : s;
}
// Simulated seconds as "hh:mm" ("26:30" past a day: the run's own clock, not a time of day).
std::string hhmm(double seconds) {
  const long minutes = static_cast<long>(std::floor(std::max(0.0, seconds) / 60 + 1e-9));
  return two(minutes / 60) + ":" + two(minutes % 60);
}

const sim::FleetResult& run_result(const App& app) { return app.fleet.snapshot; }

// Occupancy at simulated time t, interpolated between the five-minute samples.
sim::Sample sample_at(const sim::FleetResult& r, double t) {
  const std::vector<sim::Sample>& xs = r.samples;
  if (xs.empty()) return {};
  if (t <= xs.front().t) return xs.front();
  if (t >= xs.back().t) return xs.back();
  const auto hi = std::upper_bound(xs.begin(), xs.end(), t, [](double v, const sim::Sample& s) { return v < s.t; });
  const sim::Sample& b = *hi;
  const sim::Sample& a = *(hi - 1);
  const double w = b.t > a.t ? (t - a.t) / (b.t - a.t) : 0.0;
  sim::Sample s = a;
  s.t = t;
  s.hbm_bytes = a.hbm_bytes + (b.hbm_bytes - a.hbm_bytes) * w;
  s.pool_sessions = a.pool_sessions + (b.pool_sessions - a.pool_sessions) * w;
  s.dram_bytes = a.dram_bytes + (b.dram_bytes - a.dram_bytes) * w;
  s.ssd_bytes = a.ssd_bytes + (b.ssd_bytes - a.ssd_bytes) * w;
  return s;
}

double share(double used, double capacity) { return capacity > 0 && std::isfinite(capacity) ? used / capacity : -1.0; }

// "41.2 GB of 1.13 TB"
std::string of(double used, double capacity, const char* unit) {
  return human(used, unit) + " of " + human(capacity, unit);
}

std::string sweep_words(std::string_view tier) {
  return tier == "pool" ? "the SWA pool" : tier == "dram" ? "the DRAM prefix cache" : "the SSD";
}

}  // namespace

bool fleet_start(App& app, std::string_view trace_text, model::Errors& errors) { return fleet_start(app, trace_text, "", errors); }

bool fleet_start(App& app, std::string_view trace_text, std::string_view sweep, model::Errors& errors) {
  sim::SweepTier tier{};
  if (!sweep.empty() && !sim::parse_sweep_tier(sweep, tier)) {
    errors.clear();
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "sweep", sweep, "pool, dram or ssd (or none)"));
    return false;
  }
  if (!app.fleet_run.start(app.scenario, trace_text, errors, sweep.empty() ? nullptr : &tier)) return false;
  app.fleet = app.fleet_run.view();
  restart_clock(app, sweep);
  return true;
}

// Progress is polled (fleet_status_json); the page is told when the run ends and when it crosses an hour.
std::uint64_t fleet_advance(App& app, std::uint64_t max_events) {
  const std::uint64_t n = app.fleet_run.advance(max_events);
  take_view(app);
  return n;
}

std::uint64_t fleet_advance_by(App& app, double simulated_seconds) {
  const std::uint64_t n = app.fleet_run.advance_by(simulated_seconds);
  take_view(app);
  return n;
}

bool fleet_adopt(App& app, std::string_view view_text, std::string_view sweep, bool new_run, model::Errors& errors) {
  sim::FleetRunView v;
  if (!sim::read_fleet_view(view_text, v, errors)) return false;
  const bool was_done = app.fleet.done;
  app.fleet = std::move(v);
  if (new_run) restart_clock(app, sweep);  // the clock starts again, as for a run started here
  else moved_on(app, was_done);
  return true;
}

void fleet_progress(App& app, double progress, double now) {
  if (!app.fleet.started || !std::isfinite(progress) || !std::isfinite(now)) return;
  app.fleet.progress = std::clamp(progress, 0.0, 1.0);
  app.fleet.now = std::clamp(now, 0.0, app.fleet.horizon_s);
}

void fleet_cancel(App& app) {
  const bool was = app.fleet.started;
  app.fleet_run.cancel();
  app.fleet = app.fleet_run.view();  // no run (a cancel gives the run a new version: the clock follows it)
  app.fleet_clock = FleetClock{};
  app.fleet_clock.seen = app.fleet.version;
  app.fleet_clock.cancelled = was;
  ++app.revision;
}

std::string fleet_json(const App& app) { return app.fleet.started ? sim::fleet_json(app.fleet.snapshot, app.fleet.sweep_or_null()) : std::string("null\n"); }

std::string fleet_status_json(const App& app) {
  const sim::FleetRunView& v = app.fleet;
  JsonWriter w;
  w.object().boolean("started", v.started).boolean("done", v.done);
  w.num("t_s", v.started ? v.now : 0.0).num("horizon_s", v.started ? v.horizon_s : 0.0).num("progress", v.progress);
  return w.end().take();
}

bool set_view(App& app, std::string_view view, model::Errors& errors) { return set_view(app, view, app.sweep, errors); }

bool fleet_view(const App& app) { return app.view == model::kFleetView; }

int fleet_hours(const App& app) {
  const double h = app.fleet.started ? app.fleet.horizon_s / kHour : app.scenario.fleet.hours;
  return std::max(1, static_cast<int>(std::ceil(h - 1e-9)));
}

// The clock at t shows the hour that ends there or runs through it: hour k is (k h, k+1 h], so the end of
// hour k (where all of its turns are counted) still shows hour k, and t = 0 shows hour 0.
int fleet_hour(const App& app) {
  return std::clamp(static_cast<int>(std::ceil(app.fleet_clock.t / kHour)) - 1, 0, fleet_hours(app) - 1);
}

void fleet_play(App& app) {
  FleetClock& c = app.fleet_clock;
  if (!app.fleet.started) return;
  // At the end of a finished run, play starts the day again.
  if (app.fleet.main_done && c.t >= clock_limit(app)) c.t = 0;
  c.playing = true;
  c.follow = false;
  ++app.revision;
  tell_hour(app);
}

void fleet_pause(App& app) {
  if (!app.fleet_clock.playing) return;
  app.fleet_clock.playing = false;
  ++app.revision;
}

void fleet_step(App& app, int delta) { fleet_seek_hour(app, fleet_hour(app) + delta); }

void fleet_seek_hour(App& app, int hour) {
  FleetClock& c = app.fleet_clock;
  const int h = std::clamp(hour, 0, fleet_hours(app) - 1);
  // An hour is shown at its end, where every turn of it has been counted (the ledger row's numbers).
  c.t = std::min(static_cast<double>(h + 1) * kHour, clock_limit(app));
  c.follow = app.fleet.started && !app.fleet.main_done && c.t >= clock_limit(app);
  ++app.revision;
  tell_hour(app);
}

bool fleet_tick(App& app, double dt_seconds) {
  FleetClock& c = app.fleet_clock;
  if (!c.playing || !(dt_seconds > 0)) return false;
  const double before = c.t;
  const double limit = clock_limit(app);
  c.t = std::min(limit, c.t + dt_seconds * kFleetHoursPerSecond * kHour * app.playback.speed);
  if (c.t >= limit && app.fleet.main_done) {
    c.playing = false;  // the day is over
    ++app.revision;
  }
  tell_hour(app);
  return c.t != before || !c.playing;
}

std::string fleet_time_text(double seconds) { return hhmm(seconds); }

double fleet_end_s(const App& app) { return app.fleet.started ? app.fleet.horizon_s : app.scenario.fleet.hours * kHour; }

// The hour on screen as its span on the run's clock ("23:00–24:00"), and the moment within it while the
// day plays ("13:00–14:00 · at 13:27"): the counters and the ledger row are that hour's.
std::string fleet_clock_text(const App& app) {
  const double t = app.fleet_clock.t;
  const double from = static_cast<double>(fleet_hour(app)) * kHour, to = std::min(from + kHour, fleet_end_s(app));
  const bool inside = t > from + 1e-6 && t < to - 1e-6;
  return hhmm(from) + "–" + hhmm(to) + (inside ? " · at " + hhmm(t) : std::string());
}

// The hour on screen counted from 1, as the ledger and `tierscope fleet` name it ("hour 24 of 24").
std::string fleet_position_text(const App& app) {
  return "hour " + std::to_string(fleet_hour(app) + 1) + " of " + std::to_string(fleet_hours(app));
}

std::string fleet_hour_sentence(const App& app) {
  return sim::fleet_hour_line(run_result(app), static_cast<std::size_t>(fleet_hour(app)));
}

layout::Occupancy fleet_occupancy(const App& app) {
  layout::Occupancy o;
  if (!fleet_view(app) || !app.fleet.started) return o;
  o.on = true;
  const sim::FleetResult& r = run_result(app);
  if (r.samples.empty()) return o;
  const sim::Sample s = sample_at(r, app.fleet_clock.t);
  const double n = std::max(1, r.nodes);
  const double hbm = n * r.hbm_bytes, dram = n * r.dram_bytes, ssd = n * r.ssd_bytes;
  const double pool = r.pool_on ? n * r.pool_sessions : 0.0;
  const double pool_bytes = s.pool_sessions * r.swa_bytes;
  const auto f = [](double v) { return static_cast<float>(v); };
  using anim::ObjectKind;
  const auto at = [](ObjectKind k) { return static_cast<std::size_t>(k); };
  // Bands: HBM's room for KV, DRAM's prefix cache and SWA pool together, the SSD.
  o.tier[1] = f(share(s.hbm_bytes, hbm));
  o.tier[2] = f(share(s.dram_bytes + pool_bytes, dram + pool * r.swa_bytes));
  o.tier[3] = f(share(s.ssd_bytes, ssd));
  o.tier_text[1] = {"KV " + of(s.hbm_bytes, hbm, "B") + " in use", of(s.hbm_bytes, hbm, "B"), human(s.hbm_bytes, "B")};
  if (pool > 0)
    o.tier_text[2] = {"prefixes " + of(s.dram_bytes, dram, "B") + " · pool " + model::num(std::round(s.pool_sessions)) + " of " + model::num(pool),
                      "prefixes " + of(s.dram_bytes, dram, "B"), of(s.dram_bytes, dram, "B"), human(s.dram_bytes, "B")};
  else
    o.tier_text[2] = {"prefixes " + of(s.dram_bytes, dram, "B"), of(s.dram_bytes, dram, "B"), human(s.dram_bytes, "B")};
  o.tier_text[3] = {"prefixes " + of(s.ssd_bytes, ssd, "B"), of(s.ssd_bytes, ssd, "B"), human(s.ssd_bytes, "B")};
  // Blocks: the KV in HBM, the pool's windows, the prefix cache in whichever tier the path keeps it.
  o.object[at(ObjectKind::GlobalKv)] = f(share(s.hbm_bytes, hbm));
  o.object_text[at(ObjectKind::GlobalKv)] = {of(s.hbm_bytes, hbm, "B"), human(s.hbm_bytes, "B")};
  if (pool > 0) {
    o.object[at(ObjectKind::SwaPool)] = f(share(s.pool_sessions, pool));
    o.object_text[at(ObjectKind::SwaPool)] = {model::num(std::round(s.pool_sessions)) + " of " + model::num(pool) + " windows",
                                              model::num(std::round(s.pool_sessions))};
  }
  const bool on_ssd = app.ledger.start[at(ObjectKind::PrefixCache)].tier == anim::Endpoint::Ssd;
  const double used = on_ssd ? s.ssd_bytes : s.dram_bytes, room = on_ssd ? ssd : dram;
  o.object[at(ObjectKind::PrefixCache)] = f(share(used, room));
  o.object_text[at(ObjectKind::PrefixCache)] = {of(used, room, "B"), human(used, "B")};
  for (float& v : o.tier)
    if (v >= 0) v = std::clamp(v, 0.0f, 1.0f);
  return o;
}

std::string fleet_state_json(const App& app) {
  const sim::FleetRunView& run = app.fleet;
  const FleetClock& c = app.fleet_clock;
  const sim::FleetResult& r = run_result(app);
  const int hours = fleet_hours(app), hour = fleet_hour(app);
  const double progress = run.progress;
  JsonWriter w;
  w.object().boolean("started", run.started).boolean("done", run.done).boolean("running", run.started && !run.done);
  w.num("progress", progress).str("percentText", model::num(std::floor(progress * 100)) + " %");
  w.integer("hour", hour).integer("hours", hours).boolean("playing", c.playing);
  w.str("mode", run.started ? (run.is_trace ? "trace" : "synthetic") : "").str("sweep", run.started ? c.sweep : std::string());
  // The scenario the run was made of: a page whose scenario moved on starts again.
  w.str("scenario", run.started ? r.scenario : std::string()).integer("version", static_cast<long long>(run.version));
  w.str("label", "A day of traffic").str("posText", fleet_position_text(app)).str("clockText", fleet_clock_text(app));
  // When the traffic outgrows the node: one line with the simulator's numbers ("" otherwise).
  w.str("overloadText", run.main_done ? sim::fleet_overload_line(r) : std::string());
  // What the run is doing, in words for the progress line and the status.
  std::string status;
  if (!run.started) {
    status = c.cancelled ? "Cancelled: nothing was kept. Run again to simulate." : "No run yet.";
  } else if (!run.main_done) {
    const int h = std::min(hours, static_cast<int>(std::floor(run.now / kHour)) + 1);
    status = "Simulating hour " + std::to_string(h) + " of " + std::to_string(hours) + " · " + model::num(std::floor(progress * 100)) + " %";
  } else if (!run.done) {
    status = "Sweep of " + sweep_words(c.sweep) + " at 1/16 to 16 times its capacity · " + model::num(std::floor(progress * 100)) + " %";
  } else {
    status = "Done: " + human(r.t / kHour, "hours") + " simulated, " + model::num(static_cast<double>(r.total.turns)) + " turns, " +
             model::num(static_cast<double>(r.events)) + " events.";
  }
  w.str("statusText", status);
  // The hour on screen: its counters, each with its label and the run's text for it.
  const bool have = hour < static_cast<int>(r.hours.size());
  const sim::HourStats h = have ? r.hours[static_cast<std::size_t>(hour)] : sim::HourStats{};
  const sim::HitRates x = sim::hit_rates(h, r.pool_on);
  const auto ttft = [&](double q) { return have && h.ttft.n > 0 ? sim::fleet_duration(h.ttft.quantile(q)) : std::string("—"); };
  struct Counter {
    const char* key;
    const char* label;
    std::string text;
  };
  std::vector<Counter> counters = {{"turns", "Turns", have ? model::num(static_cast<double>(h.turns)) : "—"},
                                   {"prefix", "Prefix hits", have ? sim::fleet_percent(x.prefix) : "—"},
                                   {"hbm", "from HBM", have ? sim::fleet_percent(x.hbm) : "—"},
                                   {"dram", "from DRAM", have ? sim::fleet_percent(x.dram) : "—"},
                                   {"ssd", "from SSD", have ? sim::fleet_percent(x.ssd) : "—"}};
  if (!run.started || r.pool_on) counters.push_back({"pool", "SWA pool hits", have ? sim::fleet_percent(x.pool) : "—"});
  counters.push_back({"ttft50", "TTFT p50", ttft(0.5)});
  counters.push_back({"ttft95", "TTFT p95", ttft(0.95)});
  counters.push_back({"ttft99", "TTFT p99", ttft(0.99)});
  w.str("countersFor", have ? sim::fleet_hour_name(r, static_cast<std::size_t>(hour)) : std::string("no hour yet")).array("counters");
  for (const Counter& k : counters) w.object().str("key", k.key).str("label", k.label).str("text", k.text).end();
  w.end().str("totalText", run.done ? sim::fleet_total_line(r) : std::string());
  return w.end().take();
}

namespace {
// One simulated hour as a row of the ledger panel, in the fields the path's rows have.
void fleet_row_json(JsonWriter& w, const sim::FleetResult& r, std::size_t i) {
  const sim::HourStats& h = r.hours[i];
  const sim::HitRates x = sim::hit_rates(h, r.pool_on);
  w.object().integer("index", static_cast<long long>(i)).str("step", "hour " + std::to_string(i + 1)).str("phase", "");
  w.str("at", hhmm(static_cast<double>(i) * kHour) + "–" + hhmm(std::min(r.t, static_cast<double>(i + 1) * kHour)));
  w.str("move", model::num(static_cast<double>(h.turns)) + " turns").str("bytes", "prefix hits " + sim::fleet_percent(x.prefix));
  w.str("objectKey", "").str("object", model::num(static_cast<double>(h.arrivals)) + (r.mode == sim::Mode::Trace ? " requests" : " sessions arrived"));
  w.str("duration", "p95 TTFT " + (h.ttft.n > 0 ? sim::fleet_duration(h.ttft.quantile(0.95)) : std::string("—")));
  w.str("provenance", "simulated").str("sentence", sim::fleet_hour_line(r, i));
  // The current row's details: the percentiles, the wait for HBM, the pool and the bytes on each link.
  const auto dur = sim::fleet_duration;
  std::string detail = "TTFT p50 " + (h.ttft.n ? dur(h.ttft.quantile(0.5)) : "—") + ", p95 " + (h.ttft.n ? dur(h.ttft.quantile(0.95)) : "—") +
                       ", p99 " + (h.ttft.n ? dur(h.ttft.quantile(0.99)) : "—") + "; mean wait for HBM " +
                       (h.turns ? dur(h.queue_wait_s / static_cast<double>(h.turns)) : "—") + "; returning turns " +
                       model::num(static_cast<double>(h.resumed)) + ", whole history found " + sim::fleet_percent(x.history);
  if (r.pool_on) detail += ", window in the SWA pool " + sim::fleet_percent(x.pool) + ", replays " + model::num(static_cast<double>(h.replays));
  detail += "; links: SSD→DRAM " + human(h.bytes_ssd_read, "B") + ", DRAM→SSD " + human(h.bytes_ssd_write, "B") + ", DRAM→HBM " +
            human(h.bytes_up, "B") + ", HBM→DRAM " + human(h.bytes_down, "B") + "; SSD expired " + human(h.bytes_expired, "B");
  w.str("formula", detail);
  w.str("sources", "tierscope fleet --hash '#" + r.scenario + "'" + (r.mode == sim::Mode::Trace ? " --trace TRACE.jsonl" : "")).end();
}
}  // namespace

std::string fleet_ledger_json(const App& app) {
  const sim::FleetResult& r = run_result(app);
  JsonWriter w;
  w.object().str("path", "fleet").str("label", "A day of traffic, hour by hour").str("preset", app.scenario.preset);
  w.str("note", !app.fleet.started ? "No fleet run yet: it starts when the fleet view opens." : "The first simulated hour is still being computed.");
  const std::size_t n = app.fleet.started ? r.hours.size() : 0;
  // While the run computes, only whole hours are listed (the snapshot is taken as the run crosses one).
  const std::size_t whole = app.fleet.main_done ? n : std::min(n, static_cast<std::size_t>(std::floor(r.t / kHour)));
  w.integer("steps", static_cast<long long>(whole));
  w.object("options").array("tiers").end().array("objects").end().end();
  w.object("filter").str("tier", "").str("object", "").end().array("entries");
  for (std::size_t i = 0; i < whole; ++i) fleet_row_json(w, r, i);
  return w.end().end().take();
}

bool fleet_export(const App& app, std::string_view format, std::string& out, model::Errors& errors) {
  if (format != "json" && format != "csv") {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "format", format, "csv or json"));
    return false;
  }
  if (!app.fleet.started) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "fleet run", "none", "a fleet run (open the fleet view)"));
    return false;
  }
  out = format == "json" ? fleet_json(app) : sim::fleet_csv(app.fleet.snapshot);
  return true;
}

bool fleet_chart_json(const App& app, model::ChartKind kind, std::string& out, model::Errors& errors, std::vector<double>* numbers) {
  if (!app.fleet.done) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "fleet run", app.fleet.started ? "still running" : "none",
                                       "a finished fleet run (open the fleet view and wait until it is done)"));
    return false;
  }
  model::Chart c;
  if (!sim::fleet_chart(app.fleet.snapshot, app.fleet.sweep_or_null(), kind, c, errors)) return false;
  out = model::chart_to_json(c, numbers);
  return true;
}

}  // namespace tierscope::app
