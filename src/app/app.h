// The app's state and the operations on it: scenario → figures → the current path's ledger → playback →
// the state at this moment. Every front end (ImGui panels, the canvas, the page's bridge, share links)
// changes the app only through these functions. No GL, no ImGui, no browser in here.
#pragma once

#include "anim/ledger.h"
#include "anim/playback.h"
#include "anim/state.h"
#include "base/errors.h"
#include "base/json_writer.h"
#include "charts/charts.h"
#include "layout/layout.h"
#include "model/params.h"
#include "model/scenario.h"
#include "roofline/figures.h"
#include "roofline/fixes.h"
#include "sim/fleet_run.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tierscope::app {

// Panels the canvas can show, as bits; their keys appear in share links ("panels=scenario,card").
enum class Panel : std::uint8_t { Scenario, Modes, Card, Inspector, Figures, Count };
constexpr int kPanelCount = static_cast<int>(Panel::Count);
const char* panel_key(Panel p);
constexpr std::uint32_t kDefaultPanels = 1u << static_cast<int>(Panel::Inspector);

// A value the model moved to keep the scenario consistent after an edit (lowering the prompt lowers the
// prefix hit): the field, its value before and after, and why, in words the page shows as a notice.
using Adjustment = model::Adjustment;

// The seam to the model's edit of one parameter: apply `value` to `def` in `s`, move what must move with it
// and say so in `adjustments`, or refuse with errors (nothing changed). edit_param_rules is the model's
// rule-aware edit (model::edit_param) followed by the cross-field check; edit_param_plain sets the value
// alone (tests use it to tell the seam from the rules).
using EditParamFn = bool (*)(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                             std::vector<Adjustment>& adjustments, model::Errors& errors);
bool edit_param_rules(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                      std::vector<Adjustment>& adjustments, model::Errors& errors);
bool edit_param_plain(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                      std::vector<Adjustment>& adjustments, model::Errors& errors);

// The fleet view's clock over a run's simulated hours (app_fleet.cpp): while the run computes it follows
// the run hour by hour; once done it rests at the end, and plays the day again on request.
struct FleetClock {
  double t = 0;          // simulated seconds on screen
  bool playing = false;
  bool follow = true;    // follows the run while it computes, until the reader moves the clock
  int hour_told = -1;    // the hour the page was last told of (a new hour bumps App::revision)
  std::uint64_t seen = 0;  // the run's snapshot version the clock last followed
  std::string sweep;     // the sweep the run was started with ("", "pool", "dram", "ssd")
  bool cancelled = false;  // the last run was cancelled (the page then waits to be asked again)
};
// Simulated hours per screen second at speed 1 when the fleet clock plays (a day in 12 s).
constexpr double kFleetHoursPerSecond = 2;

// An item of the canvas by kind and index (stable across frames, unlike a pointer into the layout).
struct CanvasTarget {
  layout::Kind kind = layout::Kind::Count;
  int index = -1;
  bool valid() const { return kind != layout::Kind::Count; }
  bool operator==(const CanvasTarget&) const = default;
};

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
  // What the canvas has selected, in words for the page's live region (set_selection), and which of the
  // panel area's sections were asked for without a panel of their own: the page's state reports them.
  CanvasTarget selected;
  std::string selection_id, selection_name, selection_detail;
  bool help_open = false;
  bool inspector_shown = false;  // the inspector was asked for (key I) with nothing selected
  EditParamFn edit = edit_param_rules;
  // What the last parameter edit moved besides the edited field, numbered so the page shows each once.
  std::vector<Adjustment> adjustments;
  std::uint64_t adjustments_seq = 0;
  // The fleet view's run (app_fleet.cpp). A run computed here (fleet_start, fleet_advance: the command line,
  // the tests) is `fleet_run`, and `fleet` is its view; the page's runs are computed in its worker, and
  // `fleet` is the view the worker hands over (fleet_adopt). The view is all the fleet view reads.
  sim::FleetRun fleet_run;
  sim::FleetRunView fleet;
  FleetClock fleet_clock;
  // Page view keys the app keeps so its share link is whole: the walkthrough step (0: the reader has not
  // used it) and the page's view ("fleet", "chart-roofline", or empty).
  int tour = 0;
  std::string view;
  std::string sweep;  // the sweep chart's choice ("FIGURE:X[:FAMILY:V1,V2]"), kept for the link
  std::string serve;  // the Serve panel's settings (serve::serve_settings_text), kept for the link
  // The Serve panel's replayed steps as the canvas shows them (app_serve.cpp): each step's KV written and
  // reserved as shares of the instance's room, and the step on screen (-1: none, the path plays).
  std::vector<float> serve_written, serve_reserved;
  int serve_step = -1;
  // A comparison: scenario A pinned beside the current one (B). Figures and charts of A are computed once,
  // when it is pinned; its ledger follows the path shown.
  bool comparing = false;
  model::Scenario pinned;
  model::Figures pinned_figures;
  // While the setup cannot run: the one-edit ways out the model finds (roofline/fixes.h), computed once per
  // scenario; the page shows them as buttons that apply through set_param.
  std::vector<model::SetupFix> fixes;
};

