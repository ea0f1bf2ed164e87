// One sweep point at a time: a base scenario with one or two keys set as a person would set them, then
// validated and computed. `tierscope sweep` and the page's charts both go through it, so they agree.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/layers.h"
#include "model/params.h"
#include "roofline/figures.h"

namespace tierscope::model {

struct SweepSetting {
  const ParamDef* def = nullptr;
  std::string_view value;  // the text a person would type ("8", "fp4", "0.85")
};

class SweepRunner {
 public:
  // `ids`: the figures wanted (they set what is computed); `keys`: the swept parameters (planning the
  // layers once when none of them changes the model).
  SweepRunner(const Scenario& base, std::span<const FigureId> ids, std::span<const ParamDef* const> keys);
  // Sets each key in order (dependent fields follow, as edit_param does), validates and computes. False
  // with `errors` filled when a value is refused or the scenario contradicts itself; `point` is then the
  // base with whatever was set before the refusal.
  bool run(std::span<const SweepSetting> settings, Computed& out, Errors& errors);
  // The scenario of the last run().
  const Scenario& point() const { return point_; }

 private:
  const Scenario& base_;
  Scenario point_;
  LayerPlan plan_;
  bool same_layers_ = true;
  unsigned scope_ = 0;
};

// The sweep's x axis, one rule for `tierscope sweep`, the sweep chart, a link's `sweep=` and the page's
// menus: a numeric parameter (an integer or real key). Its lines may split by any other parameter.
bool sweep_axis_param(const ParamDef& p);

// The values a numeric axis takes from `from` to `to` (inclusive) in `points` steps, geometric when `log`,
// as the text a person would type: integers for Int keys (rounded, repeats dropped), the shortest exact
// decimal for Real keys. Empty with `err` set when the key is not numeric or the range is not allowed.
std::vector<std::string> axis_values(const ParamDef& p, double from, double to, int points, bool log, Error& err);

}  // namespace tierscope::model
