// Replayed anchors: closed-loop clients at the anchor's concurrency with its lengths, the engine's own
// scheduler defaults, the metric read from the benchmark summary.
#include "serve/serve_anchors.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdio>

#include "serve/serve.h"

namespace tierscope::serve {

namespace {

// The benchmarks' random datasets draw lengths around the nominal ones; the spread "random" means everywhere
// (kRandomRangeRatio, ±20 %) is assumed (docs/serve.md), which also keeps fixed lengths from marching in lockstep.
constexpr double kAnchorRangeRatio = kRandomRangeRatio;

}  // namespace

namespace {

// The source's space in a few words: "TP1, TP2, TP8 at concurrency 4–64; lengths 0.8–1 × nominal" ("": none).
std::string space_words(const FrontierOptions& o) {
  std::string w;
  int recipes = 0;
  for (const SourceLayout& l : o.only) {
    if (l.workers > 1 || l.prefill_gpus > 0 || !l.concurrencies.empty()) {
      ++recipes;  // said as a count below: each is a deployment, too long to list
      continue;
    }
    w += (w.empty() ? "" : ", ") + std::string(source_kind_name(l.kind)) + std::to_string(l.gpus) + (l.mtp ? " with MTP" : "");
  }
  if (recipes > 0)
    w += (w.empty() ? "" : ", ") + std::to_string(recipes) + " disaggregated deployments as it ran them: decode workers, prefill pool, concurrencies";
  if (o.max_concurrency > 0)
    w += (w.empty() ? "" : " ") + std::string("at concurrency ") + std::to_string(std::max(1, o.min_concurrency)) + "–" + std::to_string(o.max_concurrency);
  if (o.length_floor > 0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "lengths %.1f–1 × nominal", o.length_floor);
    w += (w.empty() ? "" : "; ") + std::string(buf);
  }
  return w;
}

// The anchor's value read off its setup's replayed front at its tokens/s per user.
ReplayedAnchor read_front(const model::AnchorResult& r, FrontCache* fronts) {
  ReplayedAnchor out;
  const model::Scenario& s = r.scenario;
  FrontierOptions o;
  o.input = std::max(1, s.work.prompt - std::min(s.work.prefix_hit, s.work.prompt));
  o.output = std::max(2, s.work.output);
  o.prefill = r.anchor->disagg ? PrefillMode::Pd : PrefillMode::Auto;
  const char* space = r.anchor->space ? r.anchor->space : "";
  std::string why;
  if (!parse_source_space(space, o, why)) {
    out.why = "the anchor's source space: " + why;
    return out;
  }
  FrontCache local;
  FrontCache& cache = fronts ? *fronts : local;
  const std::string key = std::string(r.anchor->preset) + "|" + r.anchor->settings + (r.anchor->disagg ? "|pd" : "") + "|" + space;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, replayed_front(s, o)).first;
  const std::vector<FrontPoint>& front = it->second;
  const double want = r.anchor->per_user;
  // The front is output tokens per GPU; a total (input + output) throughput counts the prompts too.
  const double total = r.anchor->metric == model::AnchorMetric::TotalTokensPerSGpu ? model::total_per_output(s) : 1.0;
  out.model = front_at(front, want) * total;
  if (!(out.model > 0)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "no layout's replay reaches %.4g tokens/s per user (the front ends at %.4g)", want,
                  front.empty() ? 0.0 : front.back().tps_user);
    out.why = buf;
    return out;
  }
  const auto near = std::min_element(front.begin(), front.end(), [&](const FrontPoint& a, const FrontPoint& b) {
    return std::fabs(std::log(a.tps_user / want)) < std::fabs(std::log(b.tps_user / want));
  });
  out.concurrency = near->concurrency;
  const std::string words = space_words(o);
  out.prefill = std::string(o.only.empty() ? "the front of every layout (" : "the front of the source's layouts (") + (words.empty() ? "" : words + "; ") +
                near->layout + " nearest)";
  out.tps_user = want;
  out.tps_gpu = out.model / total;
  out.ok = true;
  out.ratio = r.anchor->measured > 0 ? out.model / r.anchor->measured : 0.0;
  return out;
}

}  // namespace

bool is_replayed(const model::AnchorResult& r) { return r.anchor && (r.anchor->replay || r.offline_requests > 0); }

