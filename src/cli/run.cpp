// CLI commands over the model: figures, check-card, sweep, chart, presets, params, ledger; the table of every
// command (commands.h: its name, help line and runner) and the dispatch through it. Output goes to strings.
//
// Sections: errors to exit codes · building the scenario (preset, file, --config, --hash) · picking figures ·
// each command's runner (figures, check-card, sweep, chart, ledger) · kCommands, the table of commands ·
// lookup and names · run and run_cli.
#include <nlohmann/json.hpp>

#include <cmath>

#include "anim/format.h"
#include "anim/ledger.h"
#include "base/text.h"
#include "charts/charts.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "evidence/anchors.h"
#include "serve/frontier.h"
#include "serve/serve_anchors.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "hf/hf_config.h"
#include "link/view_codec.h"
#include "model/layers.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"
#include "roofline/sweep.h"
#include "sim/fleet.h"
#include "sim/fleet_charts.h"
#include "sim/fleet_report.h"
#include "sim/trace.h"

namespace tierscope::cli {

using namespace tierscope::model;
using Json = nlohmann::ordered_json;

void report(Output& o, const Errors& errors, int code) {
  for (const Error& e : errors) o.err += "tierscope: " + e.message() + "\n";
  o.exit_code = code;
}

namespace {


// The model's name when its config.json does not give one: the folder of a file called config.json
// (models are downloaded as NAME/config.json), else the file's own name without ".json".
std::string config_name_hint(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  const std::size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base == "config.json") {
    if (slash == std::string_view::npos) return "";
    const std::string_view dir = path.substr(0, slash);
    const std::size_t up = dir.find_last_of('/');
    return std::string(up == std::string_view::npos ? dir : dir.substr(up + 1));
  }
  if (base.size() > 5 && base.substr(base.size() - 5) == ".json") base.remove_suffix(5);
  return std::string(base);
}

// Builds the scenario from --scenario or --preset, puts in the model of --config, then applies --set in
// order; all or nothing.

bool build_scenario(const Options& opt, ReadFile read_file, Scenario& out, FromLink& link, Output& o) {
  Scenario s;
  if (opt.hash_given) {
    // A share link's hash, read by the page's codec. The page drops a bad key and goes on; here nothing
    // runs until every key is right.
    ViewState v;
    Errors errors;
    if (!parse_view(opt.hash, v, errors)) {
      for (Error& e : errors) e.field = "--hash " + e.field;
      report(o, errors, kExitInvalid);
      return false;
    }
    s = v.scenario;
    link.path = link_path(v);
    link.serve = v.serve;
    link.compare = v.compare;
    link.pinned = v.compare_scenario;
  } else if (!opt.scenario_file.empty()) {
    std::string text, why;
    if (!read_file(opt.scenario_file, text, why)) {
      report(o, {make_error(ErrorCode::BadSyntax, "--scenario", opt.scenario_file, "a readable file (" + why + ")")}, kExitFile);
      return false;
    }
    Errors errors;
    if (!scenario_from_json(text, s, errors)) {
      for (Error& e : errors) e.field = opt.scenario_file + ": " + e.field;
      report(o, errors, kExitInvalid);
      return false;
    }
  } else {
    const std::string name = opt.preset.empty() ? std::string(kDefaultPreset) : opt.preset;
    if (!make_preset(name, s)) {
      report(o, {make_error(ErrorCode::UnknownPreset, "--preset", name, preset_names_allowed())}, kExitInvalid);
      return false;
    }
  }
  if (!opt.config_file.empty()) {
    std::string text, why;
    if (!read_file(opt.config_file, text, why)) {
      report(o, {make_error(ErrorCode::BadSyntax, "--config", opt.config_file, "a readable config.json file (" + why + ")")}, kExitFile);
      return false;
    }
    std::string quant;
    if (!opt.quant_file.empty() && !read_file(opt.quant_file, quant, why)) {
      report(o, {make_error(ErrorCode::BadSyntax, "--quant-config", opt.quant_file, "a readable hf_quant_config.json file (" + why + ")")}, kExitFile);
      return false;
    }
    // The reader takes empty text as "no quantization file"; a file given but empty is refused, not ignored.
    if (!opt.quant_file.empty() && quant.empty()) {
      report(o, {make_error(ErrorCode::BadSyntax, opt.quant_file + ": hf_quant_config.json", "", "a JSON object (the file is empty)")}, kExitInvalid);
      return false;
    }
    Errors errors;
    std::vector<std::string> notes;
    if (!apply_hf_config(s, text, config_name_hint(opt.config_file), errors, notes, quant)) {
      for (Error& e : errors) e.field = (e.field.starts_with("hf_quant_config.json") ? opt.quant_file : opt.config_file) + ": " + e.field;
      report(o, errors, kExitInvalid);
      return false;
    }
    for (const std::string& n : notes) o.err += "tierscope: note: " + opt.config_file + ": " + n + "\n";
  }
  Errors errors;
  for (const SetArg& a : opt.sets) {
    const ParamDef* p = find_param(a.key);
    if (!p) {
      errors.push_back(make_error(ErrorCode::UnknownKey, "--set", a.key,
                                  a.key == "preset" ? "use --preset for the preset" : "a key from `tierscope params`"));
      continue;
    }
    Error e;
    Adjustments moved;
    if (!edit_param(s, *p, a.value, moved, e)) {
      e.field = "--set " + e.field;
      errors.push_back(e);
    }
    for (const Adjustment& m : moved) {
      o.err += "tierscope: note: --set " + a.key + "=" + a.value + " also set " + m.field + " " + m.from + " → " + m.to + " (" + m.why + ")\n";
    }
  }
  if (errors.empty()) errors = validate(s);
  if (!errors.empty()) {
    report(o, errors, kExitInvalid);
    return false;
  }
  out = std::move(s);
  return true;
}

bool pick_figures(const Options& opt, std::vector<FigureId>& ids, Output& o, bool sweep_default) {
  if (opt.figure_ids.empty()) {
    if (sweep_default) {
      ids = {FigureId::KvGlobalPerToken, FigureId::KvPerSession, FigureId::HbmSessions, FigureId::DecodeWeightBytes,
             FigureId::DecodeKvBytes, FigureId::DecodeStepTime, FigureId::DecodeWeightShare, FigureId::DecodeTokensPerS};
    } else {
      for (int i = 0; i < kFigureCount; ++i) ids.push_back(static_cast<FigureId>(i));
    }
    return true;
  }
  for (const std::string& id : opt.figure_ids) {
    FigureId f = figure_id(id);
    if (const RetiredFigure* r = f == FigureId::Count ? retired_figure(id) : nullptr) {
      f = figure_id(r->id);
      o.err += "tierscope: note: figure " + id + " is now " + r->id + " (" + r->why + ")\n";
    }
    if (f == FigureId::Count) {
      report(o, {make_error(ErrorCode::UnknownKey, "--figures", id, "figure ids listed by `tierscope figures --format csv`")}, kExitUsage);
      return false;
    }
    ids.push_back(f);
  }
  return true;
}

// A setup that cannot run still prints what can be computed (bytes, capacities); the timed figures are
// marked, the reasons go to stderr and the exit code is 3.
void report_infeasible(Output& o, const Terms& t) {
  if (t.feasible()) return;
  report(o, infeasible_errors(t), kExitInvalid);
}

void cmd_figures(const Options& opt, const Scenario& s, Output& o) {
  std::vector<FigureId> ids;
  if (!pick_figures(opt, ids, o, false)) return;
  const Figures f = describe(s);
  const Terms& t = f.computed.terms;
  if (opt.format == Format::Json) {
    o.out = figures_to_json(f, s, ids);
  } else if (opt.format == Format::Csv) {
    o.out = figures_to_csv(f, ids);
  } else {
    o.out = "scenario: " + scenario_to_hash(s) + "\n";
    if (!t.feasible()) o.out += "this setup cannot run: " + infeasible_summary(t) + "\n";
    o.out += "\n";
    for (FigureId id : ids) {
      const Figure& x = f[id];
      const std::string shown = !x.feasible ? std::string("—") : x.fid == FigureId::DecodeCrossoverBatch && x.value == 0 ? figure_value_text(x) : human(x.value, x.unit);
      // Pad by characters, not bytes: "µs" and "—" are two and three bytes but one column each.
      std::size_t cols = 0;
      for (const char ch : shown) cols += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
      const std::string padded = shown + std::string(cols < 16 ? 16 - cols : 0, ' ');
      appendf(o.out, "%-28.*s %s %.*s\n    %s  [%s]\n", static_cast<int>(x.id.size()), x.id.data(), padded.c_str(),
              static_cast<int>(x.label.size()), x.label.data(), x.formula().c_str(), provenance_name(x.provenance));
    }
  }
  report_infeasible(o, t);
}

void cmd_check_card(const Options& opt, const Scenario& s, Output& o) {
  const auto rows = check_card(s);
  if (opt.format == Format::Json) {
    o.out = card_to_json(rows, s);
  } else if (opt.format == Format::Csv) {
    o.out = card_to_csv(rows);
  } else {
    o.out = "design card check against: " + scenario_to_hash(s) + "  (card column: v41-flash-card)\n\n";
    for (const CardRow& r : rows) {
      const char* unit = figure_info(r.claim->figure).unit;
      appendf(o.out, "%-44s %-14s here %-12s card %-12s\n", r.claim->text, verdict_name(r.verdict),
              human(r.value, unit).c_str(), human(r.card_value, unit).c_str());
      if (!r.condition.empty()) appendf(o.out, "    only if: %s\n", r.condition.c_str());
      appendf(o.out, "    %s\n", r.reason.c_str());
      if (!r.note.empty()) appendf(o.out, "    note: %s\n", r.note.c_str());
    }
  }
}

void cmd_sweep(const Options& opt, const Scenario& base, Output& o) {
  std::vector<FigureId> ids;
  if (!pick_figures(opt, ids, o, true)) return;
  const ParamDef* p0 = find_param(opt.axes[0].key);
  const ParamDef* p1 = opt.axes.size() > 1 ? find_param(opt.axes[1].key) : nullptr;
  o.out = opt.axes[0].key + (p1 ? "," + opt.axes[1].key : std::string());
  for (FigureId id : ids) o.out += std::string(",") + figure_info(id).id;
  o.out += ",feasible,why\n";
  const std::size_t n1 = p1 ? opt.axes[1].values.size() : 1;
  Computed c;
  const ParamDef* keys[] = {p0, p1};
  SweepRunner runner(base, ids, std::span<const ParamDef* const>(keys, p1 ? 2 : 1));
  for (const std::string& v0 : opt.axes[0].values) {
    for (std::size_t j = 0; j < n1; ++j) {
      // Each point starts from the base and is set as a person would set it (dependent fields follow).
      const SweepSetting settings[] = {{p0, v0}, {p1, p1 ? std::string_view(opt.axes[1].values[j]) : std::string_view()}};
      Errors errors;
      if (!runner.run(std::span<const SweepSetting>(settings, p1 ? 2 : 1), c, errors)) {
        for (Error& x : errors) x.field = "--over point " + v0 + (p1 ? "," + opt.axes[1].values[j] : "") + ": " + x.field;
        report(o, errors, kExitInvalid);
        o.out.clear();
        return;
      }
      const bool feasible = c.terms.feasible();
      o.out += v0;
      if (p1) o.out += "," + opt.axes[1].values[j];
      for (FigureId id : ids) {
        o.out += ',';
        // A point that cannot run shows no time or capacity, only what holds regardless.
        // Exact (shortest round-trip) values: the page's charts draw these same numbers.
        if (figure_shown(c.terms, id)) o.out += num_exact(c.values[id]);
      }
      o.out += feasible ? ",true," : ",false," + csv_field(infeasible_summary(c.terms));
      o.out += '\n';
    }
  }
}


void print_chart(const Options& opt, const Chart& c, Output& o);

// A chart's series: the numbers the page draws (JSON as the bridge returns it, CSV, or a table).
void cmd_chart(const Options& opt, const Scenario& s, ReadFile read_file, const FromLink& link, Output& o) {
  ChartKind kind{};
  chart_from_key(opt.chart, kind);
  if (is_replay_chart(kind)) {
    // One serving replay per layout and concurrency: --input and --output set the requests, --concurrency
    // the largest concurrency swept.
    serve::FrontierOptions fo;
    fo.input = opt.serve.input;
    fo.output = opt.serve.output;
    fo.max_concurrency = opt.serve.concurrency;
    fo.seed = static_cast<std::uint64_t>(std::max(0, s.fleet.seed));
    Chart c;
    Errors errors;
    // A link that pins A (cmp=…) draws A's front beside B's, as the page does.
    if (!(link.compare ? serve::frontier_chart_pair(link.pinned, s, fo, c, errors) : serve::frontier_chart(s, fo, c, errors))) {
      report(o, errors, kExitInvalid);
      return;
    }
    print_chart(opt, c, o);
    return;
  }
  if (is_serve_chart(kind)) {
    // One serving replay, as `tierscope serve` runs it with the same flags and link.
    serve::ServeResult r;
    if (!run_serve_command(opt, s, link, read_file, o, r)) return;
    Chart c;
    serve::latency_chart(r, c);
    print_chart(opt, c, o);
    return;
  }
  if (is_fleet_chart(kind)) {
    // Drawn from a fleet run: the fleet-sweep chart sweeps the SWA pool unless --sweep names a tier.
    Options run_opt = opt;
    if (kind == ChartKind::FleetSweep && run_opt.sweep_tier.empty()) run_opt.sweep_tier = "pool";
    sim::FleetResult result;
    sim::SweepResult sweep;
    bool swept = false;
    if (!run_fleet_command(run_opt, s, read_file, o, result, sweep, swept)) return;
    Chart c;
    Errors errors;
    if (!sim::fleet_chart(result, swept ? &sweep : nullptr, kind, c, errors)) {
      report(o, errors, kExitInvalid);
      return;
    }
    print_chart(opt, c, o);
    return;
  }
  ChartOptions co;
  if (!opt.figure_ids.empty()) {
    co.figure = opt.figure_ids[0];
    if (const RetiredFigure* r = figure_id(co.figure) == FigureId::Count ? retired_figure(co.figure) : nullptr) co.figure = r->id;
  }
  if (!opt.axes.empty()) {
    co.x_key = opt.axes[0].key;
    co.x_values = opt.axes[0].values;
  }
  if (opt.axes.size() > 1) {
    co.family_key = opt.axes[1].key;
    co.family_values = opt.axes[1].values;
  }
  Chart c;
  Errors errors;
  // A link with a pinned scenario (cmp=…) draws A and B together, as the page does.
  const bool ok = link.compare ? make_chart_pair(link.pinned, s, kind, co, c, errors) : make_chart(s, kind, co, c, errors);
  if (!ok) {
    report(o, errors, kExitInvalid);
    return;
  }
  print_chart(opt, c, o);
}

void print_chart(const Options& opt, const Chart& c, Output& o) {
  if (opt.format == Format::Json) {
    o.out = chart_to_json(c);
  } else if (opt.format == Format::Csv) {
    o.out = chart_to_csv(c);
  } else {
    o.out = c.title + "\n" + c.description + "\n\n" + chart_to_csv(c);
    for (const ChartMark& m : c.marks) o.out += "\n" + m.label + ": " + m.text;
    for (const ChartBand& b : c.bands) o.out += "\n" + b.label;
    if (!c.marks.empty() || !c.bands.empty()) o.out += "\n";
  }
}

// The same serializer the app's ledger panel receives, so the two outputs are byte-identical.
void cmd_ledger(const Options& opt, const Scenario& s, const std::string& hash_path, Output& o) {
  if (!opt.path.empty() && !hash_path.empty() && opt.path != hash_path) {
    report(o, {make_error(ErrorCode::Inconsistent, "--path", opt.path, "the path of --hash (" + hash_path + "), or leave --path out")}, kExitUsage);
    return;
  }
  const std::string key = opt.path.empty() ? hash_path : opt.path;
  if (key.empty()) {
    report(o, {make_error(ErrorCode::BadSyntax, "--path", "", "a path for the ledger command (--path, or path= in --hash): " + anim::path_keys_allowed())}, kExitUsage);
    return;
  }
  anim::PathId path{};
  Error e;
  if (!anim::parse_path(key, path, e)) {
    report(o, {e}, kExitUsage);
    return;
  }
  anim::LedgerFilter filter;
  Errors bad;
  if (!anim::parse_ledger_filter(opt.tier, opt.object, filter, bad)) {
    for (Error& x : bad) x.field = "--" + x.field;
    report(o, bad, kExitUsage);
    return;
  }
  const anim::LedgerFormat f = opt.format == Format::Json  ? anim::LedgerFormat::Json
                               : opt.format == Format::Csv ? anim::LedgerFormat::Csv
                                                           : anim::LedgerFormat::Text;
  const Figures figures = describe(s);
  o.out = anim::ledger_to(anim::build_ledger(s, figures, path), f, filter);
  report_infeasible(o, figures.computed.terms);
}

void run_check_card(const CommandRun& r) {
  cmd_check_card(r.opt, r.scenario, r.out);
  Computed c;
  compute_values(r.scenario, c);
  report_infeasible(r.out, c.terms);
}

constexpr CommandDef kCommands[] = {
    {Command::Figures, "figures", "figures", "every derived figure with its formula and provenance", true, true,
     [](const CommandRun& r) { cmd_figures(r.opt, r.scenario, r.out); }},
    {Command::CheckCard, "check-card", "check-card", "the design card's numeric claims against the scenario and the card preset", true, true, run_check_card},
    {Command::Sweep, "sweep", "sweep", "CSV of figures over one or two parameters (--over, once or twice)", true, true,
     [](const CommandRun& r) { cmd_sweep(r.opt, r.scenario, r.out); }},
    {Command::Presets, "presets", "presets", "list the preset scenarios", false, false, [](const CommandRun& r) { cmd_presets(r.opt, r.out); }},
    {Command::Params, "params", "params", "list the scenario parameters, their ranges and defaults", false, false,
     [](const CommandRun& r) { cmd_params(r.opt, r.out); }},
    {Command::Ledger, "ledger", "ledger", "one animation path step by step (--path): what moves where, bytes, time, formula", true, true,
     [](const CommandRun& r) { cmd_ledger(r.opt, r.scenario, r.link.path, r.out); }},
    {Command::Anchors, "anchors", "anchors", "public measured serving points against the model: ratio and the gap term by term", true, true,
     [](const CommandRun& r) {
       // Every carried point, or with a model of its own (--config, or --hash with model=) the points of that model.
       if (r.opt.config_file.empty() && !r.opt.hash_given) cmd_anchors(r.opt, r.out);
       else cmd_anchors_of(r.opt, r.scenario, r.out);
     }},
    {Command::Chart, "chart", "chart NAME",
     "the series a chart of the page draws: roofline, sweep (--figures ID, --over x, --over\n"
     "                one line per value) or breakdown; of a fleet run: fleet-occupancy, fleet-hits, fleet-sweep\n"
     "                (with the fleet flags; fleet-sweep sweeps the SWA pool unless --sweep names a tier); frontier:\n"
     "                output tokens/s per GPU against tokens/s per user over layouts and concurrencies, replayed\n"
     "                (--input, --output, --concurrency: the largest swept), the Pareto front and measured points",
     true, true, [](const CommandRun& r) { cmd_chart(r.opt, r.scenario, r.read_file, r.link, r.out); }},
    {Command::Fleet, "fleet", "fleet",
     "hours of simulated traffic through HBM, the SWA pool, DRAM and SSD: occupancy, hit rates,\n"
     "                TTFT percentiles, bytes per link, SSD drive writes per day (docs/fleet.md)",
     true, true, [](const CommandRun& r) { cmd_fleet(r.opt, r.scenario, r.read_file, r.out); }},
    {Command::Serve, "serve", "serve",
     "a serving benchmark replayed step by step (--concurrency or --rate): TTFT, TPOT, ITL and\n"
     "                E2E percentiles, output tokens per second per GPU and per user (docs/serve.md)",
     true, true, [](const CommandRun& r) { cmd_serve(r.opt, r.scenario, r.link, r.read_file, r.out); }},
    {Command::Validate, "validate", "validate FILE",
     "every row of a measured-runs CSV replayed by serve at its settings: TTFT and TPOT model ÷\n"
     "                measured per model × GPU × engine, the rows it cannot express and why (docs/validation.md)",
     true, true, [](const CommandRun& r) { cmd_validate(r.opt, r.scenario, r.read_file, r.out); }},
};
constexpr bool commands_in_order() {
  for (std::size_t i = 0; i < std::size(kCommands); ++i)
    if (static_cast<std::size_t>(kCommands[i].id) != i + 1) return false;  // after Help
  return true;
}
static_assert(commands_in_order(), "kCommands has one row per Command after Help, in order");

}  // namespace

