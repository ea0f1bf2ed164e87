// The fleet simulator's invariants: the same seed gives the same run; sessions, turns and bytes are
// conserved; Little's law holds; hit rates never fall as a tier grows; retention 0 means no SSD hits;
// unlimited tiers hit every repeated prefix; overload is a result; impossible workloads are named errors;
// slices give the same run as one go.
#include "fleet_helpers.h"

#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "roofline/figures.h"
#include "roofline/offload.h"
#include "sim/fleet_report.h"

using namespace tierscope;
using fleet_test::config;
using fleet_test::light;
using fleet_test::scenario;

namespace {

void check_flow(const sim::TierFlow& t, const char* name) {
  INFO(name << ": in " << t.in << ", out " << t.out << ", resident " << t.resident);
  CHECK(t.resident >= -1e-6 * std::max(1.0, t.in));
  CHECK(std::fabs(t.in - t.out - t.resident) <= 1e-9 * std::max(1.0, t.in));
}

void check_conservation(const sim::FleetResult& r) {
  CHECK(r.sessions_arrived == r.sessions_finished + r.sessions_refused + r.sessions_in_flight);
  CHECK(r.total.arrivals == r.sessions_arrived);
  CHECK(r.total.turns == r.total.finished + r.turns_in_service);
  check_flow(r.hbm, "hbm");
  check_flow(r.pool, "pool");
  check_flow(r.dram, "dram");
  check_flow(r.ssd, "ssd");
  // What a tier holds never passes its capacity (summed over nodes).
  for (const sim::Sample& x : r.samples) {
    CHECK(x.hbm_bytes <= r.hbm_bytes * r.nodes * (1 + 1e-12));
    CHECK(x.dram_bytes <= r.dram_bytes * r.nodes * (1 + 1e-12));
    CHECK(x.ssd_bytes <= r.ssd_bytes * r.nodes * (1 + 1e-12));
    if (r.pool_on) CHECK(x.pool_sessions <= r.pool_sessions * r.nodes);
  }
}

struct Recorder {
  std::vector<sim::TurnRecord> turns;
  static void on_turn(void* self, const sim::TurnRecord& t) { static_cast<Recorder*>(self)->turns.push_back(t); }
  sim::TurnObserver observer() { return {&Recorder::on_turn, this}; }
};

double pool_curve(const sim::SweepPoint& p) { return p.hits.pool; }
double prefix_curve(const sim::SweepPoint& p) { return p.hits.prefix; }

}  // namespace

TEST_CASE("fleet: the same seed gives the same run, byte for byte — another seed another run") {
  const model::Scenario s = scenario({{"hours", "1"}, {"arrivals", "3"}});
  const sim::FleetConfig c = config(s);
  const std::string a = sim::fleet_json(sim::run_fleet(c));
  const std::string b = sim::fleet_json(sim::run_fleet(config(s)));
  CHECK(a == b);
  sim::FleetConfig other = c;
  other.seed = 2;
  CHECK(sim::fleet_json(sim::run_fleet(other)) != a);
}

TEST_CASE("fleet: slices of any size, or runs up to given times, give the run made in one go") {
  const sim::FleetConfig c = config(scenario({{"hours", "1"}, {"arrivals", "3"}}));
  const std::string whole = sim::fleet_json(sim::run_fleet(c));
  for (std::uint64_t slice : {1ull, 7ull, 1000ull, 65536ull}) {
    sim::FleetSim sim;
    sim.start(c);
    while (sim.run_events(slice) > 0) {
    }
    CHECK(sim.done());
    CHECK(sim::fleet_json(sim.result()) == whole);
  }
  sim::FleetSim sim;
  sim.start(c);
  for (double t = 0; !sim.done(); t += 123.4) {
    sim.run_until(t);
    CHECK(sim.now() <= t + 1e-9);
  }
  CHECK(sim::fleet_json(sim.result()) == whole);
}

