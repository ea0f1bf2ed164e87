// Fleet results in words and numbers: the JSON every front end shows (the CLI prints it, the page's fleet
// view reads it, so both are byte for byte the same), hourly text lines and CSV rows; and the capacity
// sweep that finds where each hit-rate curve flattens.
#pragma once

#include <string>
#include <vector>

#include "sim/fleet.h"

namespace tierscope::sim {

// Hit rates of a run (null-like −1 where a rate has no turns behind it).
struct HitRates {
  double prefix = -1;   // prompt tokens found in HBM, DRAM or SSD ÷ prompt tokens
  double hbm = -1, dram = -1, ssd = -1;
  double pool = -1;     // returning turns that found their window in the SWA pool ÷ returning turns
  double history = -1;  // returning turns that found their whole history ÷ returning turns
};
HitRates hit_rates(const HourStats& h, bool pool_on);

// Which tier a sweep grows.
enum class SweepTier : std::uint8_t { Pool, Dram, Ssd, Count };
const char* sweep_tier_name(SweepTier t);  // "pool", "dram", "ssd"
bool parse_sweep_tier(std::string_view text, SweepTier& out);
std::string sweep_tiers_text();  // "pool, dram, ssd": what --sweep and a fleet run's sweep take

struct SweepPoint {
  double factor = 1;      // × the scenario's capacity
  double capacity = 0;    // per node: sessions (pool) or bytes
  HitRates hits;
  double ttft_p95_s = 0;
};
struct SweepResult {
  SweepTier tier = SweepTier::Pool;
  std::vector<SweepPoint> points;
  // The smallest capacity whose curve (pool: pool hits; dram, ssd: prefix hits) is within one percentage
  // point of the largest capacity's: past it, more capacity buys almost nothing.
  int knee = -1;
};
// Runs the same traffic (same seed) at each factor × the tier's capacity. Factors are sorted ascending.
SweepResult fleet_sweep(const FleetConfig& base, SweepTier tier, std::vector<double> factors);
// The pieces of a sweep, for a front end that runs its points in slices (FleetRun) and must reach the same
// numbers: the run at `factor` × the tier's capacity, the point a finished run gives, and the knee.
FleetConfig sweep_config(const FleetConfig& base, SweepTier tier, double factor);
SweepPoint sweep_point(const FleetConfig& c, SweepTier tier, double factor, const FleetResult& r);
void sweep_find_knee(SweepResult& out);
std::vector<double> default_sweep_factors();  // 1/16, 1/8, … 16

std::string fleet_json(const FleetResult& r, const SweepResult* sweep = nullptr);
// "hour 8 (07:00–08:00): 41,200 turns, prefix hits 83 % (DRAM 61 %, SSD 22 %), SWA pool hits 74 %, p95 TTFT 310 ms", one a
// line, then the totals, the tiers and the drives' wear.
std::string fleet_text(const FleetResult& r, const SweepResult* sweep = nullptr);
// One hour's line of fleet_text (the page's ledger lists the same lines); "" past the run's hours.
std::string fleet_hour_line(const FleetResult& r, std::size_t hour);
// The totals' first line of fleet_text ("total: 172,445 sessions (0 refused), 690,064 turns, prefix hits …").
std::string fleet_total_line(const FleetResult& r);
// A hit rate as the text writes it ("83.4 %", "—" for a rate with no turns behind it).
std::string fleet_percent(double rate);
// A time as a person reads it: "310 ms", "12.5 s", "8.2 min", "3.26 h", "2.5 days" (never e-notation).
std::string fleet_duration(double seconds);
// "hour 24 (23:00–24:00)": hour `hour` (0-based) of a run, counted from 1, with its span on the run's clock.
std::string fleet_hour_name(const FleetResult& r, std::size_t hour);

// Whether the run's offered load outgrew what its nodes serve: the queue for HBM held turns at the end
// and grew over the run's last hour (or sessions were refused at a full queue). The numbers behind it
// are the simulator's: turns offered (admitted, plus those still queued) and admitted, per hour.
struct Overload {
  bool overloaded = false;
  double offered_per_h = 0, served_per_h = 0;  // turns per hour, over all nodes
  double queued = 0, queued_hour_before = 0;   // turns waiting for HBM at the end, and an hour earlier
  double refused = 0;                          // sessions refused
};
Overload fleet_overload(const FleetResult& r);
// One line that says so with the numbers ("" when the run is not overloaded).
std::string fleet_overload_line(const FleetResult& r);

// One row per hour (then a row "total").
std::string fleet_csv(const FleetResult& r);

}  // namespace tierscope::sim
