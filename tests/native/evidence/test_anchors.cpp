// The measured anchors: every published point applies its settings to its preset and runs (or says why),
// its step's terms add up to the model's step, the ratio is model ÷ measured (checked by hand for two
// points), the summary counts the rows, and the table is grouped by model family.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "base/text.h"
#include "quoted_numbers.h"
#include "evidence/anchors.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope::model;
namespace testing = tierscope::testing;

namespace {

const AnchorResult& find_result(const std::vector<AnchorResult>& all, std::string_view id) {
  for (const AnchorResult& r : all) {
    if (id == r.anchor->id) return r;
  }
  FAIL("no anchor " << id);
  return all.front();
}

// A preset with settings applied through the registry, as a person would type them.
Scenario with(const char* preset, std::initializer_list<std::pair<const char*, const char*>> settings) {
  Scenario s;
  REQUIRE(make_preset(preset, s));
  for (const auto& [key, value] : settings) {
    Adjustments moved;
    Error e;
    const ParamDef* p = find_param(key);
    REQUIRE(p);
    REQUIRE(edit_param(s, *p, value, moved, e));
  }
  return s;
}

}  // namespace

// The points the model cannot run, each with the words of its reason (docs/anchors.md, *Not computed*): the GB200
// prefill instances of 2 and 4 ranks, whose sources keep part of the weights in Grace memory. Every other
// point must compute: one that stops fails here by name, whatever the others do.
const std::pair<const char*, const char*> kNotComputed[] = {{"v3-gb200-prefill-fp4", "of HBM usable per GPU"},
                                                            {"v3-gb200-prefill-fp8", "of HBM usable per GPU"}};

TEST_CASE("anchors: every measured point applies its settings and runs, or is one of the few that cannot and says why — its terms add up to the model's step") {
  REQUIRE(anchors().size() >= 90);
  std::set<std::string> ids;
  int v41 = 0, cannot = 0;
  for (const AnchorResult& r : evaluate_anchors()) {
    const Anchor& a = *r.anchor;
    INFO(a.id << ": " << r.why);
    CHECK(ids.insert(a.id).second);  // ids are unique
    CHECK(std::string(a.url).rfind("https://", 0) == 0);
    CHECK(a.measured > 0);
    CHECK(a.row >= 0);
    CHECK(a.row <= 36);
    const auto known = std::find_if(std::begin(kNotComputed), std::end(kNotComputed), [&](const auto& k) { return a.id == std::string_view(k.first); });
    if (known != std::end(kNotComputed)) {
      ++cannot;
      CHECK_FALSE(r.ok);  // the model learnt to run it: take it off the list (and docs/anchors.md's)
      CHECK(r.why.find(known->second) != std::string::npos);
      continue;
    }
    REQUIRE(r.ok);
    if (std::string(a.preset).rfind("v41", 0) == 0) ++v41;
    CHECK(r.ratio > 0);
    CHECK(r.ratio == Approx(r.model / a.measured).epsilon(1e-12));
    if (anchor_is_decode(a.metric)) {
      double sum = 0;
      for (const StepTerm& t : r.terms) sum += t.seconds;
      CHECK(sum == Approx(r.step_model).epsilon(1e-9));
    } else {
      CHECK(r.terms.empty());
      CHECK(r.step_model == Approx(r.scenario.par.dp * static_cast<double>(r.scenario.work.prompt) / r.scenario.hw.gpus / r.model));
    }
  }
  CHECK(v41 >= 2);
  CHECK(cannot == static_cast<int>(std::size(kNotComputed)));
}

TEST_CASE("anchors: each carried row of FACTS-parallel §6 is there, and rows without a preset-able model are not") {
  std::set<int> rows;
  for (const Anchor& a : anchors()) rows.insert(a.row);
  for (int row : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24, 25, 26, 27, 28, 30, 31, 32, 33, 34, 35, 36}) {
    INFO("row " << row);
    CHECK(rows.count(row) == 1);
  }
  for (int row : {21, 22, 23, 29}) {  // V4-Pro, Kimi K2, and a chart without numbers (docs/anchors.md)
    INFO("row " << row);
    CHECK(rows.count(row) == 0);
  }
}

