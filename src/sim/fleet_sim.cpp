// The fleet simulator's event loop and public surface: session arrivals (a Poisson process with a daily
// cycle, or a trace's requests), occupancy samples, the loop that takes the next event, and FleetSim.
#include <algorithm>
#include <cmath>
#include <memory>

#include "sim/detmath.h"
#include "sim/fleet_state.h"

namespace tierscope::sim {

// The simulator's internal parts (fleet_state.h) by their own names.
using namespace detail;

// ---------------------------------------------------------------------------------------------
// [SECTION] arrivals, samples, the loop

double FleetState::rate_at(double t) const {
  return cfg.arrivals * (1 + cfg.day_amp * cos_turns((t / 3600.0 - cfg.day_peak_h) / 24.0));
}

void FleetState::schedule_arrival(double from) {
  double t = from;
  for (;;) {
    t += arrival_rng.exponential(1.0 / rate_max);
    if (t > cfg.horizon_s) return;  // nothing more arrives within the run
    if (cfg.day_amp <= 0 || arrival_rng.uniform() * rate_max <= rate_at(t)) break;
  }
  events.push(t, kSessionArrival, 0);
}

std::int32_t FleetState::arrive(std::int64_t request) {
  count_area();
  ++in_system;
  ++arrived;
  ++hour().arrivals;
  const std::int32_t sid = new_session();
  Session& s = S(sid);
  s.serial = session_count;
  s.rng = Rng::of(cfg.seed, 16 + session_count++);
  s.arrived = now;
  s.flags = kLive;
  s.request = static_cast<std::int32_t>(request);
  if (cfg.mode == Mode::Synthetic) {
    s.turns = static_cast<std::uint16_t>(s.rng.geometric(cfg.turns_mean, cfg.turns_max));
    if (cfg.prefixes > 0) {
      s.prefix = static_cast<std::int32_t>(popularity.sample(s.rng));
      s.history = prefix_len[static_cast<std::size_t>(s.prefix)];
    }
  } else {
    const Trace& tr = *cfg.trace;
    s.turns = 1;
    s.user = tr.input[static_cast<std::size_t>(request)];
    s.out = tr.output[static_cast<std::size_t>(request)];
  }
  s.node = static_cast<std::uint8_t>(route(s));
  ++nodes[s.node].in_system;
  return sid;
}

void FleetState::sample() {
  Sample x;
  x.t = now;
  for (Node& n : nodes) {
    expire(n);
    x.hbm_bytes += n.hbm_used;
    x.pool_sessions += n.pool_count;
    x.dram_bytes += n.dram.bytes;
    x.ssd_bytes += n.ssd.bytes;
    x.queued += static_cast<std::uint32_t>(n.queue.size);
    x.decoding += n.decoding;
  }
  x.in_system = static_cast<std::uint32_t>(in_system);
  samples.push_back(x);
}

bool FleetState::step() {
  if (finished) return false;
  const double t_heap = events.empty() ? HUGE_VAL : events.top().t;
  const double t = std::min(t_heap, decode_t);
  if (t > cfg.horizon_s) {
    now = cfg.horizon_s;
    count_area();
    finished = true;
    return false;
  }
  now = t;
  ++handled;
  if (decode_t <= t_heap) {
    decode_done(nodes[decode_node]);
    return true;
  }
  const Event e = events.top();
  events.pop();
  switch (static_cast<Kind>(e.tag & 7)) {
    case kSessionArrival: {
      const std::int32_t sid = arrive(-1);
      turn_arrive(sid);
      schedule_arrival(now);
      break;
    }
    case kTraceArrival: {
      const std::int32_t sid = arrive(e.a);
      turn_arrive(sid);
      const std::size_t next = static_cast<std::size_t>(e.a) + 1;
      if (next < cfg.trace->size()) events.push(cfg.trace->arrival_s[next], kTraceArrival, static_cast<std::uint32_t>(next));
      break;
    }
    case kTurnArrival:
      --thinking;
      turn_arrive(static_cast<std::int32_t>(e.a));
      break;
    case kFirstToken: first_token(static_cast<std::int32_t>(e.a)); break;
    case kSample:
      sample();
      events.push(now + cfg.sample_s, kSample, 0);
      break;
  }
  return true;
}

void FleetState::start(const FleetConfig& c, TurnObserver o) {
  cfg = c;
  obs = o;
  const std::size_t hour_count = static_cast<std::size_t>(std::max(1.0, std::ceil(cfg.horizon_s / 3600.0 - 1e-9)));
  hours.assign(hour_count, HourStats{});
  samples.clear();
  samples.reserve(static_cast<std::size_t>(cfg.horizon_s / cfg.sample_s) + 2);
  nodes.assign(static_cast<std::size_t>(cfg.nodes), Node{});
  for (Node& n : nodes) {
    n.prefill_free.assign(static_cast<std::size_t>(std::max(1, cfg.instances)), 0.0);
    n.up_free.assign(n.prefill_free.size(), 0.0);
    if (cfg.mode == Mode::Trace) n.block_entry.assign(cfg.trace->distinct, kNone);
    else n.prefix_entry.assign(static_cast<std::size_t>(cfg.prefixes), kNone);
  }
  if (cfg.mode == Mode::Synthetic && cfg.prefixes > 0) {
    Rng r = Rng::of(cfg.seed, 1);
    prefix_len.resize(static_cast<std::size_t>(cfg.prefixes));
    std::vector<double> w(prefix_len.size());
    for (std::size_t i = 0; i < prefix_len.size(); ++i) {
      const double len = std::max(1.0, round_tokens(r.lognormal(cfg.prefix_mean, cfg.len_sigma)));
      prefix_len[i] = std::min(len, std::floor(cfg.ctx_max / 2));
      w[i] = cfg.zipf > 0 ? det_exp(-cfg.zipf * det_log(static_cast<double>(i + 1))) : 1.0;
    }
    popularity.build(w);
  }
  arrival_rng = Rng::of(cfg.seed, 0);
  rate_max = cfg.arrivals * (1 + cfg.day_amp);
  events.push(0.0, kSample, 0);
  if (cfg.mode == Mode::Trace) {
    if (cfg.trace->size() > 0) events.push(cfg.trace->arrival_s[0], kTraceArrival, 0);
  } else {
    schedule_arrival(0.0);
  }
}


// ---------------------------------------------------------------------------------------------
// [SECTION] public surface

// detmath.h's log and exp: histogram bins match between native and WebAssembly runs.
constexpr double kLn10 = 2.302585092994045684;

namespace {
// The bins' lower edges, computed once; a value's bin is found by binary search (no logarithm per value).
const std::vector<double>& ttft_edges() {
  static const std::vector<double> edges = [] {
    std::vector<double> g(kTtftBins + 1);
    for (int b = 0; b <= kTtftBins; ++b) g[static_cast<std::size_t>(b)] = 1e-5 * det_exp(kLn10 * b / 50.0);
    return g;
  }();
  return edges;
}
}  // namespace

void Histogram::add(double seconds) {
  const std::vector<double>& g = ttft_edges();
  std::size_t lo = 0, hi = kTtftBins;  // g[lo] ≤ seconds < g[hi], clamped to the first and last bins
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (g[mid] <= seconds ? lo : hi) = mid;
  }
  ++bins[lo];
  ++n;
}

