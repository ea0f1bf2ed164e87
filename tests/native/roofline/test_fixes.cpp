// The ways out of a setup that cannot run (roofline/fixes.h): each fix, applied as a person's edit, makes the
// setup run, and none goes further than it must (one step less would not run).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/fixes.h"

using namespace tierscope::model;

namespace {

Scenario with(const char* preset, std::initializer_list<std::pair<const char*, const char*>> sets) {
  Scenario s;
  REQUIRE(make_preset(preset, s));
  for (const auto& [k, v] : sets) {
    Adjustments moved;
    Error err;
    REQUIRE(edit_param(s, *find_param(k), v, moved, err));
  }
  REQUIRE(validate(s).empty());
  return s;
}

// `s` after setting `field` to `value` as edit_param would; false when the edit is refused.
bool runs_with(const Scenario& s, const std::string& field, long long value) {
  Scenario next = s;
  Adjustments moved;
  Error err;
  return edit_param(next, *find_param(field), std::to_string(value), moved, err) && validate(next).empty() && setup_runs(next);
}

const SetupFix* fix_for(const std::vector<SetupFix>& fixes, std::string_view field) {
  for (const SetupFix& f : fixes)
    if (f.field == field) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("fixes: a setup that runs has none") {
  CHECK(setup_fixes(default_scenario()).empty());
}

TEST_CASE("fixes: weights that do not fit one GPU: the fewest GPUs that hold them, and each fix runs") {
  const Scenario s = with(kDefaultPreset, {{"gpus", "1"}});
  REQUIRE_FALSE(setup_runs(s));
  const std::vector<SetupFix> fixes = setup_fixes(s);
  const SetupFix* g = fix_for(fixes, "gpus");
  REQUIRE(g);
  const long long n = std::stoll(g->value);
  CHECK(runs_with(s, "gpus", n));
  for (long long fewer = 2; fewer < n; ++fewer) CHECK_FALSE(runs_with(s, "gpus", fewer));  // minimal
  CHECK(g->label == "use " + g->value + " GPUs");
  for (const SetupFix& f : fixes) CHECK(runs_with(s, f.field, std::stoll(f.value)));
}

TEST_CASE("fixes: a context beyond HBM: the largest context that fits, and the largest batch") {
  // A long context at a large batch: neither the sessions nor (at a huge context) one session fit.
  const Scenario s = with(kDefaultPreset, {{"ctx", "16000000"}, {"batch", "64"}});
  REQUIRE_FALSE(setup_runs(s));
  const std::vector<SetupFix> fixes = setup_fixes(s);
  REQUIRE_FALSE(fixes.empty());
  if (const SetupFix* c = fix_for(fixes, "ctx")) {
    const long long v = std::stoll(c->value);
    CHECK(runs_with(s, "ctx", v));
    CHECK_FALSE(runs_with(s, "ctx", v + 1));  // the largest that fits
    CHECK(c->label.starts_with("set ctx to "));
  }
  if (const SetupFix* b = fix_for(fixes, "batch")) {
    const long long v = std::stoll(b->value);
    CHECK(runs_with(s, "batch", v));
    CHECK_FALSE(runs_with(s, "batch", v + 1));
  }
  for (const SetupFix& f : fixes) {
    INFO(f.label);
    CHECK(runs_with(s, f.field, std::stoll(f.value)));
  }
}

TEST_CASE("fixes: too many sessions for HBM: the most it holds") {
  const Scenario s = with(kDefaultPreset, {{"batch", "100000"}});
  REQUIRE_FALSE(setup_runs(s));
  const std::vector<SetupFix> fixes = setup_fixes(s);
  const SetupFix* b = fix_for(fixes, "batch");
  REQUIRE(b);
  const long long v = std::stoll(b->value);
  CHECK(runs_with(s, "batch", v));
  CHECK_FALSE(runs_with(s, "batch", v + 1));
}

TEST_CASE("fixes: a context beyond the trained positions: exactly the positions") {
  Scenario s = with("llama31-8b-1xh100", {});
  REQUIRE(s.model.max_pos > 0);
  Adjustments moved;
  Error err;
  REQUIRE(edit_param(s, *find_param("ctx"), std::to_string(s.model.max_pos + 1000), moved, err));
  REQUIRE_FALSE(setup_runs(s));
  const std::vector<SetupFix> fixes = setup_fixes(s);
  const SetupFix* c = fix_for(fixes, "ctx");
  REQUIRE(c);
  CHECK(c->value == std::to_string(s.model.max_pos));
  CHECK(c->why.find("trained positions") != std::string::npos);
}
