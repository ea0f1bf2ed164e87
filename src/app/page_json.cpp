// JSON for the page's DOM: the catalog, the ledger panel's rows, the downloads and the chart series, all
// built from the model's and the animations' own tables and writers.
#include "app/page_json.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "anim/format.h"
#include "base/text.h"
#include "charts/chart_options.h"
#include "charts/charts.h"
#include "codec/url_codec.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "link/view_codec.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/sweep.h"

namespace tierscope::app {

namespace {

using model::append_json_number;
using model::append_json_string;

void member(std::string& o, const char* key, bool first = false) {
  if (!first) o += ',';
  append_json_string(o, key);
  o += ':';
}
void key_label(std::string& o, std::string_view key, std::string_view label, bool first) {
  if (!first) o += ',';
  o += "{\"key\":";
  append_json_string(o, key);
  o += ",\"label\":";
  append_json_string(o, label);
  o += '}';
}

const char* panel_label(int i) {
  static constexpr const char* kLabels[] = {"Scenario", "CSA2 modes", "Card check", "Inspector", "Figures"};
  static_assert(std::size(kLabels) == model::kPanelKeys.size());
  return kLabels[i];
}

// "¼×", "½×", "2×": the speed menu's words.
std::string speed_label(double v) {
  if (v == 0.25) return "¼×";
  if (v == 0.5) return "½×";
  return model::num(v) + "×";
}

}  // namespace

std::string catalog_json(const App& app) {
  const model::ModelArch& m = app.scenario.model;
  std::string o = "{";
  member(o, "paths", true);
  o += '[';
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto p = static_cast<anim::PathId>(i);
    o += i ? ",{\"key\":" : "{\"key\":";
    append_json_string(o, anim::path_key(p));
    o += ",\"label\":";
    append_json_string(o, anim::path_label(p, m));
    o += ",\"summary\":";
    append_json_string(o, anim::path_summary(p, m));
    o += '}';
  }
  o += ']';
  member(o, "objects");
  o += '[';
  for (int i = 0; i < anim::kObjectCount; ++i) {
    const auto k = static_cast<anim::ObjectKind>(i);
    key_label(o, anim::object_key(k), object_name(app, k), i == 0);
  }
  o += ']';
  member(o, "endpoints");
  o += '[';
  for (int i = 0; i < anim::kEndpointCount; ++i) {
    const auto e = static_cast<anim::Endpoint>(i);
    o += i ? ",{\"key\":" : "{\"key\":";
    append_json_string(o, anim::endpoint_key(e));
    o += ",\"label\":";
    append_json_string(o, endpoint_name(app, e));
    o += anim::is_tier(e) ? ",\"tier\":true}" : ",\"tier\":false}";
  }
  o += ']';
  member(o, "speeds");
  o += '[';
  for (std::size_t i = 0; i < model::kSpeedChoices.size(); ++i) {
    o += i ? ",{\"value\":" : "{\"value\":";
    append_json_number(o, model::kSpeedChoices[i]);
    o += ",\"label\":";
    append_json_string(o, speed_label(model::kSpeedChoices[i]));
    o += '}';
  }
  o += ']';
  member(o, "speedRange");
  o += '[';
  append_json_number(o, model::kMinSpeed);
  o += ',';
  append_json_number(o, model::kMaxSpeed);
  o += ']';
  member(o, "panels");
  o += '[';
  for (std::size_t i = 0; i < model::kPanelKeys.size(); ++i) key_label(o, model::kPanelKeys[i], panel_label(static_cast<int>(i)), i == 0);
  o += ']';
  member(o, "errorCodes");
  o += '{';
  for (int c = 1; c <= static_cast<int>(model::kLastErrorCode); ++c) {
    const auto code = static_cast<model::ErrorCode>(c);
    if (c > 1) o += ',';
    append_json_string(o, model::error_code_name(code));
    o += ':';
    append_json_string(o, model::error_code_reason(code));
  }
  o += '}';
  member(o, "provenance");
  o += '[';
  for (int i = 0; i < static_cast<int>(model::Provenance::Count); ++i) {
    if (i) o += ',';
    append_json_string(o, model::provenance_name(static_cast<model::Provenance>(i)));
  }
  o += ']';
  member(o, "charts");
  o += '[';
  for (int i = 0; i < static_cast<int>(model::ChartKind::Count); ++i) {
    if (i) o += ',';
    append_json_string(o, model::chart_key(static_cast<model::ChartKind>(i)));
  }
  o += ']';
  // The Charts panel's tabs, and the parameters a sweep can run over (numeric ones, for its x axis) or
  // split into lines (any).
  // The fleet run's charts are listed apart (fleetChartLabels): they need a finished run of the fleet view.
  for (const bool fleet : {false, true}) {
    member(o, fleet ? "fleetChartLabels" : "chartLabels");
    o += '[';
    bool first = true;
    for (int i = 0; i < static_cast<int>(model::ChartKind::Count); ++i) {
      const auto k = static_cast<model::ChartKind>(i);
      if (model::is_fleet_chart(k) != fleet) continue;
      if (!first) o += ',';
      first = false;
      o += "{\"key\":";
      append_json_string(o, model::chart_key(k));
      o += ",\"label\":";
      append_json_string(o, model::chart_label(k));
      o += '}';
    }
    o += ']';
  }
  member(o, "sweepKeys");
  o += '[';
  {
    bool first = true;
    for (const model::ParamDef& p : model::params()) {
      if (p.kind == model::ParamKind::Text) continue;
      if (!first) o += ',';
      first = false;
      o += "{\"key\":";
      append_json_string(o, p.key);
      o += ",\"label\":";
      append_json_string(o, p.description);
      o += ",\"group\":";
      append_json_string(o, model::param_group_name(p.group));
      o += model::sweep_axis_param(p) ? ",\"numeric\":true}" : ",\"numeric\":false}";
    }
  }
  o += ']';
  member(o, "units");
  o += '[';
  {
    std::vector<std::string> units;
    for (int i = 0; i < model::kFigureCount; ++i) {
      const std::string u = model::figure_info(static_cast<model::FigureId>(i)).unit;
      if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
    }
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (i) o += ',';
      append_json_string(o, units[i]);
    }
  }
  o += ']';
  member(o, "formats");
  o += "[\"csv\",\"json\"]";
  // The header's counters, named for this model (a model without CSA2 keeps "KV cache", not "Global KV"),
  // with what their bytes count and whether the model has the part at all: a model with no sliding window
  // or no Engram tables has no such counter (the page hides it rather than show "0 0 B").
  member(o, "counters");
  o += '[';
  {
    const auto counter = [&o](std::string_view key, std::string_view label, std::string_view scope, bool applies, bool first) {
      key_label(o, key, label, first);
      o.pop_back();  // the closing brace: scope and applies go inside the same object
      o += ",\"scope\":";
      append_json_string(o, scope);
      o += applies ? ",\"applies\":true}" : ",\"applies\":false}";
    };
    // The block's name without its storage format ("Global KV (FP4)" → "Global KV"): the header stays one row.
    const std::string kv = object_name(app, anim::ObjectKind::GlobalKv);
    // Bytes as the canvas's blocks hold them: on one GPU of the busiest replica (docs/paths.md).
    counter("global", kv.substr(0, kv.find(" (")), "per GPU", true, true);
    counter("swa", "SWA KV", "per GPU", m.n_win > 0, false);
    counter("engram", "Engram rows", "so far", m.engram_count > 0, false);  // read on this path up to the step
    bool sparse = false;
    for (int i = 0; i < m.layer_count; ++i) sparse = sparse || m.layers[static_cast<std::size_t>(i)].mode == model::LayerMode::Full;
    counter("policy", sparse ? "CSA2 policy" : "KV policy", "", true, false);
  }
  o += ']';
  // The legend's colour roles (the page's --compute, --shared, --swa, --fp4).
  member(o, "legend");
  o += '[';
  key_label(o, "compute", "compute path", true);
  key_label(o, "shared", "shared KV / Engram weights", false);
  key_label(o, "swa", "SWA local state", false);
  key_label(o, "fp4", "FP4 stored values", false);
  o += ']';
  member(o, "tourSteps");
  o += std::to_string(model::kTourSteps);
  o += '}';
  return o;
}

