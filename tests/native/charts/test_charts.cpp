// Chart series: the numbers the page draws equal `tierscope sweep`'s, the roofs cross where the crossover
// figure says, what cannot run is shaded with why, and bad options are named.
//
// Sections: helpers · the roofline against `tierscope sweep`, its crossover and shading · measured points ·
// the sweep and the breakdown · bad options and the axes · the golden files · two scenarios on one chart, the
// binary handover.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/text.h"
#include "charts/charts.h"
#include "cli/cli.h"
#include "evidence/card_check.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope;
using namespace tierscope::model;

namespace {

bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files in this test";
  return false;
}

cli::Output run(const std::vector<std::string>& args) {
  std::vector<std::string_view> v(args.begin(), args.end());
  return cli::run_cli(v, no_files);
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else cell += c;
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

Chart chart(const Scenario& s, ChartKind k, const ChartOptions& o = {}) {
  Chart c;
  Errors e;
  REQUIRE(make_chart(s, k, o, c, e));
  REQUIRE(e.empty());
  return c;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : ",") + x;
  return out;
}

}  // namespace

TEST_CASE("charts: the roofline's series are the numbers `tierscope sweep` prints for the same batches") {
  for (const char* preset : {"v41-flash-8xb200", "deepseek-v3-8xh200", "llama31-8b-1xh100"}) {
    INFO(preset);
    Scenario s;
    REQUIRE(make_preset(preset, s));
    const Chart c = chart(s, ChartKind::Roofline);
    REQUIRE(c.lines.size() == 4);
    const auto out = run({"sweep", "--preset", preset, "--over", "batch=" + join(c.x_text), "--figures",
                          "decode.step_time,decode.memory_roof,decode.compute_roof,decode.tokens_per_s"});
    REQUIRE(out.exit_code == 0);
    const auto rows = csv_rows(out.out);
    REQUIRE(rows.size() == c.xs.size() + 1);
    for (std::size_t i = 0; i < c.xs.size(); ++i) {
      CHECK(rows[i + 1][0] == c.x_text[i]);
      for (std::size_t k = 0; k < 4; ++k) {
        const double y = c.lines[k].y[i];
        if (std::isfinite(y)) CHECK(std::stod(rows[i + 1][k + 1]) == y);
        else CHECK(rows[i + 1][k + 1].empty());
      }
    }
    // The same through `tierscope chart`: one serialiser for the page and the command line.
    const auto cli_chart = run({"chart", "roofline", "--preset", preset, "--format", "json"});
    CHECK(cli_chart.exit_code == 0);
    CHECK(cli_chart.out == chart_to_json(c));
  }
}

TEST_CASE("charts: the roofs cross at the crossover batch, and the step is never below either roof") {
  // MLA under data-parallel attention at a short context: each GPU runs all heads over its own sessions,
  // so attention turns compute-bound as the batch grows (under TP8 it never does: every rank reads the
  // whole latent for a sixteenth of the heads).
  Scenario s;
  REQUIRE(make_preset("deepseek-v3-8xh200", s));
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(s, *find_param("tp"), "1", moved, e));
  REQUIRE(edit_param(s, *find_param("ctx"), "4096", moved, e));
  const Chart c = chart(s, ChartKind::Roofline);
  const ChartMark* cross = nullptr;
  for (const ChartMark& m : c.marks) cross = m.kind == "crossover" ? &m : cross;
  REQUIRE(cross);
  Computed v;
  compute_values(s, v);
  CHECK(cross->x == v.values[FigureId::DecodeCrossoverBatch]);
  // The roofs themselves (computed even where the batch does not fit) swap order across the mark.
  auto roofs_at = [&](double b) {
    Scenario at = s;
    at.work.batch = static_cast<std::int32_t>(b);
    Computed r;
    compute_values(at, r);
    return std::pair{r.values[FigureId::DecodeComputeRoof], r.values[FigureId::DecodeMemoryRoof]};
  };
  const auto below = roofs_at(std::floor(cross->x * 0.99)), above = roofs_at(std::ceil(cross->x * 1.01));
  CHECK(below.first < below.second);
  CHECK(above.first > above.second);
  // Below the crossover memory wins, above it compute does (where both are drawn).
  for (std::size_t i = 0; i < c.xs.size(); ++i) {
    const double step = c.lines[0].y[i], mem = c.lines[1].y[i], comp = c.lines[2].y[i];
    if (!std::isfinite(step)) continue;
    CHECK(step >= mem * (1 - 1e-12));
    CHECK(step >= comp * (1 - 1e-12));
    if (c.xs[i] < cross->x * 0.95) CHECK(comp < mem);
    if (c.xs[i] > cross->x * 1.05) CHECK(comp > mem);
  }
}

