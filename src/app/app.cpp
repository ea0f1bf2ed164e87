// The app controller: every change to the scenario, the path or the playback goes through here, so the
// figures, the ledger, the time map and the state at this moment never disagree.
//
// Sections: init and the scenario · parameter edits, presets and imports · path and playback · panels and the
// selection · tick · share links (apply_hash, view_hash) and the page's view · comparison and the walkthrough
// · policy_label.
#include "app/app.h"

#include "anim/format.h"
#include "base/text.h"
#include "codec/json_codec.h"
#include "codec/serve_spec.h"
#include "codec/url_codec.h"
#include "hf/hf_config.h"
#include "link/view_codec.h"
#include "model/params.h"
#include "model/presets.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace tierscope::app {

namespace {

// Panel keys are the view codec's (link/view_codec.h): links, the bridge and the catalog read them there.
constexpr const auto& kPanelKeys = model::kPanelKeys;
static_assert(kPanelKeys.size() == static_cast<std::size_t>(kPanelCount));
constexpr anim::PathId kDefaultPath = anim::PathId::Decode;

// The figures of the scenario on screen, and while it cannot run the ways out of it.
void describe_scenario(App& app) {
  app.figures = model::describe(app.scenario);
  if (app.figures.computed.terms.feasible()) app.fixes.clear();
  else app.fixes = model::setup_fixes(app.scenario);
}

void refresh_state(App& app) {
  app.state = anim::state_at(app.ledger, app.playback.step, app.playback.fraction);
  app.animating = app.playback.playing;
}

void changed(App& app) {
  refresh_state(app);
  ++app.revision;
}

void rebuild_ledger(App& app) {
  app.ledger = anim::build_ledger(app.scenario, app.figures, app.playback.path);
  app.time_map = anim::time_map(app.ledger);
  const int steps = static_cast<int>(app.ledger.entries.size());
  if (app.playback.step >= steps) {
    app.playback.step = steps > 0 ? steps - 1 : 0;
    app.playback.fraction = 0;
  }
}

std::string speed_allowed() { return model::speed_allowed_text(); }

}  // namespace

const char* panel_key(Panel p) { return kPanelKeys[static_cast<int>(p)]; }

void init(App& app) {
  init_figures(app);
  init_ledger(app);
}

void init_figures(App& app) {
  app.scenario = model::default_scenario();
  describe_scenario(app);
}

void init_ledger(App& app) {
  app.playback = anim::Playback{};
  app.playback.path = kDefaultPath;
  app.panels = kDefaultPanels;
  rebuild_ledger(app);
  changed(app);
}

void set_scenario(App& app, const model::Scenario& s) {
  app.scenario = s;
  describe_scenario(app);
  if (app.selected_figure >= static_cast<int>(app.figures.list.size())) app.selected_figure = -1;
  rebuild_ledger(app);
  changed(app);
}

namespace {

// One edit on a copy of `s`, then the cross-field check: `s` changes only when both pass.
template <class Edit>
bool checked_edit(model::Scenario& s, model::Errors& errors, Edit edit) {
  model::Scenario next = s;
  model::Error err;
  if (!edit(next, err)) {
    errors.push_back(err);
    return false;
  }
  model::Errors cross = model::validate(next);
  if (!cross.empty()) {
    errors.insert(errors.end(), cross.begin(), cross.end());
    return false;
  }
  s = next;
  return true;
}

}  // namespace

bool edit_param_rules(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                      std::vector<Adjustment>& adjustments, model::Errors& errors) {
  std::vector<Adjustment> moved;
  if (!checked_edit(s, errors, [&](model::Scenario& next, model::Error& err) { return model::edit_param(next, def, value, moved, err); }))
    return false;
  adjustments.insert(adjustments.end(), moved.begin(), moved.end());
  return true;
}