std::string ledger_view_json(const App& app, const anim::LedgerFilter& filter) {
  if (fleet_view(app)) return fleet_ledger_json(app);  // one row per simulated hour (no filters)
  const anim::Ledger& l = app.ledger;
  std::string o = "{";
  member(o, "path", true);
  append_json_string(o, anim::path_key(l.path));
  member(o, "label");
  append_json_string(o, l.label.empty() ? std::string(anim::path_label(l.path)) : l.label);
  member(o, "preset");
  append_json_string(o, l.preset);
  member(o, "note");
  append_json_string(o, l.note);
  member(o, "steps");
  o += std::to_string(l.entries.size());
  // The filter menus: the places and objects this ledger moves, in the app's order.
  std::uint32_t ends = 0, objects = 0;
  for (const anim::LedgerEntry& e : l.entries) {
    ends |= 1u << static_cast<int>(e.from);
    ends |= 1u << static_cast<int>(e.to);
    objects |= 1u << static_cast<int>(e.object);
  }
  member(o, "options");
  o += "{\"tiers\":[";
  bool first = true;
  for (int i = 0; i < anim::kEndpointCount; ++i) {
    if (!((ends >> i) & 1u)) continue;
    key_label(o, anim::endpoint_key(static_cast<anim::Endpoint>(i)), endpoint_name(app, static_cast<anim::Endpoint>(i)), first);
    first = false;
  }
  o += "],\"objects\":[";
  first = true;
  for (int i = 0; i < anim::kObjectCount; ++i) {
    if (!((objects >> i) & 1u)) continue;
    key_label(o, anim::object_key(static_cast<anim::ObjectKind>(i)), l.labels[static_cast<std::size_t>(i)], first);
    first = false;
  }
  o += "]}";
  member(o, "filter");
  o += "{\"tier\":";
  append_json_string(o, filter.tier == anim::Endpoint::Count ? "" : anim::endpoint_key(filter.tier));
  o += ",\"object\":";
  append_json_string(o, filter.object == anim::ObjectKind::Count ? "" : anim::object_key(filter.object));
  o += '}';
  member(o, "entries");
  o += '[';
  first = true;
  for (const anim::LedgerEntry& e : l.entries) {
    if (!filter.keeps(e)) continue;
    if (!first) o += ',';
    first = false;
    o += "{\"index\":" + std::to_string(e.index);
    member(o, "step");
    append_json_string(o, e.step);
    member(o, "phase");
    append_json_string(o, e.phase);
    member(o, "at");
    append_json_string(o, model::human(e.t_start, "s"));
    member(o, "move");
    append_json_string(o, endpoint_name(app, e.from) + " → " + endpoint_name(app, e.to));
    member(o, "bytes");
    // What the bytes count, beside them (one GPU's share, as the canvas's blocks).
    append_json_string(o, e.bytes > 0 ? model::human(e.bytes, "B") + " " + anim::kLedgerBytesScope : std::string("—"));
    member(o, "objectKey");
    append_json_string(o, anim::object_key(e.object));
    member(o, "object");
    append_json_string(o, l.labels[static_cast<std::size_t>(e.object)]);
    member(o, "duration");
    append_json_string(o, model::human(e.duration, "s"));
    member(o, "provenance");
    append_json_string(o, model::provenance_name(e.provenance));
    member(o, "sentence");
    append_json_string(o, e.sentence);
    member(o, "formula");
    append_json_string(o, e.formula);
    member(o, "sources");
    append_json_string(o, e.sources);
    o += '}';
  }
  o += "]}";
  return o;
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

bool chart_json(const App& app, std::string_view name, std::string_view options, std::string& out, model::Errors& errors,
                std::vector<double>* numbers) {
  model::ChartKind kind{};
  if (!model::chart_from_key(name, kind)) {
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "name", name, "one of: " + model::chart_keys_text()));
    return false;
  }
  model::ChartOptions co;
  if (!model::chart_options_from_json(kind, options.empty() ? std::string_view("{}") : options, co, errors)) return false;
  if (model::is_fleet_chart(kind)) {
    // A fleet chart is the finished run's: it takes no options.
    if (co.points != model::ChartOptions{}.points) {
      errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "points", std::to_string(co.points), std::string("no options with ") + model::chart_key(kind)));
      return false;
    }
    return fleet_chart_json(app, kind, out, errors, numbers);
  }
  model::Chart c;
  // While a scenario is pinned, every chart shows A (pinned) and B (current) on the same axes.
  const bool ok = app.comparing ? model::make_chart_pair(app.pinned, app.scenario, kind, co, c, errors)
                                : model::make_chart(app.scenario, kind, co, c, errors);
  if (!ok) return false;
  out = model::chart_to_json(c, numbers);
  return true;
}