TEST_CASE("charts: batches beyond capacity are shaded from the first one that does not fit, with why") {
  const Scenario s = default_scenario();
  const Chart c = chart(s, ChartKind::Roofline);
  Computed v;
  compute_values(s, v);
  const double capacity = v.values[FigureId::HbmSessions];
  REQUIRE(c.infeasible.size() == 1);
  CHECK(c.infeasible[0].from == capacity + 1);
  CHECK(c.infeasible[0].to == c.xs.back());
  CHECK(c.infeasible[0].why.find("exceeds") != std::string::npos);
  for (std::size_t i = 0; i < c.xs.size(); ++i) CHECK(std::isfinite(c.lines[0].y[i]) == (c.xs[i] <= capacity));
  CHECK(c.description.find("cannot run") != std::string::npos);
}

TEST_CASE("charts: measured points appear for the model they were measured on, with model/measured") {
  Scenario s;
  REQUIRE(make_preset("v41-flash-4xgb300", s));
  const Chart c = chart(s, ChartKind::Roofline);
  int measured = 0;
  for (const ChartMark& m : c.marks) {
    if (m.kind != "measured") continue;
    ++measured;
    CHECK(m.ratio == Approx(m.model / m.y));
    CHECK(m.text.find("https://") != std::string::npos);
  }
  CHECK(measured == 2);
  Scenario llama;
  REQUIRE(make_preset("llama31-8b-1xh100", llama));
  int llama_marks = 0;
  for (const ChartMark& m : chart(llama, ChartKind::Roofline).marks) llama_marks += m.kind == "measured";
  CHECK(llama_marks == 1);
  // A changed model is no longer the model those points were measured on.
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(s, *find_param("experts"), "128", moved, e));
  for (const ChartMark& m : chart(s, ChartKind::Roofline).marks) CHECK(m.kind != "measured");
}

TEST_CASE("charts: a sweep with a family of lines equals the two-axis sweep, and card bands follow the figure") {
  const Scenario s = default_scenario();
  ChartOptions o;
  o.figure = "decode.step_time";
  o.x_key = "ctx";
  o.x_values = {"4096", "65536", "1048576"};
  o.family_key = "gpus";
  o.family_values = {"4", "8"};
  const Chart c = chart(s, ChartKind::Sweep, o);
  REQUIRE(c.lines.size() == 2);
  const auto out = run({"sweep", "--over", "ctx=4096,65536,1048576", "--over", "gpus=4,8", "--figures", "decode.step_time"});
  REQUIRE(out.exit_code == 0);
  const auto rows = csv_rows(out.out);
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 2; ++j) {
      const auto& row = rows[1 + i * 2 + j];
      REQUIRE(row[1] == o.family_values[j]);
      if (std::isfinite(c.lines[j].y[i])) CHECK(std::stod(row[2]) == c.lines[j].y[i]);
      else CHECK(row[2].empty());
    }
  }
  // A figure the design card makes a claim about carries the claim's band.
  const Claim& claim = claims()[0];
  ChartOptions b;
  b.figure = figure_info(claim.figure).id;
  b.x_key = "ctx";
  const Chart banded = chart(s, ChartKind::Sweep, b);
  REQUIRE_FALSE(banded.bands.empty());
  CHECK(banded.bands[0].lo == claim.lo);
  CHECK(banded.xs.size() >= 2);
  CHECK(banded.x.log);
}

TEST_CASE("charts: the breakdown's terms add up to the step, and anchors show the measured step beside the model's") {
  Scenario s;
  REQUIRE(make_preset("v41-flash-4xgb300", s));
  const Chart c = chart(s, ChartKind::Breakdown);
  REQUIRE(c.bars.size() == 3);
  double sum = 0;
  for (const StepTerm& t : c.bars[0].terms) sum += t.seconds;
  CHECK(sum == Approx(c.bars[0].total).epsilon(1e-12));
  Computed v;
  compute_values(s, v);
  CHECK(c.bars[0].total == v.values[FigureId::DecodeStepTime]);
  for (std::size_t i = 1; i < c.bars.size(); ++i) {
    CHECK(c.bars[i].measured > 0);
    double t = 0;
    for (const StepTerm& term : c.bars[i].terms) t += term.seconds;
    CHECK(t == Approx(c.bars[i].total).epsilon(1e-12));
  }
}

