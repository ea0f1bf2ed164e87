// The fleet command end to end: hourly text lines, JSON that is byte for byte the simulator's own
// fleet_json (what the page's fleet view will show), CSV rows, --trace with named line errors, and flags
// that belong to the fleet command only.
#include "fleet_helpers.h"

#include <string>
#include <vector>

#include "cli/cli.h"
#include "model/presets.h"
#include "sim/fleet_report.h"

using namespace tierscope;

namespace {

bool fake_read(const std::string& path, std::string& text, std::string& why) {
  if (path == "head.jsonl") {
    text = fleet_test::fixture("mooncake-conversation-head.jsonl");
    return true;
  }
  if (path == "broken.jsonl") {
    text = fleet_test::fixture("synthetic-sessions.jsonl") + "{\"timestamp\": 70000, \"input_length\": 512, \"hash_ids\": [1]}\n";
    return true;
  }
  why = "no such file";
  return false;
}

cli::Output run(std::vector<std::string_view> args) { return cli::run_cli(args, fake_read); }

}  // namespace

TEST_CASE("fleet cli: hourly lines in text, the simulator's own JSON, CSV rows") {
  const cli::Output t = run({"fleet", "--hours", "2", "--seed", "3"});
  REQUIRE(t.exit_code == cli::kExitOk);
  CHECK(t.out.find("hour 1 (00:00–01:00): ") != std::string::npos);
  CHECK(t.out.find("hour 2 (01:00–02:00): ") != std::string::npos);
  CHECK(t.out.find("hour 0") == std::string::npos);
  CHECK(t.out.find("prefix hits ") != std::string::npos);
  CHECK(t.out.find("SWA pool hits ") != std::string::npos);
  CHECK(t.out.find("p95 TTFT ") != std::string::npos);
  CHECK(t.out.find("drive writes per day") != std::string::npos);

  const cli::Output j = run({"fleet", "--hours", "2", "--seed", "3", "--format", "json"});
  REQUIRE(j.exit_code == cli::kExitOk);
  const model::Scenario s = fleet_test::scenario({{"hours", "2"}, {"seed", "3"}});
  CHECK(j.out == sim::fleet_json(sim::run_fleet(fleet_test::config(s))));
  CHECK(j.out.find("\"scenario\":\"preset=v41-flash-8xb200\\u0026seed=3\\u0026hours=2\"") != std::string::npos);

  const cli::Output c = run({"fleet", "--hours", "2", "--format", "csv"});
  REQUIRE(c.exit_code == cli::kExitOk);
  CHECK(c.out.rfind("hour,arrivals,", 0) == 0);
  CHECK(c.out.find("\ntotal,") != std::string::npos);
}

TEST_CASE("fleet cli: a sweep reports where the curve flattens") {
  const cli::Output t = run({"fleet", "--hours", "1", "--set", "think_s=900", "--sweep", "pool"});
  REQUIRE(t.exit_code == cli::kExitOk);
  CHECK(t.out.find("sweep of the SWA pool") != std::string::npos);
  CHECK(t.out.find("flattens here") != std::string::npos);
  const cli::Output j = run({"fleet", "--hours", "1", "--sweep", "ssd", "--format", "json"});
  REQUIRE(j.exit_code == cli::kExitOk);
  CHECK(j.out.find("\"sweep\":{\"tier\":\"ssd\"") != std::string::npos);
}

TEST_CASE("fleet cli: a recorded trace replays — a malformed line is named with its file and number") {
  const cli::Output ok = run({"fleet", "--trace", "head.jsonl", "--hours", "1"});
  REQUIRE(ok.exit_code == cli::kExitOk);
  CHECK(ok.out.find("recorded traffic") != std::string::npos);
  CHECK(ok.out.find("trace bound") != std::string::npos);
  const cli::Output bad = run({"fleet", "--trace", "broken.jsonl"});
  CHECK(bad.exit_code == cli::kExitInvalid);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("broken.jsonl: trace line 9") != std::string::npos);
  CHECK(bad.err.find("output_length") != std::string::npos);
  const cli::Output missing = run({"fleet", "--trace", "nope.jsonl"});
  CHECK(missing.exit_code == cli::kExitFile);
}

TEST_CASE("fleet cli: bad flags and impossible workloads are named — fleet flags only with fleet") {
  CHECK(run({"fleet", "--sweep", "hbm"}).exit_code == cli::kExitUsage);
  CHECK(run({"fleet", "--hours", "-3"}).exit_code == cli::kExitInvalid);
  CHECK(run({"fleet", "--seed", "x"}).exit_code == cli::kExitInvalid);
  const cli::Output far = run({"fleet", "--set", "arrivals=100000"});
  CHECK(far.exit_code == cli::kExitInvalid);
  CHECK(far.err.find("arrivals") != std::string::npos);
  CHECK(far.err.find("sessions/s") != std::string::npos);
  const cli::Output wrong = run({"figures", "--hours", "2"});
  CHECK(wrong.exit_code == cli::kExitUsage);
  CHECK(wrong.err.find("only with the fleet command") != std::string::npos);
}

TEST_CASE("fleet cli: the Llama 3.1 70B node cannot keep up and says so, with times in hours, never in e-notation") {
  // It printed "p95 TTFT 1.175e+04 s" with no word that the node was overloaded.
  const cli::Output t = run({"fleet", "--preset", "llama31-70b-8xh100"});
  REQUIRE(t.exit_code == cli::kExitOk);
  CHECK(t.out.find("e+") == std::string::npos);
  CHECK(t.out.find("hour 24 (23:00–24:00): ") != std::string::npos);
  CHECK(t.out.find(" h\n") != std::string::npos);  // the last hour's p95 TTFT, in hours
  const std::size_t over = t.out.find("overloaded: turns arrive at ");
  REQUIRE(over != std::string::npos);
  CHECK(t.out.find("/h and the node serves ", over) != std::string::npos);
  CHECK(t.out.find("turns at the end", over) != std::string::npos);
  // The numbers are the simulator's.
  model::Scenario s;
  REQUIRE(model::make_preset("llama31-70b-8xh100", s));
  const sim::FleetResult r = sim::run_fleet(fleet_test::config(s));
  const sim::Overload o = sim::fleet_overload(r);
  CHECK(o.overloaded);
  CHECK(o.offered_per_h > o.served_per_h);
  CHECK(o.served_per_h == Approx(static_cast<double>(r.total.turns) / 24));
  CHECK(t.out.find(sim::fleet_overload_line(r)) == over);
  // A node that keeps up says nothing of the kind.
  const cli::Output ok = run({"fleet", "--hours", "2"});
  CHECK(ok.out.find("overloaded") == std::string::npos);
}

TEST_CASE("fleet report: durations in the units a person reads") {
  CHECK(sim::fleet_duration(0.3101) == "310.1 ms");
  CHECK(sim::fleet_duration(75) == "1.25 min");
  CHECK(sim::fleet_duration(11750) == "3.26 h");
  CHECK(sim::fleet_duration(3 * 86400) == "3 days");
}
