// libFuzzer target: the CLI argument parser and the commands behind it. The input is split into
// arguments at NUL or newline; every outcome must be a result with a known exit code, never a crash.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "charts/charts.h"
#include "cli/cli.h"

namespace {
// The scenario "file" is the fuzz input itself, so file parsing is exercised too.
std::string g_file;
bool read_fuzz_file(const std::string&, std::string& text, std::string&) {
  text = g_file;
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tierscope::cli;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> args;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= input.size(); ++i) {
    if (i == input.size() || input[i] == '\0' || input[i] == '\n') {
      if (i > start) args.push_back(input.substr(start, i - start));
      start = i + 1;
    }
  }
  const ParseResult parsed = parse_args(args);
  if (parsed.exit_code != kExitOk) {
    if (parsed.errors.empty()) std::abort();
    if (parsed.exit_code != kExitUsage && parsed.exit_code != kExitInvalid) std::abort();
    return 0;
  }
  // Keep each run fast: large sweeps are valid but belong to the benchmark, not the fuzzer.
  std::size_t points = 1;
  for (const SweepAxis& a : parsed.options.axes) points *= a.values.size();
  if (points > 2000) return 0;
  Options options = parsed.options;
  tierscope::model::ChartKind chart{};
  const bool fleet_chart = options.command == Command::Chart && tierscope::model::chart_from_key(options.chart, chart) &&
                           tierscope::model::is_fleet_chart(chart);
  if (options.command == Command::Fleet || fleet_chart) {
    // A few simulated minutes of light traffic, applied after the fuzzed settings, and no sweep (but for the
    // sweep chart, whose nine runs are as short): the parsing and every step of the command still run, long
    // runs belong to the benchmark.
    options.sets.push_back(SetArg{"hours", "0.02"});
    options.sets.push_back(SetArg{"arrivals", "1"});
    options.sets.push_back(SetArg{"nodes", "1"});
    if (chart != tierscope::model::ChartKind::FleetSweep) options.sweep_tier.clear();
  }
  // Replays (serve, the frontier) and the anchors' and validate's replays: the parsing runs, long replays belong
  // to the benchmark (fuzz_serve runs short replays with every flag; a measured-runs file's rows can ask for
  // thousands of clients each).
  if (options.command == Command::Anchors || options.command == Command::Validate ||
      (options.command == Command::Chart && chart == tierscope::model::ChartKind::Frontier))
    return 0;
  if (options.command == Command::Serve) {
    options.serve.requests = std::min(options.serve.requests > 0 ? options.serve.requests : 16, 16);
    options.serve.concurrency = std::min(options.serve.concurrency, 16);
    options.serve.input = std::min(options.serve.input, 2048);
    options.serve.output = std::min(std::max(options.serve.output, 1), 64);
  }
  g_file.assign(input);
  const Output out = run(options, read_fuzz_file);
  if (out.exit_code < kExitOk || out.exit_code > kExitFile) std::abort();
  if (out.exit_code == kExitInternal) std::abort();  // "internal" means a bug
  return 0;
}