TEST_CASE("charts: bad options are named with the value and what is allowed") {
  const Scenario s = default_scenario();
  auto fails = [&](ChartKind k, const ChartOptions& o, const char* field) {
    Chart c;
    c.title = "untouched";
    Errors e;
    CHECK_FALSE(make_chart(s, k, o, c, e));
    REQUIRE_FALSE(e.empty());
    CHECK(e[0].field.find(field) != std::string::npos);
    CHECK_FALSE(e[0].allowed.empty());
    CHECK(c.title == "untouched");
  };
  ChartOptions o;
  o.figure = "decode.nope";
  fails(ChartKind::Sweep, o, "figure");
  o = {};
  o.x_key = "gpu";  // an enum: not an axis
  fails(ChartKind::Sweep, o, "x");
  o = {};
  o.x_key = "ctx";
  o.family_key = "ctx";
  o.family_values = {"1"};
  fails(ChartKind::Sweep, o, "family");
  o.family_key = "gpus";
  o.family_values = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
  fails(ChartKind::Sweep, o, "family values");
  o = {};
  o.x_key = "ctx";
  o.x_values = {"1024", "lots"};
  fails(ChartKind::Sweep, o, "x values");
  o = {};
  o.points = 1000;
  fails(ChartKind::Roofline, o, "points");
  o = {};
  o.x_key = "tp";
  o.x_values = {"3"};  // tp must divide the GPUs: the point is refused, not drawn
  fails(ChartKind::Sweep, o, "tp=3");

  CHECK(run({"chart"}).exit_code == cli::kExitUsage);
  CHECK(run({"chart", "pie"}).exit_code == cli::kExitUsage);
  CHECK(run({"chart", "roofline", "--over", "batch=1,2"}).exit_code == cli::kExitUsage);
  CHECK(run({"chart", "sweep", "--figures", "nope"}).exit_code == cli::kExitInvalid);
  const auto ok = run({"chart", "sweep", "--figures", "kv.per_session", "--over", "ctx=1024,2048", "--format", "csv"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "ctx,kv.per_session\n1024,3614720\n2048,4526080\n");
}

TEST_CASE("charts: axes cover what is drawn, with 1-2-5 ticks labelled in the model's number text") {
  ChartAxis a;
  a.unit = "s";
  a.log = true;
  axis_ticks(a, 3.2e-6, 0.47);
  CHECK(a.lo == Approx(2e-6));
  CHECK(a.hi == Approx(0.5));
  REQUIRE_FALSE(a.ticks.empty());
  for (const ChartTick& t : a.ticks) {
    CHECK(t.v >= a.lo * (1 - 1e-9));
    CHECK(t.v <= a.hi * (1 + 1e-9));
    const double m = t.v / std::pow(10.0, std::floor(std::log10(t.v) + 1e-9));
    CHECK((std::fabs(m - 1) < 1e-9 || std::fabs(m - 2) < 1e-9 || std::fabs(m - 5) < 1e-9));
    CHECK(t.level == (std::fabs(m - 1) < 1e-9 ? 0 : 1));
  }
  CHECK(a.ticks.front().label == "2 µs");
  CHECK(a.ticks.back().label == "500 ms");
  ChartAxis lin;
  lin.unit = "sessions";
  axis_ticks(lin, 0, 273);
  CHECK(lin.lo == 0);
  CHECK(lin.hi == 300);
  CHECK(lin.ticks.front().label == "0");
  CHECK(lin.ticks.back().label == "300");
  CHECK(tick_label(1048576, "tokens") == "1.05M");
  CHECK(tick_label(2e9, "B") == "2 GB");
  // Every chart's domain holds every finite value it draws.
  for (ChartKind k : {ChartKind::Roofline, ChartKind::Sweep}) {
    const Chart c = chart(default_scenario(), k);
    for (const ChartLine& l : c.lines) {
      const ChartAxis& ax = l.role == "secondary" ? c.y2 : c.y;
      for (double y : l.y) {
        if (!std::isfinite(y)) continue;
        CHECK(y >= ax.lo * (1 - 1e-9));
        CHECK(y <= ax.hi * (1 + 1e-9));
      }
    }
    CHECK(c.x.lo <= c.xs.front());
    CHECK(c.x.hi >= c.xs.back());
  }
}

TEST_CASE("charts: the default preset's chart JSON matches the golden files the page's tests draw from") {
  for (const char* name : {"roofline", "sweep", "breakdown"}) {
    INFO(name);
    std::ifstream in(std::string(TIERSCOPE_GOLDEN_DIR) + "/chart-" + name + ".json", std::ios::binary);
    REQUIRE(in);
    std::ostringstream want;
    want << in.rdbuf();
    ChartKind k{};
    REQUIRE(chart_from_key(name, k));
    // If the change is intended, run tools/regen-golden.
    CHECK(chart_to_json(chart(default_scenario(), k)) == want.str());
  }
}

TEST_CASE("charts: two scenarios on one chart keep each one's numbers, on axes that cover both") {
  const Scenario a = default_scenario();
  Scenario b = a;
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(b, *find_param("gpus"), "8", moved, e));
  for (ChartKind k : {ChartKind::Roofline, ChartKind::Sweep, ChartKind::Breakdown}) {
    Chart pair;
    Errors errors;
    REQUIRE(make_chart_pair(a, b, k, {}, pair, errors));
    const Chart ca = chart(a, k), cb = chart(b, k);
    if (k == ChartKind::Breakdown) {
      REQUIRE(pair.bars.size() == ca.bars.size() + 1);  // B adds its own scenario; the measured points are A's
      CHECK(pair.bars.back().series == "B");
      CHECK(pair.bars.back().total == cb.bars[0].total);
      continue;
    }
    REQUIRE(pair.lines.size() == ca.lines.size() + cb.lines.size());
    for (std::size_t i = 0; i < ca.xs.size(); ++i) {
      const std::size_t at = static_cast<std::size_t>(std::lower_bound(pair.xs.begin(), pair.xs.end(), ca.xs[i]) - pair.xs.begin());
      const double y = pair.lines[0].y[at];
      CHECK((y == ca.lines[0].y[i] || (std::isnan(y) && std::isnan(ca.lines[0].y[i]))));
    }
    for (const ChartLine& l : pair.lines) {
      for (double y : l.y) {
        if (std::isfinite(y) && !(l.role == "secondary")) CHECK((y >= pair.y.lo * (1 - 1e-9) && y <= pair.y.hi * (1 + 1e-9)));
      }
    }
    CHECK(pair.lines.front().series == "A");
    CHECK(pair.lines.back().series == "B");
  }
}

