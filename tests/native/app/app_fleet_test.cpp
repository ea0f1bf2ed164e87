// The app controller's fleet view: a run advanced in slices of any size reads, when done, exactly what
// `tierscope fleet --format json` prints for the same scenario; bad traces and impossible workloads are
// refused with named errors and leave the run in progress as it was.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <cmath>

#include "app/app.h"
#include "app/page_json.h"
#include "base/text.h"
#include "cli/cli.h"
#include "sim/fleet_report.h"
#include "sim/fleet_run.h"
#include "sim/fleet_view.h"

using namespace tierscope;

namespace {
bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files here";
  return false;
}
}  // namespace

TEST_CASE("fleet view: sliced run in the app equals the CLI's JSON byte for byte") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", "1", errors));
  REQUIRE(app::set_param(app, "arrivals", "3", errors));
  CHECK(app::fleet_json(app) == "null\n");
  REQUIRE(app::fleet_start(app, "", errors));
  const std::uint64_t revision = app.revision;
  std::uint64_t slice = 256;
  int slices = 0;
  while (!app.fleet.done) {
    const std::uint64_t n = app::fleet_advance(app, slice);
    slice = sim::next_slice_events(n, 2.0, 8.0);  // as if each slice took 2 ms of an 8 ms budget
    ++slices;
    REQUIRE(slices < 100000);
  }
  // Told when the run crossed an hour and when it ended, never once a slice.
  CHECK(app.revision > revision);
  CHECK(app.revision <= revision + 3);
  CHECK(app::fleet_status_json(app).find("\"done\":true") != std::string::npos);
  const std::vector<std::string_view> args = {"fleet", "--set", "hours=1", "--set", "arrivals=3", "--format", "json"};
  const cli::Output cli_out = cli::run_cli(args, no_files);
  REQUIRE(cli_out.exit_code == cli::kExitOk);
  CHECK(app::fleet_json(app) == cli_out.out);
}

TEST_CASE("fleet view: advancing by simulated time reaches the same end as advancing by events") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", "0.5", errors));
  REQUIRE(app::fleet_start(app, "", errors));
  while (!app.fleet.done) {
    app::fleet_advance_by(app, 97.0);
    CHECK(app.fleet.progress <= 1.0);
  }
  const std::string by_time = app::fleet_json(app);
  REQUIRE(app::fleet_start(app, "", errors));
  while (app::fleet_advance(app, 5000) > 0) {
  }
  CHECK(app::fleet_json(app) == by_time);
  CHECK(app::fleet_advance_by(app, 10) == 0);  // done: nothing more
}

