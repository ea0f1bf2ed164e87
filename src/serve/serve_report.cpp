// A replay's summary in the shape the engines' benchmark tools print (requests, duration, throughput, then
// TTFT, TPOT, ITL and E2E as mean, median, p90 and p99), and the same numbers as JSON and CSV.
#include <algorithm>
#include <cstdio>
#include <span>

#include "base/json_writer.h"
#include "base/text.h"
#include "serve/serve.h"
#include "serve/trust.h"

namespace tierscope::serve {

namespace {

std::string line(const char* label, const std::string& value) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%-44s ", label);
  return buf + value + "\n";
}
std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct Metric {
  const char* key;
  const char* name;
  const Summary ServeResult::*field;
};
constexpr Metric kMetrics[] = {{"ttft", "Time to First Token", &ServeResult::ttft},
                               {"tpot", "Time per Output Token (excl. 1st token)", &ServeResult::tpot},
                               {"itl", "Inter-token Latency", &ServeResult::itl},
                               {"e2e", "End-to-end Latency", &ServeResult::e2e}};

// TTFT's parts, each a row of the latency table after the four metrics (they add up to TTFT, request by request).
struct Part {
  const char* key;
  const char* name;
  const char* abbrev;
  const Summary ServeResult::TtftParts::*field;
};
constexpr Part kParts[] = {
    {"overhead", "TTFT: the engine's front end", "TTFT overhead", &ServeResult::TtftParts::overhead},
    {"wait", "TTFT: wait for the step in flight", "TTFT wait", &ServeResult::TtftParts::wait},
    {"queue", "TTFT: admission queue", "TTFT queue", &ServeResult::TtftParts::queue},
    {"prefill", "TTFT: prefill to the first token", "TTFT prefill", &ServeResult::TtftParts::prefill},
    // Disaggregated only: the KV's hand-off after the pass, the decode pool's admission.
    {"transfer", "TTFT: KV hand-off after the prefill", "TTFT transfer", &ServeResult::TtftParts::transfer},
    {"admission", "TTFT: decode pool admission", "TTFT admission", &ServeResult::TtftParts::admission}};

bool disaggregated(const ServeResult& r) { return r.prefill == prefill_mode_name(PrefillMode::Pd); }
// TTFT's parts a run has: the four of one instance, and the hand-off's two when disaggregated.
std::span<const Part> parts_of(const ServeResult& r) { return std::span<const Part>(kParts).first(disaggregated(r) ? 6 : 4); }

// A shared-prefix workload's cache: a share of the prompt tokens served from each tier.
bool prefix_workload(const ServeResult& r) { return !r.prefix.reuse.empty(); }
double hit_share(const PrefixReport& p, int tier) { return p.prompt_tokens > 0 ? p.hit_tokens[tier] / p.prompt_tokens : 0.0; }
constexpr const char* kTierKeys[sim::kCacheTiers] = {"hbm", "dram", "ssd"};

std::string setup_text(const ServeResult& r) {
  std::string load = r.concurrency > 0 ? "concurrency " + std::to_string(r.concurrency) : "rate " + model::num_sig(r.rate, 4) + " requests/s";
  return r.engine + ", " + std::to_string(r.instances) + (r.instances == 1 ? " instance" : " instances") + " of " + std::to_string(r.gpus_per_instance) +
         " GPUs, " + r.mode + " at " + load + ", " + r.lengths + " lengths, prefill " + r.prefill + ", budget " + std::to_string(r.budget) +
         " tokens per step, running-batch cap " + std::to_string(r.max_batch) + ", seed " + std::to_string(r.seed);
}

}  // namespace

std::string serve_setup_text(const ServeResult& r) { return setup_text(r); }