TEST_CASE("anchors: the summary counts the rows: single-step points within 2×, the median, the replay points — a point not computed is a miss") {
  const std::vector<AnchorResult> all = evaluate_anchors();
  const AnchorSummary s = summarize_anchors(all);
  int points = 0, within = 0, replay = 0, missing = 0;
  std::vector<double> logs;
  for (const AnchorResult& r : all) {
    if (r.anchor->replay) {
      ++replay;
      CHECK_FALSE(counts_toward_aim(r));
      continue;
    }
    CHECK(counts_toward_aim(r));
    ++points;
    if (!r.ok) {
      ++missing;
      logs.push_back(std::numeric_limits<double>::infinity());
      continue;
    }
    logs.push_back(std::fabs(std::log2(r.ratio)));
    if (logs.back() <= 1) ++within;
  }
  CHECK(s.points == points);
  CHECK(s.within_2x == within);
  CHECK(s.replay == replay);
  CHECK(s.not_computed == missing);
  CHECK(missing > 0);
  CHECK(points + replay == static_cast<int>(all.size()));
  CHECK(replay > 0);
  REQUIRE(points > 0);
  std::sort(logs.begin(), logs.end());
  const std::size_t n = logs.size();
  CHECK(s.median_abs_log2 == Approx(n % 2 ? logs[n / 2] : (logs[n / 2 - 1] + logs[n / 2]) / 2).epsilon(1e-12));
  const std::string text = anchor_summary_text(s);
  CHECK(text.find(std::to_string(within) + " of " + std::to_string(points) + " single-step points within 2× (" + std::to_string(missing) + " not computed, each a miss that says why), median") == 0);
  CHECK(text.find(std::to_string(replay) + " marked for the serving replay") != std::string::npos);
  // A point that stops computing moves the summary: one more miss, never one point fewer.
  std::vector<AnchorResult> broken = all;
  const auto first = std::find_if(broken.begin(), broken.end(), [](const AnchorResult& r) { return counts_toward_aim(r) && r.ok && std::fabs(std::log2(r.ratio)) <= 1; });
  REQUIRE(first != broken.end());
  first->ok = false;
  first->why = "stopped";
  const AnchorSummary b = summarize_anchors(broken);
  CHECK(b.points == s.points);
  CHECK(b.within_2x == s.within_2x - 1);
  CHECK(b.not_computed == s.not_computed + 1);
  CHECK(b.median_abs_log2 >= s.median_abs_log2);
}

TEST_CASE("anchors: the ratio is model ÷ measured, checked by hand for a decode and a prefill point") {
  const std::vector<AnchorResult> all = evaluate_anchors();
  // Qwen3-30B-A3B FP4 on one B200 at 1K/1K, maximum load: every session that fits, output tokens/s per GPU.
  {
    const AnchorResult& r = find_result(all, "q30-b200-tp1");
    REQUIRE(r.ok);
    Scenario s = with("qwen3-30b-a3b-1xb200", {{"prompt", "1024"}, {"output", "1024"}, {"prefix_hit", "0"}, {"ctx", "1536"}});
    Computed c;
    compute_values(s, c);
    CHECK(r.scenario.work.batch <= c.values[FigureId::HbmSessions]);  // capacity: no more than HBM holds
    CHECK(r.scenario.work.batch > 1);
    s.work.batch = r.scenario.work.batch;
    compute_values(s, c);
    const double tokens = c.values[FigureId::ServeTokensPerSGpu];
    CHECK(r.model == Approx(tokens).epsilon(1e-12));
    CHECK(r.ratio == Approx(tokens / 26971).epsilon(1e-12));
  }
  // DeepSeek-V3 prefill on 32 H100 (DP32, EP32), 4K prompts: 32 replicas × 4,096 tokens ÷ prefill.time ÷ 32 GPUs.
  {
    const AnchorResult& r = find_result(all, "v3-h100-prefill-4k");
    REQUIRE(r.ok);
    const Scenario s = with("deepseek-v3-8xh200", {{"gpu", "h100"}, {"gpus", "32"}, {"tp", "1"}, {"dp", "32"}, {"ep", "32"}, {"redundant", "32"},
                                                    {"engine", "sglang"}, {"prompt", "4096"}, {"prefix_hit", "0"}, {"ctx", "4096"}});
    Computed c;
    compute_values(s, c);
    const double model = 32.0 * 4096 / c.values[FigureId::PrefillTime] / 32;
    CHECK(r.model == Approx(model).epsilon(1e-12));
    CHECK(r.ratio == Approx(model / (50302.0 / 8)).epsilon(1e-12));
  }
}

