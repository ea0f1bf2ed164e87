// The ImGui screen for one frame: the canvas (layout, input, labels over the WebGL schematic) and the
// panels around it (toolbar, inspector, scenario editor, CSA2 modes, card check, figures).
#include "app/app.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"

namespace tierscope::ui {

// The app room's names (App, Panel and the operations on them) read here as the UI's own.
using namespace tierscope::app;

void draw(Screen& app, float width, float height) {
  // The canvas first: its input (ImGui already knows from the previous frame whether the pointer is over a
  // panel) and layout then feed the panels drawn in the same frame, so a click shows in the inspector at once.
  canvas_frame(app, width, height);
  draw_panels(app);
}

}  // namespace tierscope::ui
