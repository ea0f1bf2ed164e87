// Public measured serving points carried as data, each with its source, hardware, engine and settings,
// and the model's figure for the same setup: the ratio and the gap broken down by named terms.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "roofline/figures.h"
#include "roofline/step_terms.h"

namespace tierscope::model {

enum class AnchorMetric : std::uint8_t {
  Tpot,            // time per output token, prefill interleaved (serve.tpot)
  TokensPerSGpu,   // output tokens per second per GPU, prefill interleaved (serve.tokens_per_s_gpu)
  StepTime,        // one decode step, decode-only (decode.step_time)
  DecodeTokensPerSGpu,  // output tokens per second per GPU of a decode-only pool (decode.tokens_per_s_gpu)
  PrefillTokensPerSGpu, // prompt tokens per second per GPU: dp replicas each prefilling one prompt (dp × prompt ÷ prefill.time ÷ gpus)
  // Input + output tokens per second per GPU, prefill interleaved: the InferenceX dashboard's throughput
  // (serve.tokens_per_s_gpu × (prompt + output) ÷ output; total_per_output below).
  TotalTokensPerSGpu,
  Count
};
const char* anchor_metric_name(AnchorMetric m);  // "TPOT", "tokens/s per GPU", ...
FigureId anchor_figure(AnchorMetric m);          // the figure the metric reads (prefill: prefill.time, which it divides)
const char* anchor_unit(AnchorMetric m);         // the metric's unit ("s", "tokens/s")
bool anchor_is_decode(AnchorMetric m);           // whether the metric is a decode step's (prefill is not)
// Input + output tokens per output token of a scenario's requests ((prompt + output) ÷ output): what turns
// output tokens/s into the total a dashboard counting both plots.
double total_per_output(const Scenario& s);

struct Anchor {
  const char* id;        // stable key, e.g. "v41-gb300-c1"
  const char* what;      // model, hardware, engine and load in a few words
  const char* preset;    // the preset the setup starts from
  const char* settings;  // "key=value" pairs separated by '&', applied in order as a person would
                         // (batch=capacity: the most sessions that fit; requests=N: a benchmark of N requests
                         // queued at once, so batch=capacity runs at most N)
  const char* assumed;   // which settings the source does not state (empty: none)
  AnchorMetric metric;
  double measured;       // in the metric's base unit
  Provenance provenance; // Measured (third party) or Engine (an engine team's own benchmark)
  const char* date;
  const char* url;
  int row = 0;          // the row of FACTS-parallel §6 it carries (0: another fact-sheet section, named in `what`)
  bool replay = false;  // needs the serving replay (issue 22): the metric is a point of a serving curve, a trace
                        // or a benchmark with arrivals, which one step at a fixed batch does not reproduce;
                        // carried and evaluated, but kept out of the summary's aim
  double per_user = 0;  // a serving curve's point at this output tok/s per user (0: at the settings' concurrency)
  bool disagg = false;  // the source ran prefill and decode on pools of their own (PD): replayed with --prefill pd
  // A curve point's source space, quoted from the benchmark's own configuration: the layouts and
  // concurrencies its "best configuration" is the best of, and how it draws lengths
  // ("layouts=tp1,tp8+mtp;conc=4-64;lengths=0.8", serve::parse_source_space). Null: every layout of the
  // GPUs, every concurrency they hold, lengths ±20 %.
  const char* space = nullptr;
};
std::span<const Anchor> anchors();

// The model family an anchor belongs to (from its preset): "DeepSeek V4.1", "DeepSeek-V3 / R1", "Llama",
// "gpt-oss", "Qwen3". anchors() lists them grouped by family.
const char* anchor_family(const Anchor& a);

struct AnchorResult {
  const Anchor* anchor = nullptr;
  Scenario scenario;
  bool ok = false;        // false: the settings did not apply or the setup cannot run
  std::string why;        // when not ok
  double model = 0;       // the model's value of the metric
  double ratio = 0;       // model / measured
  double step_model = 0, step_measured = 0;  // the same, as seconds per decode step
  std::vector<StepTerm> terms;  // the model's step, term by term (they sum to step_model)
  // A benchmark of this many requests queued at once (the settings' requests=N, as trtllm-bench's offline
  // run): also replayed whole, ramp and drain included (0: not such a benchmark).
  std::int32_t offline_requests = 0;
};

// Evaluates one anchor (or all) under the shared engine constants; no per-point tuning.
// `model` (a loaded config.json's): evaluates the anchor with that model in place of its preset's; the
// anchor's own settings (formats among them) still apply.
AnchorResult evaluate_anchor(const Anchor& a, const ModelArch* model = nullptr);
std::vector<AnchorResult> evaluate_anchors();

// Whether an evaluated anchor counts toward the single-step aim: it does not need the serving replay. One that
// counts and cannot be computed is a miss.
bool counts_toward_aim(const AnchorResult& r);

// The summary line's numbers: of the single-step points (`points`), how many are within 2× (`within_2x`) and
// the median |log₂(model ÷ measured)|, a point that could not be computed counting as a miss (outside 2×,
// beyond every ratio in the median; `not_computed` of them); the points marked for the serving replay.
struct AnchorSummary {
  int points = 0, within_2x = 0, replay = 0, not_computed = 0;
  double median_abs_log2 = 0;
};
AnchorSummary summarize_anchors(const std::vector<AnchorResult>& results);
std::string anchor_summary_text(const AnchorSummary& s);  // "N of M single-step points within 2×, median …"

}  // namespace tierscope::model
