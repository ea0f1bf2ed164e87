// A chart as text: chart_to_json for the page and `tierscope chart --format json` (one writer, so the two
// agree byte for byte), chart_to_csv for `--format csv`.
#include "charts/charts.h"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.h"

namespace tierscope::model {

namespace {

void json_key(std::string& o, const char* k) {
  append_json_string(o, k);
  o += ':';
}

void json_str(std::string& o, const char* k, std::string_view v) {
  json_key(o, k);
  append_json_string(o, v);
}

void json_num(std::string& o, const char* k, double v) {
  json_key(o, k);
  append_json_number(o, v);
}

void json_axis(std::string& o, const char* k, const ChartAxis& a) {
  json_key(o, k);
  o += '{';
  json_str(o, "key", a.key);
  o += ',';
  json_str(o, "label", a.label);
  o += ',';
  json_str(o, "unit", a.unit);
  o += ",\"log\":";
  o += a.log ? "true" : "false";
  o += ',';
  json_num(o, "lo", a.lo);
  o += ',';
  json_num(o, "hi", a.hi);
  o += ",\"ticks\":[";
  for (std::size_t i = 0; i < a.ticks.size(); ++i) {
    if (i) o += ',';
    o += '{';
    json_num(o, "v", a.ticks[i].v);
    o += ',';
    json_str(o, "label", a.ticks[i].label);
    o += ',';
    json_num(o, "level", a.ticks[i].level);
    o += '}';
  }
  o += "]}";
}

void json_numbers(std::string& o, const std::vector<double>& v, std::vector<double>* numbers) {
  if (numbers) {
    o += "{\"f64\":[" + std::to_string(numbers->size()) + ',' + std::to_string(v.size()) + "]}";
    numbers->insert(numbers->end(), v.begin(), v.end());
    return;
  }
  o += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    append_json_number(o, v[i]);  // NaN → null: a point that cannot run
  }
  o += ']';
}

}  // namespace

std::string chart_to_json(const Chart& c, std::vector<double>* numbers) {
  std::string o;
  o.reserve(4096 + c.xs.size() * 24 * (c.lines.size() + 2));
  o += '{';
  json_str(o, "chart", chart_key(c.kind));
  o += ',';
  json_str(o, "title", c.title);
  o += ',';
  json_str(o, "description", c.description);
  o += ',';
  json_axis(o, "x", c.x);
  o += ',';
  json_axis(o, "y", c.y);
  if (!c.y2.key.empty()) {
    o += ',';
    json_axis(o, "y2", c.y2);
  }
  o += ",\"xs\":";
  json_numbers(o, c.xs, numbers);
  o += ",\"x_text\":[";
  for (std::size_t k = 0; k < c.xs.size(); ++k) {
    if (k) o += ',';
    append_json_string(o, human(c.xs[k], c.x.unit));
  }
  o += ']';
  o += ",\"lines\":[";
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    const ChartLine& l = c.lines[i];
    if (i) o += ',';
    o += '{';
    json_str(o, "id", l.id);
    o += ',';
    json_str(o, "label", l.label);
    o += ',';
    json_str(o, "role", l.role);
    o += ',';
    json_str(o, "series", l.series);
    o += ',';
    json_str(o, "unit", l.unit.empty() ? c.y.unit : l.unit);
    o += ",\"y\":";
    json_numbers(o, l.y, numbers);
    // Each value in the model's words, for the page's tooltips and data table ("" where it cannot run).
    o += ",\"y_text\":[";
    for (std::size_t k = 0; k < l.y.size(); ++k) {
      if (k) o += ',';
      append_json_string(o, std::isfinite(l.y[k]) ? human(l.y[k], l.unit.empty() ? c.y.unit : l.unit) : std::string());
    }
    o += ']';
    o += '}';
  }
  o += "],";
  json_str(o, "infeasible_label", "cannot run");  // the shading's name in the legend
  o += ",\"infeasible\":[";
  for (std::size_t i = 0; i < c.infeasible.size(); ++i) {
    if (i) o += ',';
    o += '{';
    json_num(o, "from", c.infeasible[i].from);
    o += ',';
    json_num(o, "to", c.infeasible[i].to);
    o += ',';
    json_str(o, "why", c.infeasible[i].why);
    o += ',';
    json_str(o, "series", c.infeasible[i].series);
    o += ',';
    // The shading's name in the legend: of two scenarios, whose.
    json_str(o, "label", c.infeasible[i].series.empty() ? std::string("cannot run") : c.infeasible[i].series + " cannot run");
    o += '}';
  }
  o += "],\"marks\":[";
  for (std::size_t i = 0; i < c.marks.size(); ++i) {
    const ChartMark& m = c.marks[i];
    if (i) o += ',';
    o += '{';
    json_str(o, "id", m.id);
    o += ',';
    json_str(o, "kind", m.kind);
    o += ',';
    json_str(o, "label", m.label);
    o += ',';
    json_str(o, "text", m.text);
    o += ',';
    json_str(o, "brief", m.brief);
    o += ',';
    json_str(o, "series", m.series);
    o += ',';
    json_num(o, "x", m.x);
    o += ',';
    json_num(o, "y", m.y);
    if (m.kind == "measured") {
      o += ',';
      json_num(o, "model", m.model);
      o += ',';
      json_num(o, "ratio", m.ratio);
      o += ',';
      json_str(o, "setup", m.setup);
      o += ",\"elsewhere\":";
      o += m.elsewhere ? "true" : "false";
    }
    o += ",\"reachable\":";
    o += m.reachable ? "true" : "false";
    o += '}';
  }
  o += "],\"bands\":[";
  for (std::size_t i = 0; i < c.bands.size(); ++i) {
    if (i) o += ',';
    o += '{';
    json_str(o, "id", c.bands[i].id);
    o += ',';
    json_str(o, "label", c.bands[i].label);
    o += ',';
    json_num(o, "lo", c.bands[i].lo);
    o += ',';
    json_num(o, "hi", c.bands[i].hi);  // an open band's +inf → null
    o += '}';
  }
  o += "],\"bars\":[";
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const ChartBar& b = c.bars[i];
    if (i) o += ',';
    o += '{';
    json_str(o, "id", b.id);
    o += ',';
    json_str(o, "label", b.label);
    o += ',';
    json_num(o, "total", b.total);
    o += ',';
    json_num(o, "measured", b.measured);
    o += ',';
    json_str(o, "total_text", human(b.total, "s"));
    o += ',';
    json_str(o, "measured_text", b.measured > 0 ? human(b.measured, "s") : std::string());
    o += ',';
    json_str(o, "bound", b.bound);
    o += ',';
    json_str(o, "series", b.series);
    o += ",\"terms\":[";
    for (std::size_t k = 0; k < b.terms.size(); ++k) {
      if (k) o += ',';
      o += '{';
      json_str(o, "label", b.terms[k].label);
      o += ',';
      json_num(o, "seconds", b.terms[k].seconds);
      o += ',';
      json_str(o, "text", human(b.terms[k].seconds, "s"));
      o += '}';
    }
    o += "]}";
  }
  o += "],";
  json_str(o, "command", c.command);
  o += "}\n";
  return o;
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