TEST_CASE("fleet: sessions, turns and the bytes of every tier are conserved") {
  SECTION("default traffic") { check_conservation(sim::run_fleet(config(scenario({{"hours", "2"}})))); }
  SECTION("small tiers that evict all the time, write-back to SSD, short retention") {
    sim::FleetConfig c = config(scenario({{"hours", "2"}, {"ssd_write", "evict"}, {"think_s", "400"}}));
    c.dram_bytes = 5e9;
    c.ssd_bytes = 20e9;
    c.pool_sessions = 50;
    c.retention_s = 600;
    const sim::FleetResult r = sim::run_fleet(c);
    check_conservation(r);
    CHECK(r.dram.out > 0);
    CHECK(r.ssd.out > 0);
    CHECK(r.total.bytes_expired > 0);
  }
  SECTION("four nodes behind each router") {
    for (const char* router : {"prefix", "least", "random"}) {
      INFO(router);
      const sim::FleetResult r = sim::run_fleet(config(scenario({{"hours", "1"}, {"nodes", "4"}, {"arrivals", "6"}, {"router", router}})));
      check_conservation(r);
    }
  }
  SECTION("a recorded trace") {
    sim::Trace t;
    model::Error e;
    REQUIRE(sim::parse_trace(fleet_test::fixture("mooncake-conversation-head.jsonl"), 512, t, e));
    sim::FleetConfig c = config(scenario({{"hours", "1"}}), &t);
    c.dram_bytes = 1e8;
    const sim::FleetResult r = sim::run_fleet(c);
    check_conservation(r);
    CHECK(r.sessions_finished == 75);
  }
}

TEST_CASE("fleet: Little's law — sessions in the system = arrival rate × time in the system, within 3 %") {
  // Sessions stay about 15 minutes (3 think times of 300 s) in a 4-hour run: the edges of the run (sessions
  // still in flight at its end) make up most of the difference.
  model::Scenario s = light({{"hours", "4"}});
  const sim::FleetResult r = sim::run_fleet(config(s));
  const double little = r.arrival_rate * r.sojourn_mean_s;
  INFO("L " << r.sessions_mean << ", λW " << little);
  CHECK(std::fabs(r.sessions_mean - little) <= 0.03 * little);
  CHECK(r.sessions_mean > 1000);  // about λ × (turns − 1) × think = 2 × 3 × 300
}

TEST_CASE("fleet: a hit rate never falls when its tier grows") {
  // Watermark evictions come in batches, so the exact inclusion property of LRU does not hold; the curves
  // are still checked point by point at factor-2 steps.
  const std::vector<double> factors = {0.25, 0.5, 1, 2, 4, 8};
  sim::FleetConfig c = config(light({{"think_s", "900"}, {"prefixes", "200"}, {"prefix_tokens", "2000"}, {"hours", "3"}}));
  c.pool_sessions = 400;
  c.dram_bytes = 2e9;
  c.ssd_bytes = 4e9;
  c.hbm_prefix = false;  // the DRAM and SSD tiers alone: an HBM cache in front would hold what the light load reuses
  struct Axis {
    sim::SweepTier tier;
    double (*curve)(const sim::SweepPoint&);
  };
  for (const Axis& a : {Axis{sim::SweepTier::Pool, pool_curve}, Axis{sim::SweepTier::Dram, prefix_curve}, Axis{sim::SweepTier::Ssd, prefix_curve}}) {
    INFO(sim::sweep_tier_name(a.tier));
    const sim::SweepResult sw = sim::fleet_sweep(c, a.tier, factors);
    REQUIRE(sw.points.size() == factors.size());
    for (std::size_t i = 1; i < sw.points.size(); ++i) {
      INFO("factor " << sw.points[i].factor << ": " << a.curve(sw.points[i - 1]) << " → " << a.curve(sw.points[i]));
      CHECK(a.curve(sw.points[i]) >= a.curve(sw.points[i - 1]));
    }
    CHECK(a.curve(sw.points.back()) > a.curve(sw.points.front()));  // the tier binds at the small end
    REQUIRE(sw.knee >= 0);
    CHECK(a.curve(sw.points[static_cast<std::size_t>(sw.knee)]) >= a.curve(sw.points.back()) - 0.01);
  }
}

