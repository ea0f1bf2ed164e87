// The ImGui screen for one frame: the canvas (layout, input, labels over the WebGL schematic) and the
// panels around it (toolbar, inspector, scenario editor, CSA2 modes, card check, figures).
#include "ui/app.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"

namespace tierscope::ui {

void draw(App& app, float width, float height) {
  // Panels first: ImGui then knows this frame whether the pointer is over one, before the canvas
  // decides what a click means. The layout they use is the previous frame's (same size unless resized).
  draw_panels(app);
  canvas_frame(app, width, height);
}

}  // namespace tierscope::ui