void Histogram::merge(const Histogram& o) {
  for (int i = 0; i < kTtftBins; ++i) bins[i] += o.bins[i];
  n += o.n;
}
double Histogram::quantile(double q) const {
  if (n == 0) return 0;
  const double want = q * static_cast<double>(n);
  double seen = 0;
  for (int i = 0; i < kTtftBins; ++i) {
    seen += bins[i];
    if (seen >= want && bins[i] > 0) return 1e-5 * det_exp(kLn10 * (i + 0.5) / 50.0);
  }
  return 1e-5 * det_exp(kLn10 * (kTtftBins - 0.5) / 50.0);
}

FleetSim::FleetSim() = default;
FleetSim::~FleetSim() = default;
FleetSim::FleetSim(FleetSim&&) noexcept = default;
FleetSim& FleetSim::operator=(FleetSim&&) noexcept = default;

void FleetSim::start(const FleetConfig& config, TurnObserver observer) {
  st_ = std::make_unique<FleetState>();
  st_->start(config, observer);
}

std::uint64_t FleetSim::run_events(std::uint64_t max_events) {
  if (!st_) return 0;
  std::uint64_t k = 0;
  while (k < max_events && st_->step()) ++k;
  return k;
}

std::uint64_t FleetSim::run_until(double t) {
  if (!st_) return 0;
  std::uint64_t k = 0;
  while (!st_->finished && st_->next_time() <= t && st_->step()) ++k;
  if (!st_->finished && t >= st_->cfg.horizon_s) st_->step();  // closes the run
  return k;
}

std::size_t FleetSim::memory_bytes() const {
  if (!st_) return 0;
  const FleetState& s = *st_;
  std::size_t b = sizeof(FleetState) + s.entries.bytes() + s.sessions.bytes() + s.events.bytes();
  b += s.hours.capacity() * sizeof(HourStats) + s.samples.capacity() * sizeof(Sample) + s.prefix_len.capacity() * sizeof(double);
  b += s.chain.capacity() * sizeof(std::int32_t) + s.chain_tokens.capacity() * sizeof(double);
  b += s.popularity.prob.capacity() * sizeof(double) + s.popularity.alias.capacity() * sizeof(std::uint32_t);
  for (const Node& n : s.nodes) {
    b += sizeof(Node) + n.queue.buf.capacity() * sizeof(std::int32_t) + n.dheap.capacity() * sizeof(DecodeItem);
    b += (n.prefix_entry.capacity() + n.block_entry.capacity()) * sizeof(std::int32_t) + 2 * n.prefill_free.capacity() * sizeof(double);
  }
  return b;
}

