// C++ half of the bridge: the exported functions the page calls, and the calls out to web_bridge.js.
// Each export is one row of web/lib/bridge.mjs's table (EXPORTS), or one of the module's own event hooks
// web_bridge.js calls; arguments are read and answers handed back with the bridges' kit (app/bridge_kit.h).
// Calls from the page before attach() are ignored; natively every call-out is a quiet fallback.
//
// Sections: the calls out to web_bridge.js (bridge::) · the module's own hooks (canvas size, theme, focus,
// the text proxy, pointer) · scenario, path and playback, for window.tierscope, share links and postMessage ·
// the fleet view, computed in the page's worker.
#include "platform/web_bridge.h"

#include "anim/format.h"
#include "app/app.h"
#include "app/bridge_kit.h"
#include "app/page_json.h"
#include "base/errors.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "codec/serve_spec.h"
#include "link/view_codec.h"
#include "platform/platform.h"
#include "sim/fleet_run.h"
#include "sim/trace.h"
#include "ui/canvas_view.h"

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
extern "C" {
void ts_js_report_fatal(const char* code, const char* detail);
int ts_js_notify_loaded();
void ts_js_notify_ready();
void ts_js_mark(const char* name);
void ts_js_watch_canvas();
int ts_js_prefers_dark();
int ts_js_prefers_reduced_motion();
void ts_js_on_state(const char* state_json);
void ts_js_notice(const char* kind, const char* text);
void ts_js_text_field(int active, float x, float y, float h);
}
#endif

namespace tierscope::bridge {
namespace {
ui::Screen* g_app = nullptr;           // the page's calls have no context argument, so the bridge keeps
platform::Platform* g_platform = nullptr;  // the two objects they act on (set once, at start-up)
std::uint64_t g_published = ~0ull;     // app revision the page last heard about
bool g_page_building = false;          // the page said it builds its views before the first frame
double g_loaded_at = 0;                // when the page was told the model is ready (ms)
constexpr double kPageWaitMs = 1000;   // the first frame never waits longer than this for the page
}  // namespace

void publish_state_if_changed() {
  if (!g_app || g_app->revision == g_published) return;
  g_published = g_app->revision;
#ifdef __EMSCRIPTEN__
  const std::string state = app::state_json(*g_app);
  ts_js_on_state(state.c_str());
#endif
}

void attach(ui::Screen* app, platform::Platform* platform) {
  g_app = app;
  g_platform = platform;
}

void report_fatal(const char* code, const char* detail) {
#ifdef __EMSCRIPTEN__
  ts_js_report_fatal(code, detail ? detail : "");
#else
  std::fprintf(stderr, "tierscope: %s: %s\n", code, detail ? detail : "");
#endif
}

void notice(const char* kind, const char* text) {
#ifdef __EMSCRIPTEN__
  ts_js_notice(kind, text ? text : "");
#else
  std::fprintf(stderr, "tierscope: %s: %s\n", kind, text ? text : "");
#endif
}

void mark(const char* name) {
#ifdef __EMSCRIPTEN__
  ts_js_mark(name);
#else
  (void)name;
#endif
}

void notify_loaded() {
#ifdef __EMSCRIPTEN__
  g_loaded_at = emscripten_get_now();
  g_page_building = ts_js_notify_loaded() != 0;
#endif
}

bool page_settled() {
#ifdef __EMSCRIPTEN__
  return !g_page_building || emscripten_get_now() - g_loaded_at > kPageWaitMs;
#else
  return true;
#endif
}

void notify_ready() {
#ifdef __EMSCRIPTEN__
  ts_js_notify_ready();
#endif
}

bool prefers_dark() {
#ifdef __EMSCRIPTEN__
  return ts_js_prefers_dark() != 0;
#else
  return true;
#endif
}

bool prefers_reduced_motion() {
#ifdef __EMSCRIPTEN__
  return ts_js_prefers_reduced_motion() != 0;
#else
  return false;
#endif
}

void text_field(bool active, float x, float y, float h) {
#ifdef __EMSCRIPTEN__
  ts_js_text_field(active ? 1 : 0, x, y, h);
#else
  (void)active, (void)x, (void)y, (void)h;
#endif
}

void watch_canvas() {
#ifdef __EMSCRIPTEN__
  ts_js_watch_canvas();
#endif
}

}  // namespace tierscope::bridge

using namespace tierscope;

