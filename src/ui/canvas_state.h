// What the canvas remembers between frames: the scene of the current ledger, the last layout, what the
// pointer is on, the panels' requests and the last edit's words. Plain data the UI alone reads and writes;
// the app's own part (the selection, the help and inspector requests) is in app::App.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/app.h"
#include "evidence/card_check.h"
#include "layout/layout.h"

namespace tierscope::ui {

// A panel control the last frame drew (toolbar buttons, parameter fields), reported to the page's tests so
// they can tap and type into it like a user would.
struct Control {
  std::string id;  // "button:scenario", "param:prompt", …
  layout::Rect rect;
};

// Keyboard focus requests for the panel area: a panel's index (app::Panel), or the help section.
constexpr int kNoSection = -1;
constexpr int kHelpSection = 100;

struct CanvasState {
  layout::Scene scene;
  std::uint64_t scene_revision = ~std::uint64_t{0};  // App::revision the scene was built at
  layout::Layout layout;                              // of the last drawn frame (CSS px, canvas-relative)
  app::CanvasTarget hover;
  int selected_layer = -1;    // a real layer picked in the CSA2 modes panel
  int focus_request = kNoSection;  // move keyboard focus into this panel section on the next frame
  int scroll_request = kNoSection; // scroll this section into view (opened from the toolbar)
  bool blur_pending = false;     // the canvas lost focus: leave the field being edited (it applies) and the panels
  float panel_scroll = 0, panel_scroll_max = 0;  // the panels' area: how far it is scrolled, and how far it can be
  bool focus_pending = false;    // the canvas gained focus: the keys go to the schematic, not to a panel
  bool dark = true;           // the page's colour scheme
  bool reduced_motion = false;
  bool host_playback = false; // the page shows playback and status itself (set through the bridge)
  bool host_counters = false; // the page shows the counters itself
  // Pointer: a press becomes a click (inspect) or, once it moves sideways, a scrub.
  // A press that moved up or down before it went sideways is neither (press_moved); one the browser took for
  // scrolling (pointercancel, told by the page) is dropped (press_cancelled, cleared by the next press).
  bool pressing = false, scrubbing = false, press_moved = false, press_cancelled = false;
  float press_x = 0, press_y = 0;
  double press_screen_time = 0;
  double clock = 0;           // seconds while playing, for the marching dashes
  // Panels: the card check of the current scenario (recomputed when the scenario changes) and the last
  // rejected edit in the scenario editor.
  std::vector<model::CardRow> card;
  std::uint64_t card_revision = ~std::uint64_t{0};
  std::string edit_key, edit_error, edit_note;  // edit_note: what else the last edit moved
  // Reported with layout_json() for the tests: the controls drawn and how many panel texts ran past their room.
  std::vector<Control> controls;
  std::vector<std::string> sections;  // the panel sections shown ("help", "inspector", "scenario", …)
  int text_cut = 0;
};

// The app as the ImGui screen holds it: the controller, which every app operation takes as it is, and what
// the canvas remembers between frames. The platform owns one; the UI's functions take it.
struct Screen : app::App {
  CanvasState canvas;
};

}  // namespace tierscope::ui
