// The measured anchors: every published point applies its settings to its preset, can run, and its step's
// terms add up to the model's step time.
#include <catch2/catch.hpp>

#include <string>

#include "evidence/anchors.h"

using namespace tierscope::model;

TEST_CASE("anchors: every measured point applies its settings, can run, and its terms add up to the model's step") {
  REQUIRE(anchors().size() >= 5);
  int v41 = 0, others = 0;
  for (const AnchorResult& r : evaluate_anchors()) {
    INFO(r.anchor->id << ": " << r.why);
    REQUIRE(r.ok);
    (std::string(r.anchor->preset).rfind("v41", 0) == 0 ? v41 : others) += 1;
    double sum = 0;
    for (const StepTerm& t : r.terms) sum += t.seconds;
    CHECK(sum == Approx(r.step_model).epsilon(1e-9));
    CHECK(r.ratio > 0);
    CHECK(std::string(r.anchor->url).rfind("https://", 0) == 0);
  }
  CHECK(v41 >= 2);
  CHECK(others >= 3);
}
