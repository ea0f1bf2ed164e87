// One fleet run as a front end drives it: started from a scenario (and a trace's text, for a recorded
// trace), advanced in slices so that a browser frame never waits long, read as JSON at any moment. The
// JSON is fleet_json's, so a page showing it and `tierscope fleet --format json` print the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/errors.h"
#include "model/scenario.h"
#include "sim/fleet.h"
#include "sim/trace.h"

namespace tierscope::sim {

class FleetRun {
 public:
  // Replaces any run in progress. Empty `trace_text`: synthetic traffic from the scenario's fleet keys.
  // False, with errors naming the field and the numbers, when the trace or the workload cannot run; the
  // previous run is then gone too (nothing half-started).
  bool start(const model::Scenario& s, std::string_view trace_text, model::Errors& errors);
  // Handles up to `max_events` events; returns how many (0 when there is no run or it is done).
  std::uint64_t advance(std::uint64_t max_events);
  // Handles every event of the next `seconds` of simulated time; returns how many.
  std::uint64_t advance_by(double seconds);
  void cancel();
  bool started() const { return started_; }
  bool done() const { return started_ && sim_.done(); }
  double progress() const;  // simulated time ÷ the run's length, 0 to 1
  // The results so far (complete once done): fleet_json of the run. "null" before any start.
  std::string json() const;
  // A few numbers for a progress bar: {"started":…,"done":…,"t_s":…,"horizon_s":…,"progress":…}.
  std::string status_json() const;

 private:
  std::unique_ptr<Trace> trace_;  // owned here so the run's pointer to it stays valid
  FleetConfig config_;
  FleetSim sim_;
  bool started_ = false;
};

// Events for the next slice so that it takes about `target_ms`, from the last slice's events and the
// time it took (the platform owns the clock; this stays pure). Grows at most 4× a step; 256 to 2^20.
std::uint64_t next_slice_events(std::uint64_t last_events, double last_ms, double target_ms);

}  // namespace tierscope::sim