TEST_CASE("fleet: with retention 0 the SSD serves no hits and is never written") {
  sim::FleetConfig c = config(scenario({{"hours", "2"}, {"retention_h", "0"}, {"think_s", "600"}}));
  c.dram_bytes = 1e9;  // small, so returning sessions would need the SSD
  c.hbm_prefix = false;  // nor find their history still in HBM
  const sim::FleetResult r = sim::run_fleet(c);
  CHECK(r.total.hit_ssd_tokens == 0);
  CHECK(r.total.bytes_ssd_write == 0);
  CHECK(r.total.bytes_ssd_read == 0);
  CHECK(r.ssd.in == 0);
  // The same traffic with the card's 72 h does use the SSD.
  sim::FleetConfig kept = c;
  kept.retention_s = 72 * 3600.0;
  CHECK(sim::run_fleet(kept).total.hit_ssd_tokens > 0);
}

TEST_CASE("fleet: with unlimited tiers every returning turn finds its whole history, every repeated prefix hits") {
  sim::FleetConfig c = config(scenario({{"hours", "1"}, {"prefixes", "50"}, {"think_s", "120"}}));
  c.dram_bytes = c.ssd_bytes = c.pool_sessions = fleet_test::kInf;
  c.retention_s = fleet_test::kInf;
  Recorder rec;
  const sim::FleetResult r = sim::run_fleet(c, rec.observer());
  REQUIRE(rec.turns.size() == r.total.turns);
  std::set<int> seen_prefix;
  std::size_t resumed = 0, first_hits = 0;
  for (const sim::TurnRecord& t : rec.turns) {
    const double hit = t.hit_hbm_tokens + t.hit_dram_tokens + t.hit_ssd_tokens;
    if (t.turn == 0) {
      const bool seen = seen_prefix.count(t.prefix) > 0;
      CHECK(hit == (seen ? t.prefix_tokens : 0.0));
      first_hits += seen;
      seen_prefix.insert(t.prefix);
    } else {
      ++resumed;
      CHECK(hit == t.history_tokens);
      CHECK(t.pool_hit);
      CHECK_FALSE(t.replayed);
    }
  }
  CHECK(resumed > 1000);
  CHECK(first_hits > 1000);
  CHECK(r.total.history_hits == r.total.resumed);
  CHECK(r.total.pool_hits == r.total.resumed);
}

TEST_CASE("fleet: an overloaded node is a result — queues grow, TTFT rises, new sessions are refused") {
  // The set-up refuses more than the node can ever serve on average, so overload comes from the daily
  // peak: 0.99 × that rate with a peak of 1.9 × at midnight, for half an hour, in a small queue.
  model::Scenario heavy = scenario({{"queue_max", "2000"}, {"day_amp", "0.9"}, {"day_peak_h", "0"}, {"hours", "0.5"}});
  const double most = sim::fleet_arrivals_limit(heavy);
  REQUIRE(most > 0);
  model::Error e;
  model::Adjustments moved;
  REQUIRE(model::edit_param(heavy, *model::find_param("arrivals"), std::to_string(0.99 * most), moved, e));
  const sim::FleetResult r = sim::run_fleet(config(heavy));
  check_conservation(r);
  CHECK(r.sessions_refused > 0);
  CHECK(r.turns_queued > 1000);
  REQUIRE(r.samples.size() >= 6);
  CHECK(r.samples[0].queued == 0);
  CHECK(r.samples[5].queued > r.samples[1].queued);
  // The same traffic at a fifth of the rate, flat: TTFT stays well under a second.
  model::Scenario calm = heavy;
  REQUIRE(model::edit_param(calm, *model::find_param("arrivals"), std::to_string(0.2 * most), moved, e));
  REQUIRE(model::edit_param(calm, *model::find_param("day_amp"), "0", moved, e));
  const sim::FleetResult q = sim::run_fleet(config(calm));
  CHECK(q.total.ttft.quantile(0.99) < 1.0);
  CHECK(r.total.ttft.quantile(0.95) > 20 * q.total.ttft.quantile(0.95));
  CHECK(sim::fleet_text(r).find("overloaded") != std::string::npos);
}

