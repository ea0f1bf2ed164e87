// The figures and card check writers and the page's chart options: valid JSON with every figure and its
// display text, "not computed" where the setup cannot run, and each bad chart option named.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "base/text.h"
#include "charts/chart_options.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope::model;
using Json = nlohmann::json;

TEST_CASE("reports: figures JSON holds every figure with its display text, and CSV one row each") {
  const Scenario s = default_scenario();
  const Figures f = describe(s);
  const Json j = Json::parse(figures_to_json(f, s));
  CHECK(j["preset"] == s.preset);
  CHECK(j["feasible"] == true);
  REQUIRE(j["figures"].size() == static_cast<std::size_t>(kFigureCount));
  for (const Json& x : j["figures"]) {
    const Figure* fig = f.find(x["id"].get<std::string>());
    REQUIRE(fig);
    CHECK(x["text"] == figure_value_text(*fig));
    CHECK(x["value"].get<double>() == fig->value);  // exact
    // What it counts, beside the unit: every figure has one, named as the table names it.
    CHECK(x["scope"] == scope_name(figure_info(fig->fid).scope));
    CHECK(!x["scope"].get<std::string>().empty());
  }
  CHECK(j["figures"][static_cast<int>(FigureId::HbmSessionsPerNode)]["scope"] == "per node");
  CHECK(j["figures"][static_cast<int>(FigureId::HbmWeightsPerGpu)]["scope"] == "per GPU");
  const std::string csv = figures_to_csv(f);
  CHECK(csv.substr(0, csv.find('\n')).ends_with(",sources,scope"));
  CHECK(csv.find(",per node\n") != std::string::npos);  // hbm.sessions_per_node's row ends with its scope
  CHECK(static_cast<int>(std::count(csv.begin(), csv.end(), '\n')) >= kFigureCount + 1);
  const FigureId one[] = {FigureId::KvGlobalPerToken};
  CHECK(Json::parse(figures_to_json(f, s, one))["figures"].size() == 1);
}

TEST_CASE("reports: a setup that cannot run says why, and its timed figures are not computed") {
  Scenario s = default_scenario();
  Error e;
  Adjustments moved;
  REQUIRE(edit_param(s, *find_param("gpus"), "1", moved, e));
  const Figures f = describe(s);
  const Json j = Json::parse(figures_to_json(f, s));
  CHECK(j["feasible"] == false);
  CHECK_FALSE(j["infeasible"].empty());
  bool any = false;
  for (const Json& x : j["figures"]) any = any || x["text"] == "not computed";
  CHECK(any);
}

TEST_CASE("reports: card check JSON names each claim with its verdict and the numbers as text") {
  const Scenario s = default_scenario();
  const auto rows = check_card(s);
  const Json j = Json::parse(card_to_json(rows, s));
  REQUIRE(j["claims"].size() == rows.size());
  for (const Json& c : j["claims"]) {
    CHECK_FALSE(c["claim"].get<std::string>().empty());
    CHECK_FALSE(c["verdict"].get<std::string>().empty());
    CHECK_FALSE(c["band"].get<std::string>().empty());
    CHECK_FALSE(c["value_text"].get<std::string>().empty());
  }
  CHECK(card_to_csv(rows).starts_with("id,claim,band_low,band_high,unit,value,card_value,verdict,condition,reason\n"));
}

TEST_CASE("chart options: fields are read, ranges go through axis_values, and each bad one is named") {
  ChartOptions o;
  Errors errors;
  REQUIRE(chart_options_from_json(ChartKind::Sweep, R"({"figure":"hbm.sessions","x":"ctx","values":{"from":4096,"to":65536,"points":5,"log":true},"family":"gpus","familyValues":[4,8]})", o, errors));
  CHECK(o.figure == "hbm.sessions");
  CHECK(o.x_key == "ctx");
  CHECK(o.x_values == std::vector<std::string>{"4096", "8192", "16384", "32768", "65536"});
  CHECK(o.family_values == std::vector<std::string>{"4", "8"});
  REQUIRE(chart_options_from_json(ChartKind::Sweep, R"({"x":"batch","values":[1,8,"64"]})", o, errors));
  CHECK(o.x_values == std::vector<std::string>{"1", "8", "64"});
  CHECK(chart_options_from_json(ChartKind::Roofline, "", o, errors));
  CHECK(errors.empty());

  const auto fails = [](ChartKind k, const char* json, const char* field, ErrorCode code) {
    ChartOptions out;
    Errors errs;
    CHECK_FALSE(chart_options_from_json(k, json, out, errs));
    bool found = false;
    for (const Error& e : errs) found = found || (e.field == field && e.code == code);
    INFO(json);
    CHECK(found);
  };
  fails(ChartKind::Sweep, "not json", "options", ErrorCode::WrongType);
  fails(ChartKind::Sweep, "[1,2]", "options", ErrorCode::WrongType);
  fails(ChartKind::Sweep, R"({"colour":"red"})", "colour", ErrorCode::UnknownKey);
  fails(ChartKind::Sweep, R"({"x":7})", "x", ErrorCode::WrongType);
  fails(ChartKind::Sweep, R"({"values":[]})", "values", ErrorCode::OutOfRange);
  fails(ChartKind::Sweep, R"({"values":[{"a":1}]})", "values", ErrorCode::WrongType);
  fails(ChartKind::Sweep, R"({"x":"ctx","values":{"from":1}})", "values", ErrorCode::MissingField);
  fails(ChartKind::Sweep, R"({"x":"ctx","values":{"from":1,"to":2,"points":1000}})", "values.points", ErrorCode::OutOfRange);
  fails(ChartKind::Sweep, R"({"family":"gpus"})", "familyValues", ErrorCode::MissingField);
  fails(ChartKind::Roofline, R"({"x":"ctx"})", "x", ErrorCode::BadSyntax);
  fails(ChartKind::Roofline, R"({"points":1})", "points", ErrorCode::OutOfRange);
}
