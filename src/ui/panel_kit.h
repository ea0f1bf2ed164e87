// What the canvas's ImGui panels share: panels.cpp draws the toolbar and lays the sections out, and the
// sections themselves are drawn by panels_inspector.cpp (the inspector) and panels_sections.cpp (scenario
// editor, CSA2 modes, card check, figures, help). Text either fits its room (counted when it does not, for
// the page's tests) or wraps.
#pragma once

#include <imgui.h>

#include <string>

#include "render/palette.h"
#include "ui/canvas_state.h"

namespace tierscope::ui::panel {

// Panels neither take focus when they appear nor move; keyboard focus enters them only when asked (a panel
// key, Enter on a selection, a click), so the schematic keeps its keys otherwise.
inline constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                           ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing;

inline ImVec4 vec4(render::Rgba c) { return ImVec4(c.r, c.g, c.b, c.a); }

// The last item ran past the right edge of the room it is drawn in (cut by the clip rectangle).
void check_fit(Screen& app);
// One line of text that must fit (counted when it does not).
void line(Screen& app, const std::string& s, bool muted = false);
// Text that wraps at the edge of its room.
void para(const std::string& s, bool muted = false);
// Remembers where the last item was drawn, for the page's tests (layout_json's "controls").
void record(Screen& app, std::string id);

// What a layer does with the global KV: its CSA2 mode and the layer whose KV it reads (inspector, modes).
std::string layer_role(const model::ModelArch& m, int layer);

// The sections, each drawn under its header in the current window.
void inspector(Screen& app);        // panels_inspector.cpp
void scenario_editor(Screen& app);  // panels_sections.cpp, as are the rest
void modes_panel(Screen& app);
void card_panel(Screen& app);
void figures_panel(Screen& app);
void help_panel(Screen& app);

}  // namespace tierscope::ui::panel
