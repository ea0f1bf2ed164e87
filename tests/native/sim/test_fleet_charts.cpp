// Fleet charts against the run they draw: every number of the occupancy, hit-rate and sweep series equals
// the run's own JSON (fleet_json) computed the same way; a sweep run in slices by FleetRun gives the same
// bytes as fleet_sweep; `tierscope chart fleet-…` prints the same chart as the app; runs without the data
// are named errors.
#include "fleet_helpers.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "charts/charts.h"
#include "cli/cli.h"
#include "sim/fleet_charts.h"
#include "sim/fleet_report.h"
#include "sim/fleet_run.h"

using namespace tierscope;
using Json = nlohmann::json;

namespace {

// A rate of the JSON: a number, or null for a rate with no turns behind it (a NaN gap in the chart).
bool same_rate(const Json& j, double y) { return j.is_null() ? std::isnan(y) : j.get<double>() == y; }

const model::ChartLine* line(const model::Chart& c, const char* id) {
  for (const model::ChartLine& l : c.lines)
    if (l.id == id) return &l;
  return nullptr;
}

bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files here";
  return false;
}

cli::Output cli_run(std::vector<std::string_view> args) { return cli::run_cli(args, no_files); }

}  // namespace

TEST_CASE("fleet charts: occupancy and hourly hit rates are the run's own numbers") {
  const model::Scenario s = fleet_test::scenario({{"hours", "3"}, {"arrivals", "3"}, {"think_s", "600"}, {"swa_pool", "0.002"}});
  const sim::FleetResult r = sim::run_fleet(fleet_test::config(s));
  const Json j = Json::parse(sim::fleet_json(r));
  const Json& cap = j["capacity_per_node"];
  const double nodes = j["nodes"].get<double>();

  model::Chart occ;
  model::Errors errors;
  REQUIRE(sim::fleet_chart(r, nullptr, model::ChartKind::FleetOccupancy, occ, errors));
  CHECK(occ.kind == model::ChartKind::FleetOccupancy);
  const Json& series = j["series"];
  REQUIRE(occ.xs.size() == series["t_s"].size());
  for (std::size_t i = 0; i < occ.xs.size(); ++i) CHECK(occ.xs[i] == series["t_s"][i].get<double>() / 3600.0);
  struct Tier {
    const char* id;
    const char* series;
    const char* capacity;
  };
  for (const Tier& t : {Tier{"hbm", "hbm_bytes", "hbm_kv_bytes"}, Tier{"pool", "pool_sessions", "pool_sessions"},
                        Tier{"dram", "dram_bytes", "dram_prefix_bytes"}, Tier{"ssd", "ssd_bytes", "ssd_bytes"}}) {
    INFO(t.id);
    const model::ChartLine* l = line(occ, t.id);
    REQUIRE(l);
    REQUIRE(l->y.size() == series[t.series].size());
    for (std::size_t i = 0; i < l->y.size(); ++i) CHECK(l->y[i] == series[t.series][i].get<double>() / (nodes * cap[t.capacity].get<double>()));
  }
  // Shares of capacity: the axis runs from 0 to at least 100 %.
  CHECK(occ.y.unit == "fraction");
  CHECK(occ.y.lo == 0);
  CHECK(occ.y.hi >= 1);
  CHECK(occ.description.find("HBM for KV") != std::string::npos);

  model::Chart hits;
  REQUIRE(sim::fleet_chart(r, nullptr, model::ChartKind::FleetHits, hits, errors));
  const Json& hours = j["hours"];
  REQUIRE(hits.xs.size() == hours.size());
  for (const char* id : {"prefix_hit", "dram_hit", "ssd_hit", "pool_hit"}) {
    INFO(id);
    const model::ChartLine* l = line(hits, id);
    REQUIRE(l);
    for (std::size_t h = 0; h < hours.size(); ++h) {
      CHECK(hits.xs[h] == hours[h]["hour"].get<double>());
      CHECK(same_rate(hours[h][id], l->y[h]));
    }
  }
  // The chart's JSON carries the fleet key, so the page's Charts panel knows what it draws.
  CHECK(model::chart_to_json(hits).find("\"chart\":\"fleet-hits\"") != std::string::npos);
}

