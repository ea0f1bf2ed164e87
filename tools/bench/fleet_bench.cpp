// Reports (never asserts) how fast the fleet simulator runs and what it holds: events per second, a
// simulated day of one node at the default traffic, at its session capacity (as many sessions in the
// system as hbm.sessions_per_node) and near its throughput limit, the set-up cost, the slowest slice of
// events, and the memory of the run. With --json, the default run's JSON (a native and a WebAssembly build
// must print the same bytes); with --quick, two simulated hours instead of 24.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"
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
  double setup_s = 0, run_s = 0, slice_max_ms = 0, sessions_mean = 0, sojourn_s = 0;
  std::uint64_t events = 0, turns = 0, hash = 0;
  std::size_t memory = 0;
};

constexpr std::uint64_t kSlice = 4096;  // events per slice, as the page would advance the run

// The machine may be shared: short runs are repeated and the fastest kept (the runs are identical).
Run measure(const model::Scenario& s, int rounds);

Run measure_once(const model::Scenario& s) {
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
    const std::uint64_t n = sim.run_events(kSlice);
    r.slice_max_ms = std::max(r.slice_max_ms, seconds_since(t0) * 1e3);
    if (n == 0) break;
  }
  r.run_s = seconds_since(b);
  const sim::FleetResult res = sim.result();
  r.events = res.events;
  r.turns = res.total.turns;
  r.sessions_mean = res.sessions_mean;
  r.sojourn_s = res.sojourn_mean_s;
  r.memory = sim.memory_bytes();
  r.hash = digest(sim::fleet_json(res));
  return r;
}

Run measure(const model::Scenario& s, int rounds) {
  Run best = measure_once(s);
  for (int i = 1; i < rounds; ++i) {
    const Run r = measure_once(s);
    if (r.run_s < best.run_s) best = r;
  }
  return best;
}

void set(model::Scenario& s, const char* key, double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", value);
  model::Error e;
  model::Adjustments moved;
  model::edit_param(s, *model::find_param(key), text, moved, e);
}

void report(const char* title, const Run& r) {
  std::printf("%-62s %10.3f s\n", title, r.run_s);  // the fastest of its rounds
  std::printf("  %-60s %8.2f M/s\n", "events per second", static_cast<double>(r.events) / r.run_s / 1e6);
  std::printf("  %-60s %12llu\n", "events", static_cast<unsigned long long>(r.events));
  std::printf("  %-60s %12llu\n", "turns", static_cast<unsigned long long>(r.turns));
  std::printf("  %-60s %12.0f\n", "sessions in the system (time average)", r.sessions_mean);
  std::printf("  %-60s %9.2f ms\n", "slowest slice of 4,096 events", r.slice_max_ms);
  std::printf("  %-60s %9.1f MB\n", "memory held by the run (pools, heaps, queues)", static_cast<double>(r.memory) / 1e6);
  std::printf("  %-60s %012llx\n", "result digest (equal natively and as WebAssembly)", static_cast<unsigned long long>(r.hash));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, json = false;
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    json = json || std::strcmp(argv[i], "--json") == 0;
  }
  model::Scenario base = model::default_scenario();
  if (quick) set(base, "hours", 2);
  if (json) {
    sim::FleetConfig c;
    model::Errors errors;
    if (!sim::make_fleet_config(base, nullptr, c, errors)) return 1;
    const std::string out = sim::fleet_json(sim::run_fleet(c));
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  std::printf("tierscope fleet benchmark (%s, one node of the default scenario; short runs: fastest of 3)\n",
              quick ? "2 simulated hours" : "24 simulated hours");
  const Run d = measure(base, 3);
  std::printf("%-62s %9.1f ms\n", "set-up: capacities and the model's timing tables", d.setup_s * 1e3);
  report("default traffic (2 sessions/s)", d);

  // The model's session capacity: arrivals such that the sessions in the system average
  // hbm.sessions_per_node (Little's law with the default run's time in the system).
  model::Computed m;
  model::compute_values(base, m);
  const double capacity = m.values[model::FigureId::HbmSessionsPerNode];
  model::Scenario full = base;
  set(full, "arrivals", capacity / d.sojourn_s);
  char title[120];
  std::snprintf(title, sizeof title, "at the session capacity (%.0f sessions, %.3g sessions/s)", capacity, capacity / d.sojourn_s);
  report(title, measure(full, 3));

  // Near the throughput limit: 90 % of the most the node could ever serve (the set-up refuses more).
  model::Scenario busy = base;
  const double most = sim::fleet_arrivals_limit(busy);
  set(busy, "arrivals", 0.9 * most);
  std::snprintf(title, sizeof title, "at 90 %% of the throughput limit (%.3g sessions/s)", 0.9 * most);
  report(title, measure(busy, 1));
  return 0;
}