TEST_CASE("charts: handed over in binary, a chart is the CLI's JSON with its arrays read from the numbers") {
  // The page reads xs and each line's y from WebAssembly memory; put back as text, the chart must be
  // byte for byte what `tierscope chart NAME --format json` prints, for every chart and for a comparison.
  Scenario b = default_scenario();
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(b, *find_param("gpus"), "8", moved, e));
  std::vector<Chart> charts;
  for (ChartKind k : {ChartKind::Roofline, ChartKind::Sweep, ChartKind::Breakdown}) {
    charts.push_back(chart(default_scenario(), k));
    Chart pair;
    Errors errors;
    REQUIRE(make_chart_pair(default_scenario(), b, k, {}, pair, errors));
    charts.push_back(std::move(pair));
  }
  for (const Chart& c : charts) {
    std::vector<double> numbers;
    const std::string binary = chart_to_json(c, &numbers);
    std::string restored;
    std::size_t from = 0, refs = 0, used = 0;
    const std::string tag = "{\"f64\":[";
    for (std::size_t at; (at = binary.find(tag, from)) != std::string::npos; ++refs) {
      restored.append(binary, from, at - from);
      std::size_t end = 0;
      const std::size_t start = std::stoul(binary.substr(at + tag.size()), &end);
      const std::size_t comma = at + tag.size() + end;
      REQUIRE(binary[comma] == ',');
      std::size_t end2 = 0;
      const std::size_t count = std::stoul(binary.substr(comma + 1), &end2);
      REQUIRE(binary.compare(comma + 1 + end2, 2, "]}") == 0);
      CHECK(start == used);  // laid end to end, in the order written
      REQUIRE(start + count <= numbers.size());
      restored += '[';
      for (std::size_t i = 0; i < count; ++i) {
        if (i) restored += ',';
        append_json_number(restored, numbers[start + i]);
      }
      restored += ']';
      used = start + count;
      from = comma + 1 + end2 + 2;
    }
    restored.append(binary, from, std::string::npos);
    CHECK(used == numbers.size());
    CHECK(refs == 1 + (c.kind == ChartKind::Breakdown ? 0 : c.lines.size()));
    CHECK(restored == chart_to_json(c));
  }
}