TEST_CASE("fleet charts: a sweep run in slices equals fleet_sweep, and the sweep chart is its points") {
  const model::Scenario s = fleet_test::scenario({{"hours", "1"}, {"think_s", "900"}});
  const sim::FleetConfig c = fleet_test::config(s);
  const sim::SweepResult whole = sim::fleet_sweep(c, sim::SweepTier::Pool, sim::default_sweep_factors());
  const std::string expected = sim::fleet_json(sim::run_fleet(c), &whole);

  sim::FleetRun run;
  model::Errors errors;
  const sim::SweepTier tier = sim::SweepTier::Pool;
  REQUIRE(run.start(s, "", errors, &tier));
  double last = 0;
  int slices = 0;
  while (!run.done()) {
    run.advance(slices % 2 ? 3000 : 77777);  // slices of any size, crossing the runs' ends
    CHECK(run.progress() >= last);
    last = run.progress();
    REQUIRE(++slices < 100000);
  }
  CHECK(run.progress() == 1);
  CHECK(run.json() == expected);
  REQUIRE(run.sweep());

  model::Chart chart;
  REQUIRE(sim::fleet_chart(run.snapshot(), run.sweep(), model::ChartKind::FleetSweep, chart, errors));
  const Json j = Json::parse(expected)["sweep"];
  REQUIRE(chart.xs.size() == j["points"].size());
  const model::ChartLine* pool = line(chart, "pool_hit");
  REQUIRE(pool);
  for (std::size_t i = 0; i < chart.xs.size(); ++i) {
    CHECK(chart.xs[i] == j["points"][i]["capacity"].get<double>());
    CHECK(same_rate(j["points"][i]["pool_hit"], pool->y[i]));
  }
  bool knee = false, now = false;
  for (const model::ChartMark& m : chart.marks) {
    knee = knee || (m.id == "knee" && m.x == j["points"][j["knee"].get<std::size_t>()]["capacity"].get<double>());
    now = now || (m.id == "now" && m.x == c.pool_sessions);
  }
  CHECK(knee);
  CHECK(now);
  CHECK(chart.x.log);
}

TEST_CASE("fleet charts: a run without the data, or another kind, is a named error") {
  model::Chart c;
  model::Errors errors;
  CHECK_FALSE(sim::fleet_chart(sim::FleetResult{}, nullptr, model::ChartKind::FleetOccupancy, c, errors));
  REQUIRE_FALSE(errors.empty());
  CHECK(errors.back().field == "samples");
  const sim::FleetResult r = sim::run_fleet(fleet_test::config(fleet_test::light({{"hours", "1"}})));
  CHECK_FALSE(sim::fleet_chart(r, nullptr, model::ChartKind::FleetSweep, c, errors));
  CHECK(errors.back().field == "sweep");
  CHECK_FALSE(sim::fleet_chart(r, nullptr, model::ChartKind::Roofline, c, errors));
  CHECK(errors.back().code == model::ErrorCode::BadEnum);
  // And the scenario's own charts refuse the fleet kinds (they need a run).
  CHECK_FALSE(model::make_chart(model::default_scenario(), model::ChartKind::FleetHits, {}, c, errors));
  CHECK(errors.back().field == "chart");
}

TEST_CASE("fleet charts: `tierscope chart fleet-…` prints the chart of the run `tierscope fleet` makes") {
  const cli::Output out = cli_run({"chart", "fleet-hits", "--hours", "1", "--set", "arrivals=3", "--format", "json"});
  REQUIRE(out.exit_code == cli::kExitOk);
  const model::Scenario s = fleet_test::scenario({{"hours", "1"}, {"arrivals", "3"}});
  model::Chart c;
  model::Errors errors;
  REQUIRE(sim::fleet_chart(sim::run_fleet(fleet_test::config(s)), nullptr, model::ChartKind::FleetHits, c, errors));
  CHECK(out.out == model::chart_to_json(c));
  // fleet-sweep sweeps the pool unless told otherwise; --sweep names another tier.
  const cli::Output sweep = cli_run({"chart", "fleet-sweep", "--hours", "0.5", "--sweep", "dram", "--format", "json"});
  REQUIRE(sweep.exit_code == cli::kExitOk);
  CHECK(sweep.out.find("\"key\":\"dram\"") != std::string::npos);
  // Fleet flags belong to fleet charts, not to the scenario's.
  CHECK(cli_run({"chart", "roofline", "--hours", "2"}).exit_code == cli::kExitUsage);
  CHECK(cli_run({"chart", "fleet-pie"}).exit_code == cli::kExitUsage);
}