namespace {
// One scenario's timeline of the path on screen: each entry's step, duration and words, and the total on the
// critical path (entries the real system overlaps are marked, not summed).
void timeline(std::string& o, const anim::Ledger& l) {
  double total = 0;
  for (const anim::LedgerEntry& e : l.entries) total += e.overlapped ? 0.0 : e.duration;
  o += "{\"total\":";
  model::append_json_number(o, total);
  o += ",\"total_text\":";
  append_json_string(o, model::human(total, "s"));
  o += ",\"note\":";
  append_json_string(o, l.note);
  o += ",\"entries\":[";
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    const anim::LedgerEntry& e = l.entries[i];
    if (i) o += ',';
    o += "{\"step\":";
    append_json_string(o, e.step);
    o += ",\"phase\":";
    append_json_string(o, e.phase);
    o += ",\"seconds\":";
    model::append_json_number(o, e.duration);
    o += ",\"text\":";
    append_json_string(o, model::human(e.duration, "s"));
    o += e.overlapped ? ",\"overlapped\":true}" : ",\"overlapped\":false}";
  }
  o += "]}";
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
    for (std::size_t at = 0; at <= ids.size();) {
      const std::size_t end = std::min(ids.find(',', at), ids.size());
      if (ids.substr(at, end - at) == id) return true;
      at = end + 1;
    }
    return false;
  };
  std::string o;
  o.reserve(ids.empty() ? 64 * 1024 : 1024);
  o += "{\"figures\":[";
  bool first = true;
  for (const model::Figure& f : app.figures.list) {
    if (!wanted(f.id)) continue;
    if (!first) o += ',';
    first = false;
    o += "{\"id\":";
    append_json_string(o, f.id);
    o += ",\"label\":";
    append_json_string(o, f.label);
    o += ",\"value\":";
    model::append_json_number(o, f.value);
    o += ",\"unit\":";
    append_json_string(o, f.unit);
    o += ",\"scope\":";
    append_json_string(o, model::scope_name(model::figure_info(f.fid).scope));  // what it counts: shown by the unit
    o += ",\"text\":";
    append_json_string(o, model::figure_text(f));  // the same words as the downloads
    o += f.feasible ? ",\"feasible\":true" : ",\"feasible\":false";
    o += ",\"formula\":";
    append_json_string(o, f.formula);
    o += ",\"provenance\":";
    append_json_string(o, model::provenance_name(f.provenance));
    o += '}';
  }
  o += "]}";
  return o;
}