using app::bridge_kit::answer;
using app::bridge_kit::answer_errors;
using app::bridge_kit::text_arg;

namespace {
const char* not_ready() {
  return answer_errors({model::make_error(model::ErrorCode::NotReady, "app", "not started", "calls after window.tierscope.ready")});
}
const char* bad_arg(const char* field, std::size_t limit = app::bridge_kit::kMaxText) {
  return answer_errors({app::bridge_kit::too_long(field, limit)});
}
// After a change made from the page: redraw, and tell the page the new state.
void after_change() {
  if (bridge::g_platform) bridge::g_platform->pacer.request();
  bridge::publish_state_if_changed();
}
}  // namespace


// The page has built its views (after notify_loaded): the first frame may be drawn.
TS_EXPORT void ts_bridge_page_built() {
  bridge::g_page_building = false;
  if (bridge::g_platform) bridge::g_platform->pacer.request();
}

// The canvas changed size or the device pixel ratio changed.
TS_EXPORT void ts_bridge_canvas_resized() {
  if (!bridge::g_platform) return;
  platform::sync_canvas_size(*bridge::g_platform);
}

// The page's colour scheme changed (prefers-color-scheme): 1 dark, 0 light. The panels, the canvas and the
// clear colour follow at once.
TS_EXPORT void ts_bridge_set_theme(int dark) {
  if (!bridge::g_app || !bridge::g_platform || (dark != 0 && dark != 1)) return;
  platform::set_theme(*bridge::g_platform, dark == 1);
  bridge::g_app->canvas.dark = dark == 1;
  ++bridge::g_app->revision;
  after_change();
}

// The canvas gained (1) or lost (0) keyboard focus. On loss the field being edited is left, which applies
// it, and keyboard focus leaves the panels, so returning with Tab finds the schematic.
TS_EXPORT void ts_bridge_canvas_focus(int focused) {
  if (!bridge::g_app || !bridge::g_platform) return;
  ui::canvas_focus(*bridge::g_app, focused != 0);
  bridge::g_platform->pacer.request();
}

// Text typed into the page's text proxy (the hidden input that brings up a phone's keyboard): it replaces
// the whole text of the field being edited (select all, then the text; empty text clears the field).
TS_EXPORT void ts_bridge_text_replace(const char* text) {
  if (!bridge::g_platform) return;
  std::string_view t;
  if (!text_arg(text, t)) return;
  ImGuiIO& io = ImGui::GetIO();
  io.AddKeyEvent(ImGuiMod_Ctrl, true);
  io.AddKeyEvent(ImGuiKey_A, true);
  io.AddKeyEvent(ImGuiKey_A, false);
  io.AddKeyEvent(ImGuiMod_Ctrl, false);
  if (t.empty()) {
    io.AddKeyEvent(ImGuiKey_Delete, true);
    io.AddKeyEvent(ImGuiKey_Delete, false);
  } else {
    io.AddInputCharactersUTF8(std::string(t).c_str());
  }
  bridge::g_platform->pacer.request();
}

// A key pressed in the text proxy that ends the edit: 0 Enter (applies), 1 Escape (restores the old value).
TS_EXPORT void ts_bridge_text_key(int which) {
  if (!bridge::g_platform || (which != 0 && which != 1)) return;
  const ImGuiKey key = which == 0 ? ImGuiKey_Enter : ImGuiKey_Escape;
  ImGui::GetIO().AddKeyEvent(key, true);
  ImGui::GetIO().AddKeyEvent(key, false);
  bridge::g_platform->pacer.request();
}

// A pointer on the canvas went down (0) or the browser took its gesture to scroll the page (1,
// pointercancel): that press then selects nothing, scrubs nothing and clicks no panel button.
TS_EXPORT void ts_bridge_pointer(int phase) {
  if (!bridge::g_app || !bridge::g_platform || (phase != 0 && phase != 1)) return;
  bridge::g_app->canvas.press_cancelled = phase == 1;
  bridge::g_platform->touch_cancelled = phase == 1;
  bridge::g_platform->pacer.request();
}

