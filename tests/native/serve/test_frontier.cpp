// The frontier chart from serving replays: a line per layout, the front non-dominated and marked with the
// layout and concurrency that open it, and the measured points of the same model and hardware on it.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/presets.h"
#include "serve/frontier.h"

using namespace tierscope;

TEST_CASE("frontier: layouts of the GPU count, the front non-dominated, each front point opens its layout") {
  model::Scenario s;
  REQUIRE(model::make_preset("v41-flash-4xgb300", s));
  serve::FrontierOptions o;
  o.input = 1024;
  o.output = 256;
  o.max_concurrency = 64;
  model::Chart c;
  model::Errors errors;
  REQUIRE(serve::frontier_chart(s, o, c, errors));
  CHECK(c.kind == model::ChartKind::Frontier);
  REQUIRE(c.lines.size() >= 3);  // the front and at least two layouts
  CHECK(c.lines[0].id == "pareto");
  CHECK(c.x.log);
  CHECK(!c.description.empty());
  // Every point of every layout lies on or under the front: none has more of both.
  std::vector<std::pair<double, double>> front;
  for (std::size_t i = 0; i < c.xs.size(); ++i)
    if (std::isfinite(c.lines[0].y[i])) front.emplace_back(c.xs[i], c.lines[0].y[i]);
  REQUIRE(!front.empty());
  for (std::size_t l = 1; l < c.lines.size(); ++l) {
    for (std::size_t i = 0; i < c.xs.size(); ++i) {
      if (!std::isfinite(c.lines[l].y[i])) continue;
      for (const auto& [fx, fy] : front) CHECK_FALSE((c.xs[i] > fx && c.lines[l].y[i] > fy));
    }
  }
  int marked = 0, measured = 0;
  for (const model::ChartMark& m : c.marks) {
    if (m.kind == "front") {
      ++marked;
      CHECK(m.setup.find("tp=") == 0);
      CHECK(m.setup.find("&batch=") != std::string::npos);
    }
    if (m.kind == "measured") ++measured;
  }
  CHECK(marked == static_cast<int>(front.size()));
  CHECK(measured >= 1);  // the preset's InferenceX points
  // MTP on and off are both layouts where the model has a draft module.
  bool mtp = false, plain = false;
  for (const model::ChartLine& l : c.lines) {
    mtp = mtp || l.id.find("-mtp") != std::string::npos;
    plain = plain || (l.id != "pareto" && l.id.find("-mtp") == std::string::npos);
  }
  CHECK(mtp);
  CHECK(plain);
}

TEST_CASE("frontier: the Pareto front keeps exactly the points no other beats on both axes") {
  const std::vector<double> x = {1, 2, 3, 4, 2.5, 0.5};
  const std::vector<double> y = {10, 8, 5, 1, 4, 12};
  const std::vector<std::size_t> f = serve::pareto_front(x, y);
  CHECK(f == std::vector<std::size_t>{5, 0, 1, 2, 3});
}
