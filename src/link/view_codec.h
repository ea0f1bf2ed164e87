// The view in a share link's hash, read and written in one place: the scenario (preset and overrides),
// the path, step, speed, open panels, the walkthrough step and the page's view keys. The app, the page
// (through the bridge) and `tierscope … --hash` all go through it.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

#include "anim/ledger.h"
#include "anim/playback.h"
#include "base/errors.h"
#include "codec/serve_spec.h"
#include "model/params.h"
#include "model/scenario.h"

namespace tierscope::model {

// The animations' keys and the playback speeds are the animation's own (anim/ledger.h, anim/playback.h);
// the link names them by those lists.
using anim::kPathKeys;
using anim::kMinSpeed;
using anim::kMaxSpeed;
using anim::kSpeedChoices;
// The canvas's panels, as bits in this order ("panels=scenario,card"); the page's names for them are the
// app's (app/page_json.cpp, by key).
inline constexpr std::array<const char*, 5> kPanelKeys = {"scenario", "modes", "card", "inspector", "figures"};
// The walkthrough tells one path per step, in path order: `tour=N` is the step that tells path N.
constexpr int kTourSteps = static_cast<int>(kPathKeys.size());
// `tour=intro`: the walkthrough's first screen (what the page shows, the four tiers), before step 1. It
// sits on step 1's path, so a link to it opens that path; the numbered steps keep their numbers.
constexpr int kTourIntro = -1;
constexpr std::string_view kTourIntroKey = "intro";
// The path a walkthrough step (kTourIntro or 1 to kTourSteps) tells; "" for 0 (none).
std::string tour_path(int tour);
// The ledger entry a walkthrough step (1 to kTourSteps) opens on: the first of its path with this step key
// and, when given, this phase ("restore" of a "hit"). The first screen opens its path's first entry.
struct TourEntry {
  std::string_view step;
  std::string_view phase;
};
TourEntry tour_entry(int tour);
// `view=` values: a chart of the page ("chart-roofline"), or the fleet view (a simulated day of traffic
// through the tiers, run from the link's scenario and its fleet keys).
constexpr std::string_view kChartViewPrefix = "chart-";
constexpr std::string_view kFleetView = "fleet";
// The Serve panel: a serving benchmark of the link's scenario, replayed with its `serve=` settings.
constexpr std::string_view kServeView = "serve";
// Whether `view` is "", "fleet", "serve" or "chart-<chart key>"; views_allowed_text() says so in words.
bool view_known(std::string_view view);
std::string views_allowed_text();
// Whether `sweep` is a sweep chart's choice a link may carry: "FIGURE:X" or "FIGURE:X:FAMILY:V1,V2" (a figure
// id, a numeric parameter, another parameter and its values); sweep_allowed_text() says so in words.
bool sweep_known(std::string_view sweep);
std::string sweep_allowed_text();

// A hash as read. Fields a link does not give keep these defaults; a refused key keeps its default too.
struct ViewState {
  Scenario scenario;          // the preset with the overrides that were accepted
  Adjustments followed;       // fields the link left out that followed its keys (gpus=1 moves tp), each said
  std::string path;           // a key of kPathKeys; empty: not given
  int step = -1;              // -1: not given. Its range depends on the path's ledger: the app checks it
  double speed = 0;           // 0: not given; else within [kMinSpeed, kMaxSpeed]
  bool panels_given = false;
  std::uint32_t panels = 0;   // bits in kPanelKeys order
  int tour = 0;               // 0: not given; kTourIntro; else 1 to kTourSteps (consistent with `path` when both given)
  std::string view;           // "", "fleet", "serve" or "chart-<key>"
  // A comparison: scenario A pinned beside the current one (B). The link carries A as `cmp=PRESET` and
  // `cmp_KEY=VALUE` for each of A's overrides, so it reopens the same comparison.
  bool compare = false;
  Scenario compare_scenario;
  // The sweep chart's choice: "FIGURE:X" or "FIGURE:X:FAMILY:V1,V2" ("" when not given).
  std::string sweep;
  // The Serve panel's settings in their one spelling (serve::serve_settings_text; "" when none are given).
  std::string serve;
  bool embed = false;
};

// A key of the view a link carries beside the scenario's: how its value is read into a ViewState and written
// back. One row per key (link_keys()): parse_view, view_to_hash, is_view_key and the message naming what a
// link may hold read the rows, so a key added is one row (and the ViewState field it fills).
struct LinkKey {
  std::string_view key;
  // Reads `value` into `out`; a refusal is an error naming the key, which then keeps its default.
  void (*parse)(std::string_view value, ViewState& out, Errors& errors);
  // Appends "&key=value" when the view holds one; nullptr for an older link's key, read but never written.
  void (*write)(const ViewState& v, std::string& hash);
};
// In the order view_to_hash writes them, after the scenario's keys.
std::span<const LinkKey> link_keys();
// Whether `key` is one of the view's: a row of link_keys(), or "cmp_KEY" (a comparison's pinned scenario's KEY).
bool is_view_key(std::string_view key);
// What a link may hold: "preset, model, a scenario parameter (see `tierscope params`) or a view key: path, …".
std::string link_keys_allowed_text();

// The path a link opens: the one it names, else the one its walkthrough step tells ("" for neither).
std::string link_path(const ViewState& v);

// A link longer than this is refused whole before any parsing work (far above any link the page writes);
// below it each key=value part is read on its own, and a part over kMaxHashBytes is named and dropped.
constexpr std::size_t kMaxLinkBytes = 32 * 1024;

// Reads a hash ("#a=1&b=2" or without '#'). Tolerant: each bad key is an error naming it and is dropped,
// the rest applies (a hash over kMaxLinkBytes is refused whole). Returns true when nothing was refused.
bool parse_view(std::string_view hash, ViewState& out, Errors& errors);

// The canonical hash: the scenario's keys (scenario_to_hash), then path, step (when not 0), speed (when not
// 1), panels (when `panels_given`), view, embed, tour (each when given). No '#'.
std::string view_to_hash(const ViewState& v);

// Index of a path or panel key, or -1.
int path_index(std::string_view key);
int panel_index(std::string_view key);
// "prefill, decode, …" and "scenario, modes, …".
std::string path_keys_text();
std::string panel_keys_text();
// "a number from 0.25 to 8"
std::string speed_allowed_text();

}  // namespace tierscope::model
