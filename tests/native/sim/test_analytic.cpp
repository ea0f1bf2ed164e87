// Closed-form checks of the simulator against queueing and caching results (derivations in docs/fleet.md).
//
// 1. The SWA pool under Poisson session arrivals (rate λ), geometric turns (mean m) and exponential think
//    times (mean θ). A window enters the pool when a turn ends and leaves it when its session returns (a
//    hit) or when it is the least recently inserted of a full pool: the pool is first-in, first-out in
//    insertion order. In the mean-field (characteristic-time) approximation of Che et al. (2002), every
//    window stays exactly T after its insertion unless its session returns first, T fixed by the capacity:
//        C = λ · [T + (m − 1) · θ · (1 − e^(−T/θ))]
//    and a returning session finds its window with probability 1 − e^(−T/θ).
// 2. The SSD tier as a TTL cache with the timer reset at every use (retention R, ample capacity, no DRAM
//    tier): a returning session finds its history iff its think time is below R, exactly 1 − e^(−R/θ).
#include "fleet_helpers.h"

#include <cmath>

using namespace tierscope;
using fleet_test::config;
using fleet_test::light;

namespace {

// T for a pool of `capacity` windows (bisection: the right side grows with T).
double characteristic_time(double capacity, double lambda, double m, double theta) {
  auto occupancy = [&](double t) { return lambda * (t + (m - 1) * theta * (1 - std::exp(-t / theta))); };
  double lo = 0, hi = 1;
  while (occupancy(hi) < capacity) hi *= 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (occupancy(mid) < capacity ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Pool and history hit rates over the hours after the first (the pool fills during the first hour).
void rates_after_warmup(const sim::FleetResult& r, double& pool, double& history) {
  std::uint64_t resumed = 0, pool_hits = 0, history_hits = 0;
  for (std::size_t h = 1; h < r.hours.size(); ++h) {
    resumed += r.hours[h].resumed;
    pool_hits += r.hours[h].pool_hits;
    history_hits += r.hours[h].history_hits;
  }
  REQUIRE(resumed > 20000);
  pool = static_cast<double>(pool_hits) / static_cast<double>(resumed);
  history = static_cast<double>(history_hits) / static_cast<double>(resumed);
}

}  // namespace

TEST_CASE("analytic: SWA pool hit rate against the characteristic-time (Che) approximation, within 1 point") {
  const double lambda = 2, m = 4, theta = 300;
  for (double capacity : {600.0, 1738.0, 3000.0}) {
    INFO("pool of " << capacity << " windows");
    sim::FleetConfig c = config(light({{"hours", "4"}, {"wm_high", "1"}, {"wm_low", "1"}}));
    c.pool_sessions = capacity;
    const sim::FleetResult r = sim::run_fleet(c);
    double pool = 0, history = 0;
    rates_after_warmup(r, pool, history);
    const double t = characteristic_time(capacity, lambda, m, theta);
    const double predicted = 1 - std::exp(-t / theta);
    INFO("T = " << t << " s: predicted " << predicted << ", simulated " << pool);
    CHECK(std::fabs(pool - predicted) <= 0.01);
  }
}

TEST_CASE("analytic: SSD retention as a TTL cache, 1 − e^(−R/θ), within 0.6 points") {
  const double theta = 300;
  for (double retention : {100.0, 300.0, 900.0}) {
    INFO("retention " << retention << " s");
    sim::FleetConfig c = config(light({{"hours", "3"}, {"dram_prefix", "0"}}));
    c.retention_s = retention;
    c.hbm_prefix = false;  // the SSD tier alone: no history kept in HBM between turns
    const sim::FleetResult r = sim::run_fleet(c);
    CHECK(r.total.hit_dram_tokens == 0);
    double pool = 0, history = 0;
    rates_after_warmup(r, pool, history);
    const double predicted = 1 - std::exp(-retention / theta);
    INFO("predicted " << predicted << ", simulated " << history);
    CHECK(std::fabs(history - predicted) <= 0.006);
  }
}