// Loads the default preset on the decode path, paused at its first step. init() is the two halves in one:
// init_figures() (the scenario and its figures) then init_ledger() (the path's ledger), which a page may run
// as two tasks so neither holds its thread for both.
void init(App& app);
void init_figures(App& app);
void init_ledger(App& app);

// Replaces the scenario (assumed valid), recomputes figures and the ledger, keeps the path and clamps
// the step.
void set_scenario(App& app, const model::Scenario& s);
// Sets one parameter by its registry key through app.edit; nothing changes on error. Whatever else the edit
// moved is kept in app.adjustments (and returned in `adjustments` when given).
bool set_param(App& app, std::string_view key, std::string_view value, model::Errors& errors,
               std::vector<Adjustment>* adjustments = nullptr);
bool set_preset(App& app, std::string_view name, model::Errors& errors);
// Replaces the model by a Hugging Face config.json's (hf/hf_config.h), keeping the hardware, layout and
// workload; the layout is re-spread where the new model needs it. `notes` says what was assumed, ignored
// or moved. Nothing changes on error.
// `file` is the file's name when there is one ("Qwen3-30B-A3B.json"): it names a model whose config.json
// does not name itself. A context beyond the model's trained positions is lowered to them (a note says so).
bool load_config(App& app, std::string_view json, model::Errors& errors, std::vector<std::string>& notes,
                 std::string_view file = {});

// load_config's reading without an app: `s` becomes the scenario the file makes of it, with the same notes.
// The worker module reads files this way and hands the page's module the result as a link's scenario keys.
// `quant`: the hf_quant_config.json its publisher ships beside it (ModelOpt), or empty.
bool config_scenario(model::Scenario& s, std::string_view json, std::string_view file, model::Errors& errors,
                     std::vector<std::string>& notes, std::string_view quant = {});
// Replaces the scenario by the one a link's scenario keys name (model::scenario_from_hash; any other key is
// refused), keeping the path, as set_scenario does: how the page's module takes an import from the worker.
// Nothing changes on error.
bool apply_scenario_hash(App& app, std::string_view hash, model::Errors& errors);

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
// True when some panel has something to show, so the canvas reserves room for the panels (the inspector
// counts with a selection, a picked figure, or when asked for).
bool panel_area_wanted(const App& app);
// Changes the canvas selection (and says so to the page: its id, name and a one-line summary). True when
// another object is now selected: the inspector then opens at its top.
bool set_selection(App& app, CanvasTarget target, std::string id, std::string name, std::string detail);

// Names of state objects and of the ends of moves, as the app shows them for this model (the page's ledger
// takes them from state_json's "names", never from a list of its own).
std::string object_name(const App& app, anim::ObjectKind o);
std::string endpoint_name(const App& app, anim::Endpoint e);

// Advances playback by a frame's screen seconds. Returns true when the state changed (draw a frame).
bool tick(App& app, double dt_seconds);

// Applies a share link's hash (without '#'): scenario keys through the model's URL codec, and the view
// keys path, step, speed, panels. Every bad key is reported and falls back to its default; the good
// ones apply. Returns true when there was nothing to report.
// A walkthrough step without a path opens as open_tour_step does: that step's path, on the entry
// the step tells. `info`, when given, says whether the link named a path, and its walkthrough step.
struct HashInfo {
  bool path_given = false;
  int tour = 0;
};
bool apply_hash(App& app, std::string_view hash, model::Errors& errors, HashInfo* info = nullptr);
// The canonical hash for the current view (model::view_to_hash): the scenario's keys, then path, step,
// speed, panels (only where they differ from the defaults, except path, which is always given), view, tour.
std::string view_hash(const App& app);
// The walkthrough step the reader is on (0: none); the link then carries it. Out of range is an error.
// Once set, the step follows the path on screen (set_path): it is always the step that tells that path, or
// the first screen while its path stays.
bool set_tour(App& app, int tour, model::Errors& errors);
// Opens a walkthrough step as the reader's Next, Back or a dot does: `tour` is model::kTourIntro (its first
// screen) or 1 to model::kTourSteps. Leaves the fleet view (the sweep chart's choice stays), puts the step's
// path on screen paused on the ledger entry the step talks about (tour_entry_index), or with `play` playing
// the path from its start, and the link then names the step. Out of range is an error; nothing changes then.
bool open_tour_step(App& app, int tour, bool play, model::Errors& errors);
// The entry of the current ledger that walkthrough step `tour` talks about (model::tour_entry); 0 when the
// step names none (the first screen) or this model's path has no such entry.
int tour_entry_index(const App& app, int tour);
// The page's view: "" (the animation), "fleet" (the fleet view) or "chart-<key>" (a chart), and the sweep chart's choice; both travel
// in the share link. Bad values are errors naming them; nothing changes then.
bool set_view(App& app, std::string_view view, std::string_view sweep, model::Errors& errors);
// The Serve panel's settings ("concurrency:64,input:1024", codec/serve_spec.h), kept in their one spelling
// for the share link. Refused settings are errors naming them ("serve.concurrency"); nothing changes then.
bool set_serve(App& app, std::string_view settings, model::Errors& errors);
// Pins the current scenario as A of a comparison (on), or ends the comparison (off).
void set_compare(App& app, bool on);