std::span<const CommandDef> commands() { return kCommands; }

const CommandDef* find_command(std::string_view name) {
  for (const CommandDef& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

const CommandDef& command_def(Command c) {
  const std::size_t i = static_cast<std::size_t>(c);
  return kCommands[i >= 1 && i <= std::size(kCommands) ? i - 1 : 0];
}

std::string command_names(bool (*pick)(const CommandDef&), const char* last) {
  std::vector<const char*> names;
  for (const CommandDef& c : kCommands)
    if (!pick || pick(c)) names.push_back(c.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + std::string(names[i]);
  return out;
}

Output run(const Options& opt, ReadFile read_file) {
  Output o;
  if (opt.command == Command::Help) {
    o.out = usage_text();
    return o;
  }
  const CommandDef& def = command_def(opt.command);
  Scenario s;
  FromLink link;
  if (def.scenario && !build_scenario(opt, read_file, s, link, o)) return o;
  def.run(CommandRun{opt, read_file, s, link, o});
  return o;
}

Output run_cli(std::span<const std::string_view> args, ReadFile read_file) {
  const ParseResult r = parse_args(args);
  if (!r.errors.empty()) {
    Output o;
    report(o, r.errors, r.exit_code);
    o.err += "Run `tierscope --help` for usage.\n";
    return o;
  }
  return run(r.options, read_file);
}

}  // namespace tierscope::cli