bool edit_param_plain(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                      std::vector<Adjustment>& adjustments, model::Errors& errors) {
  (void)adjustments;  // a plain set moves nothing else
  return checked_edit(s, errors, [&](model::Scenario& next, model::Error& err) { return model::set_param_text(next, def, value, err); });
}

bool set_param(App& app, std::string_view key, std::string_view value, model::Errors& errors,
               std::vector<Adjustment>* adjustments) {
  if (key == "preset") return set_preset(app, value, errors);
  const model::ParamDef* def = model::find_param(key);
  if (!def) {
    errors.push_back(model::make_error(model::ErrorCode::UnknownKey, key, value,
                                       "preset or a scenario parameter key (see docs/model.md)"));
    return false;
  }
  model::Scenario next = app.scenario;
  std::vector<Adjustment> moved;
  if (!app.edit(next, *def, value, moved, errors)) return false;
  if (!moved.empty()) {
    app.adjustments = moved;
    ++app.adjustments_seq;
  }
  if (adjustments) *adjustments = std::move(moved);
  set_scenario(app, next);
  return true;
}

bool set_preset(App& app, std::string_view name, model::Errors& errors) {
  model::Scenario next;
  if (!model::make_preset(name, next)) {
    errors.push_back(model::make_error(model::ErrorCode::UnknownPreset, "preset", name, model::preset_names_allowed()));
    return false;
  }
  set_scenario(app, next);
  return true;
}

bool config_scenario(model::Scenario& s, std::string_view json, std::string_view file, model::Errors& errors,
                     std::vector<std::string>& notes, std::string_view quant) {
  model::Scenario next = s;
  model::Errors errs;
  std::vector<std::string> said;
  if (!model::apply_hf_config(next, json, file, errs, said, quant)) {
    errors.insert(errors.end(), errs.begin(), errs.end());
    return false;
  }
  notes.insert(notes.end(), said.begin(), said.end());
  // The workload stays as it was; say when it asks for more context than the new model was trained for.
  const model::Workload& w = next.work;
  const int max_pos = next.model.max_pos;
  if (max_pos > 0 && (w.ctx > max_pos || w.prompt > max_pos)) {
    notes.push_back("context: ctx " + std::to_string(w.ctx) + " and prompt " + std::to_string(w.prompt) + " tokens against the model's " +
                    std::to_string(max_pos) + " trained positions; timed figures are not computed until they fit");
  }
  s = std::move(next);
  return true;
}

bool load_config(App& app, std::string_view json, model::Errors& errors, std::vector<std::string>& notes, std::string_view file) {
  model::Scenario next = app.scenario;
  if (!config_scenario(next, json, file, errors, notes)) return false;
  set_scenario(app, next);
  return true;
}

bool apply_scenario_hash(App& app, std::string_view hash, model::Errors& errors) {
  model::Scenario next;
  if (!model::scenario_from_hash(hash, next, errors)) return false;
  set_scenario(app, next);
  return true;
}

void set_path(App& app, anim::PathId path) {
  if (fleet_view(app)) {  // choosing a path leaves the fleet view
    model::Errors none;    // "" is always a known view
    set_view(app, "", none);
  }
  // Once the reader has used the walkthrough, its step is the one that tells the path on screen; its first
  // screen stays while its path does (another path leaves it).
  const std::string key = anim::path_key(path);
  if (app.tour != 0 && !(app.tour == model::kTourIntro && key == model::tour_path(model::kTourIntro)))
    app.tour = model::path_index(key) + 1;
  // The same path keeps its ledger: it follows the scenario already.
  const bool rebuild = path != app.playback.path || app.ledger.entries.empty();
  app.playback.path = path;
  app.playback.step = 0;
  app.playback.fraction = 0;
  app.playback.playing = false;
  if (rebuild) rebuild_ledger(app);
  changed(app);
}

bool set_path(App& app, std::string_view key, model::Errors& errors) {
  anim::PathId path;
  model::Error err;
  if (!anim::parse_path(key, path, err)) {
    errors.push_back(err);
    return false;
  }
  set_path(app, path);
  return true;
}

