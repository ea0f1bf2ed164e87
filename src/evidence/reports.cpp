// Hand-written JSON and CSV for the figures and the card check: fixed field order, exact numbers, strings
// safe inside HTML (base/text.h), so the command line and the page produce the same bytes.
#include "evidence/reports.h"

#include <cmath>

#include "base/text.h"
#include "codec/url_codec.h"

namespace tierscope::model {

namespace {

// A pretty-printed object member: `indent` spaces, "key": and the value appended by the caller.
void key(std::string& o, int indent, const char* name, bool first) {
  o += first ? "\n" : ",\n";
  o.append(static_cast<std::size_t>(indent), ' ');
  append_json_string(o, name);
  o += ": ";
}
void str(std::string& o, int indent, const char* name, std::string_view v, bool first = false) {
  key(o, indent, name, first);
  append_json_string(o, v);
}
// Non-finite numbers (a value the setup cannot reach, an open band) are null.
void number(std::string& o, int indent, const char* name, double v, bool first = false) {
  key(o, indent, name, first);
  append_json_number(o, v);
}
void boolean(std::string& o, int indent, const char* name, bool v, bool first = false) {
  key(o, indent, name, first);
  o += v ? "true" : "false";
}
std::string finite_or_empty(double v) { return std::isfinite(v) ? num_exact(v) : std::string(); }

std::vector<FigureId> all_or(std::span<const FigureId> ids) {
  if (!ids.empty()) return {ids.begin(), ids.end()};
  std::vector<FigureId> all;
  for (int i = 0; i < kFigureCount; ++i) all.push_back(static_cast<FigureId>(i));
  return all;
}

}  // namespace

std::string figure_text(const Figure& f) {
  return f.feasible ? display_value(f.value, f.unit) : std::string("not computed");
}

std::string figures_to_json(const Figures& f, const Scenario& s, std::span<const FigureId> ids) {
  const Terms& t = f.computed.terms;
  std::string o = "{";
  str(o, 2, "preset", s.preset, true);
  str(o, 2, "hash", scenario_to_hash(s));
  boolean(o, 2, "feasible", t.feasible());
  key(o, 2, "infeasible", false);
  const Errors why = infeasible_errors(t);
  o += '[';
  for (std::size_t i = 0; i < why.size(); ++i) {
    o += i ? ",\n    {" : "\n    {";
    str(o, 6, "field", why[i].field, true);
    str(o, 6, "value", why[i].value);
    str(o, 6, "allowed", why[i].allowed);
    o += "\n    }";
  }
  o += why.empty() ? "]" : "\n  ]";
  key(o, 2, "figures", false);
  o += '[';
  const std::vector<FigureId> list = all_or(ids);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Figure& x = f[list[i]];
    o += i ? ",\n    {" : "\n    {";
    str(o, 6, "id", x.id, true);
    str(o, 6, "label", x.label);
    number(o, 6, "value", x.value);
    str(o, 6, "unit", x.unit);
    str(o, 6, "scope", scope_name(figure_info(x.fid).scope));
    str(o, 6, "text", figure_text(x));
    boolean(o, 6, "feasible", x.feasible);
    str(o, 6, "formula", x.formula);
    str(o, 6, "provenance", provenance_name(x.provenance));
    str(o, 6, "sources", figure_sources(f, x));
    str(o, 6, "tier", tier_name(x.tier));
    str(o, 6, "lifetime", lifetime_name(x.lifetime));
    o += "\n    }";
  }
  o += list.empty() ? "]" : "\n  ]";
  o += "\n}\n";
  return o;
}

std::string figures_to_csv(const Figures& f, std::span<const FigureId> ids) {
  std::string o = "id,label,value,unit,text,feasible,provenance,tier,lifetime,formula,sources,scope\n";
  for (FigureId id : all_or(ids)) {
    const Figure& x = f[id];
    append_csv_field(o, x.id);
    o += ',';
    append_csv_field(o, x.label);
    o += ',' + finite_or_empty(x.value) + ',';
    append_csv_field(o, x.unit);
    o += ',';
    append_csv_field(o, figure_text(x));
    o += x.feasible ? ",true," : ",false,";
    append_csv_field(o, provenance_name(x.provenance));
    o += ',';
    append_csv_field(o, tier_name(x.tier));
    o += ',';
    append_csv_field(o, lifetime_name(x.lifetime));
    o += ',';
    append_csv_field(o, x.formula);
    o += ',';
    append_csv_field(o, figure_sources(f, x));
    o += ',';  // the scope last: columns a script reads by position keep their places
    append_csv_field(o, scope_name(figure_info(x.fid).scope));
    o += '\n';
  }
  return o;
}

std::string card_to_json(const std::vector<CardRow>& rows, const Scenario& s) {
  std::string o = "{";
  str(o, 2, "scenario", scenario_to_hash(s), true);
  key(o, 2, "claims", false);
  o += '[';
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CardRow& r = rows[i];
    const Claim& c = *r.claim;
    const char* unit = figure_info(c.figure).unit;
    o += i ? ",\n    {" : "\n    {";
    str(o, 6, "id", c.id, true);
    str(o, 6, "claim", c.text);
    number(o, 6, "band_low", c.lo);
    number(o, 6, "band_high", c.hi);
    str(o, 6, "unit", unit);
    str(o, 6, "figure", figure_info(c.figure).id);
    number(o, 6, "value", r.value);
    boolean(o, 6, "band_high_open", !std::isfinite(c.hi));
    number(o, 6, "card_value", r.card_value);
    str(o, 6, "verdict", verdict_name(r.verdict));
    str(o, 6, "condition", r.condition);
    str(o, 6, "reason", r.reason);
    str(o, 6, "note", r.note);
    str(o, 6, "band", claim_band(c));
    str(o, 6, "value_text", std::isfinite(r.value) ? display_value(r.value, unit) : std::string("not computed"));
    str(o, 6, "card_value_text", display_value(r.card_value, unit));
    o += "\n    }";
  }
  o += rows.empty() ? "]" : "\n  ]";
  o += "\n}\n";
  return o;
}

std::string card_to_csv(const std::vector<CardRow>& rows) {
  std::string o = "id,claim,band_low,band_high,unit,value,card_value,verdict,condition,reason\n";
  for (const CardRow& r : rows) {
    const Claim& c = *r.claim;
    append_csv_field(o, c.id);
    o += ',';
    append_csv_field(o, c.text);
    o += ',' + num_exact(c.lo) + ',' + finite_or_empty(c.hi) + ',';
    append_csv_field(o, figure_info(c.figure).unit);
    o += ',' + finite_or_empty(r.value) + ',' + num_exact(r.card_value) + ',';
    append_csv_field(o, verdict_name(r.verdict));
    o += ',';
    append_csv_field(o, r.condition);
    o += ',';
    append_csv_field(o, r.reason);
    o += '\n';
  }
  return o;
}

}  // namespace tierscope::model