std::vector<ReportRow> serve_rows(const ServeResult& r) {
  std::vector<ReportRow> rows = {{"Successful requests:", std::to_string(r.completed)},
          {"Refused requests:", std::to_string(r.refused)},
          {"Benchmark duration (s):", fixed(r.duration, 2)},
          {"Total input tokens:", fixed(r.input_tokens, 0)},
          {"Total generated tokens:", fixed(r.output_tokens, 0)},
          {"Request throughput (req/s):", fixed(r.request_rate, 2)},
          {"Output token throughput (tok/s):", fixed(r.output_tps, 2)},
          {"Output token throughput per GPU (tok/s):", fixed(r.output_tps_gpu, 2), "output_tokens_per_s_gpu"},
          {"Total token throughput (tok/s):", fixed(r.total_tps, 2)},
          {"Tokens per second per user (1 / mean TPOT):", fixed(r.tps_user, 2)},
          {"Mean requests in flight:", fixed(r.mean_in_flight, 2)},
          {"Largest decode batch:", fixed(r.max_batch_seen, 0)},
          {"Mean tokens per decode step (MTP):", fixed(r.accept_len, 3)},
          {"Scheduled steps:", std::to_string(r.steps)}};
  // Disaggregated: the prefill pool's GPUs (that kept up, or the fixed pool's), counted in the per-GPU throughput above.
  if (disaggregated(r)) {
    rows.insert(rows.begin() + 8, {r.prefill_workers > 0 ? "Prefill pool GPUs (" + std::to_string(r.prefill_workers) + " workers):"
                                                         : std::string("Prefill pool GPUs (keeping up):"),
                                   fixed(r.prefill_gpus, 2)});
    rows.push_back({"KV hand-off:", r.handoff});
  }
  if (r.slo_attainment >= 0) rows.push_back({"SLO attainment (TTFT and TPOT within):", fixed(100 * r.slo_attainment, 2) + " %"});
  if (r.goodput_rate >= 0) rows.push_back({("Goodput (req/s at " + model::num(100 * r.goodput_at) + " % attainment):").c_str(), fixed(r.goodput_rate, 3)});
  if (prefix_workload(r)) {
    const PrefixReport& p = r.prefix;
    rows.push_back({"Prefix cache tiers (reuse):", p.tiers + (p.on ? ", " + model::num(p.page) + "-token blocks" : std::string()) + " (" + p.reuse + ")"});
    rows.push_back({"Prefix hits HBM / DRAM / SSD (% of prompt):",
                    fixed(100 * hit_share(p, 0), 2) + " / " + fixed(100 * hit_share(p, 1), 2) + " / " + fixed(100 * hit_share(p, 2), 2)});
    if (p.loads > 0) rows.push_back({"Prefix reloads (mean ms):", fixed(p.loads, 0) + " (" + fixed(1e3 * p.load_s / p.loads, 2) + ")"});
  }
  return rows;
}

std::vector<LatencyRow> serve_latency_rows(const ServeResult& r) {
  std::vector<LatencyRow> out;
  for (const Metric& m : kMetrics) {
    const Summary& s = r.*m.field;
    const std::string k = m.key == std::string("e2e") ? "E2EL" : m.key == std::string("itl") ? "ITL" : m.key == std::string("tpot") ? "TPOT" : "TTFT";
    out.push_back({m.key, m.name, k, fixed(s.mean * 1e3, 2), fixed(s.median * 1e3, 2), fixed(s.p90 * 1e3, 2), fixed(s.p99 * 1e3, 2)});
  }
  // TTFT's parts after the four metrics, where a run measured TTFT.
  if (r.ttft.n == 0) return out;
  for (const Part& p : parts_of(r)) {
    const Summary& x = r.ttft_parts.*p.field;
    out.push_back({std::string("ttft_") + p.key, p.name, p.abbrev, fixed(x.mean * 1e3, 2), fixed(x.median * 1e3, 2), fixed(x.p90 * 1e3, 2),
                   fixed(x.p99 * 1e3, 2)});
  }
  return out;
}

