// libFuzzer target: fleet traffic from a share-link hash (the workload codec: every fleet key through the
// URL codec), the run's set-up, and a bounded stretch of the run. Every input is a run or named errors;
// a run conserves its sessions and bytes, never passes a tier's capacity and never hangs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "codec/url_codec.h"
#include "sim/fleet.h"

using namespace tierscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  model::Scenario s;
  model::Errors errors;
  if (!model::scenario_from_hash(text, s, errors)) {
    if (errors.empty()) std::abort();
    return 0;
  }
  sim::FleetConfig c;
  model::Errors why;
  if (!sim::make_fleet_config(s, nullptr, c, why)) {
    if (why.empty()) std::abort();
    for (const model::Error& e : why) {
      if (e.field.empty() || e.allowed.empty()) std::abort();
    }
    return 0;
  }
  sim::FleetSim run;
  run.start(c);
  run.run_events(50000);  // a bounded stretch: each input stays fast whatever its arrivals and hours
  const sim::FleetResult r = run.result();
  if (r.sessions_arrived != r.sessions_finished + r.sessions_refused + r.sessions_in_flight) std::abort();
  for (const sim::TierFlow* t : {&r.hbm, &r.pool, &r.dram, &r.ssd}) {
    if (!std::isfinite(t->in) || std::fabs(t->in - t->out - t->resident) > 1e-6 * std::max(1.0, t->in)) std::abort();
  }
  for (const sim::Sample& x : r.samples) {
    if (x.hbm_bytes > c.hbm_bytes * c.nodes * (1 + 1e-9) || x.dram_bytes > c.dram_bytes * c.nodes * (1 + 1e-9)) std::abort();
  }
  return 0;
}
