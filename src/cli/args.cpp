// Argument parsing for the CLI: a pure function from arguments to options or errors.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "anim/format.h"
#include "anim/ledger.h"
#include "cli/cli.h"
#include "cli/commands.h"

#include "base/text.h"
#include "charts/charts.h"
#include "model/params.h"
#include "serve/serve.h"
#include "serve/trust.h"
#include "sim/fleet_report.h"

namespace tierscope::cli {

using model::ErrorCode;
using model::make_error;
using model::read_number;

namespace {

constexpr std::size_t kMaxArgs = 64;
constexpr std::size_t kMaxArgLen = 4096;
constexpr std::size_t kMaxAxisPoints = 100000;
constexpr std::size_t kMaxSweepPoints = 1000000;

}  // namespace

bool expand_axis(std::string_view spec, SweepAxis& axis, Error& err) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    err = make_error(ErrorCode::BadSyntax, "--over", spec, "key=start:end:xFACTOR, key=start:end:+STEP or key=a,b,c");
    return false;
  }
  const std::string_view key = spec.substr(0, eq), body = spec.substr(eq + 1);
  const model::ParamDef* p = model::find_param(key);
  if (!p) {
    err = make_error(ErrorCode::UnknownKey, "--over", key, "a scenario parameter (see `tierscope params`)");
    return false;
  }
  axis.key = std::string(key);
  axis.values.clear();
  const std::size_t c1 = body.find(':');
  if (c1 == std::string_view::npos) {
    // A list: each item is parameter text, checked when applied.
    std::size_t i = 0;
    while (i <= body.size()) {
      std::size_t end = body.find(',', i);
      if (end == std::string_view::npos) end = body.size();
      const std::string_view item = body.substr(i, end - i);
      if (item.empty()) {
        err = make_error(ErrorCode::BadSyntax, "--over", spec, "a comma-separated list with no empty items");
        return false;
      }
      axis.values.emplace_back(item);
      if (axis.values.size() > kMaxAxisPoints) break;
      i = end + 1;
    }
  } else {
    const std::size_t c2 = body.find(':', c1 + 1);
    double a = 0, b = 0, step = 0;
    const std::string_view inc = c2 == std::string_view::npos ? std::string_view() : body.substr(c2 + 1);
    const bool geometric = !inc.empty() && inc[0] == 'x';
    const bool linear = !inc.empty() && inc[0] == '+';
    if (c2 == std::string_view::npos || !(geometric || linear) || !read_number(body.substr(0, c1), a) ||
        !read_number(body.substr(c1 + 1, c2 - c1 - 1), b) || !read_number(inc.substr(1), step) || b < a ||
        (geometric && (step <= 1 || a <= 0)) || (linear && step <= 0) ||
        p->kind == model::ParamKind::Text || p->kind == model::ParamKind::Enum) {
      err = make_error(ErrorCode::BadSyntax, "--over", spec,
                       "numeric key=start:end:xFACTOR (factor > 1, start > 0) or key=start:end:+STEP (step > 0), start <= end");
      return false;
    }
    // Count first (closed form) so a huge range is refused without building it.
    const double count = geometric ? std::floor(std::log(b / a) / std::log(step) + 1e-9) + 1
                                   : std::floor((b - a) / step + 1e-9) + 1;
    if (count > static_cast<double>(kMaxAxisPoints)) {
      err = make_error(ErrorCode::OutOfRange, "--over", spec, "at most 100000 points per axis");
      return false;
    }
    const int n = static_cast<int>(count);
    for (int i = 0; i < n; ++i) {
      const double v = geometric ? a * std::pow(step, i) : a + step * i;
      // Integer parameters take rounded points so "x2" over tokens stays exact.
      axis.values.push_back(model::num_exact(p->kind == model::ParamKind::Int ? std::round(v) : v));
    }
  }
  if (axis.values.size() > kMaxAxisPoints) {
    err = make_error(ErrorCode::OutOfRange, "--over", spec.substr(0, 60), "at most 100000 points per axis");
    return false;
  }
  return true;
}