TEST_CASE("fleet: impossible workloads are named errors with their numbers") {
  auto errors_of = [](const model::Scenario& s) {
    sim::FleetConfig c;
    model::Errors errors;
    CHECK_FALSE(sim::make_fleet_config(s, nullptr, c, errors));
    return errors;
  };
  auto has = [](const model::Errors& es, const std::string& field, model::ErrorCode code) {
    for (const auto& e : es) {
      if (e.field == field && e.code == code && !e.value.empty() && !e.allowed.empty()) return true;
    }
    return false;
  };
  // Arrivals beyond what the node can ever prefill and decode.
  const model::Errors load = errors_of(scenario({{"arrivals", "100000"}}));
  CHECK(has(load, "arrivals", model::ErrorCode::Infeasible));
  CHECK(load[0].message().find("sessions/s") != std::string::npos);
  // A context no node's HBM holds: the model names it.
  CHECK_FALSE(errors_of(scenario({{"ctx", "16000000"}})).empty());
  // Weights that do not fit.
  CHECK(has(errors_of(scenario({{"gpus", "1"}})), "gpus", model::ErrorCode::Infeasible));
  // A run too long to simulate.
  CHECK(has(errors_of(scenario({{"arrivals", "30"}, {"hours", "720"}, {"turns", "64"}})), "hours", model::ErrorCode::TooLarge));
  // Registry-level refusals: negative, non-finite, contradictory.
  model::Scenario s = model::default_scenario();
  model::Error e;
  CHECK_FALSE(model::set_param_text(s, *model::find_param("arrivals"), "-1", e));
  CHECK(e.code == model::ErrorCode::OutOfRange);
  CHECK_FALSE(model::set_param_text(s, *model::find_param("think_s"), "inf", e));
  CHECK(e.code == model::ErrorCode::NotFinite);
  CHECK_FALSE(model::set_param_text(s, *model::find_param("router"), "nearest", e));
  CHECK(e.code == model::ErrorCode::BadEnum);
  REQUIRE(model::set_param_text(s, *model::find_param("wm_low"), "0.95", e));
  const model::Errors cross = model::validate(s);
  REQUIRE(cross.size() == 1);
  CHECK(cross[0].field == "wm_low");
}

TEST_CASE("fleet: zero-capacity pool and DRAM tiers are off, not errors, and cost what they should") {
  sim::FleetConfig c = config(light({{"swa_pool", "0"}, {"dram_prefix", "0"}}));
  CHECK(c.pool_sessions == 0);
  CHECK(c.dram_bytes == 0);
  const sim::FleetResult r = sim::run_fleet(c);
  CHECK(r.total.pool_hits == 0);
  CHECK(r.total.hit_dram_tokens == 0);
  CHECK(r.total.hit_ssd_tokens > 0);          // the SSD still serves returning sessions
  CHECK(r.total.replays == r.total.resumed);  // every window is replayed
}

TEST_CASE("fleet: the registry keys reach the run through URL, JSON and the CLI alike") {
  const model::Scenario s = scenario({{"arrivals", "3.5"}, {"nodes", "2"}, {"router", "least"}, {"ssd_write", "evict"}, {"seed", "9"}});
  const sim::FleetConfig c = config(s);
  CHECK(c.arrivals == 3.5);
  CHECK(c.nodes == 2);
  CHECK(c.router == model::Router::Least);
  CHECK(c.ssd_write == model::SsdWrite::Evict);
  CHECK(c.seed == 9);
  CHECK(c.scenario.find("arrivals=3.5") != std::string::npos);
}

TEST_CASE("fleet: a simulated day of the default scenario conserves sessions and bytes", "[.long]") {
  const sim::FleetResult r = sim::run_fleet(config(scenario({{"hours", "24"}})));
  check_conservation(r);
  CHECK(r.hours.size() == 24);
}

