// What the page shows, as JSON from the app: its state, the answers of its operations, the catalog of names
// and labels, the ledger panel's rows, the figures and card check tables and their downloads, and the chart
// series. The page formats nothing itself: every name, label and number text comes from here (see
// web/lib/bridge.mjs).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "anim/format.h"
#include "app/app.h"
#include "base/errors.h"
#include "base/json_writer.h"

namespace tierscope::app {

// The app's state for the page (state_json.cpp; see the bridge and README): stable field names, exact numbers.
std::string state_json(const App& app);
// {ok, errors}: a command's result, each error {code, field, value, allowed, message}.
std::string errors_json(const model::Errors& errors);
// {ok, errors, adjustments}: a command's result with what else it moved.
std::string result_json(const model::Errors& errors, const std::vector<Adjustment>& adjustments);
// {ok, errors, notes}: errors_json with the notes of an operation that reports them (load_config).
std::string errors_notes_json(const model::Errors& errors, const std::vector<std::string>& notes);
// errors_json's members ("ok", "errors") written into an object the caller opened and goes on to fill (the
// bridge's answers add their own members after them).
void errors_members(model::JsonWriter& w, const model::Errors& errors);

// Every enumeration and label the page shows, for the model at hand: paths (key, label, summary), objects
// and endpoints (key, label; endpoints say whether they are a memory tier), speeds (value, label), panels,
// error codes (code, reason), provenance names, chart kinds, figure units, formats, the counters' labels,
// the legend's roles and the walkthrough's number of steps.
std::string catalog_json(const App& app);

// The ledger panel: {path, label, preset, note, steps, options: {tiers, objects} (what occurs in this
// ledger, in the app's order), filter, entries: [{index, step, phase, at, move, bytes, object, objectKey,
// duration, provenance, sentence, formula, sources}]} with the numbers as text.
std::string ledger_view_json(const App& app, const anim::LedgerFilter& filter);

// The downloads, byte for byte what `tierscope ledger|figures|check-card --format csv|json` writes for
// the same scenario (and path, and --tier/--object). `format` is "csv" or "json"; anything else is refused.
bool ledger_export(const App& app, std::string_view format, const anim::LedgerFilter& filter, std::string& out,
                   model::Errors& errors);
bool figures_export(const App& app, std::string_view format, std::string& out, model::Errors& errors);
bool card_export(const App& app, std::string_view format, std::string& out, model::Errors& errors);

// A comparison's pinned scenario (A): "figures-pinned" or "ledger-pinned" (for the path shown), as the
// command line writes them for A's own link; an error when nothing is pinned.
bool pinned_export(const App& app, std::string_view what, std::string_view format, std::string& out, model::Errors& errors);
// The figures as the page's table and walkthrough use them: value, its text, formula and provenance, without
// the sources (the downloads carry those, through figures_export). Rebuilt on every change, so kept light;
// `ids` (comma-separated) limits it to the figures a view shows (the walkthrough's few), empty for all.
std::string figures_view_json(const App& app, std::string_view ids = {});
// The comparison for the page ("null" when nothing is pinned): A's and B's names, every figure's value in
// both with B ÷ A, and both timelines of the path on screen.
std::string compare_json(const App& app);
// A compared scenario's name, computed from it each time so it never goes stale: the model's name, the
// node's GPUs and how its instances fill it ("DeepSeek V4.1 Flash · 8×H200 · two TP4 instances").
std::string compare_label(const model::Scenario& s);
// A chart's series (model::chart_to_json) for `name` with the page's options as JSON text, or false with
// errors naming the option. With `numbers`, the per-point arrays go there in binary (see chart_to_json).
bool chart_json(const App& app, std::string_view name, std::string_view options, std::string& out, model::Errors& errors,
                std::vector<double>* numbers = nullptr);
// chart_json's two halves, so each module links only its own: the charts of a scenario (with `pinned`, A
// beside it as while comparing), which the worker module computes from the link's scenario keys; and the
// fleet run's charts, which the page's module keeps with its run. Each refuses the other's keys by name.
bool scenario_chart_json(const model::Scenario& s, const model::Scenario* pinned, std::string_view name, std::string_view options,
                         std::string& out, model::Errors& errors, std::vector<double>* numbers = nullptr);
bool run_chart_json(const App& app, std::string_view name, std::string_view options, std::string& out, model::Errors& errors,
                    std::vector<double>* numbers = nullptr);

}  // namespace tierscope::app
