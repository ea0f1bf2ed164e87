// The worker module's bridge: the one file of the second WebAssembly module (no Dear ImGui, SDL2 or GL)
// that talks to JavaScript. It runs in a Web Worker (web/worker.js) and does the work the first frame does
// not need — the charts' series with their measured anchors, and reading a config.json — for the page's
// module, in the link codec's own words: a scenario's link keys in, the page's JSON out. A new kind of job
// (the serving replay) is one export here and one entry in web/worker.js's JOBS; a long one runs in slices
// the script calls in turn, posting progress and reading its cancel between them.
#include "app/app.h"
#include "app/bridge_kit.h"
#include "app/page_json.h"
#include "base/errors.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "codec/url_codec.h"
#include "charts/chart_options.h"
#include "hf/hf_config.h"
#include "serve/frontier.h"
#include "serve/serve.h"
#include "serve/trust.h"
#include "sim/fleet_run.h"
#include "sim/fleet_view.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace tierscope;
using app::bridge_kit::answer;
using app::bridge_kit::answer_errors;
using app::bridge_kit::text_arg;
using app::bridge_kit::too_long;

namespace {
std::vector<double> g_numbers;   // the last chart's per-point numbers (see ts_worker_chart)
serve::ServeRun g_serve;         // the Serve panel's replay, run a slice per call (ts_worker_serve_*)
model::Scenario g_serve_scenario;  // its scenario and spec, for the trust band once it is done
serve::ServeSpec g_serve_spec;
sim::FleetRun g_fleet;           // the fleet view's run, run a slice per call (ts_worker_fleet_*)
std::uint64_t g_fleet_shown = 0; // the run's snapshot version last handed to the page
bool g_fleet_sweep_shown = false;

// A slice's events from JS: 1 to `most` (NaN and infinities refused).
bool events_arg(double events, double most, model::Errors& errors) {
  if (events >= 1 && events <= most) return true;
  errors.push_back(model::make_error(model::ErrorCode::OutOfRange, "events", model::num(events), "1 to " + model::num(most) + " events a slice"));
  return false;
}
// A scenario from its link keys ("preset=…&ctx=…", as state_json's scenarioHash gives them).
bool scenario_arg(const char* text, const char* field, model::Scenario& s, model::Errors& errors) {
  std::string_view h;
  if (!text_arg(text, h, model::kMaxHashBytes)) {
    errors.push_back(too_long(field, model::kMaxHashBytes, "a link's scenario keys"));
    return false;
  }
  return model::scenario_from_hash(h, s, errors);
}
// The frontier of a scenario, as `tierscope chart frontier --concurrency 512 --format json` draws it from the
// same link: the requests are the scenario's prompt and output, the seed its fleet seed. Concurrencies stop
// at 512 (the description says so): every one the HBM holds, up to 4096, takes a few seconds in a phone's
// browser, most of it in the least interactive replays. It takes no options; while comparing it shows A's
// front and B's on the same axes, each over its own layouts and requests.
constexpr int kPageFrontierConcurrency = 512;
bool frontier_json(const model::Scenario& s, const model::Scenario* pinned, std::string_view options, std::string& out, model::Errors& errors,
                   std::vector<double>* numbers) {
  model::ChartOptions co;
  if (!model::chart_options_from_json(model::ChartKind::Frontier, options.empty() ? std::string_view("{}") : options, co, errors)) return false;
  if (co.points != model::ChartOptions{}.points) {
    errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "points", std::to_string(co.points), "no options with frontier"));
    return false;
  }
  serve::FrontierOptions fo;
  fo.seed = static_cast<std::uint64_t>(std::max(0, s.fleet.seed));
  fo.max_concurrency = kPageFrontierConcurrency;
  model::Chart c;
  if (!(pinned ? serve::frontier_chart_pair(*pinned, s, fo, c, errors) : serve::frontier_chart(s, fo, c, errors))) return false;
  out = model::chart_to_json(c, numbers);
  return true;
}
}  // namespace

