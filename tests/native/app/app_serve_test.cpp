// The app controller's Serve view: the settings keep one spelling in the share link, and the replayed steps
// the page hands over fill HBM on the canvas for the step on screen; bad lists and steps are refused by
// name and change nothing; leaving the view or playing a path lets the path show again.
#include <catch2/catch.hpp>

#include <string>

#include "app/app.h"
#include "base/text.h"

using namespace tierscope;

TEST_CASE("serve view: settings in the link, and a replayed step's KV filling HBM on the canvas") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_view(app, "serve", "", errors));
  REQUIRE(app::set_serve(app, "input:2048,concurrency:16", errors));
  CHECK(app.serve == "concurrency:16,input:2048");
  CHECK(app::view_hash(app).find("view=serve&serve=concurrency:16,input:2048") != std::string::npos);
  CHECK_FALSE(app::set_serve(app, "concurrency:-3", errors));
  CHECK(errors.back().field == "serve.concurrency");
  CHECK(app.serve == "concurrency:16,input:2048");
  errors.clear();
  // No step on screen: no occupancy (the path draws as always).
  REQUIRE(app::set_serve_steps(app, "0.1,0.25,0.5", "0.4,0.6,0.7", -1, errors));
  CHECK_FALSE(app::serve_occupancy(app).on);
  REQUIRE(app::set_serve_steps(app, "0.1,0.25,0.5", "0.4,0.6,0.7", 1, errors));
  const layout::Occupancy o = app::serve_occupancy(app);
  REQUIRE(o.on);
  CHECK(o.tier[1] == Approx(0.25));
  CHECK(o.tier[0] < 0);  // SRAM holds nothing of it
  const double room = app.figures.computed.values[model::FigureId::HbmKvBudget];
  REQUIRE(!o.tier_text[1].empty());
  CHECK(o.tier_text[1].front().find(model::human(0.25 * room, "B") + " written") != std::string::npos);
  CHECK(o.tier_text[1].front().find("step 2 of 3") != std::string::npos);
  // Bad input changes nothing.
  CHECK_FALSE(app::set_serve_steps(app, "0.1,2", "0.1,0.2", 0, errors));
  CHECK(errors.back().field == "written");
  CHECK_FALSE(app::set_serve_steps(app, "0.1", "0.1,0.2", 0, errors));
  CHECK(errors.back().field == "reserved");
  CHECK_FALSE(app::set_serve_steps(app, "0.1,0.2", "0.1,0.2", 2, errors));
  CHECK(errors.back().field == "step");
  CHECK(app.serve_step == 1);
  // Playing a path leaves the step; so does leaving the view.
  app::play(app);
  CHECK_FALSE(app::serve_occupancy(app).on);
  REQUIRE(app::set_serve_steps(app, "0.1,0.2", "0.1,0.2", 0, errors));
  REQUIRE(app::set_view(app, "", "", errors));
  CHECK(app.serve_step == -1);
  CHECK_FALSE(app::serve_occupancy(app).on);
}
