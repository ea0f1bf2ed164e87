// One fleet run as a front end drives it: started from a scenario (and a trace's text, for a recorded
// trace), advanced in slices so that a browser frame never waits long, read as JSON at any moment. The
// JSON is fleet_json's, so a page showing it and `tierscope fleet --format json` print the same bytes.
// A run may carry a capacity sweep (`--sweep`): its points run in slices after the main run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"
#include "sim/fleet.h"
#include "sim/fleet_report.h"
#include "sim/fleet_view.h"
#include "sim/trace.h"

namespace tierscope::sim {

// A front end runs the fleet in slices, each a task of its own between its frames: a slice may hold a frame
// up by at most kSliceBudgetMs, and is sized for kSliceTargetMs from the last one's measured time (a slice
// runs the same events at a varying speed, and the margin keeps most of them within the budget).
constexpr double kSliceBudgetMs = 8;
constexpr double kSliceTargetMs = 6;

class FleetRun {
 public:
  // Replaces any run in progress. Empty `trace_text`: synthetic traffic from the scenario's fleet keys.
  // `sweep`, when given, also runs the tier at default_sweep_factors() × its capacity, as `--sweep` does.
  // False, with errors naming the field and the numbers, when the trace or the workload cannot run; the run
  // in progress is then kept as it was (nothing half-started, nothing lost).
  bool start(const model::Scenario& s, std::string_view trace_text, model::Errors& errors, const SweepTier* sweep = nullptr);
  // Handles up to `max_events` events; returns how many (0 when there is no run or it is done).
  std::uint64_t advance(std::uint64_t max_events);
  // Handles every event of the next `seconds` of simulated time of the main run (then of the sweep's
  // current point); returns how many.
  std::uint64_t advance_by(double seconds);
  void cancel();
  // The run's slices: how many events the next one handles (next_slice_events from the last slice's events
  // and time, for kSliceTargetMs), and what the last one handled in how many milliseconds, as the front end
  // measured it (the platform owns the clock; the run stays pure). Both start afresh with each run.
  std::uint64_t next_slice() const;
  void slice_took(std::uint64_t events, double ms);
  bool started() const { return started_; }
  bool done() const { return started_ && sim_.done() && sweep_left() == 0; }
  bool main_done() const { return started_ && sim_.done(); }
  double progress() const;  // simulated time (main run and sweep points) ÷ all of it, 0 to 1
  double now() const { return started_ ? sim_.now() : 0.0; }
  double horizon_s() const { return started_ ? config_.horizon_s : 0.0; }
  bool has_sweep() const { return want_sweep_; }
  bool is_trace() const { return trace_ != nullptr; }
  // The results so far (complete once done): fleet_json of the run, with the sweep once all its points
  // ran. "null" before any start.
  std::string json() const;
  // The same as fleet_csv: one row an hour, then the totals ("" before any start).
  std::string csv() const;
  // The main run's results as of the last whole simulated hour (or its end): refreshed as the run crosses
  // an hour, so a view can read it every frame without copying the run.
  const FleetResult& snapshot() const { return snapshot_; }
  // How many times the snapshot changed since start (a view redraws when it does).
  std::uint64_t snapshot_version() const { return snapshot_version_; }
  // The sweep once every point ran, else nullptr.
  const SweepResult* sweep() const { return want_sweep_ && sweep_left() == 0 ? &sweep_ : nullptr; }
  // Everything a front end shows of the run, as plain data (a copy: read it when snapshot_version moves).
  FleetRunView view() const;
  std::size_t memory_bytes() const { return sim_.memory_bytes() + point_.memory_bytes(); }

 private:
  std::size_t sweep_left() const { return want_sweep_ ? factors_.size() - sweep_.points.size() : 0; }
  void refresh_snapshot(bool force);
  std::uint64_t advance_sweep(std::uint64_t max_events, double seconds);

  std::unique_ptr<Trace> trace_;  // owned here so the run's pointer to it stays valid
  FleetConfig config_;
  FleetSim sim_;
  bool started_ = false;
  FleetResult snapshot_;
  std::uint64_t snapshot_version_ = 0;
  double snapshot_hour_ = -1;
  // The sweep: its factors, the points done, and the point being run.
  bool want_sweep_ = false;
  std::vector<double> factors_;
  SweepResult sweep_;
  FleetConfig point_config_;
  FleetSim point_;
  bool point_running_ = false;
  std::uint64_t slice_events_ = 0;  // the last slice's events and measured time
  double slice_ms_ = 0;
};

// Events for the next slice so that it takes about `target_ms`, from the last slice's events and the
// time it took (the platform owns the clock; this stays pure). Grows at most 4× a step; 256 to 2^20.
std::uint64_t next_slice_events(std::uint64_t last_events, double last_ms, double target_ms);

}  // namespace tierscope::sim