std::string compare_json(const App& app) {
  if (!app.comparing) return "null";
  std::string o = "{\"a\":{\"label\":";
  append_json_string(o, model::scenario_label(app.pinned));
  o += ",\"hash\":";
  append_json_string(o, model::scenario_to_hash(app.pinned));
  o += "},\"b\":{\"label\":";
  append_json_string(o, model::scenario_label(app.scenario));
  o += ",\"hash\":";
  append_json_string(o, model::scenario_to_hash(app.scenario));
  o += "},\"figures\":[";
  const std::size_t n = std::min(app.figures.list.size(), app.pinned_figures.list.size());
  for (std::size_t i = 0; i < n; ++i) {
    const model::Figure& a = app.pinned_figures.list[i];
    const model::Figure& b = app.figures.list[i];
    if (i) o += ',';
    o += "{\"id\":";
    append_json_string(o, b.id);
    o += ",\"label\":";
    append_json_string(o, b.label);
    o += ",\"a\":";
    append_json_string(o, a.feasible ? model::display_value(a.value, a.unit) : std::string("not computed"));
    o += ",\"b\":";
    append_json_string(o, b.feasible ? model::display_value(b.value, b.unit) : std::string("not computed"));
    o += ",\"ratio\":";
    append_json_string(o, a.feasible && b.feasible ? ratio_text(a.value, b.value) : std::string("—"));
    o += a.value == b.value || (!a.feasible && !b.feasible) ? ",\"same\":true}" : ",\"same\":false}";
  }
  o += "],\"path\":";
  append_json_string(o, anim::path_key(app.playback.path));
  o += ",\"pathLabel\":";
  append_json_string(o, anim::path_label(app.playback.path, app.scenario.model));
  o += ",\"timelines\":{\"a\":";
  timeline(o, anim::build_ledger(app.pinned, app.pinned_figures, app.playback.path));
  o += ",\"b\":";
  timeline(o, app.ledger);
  o += "}}";
  return o;
}

}  // namespace tierscope::app