// A touch on the canvas's panels (web_bridge.js takes those from SDL), at canvas point (x, y) in CSS px:
// phase 0 its start (1 when a panel, the toolbar or an open list is under it: the touch is the panels'), 1 a
// vertical move of `dy` px (1 when the panel scrolled with it; 0: the page scrolls), 2 a tap (pressed and
// lifted there at once).
TS_EXPORT int ts_bridge_touch(int phase, float x, float y, float dy) {
  if (!bridge::g_platform || !std::isfinite(x) || !std::isfinite(y) || !std::isfinite(dy)) return 0;
  int taken = 0;
  if (phase == 0) taken = platform::window_at(x, y) ? 1 : 0;
  else if (phase == 1) taken = platform::scroll_panel(x, y, dy) ? 1 : 0;
  else if (phase == 2) platform::tap(x, y);
  if (phase != 0) bridge::g_platform->pacer.request();
  return taken;
}

// A panel of the canvas opened from the page's keyboard toolbar ("scenario", "modes", "card", "figures",
// "inspector" or "help"), with keyboard focus in it as its letter key gives; the page then focuses the canvas.
TS_EXPORT const char* ts_bridge_open_panel(const char* key) {
  if (!bridge::g_app) return not_ready();
  std::string_view k;
  if (!text_arg(key, k, 32)) return bad_arg("panel", 32);
  int section = k == "help" ? ui::kHelpSection : ui::kNoSection;
  for (int i = 0; i < app::kPanelCount && section == ui::kNoSection; ++i)
    if (k == app::panel_key(static_cast<app::Panel>(i))) section = i;
  if (section == ui::kNoSection) {
    model::Errors e{model::make_error(model::ErrorCode::BadEnum, "panel", std::string(k),
                                      "scenario, modes, card, figures, inspector or help")};
    return answer_errors(e);
  }
  ui::focus_section(*bridge::g_app, section);
  after_change();
  return answer_errors({});
}

// Asks for a redraw (e.g. after the page changed something the canvas shows).
TS_EXPORT void ts_bridge_request_redraw() {
  if (bridge::g_platform) bridge::g_platform->pacer.request();
}

// Frame statistics as JSON: CPU time per drawn frame (p50, p95), frames drawn, loop ticks, WASM heap.
TS_EXPORT const char* ts_bridge_stats_json() {
  if (!bridge::g_platform) return "{}";
  const auto& st = bridge::g_platform->stats;
  double heap = 0;
#ifdef __EMSCRIPTEN__
  heap = static_cast<double>(emscripten_get_heap_size());
#endif
  const platform::Platform& p = *bridge::g_platform;
  model::JsonWriter w;
  w.object().key("cpuMsP50").fixed(st.percentile(0.5f), 4).key("cpuMsP95").fixed(st.percentile(0.95f), 4);
  w.integer("framesDrawn", static_cast<long long>(st.frames_drawn)).integer("ticks", static_cast<long long>(st.ticks));
  w.key("wasmHeapBytes").fixed(heap, 0);
  w.array("canvasCss").integer(p.width).integer(p.height).end().array("canvasPx").integer(p.drawable_w).integer(p.drawable_h).end();
  w.key("pixelRatio").fixed(p.pixel_ratio, 3);
  return answer(w.end().take());
}

// --- scenario, path and playback, for window.tierscope, share links and postMessage -------------------
// Each returns {ok, errors:[{code, field, value, allowed, message}]} unless said otherwise.

TS_EXPORT const char* ts_bridge_state_json() {
  if (!bridge::g_app) return "{}";
  return answer(app::state_json(*bridge::g_app));
}

// The canvas's rectangles of the last drawn frame (CSS px, canvas-relative), for the visual tests.
TS_EXPORT const char* ts_bridge_layout_json() {
  if (!bridge::g_app) return "{}";
  return answer(ui::layout_json(*bridge::g_app));
}

TS_EXPORT const char* ts_bridge_ledger_json() {
  if (!bridge::g_app) return "{}";
  return answer(anim::ledger_to_json(bridge::g_app->ledger));
}

// Every name and label the page shows, for the model at hand (app::catalog_json). The page reads it again
// when the scenario changes.
TS_EXPORT const char* ts_bridge_catalog_json() {
  if (!bridge::g_app) return "{}";
  return answer(app::catalog_json(*bridge::g_app));
}

// The ledger panel's rows with their numbers as text, narrowed by an endpoint key and an object key (empty
// strings: any). Bad keys give {ok:false, errors}.
TS_EXPORT const char* ts_bridge_ledger_view_json(const char* tier, const char* object) {
  if (!bridge::g_app) return not_ready();
  std::string_view t, o;
  if (!text_arg(tier, t, 64)) return bad_arg("tier", 64);
  if (!text_arg(object, o, 64)) return bad_arg("object", 64);
  model::Errors errors;
  anim::LedgerFilter filter;
  if (!anim::parse_ledger_filter(t, o, filter, errors)) return answer_errors(errors);
  return answer(app::ledger_view_json(*bridge::g_app, filter));
}

