// Charts of a fleet run as model::Chart series (the page's Charts panel draws them, `tierscope chart
// fleet-…` prints them): each tier's occupancy over the run, the hit rates hour by hour, and the hit rate
// against a tier's capacity from the run's sweep. Every number is the run's own (fleet_json's), so a chart
// and the run's JSON never disagree.
#pragma once

#include "base/errors.h"
#include "charts/charts.h"
#include "sim/fleet.h"
#include "sim/fleet_report.h"

namespace tierscope::sim {

// `kind` is one of the fleet kinds (model::is_fleet_chart). fleet-sweep needs `sweep`. False, with errors
// naming what is missing, for another kind or a run without the data.
bool fleet_chart(const FleetResult& r, const SweepResult* sweep, model::ChartKind kind, model::Chart& out, model::Errors& errors);

}  // namespace tierscope::sim
