// The fleet simulator: a deterministic discrete-event simulation of serving nodes over hours of traffic.
// HBM holds the KV of the turns being served; returning sessions find their sliding window in the SWA
// recent-session pool and their history in the host-DRAM and SSD prefix tiers (LRU with watermarks, SSD
// entries expiring at the retention time); every time a turn takes comes from the scenario model's
// timings, tabulated once. Pure C++: no clock, no I/O; it runs to the end or in slices.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"
#include "roofline/figures.h"
#include "sim/table.h"
#include "sim/trace.h"

namespace tierscope::sim {

constexpr int kMaxTurns = 64;              // turns of one session (the geometric draw is cut here)
constexpr int kTtftBins = 500;             // TTFT histogram: 50 bins a decade from 10 µs to 10^5 s
constexpr double kSampleSeconds = 300;     // occupancy is sampled every five simulated minutes

enum class Mode : std::uint8_t { Synthetic, Trace };

// Everything one run needs as plain numbers. make_fleet_config() derives it from a scenario; tests may
// change any field (a capacity of infinity means unbounded).
struct FleetConfig {
  Mode mode = Mode::Synthetic;
  const Trace* trace = nullptr;  // Trace mode: the requests (the caller keeps it alive for the run)
  double horizon_s = 86400;
  std::uint64_t seed = 1;
  int nodes = 1;
  model::Router router = model::Router::Prefix;

  // Synthetic traffic.
  double arrivals = 2;                  // sessions per second at the fleet (mean over a day)
  double day_amp = 0, day_peak_h = 14;  // daily cycle
  double turns_mean = 4;
  int turns_max = kMaxTurns;
  model::ThinkDist think_dist = model::ThinkDist::Exp;
  double think_mean_s = 60, think_sigma = 1;
  double user_mean = 1024, out_mean = 512, len_sigma = 0;
  int prefixes = 0;
  double prefix_mean = 0, zipf = 1;
  double ctx_max = 131072;              // a session ends when its context would pass this
  double arrivals_limit = 0;            // the most sessions/s the nodes could ever serve (0: not computed)
  int block_tokens = 512;
  // The engine's HBM prefix cache in front of the DRAM and SSD tiers (sim/prefix_cache.h): what turns leave
  // in HBM is found there by the next, a shared prefix held once however many turns use it.
  bool hbm_prefix = true;

  // Sizes (bytes).
  double kv_per_token = 0;       // kv.global_per_token
  double swa_bytes = 0;          // kv.swa_per_session
  // A hybrid or chunked model's state of a session's own, whatever its length (kv.recurrent_per_session +
  // kv.chunk_per_session): a turn reserves it beside its tokens' KV.
  double state_bytes = 0;
  // A cached history of a hybrid model keeps the recurrent state's checkpoint at its end (one copy,
  // kv.recurrent_per_session) once it spans a checkpoint interval (kv.recurrent_checkpoint_interval tokens).
  double ckpt_bytes = 0, ckpt_tokens = 0;
  bool pool_on = false;          // bounded replay: idle windows wait in the SWA pool, a miss replays
  bool window_with_prefix = false;  // a window without bounded replay travels with the prefix instead

  // Capacities per node. The pool counts sessions; the others bytes.
  double hbm_bytes = 0, pool_sessions = 0, dram_bytes = 0, ssd_bytes = 0;
  double wm_high = 0.9, wm_low = 0.8;
  double retention_s = 72 * 3600.0;
  model::SsdWrite ssd_write = model::SsdWrite::Through;
  int queue_max = 100000;

  // Service. A node runs `instances` model instances: as many prefill servers and host links, and the
  // decode batch split evenly over them.
  int instances = 1;
  double ssd_share = 1;          // share of a transfer one node's drives carry (1 / nodes an instance spans)
  model::Terms terms;            // the model's rates, for timing.h's transfer rules
  double kv_share = 1;           // share of a session's KV one GPU holds (host transfers are per GPU)
  Table2 prefill;                // seconds to prefill `new` tokens after `cached` ones: (new, cached)
  Table2 replay;                 // extra seconds when the window is replayed (bounded replay): (new, cached)
  Table2 decode_step;            // decode step seconds: (batch per instance, mean context)
  double tokens_per_step = 1;    // decode.tokens_per_step

