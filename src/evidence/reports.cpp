// JSON and CSV for the figures and the card check: fixed field order, exact numbers, strings safe inside
// HTML (base/json_writer.h, base/text.h), so the command line and the page produce the same bytes.
#include "evidence/reports.h"

#include <cmath>

#include "base/json_writer.h"
#include "base/text.h"
#include "codec/url_codec.h"

namespace tierscope::model {

namespace {

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
  JsonWriter w;
  w.object(json_lines(2));
  w.str("preset", s.preset).str("hash", scenario_to_hash(s)).boolean("feasible", t.feasible());
  w.array("infeasible", json_lines(4));
  for (const Error& e : infeasible_errors(t)) {
    w.object(json_lines(6)).str("field", e.field).str("value", e.value).str("allowed", e.allowed).end();
  }
  w.end().array("figures", json_lines(4));
  for (const FigureId id : all_or(ids)) {
    const Figure& x = f[id];
    w.object(json_lines(6)).str("id", x.id).str("label", x.label);
    w.num("value", x.value);  // non-finite (a value the setup cannot reach) is null
    w.str("unit", x.unit).str("scope", scope_name(figure_info(x.fid).scope)).str("text", figure_text(x));
    w.boolean("feasible", x.feasible).str("formula", x.formula()).str("provenance", provenance_name(x.provenance));
    w.str("sources", figure_sources(f, x)).str("tier", tier_name(x.tier)).str("lifetime", lifetime_name(x.lifetime));
    w.end();
  }
  return w.end().end().newline().take();
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
    append_csv_field(o, x.formula());
    o += ',';
    append_csv_field(o, figure_sources(f, x));
    o += ',';  // the scope last: columns a script reads by position keep their places
    append_csv_field(o, scope_name(figure_info(x.fid).scope));
    o += '\n';
  }
  return o;
}

std::string card_to_json(const std::vector<CardRow>& rows, const Scenario& s) {
  JsonWriter w;
  w.object(json_lines(2)).str("scenario", scenario_to_hash(s)).array("claims", json_lines(4));
  for (const CardRow& r : rows) {
    const Claim& c = *r.claim;
    const char* unit = figure_info(c.figure).unit;
    w.object(json_lines(6)).str("id", c.id).str("claim", c.text);
    w.num("band_low", c.lo).num("band_high", c.hi);  // an open band's +inf is null
    w.str("unit", unit).str("figure", figure_info(c.figure).id).num("value", r.value);
    w.boolean("band_high_open", !std::isfinite(c.hi)).num("card_value", r.card_value);
    w.str("verdict", verdict_name(r.verdict)).str("condition", r.condition).str("reason", r.reason).str("note", r.note);
    w.str("band", claim_band(c));
    w.str("value_text", std::isfinite(r.value) ? display_value(r.value, unit) : std::string("not computed"));
    w.str("card_value_text", display_value(r.card_value, unit));
    w.end();
  }
  return w.end().end().newline().take();
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
