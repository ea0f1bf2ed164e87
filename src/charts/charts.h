// Chart series as data: the decode roofline against batch, any figure swept over a parameter, and the
// decode step split by term beside the measured points carried for the same model. The page lays them
// out and draws SVG; `tierscope chart` prints the same numbers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"
#include "roofline/figures.h"
#include "roofline/step_terms.h"

namespace tierscope::model {

// The fleet kinds are drawn from a finished fleet run (sim/fleet_charts.h), the frontier from serving
// replays (serve/frontier.h), not from the scenario's figures alone.
enum class ChartKind : std::uint8_t { Roofline, Sweep, Breakdown, FleetOccupancy, FleetHits, FleetSweep, Frontier, ServeLatency, Count };
const char* chart_key(ChartKind k);  // "roofline", "sweep", "breakdown", "fleet-…" (URL view=chart-<key>)
bool chart_from_key(std::string_view key, ChartKind& out);
bool is_fleet_chart(ChartKind k);
bool is_replay_chart(ChartKind k);  // the frontier: one serving replay per point
// The latency of one serving replay by percentile: drawn by the page's Serve panel (view=serve), not a tab of
// the Charts panel nor a view of its own.
bool is_serve_chart(ChartKind k);
std::string chart_keys_text();  // "roofline, sweep, breakdown, fleet-occupancy, …"
const char* chart_label(ChartKind k);  // the chart's name on its tab: "Roofline", "Sweep", "Where the time goes"

// A tick with its label in the model's own number text; `level` 0 ticks (decades, or whole steps) come
// first, level 1 ticks (2× and 5×, or half steps) are drawn only where the page has room for them.
struct ChartTick {
  double v = 0;
  std::string label;
  int level = 0;
};

struct ChartAxis {
  std::string key;    // parameter or figure id ("batch", "decode.step_time")
  std::string label;  // words for the axis title
  std::string unit;   // base unit ("s", "B", "sessions")
  bool log = false;
  bool integer = false;            // whole values only (sessions, tokens): no ticks between integers
  double lo = 0, hi = 0;           // the domain: every drawn value, mark and band, widened to ticks
  std::vector<ChartTick> ticks;    // within [lo, hi]
};

// A line over the chart's x values. y is NaN where the figure is not shown (the point cannot run).
struct ChartLine {
  std::string id, label;
  std::string role;  // "model", "memory-roof", "compute-roof", "family", "secondary" (a second y axis), "front" (a Pareto front)
  std::string unit;  // the line's own unit when role is "secondary"
  std::string series;  // "A" or "B" when two scenarios are compared, else empty
  std::vector<double> y;
};

// An x range where the setup cannot run, with why (the first point's reason names the limit). Of two
// scenarios compared, each has its own spans ("A" or "B"), one per contiguous run of x where it cannot run.
struct ChartSpan {
  double from = 0, to = 0;
  std::string why;
  std::string series;  // "A" or "B" when two scenarios are compared, else empty
};

// A labelled point: the scenario's own operating point, the roofs' crossover, a measured anchor.
struct ChartMark {
  std::string id, kind, label, text;  // kind: "now", "crossover", "measured"
  std::string brief;                  // a few words beside the point ("crossover · 812.5", "measured · 0.95×")
  double x = 0, y = 0;
  double model = 0;  // measured marks: the model's value at the same settings
  double ratio = 0;  // measured marks: model / measured
  bool reachable = true;  // false: the mark lies where the setup cannot run
  std::string series;     // "A" or "B" when two scenarios are compared
  std::string setup;      // measured marks: the hardware and layout measured on ("4×GB300, TP4")
  bool elsewhere = false;  // measured marks: measured on other hardware or another layout than the chart's
};

// A band of y the design card claims for this figure.
struct ChartBand {
  std::string id, label;
  double lo = 0, hi = 0;  // hi may be +inf (an open band)
};

// One stacked bar: a decode step split by term, with the measured step when the bar is an anchor's.
struct ChartBar {
  std::string id, label;
  std::vector<StepTerm> terms;
  double total = 0;
  double measured = 0;  // 0: none
  std::string bound;    // "memory-bound", "compute-bound", "launch-bound"
  std::string series;   // "A" or "B" when two scenarios are compared
};

struct Chart {
  ChartKind kind = ChartKind::Roofline;
  std::string title, description;  // the description is the chart's text alternative
  ChartAxis x, y;
  ChartAxis y2;                     // for "secondary" lines (empty key: none)
  std::vector<double> xs;           // shared by every line
  std::vector<std::string> x_text;  // the same values as typed (`tierscope sweep --over key=…`)
  std::vector<ChartLine> lines;
  std::vector<ChartSpan> infeasible;  // where the scenario cannot run (of two: where each cannot)
  std::vector<ChartMark> marks;
  std::vector<ChartBand> bands;
  std::vector<ChartBar> bars;
  std::string command;  // the CLI command that prints the same numbers
};

// What a sweep chart plots. Values are text as a person would type them (see axis_values in sweep.h).
struct ChartOptions {
  std::string figure = "decode.step_time";
  std::string x_key;                    // empty: batch
  std::vector<std::string> x_values;    // empty: a default range around the scenario's own value
  std::string family_key;               // optional second key: one line per value
  std::vector<std::string> family_values;
  int points = 48;                      // for the default range (2 to 256)
};

// Fills `out`; false with errors naming the option, the value and what is allowed.
bool make_chart(const Scenario& s, ChartKind kind, const ChartOptions& options, Chart& out, Errors& errors);
// Two scenarios on one chart: A (pinned) and B (current), computed at the same x values (each line has a
// value wherever its scenario runs). Lines and marks of each, ids and labels prefixed "A: " / "B: " and
// `series` set; bars of A then B; each scenario's own shading where it cannot run; axes covering both.
bool make_chart_pair(const Scenario& a, const Scenario& b, ChartKind kind, const ChartOptions& options, Chart& out, Errors& errors);
// Two charts of one kind as one: A's series then B's, each named "A: …" and "B: …", over both sets of x
// values (make_chart_pair's second half; the frontier, computed by the serve room, pairs its own the same way).
void pair_charts(const Chart& ca, const Chart& cb, ChartKind kind, Chart& out);

// "8×B200, TP8" (", DP2", ", EP8" when the layout has them): the hardware and layout of one instance.
std::string setup_text(const Scenario& s);

// Ticks for a domain: 1-2-5 per decade on a log axis, a 1-2-5 step on a linear one. Widens [lo, hi]
// to the ticks around them. `unit` sets the label text ("10 ms", "2 GB", "1k").
void axis_ticks(ChartAxis& a, double lo, double hi);
// Domains and ticks of a chart from what it draws: its lines on each axis, its marks, bars and bands.
void finish_axes(Chart& c);
std::string tick_label(double v, std::string_view unit);

// With `numbers`, the per-point arrays (xs and each line's y) are appended there instead of written as text,
// and the JSON holds {"f64":[at,count]} in their place: the page reads them from WebAssembly memory, which
// spares printing and parsing every number on each redraw. Without it: plain JSON, as the CLI prints it.
std::string chart_to_json(const Chart& c, std::vector<double>* numbers = nullptr);
// One row per x value (lines) or per bar and term (bars); empty cells where a point cannot run.
std::string chart_to_csv(const Chart& c);

}  // namespace tierscope::model