TEST_CASE("anchors: the table is grouped by model family, and every family's preset exists") {
  std::set<std::string> closed;
  std::string current;
  for (const Anchor& a : anchors()) {
    INFO(a.id);
    Scenario s;
    CHECK(make_preset(a.preset, s));
    const std::string f = anchor_family(a);
    CHECK(f != "other");
    if (f != current) {
      CHECK(closed.count(f) == 0);  // a family, once left, does not come back
      if (!current.empty()) closed.insert(current);
      current = f;
    }
  }
  CHECK(closed.size() + 1 == 5);
}

TEST_CASE("anchors: InferenceX's throughput points are input + output tokens per GPU, the model's output scaled by its lengths") {
  int seen = 0;
  for (const Anchor& a : anchors()) {
    const std::string url = a.url;
    const bool dashboard = url.find("inferencex.semianalysis.com") != std::string::npos;
    if (!dashboard || a.metric == AnchorMetric::Tpot) continue;
    INFO(a.id);
    CHECK(a.metric == AnchorMetric::TotalTokensPerSGpu);
    ++seen;
    const AnchorResult r = evaluate_anchor(a);
    if (!r.ok) continue;
    Computed c;
    compute_values(r.scenario, c);
    const double k = (r.scenario.work.prompt + r.scenario.work.output) / static_cast<double>(r.scenario.work.output);
    CHECK(total_per_output(r.scenario) == Approx(k));
    CHECK(r.model == Approx(c.values[FigureId::ServeTokensPerSGpu] * k).epsilon(1e-12));
  }
  CHECK(seen >= 20);
  CHECK(std::string(anchor_metric_name(AnchorMetric::TotalTokensPerSGpu)) == "input + output tokens/s per GPU");
}

TEST_CASE("anchors: a TensorRT-LLM perf-table point runs no more sessions than trtllm-bench queues, and a bad request count is refused") {
  const std::vector<AnchorResult> all = evaluate_anchors();
  // gpt-oss-120b on 4×H100 DEP4 holds more 1K/1K sessions than the 3,000 requests the benchmark queues.
  const AnchorResult& r = find_result(all, "oss120-h100-dep4");
  REQUIRE(r.ok);
  CHECK(r.scenario.work.batch == 3000);
  Computed c;
  Scenario fit = r.scenario;
  fit.work.batch = 1;
  compute_values(fit, c);
  CHECK(c.values[FigureId::HbmSessions] > 3000);
  // Where fewer fit, the capacity decides (Llama 3.3 70B FP4 on one B200).
  const AnchorResult& llama = find_result(all, "llama70b-b200-tp1");
  REQUIRE(llama.ok);
  CHECK(llama.scenario.work.batch < 3000);
  // Every perf-table row names its request count.
  for (const AnchorResult& a : all) {
    if (std::string(a.anchor->url).find("perf-overview") == std::string::npos) continue;
    INFO(a.anchor->id);
    CHECK(std::string(a.anchor->settings).find("requests=") != std::string::npos);
  }
  Anchor bad = *r.anchor;
  for (const char* settings : {"batch=capacity&requests=0", "batch=capacity&requests=many", "batch=capacity&requests=12x"}) {
    bad.settings = settings;
    const AnchorResult b = evaluate_anchor(bad);
    INFO(settings);
    CHECK_FALSE(b.ok);
    CHECK(b.why.find("requests") != std::string::npos);
    CHECK(b.why.find("1 to 10,000,000") != std::string::npos);
  }
}

