// JSON for the page's DOM: the catalog, the ledger panel's rows, the downloads and the chart series, all
// built from the model's and the animations' own tables and writers.
//
// Sections: labels · the catalog (names, decode terms, serve settings, charts, counters) · the ledger panel's
// rows · downloads (figures, pinned, card) · charts · the figures view and the A/B comparison.
#include "app/page_json.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "anim/format.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "charts/chart_options.h"
#include "charts/charts.h"
#include "codec/serve_spec.h"
#include "codec/url_codec.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "link/view_codec.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/step_terms.h"
#include "roofline/sweep.h"
#include "sim/fleet_report.h"

namespace tierscope::app {

namespace {

using model::JsonWriter;

// {"key":…,"label":…}, left open for more members.
JsonWriter& key_label(JsonWriter& w, std::string_view key, std::string_view label) {
  return w.object().str("key", key).str("label", label);
}

// The page's name for a panel, by its key (link/view_codec.h's kPanelKeys).
const char* panel_label(std::string_view key) {
  struct Words {
    std::string_view key;
    const char* label;
  };
  static constexpr Words kLabels[] = {{"scenario", "Scenario"}, {"modes", "CSA2 modes"}, {"card", "Card check"}, {"inspector", "Inspector"}, {"figures", "Figures"}};
  static_assert(std::size(kLabels) == model::kPanelKeys.size(), "a name for every panel");
  for (const Words& w : kLabels)
    if (w.key == key) return w.label;
  return "";
}

// "¼×", "½×", "2×": the speed menu's words.
std::string speed_label(double v) {
  if (v == 0.25) return "¼×";
  if (v == 0.5) return "½×";
  return model::num(v) + "×";
}

}  // namespace

namespace {

// The animation's paths (with whether the model has anything for each to play), objects and places, the speed menu and the panels, in the app's order.
void catalog_names(JsonWriter& w, const App& app) {
  const model::ModelArch& m = app.scenario.model;
  w.array("paths");
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto p = static_cast<anim::PathId>(i);
    // Whether this model has anything for it to play, and the ledger entry its walkthrough step opens on.
    w.object().str("key", anim::path_key(p)).str("label", anim::path_label(p, m)).str("summary", anim::path_summary(p, m));
    w.boolean("applies", anim::path_applies(p, m)).str("opensOn", anim::path_def(p).tour_step).end();
  }
  w.end().array("objects");
  for (int i = 0; i < anim::kObjectCount; ++i) {
    const auto k = static_cast<anim::ObjectKind>(i);
    key_label(w, anim::object_key(k), object_name(app, k)).end();
  }
  w.end().array("endpoints");
  for (int i = 0; i < anim::kEndpointCount; ++i) {
    const auto e = static_cast<anim::Endpoint>(i);
    key_label(w, anim::endpoint_key(e), endpoint_name(app, e)).boolean("tier", anim::is_tier(e)).end();
  }
  w.end().array("speeds");
  for (const double v : model::kSpeedChoices) w.object().num("value", v).str("label", speed_label(v)).end();
  w.end().array("speedRange").num(model::kMinSpeed).num(model::kMaxSpeed).end();
  w.array("panels");
  for (const char* key : model::kPanelKeys) key_label(w, key, panel_label(key)).end();
  // The view's keys a link carries beside the scenario's (link/view_codec.h), in the order it writes them.
  w.end().array("linkKeys");
  for (const model::LinkKey& k : model::link_keys())
    if (k.write) w.str(k.key);
  w.end().object("errorCodes");
  for (int c = 1; c <= static_cast<int>(model::kLastErrorCode); ++c) {
    const auto code = static_cast<model::ErrorCode>(c);
    w.str(model::error_code_name(code), model::error_code_reason(code));
  }
  // How a refusal's message reads, in the pieces the app's own messages are made of (base/errors.h).
  w.end().object("errorWording").str("message", model::kErrorWording.message).str("allowed", model::kErrorWording.allowed);
  w.str("value", model::kErrorWording.value).str("emptyValue", model::kErrorWording.empty_value).str("emptyField", model::kErrorWording.empty_field);
  w.end().array("provenance");
  for (int i = 0; i < static_cast<int>(model::Provenance::Count); ++i) w.str(model::provenance_name(static_cast<model::Provenance>(i)));
  w.end();
}

// The walkthrough's words for each term of a decode step when it names the largest ("mostly …"), in
// DecodeTerm order (roofline/step_terms.h).
const char* decode_term_words(model::DecodeTerm t) {
  static constexpr const char* kWords[] = {"reading weights", "reading KV and index keys", "compute", "top-k selection", "the MoE all-to-all",
                                           "all-reduce between GPUs", "kernels waiting at their launch floor", "drafting",
                                           "waiting on Engram rows", "the host's scheduling and sampling", "prompt chunks riding the step"};
  static_assert(std::size(kWords) == static_cast<std::size_t>(model::DecodeTerm::Count), "words for every decode term");
  return kWords[static_cast<std::size_t>(t)];
}

// The terms one decode step's time splits into, as the breakdown chart stacks them: the walkthrough sums each
// term's figures and names the largest in these words, so it says what the chart and the CLI show.
void catalog_decode_terms(JsonWriter& w) {
  w.array("decodeTerms");
  for (const model::DecodeTermDef& t : model::kDecodeTerms) {
    if (t.serve_only) continue;  // a served step's prompt chunks: not a term of one decode step's figures
    key_label(w, t.key, t.label).str("words", decode_term_words(t.term)).array("figures");
    for (const model::FigureId f : t.figures) {
      if (f == model::FigureId::Count) break;
      w.str(model::figure_info(f).id);
    }
    w.end().end();
  }
  w.end();
}

// The page's words for a serve setting's choice in the Serve panel's menus ("" when it has none).
std::string serve_choice_label(std::string_view setting, std::string_view choice) {
  struct Words {
    std::string_view setting, choice, label;
  };
  static constexpr Words kWords[] = {
      {"lengths", "fixed", "fixed"},
      {"lengths", "sharegpt", "ShareGPT-like"},
      {"prefill", "auto", "engine's default"},
      {"prefill", "chunked", "chunked into decode steps"},
      {"prefill", "first", "steps of its own"},
      {"prefill", "none", "none (a decode pool)"},
      {"prefill", "pd", "disaggregated (a prefill pool that keeps up)"},
      {"reuse", "uniform", "uniform over the prefixes"},
      {"reuse", "zipf", "Zipf over the prefixes"},
      {"reuse", "multi-turn", "multi-turn conversations"},
      {"tiers", "hbm", "HBM only"},
      {"tiers", "hbm+dram", "HBM + host DRAM"},
      {"tiers", "hbm+dram+ssd", "HBM + host DRAM + SSD"},
      {"tiers", "off", "off (no prefix cache)"},
  };
  // Random lengths say their spread, the one "random" means everywhere.
  if (setting == "lengths" && choice == "random") return "random (±" + model::num(100 * serve::kRandomRangeRatio) + " %)";
  for (const Words& w : kWords)
    if (w.setting == setting && w.choice == choice) return std::string(w.label);
  return "";
}

// The Serve panel's settings as a link carries them, with their ranges, their defaults (ServeSpec{}'s: the
// command line's) and a menu's choices, its default first; the fleet view's sweeps. The page fills its form
// and menus from these.
void catalog_serve(JsonWriter& w) {
  const serve::ServeSpec defaults;
  w.array("serveSettings");
  for (const serve::ServeSetting& s : serve::serve_settings()) {
    if (!s.in_link) continue;
    const std::string def = serve::serve_setting_value(defaults, s);
    w.object().str("name", s.name).str("default", def);
    switch (s.kind) {
      case serve::SettingKind::Int:
      case serve::SettingKind::Seed: w.str("kind", "int").num("min", s.lo).num("max", s.hi); break;
      case serve::SettingKind::Real: w.str("kind", "real").num("min", s.lo).num("max", s.hi); break;
      case serve::SettingKind::Choice:
        w.str("kind", "choice").array("choices");
        for (const bool first : {true, false})
          for (const serve::Choice& c : s.choices)
            if (c.in_link && (c.name == def) == first) key_label(w, c.name, serve_choice_label(s.name, c.name)).end();
        w.end();
        break;
    }
    w.end();
  }
  w.end().array("fleetSweeps");
  key_label(w, "", "none").end();
  static constexpr const char* kSweepLabels[] = {"SWA pool", "DRAM prefix cache", "SSD"};
  static_assert(std::size(kSweepLabels) == static_cast<std::size_t>(sim::SweepTier::Count), "words for every fleet sweep");
  for (int i = 0; i < static_cast<int>(sim::SweepTier::Count); ++i)
    key_label(w, sim::sweep_tier_name(static_cast<sim::SweepTier>(i)), kSweepLabels[i]).end();
  w.end();
}

// The Charts panel's tabs, and the parameters a sweep can run over (numeric ones, for its x axis) or
// split into lines (any).
void catalog_charts(JsonWriter& w) {
  w.array("charts");
  for (int i = 0; i < static_cast<int>(model::ChartKind::Count); ++i) w.str(model::chart_key(static_cast<model::ChartKind>(i)));
  w.end();
  // The fleet run's charts are listed apart (fleetChartLabels): they need a finished run of the fleet view.
  for (const bool fleet : {false, true}) {
    w.array(fleet ? "fleetChartLabels" : "chartLabels");
    for (int i = 0; i < static_cast<int>(model::ChartKind::Count); ++i) {
      const auto k = static_cast<model::ChartKind>(i);
      if (model::is_serve_chart(k)) continue;  // the Serve panel draws it
      if (model::is_fleet_chart(k) == fleet) key_label(w, model::chart_key(k), model::chart_label(k)).end();
    }
    w.end();
  }
  w.array("sweepKeys");
  for (const model::ParamDef& p : model::params()) {
    if (p.kind == model::ParamKind::Text) continue;
    key_label(w, p.key, p.description).str("group", model::param_group_name(p.group)).boolean("numeric", model::sweep_axis_param(p)).end();
  }
  w.end().array("units");
  std::vector<std::string> units;
  for (int i = 0; i < model::kFigureCount; ++i) {
    const std::string u = model::figure_info(static_cast<model::FigureId>(i)).unit;
    if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  for (const std::string& u : units) w.str(u);
  w.end().array("formats").str("csv").str("json").end();
}

// The header's counters, named for this model (a model without CSA2 keeps "KV cache", not "Global KV"),
// with what their bytes count and whether the model has the part at all: a model with no sliding window
// or no Engram tables has no such counter (the page hides it rather than show "0 0 B").
void catalog_counters(JsonWriter& w, const App& app) {
  const model::ModelArch& m = app.scenario.model;
  const auto counter = [&w](std::string_view key, std::string_view label, std::string_view scope, bool applies) {
    key_label(w, key, label).str("scope", scope).boolean("applies", applies).end();
  };
  w.array("counters");
  // The block's name without its storage format ("Global KV (FP4)" → "Global KV"): the header stays one row.
  const std::string kv = object_name(app, anim::ObjectKind::GlobalKv);
  // Bytes as the canvas's blocks hold them: on one GPU of the busiest replica (docs/paths.md).
  counter("global", kv.substr(0, kv.find(" (")), "per GPU", true);
  counter("swa", "SWA KV", "per GPU", m.n_win > 0);
  counter("engram", "Engram rows", "so far", m.engram_count > 0);  // read on this path up to the step
  const std::string sparse = model::sparse_attention_name(m);
  counter("policy", sparse.empty() ? "KV policy" : sparse + " policy", "", true);
  w.end();
}

}  // namespace

std::string catalog_json(const App& app) {
  JsonWriter w;
  w.object();
  catalog_names(w, app);
  catalog_charts(w);
  catalog_decode_terms(w);
  catalog_serve(w);
  catalog_counters(w, app);
  // The legend's colour roles (the page's --compute, --shared, --swa, --fp4).
  w.array("legend");
  key_label(w, "compute", "compute path").end();
  key_label(w, "shared", "shared KV / Engram weights").end();
  key_label(w, "swa", "SWA local state").end();
  key_label(w, "fp4", "FP4 stored values").end();
  w.end().integer("tourSteps", model::kTourSteps);
  return w.end().take();
}

namespace {
// The ledger panel's row for one entry: the page shows these words as they are.
void ledger_row_json(JsonWriter& w, const App& app, const anim::Ledger& l, const anim::LedgerEntry& e) {
  w.object().integer("index", e.index).str("step", e.step).str("phase", e.phase).str("at", model::human(e.t_start, "s"));
  w.str("move", endpoint_name(app, e.from) + " → " + endpoint_name(app, e.to));
  // What the bytes count, beside them (one GPU's share, as the canvas's blocks).
  w.str("bytes", e.bytes > 0 ? model::human(e.bytes, "B") + " " + anim::kLedgerBytesScope : std::string("—"));
  w.str("objectKey", anim::object_key(e.object)).str("object", l.labels[static_cast<std::size_t>(e.object)]);
  w.str("duration", model::human(e.duration, "s")).str("provenance", model::provenance_name(e.provenance));
  w.str("sentence", e.sentence).str("formula", e.formula).str("sources", e.sources).end();
}
}  // namespace

std::string ledger_view_json(const App& app, const anim::LedgerFilter& filter) {
  if (fleet_view(app)) return fleet_ledger_json(app);  // one row per simulated hour (no filters)
  const anim::Ledger& l = app.ledger;
  JsonWriter w;
  w.object().str("path", anim::path_key(l.path)).str("label", l.label.empty() ? std::string(anim::path_label(l.path)) : l.label);
  w.str("preset", l.preset).str("note", l.note).integer("steps", static_cast<long long>(l.entries.size()));
  // The filter menus: the places and objects this ledger moves, in the app's order.
  std::uint32_t ends = 0, objects = 0;
  for (const anim::LedgerEntry& e : l.entries) {
    ends |= 1u << static_cast<int>(e.from);
    ends |= 1u << static_cast<int>(e.to);
    objects |= 1u << static_cast<int>(e.object);
  }
  w.object("options").array("tiers");
  for (int i = 0; i < anim::kEndpointCount; ++i) {
    if ((ends >> i) & 1u) key_label(w, anim::endpoint_key(static_cast<anim::Endpoint>(i)), endpoint_name(app, static_cast<anim::Endpoint>(i))).end();
  }
  w.end().array("objects");
  for (int i = 0; i < anim::kObjectCount; ++i) {
    if ((objects >> i) & 1u) key_label(w, anim::object_key(static_cast<anim::ObjectKind>(i)), l.labels[static_cast<std::size_t>(i)]).end();
  }
  w.end().end().object("filter");
  w.str("tier", filter.tier == anim::Endpoint::Count ? "" : anim::endpoint_key(filter.tier));
  w.str("object", filter.object == anim::ObjectKind::Count ? "" : anim::object_key(filter.object));
  w.end().array("entries");
  for (const anim::LedgerEntry& e : l.entries) {
    if (filter.keeps(e)) ledger_row_json(w, app, l, e);
  }
  return w.end().end().take();
}

namespace {
bool csv_or_json(std::string_view format, bool& json, model::Errors& errors) {
  json = format == "json";
  if (json || format == "csv") return true;
  errors.push_back(model::make_error(model::ErrorCode::BadEnum, "format", format, "csv or json"));
  return false;
}
}  // namespace

bool ledger_export(const App& app, std::string_view format, const anim::LedgerFilter& filter, std::string& out,
                   model::Errors& errors) {
  // The fleet view's ledger is the run's hours: its downloads are `tierscope fleet --format csv|json`.
  if (fleet_view(app)) return fleet_export(app, format, out, errors);
  bool json = false;
  if (!csv_or_json(format, json, errors)) return false;
  out = json ? anim::ledger_to_json(app.ledger, filter) : anim::ledger_to_csv(app.ledger, filter);
  return true;
}

bool figures_export(const App& app, std::string_view format, std::string& out, model::Errors& errors) {
  bool json = false;
  if (!csv_or_json(format, json, errors)) return false;
  out = json ? model::figures_to_json(app.figures, app.scenario) : model::figures_to_csv(app.figures);
  return true;
}

bool pinned_export(const App& app, std::string_view what, std::string_view format, std::string& out, model::Errors& errors) {
  if (!app.comparing) {
    errors.push_back(model::make_error(model::ErrorCode::Inconsistent, "what", what, "a pinned scenario first (compare)"));
    return false;
  }
  bool json = false;
  if (!csv_or_json(format, json, errors)) return false;
  if (what == "figures-pinned") {
    out = json ? model::figures_to_json(app.pinned_figures, app.pinned) : model::figures_to_csv(app.pinned_figures);
  } else {
    // A's ledger for the path on screen: the same serialiser as `tierscope ledger --hash A's link`.
    const anim::Ledger l = anim::build_ledger(app.pinned, app.pinned_figures, app.playback.path);
    out = json ? anim::ledger_to_json(l, {}) : anim::ledger_to_csv(l, {});
  }
  return true;
}

bool card_export(const App& app, std::string_view format, std::string& out, model::Errors& errors) {
  bool json = false;
  if (!csv_or_json(format, json, errors)) return false;
  const std::vector<model::CardRow> rows = model::check_card(app.scenario);
  out = json ? model::card_to_json(rows, app.scenario) : model::card_to_csv(rows);
  return true;
}

namespace {
// The chart key and its options as the page gives them (JSON text), or false with errors naming them.
bool chart_request(std::string_view name, std::string_view options, model::ChartKind& kind, model::ChartOptions& co,
                   model::Errors& errors) {
  if (!model::chart_from_key(name, kind)) {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "name", name, "one of: " + model::chart_keys_text()));
    return false;
  }
  return model::chart_options_from_json(kind, options.empty() ? std::string_view("{}") : options, co, errors);
}
}  // namespace

