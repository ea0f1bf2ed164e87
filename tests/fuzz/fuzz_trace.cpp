// libFuzzer target: the Mooncake-format trace parser, and a short replay of what it accepts. Any input is
// a trace or a named error (never a crash or a half-filled trace); an accepted trace's structure is sound;
// replayed with unbounded tiers its prefix hits equal its own bound whenever every request got in.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/presets.h"
#include "sim/fleet.h"
#include "sim/trace.h"

using namespace tierscope;

namespace {
// One run set-up for every input (tabulating the model costs milliseconds); only the trace changes.
const sim::FleetConfig& base_config() {
  static const sim::FleetConfig config = [] {
    model::Scenario s = model::default_scenario();
    s.fleet.hours = 1;
    sim::FleetConfig c;
    model::Errors errors;
    if (!sim::make_fleet_config(s, nullptr, c, errors)) std::abort();
    c.dram_bytes = c.ssd_bytes = HUGE_VAL;
    c.retention_s = HUGE_VAL;
    return c;
  }();
  return config;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sim::Trace t;
  model::Error e;
  if (!sim::parse_trace(text, 512, t, e)) {
    if (e.field.empty() || e.allowed.empty() || !t.input.empty()) std::abort();  // named, and nothing loaded
    return 0;
  }
  if (t.size() == 0 || t.first.size() != t.size() + 1 || t.first.back() != t.ids.size() || t.line.size() != t.size()) std::abort();
  for (std::size_t r = 0; r < t.size(); ++r) {
    const std::uint32_t blocks = t.first[r + 1] - t.first[r];
    if (blocks == 0 || blocks > (t.input[r] + 511) / 512 || t.output[r] == 0) std::abort();
    if (r > 0 && t.arrival_s[r] < t.arrival_s[r - 1]) std::abort();
  }
  for (std::uint32_t id : t.ids) {
    if (id >= t.distinct) std::abort();
  }
  sim::FleetConfig c = base_config();
  c.trace = &t;
  c.mode = sim::Mode::Trace;
  sim::FleetSim run;
  run.start(c);
  run.run_events(200000);  // bounded: a trace of a few kilobytes needs far fewer
  const sim::FleetResult r = run.result();
  if (r.sessions_arrived != r.sessions_finished + r.sessions_refused + r.sessions_in_flight) std::abort();
  if (run.done() && r.total.turns == t.size()) {
    const sim::TraceBound b = sim::trace_prefix_bound(t, 512);
    if (r.total.hit_hbm_tokens + r.total.hit_dram_tokens + r.total.hit_ssd_tokens != b.hit_tokens) std::abort();
  }
  return 0;
}