bool FleetSim::done() const { return !st_ || st_->finished; }
double FleetSim::now() const { return st_ ? st_->now : 0.0; }

FleetResult FleetSim::result() const {
  FleetResult r;
  if (!st_) return r;
  const FleetState& s = *st_;
  const FleetConfig& c = s.cfg;
  r.mode = c.mode;
  r.scenario = c.scenario;
  r.horizon_s = c.horizon_s;
  r.t = s.now;
  r.seed = c.seed;
  r.nodes = c.nodes;
  r.instances = c.instances;
  r.hbm_bytes = c.hbm_bytes;
  r.pool_sessions = c.pool_sessions;
  r.dram_bytes = c.dram_bytes;
  r.ssd_bytes = c.ssd_bytes;
  r.retention_s = c.retention_s;
  r.pool_on = c.pool_on;
  r.swa_bytes = c.swa_bytes;
  r.arrivals = c.mode == Mode::Synthetic ? c.arrivals : 0.0;
  r.arrivals_limit = c.arrivals_limit;
  r.sessions_arrived = s.arrived;
  r.sessions_refused = s.refused;
  r.sessions_finished = s.completed;
  r.sessions_ctx_full = s.ctx_full;
  r.sessions_in_flight = s.in_system;
  r.turns_thinking = s.thinking;
  r.events = s.handled;
  r.hbm = s.hbm;
  r.pool = s.pool;
  r.dram = s.dram;
  r.ssd = s.ssd;
  r.hbm.resident = r.pool.resident = r.dram.resident = r.ssd.resident = 0;
  for (const Node& n : s.nodes) {
    r.hbm.resident += n.hbm_used;
    r.pool.resident += n.pool_count * c.swa_bytes;
    r.dram.resident += n.dram.bytes;
    r.ssd.resident += n.ssd.bytes;
    r.turns_queued += n.queue.size;
    r.turns_in_service += n.in_service;
  }
  const double elapsed = s.now;
  const double area = s.area + static_cast<double>(s.in_system) * (s.now - s.area_t);
  r.sessions_mean = elapsed > 0 ? area / elapsed : 0.0;
  r.arrival_rate = elapsed > 0 ? static_cast<double>(s.arrived) / elapsed : 0.0;
  r.sojourn_mean_s = s.departed > 0 ? s.sojourn_sum / static_cast<double>(s.departed) : 0.0;
  r.hours = s.hours;
  for (const HourStats& h : s.hours) {
    HourStats& t = r.total;
    t.arrivals += h.arrivals;
    t.refused += h.refused;
    t.turns += h.turns;
    t.finished += h.finished;
    t.resumed += h.resumed;
    t.history_hits += h.history_hits;
    t.pool_hits += h.pool_hits;
    t.replays += h.replays;
    t.input_tokens += h.input_tokens;
    t.hit_dram_tokens += h.hit_dram_tokens;
    t.hit_hbm_tokens += h.hit_hbm_tokens;
    t.hit_ssd_tokens += h.hit_ssd_tokens;
    t.bytes_ssd_read += h.bytes_ssd_read;
    t.bytes_ssd_write += h.bytes_ssd_write;
    t.bytes_up += h.bytes_up;
    t.bytes_down += h.bytes_down;
    t.bytes_expired += h.bytes_expired;
    t.queue_wait_s += h.queue_wait_s;
    t.ttft_sum_s += h.ttft_sum_s;
    t.ttft.merge(h.ttft);
  }
  r.samples = s.samples;
  const double days = elapsed / 86400.0;
  r.ssd_write_bytes_per_day = days > 0 ? r.total.bytes_ssd_write / c.nodes / days : 0.0;
  r.ssd_dwpd = c.ssd_capacity_bytes > 0 ? r.ssd_write_bytes_per_day / c.ssd_capacity_bytes : 0.0;
  r.ssd_rated_dwpd = c.ssd_rated_dwpd;
  if (c.mode == Mode::Trace && c.trace) {
    const TraceBound b = trace_prefix_bound(*c.trace, c.block_tokens);
    r.has_bound = true;
    r.bound_hit_tokens = b.hit_tokens;
    r.bound_input_tokens = b.input_tokens;
  }
  return r;
}

FleetResult run_fleet(const FleetConfig& config, TurnObserver observer) {
  FleetSim sim;
  sim.start(config, observer);
  while (sim.run_events(1u << 20) > 0) {
  }
  return sim.result();
}

}  // namespace tierscope::sim

