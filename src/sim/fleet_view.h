// What a front end shows of a fleet run, as plain data: where the run is, and its results as of the last
// whole simulated hour (with the sweep once every point ran). A run computed elsewhere — the page's worker
// — hands it over as text: fleet_view_text writes every number exactly (shortest round-trip digits, the
// TTFT histograms bin by bin), and read_fleet_view reads it back into the same bytes of fleet_json, the
// same CSV and the same hour lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "sim/fleet.h"
#include "sim/fleet_report.h"

namespace tierscope::sim {

struct FleetRunView {
  bool started = false, done = false, main_done = false;
  bool has_sweep = false, is_trace = false;
  double progress = 0;   // 0 to 1 over the main run and the sweep's points
  double now = 0;        // the main run's simulated time (s)
  double horizon_s = 0;
  std::uint64_t version = 0;  // the run's snapshot_version: changes with each new hour of results
  FleetResult snapshot;       // the main run's results as of the last whole hour (complete once main_done)
  bool sweep_ready = false;   // every sweep point ran: `sweep` holds them
  SweepResult sweep;
  const SweepResult* sweep_or_null() const { return sweep_ready ? &sweep : nullptr; }
};

// The view as text (one JSON object), and back. A text that is not such a view is refused with an error
// naming the part that does not read; `out` is then unchanged.
std::string fleet_view_text(const FleetRunView& v);
bool read_fleet_view(std::string_view text, FleetRunView& out, model::Errors& errors);

}  // namespace tierscope::sim
