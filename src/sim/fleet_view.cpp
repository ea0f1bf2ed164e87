// The fleet run's view as exact text, for a run computed in one module and shown by another: each struct's
// numbers in a fixed order (the tables below, read and written alike), non-finite numbers as strings, the
// TTFT histograms as their non-empty bins.
#include "sim/fleet_view.h"

#include <cmath>
#include <limits>

#include "base/json_reader.h"
#include "base/json_writer.h"

namespace tierscope::sim {

namespace {

using model::JsonWriter;
using Json = model::json::Value;

constexpr int kViewVersion = 2;  // 2: the HBM prefix cache's hits in each hour and sweep point

template <class T>
struct Doubles {
  double T::*member;
};
template <class T>
struct Counts {
  std::uint64_t T::*member;
};

constexpr Doubles<FleetResult> kResultDoubles[] = {
    {&FleetResult::horizon_s}, {&FleetResult::t}, {&FleetResult::hbm_bytes}, {&FleetResult::pool_sessions},
    {&FleetResult::dram_bytes}, {&FleetResult::ssd_bytes}, {&FleetResult::retention_s}, {&FleetResult::swa_bytes},
    {&FleetResult::arrivals}, {&FleetResult::arrivals_limit}, {&FleetResult::sessions_mean}, {&FleetResult::arrival_rate},
    {&FleetResult::sojourn_mean_s}, {&FleetResult::ssd_write_bytes_per_day}, {&FleetResult::ssd_dwpd},
    {&FleetResult::ssd_rated_dwpd}, {&FleetResult::bound_hit_tokens}, {&FleetResult::bound_input_tokens},
};
constexpr Counts<FleetResult> kResultCounts[] = {
    {&FleetResult::seed}, {&FleetResult::sessions_arrived}, {&FleetResult::sessions_finished}, {&FleetResult::sessions_refused},
    {&FleetResult::sessions_in_flight}, {&FleetResult::sessions_ctx_full}, {&FleetResult::turns_queued},
    {&FleetResult::turns_in_service}, {&FleetResult::turns_thinking}, {&FleetResult::events},
};
constexpr TierFlow FleetResult::*kTiers[] = {&FleetResult::hbm, &FleetResult::pool, &FleetResult::dram, &FleetResult::ssd};
constexpr Doubles<HourStats> kHourDoubles[] = {
    {&HourStats::input_tokens}, {&HourStats::hit_dram_tokens}, {&HourStats::hit_ssd_tokens}, {&HourStats::bytes_ssd_read},
    {&HourStats::bytes_ssd_write}, {&HourStats::bytes_up}, {&HourStats::bytes_down}, {&HourStats::bytes_expired},
    {&HourStats::queue_wait_s}, {&HourStats::ttft_sum_s}, {&HourStats::hit_hbm_tokens},
};
constexpr Counts<HourStats> kHourCounts[] = {
    {&HourStats::arrivals}, {&HourStats::refused}, {&HourStats::turns}, {&HourStats::finished},
    {&HourStats::resumed}, {&HourStats::history_hits}, {&HourStats::pool_hits}, {&HourStats::replays},
};
constexpr Doubles<Sample> kSampleDoubles[] = {
    {&Sample::t}, {&Sample::hbm_bytes}, {&Sample::pool_sessions}, {&Sample::dram_bytes}, {&Sample::ssd_bytes},
};
constexpr std::uint32_t Sample::*kSampleCounts[] = {&Sample::in_system, &Sample::queued, &Sample::decoding};
constexpr double HitRates::*kHits[] = {&HitRates::prefix, &HitRates::dram, &HitRates::ssd, &HitRates::pool, &HitRates::history, &HitRates::hbm};

// ---- writing -----------------------------------------------------------------------------------------

// A number exactly; infinities and NaN (capacities may be unbounded) as strings JSON can hold.
void exact(JsonWriter& w, double v) {
  if (std::isfinite(v)) w.num(v);
  else w.str(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}
void count(JsonWriter& w, std::uint64_t v) { w.integer(static_cast<long long>(v)); }  // read back the same way

void write_hour(JsonWriter& w, const HourStats& h) {
  w.object();
  w.array("d");
  for (const auto& f : kHourDoubles) exact(w, h.*f.member);
  w.end().array("u");
  for (const auto& f : kHourCounts) count(w, h.*f.member);
  w.end();
  w.key("n");
  count(w, h.ttft.n);
  w.array("bins");  // [bin, count] of each non-empty bin
  for (int b = 0; b < kTtftBins; ++b)
    if (h.ttft.bins[b] != 0) w.array().integer(b).integer(h.ttft.bins[b]).end();
  w.end().end();
}

void write_result(JsonWriter& w, const FleetResult& r) {
  w.object();
  w.str("mode", r.mode == Mode::Trace ? "trace" : "synthetic").str("scenario", r.scenario);
  w.integer("nodes", r.nodes).integer("instances", r.instances).boolean("pool_on", r.pool_on).boolean("has_bound", r.has_bound);
  w.array("d");
  for (const auto& f : kResultDoubles) exact(w, r.*f.member);
  w.end().array("u");
  for (const auto& f : kResultCounts) count(w, r.*f.member);
  w.end().array("tiers");
  for (const auto t : kTiers) {
    exact(w, (r.*t).in);
    exact(w, (r.*t).out);
    exact(w, (r.*t).resident);
  }
  w.end();
  w.key("total");
  write_hour(w, r.total);
  w.array("hours");
  for (const HourStats& h : r.hours) write_hour(w, h);
  w.end().array("samples");
  for (const Sample& s : r.samples) {
    w.array();
    for (const auto& f : kSampleDoubles) exact(w, s.*f.member);
    for (const auto m : kSampleCounts) w.integer(s.*m);
    w.end();
  }
  w.end().end();
}

void write_sweep(JsonWriter& w, const SweepResult& s) {
  w.object().str("tier", sweep_tier_name(s.tier)).integer("knee", s.knee).array("points");
  for (const SweepPoint& p : s.points) {
    w.array();
    exact(w, p.factor);
    exact(w, p.capacity);
    for (const auto m : kHits) exact(w, p.hits.*m);
    exact(w, p.ttft_p95_s);
    w.end();
  }
  w.end().end();
}

// ---- reading -----------------------------------------------------------------------------------------

// Reads into a fresh view; the first part that does not read is named in `where`.
struct ViewReader {
  std::string where;

  bool fail(const std::string& part) {
    where = part;
    return false;
  }
  const Json* member(const Json& o, const char* key) {
    if (!o.is_object()) return nullptr;
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
  }
  bool number(const Json& v, double& out) {
    if (v.is_number()) {
      out = v.number();
      return true;
    }
    if (!v.is_string()) return false;
    const std::string& t = v.text();
    if (t == "inf") out = std::numeric_limits<double>::infinity();
    else if (t == "-inf") out = -std::numeric_limits<double>::infinity();
    else if (t == "nan") out = std::numeric_limits<double>::quiet_NaN();
    else return false;
    return true;
  }
  bool count(const Json& v, std::uint64_t& out) {
    if (!v.is_number_integer()) return false;
    out = static_cast<std::uint64_t>(v.integer());
    return true;
  }
  bool flag(const Json& o, const char* key, bool& out) {
    const Json* v = member(o, key);
    if (!v || !v->is_boolean()) return false;
    out = v->boolean();
    return true;
  }
  // An array of exactly `n` elements.
  const Json* array(const Json& o, const char* key, std::size_t n) {
    const Json* v = member(o, key);
    return v && v->is_array() && v->size() == n ? v : nullptr;
  }

  bool hour(const Json& o, HourStats& h, const std::string& part) {
    const Json* d = array(o, "d", std::size(kHourDoubles));
    const Json* u = array(o, "u", std::size(kHourCounts));
    const Json* n = member(o, "n");
    const Json* bins = member(o, "bins");
    if (!d || !u || !n || !count(*n, h.ttft.n) || !bins || !bins->is_array()) return fail(part);
    for (std::size_t i = 0; i < std::size(kHourDoubles); ++i)
      if (!number((*d)[i], h.*kHourDoubles[i].member)) return fail(part);
    for (std::size_t i = 0; i < std::size(kHourCounts); ++i)
      if (!count((*u)[i], h.*kHourCounts[i].member)) return fail(part);
    for (const Json& b : *bins) {
      std::uint64_t at = 0, c = 0;
      if (!b.is_array() || b.size() != 2 || !count(b[0], at) || !count(b[1], c) || at >= kTtftBins || c > 0xffffffffull) return fail(part + ".bins");
      h.ttft.bins[at] = static_cast<std::uint32_t>(c);
    }
    return true;
  }

  bool result(const Json& o, FleetResult& r) {
    const Json* mode = member(o, "mode");
    const Json* scenario = member(o, "scenario");
    const Json* nodes = member(o, "nodes");
    const Json* instances = member(o, "instances");
    if (!mode || !mode->is_string() || (mode->text() != "trace" && mode->text() != "synthetic")) return fail("result.mode");
    if (!scenario || !scenario->is_string()) return fail("result.scenario");
    if (!nodes || !nodes->is_number_integer() || !instances || !instances->is_number_integer()) return fail("result.nodes");
    if (!flag(o, "pool_on", r.pool_on) || !flag(o, "has_bound", r.has_bound)) return fail("result.pool_on");
    r.mode = mode->text() == "trace" ? Mode::Trace : Mode::Synthetic;
    r.scenario = scenario->text();
    r.nodes = static_cast<int>(nodes->integer());
    r.instances = static_cast<int>(instances->integer());
    const Json* d = array(o, "d", std::size(kResultDoubles));
    const Json* u = array(o, "u", std::size(kResultCounts));
    const Json* tiers = array(o, "tiers", 3 * std::size(kTiers));
    if (!d || !u || !tiers) return fail("result.d");
    for (std::size_t i = 0; i < std::size(kResultDoubles); ++i)
      if (!number((*d)[i], r.*kResultDoubles[i].member)) return fail("result.d");
    for (std::size_t i = 0; i < std::size(kResultCounts); ++i)
      if (!count((*u)[i], r.*kResultCounts[i].member)) return fail("result.u");
    for (std::size_t i = 0; i < std::size(kTiers); ++i) {
      TierFlow& t = r.*kTiers[i];
      if (!number((*tiers)[3 * i], t.in) || !number((*tiers)[3 * i + 1], t.out) || !number((*tiers)[3 * i + 2], t.resident)) return fail("result.tiers");
    }
    const Json* total = member(o, "total");
    if (!total || !hour(*total, r.total, "result.total")) return false;
    const Json* hours = member(o, "hours");
    if (!hours || !hours->is_array()) return fail("result.hours");
    r.hours.resize(hours->size());
    for (std::size_t i = 0; i < hours->size(); ++i)
      if (!hour((*hours)[i], r.hours[i], "result.hours[" + std::to_string(i) + "]")) return false;
    const Json* samples = member(o, "samples");
    if (!samples || !samples->is_array()) return fail("result.samples");
    r.samples.resize(samples->size());
    const std::size_t width = std::size(kSampleDoubles) + std::size(kSampleCounts);
    for (std::size_t i = 0; i < samples->size(); ++i) {
      const Json& s = (*samples)[i];
      if (!s.is_array() || s.size() != width) return fail("result.samples");
      for (std::size_t k = 0; k < std::size(kSampleDoubles); ++k)
        if (!number(s[k], r.samples[i].*kSampleDoubles[k].member)) return fail("result.samples");
      for (std::size_t k = 0; k < std::size(kSampleCounts); ++k) {
        std::uint64_t c = 0;
        if (!count(s[std::size(kSampleDoubles) + k], c) || c > 0xffffffffull) return fail("result.samples");
        r.samples[i].*kSampleCounts[k] = static_cast<std::uint32_t>(c);
      }
    }
    return true;
  }

  bool sweep(const Json& o, SweepResult& s) {
    const Json* tier = member(o, "tier");
    const Json* knee = member(o, "knee");
    const Json* points = member(o, "points");
    if (!tier || !tier->is_string() || !parse_sweep_tier(tier->text(), s.tier)) return fail("sweep.tier");
    if (!knee || !knee->is_number_integer() || !points || !points->is_array()) return fail("sweep.points");
    s.knee = static_cast<int>(knee->integer());
    const std::size_t width = 3 + std::size(kHits);
    for (const Json& p : *points) {
      SweepPoint x;
      if (!p.is_array() || p.size() != width || !number(p[0], x.factor) || !number(p[1], x.capacity)) return fail("sweep.points");
      for (std::size_t k = 0; k < std::size(kHits); ++k)
        if (!number(p[2 + k], x.hits.*kHits[k])) return fail("sweep.points");
      if (!number(p[width - 1], x.ttft_p95_s)) return fail("sweep.points");
      s.points.push_back(x);
    }
    return true;
  }

  bool view(const Json& o, FleetRunView& v) {
    const Json* version = member(o, "version");
    if (!version || !version->is_number_integer() || version->integer() != kViewVersion) return fail("version");
    const Json* run = member(o, "run");
    if (!run || !flag(*run, "started", v.started) || !flag(*run, "done", v.done) || !flag(*run, "main_done", v.main_done) ||
        !flag(*run, "has_sweep", v.has_sweep) || !flag(*run, "is_trace", v.is_trace))
      return fail("run");
    const Json* progress = member(*run, "progress");
    const Json* now = member(*run, "now");
    const Json* horizon = member(*run, "horizon_s");
    const Json* snapshot_version = member(*run, "version");
    if (!progress || !number(*progress, v.progress) || !now || !number(*now, v.now) || !horizon || !number(*horizon, v.horizon_s) ||
        !snapshot_version || !count(*snapshot_version, v.version))
      return fail("run");
    const Json* r = member(o, "result");
    if (!r || !result(*r, v.snapshot)) return where.empty() ? fail("result") : false;
    const Json* s = member(o, "sweep");
    if (!s) return fail("sweep");
    v.sweep_ready = !s->is_null();
    if (v.sweep_ready && !sweep(*s, v.sweep)) return false;
    return true;
  }
};

}  // namespace

std::string fleet_view_text(const FleetRunView& v) {
  JsonWriter w;
  w.object().integer("version", kViewVersion);
  w.object("run").boolean("started", v.started).boolean("done", v.done).boolean("main_done", v.main_done);
  w.boolean("has_sweep", v.has_sweep).boolean("is_trace", v.is_trace);
  w.key("progress");
  exact(w, v.progress);
  w.key("now");
  exact(w, v.now);
  w.key("horizon_s");
  exact(w, v.horizon_s);
  w.key("version");
  count(w, v.version);
  w.end();
  w.key("result");
  write_result(w, v.snapshot);
  w.key("sweep");
  if (v.sweep_ready) write_sweep(w, v.sweep);
  else w.null();
  return w.end().take();
}

bool read_fleet_view(std::string_view text, FleetRunView& out, model::Errors& errors) {
  model::json::Document doc;
  ViewReader r;
  FleetRunView v;
  if (!doc.parse(text)) r.where = "the text (not JSON)";
  else if (r.view(doc.root(), v)) {
    out = std::move(v);
    return true;
  }
  errors.push_back(model::make_error(model::ErrorCode::BadSyntax, "fleet view", r.where.empty() ? std::string("the text") : r.where,
                                     "the text fleet_view_text writes (version " + std::to_string(kViewVersion) + ")"));
  return false;
}

}  // namespace tierscope::sim
