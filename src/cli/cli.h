// The tierscope command line as pure functions: argv → options (or errors) → output text and exit code.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "serve/serve.h"

namespace tierscope::cli {

using model::Error;
using model::Errors;

// Distinct, documented exit codes (docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,  // a bug: should never happen
  kExitUsage = 2,     // unknown command or flag, missing or malformed flag value
  kExitInvalid = 3,   // a scenario value is invalid (--set, --preset, file contents, cross-field) or cannot run
  kExitFile = 4,      // the --scenario, --config, --quant-config or --trace file cannot be read
};

enum class Command { Help, Figures, CheckCard, Sweep, Presets, Params, Ledger, Anchors, Chart, Fleet, Serve, Validate };
enum class Format { Text, Json, Csv };

struct SetArg {
  std::string key, value;
};
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;  // expanded, as parameter text
};

struct Options {
  Command command = Command::Help;
  std::string preset;  // empty: default preset (or the file's)
  std::vector<SetArg> sets;
  std::string scenario_file;
  std::string config_file;  // a Hugging Face config.json: its model replaces the scenario's
  std::string quant_file;   // the hf_quant_config.json its publisher ships beside it (ModelOpt), or empty
  Format format = Format::Text;
  bool format_given = false;
  std::vector<SweepAxis> axes;           // sweep: one or two
  std::vector<std::string> figure_ids;   // --figures (figures, sweep)
  std::string path;                      // --path (ledger): a path key from src/anim
  std::string trace_file;                // --trace (fleet): a Mooncake-format trace
  std::string sweep_tier;                // --sweep (fleet): pool, dram or ssd
  std::string chart;                     // chart: roofline, sweep, breakdown, or a fleet chart (fleet-…)
  std::string input_file;                // validate: the measured-runs CSV
  std::string models_dir;                // --models (validate): a folder of config.json files named after model_path
  std::string hash;                      // --hash: a share link's hash (link/view_codec.h); scenario and path
  bool hash_given = false;
  std::string tier, object;              // --tier, --object (ledger): only the entries that match
  serve::ServeSpec serve;                // serve (and chart frontier): the benchmark's flags
  std::vector<std::string> serve_flags;  // the serve flags given, to refuse them elsewhere
  std::vector<SetArg> serve_args;        // the same with their values, in order (applied over a link's serve=)
  std::string trust_runs;                // --trust-runs (serve): the figure whose near measured runs to list
};

struct ParseResult {
  Options options;
  Errors errors;
  int exit_code = kExitOk;
};

// Pure: no I/O. Limits: 64 arguments of at most 4096 characters; sweeps of at most 1,000,000 points.
ParseResult parse_args(std::span<const std::string_view> args);

// Expands one --over specification: "1024:1048576:x2", "0.5:1:+0.1" or a list "1,8,64".
bool expand_axis(std::string_view spec, SweepAxis& axis, Error& err);

// File access is passed in so tests and fuzzers stay free of the file system.
using ReadFile = bool (*)(const std::string& path, std::string& text, std::string& why);

struct Output {
  std::string out;  // stdout
  std::string err;  // stderr
  int exit_code = kExitOk;
};

Output run(const Options& options, ReadFile read_file);
// parse_args + run; args exclude the program name.
Output run_cli(std::span<const std::string_view> args, ReadFile read_file);

std::string usage_text();

}  // namespace tierscope::cli
