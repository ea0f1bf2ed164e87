// The serve command end to end: the benchmark summary in text, JSON that is byte for byte serve_json of the
// same run, CSV rows, a trace's lengths, and flags that belong to serve only.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "base/text.h"
#include "cli/cli.h"
#include "codec/serve_spec.h"

using namespace tierscope;

namespace {

bool fake_read(const std::string& path, std::string& text, std::string& why) {
  if (path == "two.jsonl") {
    text = "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 40, \"hash_ids\": [1, 2]}\n"
           "{\"timestamp\": 10, \"input_length\": 300, \"output_length\": 20, \"hash_ids\": [3]}\n";
    return true;
  }
  why = "no such file";
  return false;
}

cli::Output run(std::vector<std::string_view> args) { return cli::run_cli(args, fake_read); }

}  // namespace

TEST_CASE("serve cli: the benchmark summary, JSON and CSV of the same run") {
  const cli::Output t = run({"serve", "--concurrency", "4", "--requests", "8", "--input", "512", "--output", "64"});
  REQUIRE(t.exit_code == cli::kExitOk);
  CHECK(t.out.find("Serving Benchmark Result") != std::string::npos);
  CHECK(t.out.find("Successful requests:                         8") != std::string::npos);
  CHECK(t.out.find("P99 TPOT (ms):") != std::string::npos);
  const cli::Output j = run({"serve", "--concurrency", "4", "--requests", "8", "--input", "512", "--output", "64", "--format", "json"});
  REQUIRE(j.exit_code == cli::kExitOk);
  CHECK(j.out.find("\"completed\": 8") != std::string::npos);
  CHECK(j.out == run({"serve", "--input", "512", "--concurrency", "4", "--output", "64", "--requests", "8", "--format", "json"}).out);
  const cli::Output c = run({"serve", "--concurrency", "4", "--requests", "8", "--format", "csv"});
  REQUIRE(c.exit_code == cli::kExitOk);
  CHECK(c.out.rfind("metric,value\ncompleted,8\n", 0) == 0);
}

TEST_CASE("serve cli: a trace's lengths, the seed, a link") {
  const cli::Output t = run({"serve", "--concurrency", "2", "--requests", "4", "--lengths", "trace", "--trace", "two.jsonl", "--format", "json"});
  REQUIRE(t.exit_code == cli::kExitOk);
  CHECK(t.out.find("\"input_tokens\": 1800") != std::string::npos);
  CHECK(t.out.find("\"output_tokens\": 120") != std::string::npos);
  const cli::Output missing = run({"serve", "--concurrency", "2", "--lengths", "trace", "--trace", "none.jsonl"});
  CHECK(missing.exit_code == cli::kExitFile);
  const cli::Output seeded = run({"serve", "--concurrency", "2", "--requests", "4", "--lengths", "sharegpt", "--seed", "7", "--format", "json"});
  REQUIRE(seeded.exit_code == cli::kExitOk);
  CHECK(seeded.out.find("\"seed\": 7") != std::string::npos);
  const cli::Output link = run({"serve", "--hash", "#preset=v41-flash-8xb200&seed=7", "--concurrency", "2", "--requests", "4", "--lengths", "sharegpt",
                                "--format", "json"});
  REQUIRE(link.exit_code == cli::kExitOk);
  CHECK(link.out == seeded.out);
}

TEST_CASE("serve cli: refused flags name themselves") {
  // No load given: the scenario's own batch as the closed loop's clients, as the page's Serve panel runs it.
  const cli::Output none = run({"serve", "--requests", "8", "--set", "batch=3"});
  REQUIRE(none.exit_code == cli::kExitOk);
  CHECK(none.out.find("closed loop at concurrency 3,") != std::string::npos);
  const cli::Output both = run({"serve", "--concurrency", "2", "--rate", "3"});
  CHECK(both.exit_code == cli::kExitUsage);
  const cli::Output elsewhere = run({"figures", "--concurrency", "2"});
  CHECK(elsewhere.exit_code == cli::kExitUsage);
  CHECK(elsewhere.err.find("only with the serve command") != std::string::npos);
  const cli::Output bad = run({"serve", "--lengths", "zipf"});
  CHECK(bad.exit_code == cli::kExitUsage);
  CHECK(bad.err.find("zipf") != std::string::npos);
  CHECK(bad.err.find("fixed, random, sharegpt, trace") != std::string::npos);
  const cli::Output trace_alone = run({"serve", "--concurrency", "2", "--trace", "two.jsonl"});
  CHECK(trace_alone.exit_code == cli::kExitUsage);
  CHECK(run({"--help"}).out.find("--concurrency N") != std::string::npos);
}

