// The Serve panel's steps on the canvas: the page hands over the replay's first scheduled steps as shares of
// the instance's KV room (written and reserved), and the step on screen; in the Serve view the canvas fills
// HBM with that step's KV instead of playing a path, the way the fleet view fills the tiers with a run.
#include <algorithm>
#include <cmath>
#include <string>

#include "app/app.h"
#include "base/text.h"
#include "link/view_codec.h"

namespace tierscope::app {

namespace {

constexpr std::size_t kMaxServeSteps = 10000;  // as many as `tierscope serve --steps` keeps

// "0.1,0.25,…" into shares from 0 to 1 (a reservation may not exceed the room); false with an error naming
// `field` at the first value that is not one.
bool read_shares(std::string_view text, const char* field, std::vector<float>& out, model::Errors& errors) {
  out.clear();
  for (const std::string_view item : model::split(text, ',')) {
    double v = -1;
    if (!model::read_number(item, v) || !(v >= 0 && v <= 1) || out.size() >= kMaxServeSteps) {
      errors.push_back(model::make_error(model::ErrorCode::OutOfRange, field, item.empty() ? std::string("(empty)") : std::string(item),
                                         "up to " + std::to_string(kMaxServeSteps) + " shares from 0 to 1, joined by commas"));
      out.clear();
      return false;
    }
    out.push_back(static_cast<float>(v));
  }
  return true;
}

}  // namespace

bool serve_view(const App& app) { return app.view == model::kServeView; }

bool set_serve_steps(App& app, std::string_view written, std::string_view reserved, int step, model::Errors& errors) {
  std::vector<float> w, r;
  if (!read_shares(written, "written", w, errors) || !read_shares(reserved, "reserved", r, errors)) return false;
  if (w.size() != r.size()) {
    errors.push_back(model::make_error(model::ErrorCode::Inconsistent, "reserved", std::to_string(r.size()) + " shares",
                                       "as many shares as written (" + std::to_string(w.size()) + ")"));
    return false;
  }
  if (step < -1 || step >= static_cast<int>(w.size())) {
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "step", std::to_string(step),
                                       "-1 (none) or a step from 0 to " + std::to_string(static_cast<int>(w.size()) - 1)));
    return false;
  }
  app.serve_written = std::move(w);
  app.serve_reserved = std::move(r);
  app.serve_step = step;
  ++app.revision;
  return true;
}

layout::Occupancy serve_occupancy(const App& app) {
  layout::Occupancy o;
  if (!serve_view(app) || app.serve_step < 0 || app.serve_step >= static_cast<int>(app.serve_written.size())) return o;
  o.on = true;
  const auto i = static_cast<std::size_t>(app.serve_step);
  const double written = app.serve_written[i], reserved = std::max(written, static_cast<double>(app.serve_reserved[i]));
  // The room is each GPU's KV budget (what HBM holds beside the weights); the replay counts it in tokens.
  const double room = app.figures.computed.values[model::FigureId::HbmKvBudget];
  const std::string step = "step " + std::to_string(app.serve_step + 1) + " of " + std::to_string(app.serve_written.size());
  o.tier[1] = static_cast<float>(written);
  o.tier_text[1] = {"KV " + model::human(written * room, "B") + " written · " + model::human(reserved * room, "B") + " reserved of " +
                        model::human(room, "B") + " per GPU · " + step,
                    "KV " + model::human(written * room, "B") + " of " + model::human(room, "B") + " per GPU · " + step,
                    "KV " + model::human(written * room, "B") + " · " + step, model::human(written * room, "B")};
  const auto kv = static_cast<std::size_t>(anim::ObjectKind::GlobalKv);
  o.object[kv] = static_cast<float>(written);
  o.object_text[kv] = {model::human(written * room, "B") + " per GPU", model::human(written * room, "B")};
  return o;
}

}  // namespace tierscope::app