ReplayedAnchor replay_anchor(const model::AnchorResult& r, FrontCache* fronts) {
  ReplayedAnchor out;
  if (!is_replayed(r)) {
    out.why = "not a serving benchmark";
    return out;
  }
  if (!r.ok) {
    out.why = r.why;
    return out;
  }
  const model::Scenario& s = r.scenario;
  const model::AnchorMetric m = r.anchor->metric;
  if (r.anchor->per_user > 0 && (m == model::AnchorMetric::TokensPerSGpu || m == model::AnchorMetric::TotalTokensPerSGpu)) return read_front(r, fronts);
  ServeSpec spec;
  spec.input = std::max(1, s.work.prompt - std::min(s.work.prefix_hit, s.work.prompt));
  spec.output = std::max(2, s.work.output);
  if (r.offline_requests > 0) {
    // An offline benchmark (trtllm-bench's throughput run): every request queued at once, as many running as
    // the engine admits, the rest waiting, lengths exact (its dataset has zero deviation). Its throughput is
    // the whole run's, so the ramp while prompts prefill and the drain as the last requests finish count.
    spec.concurrency = r.offline_requests;
    spec.requests = r.offline_requests;
    spec.lengths = Lengths::Fixed;
  } else {
    spec.concurrency = std::max(1, s.work.batch);
    spec.lengths = Lengths::Random;
    spec.range_ratio = kAnchorRangeRatio;
    // Enough requests for several generations of clients (the first wave's ramp fades), bounded so a large
    // batch stays quick.
    spec.requests = std::clamp(4 * spec.concurrency, 64, 20000);
  }
  if (m == model::AnchorMetric::DecodeTokensPerSGpu || m == model::AnchorMetric::StepTime) spec.prefill = PrefillMode::None;
  else if (r.anchor->disagg) spec.prefill = PrefillMode::Pd;
  if (m == model::AnchorMetric::PrefillTokensPerSGpu) {
    // A prefill pool at load: every replica's step budget full of prompts, and as many again queued behind
    // them, so no replica idles while another's share of the arrivals runs (data-parallel replicas step
    // together). One prompt per replica would leave the step to the replica that drew two. The pool's work
    // ends at the first token (the decode pool takes the KV from there), so no request waits on a decode.
    spec.output = 1;
    const int budget = default_budget(s.engine.kind, s.hw);
    const int per_replica = 2 * std::max(1, (budget + spec.input - 1) / spec.input);
    spec.concurrency = std::max(spec.concurrency, per_replica * std::max(1, s.par.dp));
    spec.requests = std::clamp(4 * spec.concurrency, 64, 20000);
  }
  out.concurrency = spec.concurrency;
  ServeResult res;
  model::Errors errors;
  if (!run_serve(s, spec, res, errors)) {
    out.why = errors.empty() ? "the replay did not run" : errors.front().message();
    return out;
  }
  if (res.completed == 0) {
    out.why = res.refused_why.empty() ? "no request completed" : res.refused_why;
    return out;
  }
  out.prefill = res.prefill;
  out.tps_user = res.tps_user;
  out.tps_gpu = res.output_tps_gpu;
  const double gpus = static_cast<double>(res.instances) * res.gpus_per_instance + res.prefill_gpus;
  switch (m) {
    case model::AnchorMetric::Tpot: out.model = res.tpot.mean; break;
    case model::AnchorMetric::TokensPerSGpu:
    case model::AnchorMetric::DecodeTokensPerSGpu: out.model = res.output_tps_gpu; break;
    case model::AnchorMetric::StepTime: out.model = res.itl.mean; break;
    case model::AnchorMetric::PrefillTokensPerSGpu: out.model = res.duration > 0 ? res.input_tokens / res.duration / gpus : 0.0; break;
    case model::AnchorMetric::TotalTokensPerSGpu: out.model = res.total_tps / gpus; break;
    case model::AnchorMetric::Count: break;
  }
  out.ok = out.model > 0;
  out.ratio = r.anchor->measured > 0 ? out.model / r.anchor->measured : 0.0;
  return out;
}

std::vector<ReplayedAnchor> replay_anchors(const std::vector<model::AnchorResult>& results) {
  std::vector<ReplayedAnchor> out;
  out.reserve(results.size());
  // Fronts are deterministic in their setup (seeded replays), so one process computes each once.
  static FrontCache fronts;
  for (const model::AnchorResult& r : results) out.push_back(replay_anchor(r, &fronts));
  return out;
}

ReplaySummary summarize_replayed(const std::vector<ReplayedAnchor>& replayed, const std::vector<model::AnchorResult>& results) {
  ReplaySummary s;
  std::vector<double> logs;
  for (std::size_t i = 0; i < replayed.size() && i < results.size(); ++i) {
    if (!is_replayed(results[i])) continue;
    // A point whose replay cannot be computed is a miss: it counts, outside 2× and beyond every ratio in the median.
    s.points += 1;
    if (!replayed[i].ok || replayed[i].ratio <= 0) {
      s.not_computed += 1;
      logs.push_back(std::numeric_limits<double>::infinity());
      continue;
    }
    const double l = std::fabs(std::log2(replayed[i].ratio));
    logs.push_back(l);
    if (l <= 1.0) s.within_2x += 1;
  }
  if (!logs.empty()) {
    std::sort(logs.begin(), logs.end());
    const std::size_t n = logs.size();
    s.median_abs_log2 = n % 2 ? logs[n / 2] : 0.5 * (logs[n / 2 - 1] + logs[n / 2]);
  }
  return s;
}

std::string replay_summary_text(const ReplaySummary& s) {
  const std::string missed = s.not_computed > 0 ? " (" + std::to_string(s.not_computed) + " not computed, each a miss that says why)" : "";
  char buf[320];
  std::snprintf(buf, sizeof buf, "%d of %d replayed points within 2×%s, median |log₂(replay ÷ measured)| %.2f", s.within_2x, s.points, missed.c_str(),
                s.median_abs_log2);
  return buf;
}

}  // namespace tierscope::serve
