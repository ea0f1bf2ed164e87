// The fleet's HBM prefix cache in front of its DRAM and SSD tiers (src/sim/fleet_hbm.cpp): a shared prefix
// and a history still in HBM are hits with nothing to load, shared prefixes count once in HBM, and the
// report shows HBM hits beside the DRAM and SSD ones.
#include "fleet_helpers.h"

#include "sim/fleet_report.h"

using namespace tierscope;
using fleet_test::config;
using fleet_test::light;

namespace {

// Turns returning within minutes to prefixes many sessions share: what HBM keeps between turns is found there.
sim::FleetConfig shared_prefixes() {
  sim::FleetConfig c = config(light({{"think_s", "60"}, {"prefixes", "20"}, {"prefix_tokens", "2000"}, {"hours", "1"}}));
  c.dram_bytes = 2e9;
  c.ssd_bytes = 4e9;
  return c;
}

}  // namespace

TEST_CASE("fleet hbm: returning turns and shared prefixes are found in HBM, with nothing to load") {
  sim::FleetConfig on = shared_prefixes(), off = shared_prefixes();
  REQUIRE(on.hbm_prefix);  // the engines' default
  off.hbm_prefix = false;
  const sim::FleetResult a = sim::run_fleet(on), b = sim::run_fleet(off);
  CHECK(a.total.hit_hbm_tokens > 0);
  CHECK(b.total.hit_hbm_tokens == 0);
  // HBM holds what the DRAM tier would have uploaded: fewer bytes climb the host links, TTFT falls.
  CHECK(a.total.bytes_up < b.total.bytes_up);
  CHECK(a.total.ttft_sum_s / static_cast<double>(a.total.turns) < b.total.ttft_sum_s / static_cast<double>(b.total.turns));
  // Every hit counts once, whichever tier served it: the share of prompt tokens found never falls.
  const sim::HitRates ra = sim::hit_rates(a.total, a.pool_on), rb = sim::hit_rates(b.total, b.pool_on);
  CHECK(ra.prefix >= rb.prefix - 1e-9);
  CHECK(ra.prefix == Approx(ra.hbm + ra.dram + ra.ssd));
  // The report shows the HBM share beside DRAM and SSD.
  CHECK(sim::fleet_total_line(a).find("HBM ") != std::string::npos);
  CHECK(sim::fleet_json(a).find("\"hbm_hit\"") != std::string::npos);
  CHECK(sim::fleet_csv(a).find(",hbm_hit,") != std::string::npos);
}

TEST_CASE("fleet hbm: a prefix shared by running turns is held in HBM once") {
  // One shared prefix, many turns at once: with the cache the node holds the prefix once, so its HBM in use
  // is lower at the same admitted load.
  sim::FleetConfig on = config(light({{"arrivals", "8"}, {"think_s", "30"}, {"prefixes", "1"}, {"prefix_tokens", "8000"}, {"hours", "1"}}));
  sim::FleetConfig off = on;
  off.hbm_prefix = false;
  const sim::FleetResult a = sim::run_fleet(on), b = sim::run_fleet(off);
  REQUIRE(a.total.turns == b.total.turns);
  double used_a = 0, used_b = 0;
  for (const sim::Sample& x : a.samples) used_a += x.hbm_bytes;
  for (const sim::Sample& x : b.samples) used_b += x.hbm_bytes;
  CHECK(used_a < used_b);
  // Bytes in and out of HBM still balance with what it holds.
  CHECK(std::fabs(a.hbm.in - a.hbm.out - a.hbm.resident) <= 1e-9 * std::max(1.0, a.hbm.in));
}