// A chart of a scenario as {ok, errors, chart, f64, f64n}: `scenario` is its link keys, `pinned` A's while
// comparing (empty: none), `name` a chart key that is not a fleet run's, `options` JSON text
// (charts/chart_options.h; the frontier takes none). The chart is what `tierscope chart
// NAME --format json` prints, except that its per-point arrays are {"f64":[at,count]}: doubles from the
// address `f64` on, `f64n` of them, valid until the next call (the worker script posts a copy beside the
// answer; web/lib/bridge.mjs puts them in place).
TS_EXPORT const char* ts_worker_chart(const char* scenario, const char* pinned, const char* name, const char* options) {
  model::Errors errors;
  model::Scenario b, a;
  std::string_view n, o, p;
  if (!text_arg(name, n, 64)) errors.push_back(too_long("name", 64, "a chart key"));
  if (!text_arg(options, o, 8192)) errors.push_back(too_long("options", 8192, "JSON text"));
  if (!text_arg(pinned, p, model::kMaxHashBytes)) errors.push_back(too_long("pinned", model::kMaxHashBytes, "a link's scenario keys"));
  if (errors.empty() && scenario_arg(scenario, "scenario", b, errors) && (p.empty() || scenario_arg(pinned, "pinned", a, errors))) {
    g_numbers.clear();
    std::string chart;
    const bool made = n == model::chart_key(model::ChartKind::Frontier) ? frontier_json(b, p.empty() ? nullptr : &a, o, chart, errors, &g_numbers)
                                                                        : app::scenario_chart_json(b, p.empty() ? nullptr : &a, n, o, chart, errors, &g_numbers);
    if (made) {
      model::JsonWriter out;
      out.object();
      app::errors_members(out, errors);
      out.key("chart").raw(chart).integer("f64", static_cast<long long>(reinterpret_cast<std::uintptr_t>(g_numbers.data())));
      out.integer("f64n", static_cast<long long>(g_numbers.size()));
      return answer(out.end().take());
    }
  }
  return answer_errors(errors);
}

// Reads a Hugging Face config.json's text over a scenario (its link keys), as the page's import does:
// {ok, errors, notes, scenarioHash}. The new scenario's link keys are what the page's module applies (its
// share link then names the imported model); `file` is the file's name, which names a model whose file
// does not; `quant` the hf_quant_config.json beside it ("" for none). Nothing is kept between calls.
TS_EXPORT const char* ts_worker_load_config(const char* scenario, const char* json, const char* file, const char* quant) {
  model::Errors errors;
  std::vector<std::string> notes;
  std::string_view text, name, quant_text;
  model::Scenario s;
  if (!text_arg(json, text, model::kMaxConfigBytes)) {
    errors.push_back(model::make_error(model::ErrorCode::TooLarge, "config", "(missing or longer than the limit)",
                                       "config.json text of at most " + std::to_string(model::kMaxConfigBytes) + " bytes"));
    return answer(app::errors_notes_json(errors, notes));
  }
  if (!text_arg(file, name, 1024)) name = {};  // no name, or an unreasonable one: the file names itself
  if (quant && *quant && !text_arg(quant, quant_text, model::kMaxConfigBytes)) {
    errors.push_back(model::make_error(model::ErrorCode::TooLarge, "hf_quant_config.json", "(longer than the limit)",
                                       "hf_quant_config.json text of at most " + std::to_string(model::kMaxConfigBytes) + " bytes"));
    return answer(app::errors_notes_json(errors, notes));
  }
  if (!scenario_arg(scenario, "scenario", s, errors) || !app::config_scenario(s, text, name, errors, notes, quant_text))
    return answer(app::errors_notes_json(errors, notes));
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  out.array("notes");
  for (const std::string& note : notes) out.str(note);
  out.end().str("scenarioHash", model::scenario_to_hash(s));
  return answer(out.end().take());
}