// A download as {ok, errors, text}: `what` is "ledger", "figures", "card" or "fleet", `format` "csv" or
// "json"; the text is byte for byte what the command line writes (`tierscope ledger|figures|check-card|fleet`).
TS_EXPORT const char* ts_bridge_export(const char* what, const char* format, const char* tier, const char* object) {
  if (!bridge::g_app) return not_ready();
  std::string_view w, f, t, o;
  if (!text_arg(what, w, 64)) return bad_arg("what", 64);
  if (!text_arg(format, f, 64)) return bad_arg("format", 64);
  if (!text_arg(tier, t, 64)) return bad_arg("tier", 64);
  if (!text_arg(object, o, 64)) return bad_arg("object", 64);
  model::Errors errors;
  std::string text;
  bool ok = false;
  if (w == "ledger") {
    anim::LedgerFilter filter;
    ok = anim::parse_ledger_filter(t, o, filter, errors) && app::ledger_export(*bridge::g_app, f, filter, text, errors);
  } else if (w == "figures") {
    ok = app::figures_export(*bridge::g_app, f, text, errors);
  } else if (w == "card") {
    ok = app::card_export(*bridge::g_app, f, text, errors);
  } else if (w == "figures-pinned" || w == "ledger-pinned") {
    ok = app::pinned_export(*bridge::g_app, w, f, text, errors);
  } else if (w == "fleet") {
    ok = app::fleet_export(*bridge::g_app, f, text, errors);  // `tierscope fleet --format csv|json`
  } else {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "what", w, "ledger, figures, card, figures-pinned, ledger-pinned or fleet"));
  }
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  if (ok) out.str("text", text);
  return answer(out.end().take());
}

// A fleet run's chart as {ok, errors, chart, f64}: `name` is a fleet chart's key (the scenario's charts come
// from the worker module: web/worker.js), `options` JSON text (see charts/chart_options.h), for fleet
// charts none. The chart is what `tierscope chart NAME --format json` prints, except that its
// per-point arrays are {"f64":[at,count]}: doubles from the address `f64`, valid until the next call (the
// page copies them at once; web/lib/bridge.mjs puts them back in place).
TS_EXPORT const char* ts_bridge_chart(const char* name, const char* options) {
  if (!bridge::g_app) return not_ready();
  std::string_view n, o;
  if (!text_arg(name, n, 64)) return bad_arg("name", 64);
  if (!text_arg(options, o)) return bad_arg("options");
  static std::vector<double> numbers;
  numbers.clear();
  model::Errors errors;
  std::string chart;
  const bool ok = app::run_chart_json(*bridge::g_app, n, o, chart, errors, &numbers);
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  if (ok) out.key("chart").raw(chart).integer("f64", static_cast<long long>(reinterpret_cast<std::uintptr_t>(numbers.data())));
  return answer(out.end().take());
}

TS_EXPORT const char* ts_bridge_view_hash() {
  if (!bridge::g_app) return "";
  return answer(app::view_hash(*bridge::g_app));
}

// Applies a link's hash (link/view_codec.h). Returns {ok, errors, pathGiven, tour}: whether the link named
// a path, and its walkthrough step (the page opens that step's entry when no path was given).
TS_EXPORT const char* ts_bridge_apply_hash(const char* hash) {
  if (!bridge::g_app) return not_ready();
  std::string_view h;
  // Read up to four times what a link may hold, so the codec names a link over it by its size.
  if (!text_arg(hash, h, 4 * model::kMaxLinkBytes)) return bad_arg("hash", model::kMaxLinkBytes);
  model::Errors errors;
  app::HashInfo info;
  app::apply_hash(*bridge::g_app, h, errors, &info);
  after_change();
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  out.boolean("pathGiven", info.path_given).integer("tour", info.tour);
  return answer(out.end().take());
}

// The walkthrough step the reader moved to (1 to the number of steps; 0: none): the share link carries it.
// The page's view ("", "fleet" or "chart-<key>") and the sweep chart's choice, for the share link: {ok, errors}.
TS_EXPORT const char* ts_bridge_set_view(const char* view, const char* sweep) {
  if (!bridge::g_app) return not_ready();
  std::string_view v, w;
  if (!text_arg(view, v, 64)) return bad_arg("view", 64);
  if (!text_arg(sweep, w, 256)) return bad_arg("sweep", 256);
  model::Errors errors;
  app::set_view(*bridge::g_app, v, w, errors);
  return answer_errors(errors);
}