void play(App& app) {
  if (fleet_view(app)) return fleet_play(app);
  app.serve_step = -1;  // playing a path leaves a replayed step the Serve view showed
  anim::play(app.playback, app.time_map);
  changed(app);
}

void pause(App& app) {
  if (fleet_view(app)) return fleet_pause(app);
  anim::pause(app.playback);
  changed(app);
}

void toggle_play(App& app) {
  if (fleet_view(app)) return app.fleet_clock.playing ? fleet_pause(app) : fleet_play(app);
  app.serve_step = -1;
  anim::toggle(app.playback, app.time_map);
  changed(app);
}

void step_by(App& app, int delta) {
  if (fleet_view(app)) return fleet_step(app, delta);
  for (int i = 0; i < delta; ++i) anim::step_forward(app.playback, app.time_map);
  for (int i = 0; i > delta; --i) anim::step_back(app.playback, app.time_map);
  changed(app);
}

bool seek(App& app, int step, model::Errors& errors) {
  // In the fleet view a step is an hour of the run.
  const int steps = fleet_view(app) ? fleet_hours(app) : static_cast<int>(app.ledger.entries.size());
  if (step < 0 || step >= steps) {
    std::string allowed;
    model::appendf(allowed, steps > 0 ? "an integer from 0 to %d" : "0 (this path has no steps for this model)",
                   steps - 1);
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "step", std::to_string(step), allowed));
    return false;
  }
  seek_clamped(app, step);
  return true;
}

void seek_clamped(App& app, int step) {
  if (fleet_view(app)) return fleet_seek_hour(app, step);
  anim::seek(app.playback, app.time_map, step);
  changed(app);
}

void scrub(App& app, double screen_seconds) {
  const int before = app.playback.step;
  anim::scrub(app.playback, app.time_map, screen_seconds);
  refresh_state(app);
  if (app.playback.step != before) ++app.revision;
}

bool set_speed(App& app, double speed, model::Errors& errors) {
  if (!std::isfinite(speed) || speed < anim::kMinSpeed || speed > anim::kMaxSpeed) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", speed);
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "speed", value, speed_allowed()));
    return false;
  }
  anim::set_speed(app.playback, speed);
  changed(app);
  return true;
}

void set_panel(App& app, Panel p, bool open) {
  const std::uint32_t bit = 1u << static_cast<int>(p);
  const std::uint32_t next = open ? (app.panels | bit) : (app.panels & ~bit);
  if (next == app.panels) return;
  app.panels = next;
  ++app.revision;
}

bool panel_open(const App& app, Panel p) { return (app.panels >> static_cast<int>(p)) & 1u; }

bool panel_area_wanted(const App& app) {
  if (app.help_open) return true;
  for (const Panel p : {Panel::Scenario, Panel::Modes, Panel::Card, Panel::Figures})
    if (panel_open(app, p)) return true;
  return panel_open(app, Panel::Inspector) &&
         (app.selected.valid() || app.selected_figure >= 0 || app.inspector_shown);
}

bool set_selection(App& app, CanvasTarget target, std::string id, std::string name, std::string detail) {
  if (app.selected == target && app.selection_id == id && app.selection_detail == detail) return false;
  const bool another = target.valid() && !(app.selected == target);
  app.selected = target;
  app.selection_id = std::move(id);
  app.selection_name = std::move(name);
  app.selection_detail = std::move(detail);
  ++app.revision;
  return another;
}

std::string object_name(const App& app, anim::ObjectKind o) { return anim::object_label(o, app.scenario.model); }

std::string endpoint_name(const App& app, anim::Endpoint e) { return anim::endpoint_label(e, app.scenario.model); }

