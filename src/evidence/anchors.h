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
  Count
};
const char* anchor_metric_name(AnchorMetric m);  // "TPOT", "tokens/s per GPU", ...
FigureId anchor_figure(AnchorMetric m);

struct Anchor {
  const char* id;        // stable key, e.g. "v41-gb300-c1"
  const char* what;      // model, hardware, engine and load in a few words
  const char* preset;    // the preset the setup starts from
  const char* settings;  // "key=value" pairs separated by '&', applied in order as a person would
                         // (batch=capacity: the most sessions that fit)
  const char* assumed;   // which settings the source does not state (empty: none)
  AnchorMetric metric;
  double measured;       // in the metric's base unit
  Provenance provenance; // Measured (third party) or Engine (an engine team's own benchmark)
  const char* date;
  const char* url;
};
std::span<const Anchor> anchors();

struct AnchorResult {
  const Anchor* anchor = nullptr;
  Scenario scenario;
  bool ok = false;        // false: the settings did not apply or the setup cannot run
  std::string why;        // when not ok
  double model = 0;       // the model's value of the metric
  double ratio = 0;       // model / measured
  double step_model = 0, step_measured = 0;  // the same, as seconds per decode step
  std::vector<StepTerm> terms;  // the model's step, term by term (they sum to step_model)
};

// Evaluates one anchor (or all) under the shared engine constants; no per-point tuning.
AnchorResult evaluate_anchor(const Anchor& a);
std::vector<AnchorResult> evaluate_anchors();

}  // namespace tierscope::model