// Starts the Serve panel's replay of a scenario (its link keys) with the panel's settings (the `serve=` link
// key's text: "concurrency:64,input:1024"; no concurrency nor rate runs the scenario's batch): {ok, errors,
// requests}. A run already going is dropped. The replay then runs in slices, ts_worker_serve_advance.
TS_EXPORT const char* ts_worker_serve_start(const char* scenario, const char* settings) {
  g_serve = serve::ServeRun{};
  model::Errors errors;
  model::Scenario s;
  std::string_view text;
  serve::ServeSpec spec;
  if (!text_arg(settings, text, serve::kMaxServeSettingsBytes)) errors.push_back(too_long("serve", serve::kMaxServeSettingsBytes, "serve settings"));
  if (errors.empty() && scenario_arg(scenario, "scenario", s, errors) && serve::serve_settings_from_text(text, spec, errors)) {
    spec.seed = static_cast<std::uint64_t>(std::max(0, s.fleet.seed));  // as `tierscope serve` takes it
    serve::default_load(spec, s);
    if (g_serve.start(s, spec, errors)) {
      g_serve_scenario = s;
      g_serve_spec = spec;
      model::JsonWriter out;
      out.object();
      app::errors_members(out, errors);
      out.integer("requests", static_cast<long long>(g_serve.requests()));
      return answer(out.end().take());
    }
  }
  return answer_errors(errors);
}

// Runs up to `events` more events of the replay (1 to 10^7; a step's end or an arrival each): {ok, errors,
// done, progress}; once done also `summary`, what `tierscope serve --format json` prints for the same link
// (the trust band of the nearest measured runs among it, read from the validated runs compiled in), `chart`,
// what `tierscope chart serve-latency --format json` prints, `trustRows` (each banded figure's label, value
// and band as `serve` prints them) and `trustRuns`, the runs behind the band.
// With no run started: an error.
TS_EXPORT const char* ts_worker_serve_advance(double events) {
  model::Errors errors;
  if (!events_arg(events, 1e7, errors)) return answer_errors(errors);
  if (!g_serve.started()) {
    errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "serve", "(no run)", "a run started by ts_worker_serve_start"));
    return answer_errors(errors);
  }
  const bool done = g_serve.advance(static_cast<std::uint64_t>(events));
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  out.boolean("done", done).num("progress", g_serve.progress());
  if (done) {
    const serve::ServeResult& r = g_serve.result();
    model::Chart c;
    serve::latency_chart(r, c);
    const serve::Trust trust = serve::serve_trust(g_serve_scenario, g_serve_spec, r);
    out.key("summary").raw(serve::serve_json(r, &trust)).key("chart").raw(model::chart_to_json(c));
    out.key("trustRuns");
    serve::trust_runs_json(out, trust);
    out.array("trustRows");
    for (const serve::TrustRow& row : serve::trust_rows(r, trust)) {
      out.object().str("key", serve::trust_figure_key(row.figure)).str("label", row.label).str("value", row.value).str("text", row.text);
      out.boolean("near", trust.near).end();
    }
    out.end();
    // The summary's words and numbers as `tierscope serve` prints them, for the page's tables.
    out.str("setup", serve::serve_setup_text(r)).str("stepsTitle", serve::steps_title(r)).str("admission", r.admission).str("refusedWhy", r.refused > 0 ? r.refused_why : std::string());
    out.array("rows");
    for (const serve::ReportRow& row : serve::serve_rows(r)) out.object().str("label", row.label).str("value", row.value).end();
    out.end().array("latency");
    for (const serve::LatencyRow& m : serve::serve_latency_rows(r))
      out.object().str("key", m.key).str("name", m.name).str("abbrev", m.abbrev).str("mean", m.mean_ms).str("median", m.median_ms).str("p90", m.p90_ms).str("p99", m.p99_ms).end();
    // Each step in words, and the instance's KV then as shares of its room (written, reserved): the canvas
    // fills HBM with them when the page shows the step.
    out.end().array("steps");
    const double room = r.kv_tokens > 0 ? r.kv_tokens : 1.0;
    for (const serve::StepRecord& st : r.trace)
      out.object().str("text", serve::step_text(st)).num("kvWritten", st.kv_written / room).num("kvReserved", st.kv_reserved / room).end();
    out.end();
  }
  return answer(out.end().take());
}