std::string step_text(const StepRecord& st) {
  std::string o = "step " + model::num(static_cast<double>(st.index)) + " at " + model::human(st.start, "s") + " on instance " + std::to_string(st.instance) + ": " + model::human(st.seconds, "s") + " — " +
                  std::to_string(st.decodes.size()) + " decodes at context " + model::num(st.ctx) + " (" + model::human(st.decode_s, "s") + ")";
  if (!st.prefills.empty()) {
    o += ", prompt chunks";
    for (std::size_t i = 0; i < st.prefills.size(); ++i) o += " #" + std::to_string(st.prefills[i]) + ":" + std::to_string(st.chunk_tokens[i]);
    o += " (" + model::human(st.prefill_s, "s") + ")";
  }
  o += ", " + st.bound;
  // The first tokens it yields, each TTFT in its parts (three said in full; the JSON carries them all).
  constexpr std::size_t kSaid = 3;
  for (std::size_t i = 0; i < st.first_tokens.size() && i < kSaid; ++i) {
    const StepRecord::FirstToken& f = st.first_tokens[i];
    o += "; first token of #" + std::to_string(f.id) + ": TTFT " + model::human(f.ttft, "s") + " = front end " + model::human(f.overhead, "s") +
         " + wait " + model::human(f.wait, "s") + " + queue " + model::human(f.queue, "s") + " + prefill " + model::human(f.prefill, "s");
    if (f.transfer > 0 || f.admission > 0) o += " + transfer " + model::human(f.transfer, "s") + " + admission " + model::human(f.admission, "s");
  }
  if (st.first_tokens.size() > kSaid) o += "; " + std::to_string(st.first_tokens.size() - kSaid) + " more first tokens";
  return o;
}

std::string steps_title(const ServeResult& r) {
  return r.steps_from > 0 ? "Scheduled steps from step " + model::num(static_cast<double>(r.steps_from)) : std::string("The first scheduled steps");
}

namespace {
// A figure's value with the trust band beside it, where there is one.
std::string beside(const std::string& value, const Trust* trust, TrustFigure f) { return trust ? value + "   " + trust_text(*trust, f) : value; }
}  // namespace