// Short label of the KV storage policy for the header, derived from the model ("FP4 global KV").
std::string policy_label(const model::Scenario& s);

// The fleet view (app_fleet.cpp): a simulated day of traffic through the tiers for the current scenario.
// Start it (empty trace text: synthetic traffic from the scenario's fleet keys), advance it a slice per
// frame (sim::next_slice_events picks the slice from the last one's measured time), read its JSON: the same
// bytes `tierscope fleet --format json` prints for the same scenario. Changing the scenario does not touch
// a run in progress; start again to follow it.
bool fleet_start(App& app, std::string_view trace_text, model::Errors& errors);
// The same with a capacity sweep after the run: `sweep` is "", "pool", "dram" or "ssd" (anything else is
// refused, naming the field).
bool fleet_start(App& app, std::string_view trace_text, std::string_view sweep, model::Errors& errors);
std::uint64_t fleet_advance(App& app, std::uint64_t max_events);
std::uint64_t fleet_advance_by(App& app, double simulated_seconds);
void fleet_cancel(App& app);
// A run computed elsewhere (the page's worker, sim::FleetRun there): its view as sim::fleet_view_text wrote
// it. The first view of a run (`new_run`, with the sweep it was started with) sets the clock back as
// fleet_start does; a later view of the same run moves it as fleet_advance does. False, with an error
// naming the part that does not read, leaving the view on screen as it was.
bool fleet_adopt(App& app, std::string_view view_text, std::string_view sweep, bool new_run, model::Errors& errors);
// Between the worker's views: where its run is (progress 0 to 1, simulated seconds). The page's progress
// line reads it; nothing else moves.
void fleet_progress(App& app, double progress, double now);
std::string fleet_json(const App& app);         // "null" before a start
std::string fleet_status_json(const App& app);  // {"started","done","t_s","horizon_s","progress"}

// set_view keeping the sweep chart's choice. The view may be "fleet" too (model::view_known): opening it
// pauses the path, leaving it pauses the fleet clock, and choosing a path (set_path) leaves it.
bool set_view(App& app, std::string_view view, model::Errors& errors);
bool fleet_view(const App& app);
// The fleet clock (the view's "step" is the hour on screen, its "steps" the run's hours). play, pause,
// toggle_play, step_by, seek and seek_clamped act on it while the fleet view is open.
int fleet_hours(const App& app);  // whole or partial hours of the run (of the scenario's `hours` before one)
int fleet_hour(const App& app);   // the hour the clock is in, 0 to fleet_hours − 1
void fleet_play(App& app);
void fleet_pause(App& app);
void fleet_step(App& app, int delta);
void fleet_seek_hour(App& app, int hour);
// Moves the clock by a frame's screen seconds while it plays; true when the view changed (draw a frame).
bool fleet_tick(App& app, double dt_seconds);
// What the view shows at the clock, for the page (state_json's "fleet": the run's status and progress
// words, the hour's counters, the totals) and for the canvas (each tier's occupancy, interpolated between
// the run's five-minute samples).
std::string fleet_state_json(const App& app);
std::string fleet_clock_text(const App& app);     // the hour on screen: "23:00–24:00" (" · at 13:27" while it plays)
std::string fleet_position_text(const App& app);  // "hour 24 of 24": counted from 1, as the ledger names it
std::string fleet_time_text(double seconds);     // simulated time as "hh:mm" ("26:30" past a day)
double fleet_end_s(const App& app);              // the run's length (the scenario's `hours` before a run)
std::string fleet_hour_sentence(const App& app);  // the clock's hour as `tierscope fleet` prints it
layout::Occupancy fleet_occupancy(const App& app);
// The Serve view (app_serve.cpp): the page gives the replay's steps as KV shares ("0.1,0.2,…", written and
// reserved, as many of each) and the step on screen (-1: none); bad lists or steps are errors naming them,
// and nothing changes then. With a step on screen, the canvas fills HBM with its KV (serve_occupancy).
bool serve_view(const App& app);
bool set_serve_steps(App& app, std::string_view written, std::string_view reserved, int step, model::Errors& errors);
layout::Occupancy serve_occupancy(const App& app);
// The ledger panel in the fleet view: one row per simulated hour (the shape of ledger_view_json), each
// row's sentence the line `tierscope fleet` prints for that hour.
std::string fleet_ledger_json(const App& app);
// The run's results as `tierscope fleet --format json|csv` writes them (errors: no run, a bad format).
bool fleet_export(const App& app, std::string_view format, std::string& out, model::Errors& errors);
// A fleet chart (model::is_fleet_chart) of the finished run, as `tierscope chart fleet-…` prints it.
bool fleet_chart_json(const App& app, model::ChartKind kind, std::string& out, model::Errors& errors,
                      std::vector<double>* numbers = nullptr);


}  // namespace tierscope::app