TEST_CASE("serve cli: chart frontier prints the front and its series — serve flags only where they belong") {
  const cli::Output c = run({"chart", "frontier", "--preset", "v41-flash-4xgb300", "--input", "1024", "--output", "128", "--concurrency", "16",
                             "--format", "csv"});
  REQUIRE(c.exit_code == cli::kExitOk);
  CHECK(c.out.rfind("tokens_per_s_user,pareto,", 0) == 0);
  const cli::Output j = run({"chart", "frontier", "--preset", "v41-flash-4xgb300", "--input", "1024", "--output", "128", "--concurrency", "16",
                             "--format", "json"});
  REQUIRE(j.exit_code == cli::kExitOk);
  CHECK(j.out.find("\"kind\":\"front\"") != std::string::npos);
  CHECK(run({"chart", "roofline", "--input", "1024"}).exit_code == cli::kExitUsage);
}

TEST_CASE("serve cli: a link's serve settings run as the flags would, the flags over them") {
  const cli::Output flags = run({"serve", "--preset", "v41-flash-8xb200", "--concurrency", "4", "--requests", "12", "--input", "2048",
                                 "--lengths", "random", "--range-ratio", "0.25", "--steps", "3", "--format", "json"});
  REQUIRE(flags.exit_code == cli::kExitOk);
  const char* hash = "#preset=v41-flash-8xb200&view=serve&serve=concurrency:4,requests:12,input:2048,lengths:random,range-ratio:0.25,steps:3";
  const cli::Output link = run({"serve", "--hash", hash, "--format", "json"});
  REQUIRE(link.exit_code == cli::kExitOk);
  CHECK(link.out == flags.out);
  CHECK(link.out.find("\"steps_trace\"") != std::string::npos);
  // A flag given beside the link wins over its setting.
  const cli::Output over = run({"serve", "--hash", hash, "--concurrency", "2", "--format", "json"});
  REQUIRE(over.exit_code == cli::kExitOk);
  CHECK(over.out.find("\"concurrency\": 2,") != std::string::npos);
  // A bad setting in a link is refused whole here, naming it as the link spells it.
  const cli::Output bad = run({"serve", "--hash", "#preset=v41-flash-8xb200&serve=concurrency:many"});
  CHECK(bad.exit_code == cli::kExitInvalid);
  CHECK(bad.err.find("serve.concurrency") != std::string::npos);
  CHECK(bad.err.find("many") != std::string::npos);
  // The latency chart of the same run: one line per metric over 0 to 100 %.
  const cli::Output chart = run({"chart", "serve-latency", "--hash", hash, "--format", "csv"});
  REQUIRE(chart.exit_code == cli::kExitOk);
  CHECK(chart.out.rfind("percentile,ttft,tpot,itl,e2e\n0,", 0) == 0);
  CHECK(chart.out.find("\n100,") != std::string::npos);
}

// "random" lengths have one meaning: ±kRandomRangeRatio around the mean unless a range is given, for the
// command line's flag and for a link's setting (the page's Serve panel writes the link), so the same link
// gives the same run everywhere, and the link spells it one way.
TEST_CASE("serve cli: random lengths mean the same spread from a flag and from a link") {
  const std::vector<std::string_view> base = {"serve", "--preset", "v41-flash-8xb200", "--concurrency", "4", "--requests", "16", "--input", "2048",
                                              "--output", "64", "--format", "json"};
  auto with = [&](std::vector<std::string_view> extra) {
    std::vector<std::string_view> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  const cli::Output plain = with({"--lengths", "random"});
  REQUIRE(plain.exit_code == cli::kExitOk);
  const std::string ratio = model::num_exact(serve::kRandomRangeRatio);
  CHECK(plain.out == with({"--lengths", "random", "--range-ratio", ratio}).out);
  CHECK(plain.out != with({"--lengths", "random", "--range-ratio", "0"}).out);  // the spread does change the run
  const cli::Output link = run({"serve", "--hash", "#preset=v41-flash-8xb200&view=serve&serve=concurrency:4,requests:16,input:2048,output:64,lengths:random",
                                "--format", "json"});
  REQUIRE(link.exit_code == cli::kExitOk);
  CHECK(link.out == plain.out);
  // The link spells the default spread by leaving it out.
  std::string canonical;
  REQUIRE(serve::serve_settings_known("lengths:random,range-ratio:" + ratio, &canonical));
  CHECK(canonical == "lengths:random");
  CHECK(serve::ServeSpec{}.range_ratio == serve::kRandomRangeRatio);
}