// The Serve panel's settings ("concurrency:64,input:1024"), for the share link: {ok, errors}; state().serve
// then gives them in their one spelling.
TS_EXPORT const char* ts_bridge_set_serve(const char* settings) {
  if (!bridge::g_app) return not_ready();
  std::string_view s;
  if (!text_arg(settings, s, serve::kMaxServeSettingsBytes)) return bad_arg("serve", serve::kMaxServeSettingsBytes);
  model::Errors errors;
  app::set_serve(*bridge::g_app, s, errors);
  return answer_errors(errors);
}

// The Serve panel's replayed steps for the canvas: each step's KV written and reserved as shares of the
// instance's room ("0.1,0.2,…", as many of each) and the step on screen (-1: none): {ok, errors}.
TS_EXPORT const char* ts_bridge_serve_steps(const char* written, const char* reserved, int step) {
  if (!bridge::g_app) return not_ready();
  std::string_view w, r;
  if (!text_arg(written, w, 200000)) return bad_arg("written", 200000);
  if (!text_arg(reserved, r, 200000)) return bad_arg("reserved", 200000);
  model::Errors errors;
  if (app::set_serve_steps(*bridge::g_app, w, r, step, errors) && bridge::g_platform) bridge::g_platform->pacer.request();
  return answer_errors(errors);
}

// The figures for the page's table and walkthrough (app::figures_view_json): those named in `ids`
// (comma-separated), or all of them when it is empty.
TS_EXPORT const char* ts_bridge_figures_view_json(const char* ids) {
  if (!bridge::g_app) return not_ready();
  std::string_view list;
  if (!text_arg(ids, list, 4096)) return bad_arg("ids", 4096);
  return answer(app::figures_view_json(*bridge::g_app, list));
}

// The comparison (app::compare_json): null when nothing is pinned.
TS_EXPORT const char* ts_bridge_compare_json() {
  if (!bridge::g_app) return not_ready();
  return answer(app::compare_json(*bridge::g_app));
}

// Pins the current scenario as A of a comparison (1) or ends it (0).
TS_EXPORT const char* ts_bridge_set_compare(int on) {
  if (!bridge::g_app) return not_ready();
  app::set_compare(*bridge::g_app, on != 0);
  return answer_errors({});
}

// Opens a walkthrough step (-1: its first screen; 1 to N), playing its path from the start when `play` is 1
// (app::open_tour_step decides the path and the entry). Returns {ok, errors}.
TS_EXPORT const char* ts_bridge_open_tour_step(int tour, int play) {
  if (!bridge::g_app) return not_ready();
  model::Errors errors;
  app::open_tour_step(*bridge::g_app, tour, play != 0, errors);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT const char* ts_bridge_set_path(const char* key) {
  if (!bridge::g_app) return not_ready();
  std::string_view k;
  if (!text_arg(key, k)) return bad_arg("path");
  model::Errors errors;
  app::set_path(*bridge::g_app, k, errors);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT const char* ts_bridge_set_param(const char* key, const char* value) {
  if (!bridge::g_app) return not_ready();
  std::string_view k, v;
  if (!text_arg(key, k)) return bad_arg("key");
  if (!text_arg(value, v)) return bad_arg("value");
  model::Errors errors;
  std::vector<app::Adjustment> moved;
  app::set_param(*bridge::g_app, k, v, errors, &moved);
  after_change();
  return answer(app::result_json(errors, moved));
}

// Replaces the scenario by the one a link's scenario keys name, keeping the path and the view: how an
// import read in the worker module (web/worker.js, its {scenarioHash}) reaches the canvas, so this module
// carries no config.json reader. Returns {ok, errors}; nothing changes on error.
TS_EXPORT const char* ts_bridge_apply_scenario(const char* hash) {
  if (!bridge::g_app) return not_ready();
  std::string_view h;
  if (!text_arg(hash, h)) return bad_arg("scenario");
  model::Errors errors;
  app::apply_scenario_hash(*bridge::g_app, h, errors);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT const char* ts_bridge_seek(int step) {
  if (!bridge::g_app) return not_ready();
  model::Errors errors;
  app::seek(*bridge::g_app, step, errors);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT const char* ts_bridge_step(int delta) {
  if (!bridge::g_app) return not_ready();
  model::Errors errors;
  if (delta < -1000 || delta > 1000)
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "delta", std::to_string(delta), "an integer from -1000 to 1000"));
  else app::step_by(*bridge::g_app, delta);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT const char* ts_bridge_set_speed(double speed) {
  if (!bridge::g_app) return not_ready();
  model::Errors errors;
  app::set_speed(*bridge::g_app, speed, errors);
  after_change();
  return answer_errors(errors);
}

TS_EXPORT void ts_bridge_play() {
  if (!bridge::g_app) return;
  app::play(*bridge::g_app);
  after_change();
}

TS_EXPORT void ts_bridge_pause() {
  if (!bridge::g_app) return;
  app::pause(*bridge::g_app);
  after_change();
}

// The page shows playback/status (playback) and the counters (counters) itself: the canvas then leaves
// them out of its toolbar. Each flag is 0 or 1.
TS_EXPORT const char* ts_bridge_set_host_controls(int playback, int counters) {
  if (!bridge::g_app) return not_ready();
  model::Errors errors;
  if (playback != 0 && playback != 1)
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "playback", std::to_string(playback), "0 or 1"));
  if (counters != 0 && counters != 1)
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "counters", std::to_string(counters), "0 or 1"));
  if (errors.empty()) {
    bridge::g_app->canvas.host_playback = playback == 1;
    bridge::g_app->canvas.host_counters = counters == 1;
  }
  after_change();
  return answer_errors(errors);
}

