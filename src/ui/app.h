// The app's state and the operations on it: scenario → figures → the current path's ledger → playback →
// the state at this moment. Every front end (ImGui panels, the canvas, the page's bridge, share links)
// changes the app only through these functions. No GL, no ImGui, no browser in here.
#pragma once

#include "anim/ledger.h"
#include "anim/playback.h"
#include "anim/state.h"
#include "model/errors.h"
#include "model/figures.h"
#include "model/scenario.h"
#include "sim/fleet_run.h"
#include "ui/canvas_state.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tierscope::ui {

// Panels the canvas can show, as bits; their keys appear in share links ("panels=scenario,card").
enum class Panel : std::uint8_t { Scenario, Modes, Card, Inspector, Figures, Count };
constexpr int kPanelCount = static_cast<int>(Panel::Count);
const char* panel_key(Panel p);
constexpr std::uint32_t kDefaultPanels = 1u << static_cast<int>(Panel::Inspector);

struct App {
  model::Scenario scenario;
  model::Figures figures;
  anim::Ledger ledger;        // the current path's
  anim::TimeMap time_map;     // of that ledger
  anim::Playback playback;
  anim::StepState state;      // at the playback position (refreshed by every operation and by tick)
  std::uint32_t panels = kDefaultPanels;
  int selected_figure = -1;   // index into figures.list, or -1

  // Bumped whenever something the page shows changes (path, step, play state, speed, scenario, panels),
  // so the bridge tells the page once per change, not once per frame.
  std::uint64_t revision = 0;
  bool animating = false;     // true while playing: the platform then draws every frame
  CanvasState canvas;         // the canvas's geometry and pointer state (canvas_view.cpp)
  sim::FleetRun fleet;        // the fleet view's run (app_fleet.cpp), advanced a slice per frame
};

// Loads the default preset on the decode path, paused at its first step.
void init(App& app);

// Replaces the scenario (assumed valid), recomputes figures and the ledger, keeps the path and clamps
// the step.
void set_scenario(App& app, const model::Scenario& s);
// Sets one parameter by its registry key; nothing changes on error.
bool set_param(App& app, std::string_view key, std::string_view value, model::Errors& errors);
bool set_preset(App& app, std::string_view name, model::Errors& errors);

void set_path(App& app, anim::PathId path);
bool set_path(App& app, std::string_view key, model::Errors& errors);
void play(App& app);
void pause(App& app);
void toggle_play(App& app);
void step_by(App& app, int delta);
bool seek(App& app, int step, model::Errors& errors);  // out of range is an error, not a clamp
void seek_clamped(App& app, int step);
void scrub(App& app, double screen_seconds);
bool set_speed(App& app, double speed, model::Errors& errors);
void set_panel(App& app, Panel p, bool open);
bool panel_open(const App& app, Panel p);

// Advances playback by a frame's screen seconds. Returns true when the state changed (draw a frame).
bool tick(App& app, double dt_seconds);

// Applies a share link's hash (without '#'): scenario keys through the model's URL codec, and the view
// keys path, step, speed, panels. Every bad key is reported and falls back to its default; the good
// ones apply. Returns true when there was nothing to report.
bool apply_hash(App& app, std::string_view hash, model::Errors& errors);
// The canonical hash for the current view: the scenario's keys, then path, step, speed, panels (only
// where they differ from the defaults, except path, which is always given).
std::string view_hash(const App& app);

// Short label of the KV storage policy for the header, derived from the model ("FP4 global KV").
std::string policy_label(const model::Scenario& s);

// JSON views for the page (see the bridge and README): stable field names, exact numbers.
std::string state_json(const App& app);
std::string figures_json(const App& app);
std::string paths_json();
std::string errors_json(const model::Errors& errors);
// The canvas's rectangles of the last drawn frame (CSS px, canvas-relative) with ids, kinds, highlight
// state and colour roles, for window.tierscope.layout() and the visual tests (canvas_view.cpp).
std::string layout_json(const App& app);

// The fleet view (app_fleet.cpp): a simulated day of traffic through the tiers for the current scenario.
// Start it (empty trace text: synthetic traffic from the scenario's fleet keys), advance it a slice per
// frame (sim::next_slice_events picks the slice from the last one's measured time), read its JSON: the same
// bytes `tierscope fleet --format json` prints for the same scenario. Changing the scenario does not touch
// a run in progress; start again to follow it.
bool fleet_start(App& app, std::string_view trace_text, model::Errors& errors);
std::uint64_t fleet_advance(App& app, std::uint64_t max_events);
std::uint64_t fleet_advance_by(App& app, double simulated_seconds);
void fleet_cancel(App& app);
std::string fleet_json(const App& app);         // "null" before a start
std::string fleet_status_json(const App& app);  // {"started","done","t_s","horizon_s","progress"}

// Draws the ImGui screen for one frame into a viewport of the given CSS size (screen.cpp).
void draw(App& app, float width, float height);

}  // namespace tierscope::ui
