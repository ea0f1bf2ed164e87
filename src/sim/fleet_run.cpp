// The sliced fleet run behind the app controller and the CLI's JSON: the main run, then the sweep's points
// one after another, each advanced by events or by simulated time.
#include "sim/fleet_run.h"

#include <algorithm>
#include <cmath>


namespace tierscope::sim {

bool FleetRun::start(const model::Scenario& s, std::string_view trace_text, model::Errors& errors, const SweepTier* sweep) {
  errors.clear();
  // Everything is checked into locals first: a refused start leaves the run in progress untouched.
  std::unique_ptr<Trace> trace;
  if (!trace_text.empty()) {
    trace = std::make_unique<Trace>();
    model::Error e;
    if (!parse_trace(trace_text, s.fleet.block_tokens, *trace, e)) {
      errors.push_back(e);
      return false;
    }
  }
  FleetConfig c;
  if (!make_fleet_config(s, trace.get(), c, errors)) return false;
  cancel();
  trace_ = std::move(trace);
  config_ = std::move(c);
  config_.trace = trace_.get();
  sim_.start(config_);
  started_ = true;
  slice_events_ = 0;
  slice_ms_ = 0;
  want_sweep_ = sweep != nullptr;
  if (want_sweep_) {
    factors_ = default_sweep_factors();
    std::sort(factors_.begin(), factors_.end());
    sweep_.tier = *sweep;
  }
  refresh_snapshot(true);
  return true;
}

void FleetRun::refresh_snapshot(bool force) {
  // The snapshot moves on whole simulated hours (and at the end): a few dozen copies a day, not one a slice.
  const double hour = sim_.done() ? -2 : std::floor(sim_.now() / 3600.0);
  if (!force && hour == snapshot_hour_) return;
  snapshot_hour_ = hour;
  snapshot_ = sim_.result();
  ++snapshot_version_;
}

std::uint64_t FleetRun::advance_sweep(std::uint64_t max_events, double seconds) {
  std::uint64_t n = 0;
  while (sweep_left() > 0 && (seconds > 0 || n < max_events)) {
    if (!point_running_) {
      const double f = factors_[sweep_.points.size()];
      point_config_ = sweep_config(config_, sweep_.tier, f);
      point_.start(point_config_);
      point_running_ = true;
    }
    if (seconds > 0) {
      n += point_.run_until(point_.now() + seconds);
      seconds = 0;
    } else {
      n += point_.run_events(max_events - n);
    }
    if (!point_.done()) break;
    const double f = factors_[sweep_.points.size()];
    sweep_.points.push_back(sweep_point(point_config_, sweep_.tier, f, point_.result()));
    point_ = FleetSim();
    point_running_ = false;
    if (sweep_left() == 0) sweep_find_knee(sweep_);
    if (seconds == 0 && max_events == 0) break;
  }
  return n;
}

std::uint64_t FleetRun::advance(std::uint64_t max_events) {
  if (!started_ || max_events == 0) return 0;
  std::uint64_t n = 0;
  if (!sim_.done()) {
    n = sim_.run_events(max_events);
    refresh_snapshot(false);
  }
  if (sim_.done() && n < max_events) n += advance_sweep(max_events - n, 0);
  return n;
}

std::uint64_t FleetRun::advance_by(double seconds) {
  if (!started_ || !(seconds > 0)) return 0;
  if (!sim_.done()) {
    const std::uint64_t n = sim_.run_until(sim_.now() + seconds);
    refresh_snapshot(false);
    return n;
  }
  return advance_sweep(0, seconds);
}

void FleetRun::cancel() {
  sim_ = FleetSim();
  point_ = FleetSim();
  trace_.reset();
  config_ = FleetConfig();
  point_config_ = FleetConfig();
  started_ = false;
  slice_events_ = 0;
  slice_ms_ = 0;
  snapshot_ = FleetResult();
  ++snapshot_version_;
  snapshot_hour_ = -1;
  want_sweep_ = false;
  factors_.clear();
  sweep_ = SweepResult();
  point_running_ = false;
}

double FleetRun::progress() const {
  if (!started_) return 0;
  if (done()) return 1;
  const double h = config_.horizon_s;
  if (!(h > 0)) return 1;
  // Every run (the main one and each sweep point) covers the same simulated time.
  const double runs = 1.0 + static_cast<double>(want_sweep_ ? factors_.size() : 0);
  double covered = sim_.done() ? h : std::clamp(sim_.now(), 0.0, h);
  if (want_sweep_) {
    covered += static_cast<double>(sweep_.points.size()) * h;
    if (point_running_) covered += std::clamp(point_.now(), 0.0, h);
  }
  return std::clamp(covered / (runs * h), 0.0, 1.0);
}

FleetRunView FleetRun::view() const {
  FleetRunView v;
  v.started = started_;
  v.done = done();
  v.main_done = main_done();
  v.has_sweep = want_sweep_;
  v.is_trace = trace_ != nullptr;
  v.progress = progress();
  v.now = now();
  v.horizon_s = horizon_s();
  v.version = snapshot_version_;
  v.snapshot = snapshot_;
  if (const SweepResult* s = sweep()) {
    v.sweep_ready = true;
    v.sweep = *s;
  }
  return v;
}

std::string FleetRun::json() const { return started_ ? fleet_json(sim_.result(), sweep()) : std::string("null\n"); }

std::string FleetRun::csv() const { return started_ ? fleet_csv(sim_.result()) : std::string(); }

std::uint64_t FleetRun::next_slice() const { return next_slice_events(slice_events_, slice_ms_, kSliceTargetMs); }

void FleetRun::slice_took(std::uint64_t events, double ms) {
  if (events == 0) return;  // a slice that ran nothing says nothing of the speed
  slice_events_ = events;
  slice_ms_ = ms;
}

std::uint64_t next_slice_events(std::uint64_t last_events, double last_ms, double target_ms) {
  constexpr double kMin = 256, kMax = 1048576;
  double next = kMin;
  if (last_events > 0 && last_ms > 0 && target_ms > 0) {
    next = static_cast<double>(last_events) * std::min(4.0, target_ms / last_ms);
  } else if (last_events > 0) {
    next = static_cast<double>(last_events) * 4;  // too fast to time: grow
  }
  return static_cast<std::uint64_t>(std::clamp(next, kMin, kMax));
}

}  // namespace tierscope::sim