namespace {

// A refusal of the arguments: an error naming the field, and the usage exit code (unless another is set).
void usage(ParseResult& r, ErrorCode code, std::string_view field, std::string_view value, std::string_view allowed) {
  r.errors.push_back(make_error(code, field, value, allowed));
  if (r.exit_code == kExitOk) r.exit_code = kExitUsage;
}
void refuse(ParseResult& r, Error e) {
  r.errors.push_back(std::move(e));
  if (r.exit_code == kExitOk) r.exit_code = kExitUsage;
}

// A word that is not a flag: the command, or the chart after `chart`.
void read_command(std::string_view a, ParseResult& r, bool& have_command) {
  Options& o = r.options;
  if (have_command && o.command == Command::Chart && o.chart.empty()) {
    model::ChartKind kind{};
    if (!model::chart_from_key(a, kind)) usage(r, ErrorCode::BadEnum, "chart", a, model::chart_keys_text());
    o.chart = std::string(a);
    return;
  }
  if (have_command && o.command == Command::Validate && o.input_file.empty()) {
    o.input_file = std::string(a);
    return;
  }
  if (have_command) {
    usage(r, ErrorCode::BadSyntax, "command", a, "one command: " + command_names(nullptr));
    return;
  }
  have_command = true;
  if (const CommandDef* c = find_command(a)) o.command = c->id;
  else usage(r, ErrorCode::UnknownKey, "command", a, command_names(nullptr));
}

// The flags read_flag takes besides serve's settings (codec/serve_spec.h lists those), in the order a refusal
// lists them; the fleet's own flags last.
constexpr std::string_view kFlags[] = {"--preset", "--set",  "--scenario", "--config", "--quant-config", "--hash",  "--format", "--over",  "--figures",
                                       "--path",   "--tier", "--object",   "--trust-runs", "--models", "--hours",  "--seed",  "--trace",  "--sweep"};

bool is_known_flag(std::string_view flag) {
  for (std::string_view f : kFlags)
    if (flag == f) return true;
  return serve::is_serve_flag(flag);
}

// Every flag a command line may carry: the table above, serve's settings (its seed is listed above), --help.
std::string known_flags_text() {
  std::string s;
  const auto add = [&s](std::string_view f) { s += (s.empty() ? "" : ", ") + std::string(f); };
  for (std::string_view f : kFlags) add(f);
  for (const serve::ServeSetting& st : serve::serve_settings()) {
    const std::string flag = "--" + std::string(st.name);
    if (std::find(std::begin(kFlags), std::end(kFlags), flag) == std::end(kFlags)) add(flag);
  }
  add("--help");
  return s;
}

// One flag and its value. Flags that belong to the fleet command only are listed in `fleet_flags`.
void read_flag(std::string_view flag, std::string_view value, ParseResult& r, std::vector<std::string>& fleet_flags) {
  Options& o = r.options;
  if (flag == "--preset") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "a preset's name (see `tierscope presets`)");
    o.preset = std::string(value);
  } else if (flag == "--scenario") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "a file path");
    o.scenario_file = std::string(value);
  } else if (flag == "--config") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "a config.json file path");
    o.config_file = std::string(value);
  } else if (flag == "--models") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "a folder of config.json files");
    o.models_dir = std::string(value);
  } else if (flag == "--quant-config") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "an hf_quant_config.json file path");
    o.quant_file = std::string(value);
  } else if (flag == "--format") {
    o.format_given = true;
    if (value == "text") o.format = Format::Text;
    else if (value == "json") o.format = Format::Json;
    else if (value == "csv") o.format = Format::Csv;
    else usage(r, ErrorCode::BadEnum, flag, value, "text, json, csv");
  } else if (flag == "--set") {
    const std::size_t eq = value.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      usage(r, ErrorCode::BadSyntax, flag, value, "key=value");
      return;
    }
    o.sets.push_back(SetArg{std::string(value.substr(0, eq)), std::string(value.substr(eq + 1))});
  } else if (flag == "--over") {
    SweepAxis axis;
    Error e;
    if (!expand_axis(value, axis, e)) {
      refuse(r, std::move(e));
      return;
    }
    o.axes.push_back(std::move(axis));
  } else if (flag == "--path") {
    anim::PathId id{};
    Error e;
    if (!anim::parse_path(value, id, e)) {
      e.field = "--path";
      refuse(r, std::move(e));
      return;
    }
    o.path = std::string(value);
  } else if (flag != "--seed" && serve::is_serve_flag(flag)) {
    Error e;
    if (!serve::set_serve_flag(flag, value, o.serve, e)) {
      refuse(r, std::move(e));
      return;
    }
    o.serve_flags.push_back(std::string(flag));
    o.serve_args.push_back(SetArg{std::string(flag), std::string(value)});
  } else if (flag == "--hours" || flag == "--seed") {
    // Shorthands for the registry keys, applied in order with the --set flags.
    o.sets.push_back(SetArg{flag == "--hours" ? "hours" : "seed", std::string(value)});
    fleet_flags.push_back(std::string(flag));
  } else if (flag == "--trace") {
    if (value.empty()) usage(r, ErrorCode::BadSyntax, flag, value, "a file path");
    o.trace_file = std::string(value);
    fleet_flags.push_back(std::string(flag));
  } else if (flag == "--sweep") {
    sim::SweepTier tier{};
    if (!sim::parse_sweep_tier(value, tier)) usage(r, ErrorCode::BadEnum, flag, value, sim::sweep_tiers_text());
    o.sweep_tier = std::string(value);
    fleet_flags.push_back(std::string(flag));
  } else if (flag == "--hash") {
    o.hash = std::string(value);
    o.hash_given = true;
  } else if (flag == "--tier" || flag == "--object") {
    // An empty filter is the page's "every move"; here that is leaving the flag out, so an empty value is refused
    // (with the keys the filter takes, as for an unknown one: "-" names none of them).
    const bool tier = flag == "--tier";
    if (value.empty()) {
      anim::LedgerFilter none;
      Errors keys;
      anim::parse_ledger_filter(tier ? "-" : "", tier ? "" : "-", none, keys);
      usage(r, ErrorCode::BadSyntax, flag, value, keys.empty() ? std::string("a key") : keys[0].allowed);
    }
    (tier ? o.tier : o.object) = std::string(value);
  } else if (flag == "--trust-runs") {
    serve::TrustFigure f{};
    if (!serve::trust_figure_from_key(value, f)) usage(r, ErrorCode::BadEnum, flag, value, serve::trust_figure_keys_text());
    o.trust_runs = std::string(value);
  } else if (flag == "--figures") {
    std::size_t s = 0;
    while (s <= value.size()) {
      std::size_t end = value.find(',', s);
      if (end == std::string_view::npos) end = value.size();
      o.figure_ids.emplace_back(value.substr(s, end - s));
      s = end + 1;
    }
  }
}