namespace {

// What a carried point's settings may change, by the category the rule names: the workload, the layout, the
// formats (every `*_fmt` key), the GPU, the engine and the counts the point's source states. A GPU the
// catalog lacks is the nearest part with its datasheet's differences over it, each quoted in `assumed`.
// Anything else (an efficiency, a latency, a host time, a cap) would be a constant set for one point.
struct AllowedKey {
  const char* key;
  const char* category;
};
constexpr AllowedKey kAllowedKeys[] = {
    {"prompt", "workload"}, {"output", "workload"}, {"prefix_hit", "workload"}, {"ctx", "workload"}, {"batch", "workload"},
    {"requests", "workload"}, {"gpus", "layout"}, {"tp", "layout"}, {"dp", "layout"}, {"ep", "layout"}, {"pp", "layout"},
    {"gpu", "GPU"}, {"hbm_gb", "GPU datasheet"}, {"hbm_tbps", "GPU datasheet"}, {"link_gbps", "GPU datasheet"}, {"engine", "engine"},
    {"spec_tokens", "stated count"}, {"redundant", "stated count"}, {"vocab", "stated count"}, {"max_pos", "stated count"},
};

// "" when every key of the point's settings is allowed, else what is wrong, naming the key.
std::string settings_problem(const Anchor& a) {
  for (const std::string_view item : split(a.settings, '&')) {
    const std::string_view key = item.substr(0, item.find('=')), value = item.substr(item.find('=') + 1);
    if (key.ends_with("_fmt")) continue;
    const auto* k = std::find_if(std::begin(kAllowedKeys), std::end(kAllowedKeys), [&](const AllowedKey& x) { return key == x.key; });
    if (k == std::end(kAllowedKeys)) {
      return std::string(a.id) + " sets " + std::string(key) + "=" + std::string(value) +
             ": a constant set for one point (a point may set only its workload, layout, formats, GPU, engine and its source's stated counts)";
    }
    double v = 0;
    if (std::string_view(k->category) == "GPU datasheet" && !(read_number(value, v) && testing::quotes_value(a.assumed, v))) {
      return std::string(a.id) + " sets " + std::string(key) + "=" + std::string(value) + " without quoting it in `assumed` as the part's datasheet";
    }
  }
  return "";
}

}  // namespace

TEST_CASE("anchors: a point's settings change only its workload, layout, formats, GPU, engine and its source's stated counts — a constant set for one point fails, naming the key") {
  for (const Anchor& a : anchors()) {
    INFO(a.id);
    CHECK(settings_problem(a) == "");
  }
  // The rule itself: an engine constant, a host time or an efficiency set on one point is named.
  Anchor bad = anchors().front();
  const std::pair<const char*, const char*> constants[] = {
      {"batch=1&ar_lat_us=10", "ar_lat_us=10"}, {"host_us=300&batch=4", "host_us=300"}, {"prompt=1024&gemm_bw_eff=0.9", "gemm_bw_eff=0.9"}, {"max_batch=64", "max_batch=64"}};
  for (const auto& [settings, key] : constants) {
    bad.settings = settings;
    const std::string why = settings_problem(bad);
    INFO(settings << " → " << why);
    CHECK(why.find(std::string("sets ") + key + ": a constant set for one point") != std::string::npos);
  }
  // A stand-in part's datasheet figure must be the one its `assumed` text quotes.
  bad = *std::find_if(anchors().begin(), anchors().end(), [](const Anchor& x) { return std::string_view(x.settings).find("hbm_gb=256") != std::string_view::npos; });
  const std::string settings = std::string(bad.settings);
  const std::string changed = settings.substr(0, settings.find("hbm_gb=256")) + "hbm_gb=300" + settings.substr(settings.find("hbm_gb=256") + 10);
  bad.settings = changed.c_str();
  CHECK(settings_problem(bad).find("sets hbm_gb=300 without quoting it") != std::string::npos);
}
