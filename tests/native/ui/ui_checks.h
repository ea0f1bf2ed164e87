// What each panel must show, read from the app and the rooms below it (never from the ui room's own
// wording functions): the checks test_ui.cpp and test_ui_edits.cpp run on a drawn frame's text.
#pragma once

#include <string>

#include "app/app.h"
#include "ui_driver.h"

namespace tierscope::ui_test {

// The canvases the panels are drawn on (CSS px), as the browser tests and the layout tests size them: a
// laptop's page, clicked with a mouse, and a phone's, tapped with a finger.
struct Viewport {
  const char* name;
  float width, height;
  bool touch;
};
inline constexpr Viewport kViewports[] = {{"desktop", 1280, 800, false}, {"phone", 390, 844, true}};

// The key the app gives a section in app.canvas.sections (a Panel's key, or "help").
std::string section_key(int section);
// Whether the last frame showed the section `key` and no other but the inspector (docked on wide canvases).
bool shows_only(const ui::Screen& app, const std::string& key);

// The scenario editor: the scenario's name in the preset box, and each parameter of the groups open by
// default with its current value in its field.
void check_scenario_editor(const ui::Screen& app, const Frame& f);
// The CSA2 modes: one button per layer of the model, lettered with that layer's mode.
void check_modes(const ui::Screen& app, const Frame& f);
// The card check: every claim with the value the evidence room computes for it and its verdict.
void check_card(const ui::Screen& app, const Frame& f);
// The figures table: every figure's label beside its value text.
void check_figures(const ui::Screen& app, const Frame& f);
// The inspector with nothing selected: the ledger entry on screen (or why the path has none).
void check_inspector_now(const ui::Screen& app, const Frame& f);
// The inspector for a selected canvas object: its name, and for each kind what the app computed for it.
void check_inspector(const ui::Screen& app, const Frame& f, app::CanvasTarget t);
// A figure's card in the inspector: "label = value" with the app's value text, then its formula.
void check_figure_card(const Frame& f, const model::Figure& fig);

}  // namespace tierscope::ui_test