// What the flags given mean together: each belongs to its command, and the pairs that exclude each other.
void check_together(ParseResult& r, std::vector<std::string>& fleet_flags, const std::vector<SetArg>& scenario_flags) {
  Options& o = r.options;
  // The serve flags belong to the serve command and the frontier chart (which replays at each point).
  const bool frontier = o.command == Command::Chart && (o.chart == "frontier" || o.chart == "serve-latency");
  if (o.command != Command::Serve && !frontier && !o.serve_flags.empty()) {
    usage(r, ErrorCode::BadSyntax, o.serve_flags[0], "", "only with the serve command, chart frontier or chart serve-latency");
  }
  // The frontier replays its own grid of layouts and concurrencies from --input, --output and --concurrency alone;
  // serve's other flags would be ignored there, so they are refused (chart serve-latency takes them all).
  if (o.command == Command::Chart && o.chart == "frontier") {
    for (const SetArg& a : o.serve_args) {
      if (a.key == "--input" || a.key == "--output" || a.key == "--concurrency") continue;
      usage(r, ErrorCode::BadSyntax, a.key, a.value, "with chart frontier only --input, --output and --concurrency (the others: serve or chart serve-latency)");
      break;
    }
  }
  // The seed and a trace are the serve command's too: the seed is the scenario's (seed key), a trace gives lengths.
  if (o.command == Command::Serve || frontier) {
    std::erase_if(fleet_flags, [](const std::string& f) { return f == "--seed" || f == "--trace"; });
    if (!o.trace_file.empty() && o.serve.lengths != serve::Lengths::Trace) {
      usage(r, ErrorCode::Inconsistent, "--trace", o.trace_file, "--lengths trace with a trace file (serve replays the trace's lengths)");
    }
  }
  // A fleet chart is drawn from a fleet run: it takes the fleet command's flags too.
  model::ChartKind chart_kind{};
  const bool fleet_chart = o.command == Command::Chart && model::chart_from_key(o.chart, chart_kind) && model::is_fleet_chart(chart_kind);
  if (o.command != Command::Fleet && !fleet_chart && !fleet_flags.empty()) {
    usage(r, ErrorCode::BadSyntax, fleet_flags[0], "", "only with the fleet command or a fleet chart (chart fleet-occupancy, fleet-hits, fleet-sweep)"
          + std::string(fleet_flags[0] == "--seed" || fleet_flags[0] == "--trace" ? ", or serve" : ""));
  }
  if (!o.trust_runs.empty() && (o.command != Command::Serve || o.format != Format::Text)) {
    usage(r, ErrorCode::BadSyntax, "--trust-runs", o.trust_runs, "only with the serve command's text (its JSON lists each band's run ids)");
  }
  if (o.hash_given && (!o.preset.empty() || !o.scenario_file.empty())) {
    usage(r, ErrorCode::Inconsistent, "--hash", o.hash, "either --hash or --preset/--scenario (the hash names its preset)");
  }
  if (o.hash_given && !command_def(o.command).scenario) {
    usage(r, ErrorCode::BadSyntax, "--hash", o.hash, "only with " + command_names([](const CommandDef& c) { return c.scenario; }, " or "));
  }
  if ((!o.tier.empty() || !o.object.empty()) && o.command != Command::Ledger) {
    usage(r, ErrorCode::BadSyntax, o.tier.empty() ? "--object" : "--tier", o.tier.empty() ? o.object : o.tier, "only with the ledger command");
  }
  // The listing commands run on no scenario: the flags that build one would be ignored, so they are refused.
  if (!command_def(o.command).scenario && !scenario_flags.empty()) {
    usage(r, ErrorCode::BadSyntax, scenario_flags[0].key, scenario_flags[0].value,
          "only with " + command_names([](const CommandDef& c) { return c.scenario; }, " or "));
  }
  // --figures picks the figures of figures and sweep, and chart sweep's one (checked below); elsewhere it would be ignored.
  if (!o.figure_ids.empty() && o.command != Command::Figures && o.command != Command::Sweep && o.command != Command::Chart) {
    usage(r, ErrorCode::BadSyntax, "--figures", o.figure_ids[0], "only with figures, sweep or chart sweep");
  }
  if (!o.preset.empty() && !o.scenario_file.empty()) {
    usage(r, ErrorCode::Inconsistent, "--preset", o.preset, "either --preset or --scenario (the file names its preset)");
  }
  if (!o.quant_file.empty() && o.config_file.empty()) {
    usage(r, ErrorCode::BadSyntax, "--quant-config", o.quant_file, "only with --config (the config.json it sits beside)");
  }
  if (!o.config_file.empty() && !command_def(o.command).config) {
    usage(r, ErrorCode::BadSyntax, "--config", o.config_file, "only with " + command_names([](const CommandDef& c) { return c.config; }, " or "));
  }
  if (!o.models_dir.empty() && o.command != Command::Validate) {
    usage(r, ErrorCode::BadSyntax, "--models", o.models_dir, "only with the validate command (--config gives other commands their model)");
  }
  if (!o.models_dir.empty() && (!o.config_file.empty() || o.hash_given)) {
    usage(r, ErrorCode::Inconsistent, "--models", o.models_dir, "either --models (each row's own model) or --config/--hash (one model for every row)");
  }
  if (o.command == Command::Validate && o.input_file.empty()) usage(r, ErrorCode::MissingField, "validate", "", "a measured-runs CSV file after the command");
  if (o.command == Command::Sweep) {
    if (o.axes.empty() || o.axes.size() > 2) {
      usage(r, ErrorCode::BadSyntax, "--over", std::to_string(o.axes.size()) + " axes", "one or two --over flags for sweep");
    } else if (o.axes.size() == 2 && o.axes[0].key == o.axes[1].key) {
      usage(r, ErrorCode::DuplicateKey, "--over", o.axes[1].key, "two different parameters");
    } else if (o.axes.size() == 2 &&
               static_cast<double>(o.axes[0].values.size()) * static_cast<double>(o.axes[1].values.size()) >
                   static_cast<double>(kMaxSweepPoints)) {
      usage(r, ErrorCode::OutOfRange, "--over", "a grid of " + std::to_string(o.axes[0].values.size()) + " x " +
                                                 std::to_string(o.axes[1].values.size()),
            "at most 1000000 points");
    }
    if (o.format_given && o.format != Format::Csv) usage(r, ErrorCode::BadEnum, "--format", "", "csv (sweep writes CSV)");
  } else if (o.command == Command::Chart) {
    if (o.chart.empty()) usage(r, ErrorCode::BadSyntax, "chart", "", "a chart after the command: " + model::chart_keys_text());
    if (o.chart != "sweep" && !o.axes.empty()) usage(r, ErrorCode::BadSyntax, "--over", o.axes[0].key, "only with chart sweep");
    if (o.axes.size() > 2) usage(r, ErrorCode::BadSyntax, "--over", std::to_string(o.axes.size()) + " axes", "at most two: x, then one line per value");
    if (o.axes.size() == 2 && o.axes[0].key == o.axes[1].key) usage(r, ErrorCode::DuplicateKey, "--over", o.axes[1].key, "two different parameters");
    if (o.axes.size() == 2 && (o.axes[1].values.empty() || o.axes[1].values.size() > 8)) {
      usage(r, ErrorCode::OutOfRange, "--over", o.axes[1].key + ": " + std::to_string(o.axes[1].values.size()) + " values", "1 to 8 lines");
    }
    if (!o.axes.empty() && o.axes[0].values.size() > 256) {
      usage(r, ErrorCode::OutOfRange, "--over", o.axes[0].key + ": " + std::to_string(o.axes[0].values.size()) + " values", "at most 256 points on a chart");
    }
    if (o.chart != "sweep" && !o.figure_ids.empty()) usage(r, ErrorCode::BadSyntax, "--figures", o.figure_ids[0], "only with chart sweep");
    if (o.figure_ids.size() > 1) usage(r, ErrorCode::BadSyntax, "--figures", o.figure_ids[1], "one figure for chart sweep");
  } else if (!o.axes.empty()) {
    usage(r, ErrorCode::BadSyntax, "--over", o.axes[0].key, "only with the sweep command");
  }
  // A ledger's path may come from --hash instead (checked when the hash is read).
  if (o.command == Command::Ledger && o.path.empty() && !o.hash_given) {
    usage(r, ErrorCode::BadSyntax, "--path", "", "a path for the ledger command: " + anim::path_keys_allowed());
  } else if (o.command != Command::Ledger && !o.path.empty()) {
    usage(r, ErrorCode::BadSyntax, "--path", o.path, "only with the ledger command");
  }
}

}  // namespace