bool tick(App& app, double dt_seconds) {
  if (fleet_view(app)) return fleet_tick(app, dt_seconds);
  if (!app.playback.playing) return false;
  const int before = app.playback.step;
  const bool moved = anim::advance(app.playback, app.time_map, dt_seconds);
  refresh_state(app);
  // The page hears about step changes and the end of play, not about every frame.
  if (app.playback.step != before || !app.playback.playing) ++app.revision;
  return moved;
}

bool apply_hash(App& app, std::string_view hash, model::Errors& errors, HashInfo* info) {
  const std::size_t errors_before = errors.size();
  model::ViewState v;
  model::parse_view(hash, v, errors);
  // A hash too large to read changes nothing (the codec has named it).
  if (hash.size() > model::kMaxLinkBytes + (hash.starts_with('#') ? 1 : 0)) return false;
  // A walkthrough step without a path opens the path that step tells.
  const std::string key = model::link_path(v);
  const anim::PathId path = key.empty() ? kDefaultPath : static_cast<anim::PathId>(model::path_index(key));
  if (info) {
    info->path_given = !v.path.empty();
    info->tour = v.tour;
  }

  // A link to the scenario and path on screen (the page reading its own address once the app has started)
  // keeps the figures and the ledger: they would come out the same.
  // The page's own link of a loaded model names the same model: keep the sources the import gave it.
  if (app.scenario.origin && v.scenario.origin && model::scenario_equal(app.scenario, v.scenario)) v.scenario.origin = app.scenario.origin;
  const bool same = model::scenario_equal(app.scenario, v.scenario) && app.scenario.origin == v.scenario.origin &&
                    app.playback.path == path && !app.ledger.entries.empty();
  if (!v.followed.empty()) {
    app.adjustments = v.followed;
    ++app.adjustments_seq;
  }
  app.selected_figure = -1;
  if (same) app.scenario = v.scenario;  // equal: its figures and ledger stand
  else set_scenario(app, v.scenario);
  // The rest through the setters a reader's own choices use, so their rules hold for a link too (one clock
  // plays; another path leaves the fleet view). The codec has checked each value; only the step's range
  // is known here, from the path's ledger.
  set_path(app, path);
  if (v.step >= 0) {
    const int steps = static_cast<int>(app.ledger.entries.size());
    if (v.step >= steps) {
      std::string allowed;
      model::appendf(allowed, "an integer from 0 to %d for this path", steps - 1);
      errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "step", std::to_string(v.step), allowed));
    } else {
      seek_clamped(app, v.step);
    }
  }
  set_speed(app, v.speed > 0 ? v.speed : anim::Playback{}.speed, errors);
  for (int i = 0; i < kPanelCount; ++i) {
    const std::uint32_t panels = v.panels_given ? v.panels : kDefaultPanels;
    set_panel(app, static_cast<Panel>(i), (panels >> i) & 1u);
  }
  set_tour(app, v.tour, errors);
  // A walkthrough step without a path opens on the entry it talks about.
  if (v.tour != 0 && v.path.empty()) seek_clamped(app, tour_entry_index(app, v.tour));
  // The comparison's A comes whole from the link (pinning takes the scenario on screen instead).
  app.comparing = v.compare;
  if (v.compare) {
    app.pinned = v.compare_scenario;
    app.pinned_figures = model::describe(app.pinned);
  }
  set_view(app, v.view, v.sweep, errors);
  app.serve = v.serve;  // read and spelled by the view codec
  changed(app);
  return errors.size() == errors_before;
}

std::string view_hash(const App& app) {
  model::ViewState v;
  v.scenario = app.scenario;
  v.path = anim::path_key(app.playback.path);
  v.step = app.playback.step;
  v.speed = app.playback.speed;
  v.panels_given = app.panels != kDefaultPanels;
  v.panels = app.panels;
  v.view = app.view;
  v.sweep = app.sweep;
  v.serve = app.serve;
  v.compare = app.comparing;
  if (app.comparing) v.compare_scenario = app.pinned;
  // Once the reader has used the walkthrough, the link names its step, which always tells the path on screen.
  // The walkthrough's first screen is named as such (it sits on the first step's path).
  v.tour = app.tour == model::kTourIntro ? model::kTourIntro : app.tour > 0 ? model::path_index(v.path) + 1 : 0;
  return model::view_to_hash(v);
}

