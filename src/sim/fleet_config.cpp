// From a scenario to a fleet run: capacities from the model's figures, the model's prefill and decode
// timings tabulated once, and the checks that refuse a run no node could ever serve.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "base/text.h"
#include "model/kv_store.h"
#include "codec/url_codec.h"
#include "sim/fleet.h"

namespace tierscope::sim {

using model::ErrorCode;
using model::FigureId;
using model::make_error;

namespace {

// How far the offered decode may exceed the most the node serves before a run is refused up front.
constexpr double kDecodeOverloadRefused = 2.0;


constexpr double kMaxTurnsPerRun = 2e8;         // beyond this a run takes minutes: refused with its numbers
constexpr double kMaxMapEntries = 16777216;     // per-node maps (prefixes or trace blocks) × nodes
constexpr double kMaxBatchGrid = 1048576;

// Mean of a geometric count with the given mean, cut at `cap`: Σ_{k<cap} q^k with q = 1 − 1/mean.
double truncated_geometric_mean(double mean, int cap) {
  if (mean <= 1) return 1;
  const double q = 1 - 1 / mean;
  return (1 - std::pow(q, cap)) / (1 - q);
}

// The model's values rounded to 33 significant bits (a relative step of 1e-10, far below anything a time
// means here). C libraries differ in the last bits of pow and exp, so the same scenario can tabulate a few
// ulps apart natively and as WebAssembly; rounded, the tables (and so every run) almost surely agree bit
// for bit. frexp, ldexp and floor are exact, so the rounding itself is the same everywhere.
double settle(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  const double m = std::frexp(x, &e);
  return std::ldexp(std::floor(m * 0x1p33 + 0.5) * 0x1p-33, e);
}

// Prefill seconds of `fresh` tokens after `cached` cached ones, and the extra when the sliding window
// must be replayed, read from the model at every grid point (prompt = fresh + cached, prefix_hit = cached).
void tabulate_prefill(const model::Scenario& s, double max_tokens, FleetConfig& c) {
  c.prefill.resize(geometric_grid(1, max_tokens, 2, false), geometric_grid(16, max_tokens, 2, true));
  c.replay.resize(c.prefill.xs, c.prefill.ys);
  model::Scenario p = s;
  model::Computed out;
  for (std::size_t i = 0; i < c.prefill.xs.size(); ++i) {
    for (std::size_t j = 0; j < c.prefill.ys.size(); ++j) {
      const double fresh = c.prefill.xs[i], cached = c.prefill.ys[j];
      p.work.prompt = static_cast<std::int32_t>(std::min(2.0e9, fresh + cached));
      p.work.prefix_hit = static_cast<std::int32_t>(std::min<double>(cached, p.work.prompt));
      model::compute_values(p, out);
      c.prefill.at_index(i, j) = settle(out.values[FigureId::PrefixRestTime]);
      c.replay.at_index(i, j) = settle(out.values[FigureId::PrefixReplayTime]);
    }
  }
}

// Decode step seconds at (sessions per instance, context), from the model's decode step.
void tabulate_decode(const model::Scenario& s, double max_batch, double max_ctx, FleetConfig& c) {
  c.decode_step.resize(geometric_grid(1, max_batch, std::sqrt(2.0), false), geometric_grid(64, max_ctx, 2, false));
  model::Scenario p = s;
  model::Computed out;
  for (std::size_t i = 0; i < c.decode_step.xs.size(); ++i) {
    for (std::size_t j = 0; j < c.decode_step.ys.size(); ++j) {
      p.work.batch = static_cast<std::int32_t>(std::ceil(c.decode_step.xs[i]));
      p.work.ctx = static_cast<std::int32_t>(std::ceil(c.decode_step.ys[j]));
      model::compute_values(p, out);
      c.decode_step.at_index(i, j) = settle(out.values[FigureId::DecodeStepTime]);
    }
  }
}

std::string tokens_text(double v) { return model::num(v) + " tokens"; }

}  // namespace

namespace {

// The scenario's fleet and workload keys, as the run reads them.
void copy_workload(const model::Scenario& s, const Trace* trace, FleetConfig& c) {
  const model::Fleet& f = s.fleet;
  c.mode = trace ? Mode::Trace : Mode::Synthetic;
  c.trace = trace;
  c.horizon_s = f.hours * 3600.0;
  c.seed = static_cast<std::uint64_t>(f.seed);
  c.nodes = f.nodes;
  c.router = f.router;
  c.arrivals = f.arrivals;
  c.day_amp = f.day_amp;
  c.day_peak_h = f.day_peak_h;
  c.turns_mean = f.turns;
  c.think_dist = f.think_dist;
  c.think_mean_s = f.think_s;
  c.think_sigma = f.think_sigma;
  c.user_mean = f.user_tokens;
  c.out_mean = f.out_tokens;
  c.len_sigma = f.len_sigma;
  c.prefixes = f.prefixes;
  c.prefix_mean = f.prefix_tokens;
  c.zipf = f.zipf;
  c.ctx_max = s.work.ctx;
  c.block_tokens = f.block_tokens;
  c.wm_high = f.wm_high;
  c.wm_low = f.wm_low;
  c.ssd_write = f.ssd_write;
  c.queue_max = f.queue_max;
  c.scenario = model::scenario_to_hash(s);
}

// A fleet node's capacities from the model at one session of `ctx` tokens (the workload's batch and
// prompt are the single-request view's and play no part here). False, with errors, when not one session fits.
bool node_capacities(const model::Scenario& s, FleetConfig& c, model::Errors& errors) {
  const model::Fleet& f = s.fleet;
  model::Scenario base = s;
  base.work.batch = 1;
  base.work.prompt = 1;
  base.work.prefix_hit = 0;
  model::Computed m;
  model::compute_values(base, m);
  const model::Terms& t = m.terms;
  const model::Values& v = m.values;
  if (!t.feasible()) {
    errors = model::infeasible_errors(t);
    return false;
  }
  double span = 1, sessions = v[FigureId::HbmSessionsPerNode];
  c.instances = 1;
  if (t.gpus <= t.node_gpus) {
    c.instances = std::max(1, static_cast<int>(std::floor(t.node_gpus / t.gpus)));
  } else {
    span = t.gpus / t.node_gpus;  // one instance spans several nodes: a fleet node is that instance
    sessions = v[FigureId::HbmSessions];
  }
  c.kv_per_token = settle(v[FigureId::KvGlobalPerToken]);
  c.hbm_prefix = model::page_policy(s.engine.kind).reuse_default;
  c.swa_bytes = settle(v[FigureId::KvSwaPerSession]);
  c.state_bytes = settle(v[FigureId::KvRecurrentPerSession] + v[FigureId::KvChunkPerSession]);
  c.ckpt_bytes = settle(v[FigureId::KvRecurrentPerSession]);
  c.ckpt_tokens = v[FigureId::KvRecurrentCkptInterval];
  c.pool_on = model::replays_window(s.model);
  c.window_with_prefix = model::has_swa(s.model) && !model::replays_window(s.model);
  c.hbm_bytes = settle(sessions * v[FigureId::KvPerSession]);
  c.pool_sessions = c.pool_on ? v[FigureId::SwaPoolSessions] * span : 0.0;
  c.dram_bytes = f.dram_prefix * std::max(0.0, s.hw.host_dram_gb * 1e9 - v[FigureId::SwaPoolBytes]) * span;
  c.ssd_bytes = v[FigureId::SsdCapacity] * span;
  c.retention_s = s.hw.retention_h * 3600.0;
  c.ssd_share = 1 / span;
  c.terms = t;
  c.kv_share = t.kv_share;
  c.tokens_per_step = settle(v[FigureId::DecodeTokensPerStep]);
  c.ssd_capacity_bytes = v[FigureId::SsdCapacity] * span;
  c.ssd_rated_dwpd = s.hw.ssd_dwpd;
  if (sessions < 1) {
    errors.push_back(make_error(ErrorCode::Infeasible, "ctx", tokens_text(s.work.ctx),
                                "a context whose KV fits the node's HBM: not one session of " + model::human(v[FigureId::KvPerSession], "B") +
                                    " fits"));
    return false;
  }
  return true;
}

// A recorded trace: every request must fit the node (else it could never be admitted), and its blocks the
// run's maps. Sets `max_tokens` to the longest request; false, with the first error, naming its line.
bool check_trace(const model::Scenario& s, const Trace& trace, const FleetConfig& c, double& max_tokens, model::Errors& errors) {
  if (trace.size() == 0) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "trace", "no requests", "at least one request"));
    return false;
  }
  max_tokens = 1;
  for (std::size_t r = 0; r < trace.size(); ++r) {
    const double tokens = static_cast<double>(trace.input[r]) + trace.output[r];
    const std::string field = "trace line " + std::to_string(r < trace.line.size() ? trace.line[r] : r + 1);
    if (tokens * c.kv_per_token + c.swa_bytes + c.state_bytes > c.hbm_bytes) {
      errors.push_back(make_error(ErrorCode::Infeasible, field, tokens_text(tokens),
                                  "a request whose KV fits the node's " + model::human(c.hbm_bytes, "B") + " of HBM for KV"));
      return false;
    }
    if (s.model.max_pos > 0 && tokens > s.model.max_pos) {
      errors.push_back(make_error(ErrorCode::Infeasible, field, tokens_text(tokens),
                                  "at most the model's " + tokens_text(s.model.max_pos) + " of trained positions"));
      return false;
    }
    max_tokens = std::max(max_tokens, tokens);
  }
  if (static_cast<double>(trace.distinct) * s.fleet.nodes > kMaxMapEntries) {
    errors.push_back(make_error(ErrorCode::TooLarge, "nodes", std::to_string(s.fleet.nodes) + " nodes × " + std::to_string(trace.distinct) + " blocks",
                                "at most 16777216 block slots over all nodes"));
    return false;
  }
  return true;
}

