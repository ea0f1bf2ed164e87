// The commands run.cpp dispatches to that live in files of their own, and what they share with it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "cli/cli.h"
#include "evidence/anchors.h"
#include "model/scenario.h"
#include "serve/serve.h"
#include "sim/fleet.h"
#include "sim/fleet_report.h"

namespace tierscope::cli {

// Each error as the command line prints it ("tierscope: …"), and the exit code.
void report(Output& o, const model::Errors& errors, int code);

// From --hash: the path it names, the Serve panel's settings, and the pinned scenario of a comparison
// (cmp=…), if any.
struct FromLink {
  std::string path;
  std::string serve;  // the Serve panel's settings (serve=…)
  bool compare = false;
  model::Scenario pinned;
};

// A command, one row each (commands()): the word that names it, its line in the help, whether it runs on a
// scenario (and so takes --preset, --scenario, --hash and --set) or a config.json, and the function that runs
// it. The parser, the help, the checks of which flags go with which command and the dispatch read the rows.
struct CommandRun {
  const Options& opt;
  ReadFile read_file;
  const model::Scenario& scenario;  // built from the flags (the default one for a command that takes none)
  const FromLink& link;
  Output& out;
};
struct CommandDef {
  Command id;
  const char* name;     // "check-card"
  const char* usage;    // the help's first column: the name and what follows it ("chart NAME")
  const char* summary;  // the help's words (a later line indented to the column)
  bool scenario;        // runs on a scenario (and takes --hash); false: presets and params take none
  bool config;          // takes --config (a model from a config.json)
  void (*run)(const CommandRun& r);
};
// In the help's order (Command's, after Help).
std::span<const CommandDef> commands();
const CommandDef* find_command(std::string_view name);
const CommandDef& command_def(Command c);  // c is not Help
// "figures, check-card, …" (with `last` before the final one: " or "), of the rows `pick` keeps.
std::string command_names(bool (*pick)(const CommandDef&), const char* last = ", ");

// `tierscope presets` and `tierscope params` (run_lists.cpp).
void cmd_presets(const Options& opt, Output& o);
void cmd_params(const Options& opt, Output& o);

// `tierscope anchors`: the measured points, the model's ratios and the summaries (run_anchors.cpp).
void cmd_anchors(const Options& opt, Output& o);
// The same for a chosen set of evaluated anchors (run_validate.cpp: the anchors of one loaded model).
void print_anchors(const Options& opt, const std::vector<model::AnchorResult>& results, Output& o);

// The commands that run traffic (run_traffic.cpp). A fleet run as the fleet command makes it (a trace when
// --trace is given), with its sweep when asked; the serve command's spec (a link's serve= settings, the
// flags over them, a trace's lengths; no load given: the scenario's batch).
bool run_fleet_command(const Options& opt, const model::Scenario& s, ReadFile read_file, Output& o, sim::FleetResult& result,
                       sim::SweepResult& sweep, bool& swept);
void cmd_fleet(const Options& opt, const model::Scenario& s, ReadFile read_file, Output& o);
bool serve_spec(const Options& opt, const model::Scenario& s, const FromLink& link, ReadFile read_file, serve::ServeSpec& spec, Output& o);
// The serve command's replay, its refusals reported: false when it did not run.
bool run_serve_command(const Options& opt, const model::Scenario& s, const FromLink& link, ReadFile read_file, Output& o, serve::ServeResult& r,
                       serve::ServeSpec* used = nullptr);
void cmd_serve(const Options& opt, const model::Scenario& s, const FromLink& link, ReadFile read_file, Output& o);

// `tierscope validate FILE` (run_validate.cpp), and `anchors` with a model of its own (--config, or --hash with
// model=): `s` holds that model.
void cmd_validate(const Options& opt, const model::Scenario& s, ReadFile read_file, Output& o);
void cmd_anchors_of(const Options& opt, const model::Scenario& s, Output& o);

}  // namespace tierscope::cli