TEST_CASE("fleet view: a malformed trace or an impossible workload starts nothing") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", "0.1", errors));
  REQUIRE(app::fleet_start(app, "", errors));
  CHECK(app.fleet.started);
  const std::string before = app::fleet_json(app);
  CHECK_FALSE(app::fleet_start(app, "{\"timestamp\": 0}\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "trace line 1");
  // Nothing of the trace was loaded, and the run in progress is kept as it was.
  CHECK(app.fleet.started);
  CHECK_FALSE(app.fleet.is_trace);
  CHECK(app::fleet_json(app) == before);
  REQUIRE(app::set_param(app, "arrivals", "100000", errors));
  CHECK_FALSE(app::fleet_start(app, "", errors));
  CHECK(errors[0].field == "arrivals");
  CHECK(app::fleet_json(app) == before);
  app::fleet_cancel(app);
  CHECK_FALSE(app.fleet.started);
  CHECK(app::fleet_json(app) == "null\n");
  // A recorded trace runs.
  REQUIRE(app::set_param(app, "arrivals", "2", errors));
  REQUIRE(app::fleet_start(app, "{\"timestamp\": 0, \"input_length\": 900, \"output_length\": 9, \"hash_ids\": [4, 5]}\n", errors));
  while (app::fleet_advance(app, 1000) > 0) {
  }
  CHECK(app::fleet_json(app).find("\"mode\":\"trace\"") != std::string::npos);
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

namespace {
// A short run of the default scenario, done.
void run_to_end(app::App& app, const char* hours = "3") {
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", hours, errors));
  REQUIRE(app::set_view(app, "fleet", errors));
  REQUIRE(app::fleet_start(app, "", errors));
  while (!app.fleet.done) REQUIRE(app::fleet_advance(app, 50000) > 0);
}
}  // namespace

TEST_CASE("fleet view: opened and left through the view codec's keys — a link carries view=fleet") {
  app::App app;
  app::init(app);
  model::Errors errors;
  CHECK_FALSE(app::set_view(app, "fleets", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "view");
  CHECK(errors[0].allowed.find("fleet") != std::string::npos);
  app::play(app);
  REQUIRE(app.playback.playing);
  errors.clear();
  REQUIRE(app::set_view(app, "fleet", errors));
  CHECK(app::fleet_view(app));
  CHECK_FALSE(app.playback.playing);  // one clock plays at a time
  CHECK(app::view_hash(app).find("view=fleet") != std::string::npos);
  // The link reopens the fleet view with the same workload and seed.
  REQUIRE(app::set_param(app, "seed", "7", errors));
  app::App other;
  app::init(other);
  CHECK(app::apply_hash(other, app::view_hash(app), errors));
  CHECK(app::fleet_view(other));
  CHECK(other.scenario.fleet.seed == 7);
  // Choosing an animation leaves the fleet view.
  app::set_path(app, anim::PathId::Prefill);
  CHECK_FALSE(app::fleet_view(app));
}

TEST_CASE("fleet view: the clock follows the run hour by hour, then plays the day, steps and seeks hours") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", "3", errors));
  REQUIRE(app::set_view(app, "fleet", errors));
  CHECK(app::fleet_hours(app) == 3);
  REQUIRE(app::fleet_start(app, "", errors));
  int last_hour = -1;
  while (!app.fleet.main_done) {
    app::fleet_advance(app, 20000);
    // While the run computes, the clock shows the last whole hour computed, never beyond it.
    CHECK(app.fleet_clock.t <= app.fleet.now);
    CHECK(std::fmod(app.fleet_clock.t, 3600.0) == 0);
    CHECK(app::fleet_hour(app) >= last_hour);
    last_hour = app::fleet_hour(app);
  }
  CHECK(app.fleet_clock.t == 3 * 3600.0);  // the end of the run
  CHECK(app::fleet_hour(app) == 2);
  // Play, step and seek act on the fleet clock in the fleet view.
  app::play(app);  // at the end: the day again from its start
  CHECK(app.fleet_clock.playing);
  CHECK(app.fleet_clock.t == 0);
  const std::uint64_t rev = app.revision;
  CHECK(app::tick(app, 0.25));  // half a simulated hour at 2 h/s
  CHECK(app.fleet_clock.t == 1800.0);
  CHECK(app.revision == rev);  // same hour: the page is not told
  CHECK(app::tick(app, 0.5));
  CHECK(app::fleet_hour(app) == 1);
  CHECK(app.revision > rev);   // a new hour is
  while (app.fleet_clock.playing) app::tick(app, 0.5);
  CHECK(app.fleet_clock.t == 3 * 3600.0);
  CHECK_FALSE(app::tick(app, 0.5));  // paused: nothing to draw
  app::step_by(app, -1);
  CHECK(app::fleet_hour(app) == 1);
  CHECK_FALSE(app::seek(app, 3, errors));  // hours 0 to 2
  CHECK(errors.back().field == "step");
  CHECK(app::seek(app, 0, errors));
  CHECK(app.fleet_clock.t == 3600.0);  // an hour is shown at its end, where its turns are counted
  // The state says the clock in the view's terms, and the hour as the command line prints it.
  const std::string st = app::state_json(app);
  CHECK(st.find("\"step\":0,\"steps\":3") != std::string::npos);
  CHECK(st.find("\"view\":\"fleet\"") != std::string::npos);
  CHECK(st.find("\"entrySentence\":\"hour 1 (00:00–01:00): ") != std::string::npos);
  CHECK(st.find("\"posText\":\"hour 1 of 3\"") != std::string::npos);
  CHECK(st.find("\"clockText\":\"00:00–01:00\"") != std::string::npos);
}

TEST_CASE("fleet view: at the last hour the clock reads that hour, counted as the ledger counts it") {
  // It said "hour 23 of 24 · 24:00 of 24:00": the hour counted from 0 beside a clock at its end.
  app::App app;
  app::init(app);
  run_to_end(app, "3");
  model::Errors errors;
  REQUIRE(app::seek(app, 2, errors));
  CHECK(app::fleet_position_text(app) == "hour 3 of 3");
  CHECK(app::fleet_clock_text(app) == "02:00–03:00");
  const std::string st = app::state_json(app);
  CHECK(st.find("\"posText\":\"hour 3 of 3\"") != std::string::npos);
  CHECK(st.find("\"countersFor\":\"hour 3 (02:00–03:00)\"") != std::string::npos);
  // The ledger's last row names the same hour.
  const std::string ledger = app::fleet_ledger_json(app);
  CHECK(ledger.find("\"step\":\"hour 3\",\"phase\":\"\",\"at\":\"02:00–03:00\"") != std::string::npos);
  CHECK(ledger.find("\"step\":\"hour 0\"") == std::string::npos);
  // While the day plays, the moment within the hour is given as well.
  app::play(app);
  app::tick(app, 0.25);
  CHECK(app::fleet_clock_text(app) == "00:00–01:00 · at 00:30");
}

TEST_CASE("fleet view: the ledger lists each hour as `tierscope fleet` prints it — counters are the hour's") {
  app::App app;
  app::init(app);
  run_to_end(app);
  const std::string rows = app::ledger_view_json(app, {});
  const sim::FleetResult& r = app.fleet.snapshot;
  REQUIRE(r.hours.size() == 3);
  for (std::size_t h = 0; h < 3; ++h) {
    std::string line;
    model::append_json_string(line, sim::fleet_hour_line(r, h));
    CHECK(rows.find("\"sentence\":" + line) != std::string::npos);
    // The same line as the command line's text output.
    CHECK(sim::fleet_text(r).find(sim::fleet_hour_line(r, h) + "\n") != std::string::npos);
  }
  CHECK(rows.find("\"steps\":3") != std::string::npos);
  const std::string st = app::fleet_state_json(app);
  CHECK(st.find("\"label\":\"Prefix hits\"") != std::string::npos);
  CHECK(st.find("\"label\":\"TTFT p95\"") != std::string::npos);
  CHECK(st.find("\"done\":true") != std::string::npos);
  CHECK(st.find("\"totalText\":\"total: ") != std::string::npos);
  // The downloads are the command line's bytes.
  std::string csv, json;
  model::Errors errors;
  REQUIRE(app::ledger_export(app, "csv", {}, csv, errors));
  CHECK(csv == app.fleet_run.csv());
  REQUIRE(app::fleet_export(app, "json", json, errors));
  CHECK(json == app::fleet_json(app));
  CHECK_FALSE(app::fleet_export(app, "xml", json, errors));
}

TEST_CASE("fleet view: the canvas's occupancy is the run's samples as shares of each tier's room") {
  app::App app;
  app::init(app);
  run_to_end(app, "3");
  const sim::FleetResult& r = app.fleet.snapshot;
  model::Errors errors;
  REQUIRE(app::seek(app, 0, errors));  // hour 0 at its end, 01:00: a sample's time
  const layout::Occupancy o = app::fleet_occupancy(app);
  REQUIRE(o.on);
  const sim::Sample* at = nullptr;
  for (const sim::Sample& s : r.samples) at = s.t == 3600 ? &s : at;
  REQUIRE(at);
  CHECK(o.tier[0] < 0);  // SRAM holds no fleet state
  CHECK(o.tier[1] == static_cast<float>(at->hbm_bytes / (r.nodes * r.hbm_bytes)));
  CHECK(o.tier[3] == static_cast<float>(at->ssd_bytes / (r.nodes * r.ssd_bytes)));
  CHECK(o.object[static_cast<std::size_t>(anim::ObjectKind::GlobalKv)] == o.tier[1]);
  for (float v : o.tier) CHECK(v <= 1.0f);
  CHECK_FALSE(o.tier_text[1].empty());
  // Out of the fleet view the canvas shows the path's fills.
  app::set_path(app, anim::PathId::Decode);
  CHECK_FALSE(app::fleet_occupancy(app).on);
}

TEST_CASE("fleet view: fleet charts through the page's chart call need a finished run and take no options") {
  app::App app;
  app::init(app);
  std::string out;
  model::Errors errors;
  CHECK_FALSE(app::chart_json(app, "fleet-occupancy", "{}", out, errors));
  CHECK(errors.back().field == "fleet run");
  run_to_end(app, "1");
  errors.clear();
  REQUIRE(app::chart_json(app, "fleet-occupancy", "{}", out, errors));
  CHECK(out.find("\"chart\":\"fleet-occupancy\"") != std::string::npos);
  CHECK_FALSE(app::chart_json(app, "fleet-hits", "{\"points\": 9}", out, errors));
  CHECK(errors.back().field == "points");
  CHECK_FALSE(app::chart_json(app, "fleet-sweep", "", out, errors));
  CHECK(errors.back().field == "sweep");
  CHECK_FALSE(app::fleet_start(app, "", "hbm", errors));
  CHECK(errors.back().field == "sweep");
  // The catalog lists the fleet kinds with the others.
  CHECK(app::catalog_json(app).find("\"fleet-sweep\"") != std::string::npos);
}

TEST_CASE("fleet run: the run sizes its own slices from the last one's time, afresh with each run") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "hours", "1", errors));
  REQUIRE(app::fleet_start(app, "", errors));
  CHECK(app.fleet_run.next_slice() == sim::next_slice_events(0, 0, sim::kSliceTargetMs));
  const std::uint64_t first = app.fleet_run.next_slice();
  const std::uint64_t handled = app::fleet_advance(app, first);
  REQUIRE(handled > 0);
  app.fleet_run.slice_took(handled, sim::kSliceTargetMs / 2);  // half the target: the next slice is twice as large
  CHECK(app.fleet_run.next_slice() == sim::next_slice_events(handled, sim::kSliceTargetMs / 2, sim::kSliceTargetMs));
  CHECK(app.fleet_run.next_slice() == 2 * handled);
  app.fleet_run.slice_took(0, 100);  // a slice that ran nothing says nothing of the speed
  CHECK(app.fleet_run.next_slice() == 2 * handled);
  CHECK(sim::kSliceTargetMs < sim::kSliceBudgetMs);
  // A new run, or a cancelled one, starts from the smallest slice again.
  REQUIRE(app::fleet_start(app, "", errors));
  CHECK(app.fleet_run.next_slice() == first);
  app.fleet_run.slice_took(handled, 1);
  app::fleet_cancel(app);
  CHECK(app.fleet_run.next_slice() == first);
}