bool scenario_chart_json(const model::Scenario& s, const model::Scenario* pinned, std::string_view name, std::string_view options,
                         std::string& out, model::Errors& errors, std::vector<double>* numbers) {
  model::ChartKind kind{};
  model::ChartOptions co;
  if (!chart_request(name, options, kind, co, errors)) return false;
  if (model::is_fleet_chart(kind)) {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "name", name, "a chart of the scenario, not of a fleet run"));
    return false;
  }
  model::Chart c;
  // While a scenario is pinned, every chart shows A (pinned) and B (current) on the same axes.
  const bool ok = pinned ? model::make_chart_pair(*pinned, s, kind, co, c, errors) : model::make_chart(s, kind, co, c, errors);
  if (!ok) return false;
  out = model::chart_to_json(c, numbers);
  return true;
}

bool run_chart_json(const App& app, std::string_view name, std::string_view options, std::string& out, model::Errors& errors,
                    std::vector<double>* numbers) {
  model::ChartKind kind{};
  model::ChartOptions co;
  if (!chart_request(name, options, kind, co, errors)) return false;
  if (!model::is_fleet_chart(kind)) {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "name", name, "a chart of the fleet run"));
    return false;
  }
  // A fleet chart is the finished run's: it takes no options.
  if (co.points != model::ChartOptions{}.points) {
    errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "points", std::to_string(co.points), std::string("no options with ") + model::chart_key(kind)));
    return false;
  }
  return fleet_chart_json(app, kind, out, errors, numbers);
}