  // Reporting.
  double ssd_capacity_bytes = 0;  // per node, for drive writes per day
  double ssd_rated_dwpd = 1;
  double sample_s = kSampleSeconds;
  std::string scenario;           // the scenario's share-link hash, echoed in the results
};

// Builds the run from a scenario (and a parsed trace for Mode::Trace). Refuses, with errors naming the
// field and the numbers, setups that cannot run and workloads no node could ever serve.
bool make_fleet_config(const model::Scenario& s, const Trace* trace, FleetConfig& out, model::Errors& errors);
// The most sessions per second the scenario's nodes could ever serve on average, whatever its `arrivals`
// (the bound make_fleet_config refuses beyond); 0 when the setup cannot run at all.
double fleet_arrivals_limit(const model::Scenario& s);

// TTFT histogram: fixed logarithmic bins (no allocation per sample). Bin b holds [10 µs · 10^(b/50),
// 10 µs · 10^((b+1)/50)); the first and last also hold everything below and above.
struct Histogram {
  std::uint32_t bins[kTtftBins] = {};
  std::uint64_t n = 0;
  void add(double seconds);
  void merge(const Histogram& o);
  // The q-quantile (0 < q < 1), at the geometric middle of its bin (within 2.3 % of the value); 0 if empty.
  double quantile(double q) const;
};

// What happened in one simulated hour (or, summed, in the whole run). Turns count when admitted to HBM;
// a turn's hits, TTFT and promotion bytes belong to that hour.
struct HourStats {
  std::uint64_t arrivals = 0;       // sessions (trace: requests) arriving
  std::uint64_t refused = 0;        // sessions turned away: the node's queue was full
  std::uint64_t turns = 0;          // turns admitted
  std::uint64_t finished = 0;       // turns whose last token came out
  std::uint64_t resumed = 0;        // admitted turns of returning sessions
  std::uint64_t history_hits = 0;   // … that found their whole history in DRAM or SSD
  std::uint64_t pool_hits = 0;      // … that found their window in the SWA pool
  std::uint64_t replays = 0;        // turns that replayed the window (bounded replay)
  double input_tokens = 0;          // prompt tokens of admitted turns (history + shared prefix + new)
  double hit_dram_tokens = 0, hit_ssd_tokens = 0;  // of which found in the prefix tiers
  double hit_hbm_tokens = 0;        // … and found still in HBM (nothing to load)
  double bytes_ssd_read = 0, bytes_ssd_write = 0;  // SSD ↔ DRAM
  double bytes_up = 0, bytes_down = 0;             // DRAM → HBM, HBM → DRAM (host links)
  double bytes_expired = 0;         // SSD bytes dropped at the retention time
  double queue_wait_s = 0;          // Σ time turns waited for HBM
  double ttft_sum_s = 0;
  Histogram ttft;
};

// Occupancy at one moment, summed over nodes.
struct Sample {
  double t = 0;
  double hbm_bytes = 0, pool_sessions = 0, dram_bytes = 0, ssd_bytes = 0;
  std::uint32_t in_system = 0, queued = 0, decoding = 0;
};

// Bytes into and out of one tier over the run, and what it holds at the end: in = out + resident.
struct TierFlow {
  double in = 0, out = 0, resident = 0;
};

// One admitted turn, for tests and tools that watch a run (TurnObserver).
struct TurnRecord {
  std::uint32_t session = 0;
  int turn = 0, node = 0, prefix = -1;
  std::int64_t request = -1;        // trace mode: the request's index
  double arrival = 0, admitted = 0, first_token = 0;
  double input_tokens = 0, history_tokens = 0, prefix_tokens = 0;
  double hit_dram_tokens = 0, hit_ssd_tokens = 0, hit_hbm_tokens = 0;
  bool resumed = false, pool_hit = false, replayed = false;
};
struct TurnObserver {
  void (*fn)(void* user, const TurnRecord& turn) = nullptr;
  void* user = nullptr;
};

struct FleetResult {
  Mode mode = Mode::Synthetic;
  std::string scenario;
  double horizon_s = 0, t = 0;       // the run's length and how far it has got
  std::uint64_t seed = 0;
  int nodes = 1, instances = 1;
  double hbm_bytes = 0, pool_sessions = 0, dram_bytes = 0, ssd_bytes = 0, retention_s = 0;  // per node
  bool pool_on = false;
  double swa_bytes = 0;              // one window in the SWA pool (kv.swa_per_session)
  double arrivals = 0, arrivals_limit = 0;  // sessions/s offered (mean) and the most the nodes could serve

  std::uint64_t sessions_arrived = 0, sessions_finished = 0, sessions_refused = 0, sessions_in_flight = 0;
  std::uint64_t sessions_ctx_full = 0;  // of the finished: ended early because the context was full
  std::uint64_t turns_queued = 0, turns_in_service = 0, turns_thinking = 0;  // at t
  std::uint64_t events = 0;

  TierFlow hbm, pool, dram, ssd;    // pool in bytes of windows

  // Little's law: time-average sessions in the system, arrivals per second, mean time in the system of
  // the sessions that left.
  double sessions_mean = 0, arrival_rate = 0, sojourn_mean_s = 0;

  std::vector<HourStats> hours;
  HourStats total;
  std::vector<Sample> samples;

  double ssd_write_bytes_per_day = 0;  // per node
  double ssd_dwpd = 0, ssd_rated_dwpd = 0;

  bool has_bound = false;            // trace mode: the trace's own best prefix hit
  double bound_hit_tokens = 0, bound_input_tokens = 0;
};

struct FleetState;

// A run that can advance in slices: start, then run_events / run_until until done(); result() at any time.
class FleetSim {
 public:
  FleetSim();
  ~FleetSim();
  FleetSim(FleetSim&&) noexcept;
  FleetSim& operator=(FleetSim&&) noexcept;

  void start(const FleetConfig& config, TurnObserver observer = {});
  // Handles up to `max_events` events (a few hundred nanoseconds each); returns how many were handled.
  std::uint64_t run_events(std::uint64_t max_events);
  // Handles every event up to simulated time `t` (seconds).
  std::uint64_t run_until(double t);
  bool done() const;
  double now() const;
  FleetResult result() const;
  // Bytes the run holds in its pools, heaps and queues (capacity, not use): it grows with the state a run
  // keeps (sessions, persisted histories), never with the number of events handled.
  std::size_t memory_bytes() const;

 private:
  std::unique_ptr<FleetState> st_;
};

// start + run to the end.
FleetResult run_fleet(const FleetConfig& config, TurnObserver observer = {});

}  // namespace tierscope::sim