// The page's runs are computed in its worker and handed over as text (app::fleet_adopt): an app that only
// adopts another's views shows, at every hour and at the end, what the app that ran it shows.
TEST_CASE("fleet view: a run adopted from its views shows what the app that computed it shows") {
  app::App ran, shown;
  app::init(ran);
  app::init(shown);
  model::Errors errors;
  for (app::App* a : {&ran, &shown}) {
    REQUIRE(app::set_param(*a, "hours", "2", errors));
    REQUIRE(app::set_view(*a, "fleet", errors));
  }
  REQUIRE(app::fleet_start(ran, "", "dram", errors));
  REQUIRE(app::fleet_adopt(shown, sim::fleet_view_text(ran.fleet), "dram", true, errors));
  int adopted = 1;
  std::uint64_t seen = ran.fleet.version;
  while (!ran.fleet.done) {
    app::fleet_advance(ran, 4096);
    if (ran.fleet.version == seen && !ran.fleet.done) continue;
    seen = ran.fleet.version;
    const std::uint64_t revision = shown.revision;
    REQUIRE(app::fleet_adopt(shown, sim::fleet_view_text(ran.fleet), "dram", false, errors));
    ++adopted;
    CHECK(shown.revision > revision);  // a new hour of results is news for the page
    CHECK(app::fleet_state_json(shown) == app::fleet_state_json(ran));
    CHECK(app::fleet_ledger_json(shown) == app::fleet_ledger_json(ran));
  }
  CHECK(adopted >= 3);
  CHECK(app::fleet_json(shown) == app::fleet_json(ran));
  CHECK(app::fleet_status_json(shown) == app::fleet_status_json(ran));
  CHECK(app::fleet_json(shown) == ran.fleet_run.json());  // the bytes `tierscope fleet` prints

  // A text that is not a view changes nothing on screen.
  const std::string before = app::fleet_state_json(shown);
  CHECK_FALSE(app::fleet_adopt(shown, "{\"version\":1}", "dram", false, errors));
  REQUIRE_FALSE(errors.empty());
  CHECK(errors.back().field == "fleet view");
  CHECK(app::fleet_state_json(shown) == before);

  // Cancelled on the page: no run on screen, and the words say so.
  app::fleet_cancel(shown);
  CHECK_FALSE(shown.fleet.started);
  CHECK(app::fleet_json(shown) == "null\n");
  CHECK(app::fleet_state_json(shown).find("Cancelled") != std::string::npos);
  // A new run adopted after it starts the clock again.
  REQUIRE(app::fleet_start(ran, "", errors));
  REQUIRE(app::fleet_adopt(shown, sim::fleet_view_text(ran.fleet), "", true, errors));
  CHECK(shown.fleet.started);
  CHECK(app::fleet_state_json(shown) == app::fleet_state_json(ran));
}