// Synthetic workloads no node could ever serve: even with every history found in the prefix tiers, the
// prefill of the new tokens, or the decode of the outputs at the largest batch HBM holds, cannot keep up.
// Sets c.arrivals_limit; adds an error for each limit the workload passes.
void check_workload(const model::Scenario& s, FleetConfig& c, model::Errors& errors) {
  const model::Fleet& f = s.fleet;
  const model::Workload& w = s.work;
  const double lam = f.arrivals / f.nodes;
  const double turns = truncated_geometric_mean(f.turns, kMaxTurns);
  const double prefix = f.prefixes > 0 ? std::min<double>(f.prefix_tokens, w.ctx / 2.0) : 0.0;
  const double history = std::min<double>(w.ctx, prefix + (turns - 1) / 2 * (f.user_tokens + f.out_tokens));
  const double prefill_best = c.prefill(f.user_tokens, history);
  const double prefill_load = lam * turns * prefill_best / c.instances;
  const double prefill_limit = f.arrivals / prefill_load;
  if (prefill_load > 1) {
    errors.push_back(make_error(
        ErrorCode::Infeasible, "arrivals", model::num_sig(f.arrivals, 4) + " sessions/s",
        "at most " + model::num_sig(f.arrivals / prefill_load, 3) + " sessions/s for " + std::to_string(f.nodes) +
            (f.nodes == 1 ? " node" : " nodes") + ": with every history cached a turn still prefills " + tokens_text(f.user_tokens) +
            " in " + model::human(prefill_best, "s") + ", and " + model::num_sig(turns, 3) + " turns per session need " +
            model::num_sig(prefill_load, 3) + "× the node's prefill time"));
  }
  const double ctx_mean = std::min<double>(w.ctx, history + f.user_tokens + 0.5 * f.out_tokens);
  const double per_session = ctx_mean * c.kv_per_token + c.swa_bytes + c.state_bytes;
  const double batch_max = std::max(1.0, c.hbm_bytes / per_session / c.instances);
  double best = 0;
  for (double b : c.decode_step.xs) {
    const double bb = std::min(b, batch_max);
    best = std::max(best, c.instances * bb * c.tokens_per_step / c.decode_step(bb, ctx_mean));
    if (b >= batch_max) break;
  }
  const double offered = lam * turns * f.out_tokens;
  c.arrivals_limit = std::min(prefill_limit, f.arrivals * best / offered);
  // Up to twice what decode can serve, the run itself is the better answer: its queue grows and the
  // report says the node is overloaded, by how much (sim::fleet_overload). Beyond that it is refused.
  if (offered > kDecodeOverloadRefused * best) {
    errors.push_back(make_error(
        ErrorCode::Infeasible, "arrivals", model::num_sig(f.arrivals, 4) + " sessions/s",
        "at most " + model::num_sig(f.arrivals * best / offered, 3) + " sessions/s for " + std::to_string(f.nodes) +
            (f.nodes == 1 ? " node" : " nodes") + ": they ask " + model::num_sig(offered, 4) + " output tokens/s per node, and decode at the " +
            model::num(std::floor(batch_max * c.instances)) + " sessions HBM holds gives at most " + model::num_sig(best, 4)));
  }
  const double expected = f.arrivals * c.horizon_s * turns;
  if (expected > kMaxTurnsPerRun) {
    errors.push_back(make_error(ErrorCode::TooLarge, "hours", model::num_sig(f.hours, 4) + " hours (about " + model::num_sig(expected, 3) + " turns)",
                                "at most 200,000,000 turns per run: fewer hours or arrivals"));
  }
}

}  // namespace

