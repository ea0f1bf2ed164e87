// The app controller's fleet view: one sim::FleetRun per app, started from the current scenario and
// advanced in slices by the platform's frame loop.
#include "ui/app.h"

namespace tierscope::ui {

bool fleet_start(App& app, std::string_view trace_text, model::Errors& errors) {
  const bool ok = app.fleet.start(app.scenario, trace_text, errors);
  ++app.revision;
  return ok;
}

// Progress is polled (fleet_status_json); only the end of a run counts as a change the page is told of.
std::uint64_t fleet_advance(App& app, std::uint64_t max_events) {
  const bool was_done = app.fleet.done();
  const std::uint64_t n = app.fleet.advance(max_events);
  if (app.fleet.done() != was_done) ++app.revision;
  return n;
}

std::uint64_t fleet_advance_by(App& app, double simulated_seconds) {
  const bool was_done = app.fleet.done();
  const std::uint64_t n = app.fleet.advance_by(simulated_seconds);
  if (app.fleet.done() != was_done) ++app.revision;
  return n;
}

void fleet_cancel(App& app) {
  app.fleet.cancel();
  ++app.revision;
}

std::string fleet_json(const App& app) { return app.fleet.json(); }
std::string fleet_status_json(const App& app) { return app.fleet.status_json(); }

}  // namespace tierscope::ui
