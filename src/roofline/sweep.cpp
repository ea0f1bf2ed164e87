// SweepRunner and axis_values: the one way a sweep point is set, checked and computed.
#include "roofline/sweep.h"

#include <algorithm>
#include <cmath>

#include "base/text.h"

namespace tierscope::model {

SweepRunner::SweepRunner(const Scenario& base, std::span<const FigureId> ids, std::span<const ParamDef* const> keys) : base_(base) {
  for (const ParamDef* p : keys) same_layers_ = same_layers_ && p && p->group != ParamGroup::Model;
  // Sweeping hardware, layout or workload keys leaves the layers as they are: plan them once.
  if (same_layers_) plan_layers(base.model, plan_);
  for (FigureId id : ids) scope_ |= figure_scope(id);
}

bool SweepRunner::run(std::span<const SweepSetting> settings, Computed& out, Errors& errors) {
  point_ = base_;
  errors.clear();
  Adjustments moved;
  for (const SweepSetting& set : settings) {
    Error e;
    if (!set.def || !edit_param(point_, *set.def, set.value, moved, e)) {
      errors.push_back(set.def ? e : make_error(ErrorCode::UnknownKey, "sweep", set.value, "a scenario parameter"));
      return false;
    }
  }
  errors = validate(point_);
  if (!errors.empty()) return false;
  if (!same_layers_) plan_layers(point_.model, plan_);
  compute_values(point_, plan_, out, scope_);
  return true;
}

bool sweep_axis_param(const ParamDef& p) { return p.kind == ParamKind::Int || p.kind == ParamKind::Real; }

std::vector<std::string> axis_values(const ParamDef& p, double from, double to, int points, bool log, Error& err) {
  std::vector<std::string> out;
  const std::string field = std::string("axis ") + p.key;
  if (!sweep_axis_param(p)) {
    err = make_error(ErrorCode::WrongType, field, p.key, "a numeric parameter (an integer or real key of `tierscope params`)");
    return out;
  }
  if (!std::isfinite(from) || !std::isfinite(to) || from < p.min || to > p.max || from > to) {
    err = make_error(ErrorCode::OutOfRange, field, num_exact(from) + " to " + num_exact(to),
                     "a range from low to high within " + num_exact(p.min) + " to " + num_exact(p.max));
    return out;
  }
  if (points < 2 || points > 256) {
    err = make_error(ErrorCode::OutOfRange, "points", std::to_string(points), "2 to 256");
    return out;
  }
  if (log && from <= 0) {
    err = make_error(ErrorCode::OutOfRange, field, num_exact(from), "a start above 0 for a logarithmic axis");
    return out;
  }
  for (int i = 0; i < points; ++i) {
    const double f = static_cast<double>(i) / (points - 1);
    double x = i == points - 1 ? to : log ? from * std::pow(to / from, f) : from + (to - from) * f;
    if (p.kind == ParamKind::Int) {
      x = std::clamp(std::round(x), p.min, p.max);
      const std::string text = std::to_string(static_cast<long long>(x));
      if (out.empty() || out.back() != text) out.push_back(text);  // small ranges repeat integers: once each
    } else {
      out.push_back(num_exact(x));
    }
  }
  return out;
}

}  // namespace tierscope::model
