// The mark a sweep chart of an offload change puts where the change flips sign: at the hit length of the
// prompt (x = prefix_hit) or the load (x = prefill_load) the figures' search found (offload.flip_*).
#pragma once

#include "charts/charts.h"
#include "model/params.h"

namespace tierscope::model {

// Adds the flip of `fig` (offload.change_dram or offload.change_ssd) along `x` to `c` when the search found
// one inside the chart's x range; nothing for other figures or axes.
void add_flip_mark(const Scenario& s, FigureId fig, const ParamDef& x, Chart& c);

}  // namespace tierscope::model