// Drops the replay (a cancel, or the panel closed): its memory is given back.
TS_EXPORT void ts_worker_serve_stop() { g_serve = serve::ServeRun{}; }

// The fleet view's simulated day, computed here and shown by the page's module: each answer carries the
// run's view (sim::fleet_view_text, for app::fleet_adopt) when it has a new hour of results or the sweep.
namespace {
// The time the run sizes its slices for and lets them take (the page's record of the slices says so).
void slice_members(model::JsonWriter& out) {
  out.object("sliceMs").num("targetMs", sim::kSliceTargetMs).num("budgetMs", sim::kSliceBudgetMs).end();
}
void fleet_view_member(model::JsonWriter& out, bool force) {
  const bool sweep = g_fleet.sweep() != nullptr;
  if (!force && g_fleet.snapshot_version() == g_fleet_shown && sweep == g_fleet_sweep_shown) return;
  g_fleet_shown = g_fleet.snapshot_version();
  g_fleet_sweep_shown = sweep;
  out.str("view", sim::fleet_view_text(g_fleet.view()));
}
}  // namespace

// Starts a run of `scenario` (link keys): synthetic traffic from its fleet keys, or the recorded trace's
// text (JSON lines); `sweep` "", "pool", "dram" or "ssd". {ok, errors, view}; a refused trace names its line.
TS_EXPORT const char* ts_worker_fleet_start(const char* scenario, const char* trace, const char* sweep) {
  g_fleet.cancel();
  model::Errors errors;
  model::Scenario s;
  std::string_view trace_text, sweep_text;
  sim::SweepTier tier{};
  if (!text_arg(trace, trace_text, sim::kMaxTraceBytes)) errors.push_back(too_long("trace", sim::kMaxTraceBytes, "a trace"));
  else if (!text_arg(sweep, sweep_text, 16) || (!sweep_text.empty() && !sim::parse_sweep_tier(sweep_text, tier)))
    errors.push_back(model::make_error(model::ErrorCode::BadEnum, "sweep", sweep ? std::string_view(sweep).substr(0, 16) : "", "pool, dram or ssd (or none)"));
  if (errors.empty() && scenario_arg(scenario, "scenario", s, errors) &&
      g_fleet.start(s, trace_text, errors, sweep_text.empty() ? nullptr : &tier)) {
    model::JsonWriter out;
    out.object();
    app::errors_members(out, errors);
    slice_members(out);
    fleet_view_member(out, true);
    return answer(out.end().take());
  }
  return answer_errors(errors);
}

// Events for the run's next slice, sized by the run from the last one's time (sim::FleetRun::next_slice).
TS_EXPORT double ts_worker_fleet_next_slice() { return static_cast<double>(g_fleet.next_slice()); }

// How long the last slice took, as the script measured it (the run stays pure: the platform owns the clock).
TS_EXPORT void ts_worker_fleet_slice_took(double events, double ms) {
  if (events >= 0 && events <= 1e7 && ms >= 0) g_fleet.slice_took(static_cast<std::uint64_t>(events), ms);
}

// Runs up to `events` more events (1 to 2^20): {ok, errors, events, done, progress, now}, and `view` when the
// run has a new hour of results, the sweep, or its end. With no run started: an error.
TS_EXPORT const char* ts_worker_fleet_advance(double events) {
  model::Errors errors;
  if (!events_arg(events, 1048576, errors)) return answer_errors(errors);
  if (!g_fleet.started()) {
    errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "fleet", "(no run)", "a run started by ts_worker_fleet_start"));
    return answer_errors(errors);
  }
  const std::uint64_t n = g_fleet.advance(static_cast<std::uint64_t>(events));
  model::JsonWriter out;
  out.object();
  app::errors_members(out, errors);
  out.integer("events", static_cast<long long>(n)).boolean("done", g_fleet.done()).num("progress", g_fleet.progress()).num("now", g_fleet.now());
  slice_members(out);
  fleet_view_member(out, false);
  return answer(out.end().take());
}

// Drops the run (a cancel, or a new run): its memory is given back.
TS_EXPORT void ts_worker_fleet_stop() { g_fleet.cancel(); }
