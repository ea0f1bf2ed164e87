// The fleet run's view as text (sim/fleet_view.h), as the page's worker hands a run to the page: read back,
// it gives the same bytes of fleet_json, the same CSV, the same hour lines and the same text again — in
// the middle of a run, at its end, with a sweep and for a recorded trace. A text that is not a view is
// refused naming the part, and leaves what was read before untouched.
#include <catch2/catch.hpp>

#include <string>

#include "fleet_helpers.h"
#include "sim/fleet_run.h"
#include "sim/fleet_view.h"

using namespace tierscope;

namespace {

// The view read back from its text must show everything the run's own view shows.
void check_round_trip(const sim::FleetRunView& v) {
  const std::string text = sim::fleet_view_text(v);
  sim::FleetRunView back;
  model::Errors errors;
  REQUIRE(sim::read_fleet_view(text, back, errors));
  REQUIRE(errors.empty());
  CHECK(sim::fleet_view_text(back) == text);
  CHECK(sim::fleet_json(back.snapshot, back.sweep_or_null()) == sim::fleet_json(v.snapshot, v.sweep_or_null()));
  CHECK(sim::fleet_csv(back.snapshot) == sim::fleet_csv(v.snapshot));
  REQUIRE(back.snapshot.hours.size() == v.snapshot.hours.size());
  for (std::size_t h = 0; h < v.snapshot.hours.size(); ++h) CHECK(sim::fleet_hour_line(back.snapshot, h) == sim::fleet_hour_line(v.snapshot, h));
  CHECK(back.started == v.started);
  CHECK(back.done == v.done);
  CHECK(back.main_done == v.main_done);
  CHECK(back.progress == v.progress);
  CHECK(back.now == v.now);
  CHECK(back.version == v.version);
  CHECK(back.is_trace == v.is_trace);
  CHECK(back.has_sweep == v.has_sweep);
}

}  // namespace

TEST_CASE("fleet view: a run read back from its text shows the same results, mid-run and done, with a sweep") {
  const model::Scenario s = fleet_test::scenario({{"hours", "3"}});
  sim::FleetRun run;
  model::Errors errors;
  const sim::SweepTier tier = sim::SweepTier::Dram;
  REQUIRE(run.start(s, "", errors, &tier));
  check_round_trip(run.view());  // just started: no hour yet
  while (run.view().snapshot.hours.size() < 2) REQUIRE(run.advance(20000) > 0);
  const sim::FleetRunView mid = run.view();
  CHECK_FALSE(mid.main_done);
  check_round_trip(mid);
  while (!run.done()) run.advance(1u << 20);
  const sim::FleetRunView end = run.view();
  REQUIRE(end.sweep_ready);
  CHECK(sim::fleet_json(end.snapshot, end.sweep_or_null()) == run.json());  // the CLI's bytes
  check_round_trip(end);
}

TEST_CASE("fleet view: a recorded trace's run reads back the same") {
  const model::Scenario s = fleet_test::scenario({{"hours", "1"}});
  sim::FleetRun run;
  model::Errors errors;
  REQUIRE(run.start(s, fleet_test::fixture("mooncake-conversation-head.jsonl"), errors));
  while (!run.done()) run.advance(1u << 20);
  const sim::FleetRunView v = run.view();
  CHECK(v.is_trace);
  CHECK(v.snapshot.has_bound);
  check_round_trip(v);
}

TEST_CASE("fleet view: a text that is not a view is refused, naming the part, and nothing is read") {
  sim::FleetRun run;
  model::Errors errors;
  REQUIRE(run.start(fleet_test::scenario({{"hours", "1"}}), "", errors));
  run.advance(5000);
  const std::string good = sim::fleet_view_text(run.view());
  sim::FleetRunView out;
  out.progress = 0.5;  // what was there before stays
  const auto refused = [&](const std::string& text, const char* part) {
    model::Errors e;
    INFO(text.substr(0, 80));
    CHECK_FALSE(sim::read_fleet_view(text, out, e));
    REQUIRE(e.size() == 1);
    CHECK(e[0].field == "fleet view");
    CHECK_THAT(e[0].value, Catch::Contains(part));
    CHECK(out.progress == 0.5);
  };
  refused("not json", "not JSON");
  refused("{}", "version");
  std::string v1 = good;  // the snapshot before the HBM prefix cache's hits: another layout, refused by its version
  v1.replace(v1.find("\"version\":2"), 11, "\"version\":1");
  refused(v1, "version");
  std::string no_mode = good;
  no_mode.replace(no_mode.find("\"mode\":\""), 8, "\"mode\":\"x");
  refused(no_mode, "result.mode");
  std::string bad_bin = good;
  const auto bins = bad_bin.find("\"bins\":[[");
  if (bins != std::string::npos) {
    bad_bin.replace(bins, 9, "\"bins\":[[9999,");
    refused(bad_bin, "bins");
  }
}
