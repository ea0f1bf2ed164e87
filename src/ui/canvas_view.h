// The canvas as the user meets it: each frame it lays the schematic out from the app's state, handles the
// pointer, touch and keys on the canvas, draws the layout's labels and the tooltip through ImGui, and hands
// the geometry to the WebGL renderer.
#pragma once

#include <cstdint>
#include <string>

#include "render/renderer.h"
#include "ui/canvas_state.h"

namespace tierscope::ui {

// Between ImGui::NewFrame and ImGui::Render: input, layout, labels and tooltip. Returns true while
// something on the canvas still moves (a packet under reduced motion does not).
bool canvas_frame(Screen& app, float css_w, float css_h);

// The canvas's rectangles of the last drawn frame (CSS px, canvas-relative) with ids, kinds, highlight
// state and colour roles, for window.tierscope.layout() and the visual tests (canvas_view.cpp).
std::string layout_json(const Screen& app);

// After the clear and before ImGui's own draw data: the instanced schematic.
void canvas_render(const Screen& app, render::Renderer& r, int drawable_w, int drawable_h, float pixel_ratio);

// The item a canvas target names in the last layout, or nullptr.
const layout::Item* find_item(const Screen& app, app::CanvasTarget t);

// Human name of a canvas target ("Global KV", "GPU HBM", "Encoder row E1 · layers 0–3", …).
std::string target_name(const Screen& app, app::CanvasTarget t);

// Selects a canvas target (invalid: clears the selection), opens the inspector for it and tells the page
// its name and a one-line summary for the live region.
void select_target(Screen& app, app::CanvasTarget t);

// Opens a panel section (a Panel's index, or kHelpSection) and moves keyboard focus into it, as its letter
// key does.
void focus_section(Screen& app, int section);

// The canvas element gained (true) or lost (false) keyboard focus, as the page tells it. Gained: the keys go to
// the schematic, whatever window ImGui last focused (on a wide canvas the docked panels draw from the first
// frame, and ImGui's focus falls to them). Lost: the field being edited is left, which applies it, and the
// panels give the keys back, so returning with Tab finds the schematic.
void canvas_focus(Screen& app, bool focused);

// What the canvas shows beyond ImGui's output (selection, hover, the app's revision): the frame pacer
// mixes it into its "did anything change" hash.
std::uint64_t view_signature(const Screen& app);

}  // namespace tierscope::ui
