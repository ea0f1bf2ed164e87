// The commands run.cpp dispatches to that live in files of their own, and what they share with it.
#pragma once

#include <string>

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
bool run_serve_command(const Options& opt, const model::Scenario& s, const FromLink& link, ReadFile read_file, Output& o, serve::ServeResult& r);
void cmd_serve(const Options& opt, const model::Scenario& s, const FromLink& link, ReadFile read_file, Output& o);

// `tierscope validate FILE` (run_validate.cpp), and `anchors` with a model of its own (--config, or --hash with
// model=): `s` holds that model when one was given.
void cmd_with_model(const Options& opt, const model::Scenario& s, ReadFile read_file, Output& o);

}  // namespace tierscope::cli
