// Reports (never asserts) how fast the fleet simulator runs: events per second, a day of one node at
// the default traffic and near its full capacity, set-up cost, and the memory the run holds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/params.h"
#include "model/presets.h"
#include "sim/fleet.h"
#include "sim/fleet_report.h"

using namespace tierscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point a) { return std::chrono::duration<double>(Clock::now() - a).count(); }

// FNV-1a of the run's JSON: equal digests natively and as WebAssembly mean byte-identical results.
std::uint64_t digest(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

struct Run {
  double setup_s = 0, run_s = 0;
  std::uint64_t events = 0, turns = 0;
  std::uint64_t hash = 0;
  double slice_max_ms = 0;
};

// One run, advanced in slices of `slice` events as the page would, timing the slowest slice.
Run measure(const model::Scenario& s, std::uint64_t slice) {
  Run r;
  const auto a = Clock::now();
  sim::FleetConfig c;
  model::Errors errors;
  if (!sim::make_fleet_config(s, nullptr, c, errors)) {
    for (const auto& e : errors) std::printf("error: %s\n", e.message().c_str());
    return r;
  }
  r.setup_s = seconds_since(a);
  sim::FleetSim sim;
  const auto b = Clock::now();
  sim.start(c);
  for (;;) {
    const auto t0 = Clock::now();
    const std::uint64_t n = sim.run_events(slice);
    r.slice_max_ms = std::max(r.slice_max_ms, seconds_since(t0) * 1e3);
    if (n == 0) break;
  }
  r.run_s = seconds_since(b);
  const sim::FleetResult res = sim.result();
  r.events = res.events;
  r.turns = res.total.turns;
  r.hash = digest(sim::fleet_json(res));
  return r;
}

void set(model::Scenario& s, const char* key, const char* value) {
  model::Error e;
  model::Adjustments moved;
  model::edit_param(s, *model::find_param(key), value, moved, e);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  model::Scenario base = model::default_scenario();
  if (quick) set(base, "hours", "2");

  std::printf("tierscope fleet benchmark (%s)\n", quick ? "quick: 2 simulated hours" : "24 simulated hours");
  std::printf("%-58s %14s\n", "measurement", "result");
  const Run d = measure(base, 16384);
  std::printf("%-58s %11.1f ms\n", "set-up: capacities and the model's timing tables", d.setup_s * 1e3);
  std::printf("%-58s %11.2f M/s\n", "events per second, default traffic", static_cast<double>(d.events) / d.run_s / 1e6);
  std::printf("%-58s %11.3f s\n", "simulated day, default traffic (2 sessions/s)", d.run_s);
  std::printf("%-58s %14llu\n", "  events", static_cast<unsigned long long>(d.events));
  std::printf("%-58s %14llu\n", "  turns", static_cast<unsigned long long>(d.turns));
  std::printf("%-58s %11.2f ms\n", "  slowest slice of 16,384 events", d.slice_max_ms);
  std::printf("%-58s %014llx\n", "  result digest (same natively and as WebAssembly)", static_cast<unsigned long long>(d.hash));

  // Near full capacity: 90 % of the largest arrival rate the node can ever serve (the set-up refuses more).
  model::Scenario full = base;
  const double most = sim::fleet_arrivals_limit(full);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.6g", 0.9 * most);
  set(full, "arrivals", rate);
  const Run f = measure(full, 16384);
  char label[96];
  std::snprintf(label, sizeof label, "simulated day at 90 %% of capacity (%s sessions/s)", rate);
  std::printf("%-58s %11.3f s\n", label, f.run_s);
  std::printf("%-58s %11.2f M/s\n", "  events per second", static_cast<double>(f.events) / f.run_s / 1e6);
  std::printf("%-58s %14llu\n", "  events", static_cast<unsigned long long>(f.events));
  std::printf("%-58s %14llu\n", "  turns", static_cast<unsigned long long>(f.turns));
  std::printf("%-58s %11.2f ms\n", "  slowest slice of 16,384 events", f.slice_max_ms);
  std::printf("%-58s %014llx\n", "  result digest", static_cast<unsigned long long>(f.hash));
  return 0;
}