std::string serve_text(const ServeResult& r, const Trust* trust) {
  std::string o = "============ Serving Benchmark Result ============\n";
  o += setup_text(r) + "\n";
  for (const ReportRow& row : serve_rows(r)) {
    const bool per_gpu = row.key == std::string_view(trust_figure_key(TrustFigure::Throughput));
    o += line(row.label.c_str(), per_gpu ? beside(row.value, trust, TrustFigure::Throughput) : row.value);
  }
  for (const LatencyRow& m : serve_latency_rows(r)) {
    const std::string head = m.name;
    const std::size_t pad = head.size() + 2 < 50 ? (50 - head.size() - 2) / 2 : 0;
    o += std::string(pad, '-') + head + std::string(50 - pad - head.size() > 50 ? 0 : 50 - pad - head.size(), '-') + "\n";
    const std::string mean = m.key == "ttft" ? beside(m.mean_ms, trust, TrustFigure::Ttft) : m.key == "tpot" ? beside(m.mean_ms, trust, TrustFigure::Tpot) : m.mean_ms;
    o += line(("Mean " + m.abbrev + " (ms):").c_str(), mean);
    o += line(("Median " + m.abbrev + " (ms):").c_str(), m.median_ms);
    o += line(("P90 " + m.abbrev + " (ms):").c_str(), m.p90_ms);
    o += line(("P99 " + m.abbrev + " (ms):").c_str(), m.p99_ms);
  }
  o += "==================================================\n";
  o += "Admission: " + r.admission + ".\n";
  if (r.refused > 0) o += "Refused: " + r.refused_why + ".\n";
  if (r.prefix.on) o += "Prefix cache: " + r.prefix.policy + (r.prefix.store.empty() ? "" : "; below HBM, " + r.prefix.store) + ".\n";
  o += xpyd_text(r);
  for (const StepRecord& st : r.trace) o += step_text(st) + "\n";
  return o;
}
std::string serve_json(const ServeResult& r, const Trust* trust) {
  model::JsonWriter w;
  w.object(model::json_lines(2));
  w.str("engine", r.engine).str("mode", r.mode).str("prefill", r.prefill).str("lengths", r.lengths).str("admission", r.admission);
  w.integer("concurrency", r.concurrency).num("rate", r.rate).integer("instances", r.instances).integer("gpus_per_instance", r.gpus_per_instance);
  w.num("prefill_gpus", r.prefill_gpus);
  w.integer("budget", r.budget).integer("max_batch", r.max_batch).num("kv_tokens", r.kv_tokens).num("accept_len", r.accept_len);
  w.integer("seed", static_cast<long long>(r.seed));
  w.integer("requests", static_cast<long long>(r.requests)).integer("completed", static_cast<long long>(r.completed));
  w.integer("refused", static_cast<long long>(r.refused)).str("refused_why", r.refused_why);
  w.integer("steps", static_cast<long long>(r.steps)).num("duration_s", r.duration);
  w.num("input_tokens", r.input_tokens).num("output_tokens", r.output_tokens).num("request_rate", r.request_rate);
  w.num("output_tokens_per_s", r.output_tps).num("output_tokens_per_s_gpu", r.output_tps_gpu).num("total_tokens_per_s", r.total_tps);
  w.num("tokens_per_s_user", r.tps_user).num("mean_in_flight", r.mean_in_flight).num("largest_decode_batch", r.max_batch_seen);
  for (const Metric& m : kMetrics) {
    const Summary& s = r.*m.field;
    w.object(m.key, model::kJsonSpaced).num("mean_s", s.mean).num("median_s", s.median).num("p90_s", s.p90).num("p99_s", s.p99).num("max_s", s.max).end();
  }
  if (r.slo_attainment >= 0) w.num("slo_ttft_s", r.slo_ttft).num("slo_itl_s", r.slo_itl).num("slo_attainment", r.slo_attainment);
  if (r.goodput_rate >= 0) w.num("goodput_at", r.goodput_at).num("goodput_rate", r.goodput_rate).integer("goodput_runs", r.goodput_runs);
  if (disaggregated(r)) w.integer("prefill_workers", r.prefill_workers).str("handoff", r.handoff);
  if (prefix_workload(r)) {
    const PrefixReport& p = r.prefix;
    w.object("prefix_cache", model::json_lines(4)).str("tiers", p.tiers).str("reuse", p.reuse).boolean("on", p.on).num("page_tokens", p.page);
    w.num("prompt_tokens", p.prompt_tokens).num("hit_requests", p.hit_requests);
    for (int k = 0; k < sim::kCacheTiers; ++k) w.num((std::string("hit_rate_") + kTierKeys[k]).c_str(), hit_share(p, k));
    for (int k = 0; k < sim::kCacheTiers; ++k) w.num((std::string("hit_tokens_") + kTierKeys[k]).c_str(), p.hit_tokens[k]);
    w.num("reloads", p.loads).num("reload_mean_s", p.loads > 0 ? p.load_s / p.loads : 0.0).num("hbm_blocks_peak", p.hbm_blocks_peak);
    w.num("dram_blocks", p.dram_blocks).num("ssd_blocks", p.ssd_blocks).str("policy", p.policy).str("store", p.store).end();
  }
  xpyd_json(w, r);
  w.object("ttft_parts", model::json_lines(4));
  for (const Part& p : parts_of(r)) {
    const Summary& s = r.ttft_parts.*p.field;
    w.object(p.key, model::kJsonSpaced).num("mean_s", s.mean).num("median_s", s.median).num("p90_s", s.p90).num("p99_s", s.p99).num("max_s", s.max).end();
  }
  w.end();
  w.array("steps_trace", model::json_lines(4));
  for (const StepRecord& st : r.trace) {
    w.object(model::kJsonSpaced).integer("index", static_cast<long long>(st.index)).num("start_s", st.start).num("seconds", st.seconds).integer("instance", st.instance);
    w.array("decodes");
    for (std::uint32_t id : st.decodes) w.integer(id);
    w.end().array("prefills");
    for (std::size_t i = 0; i < st.prefills.size(); ++i) w.array().integer(st.prefills[i]).integer(st.chunk_tokens[i]).end();
    w.end().num("decode_s", st.decode_s).num("prefill_s", st.prefill_s).num("ctx", st.ctx).str("bound", st.bound);
    w.num("kv_written_tokens", st.kv_written).num("kv_reserved_tokens", st.kv_reserved);
    w.array("first_tokens");
    for (const StepRecord::FirstToken& f : st.first_tokens) {
      w.object().integer("id", f.id).num("ttft_s", f.ttft).num("overhead_s", f.overhead).num("wait_s", f.wait).num("queue_s", f.queue);
      w.num("prefill_s", f.prefill);
      if (f.transfer > 0 || f.admission > 0) w.num("transfer_s", f.transfer).num("admission_s", f.admission);
      w.end();
    }
    w.end().end();
  }
  w.end();
  if (trust) trust_json(w, *trust);
  w.end().newline();
  return w.take();
}

