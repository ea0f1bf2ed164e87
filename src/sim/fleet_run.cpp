// The sliced fleet run behind the app controller and the CLI's JSON.
#include "sim/fleet_run.h"

#include <algorithm>

#include "model/text.h"
#include "sim/fleet_report.h"

namespace tierscope::sim {

bool FleetRun::start(const model::Scenario& s, std::string_view trace_text, model::Errors& errors) {
  cancel();
  errors.clear();
  std::unique_ptr<Trace> trace;
  if (!trace_text.empty()) {
    trace = std::make_unique<Trace>();
    model::Error e;
    if (!parse_trace(trace_text, s.fleet.block_tokens, *trace, e)) {
      errors.push_back(e);
      return false;
    }
  }
  FleetConfig c;
  if (!make_fleet_config(s, trace.get(), c, errors)) return false;
  trace_ = std::move(trace);
  config_ = std::move(c);
  config_.trace = trace_.get();
  sim_.start(config_);
  started_ = true;
  return true;
}

std::uint64_t FleetRun::advance(std::uint64_t max_events) { return started_ ? sim_.run_events(max_events) : 0; }

std::uint64_t FleetRun::advance_by(double seconds) {
  if (!started_ || !(seconds > 0)) return 0;
  return sim_.run_until(sim_.now() + seconds);
}

void FleetRun::cancel() {
  sim_ = FleetSim();
  trace_.reset();
  config_ = FleetConfig();
  started_ = false;
}

double FleetRun::progress() const {
  if (!started_) return 0;
  if (sim_.done()) return 1;
  return config_.horizon_s > 0 ? std::clamp(sim_.now() / config_.horizon_s, 0.0, 1.0) : 1.0;
}

std::string FleetRun::json() const { return started_ ? fleet_json(sim_.result()) : std::string("null\n"); }

std::string FleetRun::status_json() const {
  std::string o = "{\"started\":";
  o += started_ ? "true" : "false";
  o += ",\"done\":";
  o += done() ? "true" : "false";
  o += ",\"t_s\":";
  model::append_json_number(o, started_ ? sim_.now() : 0.0);
  o += ",\"horizon_s\":";
  model::append_json_number(o, started_ ? config_.horizon_s : 0.0);
  o += ",\"progress\":";
  model::append_json_number(o, progress());
  o += "}";
  return o;
}

std::uint64_t next_slice_events(std::uint64_t last_events, double last_ms, double target_ms) {
  constexpr double kMin = 256, kMax = 1048576;
  double next = kMin;
  if (last_events > 0 && last_ms > 0 && target_ms > 0) {
    next = static_cast<double>(last_events) * std::min(4.0, target_ms / last_ms);
  } else if (last_events > 0) {
    next = static_cast<double>(last_events) * 4;  // too fast to time: grow
  }
  return static_cast<std::uint64_t>(std::clamp(next, kMin, kMax));
}

}  // namespace tierscope::sim
