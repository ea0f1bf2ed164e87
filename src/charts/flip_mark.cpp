// Where a reload from host DRAM or SSD flips from helping to hurting, as a mark on the sweep of its change
// (flip_mark.h). The position is the figures' own search; the mark sits on the line at that x.
#include "charts/flip_mark.h"

#include <cmath>
#include <string>

#include "base/text.h"
#include "model/layers.h"

namespace tierscope::model {

void add_flip_mark(const Scenario& s, FigureId fig, const ParamDef& x, Chart& c) {
  using F = FigureId;
  const bool dram = fig == F::OffloadChangeDram;
  if (!dram && fig != F::OffloadChangeSsd) return;
  const std::string key = x.key;
  const bool by_hit = key == "prefix_hit", by_load = key == "prefill_load";
  if ((!by_hit && !by_load) || c.xs.empty()) return;
  LayerPlan plan;
  plan_layers(s.model, plan);
  Computed here;
  compute_values(s, plan, here, kScopeAll | kScopeOffload);
  const F flip_id = by_hit ? (dram ? F::OffloadFlipHitDram : F::OffloadFlipHitSsd) : (dram ? F::OffloadFlipLoadDram : F::OffloadFlipLoadSsd);
  const double at = here.values[flip_id];
  if (!(at > 0) || at < c.xs.front() || at > c.xs.back()) return;
  // The change at the flip itself, so the mark sits on the line (0 up to the search's resolution).
  Scenario there = s;
  Error err;
  if (!set_param_number(there, x, by_hit ? std::round(at) : at, err)) return;
  Computed cc;
  compute_values(there, cc);
  const char* tier = dram ? "host DRAM" : "SSD";
  ChartMark m;
  m.id = std::string("flip-") + (dram ? "dram" : "ssd");
  m.kind = "crossover";
  m.label = std::string("A reload from ") + tier + " flips";
  m.x = at;
  m.y = cc.values[fig];
  const std::string shown = figure_value_text(flip_id, at, figure_info(flip_id).unit);
  m.brief = "flips · " + shown;
  const bool below_helps = by_hit ? here.terms.flip_short_helps[dram ? 0 : 1] : here.terms.flip_light_helps[dram ? 0 : 1];
  m.text = std::string("a reload from ") + tier + (below_helps ? " helps below " : " hurts below ") +
           (by_hit ? shown + " of the prompt" : "load " + shown) + " and " + (below_helps ? "hurts" : "helps") + " just above (" +
           figure_info(flip_id).id + ")";
  c.marks.push_back(std::move(m));
}

}  // namespace tierscope::model