void latency_chart(const ServeResult& r, model::Chart& out) {
  model::Chart c;
  c.kind = model::ChartKind::ServeLatency;
  c.title = "Latency by percentile of requests";
  c.x.key = "percentile";
  c.x.label = "share of requests at or below";
  c.x.unit = "%";
  c.y.key = "latency";
  c.y.label = "latency";
  c.y.unit = "s";
  c.y.log = true;
  c.xs = r.percentiles;
  double lo = 0, hi = 0;
  std::string spread;
  for (std::size_t m = 0; m < r.by_percentile.size(); ++m) {
    const std::vector<double>& ys = r.by_percentile[m];
    if (ys.size() != c.xs.size()) continue;  // no request measured it (one output token: no TPOT)
    model::ChartLine l;
    l.id = kMetrics[m].key;
    l.label = m == 0 ? "TTFT" : m == 1 ? "TPOT" : m == 2 ? "ITL" : "E2E";
    l.role = "family";
    l.y = ys;
    for (const double y : ys) {
      if (!(y > 0)) continue;
      lo = lo > 0 ? std::min(lo, y) : y;
      hi = std::max(hi, y);
    }
    const Summary& s = r.*kMetrics[m].field;
    spread += (spread.empty() ? "" : "; ") + l.label + " median " + model::human(s.median, "s") + ", p99 " + model::human(s.p99, "s");
    c.lines.push_back(std::move(l));
  }
  model::axis_ticks(c.x, 0, 100);
  if (!(lo > 0)) lo = hi = 1e-3;
  model::axis_ticks(c.y, lo, hi);
  c.description = "The latency of each of " + std::to_string(r.completed) + " requests by percentile (" + r.engine + ", " +
                  (r.concurrency > 0 ? "concurrency " + std::to_string(r.concurrency) : "rate " + model::num_sig(r.rate, 4) + " requests/s") +
                  "): " + (spread.empty() ? std::string("no request completed") : spread) + ".";
  c.command = "tierscope chart serve-latency --format json";
  out = std::move(c);
}

std::string serve_csv(const ServeResult& r) {
  std::string o = "metric,value\n";
  auto row = [&](const char* k, double v) { o += std::string(k) + "," + model::num_exact(v) + "\n"; };
  row("completed", static_cast<double>(r.completed));
  row("refused", static_cast<double>(r.refused));
  row("duration_s", r.duration);
  row("request_rate", r.request_rate);
  row("output_tokens_per_s", r.output_tps);
  row("output_tokens_per_s_gpu", r.output_tps_gpu);
  row("total_tokens_per_s", r.total_tps);
  row("tokens_per_s_user", r.tps_user);
  row("mean_in_flight", r.mean_in_flight);
  for (const Metric& m : kMetrics) {
    const Summary& s = r.*m.field;
    const std::string k = m.key;
    o += k + "_mean_s," + model::num_exact(s.mean) + "\n" + k + "_median_s," + model::num_exact(s.median) + "\n" + k + "_p90_s," + model::num_exact(s.p90) +
         "\n" + k + "_p99_s," + model::num_exact(s.p99) + "\n";
  }
  if (r.slo_attainment >= 0) row("slo_attainment", r.slo_attainment);
  if (r.goodput_rate >= 0) row("goodput_rate", r.goodput_rate);
  if (prefix_workload(r)) {
    for (int k = 0; k < sim::kCacheTiers; ++k) o += std::string("prefix_hit_rate_") + kTierKeys[k] + "," + model::num_exact(hit_share(r.prefix, k)) + "\n";
  }
  for (const Part& p : parts_of(r)) {
    const Summary& s = r.ttft_parts.*p.field;
    o += std::string("ttft_") + p.key + "_mean_s," + model::num_exact(s.mean) + "\nttft_" + p.key + "_p99_s," + model::num_exact(s.p99) + "\n";
  }
  return o;
}

}  // namespace tierscope::serve
