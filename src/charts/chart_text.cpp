// A chart as text: chart_to_json for the page and `tierscope chart --format json` (one writer, so the two
// agree byte for byte), chart_to_csv for `--format csv`.
#include "charts/charts.h"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "base/text.h"

namespace tierscope::model {

namespace {

void axis_json(JsonWriter& w, const char* k, const ChartAxis& a) {
  w.object(k).str("key", a.key).str("label", a.label).str("unit", a.unit).boolean("log", a.log).num("lo", a.lo).num("hi", a.hi);
  w.array("ticks");
  for (const ChartTick& t : a.ticks) w.object().num("v", t.v).str("label", t.label).num("level", t.level).end();
  w.end().end();
}

// A per-point array: the numbers, or (for the page) where they sit in `numbers` as {"f64":[at,count]}.
void numbers_json(JsonWriter& w, const char* k, const std::vector<double>& v, std::vector<double>* numbers) {
  w.key(k);
  if (numbers) {
    w.object().array("f64").integer(static_cast<long long>(numbers->size())).integer(static_cast<long long>(v.size())).end().end();
    numbers->insert(numbers->end(), v.begin(), v.end());
    return;
  }
  w.array();
  for (const double x : v) w.num(x);  // NaN → null: a point that cannot run
  w.end();
}

void line_json(JsonWriter& w, const Chart& c, const ChartLine& l, std::vector<double>* numbers) {
  const std::string& unit = l.unit.empty() ? c.y.unit : l.unit;
  w.object().str("id", l.id).str("label", l.label).str("role", l.role).str("series", l.series).str("unit", unit);
  numbers_json(w, "y", l.y, numbers);
  // Each value in the model's words, for the page's tooltips and data table ("" where it cannot run).
  w.array("y_text");
  for (const double y : l.y) w.str(std::isfinite(y) ? human(y, unit) : std::string());
  w.end().end();
}

void mark_json(JsonWriter& w, const ChartMark& m) {
  w.object().str("id", m.id).str("kind", m.kind).str("label", m.label).str("text", m.text).str("brief", m.brief);
  w.str("series", m.series).num("x", m.x).num("y", m.y);
  if (m.kind == "measured") w.num("model", m.model).num("ratio", m.ratio).str("setup", m.setup).boolean("elsewhere", m.elsewhere);
  // A point of the frontier's Pareto front names the link keys of its layout and concurrency (the page opens it).
  if (m.kind == "front") w.str("setup", m.setup);
  w.boolean("reachable", m.reachable).end();
}

void bar_json(JsonWriter& w, const ChartBar& b) {
  w.object().str("id", b.id).str("label", b.label).num("total", b.total).num("measured", b.measured);
  w.str("total_text", human(b.total, "s")).str("measured_text", b.measured > 0 ? human(b.measured, "s") : std::string());
  w.str("bound", b.bound).str("series", b.series).array("terms");
  for (const StepTerm& t : b.terms) w.object().str("label", t.label).num("seconds", t.seconds).str("text", human(t.seconds, "s")).end();
  w.end().end();
}

}  // namespace

std::string chart_to_json(const Chart& c, std::vector<double>* numbers) {
  JsonWriter w(4096 + c.xs.size() * 24 * (c.lines.size() + 2));
  w.object().str("chart", chart_key(c.kind)).str("title", c.title).str("description", c.description);
  axis_json(w, "x", c.x);
  axis_json(w, "y", c.y);
  if (!c.y2.key.empty()) axis_json(w, "y2", c.y2);
  numbers_json(w, "xs", c.xs, numbers);
  w.array("x_text");
  for (const double x : c.xs) w.str(human(x, c.x.unit));
  w.end().array("lines");
  for (const ChartLine& l : c.lines) line_json(w, c, l, numbers);
  w.end().str("infeasible_label", "cannot run");  // the shading's name in the legend
  w.array("infeasible");
  for (const ChartSpan& s : c.infeasible) {
    w.object().num("from", s.from).num("to", s.to).str("why", s.why).str("series", s.series);
    // The shading's name in the legend: of two scenarios, whose.
    w.str("label", s.series.empty() ? std::string("cannot run") : s.series + " cannot run").end();
  }
  w.end().array("marks");
  for (const ChartMark& m : c.marks) mark_json(w, m);
  w.end().array("bands");
  for (const ChartBand& b : c.bands) {
    w.object().str("id", b.id).str("label", b.label).num("lo", b.lo).num("hi", b.hi).end();  // an open band's +inf → null
  }
  w.end().array("bars");
  for (const ChartBar& b : c.bars) bar_json(w, b);
  w.end().str("command", c.command);
  return w.end().newline().take();
}

std::string chart_to_csv(const Chart& c) {
  std::string o;
  if (!c.bars.empty()) {
    o = "bar,term,seconds,total,measured,bound\n";
    for (const ChartBar& b : c.bars) {
      for (const StepTerm& t : b.terms) {
        append_csv_field(o, b.id);
        o += ',';
        append_csv_field(o, t.label);
        o += ',' + num_exact(t.seconds) + ',' + num_exact(b.total) + ',' + (b.measured > 0 ? num_exact(b.measured) : std::string()) + ',';
        append_csv_field(o, b.bound);
        o += '\n';
      }
    }
    return o;
  }
  append_csv_field(o, c.x.key);
  for (const ChartLine& l : c.lines) {
    o += ',';
    append_csv_field(o, l.id);
  }
  o += '\n';
  for (std::size_t i = 0; i < c.xs.size(); ++i) {
    o += i < c.x_text.size() ? c.x_text[i] : num_exact(c.xs[i]);
    for (const ChartLine& l : c.lines) {
      o += ',';
      if (i < l.y.size() && std::isfinite(l.y[i])) o += num_exact(l.y[i]);
    }
    o += '\n';
  }
  return o;
}

}  // namespace tierscope::model