// --- the fleet view: a simulated day, computed in the page's worker, shown here ----------------------

namespace {
// {ok, errors, …, fleet}: the answer's object, its members so far written, closed with the view's state.
// A run's view: its hours and five-minute samples (a day is about 60 kB; a week's run well under this).
constexpr std::size_t kMaxFleetViewBytes = std::size_t{16} << 20;
std::string with_fleet(model::JsonWriter& out) {
  out.key("fleet").raw(app::fleet_state_json(*bridge::g_app));
  return out.end().take();
}
}  // namespace

// The run is computed in the page's worker (web/worker.js, sim::FleetRun there); the page hands its views
// to the app here. `view` is sim::fleet_view_text's, `sweep` the tier the run was started with ("" for
// none), `new_run` 1 for the first view of a run (the clock starts again). Returns {ok, errors, fleet}; a
// text that does not read leaves the view on screen as it was.
TS_EXPORT const char* ts_bridge_fleet_adopt(const char* view, const char* sweep, int new_run) {
  if (!bridge::g_app) return not_ready();
  std::string_view v, w;
  if (!text_arg(view, v, kMaxFleetViewBytes)) return bad_arg("view", kMaxFleetViewBytes);
  if (!text_arg(sweep, w, 16)) return bad_arg("sweep", 16);
  model::Errors errors;
  app::App& app = *bridge::g_app;
  const std::uint64_t revision = app.revision;
  app::fleet_adopt(app, v, w, new_run == 1, errors);
  // The canvas and the page change only when the run crosses an hour, starts or ends.
  if (app.revision != revision) after_change();
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  return answer(with_fleet(out));
}

// Where the worker's run is between its views: its progress (0 to 1) and simulated time. Returns {ok,
// errors, fleet}, the view's state with the new words for the progress line.
TS_EXPORT const char* ts_bridge_fleet_progress(double progress, double now) {
  if (!bridge::g_app) return not_ready();
  app::fleet_progress(*bridge::g_app, progress, now);
  model::JsonWriter out;
  out.object();
  app::errors_members(out, model::Errors{});
  return answer(with_fleet(out));
}

// {"started","done","t_s","horizon_s","progress"} of the run (app::fleet_status_json).
TS_EXPORT const char* ts_bridge_fleet_status_json() {
  if (!bridge::g_app) return "{}";
  return answer(app::fleet_status_json(*bridge::g_app));
}

// The run's results as `tierscope fleet --format json` prints them ("null" before a start).
TS_EXPORT const char* ts_bridge_fleet_json() {
  if (!bridge::g_app) return "null";
  return answer(app::fleet_json(*bridge::g_app));
}

// Drops the run (the page's Cancel).
TS_EXPORT void ts_bridge_fleet_cancel() {
  if (!bridge::g_app) return;
  app::fleet_cancel(*bridge::g_app);
  after_change();
}