ParseResult parse_args(std::span<const std::string_view> args) {
  ParseResult r;
  Options& o = r.options;
  if (args.size() > kMaxArgs) {
    usage(r, ErrorCode::TooLarge, "arguments", std::to_string(args.size()), "at most 64 arguments");
    return r;
  }
  for (std::string_view a : args) {
    if (a.size() > kMaxArgLen) {
      usage(r, ErrorCode::TooLarge, "argument", a, "at most 4096 characters per argument");
      return r;
    }
  }
  if (args.empty()) return r;  // Help

  bool have_command = false;
  std::vector<std::string> fleet_flags;  // flags that belong to the fleet command only
  std::vector<std::string_view> given;   // the flags read so far, each once
  std::vector<SetArg> scenario_flags;    // --preset, --scenario and --set as given, to refuse them where no scenario is built
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--help" || a == "-h" || a == "help") {
      o.command = Command::Help;
      return r;
    }
    if (!a.starts_with("-")) {
      read_command(a, r, have_command);
      continue;
    }
    // Flags with a value: "--flag value" or "--flag=value".
    std::string_view flag = a, value;
    bool has_value = false;
    if (const std::size_t eq = a.find('='); eq != std::string_view::npos && a.starts_with("--")) {
      flag = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (!is_known_flag(flag)) {
      usage(r, ErrorCode::UnknownKey, "flag", flag, known_flags_text());
      continue;
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        usage(r, ErrorCode::BadSyntax, flag, "", "a value after the flag");
        continue;
      }
      value = args[++i];
    }
    // A flag of one value given twice is refused, not read as its last value: only --set, --over and
    // --figures add up.
    if (flag != "--set" && flag != "--over" && flag != "--figures") {
      if (std::find(given.begin(), given.end(), flag) != given.end()) {
        usage(r, ErrorCode::DuplicateKey, flag, value, "the flag once (--set, --over and --figures may repeat)");
        continue;
      }
      given.push_back(flag);
    }
    if (flag == "--preset" || flag == "--scenario" || flag == "--set") scenario_flags.push_back(SetArg{std::string(flag), std::string(value)});
    read_flag(flag, value, r, fleet_flags);
  }
  if (!r.errors.empty()) return r;
  if (!have_command) {
    usage(r, ErrorCode::BadSyntax, "command", "", command_names(nullptr));
    return r;
  }
  check_together(r, fleet_flags, scenario_flags);
  return r;
}

}  // namespace tierscope::cli
