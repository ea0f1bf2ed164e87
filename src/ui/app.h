// The app's state as the UI sees it: the scenario, its derived figures, and what the panels show.
// Holds no GL objects and knows nothing of the browser; the platform layer owns those.
#pragma once

#include "model/figures.h"
#include "model/scenario.h"

#include <string>

namespace tierscope::ui {

struct App {
  model::Scenario scenario;
  model::Figures figures;
  std::string preset_name;
  bool animating = false;    // true while something moves; the platform then draws every frame
  int selected_figure = -1;  // index into figures.list, or -1
};

// Loads the default preset and computes its figures.
void init(App& app);

// Recomputes every figure from the scenario (closed form; microseconds).
void recompute(App& app);

// Draws the ImGui panels for one frame into a viewport of the given CSS size.
void draw(App& app, float width, float height);

}  // namespace tierscope::ui