bool make_fleet_config(const model::Scenario& s, const Trace* trace, FleetConfig& out, model::Errors& errors) {
  errors.clear();
  FleetConfig c;
  copy_workload(s, trace, c);
  if (!node_capacities(s, c, errors)) return false;
  double max_tokens = s.work.ctx;
  if (trace) {
    if (!check_trace(s, *trace, c, max_tokens, errors)) return false;
  } else if (static_cast<double>(s.fleet.prefixes) * s.fleet.nodes > kMaxMapEntries) {
    errors.push_back(make_error(ErrorCode::TooLarge, "prefixes", std::to_string(s.fleet.prefixes) + " prefixes × " + std::to_string(s.fleet.nodes) + " nodes",
                                "at most 16777216 prefix slots over all nodes"));
    return false;
  }

  tabulate_prefill(s, max_tokens, c);
  const double min_session = c.swa_bytes + c.state_bytes + 64 * c.kv_per_token;
  const double max_batch = std::min(kMaxBatchGrid, std::max(1.0, std::ceil(c.hbm_bytes / min_session / c.instances)));
  tabulate_decode(s, max_batch, max_tokens, c);

  if (!trace) {
    check_workload(s, c, errors);
    if (!errors.empty()) return false;
  }
  out = std::move(c);
  return true;
}

double fleet_arrivals_limit(const model::Scenario& s) {
  model::Scenario probe = s;
  probe.fleet.arrivals = 1e-6;
  probe.fleet.hours = 0.01;
  FleetConfig c;
  model::Errors errors;
  return make_fleet_config(probe, nullptr, c, errors) ? c.arrivals_limit : 0.0;
}

}  // namespace tierscope::sim
