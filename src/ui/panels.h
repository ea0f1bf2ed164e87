// The ImGui panels inside the canvas: the toolbar (counters, CSA2 policy, status, playback, panel
// buttons), and the inspector, scenario editor, CSA2 layer modes, card check and figures table — docked
// beside the schematic on wide canvases, one overlay at a time on narrow ones.
#pragma once

#include "ui/canvas_state.h"

namespace tierscope::ui {

// Draws the toolbar and the open panels at the rectangles the canvas layout reserved for them.
void draw_panels(Screen& app);

// Draws the ImGui screen for one frame into a viewport of the given CSS size (screen.cpp).
void draw(Screen& app, float width, float height);

// The figure the inspector leads with for a state object (what the page announces when it is selected).
model::FigureId primary_figure(anim::ObjectKind o);

}  // namespace tierscope::ui