// A hybrid model (Qwen3.5: Gated DeltaNet layers beside 15 attention layers) keeps a recurrent state per
// session whatever its length: each turn reserves it in HBM beside its tokens' KV, and a history long enough to
// span a checkpoint interval keeps the state's checkpoint with it in DRAM and on SSD.
TEST_CASE("fleet: a hybrid model's turn reserves its recurrent state beside its tokens' KV, and a cached history keeps its checkpoint") {
  model::Scenario s;
  REQUIRE(model::make_preset("qwen35-397b-8xh200", s));
  for (const auto& [key, value] : std::initializer_list<std::pair<const char*, const char*>>{
           {"arrivals", "0.5"}, {"day_amp", "0"}, {"turns", "4"}, {"think_s", "300"}, {"user_tokens", "2048"}, {"out_tokens", "64"},
           {"len_sigma", "0"}, {"prefixes", "0"}, {"hours", "1"}}) {
    model::Error e;
    model::Adjustments moved;
    INFO(key << "=" << value);
    REQUIRE(model::edit_param(s, *model::find_param(key), value, moved, e));
  }
  model::Computed m;
  model::compute_values(s, m);
  const double state = m.values[model::FigureId::KvRecurrentPerSession];
  REQUIRE(state > 0);
  const sim::FleetConfig c = config(s);
  CHECK(c.state_bytes == Approx(state));
  CHECK(c.ckpt_bytes == Approx(state));
  CHECK(c.ckpt_tokens == m.values[model::FigureId::KvRecurrentCkptInterval]);
  REQUIRE(c.ckpt_tokens < 2048 + 64);  // a turn's history spans an interval
  const sim::FleetResult r = sim::run_fleet(c);
  check_conservation(r);
  // The same run with neither counted: HBM never fills, so the turns are the same and each reserved the state.
  sim::FleetConfig bare = c;
  bare.state_bytes = 0;
  bare.ckpt_bytes = 0;
  const sim::FleetResult r0 = sim::run_fleet(bare);
  REQUIRE(r0.total.turns == r.total.turns);
  REQUIRE(r.total.turns > 100);
  CHECK(r.hbm.in - r0.hbm.in == Approx(static_cast<double>(r.total.turns) * state));
  CHECK(r.dram.in > r0.dram.in);
}

TEST_CASE("fleet: an SSD hit is timed by the figures' reload rule — another store moves each turn's TTFT by exactly its hops") {
  // Sessions far apart (nothing queues), no DRAM tier and no SWA pool: every hit comes from SSD, its bytes
  // are its tokens' KV, and a turn's TTFT is its two hops and its prefill.
  auto run = [](const char* store, Recorder& rec) {
    const sim::FleetConfig c = config(light({{"arrivals", "0.002"}, {"swa_pool", "0"}, {"dram_prefix", "0"}, {"kv_store", store}}));
    REQUIRE_FALSE(c.window_with_prefix);
    sim::run_fleet(c, rec.observer());
    return c;
  };
  Recorder lm, kv;
  const sim::FleetConfig a = run("lmcache", lm), b = run("kvbm", kv);
  auto hops = [](const sim::FleetConfig& c, double tokens) {
    const double bytes = tokens * c.kv_per_token;
    return model::reload_hops(c.terms.reload, tokens, bytes * c.ssd_share, bytes * c.kv_share, 0).ssd +
           model::reload_hops(c.terms.reload, tokens, bytes, bytes * c.kv_share, 0).up;
  };
  std::map<std::pair<std::uint32_t, int>, const sim::TurnRecord*> other;
  for (const sim::TurnRecord& t : kv.turns) other[{t.session, t.turn}] = &t;
  int checked = 0;
  for (const sim::TurnRecord& t : lm.turns) {
    const auto it = other.find({t.session, t.turn});
    if (!(t.hit_ssd_tokens > 0) || it == other.end() || it->second->hit_ssd_tokens != t.hit_ssd_tokens) continue;
    const sim::TurnRecord& u = *it->second;
    const double da = hops(a, t.hit_ssd_tokens), db = hops(b, u.hit_ssd_tokens);
    REQUIRE(da != Approx(db));  // LMCache's chunk files and rank copies cost what KVBM's blocks do not
    INFO("session " << t.session << " turn " << t.turn << ": " << t.hit_ssd_tokens << " tokens from SSD");
    CHECK((t.first_token - t.arrival) - da == Approx((u.first_token - u.arrival) - db).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked >= 5);
}