bool chart_json(const App& app, std::string_view name, std::string_view options, std::string& out, model::Errors& errors,
                std::vector<double>* numbers) {
  model::ChartKind kind{};
  if (model::chart_from_key(name, kind) && model::is_fleet_chart(kind)) return run_chart_json(app, name, options, out, errors, numbers);
  return scenario_chart_json(app.scenario, app.comparing ? &app.pinned : nullptr, name, options, out, errors, numbers);
}

namespace {
// One scenario's timeline of the path on screen: each entry's step, duration and words, and the total on the
// critical path (entries the real system overlaps are marked, not summed).
void timeline(JsonWriter& w, const anim::Ledger& l) {
  double total = 0;
  for (const anim::LedgerEntry& e : l.entries) total += e.overlapped ? 0.0 : e.duration;
  w.object().num("total", total).str("total_text", model::human(total, "s")).str("note", l.note).array("entries");
  for (const anim::LedgerEntry& e : l.entries) {
    w.object().str("step", e.step).str("phase", e.phase).num("seconds", e.duration).str("text", model::human(e.duration, "s"));
    w.boolean("overlapped", e.overlapped).end();
  }
  w.end().end();
}

// B ÷ A in words: "1.25×", "—" where either side is not computed or A is zero.
std::string ratio_text(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0) return "—";
  return model::num_sig(b / a, 3) + "×";
}
}  // namespace

