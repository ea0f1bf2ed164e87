// The ImGui panels inside the canvas: the toolbar (counters, CSA2 policy, status, playback, panel
// buttons), and the inspector, scenario editor, CSA2 layer modes, card check and figures table — docked
// beside the schematic on wide canvases, one overlay at a time on narrow ones.
#pragma once

#include "app/app.h"

namespace tierscope::ui {

// The ImGui view of the app controller: every name of the app room reads here as its own.
using namespace tierscope::app;

// Draws the toolbar and the open panels at the rectangles the canvas layout reserved for them.
void draw_panels(App& app);

// Draws the ImGui screen for one frame into a viewport of the given CSS size (screen.cpp).
void draw(App& app, float width, float height);

// The figure the inspector leads with for a state object (what the page announces when it is selected).
model::FigureId primary_figure(anim::ObjectKind o);

}  // namespace tierscope::ui
