// The app controller's fleet view: a run advanced in slices of any size reads, when done, exactly what
// `tierscope fleet --format json` prints for the same scenario; bad traces and impossible workloads are
// refused with named errors and leave the run in progress as it was.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "sim/fleet_run.h"
#include "ui/app.h"

using namespace tierscope;

namespace {
bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files here";
  return false;
}
}  // namespace

TEST_CASE("fleet view: sliced run in the app equals the CLI's JSON byte for byte") {
  ui::App app;
  ui::init(app);
  model::Errors errors;
  REQUIRE(ui::set_param(app, "hours", "1", errors));
  REQUIRE(ui::set_param(app, "arrivals", "3", errors));
  CHECK(ui::fleet_json(app) == "null\n");
  REQUIRE(ui::fleet_start(app, "", errors));
  const std::uint64_t revision = app.revision;
  std::uint64_t slice = 256;
  int slices = 0;
  while (!app.fleet.done()) {
    const std::uint64_t n = ui::fleet_advance(app, slice);
    slice = sim::next_slice_events(n, 2.0, 8.0);  // as if each slice took 2 ms of an 8 ms budget
    ++slices;
    REQUIRE(slices < 100000);
  }
  // Told when the run crossed an hour and when it ended, never once a slice.
  CHECK(app.revision > revision);
  CHECK(app.revision <= revision + 3);
  CHECK(ui::fleet_status_json(app).find("\"done\":true") != std::string::npos);
  const std::vector<std::string_view> args = {"fleet", "--set", "hours=1", "--set", "arrivals=3", "--format", "json"};
  const cli::Output cli_out = cli::run_cli(args, no_files);
  REQUIRE(cli_out.exit_code == cli::kExitOk);
  CHECK(ui::fleet_json(app) == cli_out.out);
}

TEST_CASE("fleet view: advancing by simulated time reaches the same end as advancing by events") {
  ui::App app;
  ui::init(app);
  model::Errors errors;
  REQUIRE(ui::set_param(app, "hours", "0.5", errors));
  REQUIRE(ui::fleet_start(app, "", errors));
  while (!app.fleet.done()) {
    ui::fleet_advance_by(app, 97.0);
    CHECK(app.fleet.progress() <= 1.0);
  }
  const std::string by_time = ui::fleet_json(app);
  REQUIRE(ui::fleet_start(app, "", errors));
  while (ui::fleet_advance(app, 5000) > 0) {
  }
  CHECK(ui::fleet_json(app) == by_time);
  CHECK(ui::fleet_advance_by(app, 10) == 0);  // done: nothing more
}

TEST_CASE("fleet view: a malformed trace or an impossible workload starts nothing") {
  ui::App app;
  ui::init(app);
  model::Errors errors;
  REQUIRE(ui::set_param(app, "hours", "0.1", errors));
  REQUIRE(ui::fleet_start(app, "", errors));
  CHECK(app.fleet.started());
  const std::string before = ui::fleet_json(app);
  CHECK_FALSE(ui::fleet_start(app, "{\"timestamp\": 0}\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "trace line 1");
  // Nothing of the trace was loaded, and the run in progress is kept as it was.
  CHECK(app.fleet.started());
  CHECK_FALSE(app.fleet.is_trace());
  CHECK(ui::fleet_json(app) == before);
  REQUIRE(ui::set_param(app, "arrivals", "100000", errors));
  CHECK_FALSE(ui::fleet_start(app, "", errors));
  CHECK(errors[0].field == "arrivals");
  CHECK(ui::fleet_json(app) == before);
  ui::fleet_cancel(app);
  CHECK_FALSE(app.fleet.started());
  CHECK(ui::fleet_json(app) == "null\n");
  // A recorded trace runs.
  REQUIRE(ui::set_param(app, "arrivals", "2", errors));
  REQUIRE(ui::fleet_start(app, "{\"timestamp\": 0, \"input_length\": 900, \"output_length\": 9, \"hash_ids\": [4, 5]}\n", errors));
  while (ui::fleet_advance(app, 1000) > 0) {
  }
  CHECK(ui::fleet_json(app).find("\"mode\":\"trace\"") != std::string::npos);
}

TEST_CASE("fleet view: slice sizes follow the measured time within bounds") {
  CHECK(sim::next_slice_events(0, 0, 8) == 256);
  CHECK(sim::next_slice_events(1000, 2, 8) == 4000);
  CHECK(sim::next_slice_events(1000, 1, 8) == 4000);   // at most 4× a step
  CHECK(sim::next_slice_events(10000, 16, 8) == 5000);
  CHECK(sim::next_slice_events(1000, 0, 8) == 4000);    // too fast to time
  CHECK(sim::next_slice_events(100, 100, 8) == 256);
  CHECK(sim::next_slice_events(1u << 30, 1, 8) == 1048576);
}
