// A chart request from the page: the chart's name and its options as JSON text, checked field by field
// into ChartOptions (charts/charts.h). The page's `tierscope.chart(name, options)` comes through here.
#pragma once

#include <string_view>

#include "base/errors.h"
#include "charts/charts.h"

namespace tierscope::model {

// Options (all optional): {"figure": ID, "x": KEY, "values": [v, …] or {"from", "to", "points", "log"},
// "family": KEY, "familyValues": [v, …], "points": N}. Values are numbers or parameter text. x, values and
// family belong to the sweep chart only. False with errors naming each bad field, the value and what is
// allowed; `out` is then untouched.
bool chart_options_from_json(ChartKind kind, std::string_view json, ChartOptions& out, Errors& errors);

}  // namespace tierscope::model
