// The commands that run traffic: `tierscope fleet` (a simulated day through the tiers) and `tierscope serve`
// (a serving benchmark replayed step by step), with what `chart` needs of them.
#include <algorithm>
#include <string>

#include "cli/commands.h"
#include "serve/trust.h"
#include "sim/fleet_report.h"
#include "sim/trace.h"

namespace tierscope::cli {

using namespace tierscope::model;

bool run_fleet_command(const Options& opt, const Scenario& s, ReadFile read_file, Output& o, sim::FleetResult& result,
                       sim::SweepResult& sweep, bool& swept) {
  sim::Trace trace;
  if (!opt.trace_file.empty()) {
    std::string text, why;
    if (!read_file(opt.trace_file, text, why)) {
      report(o, {make_error(ErrorCode::BadSyntax, "--trace", opt.trace_file, "a readable file (" + why + ")")}, kExitFile);
      return false;
    }
    Error e;
    if (!sim::parse_trace(text, s.fleet.block_tokens, trace, e)) {
      e.field = opt.trace_file + ": " + e.field;
      report(o, {e}, kExitInvalid);
      return false;
    }
  }
  sim::FleetConfig config;
  Errors errors;
  if (!sim::make_fleet_config(s, opt.trace_file.empty() ? nullptr : &trace, config, errors)) {
    report(o, errors, kExitInvalid);
    return false;
  }
  result = sim::run_fleet(config);
  sim::SweepTier tier{};
  swept = !opt.sweep_tier.empty() && sim::parse_sweep_tier(opt.sweep_tier, tier);
  if (swept) sweep = sim::fleet_sweep(config, tier, sim::default_sweep_factors());
  return true;
}

// A day (or --hours) of traffic through the tiers: the same JSON the page's fleet view shows.
void cmd_fleet(const Options& opt, const Scenario& s, ReadFile read_file, Output& o) {
  sim::FleetResult result;
  sim::SweepResult sweep;
  bool swept = false;
  if (!run_fleet_command(opt, s, read_file, o, result, sweep, swept)) return;
  if (opt.format == Format::Json) o.out = sim::fleet_json(result, swept ? &sweep : nullptr);
  else if (opt.format == Format::Csv) o.out = sim::fleet_csv(result);
  else o.out = sim::fleet_text(result, swept ? &sweep : nullptr);
}

// The spec as given, with the scenario's seed and a trace's lengths.
// A link's serve= settings come first, the flags over them.
bool serve_spec(const Options& opt, const Scenario& s, const FromLink& link, ReadFile read_file, serve::ServeSpec& spec, Output& o) {
  spec = opt.serve;
  if (!link.serve.empty()) {
    spec = serve::ServeSpec{};
    Errors ignored;  // read once already, by the view codec
    serve::serve_settings_from_text(link.serve, spec, ignored);
    for (const SetArg& a : opt.serve_args) {
      Error e;
      serve::set_serve_flag(a.key, a.value, spec, e);  // checked when the flags were read
    }
  }
  spec.seed = static_cast<std::uint64_t>(std::max(0, s.fleet.seed));
  serve::default_load(spec, s);
  if (opt.trace_file.empty()) return true;
  std::string text, why;
  if (!read_file(opt.trace_file, text, why)) {
    report(o, {make_error(ErrorCode::BadSyntax, "--trace", opt.trace_file, "a readable file (" + why + ")")}, kExitFile);
    return false;
  }
  sim::Trace trace;
  Error e;
  if (!sim::parse_trace(text, s.fleet.block_tokens, trace, e)) {
    e.field = opt.trace_file + ": " + e.field;
    report(o, {e}, kExitInvalid);
    return false;
  }
  spec.trace_input = trace.input;
  spec.trace_output = trace.output;
  return true;
}

// A serving benchmark replayed step by step: the summary the engines' tools print (docs/serve.md).
bool run_serve_command(const Options& opt, const Scenario& s, const FromLink& link, ReadFile read_file, Output& o, serve::ServeResult& r,
                       serve::ServeSpec* used) {
  serve::ServeSpec spec;
  if (!serve_spec(opt, s, link, read_file, spec, o)) return false;
  Errors errors;
  if (!serve::run_serve(s, spec, r, errors) || (spec.goodput > 0 && !serve::find_goodput(s, spec, r, errors)) ||
      (spec.xpyd > 0 && !serve::find_xpyd(s, spec, r, errors))) {
    report(o, errors, errors.front().code == ErrorCode::Infeasible ? kExitInvalid : kExitUsage);
    return false;
  }
  if (used) *used = spec;
  return true;
}

// The summary with the trust band of the nearest measured runs beside TTFT, TPOT and output tokens/s per GPU
// (serve/trust.h); --trust-runs lists the runs behind one of them.
void cmd_serve(const Options& opt, const Scenario& s, const FromLink& link, ReadFile read_file, Output& o) {
  serve::ServeResult r;
  serve::ServeSpec spec;
  if (!run_serve_command(opt, s, link, read_file, o, r, &spec)) return;
  const serve::Trust trust = serve::serve_trust(s, spec, r);
  if (opt.format == Format::Json) o.out = serve::serve_json(r, &trust);
  else if (opt.format == Format::Csv) o.out = serve::serve_csv(r);
  else o.out = serve::serve_text(r, &trust);
  serve::TrustFigure f{};
  if (opt.format == Format::Text && serve::trust_figure_from_key(opt.trust_runs, f)) o.out += "\n" + serve::trust_runs_text(trust, f);
  // A run in which no request completed measured nothing: the summary still prints (its refusals named), and the
  // exit code says the setup cannot serve this workload, as figures does for a setup that cannot run.
  if (r.completed == 0 && r.refused > 0) {
    o.err += "tierscope: serve: every request was refused (" + std::to_string(r.refused) + "): " + r.refused_why + "\n";
    o.exit_code = kExitInvalid;
  }
}

}  // namespace tierscope::cli
