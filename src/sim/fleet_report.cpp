// Fleet results as JSON (the one writer: exact numbers, fixed key order), text and CSV; the capacity sweep.
//
// Sections: hit rates · the capacity sweep · JSON · durations, hours and the overload line · text · CSV.
#include "sim/fleet_report.h"

#include <algorithm>
#include <cmath>

#include "base/json_writer.h"
#include "base/text.h"

namespace tierscope::sim {

HitRates hit_rates(const HourStats& h, bool pool_on) {
  HitRates r;
  if (h.input_tokens > 0) {
    r.hbm = h.hit_hbm_tokens / h.input_tokens;
    r.dram = h.hit_dram_tokens / h.input_tokens;
    r.ssd = h.hit_ssd_tokens / h.input_tokens;
    r.prefix = (h.hit_hbm_tokens + h.hit_dram_tokens + h.hit_ssd_tokens) / h.input_tokens;  // exact in tokens, whatever the split
  }
  if (h.resumed > 0) {
    r.history = static_cast<double>(h.history_hits) / static_cast<double>(h.resumed);
    if (pool_on) r.pool = static_cast<double>(h.pool_hits) / static_cast<double>(h.resumed);
  }
  return r;
}

const char* sweep_tier_name(SweepTier t) {
  switch (t) {
    case SweepTier::Pool: return "pool";
    case SweepTier::Dram: return "dram";
    case SweepTier::Ssd: return "ssd";
    case SweepTier::Count: break;
  }
  return "pool";
}

bool parse_sweep_tier(std::string_view text, SweepTier& out) {
  for (int i = 0; i < static_cast<int>(SweepTier::Count); ++i) {
    if (text == sweep_tier_name(static_cast<SweepTier>(i))) {
      out = static_cast<SweepTier>(i);
      return true;
    }
  }
  return false;
}

std::string sweep_tiers_text() {
  std::string out;
  for (int i = 0; i < static_cast<int>(SweepTier::Count); ++i) out += (i ? ", " : "") + std::string(sweep_tier_name(static_cast<SweepTier>(i)));
  return out;
}

std::vector<double> default_sweep_factors() { return {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8, 16}; }

FleetConfig sweep_config(const FleetConfig& base, SweepTier tier, double factor) {
  FleetConfig c = base;
  double* cap = tier == SweepTier::Pool ? &c.pool_sessions : tier == SweepTier::Dram ? &c.dram_bytes : &c.ssd_bytes;
  *cap = tier == SweepTier::Pool ? std::floor(*cap * factor) : *cap * factor;
  return c;
}

SweepPoint sweep_point(const FleetConfig& c, SweepTier tier, double factor, const FleetResult& r) {
  SweepPoint p;
  p.factor = factor;
  p.capacity = tier == SweepTier::Pool ? c.pool_sessions : tier == SweepTier::Dram ? c.dram_bytes : c.ssd_bytes;
  p.hits = hit_rates(r.total, r.pool_on);
  p.ttft_p95_s = r.total.ttft.quantile(0.95);
  return p;
}

void sweep_find_knee(SweepResult& out) {
  out.knee = -1;
  if (out.points.empty()) return;
  auto curve = [&](const SweepPoint& p) { return out.tier == SweepTier::Pool ? p.hits.pool : p.hits.prefix; };
  const double top = curve(out.points.back());
  for (std::size_t i = 0; i < out.points.size(); ++i) {
    if (curve(out.points[i]) >= top - 0.01) {
      out.knee = static_cast<int>(i);
      break;
    }
  }
}

SweepResult fleet_sweep(const FleetConfig& base, SweepTier tier, std::vector<double> factors) {
  std::sort(factors.begin(), factors.end());
  SweepResult out;
  out.tier = tier;
  for (double f : factors) {
    const FleetConfig c = sweep_config(base, tier, f);
    out.points.push_back(sweep_point(c, tier, f, run_fleet(c)));
  }
  sweep_find_knee(out);
  return out;
}

namespace {

// A rate of hits, or null where no turns stand behind it (−1).
void rate(model::JsonWriter& j, const char* k, double v) {
  j.key(k);
  if (v < 0) j.null();
  else j.num(v);
}

template <class F>
void series(model::JsonWriter& j, const char* k, const std::vector<Sample>& xs, F get) {
  j.array(k);
  for (const Sample& x : xs) j.num(get(x));
  j.end();
}

void hour_fields(model::JsonWriter& j, const HourStats& h, bool pool_on) {
  const HitRates r = hit_rates(h, pool_on);
  j.num("arrivals", static_cast<double>(h.arrivals));
  j.num("refused", static_cast<double>(h.refused));
  j.num("turns", static_cast<double>(h.turns));
  j.num("finished", static_cast<double>(h.finished));
  j.num("resumed", static_cast<double>(h.resumed));
  rate(j, "prefix_hit", r.prefix);
  rate(j, "hbm_hit", r.hbm);
  rate(j, "dram_hit", r.dram);
  rate(j, "ssd_hit", r.ssd);
  rate(j, "pool_hit", r.pool);
  rate(j, "history_hit", r.history);
  j.num("replays", static_cast<double>(h.replays));
  j.num("input_tokens", h.input_tokens);
  rate(j, "ttft_mean_s", h.turns > 0 ? h.ttft_sum_s / static_cast<double>(h.turns) : -1);
  rate(j, "ttft_p50_s", h.ttft.n > 0 ? h.ttft.quantile(0.50) : -1);
  rate(j, "ttft_p95_s", h.ttft.n > 0 ? h.ttft.quantile(0.95) : -1);
  rate(j, "ttft_p99_s", h.ttft.n > 0 ? h.ttft.quantile(0.99) : -1);
  rate(j, "queue_wait_mean_s", h.turns > 0 ? h.queue_wait_s / static_cast<double>(h.turns) : -1);
  j.object("bytes");
  j.num("ssd_read", h.bytes_ssd_read);
  j.num("ssd_write", h.bytes_ssd_write);
  j.num("dram_to_hbm", h.bytes_up);
  j.num("hbm_to_dram", h.bytes_down);
  j.num("ssd_expired", h.bytes_expired);
  j.end();
}

void tier(model::JsonWriter& j, const char* k, const TierFlow& t) {
  j.object(k);
  j.num("in", t.in);
  j.num("out", t.out);
  j.num("resident", t.resident);
  j.end();
}

std::string pct(double r) {
  if (r < 0) return "—";
  return model::num_sig(std::round(r * 1000) / 10, 3) + " %";
}

}  // namespace

std::string fleet_json(const FleetResult& r, const SweepResult* sweep) {
  model::JsonWriter j;
  j.object();
  j.num("version", 1);
  j.str("scenario", r.scenario);
  j.str("mode", r.mode == Mode::Trace ? "trace" : "synthetic");
  j.num("horizon_s", r.horizon_s);
  j.num("t_s", r.t);
  j.num("seed", static_cast<double>(r.seed));
  j.num("nodes", r.nodes);
  j.num("instances_per_node", r.instances);
  j.num("events", static_cast<double>(r.events));
  j.num("arrivals", r.arrivals);
  j.num("arrivals_limit", r.arrivals_limit);
  j.object("capacity_per_node");
  j.num("hbm_kv_bytes", r.hbm_bytes);
  j.num("pool_sessions", r.pool_on ? r.pool_sessions : 0);
  j.num("dram_prefix_bytes", r.dram_bytes);
  j.num("ssd_bytes", r.ssd_bytes);
  j.num("retention_s", r.retention_s);
  j.end();
  j.object("sessions");
  j.num("arrived", static_cast<double>(r.sessions_arrived));
  j.num("finished", static_cast<double>(r.sessions_finished));
  j.num("refused", static_cast<double>(r.sessions_refused));
  j.num("context_full", static_cast<double>(r.sessions_ctx_full));
  j.num("in_flight", static_cast<double>(r.sessions_in_flight));
  j.num("turns_queued", static_cast<double>(r.turns_queued));
  j.num("turns_in_service", static_cast<double>(r.turns_in_service));
  j.num("turns_thinking", static_cast<double>(r.turns_thinking));
  j.end();
  j.object("total");
  hour_fields(j, r.total, r.pool_on);
  j.end();
  j.object("ssd_wear");
  j.num("writes_per_day_bytes", r.ssd_write_bytes_per_day);
  j.num("dwpd", r.ssd_dwpd);
  j.num("rated_dwpd", r.ssd_rated_dwpd);
  j.end();
  j.object("tiers");
  tier(j, "hbm", r.hbm);
  tier(j, "pool", r.pool);
  tier(j, "dram", r.dram);
  tier(j, "ssd", r.ssd);
  j.end();
  j.object("little");
  j.num("sessions_mean", r.sessions_mean);
  j.num("arrival_rate", r.arrival_rate);
  j.num("sojourn_mean_s", r.sojourn_mean_s);
  j.end();
  if (r.has_bound) {
    j.object("trace_bound");
    j.num("hit_tokens", r.bound_hit_tokens);
    j.num("input_tokens", r.bound_input_tokens);
    rate(j, "prefix_hit", r.bound_input_tokens > 0 ? r.bound_hit_tokens / r.bound_input_tokens : -1);
    j.end();
  }
  j.array("hours");
  for (std::size_t i = 0; i < r.hours.size(); ++i) {
    j.object();
    j.num("hour", static_cast<double>(i));
    hour_fields(j, r.hours[i], r.pool_on);
    j.end();
  }
  j.end();
  j.object("series");
  series(j, "t_s", r.samples, [](const Sample& x) { return x.t; });
  series(j, "hbm_bytes", r.samples, [](const Sample& x) { return x.hbm_bytes; });
  series(j, "pool_sessions", r.samples, [](const Sample& x) { return x.pool_sessions; });
  series(j, "dram_bytes", r.samples, [](const Sample& x) { return x.dram_bytes; });
  series(j, "ssd_bytes", r.samples, [](const Sample& x) { return x.ssd_bytes; });
  series(j, "in_system", r.samples, [](const Sample& x) { return static_cast<double>(x.in_system); });
  series(j, "queued", r.samples, [](const Sample& x) { return static_cast<double>(x.queued); });
  series(j, "decoding", r.samples, [](const Sample& x) { return static_cast<double>(x.decoding); });
  j.end();
  if (sweep) {
    j.object("sweep");
    j.str("tier", sweep_tier_name(sweep->tier));
    j.str("curve", sweep->tier == SweepTier::Pool ? "pool_hit" : "prefix_hit");
    j.num("knee", sweep->knee);
    j.array("points");
    for (const SweepPoint& p : sweep->points) {
      j.object();
      j.num("factor", p.factor);
      j.num("capacity", p.capacity);
      rate(j, "prefix_hit", p.hits.prefix);
      rate(j, "hbm_hit", p.hits.hbm);
      rate(j, "dram_hit", p.hits.dram);
      rate(j, "ssd_hit", p.hits.ssd);
      rate(j, "pool_hit", p.hits.pool);
      j.num("ttft_p95_s", p.ttft_p95_s);
      j.end();
    }
    j.end();
    j.end();
  }
  return j.end().newline().take();
}

std::string fleet_duration(double seconds) {
  if (!std::isfinite(seconds)) return model::num(seconds);
  const double a = std::abs(seconds);
  if (a < 60) return model::human(seconds, "s");
  if (a < 3600) return model::num_sig(seconds / 60, 3) + " min";
  if (a < 48 * 3600.0) return model::num_sig(seconds / 3600, 3) + " h";
  return model::num_sig(seconds / 86400, 3) + " days";
}

namespace {
std::string two(long v) { return (v < 10 ? "0" : "") + std::to_string(v); }
std::string hhmm(double seconds) {
  const long minutes = static_cast<long>(std::floor(std::max(0.0, seconds) / 60 + 1e-9));
  return two(minutes / 60) + ":" + two(minutes % 60);
}
}  // namespace

std::string fleet_hour_name(const FleetResult& r, std::size_t hour) {
  const double from = static_cast<double>(hour) * 3600, to = std::min(r.horizon_s > 0 ? r.horizon_s : from + 3600, from + 3600);
  return "hour " + std::to_string(hour + 1) + " (" + hhmm(from) + "–" + hhmm(to) + ")";
}

Overload fleet_overload(const FleetResult& r) {
  Overload o;
  const double hours = r.t > 0 ? r.t / 3600 : 0;
  if (hours <= 0) return o;
  o.queued = static_cast<double>(r.turns_queued);
  o.refused = static_cast<double>(r.sessions_refused);
  o.served_per_h = static_cast<double>(r.total.turns) / hours;
  o.offered_per_h = (static_cast<double>(r.total.turns) + o.queued) / hours;
  // The queue an hour before the end, from the samples (every five simulated minutes).
  for (const Sample& s : r.samples) {
    if (s.t <= r.t - 3600) o.queued_hour_before = s.queued;
  }
  // Overloaded: sessions refused, the queue still growing in the last hour, or more than an hour of the
  // node's own turns still waiting at the end (a day's traffic that ebbs at night drains the queue a little
  // in the last hour without the node ever keeping up).
  o.overloaded = o.refused > 0 || (o.queued > 0 && o.queued > o.queued_hour_before) || (o.queued > 0 && o.queued > o.served_per_h);
  return o;
}

std::string fleet_overload_line(const FleetResult& r) {
  const Overload o = fleet_overload(r);
  if (!o.overloaded) return "";
  const std::string where = r.nodes == 1 ? "the node serves " : "the nodes serve ";
  std::string s = "overloaded: turns arrive at " + model::num(std::round(o.offered_per_h)) + "/h and " + where +
                  model::num(std::round(o.served_per_h)) + "/h (offered load " +
                  model::num_sig(o.served_per_h > 0 ? 100 * o.offered_per_h / o.served_per_h : 0, 3) + " % of served); the queue for HBM held " +
                  model::num(o.queued) + " turns at the end (" + model::num(o.queued_hour_before) + " an hour before), " +
                  (o.queued > o.queued_hour_before ? "so waits grow hour by hour" : "more than an hour of the node's turns still waiting");
  if (o.refused > 0) s += "; " + model::num(o.refused) + " sessions refused at a full queue";
  return s;
}

std::string fleet_hour_line(const FleetResult& r, std::size_t hour) {
  using model::appendf;
  std::string o;
  if (hour >= r.hours.size()) return o;
  const HourStats& h = r.hours[hour];
  const HitRates x = hit_rates(h, r.pool_on);
  appendf(o, "%s: %s turns, prefix hits %s (HBM %s, DRAM %s, SSD %s)", fleet_hour_name(r, hour).c_str(), model::num(static_cast<double>(h.turns)).c_str(),
          pct(x.prefix).c_str(), pct(x.hbm).c_str(), pct(x.dram).c_str(), pct(x.ssd).c_str());
  if (r.pool_on) appendf(o, ", SWA pool hits %s", pct(x.pool).c_str());
  appendf(o, ", p95 TTFT %s", h.ttft.n > 0 ? fleet_duration(h.ttft.quantile(0.95)).c_str() : "—");
  if (h.refused > 0) appendf(o, ", %s sessions refused", model::num(static_cast<double>(h.refused)).c_str());
  return o;
}

std::string fleet_percent(double rate) { return pct(rate); }

std::string fleet_total_line(const FleetResult& r) {
  const HourStats& t = r.total;
  const HitRates x = hit_rates(t, r.pool_on);
  std::string o;
  model::appendf(o, "total: %s sessions (%s refused), %s turns, prefix hits %s (HBM %s, DRAM %s, SSD %s, recomputed %s)",
                 model::num(static_cast<double>(r.sessions_arrived)).c_str(), model::num(static_cast<double>(r.sessions_refused)).c_str(),
                 model::num(static_cast<double>(t.turns)).c_str(), pct(x.prefix).c_str(), pct(x.hbm).c_str(), pct(x.dram).c_str(), pct(x.ssd).c_str(),
                 pct(x.prefix < 0 ? -1 : 1 - x.prefix).c_str());
  return o;
}

std::string fleet_text(const FleetResult& r, const SweepResult* sweep) {
  using model::appendf;
  using model::human;
  std::string o;
  appendf(o, "fleet: %s\n", r.scenario.c_str());
  appendf(o, "%s traffic, %s simulated, %d %s (%d model %s each), seed %llu\n", r.mode == Mode::Trace ? "recorded" : "synthetic",
          human(r.t / 3600.0, "hours").c_str(), r.nodes, r.nodes == 1 ? "node" : "nodes", r.instances,
          r.instances == 1 ? "instance" : "instances", static_cast<unsigned long long>(r.seed));
  if (r.arrivals_limit > 0) {
    appendf(o, "arrivals: %s sessions/s on average; the most these nodes could ever serve is %s\n", model::num_sig(r.arrivals, 4).c_str(),
            model::num_sig(r.arrivals_limit, 3).c_str());
  }
  appendf(o, "per node: HBM for KV %s, SWA pool %s, DRAM prefix cache %s, SSD %s kept %s\n\n", human(r.hbm_bytes, "B").c_str(),
          r.pool_on ? human(r.pool_sessions, "sessions").c_str() : "none (no bounded replay)", human(r.dram_bytes, "B").c_str(),
          human(r.ssd_bytes, "B").c_str(), human(r.retention_s / 3600.0, "hours").c_str());
  for (std::size_t i = 0; i < r.hours.size(); ++i) o += fleet_hour_line(r, i) + '\n';
  const HourStats& t = r.total;
  const HitRates x = hit_rates(t, r.pool_on);
  o += "\n" + fleet_total_line(r) + "\n";
  if (r.pool_on) appendf(o, "returning turns: %s, window in the SWA pool %s, whole history found %s\n",
                         model::num(static_cast<double>(t.resumed)).c_str(), pct(x.pool).c_str(), pct(x.history).c_str());
  appendf(o, "TTFT: p50 %s, p95 %s, p99 %s (mean wait for HBM %s)\n", fleet_duration(t.ttft.quantile(0.5)).c_str(),
          fleet_duration(t.ttft.quantile(0.95)).c_str(), fleet_duration(t.ttft.quantile(0.99)).c_str(),
          fleet_duration(t.turns > 0 ? t.queue_wait_s / static_cast<double>(t.turns) : 0).c_str());
  const double hours = r.t > 0 ? r.t / 3600.0 : 1;
  appendf(o, "links per hour: SSD→DRAM %s, DRAM→SSD %s, DRAM→HBM %s, HBM→DRAM %s\n", human(t.bytes_ssd_read / hours, "B").c_str(),
          human(t.bytes_ssd_write / hours, "B").c_str(), human(t.bytes_up / hours, "B").c_str(), human(t.bytes_down / hours, "B").c_str());
  appendf(o, "SSD wear: %s written per node per day = %s drive writes per day (rated %s)\n", human(r.ssd_write_bytes_per_day, "B").c_str(),
          model::num_sig(r.ssd_dwpd, 3).c_str(), model::num_sig(r.ssd_rated_dwpd, 3).c_str());
  if (r.has_bound) {
    appendf(o, "trace bound: the best any cache could do on this trace is %s prefix hits\n",
            pct(r.bound_input_tokens > 0 ? r.bound_hit_tokens / r.bound_input_tokens : -1).c_str());
  }
  if (const std::string over = fleet_overload_line(r); !over.empty()) o += over + "\n";
  else if (r.turns_queued > 0) appendf(o, "queue: %s turns waiting for HBM at the end\n", model::num(static_cast<double>(r.turns_queued)).c_str());
  if (sweep) {
    appendf(o, "\nsweep of the %s: %s against capacity per node\n",
            sweep->tier == SweepTier::Pool ? "SWA pool" : sweep->tier == SweepTier::Dram ? "DRAM prefix cache" : "SSD",
            sweep->tier == SweepTier::Pool ? "pool hits" : "prefix hits");
    for (std::size_t i = 0; i < sweep->points.size(); ++i) {
      const SweepPoint& p = sweep->points[i];
      const double y = sweep->tier == SweepTier::Pool ? p.hits.pool : p.hits.prefix;
      appendf(o, "  %7s × %-16s %s%s\n", model::num_sig(p.factor, 4).c_str(),
              sweep->tier == SweepTier::Pool ? human(p.capacity, "sessions").c_str() : human(p.capacity, "B").c_str(), pct(y).c_str(),
              static_cast<int>(i) == sweep->knee ? "   ← flattens here (within 1 point of the largest)" : "");
    }
  }
  return o;
}

std::string fleet_csv(const FleetResult& r) {
  std::string o =
      "hour,arrivals,refused,turns,finished,prefix_hit,hbm_hit,dram_hit,ssd_hit,pool_hit,ttft_p50_s,ttft_p95_s,ttft_p99_s,"
      "ssd_read_bytes,ssd_write_bytes,dram_to_hbm_bytes,hbm_to_dram_bytes\n";
  auto row = [&](const std::string& label, const HourStats& h) {
    const HitRates x = hit_rates(h, r.pool_on);
    auto rate = [](double v) { return v < 0 ? std::string() : model::num_exact(v); };
    o += label + "," + std::to_string(h.arrivals) + "," + std::to_string(h.refused) + "," + std::to_string(h.turns) + "," +
         std::to_string(h.finished) + "," + rate(x.prefix) + "," + rate(x.hbm) + "," + rate(x.dram) + "," + rate(x.ssd) + "," + rate(x.pool) + "," +
         (h.ttft.n ? model::num_exact(h.ttft.quantile(0.5)) : "") + "," + (h.ttft.n ? model::num_exact(h.ttft.quantile(0.95)) : "") + "," +
         (h.ttft.n ? model::num_exact(h.ttft.quantile(0.99)) : "") + "," + model::num_exact(h.bytes_ssd_read) + "," +
         model::num_exact(h.bytes_ssd_write) + "," + model::num_exact(h.bytes_up) + "," + model::num_exact(h.bytes_down) + "\n";
  };
  for (std::size_t i = 0; i < r.hours.size(); ++i) row(std::to_string(i), r.hours[i]);
  row("total", r.total);
  return o;
}

}  // namespace tierscope::sim