bool set_view(App& app, std::string_view view, std::string_view sweep, model::Errors& errors) {
  // The view codec is the one judge of what a view and a sweep may be: the same checks a link's keys get.
  const std::size_t before = errors.size();
  if (!model::view_known(view)) errors.push_back(model::make_error(model::ErrorCode::BadEnum, "view", view, model::views_allowed_text()));
  if (!sweep.empty() && !model::sweep_known(sweep))
    errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "sweep", sweep, model::sweep_allowed_text()));
  if (errors.size() != before) return false;
  if (view != app.view || sweep != app.sweep) {
    // One clock plays at a time: the fleet view's or the path's.
    const bool to_fleet = view == model::kFleetView;
    if (to_fleet && app.playback.playing) pause(app);
    if (!to_fleet) app.fleet_clock.playing = false;
    if (view != model::kServeView) app.serve_step = -1;  // the replayed steps belong to the Serve view
    app.view = std::string(view);
    app.sweep = std::string(sweep);
    ++app.revision;
  }
  return true;
}

bool set_serve(App& app, std::string_view settings, model::Errors& errors) {
  serve::ServeSpec spec;
  if (!serve::serve_settings_from_text(settings, spec, errors)) return false;
  std::string text = serve::serve_settings_text(spec);
  if (text != app.serve) {
    app.serve = std::move(text);
    ++app.revision;
  }
  return true;
}

void set_compare(App& app, bool on) {
  if (on) {
    app.pinned = app.scenario;
    app.pinned_figures = app.figures;
  }
  if (on || app.comparing) ++app.revision;
  app.comparing = on;
}

bool set_tour(App& app, int tour, model::Errors& errors) {
  if ((tour < 0 && tour != model::kTourIntro) || tour > model::kTourSteps) {
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "tour", std::to_string(tour),
                                       "0 (none), " + std::to_string(model::kTourIntro) + " (the first screen) or a walkthrough step from 1 to " +
                                           std::to_string(model::kTourSteps)));
    return false;
  }
  if (tour != app.tour) {
    app.tour = tour;
    ++app.revision;
  }
  return true;
}

int tour_entry_index(const App& app, int tour) {
  const model::TourEntry want = model::tour_entry(tour);
  if (want.step.empty()) return 0;
  for (const anim::LedgerEntry& e : app.ledger.entries)
    if (e.step == want.step && (want.phase.empty() || e.phase == want.phase)) return e.index;
  return 0;
}

bool open_tour_step(App& app, int tour, bool play_it, model::Errors& errors) {
  if ((tour < 1 && tour != model::kTourIntro) || tour > model::kTourSteps) {
    errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "tour", std::to_string(tour),
                                       std::to_string(model::kTourIntro) + " (the first screen) or a walkthrough step from 1 to " +
                                           std::to_string(model::kTourSteps)));
    return false;
  }
  set_path(app, static_cast<anim::PathId>(model::path_index(model::tour_path(tour))));  // leaves the fleet view
  set_tour(app, tour, errors);
  if (play_it) play(app);
  else seek_clamped(app, tour_entry_index(app, tour));
  return true;
}

std::string policy_label(const model::Scenario& s) {
  const model::ModelArch& m = s.model;
  const std::string fmt = model::format_info(m.kv_fmt).key;
  std::string family = fmt.substr(0, fmt.find('_'));
  for (char& c : family) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (model::has_indexer(m)) return family + " global KV";
  if (m.attn == model::AttnKind::MLA) return family + " MLA latent KV";
  return family + " KV per layer";
}

}  // namespace tierscope::app