std::string figures_view_json(const App& app, std::string_view ids) {
  // One figure named in `ids` (comma-separated), or every figure when it is empty.
  const auto wanted = [ids](std::string_view id) {
    if (ids.empty()) return true;
    for (const std::string_view one : model::split(ids, ','))
      if (one == id) return true;
    return false;
  };
  JsonWriter w(ids.empty() ? 64 * 1024 : 1024);
  w.object().array("figures");
  for (const model::Figure& f : app.figures.list) {
    if (!wanted(f.id)) continue;
    w.object().str("id", f.id).str("label", f.label).num("value", f.value).str("unit", f.unit);
    w.str("scope", model::scope_name(model::figure_info(f.fid).scope));  // what it counts: shown by the unit
    w.str("text", model::figure_text(f));  // the same words as the downloads
    w.boolean("feasible", f.feasible).str("formula", f.formula()).str("provenance", model::provenance_name(f.provenance)).end();
  }
  return w.end().end().take();
}

std::string compare_label(const model::Scenario& s) {
  // A preset's label is "model · its hardware as shipped": only the model's part is kept, the rest is read
  // from the scenario as it is now.
  const std::string name = model::scenario_label(s);
  return name.substr(0, name.find(" · ")) + " · " + model::layout_label(s);
}

std::string compare_json(const App& app) {
  if (!app.comparing) return "null";
  JsonWriter w;
  w.object();
  w.object("a").str("label", compare_label(app.pinned)).str("hash", model::scenario_to_hash(app.pinned)).end();
  w.object("b").str("label", compare_label(app.scenario)).str("hash", model::scenario_to_hash(app.scenario)).end();
  w.array("figures");
  const std::size_t n = std::min(app.figures.list.size(), app.pinned_figures.list.size());
  for (std::size_t i = 0; i < n; ++i) {
    const model::Figure& a = app.pinned_figures.list[i];
    const model::Figure& b = app.figures.list[i];
    w.object().str("id", b.id).str("label", b.label);
    w.str("a", a.feasible ? model::figure_value_text(a) : std::string("not computed"));
    w.str("b", b.feasible ? model::figure_value_text(b) : std::string("not computed"));
    w.str("ratio", a.feasible && b.feasible ? ratio_text(a.value, b.value) : std::string("—"));
    w.boolean("same", a.value == b.value || (!a.feasible && !b.feasible)).end();
  }
  w.end().str("path", anim::path_key(app.playback.path)).str("pathLabel", anim::path_label(app.playback.path, app.scenario.model));
  w.object("timelines").key("a");
  timeline(w, anim::build_ledger(app.pinned, app.pinned_figures, app.playback.path));
  w.key("b");
  timeline(w, app.ledger);
  return w.end().end().take();
}

}  // namespace tierscope::app