TEST_CASE("charts: compared at ctx 1,048,576, each scenario has a value at every x where it runs, and one span where it cannot") {
  // Pinned A at the default context, B at 1,048,576: the x values were merged with NaN at the other's
  // points, so A's lines were drawn as scattered moves and B's "cannot run" split into stripes.
  const Scenario a = default_scenario();
  Scenario b = a;
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(b, *find_param("ctx"), "1048576", moved, e));
  for (ChartKind k : {ChartKind::Roofline, ChartKind::Sweep}) {
    Chart pair;
    Errors errors;
    REQUIRE(make_chart_pair(a, b, k, {}, pair, errors));
    for (const ChartLine& l : pair.lines) {
      std::vector<std::size_t> at;
      for (std::size_t i = 0; i < l.y.size(); ++i) {
        if (std::isfinite(l.y[i])) at.push_back(i);
      }
      REQUIRE(at.size() > 1);
      CHECK(at.back() - at.front() + 1 == at.size());  // no gap inside the line's values
    }
    // Each scenario's values are its own chart's at the same x.
    const Chart cb = chart(b, k);
    for (std::size_t i = 0; i < cb.xs.size(); ++i) {
      const auto at = static_cast<std::size_t>(std::lower_bound(pair.xs.begin(), pair.xs.end(), cb.xs[i]) - pair.xs.begin());
      const ChartLine& bl = pair.lines[cb.lines.size()];
      REQUIRE(bl.series == "B");
      CHECK((bl.y[at] == cb.lines[0].y[i] || (std::isnan(bl.y[at]) && std::isnan(cb.lines[0].y[i]))));
    }
    int spans_b = 0;
    for (const ChartSpan& s : pair.infeasible) {
      CHECK((s.series == "A" || s.series == "B"));
      if (s.series == "B") {
        ++spans_b;
        CHECK(s.why.rfind("B cannot run: ", 0) == 0);
      }
    }
    if (k != ChartKind::Roofline) continue;  // the default sweep (batch 1 to 16) runs throughout
    CHECK(spans_b == 1);
    const std::string json = chart_to_json(pair);
    CHECK(json.find("\"label\":\"B cannot run\"") != std::string::npos);
  }
}

TEST_CASE("charts: a measured point from other hardware or another layout says where it was measured") {
  const Chart c = chart(default_scenario(), ChartKind::Roofline);
  int elsewhere = 0;
  for (const ChartMark& m : c.marks) {
    if (m.kind != "measured") continue;
    CHECK(!m.setup.empty());
    CHECK(m.text.find("measured on " + m.setup) == 0);
    CHECK(m.text.find("model ÷ measured") != std::string::npos);
    if (m.setup == "4×GB300, TP4") {
      CHECK(m.elsewhere);
      CHECK(m.brief.find("measured on 4×GB300, TP4") == 0);
      CHECK(m.text.find("(this chart: " + setup_text(default_scenario()) + ")") != std::string::npos);
      ++elsewhere;
    }
  }
  CHECK(elsewhere >= 1);
  CHECK(c.y.label.find("per instance") != std::string::npos);
  CHECK(chart_to_json(c).find("\"elsewhere\":true") != std::string::npos);
}

TEST_CASE("charts: a sweep of an offload's change marks where it flips sign, on the line, as the figures found it") {
  const Scenario s = default_scenario();
  const Figures f = describe(s);
  const double flip = f.find("offload.flip_hit_tokens_ssd")->value;
  REQUIRE(flip > 0);
  ChartOptions o;
  o.figure = "offload.change_ssd";
  o.x_key = "prefix_hit";
  o.x_values = {num(std::round(flip * 0.8)), num(std::round(flip * 1.25))};
  for (std::string& x : o.x_values) x.erase(std::remove(x.begin(), x.end(), ','), x.end());
  const Chart c = chart(s, ChartKind::Sweep, o);
  REQUIRE(c.lines.size() == 1);
  REQUIRE(c.lines[0].y.size() == 2);
  // The line changes sign between the two hits around the flip …
  CHECK((c.lines[0].y[0] < 0) != (c.lines[0].y[1] < 0));
  const ChartMark* mark = nullptr;
  for (const ChartMark& m : c.marks)
    if (m.id == "flip-ssd") mark = &m;
  REQUIRE(mark != nullptr);
  // … the mark is at the figure's flip, where the change is (nearly) zero.
  CHECK(mark->x == flip);
  CHECK(std::abs(mark->y) < 1e-3);
  CHECK(mark->text.find("offload.flip_hit_tokens_ssd") != std::string::npos);
  // A sweep of another figure, or along another axis, carries no flip.
  o.x_key = "batch";
  o.x_values = {"1", "64"};
  for (const ChartMark& m : chart(s, ChartKind::Sweep, o).marks) CHECK(m.id.rfind("flip-", 0) != 0);
}
