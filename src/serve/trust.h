// The trust band beside a served figure: how the model fared on the measured runs nearest to the setup served
// (same engine and GPU kind where the shipped file has such runs, then nearest model size, layout, load and
// lengths), as model ÷ measured over those runs for mean TTFT, mean TPOT and output tokens per second per GPU.
// The runs and their ratios are `validate`'s per-row results on the shipped file under the model as built
// (data/silicon/validated-runs.csv, compiled in; a test holds it to what validate computes now). Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "base/json_writer.h"
#include "model/scenario.h"
#include "serve/serve.h"
#include "serve/validate.h"

namespace tierscope::serve {

// One replayed row of a measured-runs file with the model's values for it (validate's RunResult, compact).
struct ValidatedRun {
  std::string id;            // the run's own name in the measured file
  std::string model;         // the publisher's model id
  std::string gpu, engine;   // as the model's keys name them ("h100", "vllm")
  int isl = 0, osl = 0, concurrency = 0, gpus = 0, tp = 0, dp = 0, ep = 0;
  double params = 0, active_params = 0;  // parameters in all and per token
  double measured_ttft_s = 0, model_ttft_s = 0, measured_tpot_s = 0, model_tpot_s = 0;
};

// The three figures a band stands beside.
enum class TrustFigure { Ttft, Tpot, Throughput, Count };
constexpr TrustFigure kTrustFigures[] = {TrustFigure::Ttft, TrustFigure::Tpot, TrustFigure::Throughput};
const char* trust_figure_key(TrustFigure f);    // "ttft", "tpot", "output_tokens_per_s_gpu" (serve --format json's names)
const char* trust_figure_label(TrustFigure f);  // "mean TTFT", "mean TPOT", "output tokens/s per GPU"
bool trust_figure_from_key(std::string_view key, TrustFigure& out);
std::string trust_figure_keys_text();           // "ttft, tpot, throughput" (the --trust-runs values)

// A run's figure as measured and as modelled. Output tokens per second per GPU of a closed loop of
// `concurrency` clients, each request `osl` tokens: concurrency × osl ÷ (TTFT + (osl − 1) × TPOT) ÷ GPUs
// (Little's law over the loop; the file gives no throughput, so both sides are read from their means).
double measured_value(const ValidatedRun& r, TrustFigure f);
double model_value(const ValidatedRun& r, TrustFigure f);
double model_ratio(const ValidatedRun& r, TrustFigure f);  // model ÷ measured

struct ValidatedRuns {
  std::vector<ValidatedRun> runs;
};

// validate's results as the compact file (one line per replayed row; numbers to 7 significant digits), and
// that file read back. A file without a needed column or with a bad value is refused, naming the line.
std::string validated_runs_csv(const std::vector<RunResult>& results, const MeasuredFile& file);
bool read_validated_runs(std::string_view csv, ValidatedRuns& out, model::Errors& errors);
// The shipped file's, compiled in and read once.
const ValidatedRuns& shipped_validated_runs();

// What "near" compares of a served setup (per instance).
struct TrustQuery {
  std::string engine, gpu;  // the model's keys
  double params = 0, active_params = 0;
  int gpus = 0, dp = 1;
  double concurrency = 0, isl = 0, osl = 0;
};
// A served run's query: the scenario's engine, GPU, parameter counts and layout, the load per instance (the
// clients of a closed loop, else the mean requests in flight) and the mean lengths of its completed requests.
TrustQuery trust_query(const model::Scenario& s, const ServeSpec& spec, const ServeResult& r);

// "Near", as docs/validation.md states it. The distance between a query and a run adds, in doublings:
// 1 per doubling of the parameter count and 1 per doubling of the active count; 1 per doubling of the GPUs
// of an instance and 1 when one side runs data-parallel attention and the other does not; 1 per doubling of
// the load; 0.5 per doubling of the prompt and 0.5 per doubling of the output. A run is near when it has the
// query's engine and GPU kind and lies within kTrustMaxDistance; when fewer than kTrustMinRuns are, runs of the
// same engine on a GPU of the same generation join them; when still fewer, none is near. The band is read
// over the kTrustNearest nearest (ties in file order).
constexpr double kTrustMaxDistance = 3.0;
constexpr int kTrustMinRuns = 4;
constexpr int kTrustNearest = 12;
constexpr double kTrustLowPercentile = 0.10, kTrustHighPercentile = 0.90;
double trust_distance(const TrustQuery& q, const ValidatedRun& r);

// model ÷ measured over the near runs: the 10th and 90th percentiles (linear between order statistics) and
// the median.
struct TrustBand {
  double lo = 0, hi = 0, median = 0;
};
struct Trust {
  const ValidatedRuns* table = nullptr;  // the runs it was read over
  bool near = false;
  std::vector<std::size_t> runs;   // rows of the table, nearest first
  std::vector<double> distance;    // each one's distance
  bool widened = false;            // runs of another GPU of the generation joined
  int reach = 0;                   // runs within reach of the query (the most that could join)
  std::string scope;               // "vllm on h100" or "vllm on h100, h200"
  std::string why;                 // when none is near: what was looked for
  TrustBand bands[static_cast<int>(TrustFigure::Count)];
  const TrustBand& band(TrustFigure f) const { return bands[static_cast<int>(f)]; }
};
Trust trust_for(const ValidatedRuns& table, const TrustQuery& q);
// The band of a served run against the shipped table.
Trust serve_trust(const model::Scenario& s, const ServeSpec& spec, const ServeResult& r);

// The words beside a figure: "measured runs like this: model ÷ measured 0.90–1.20 (12 runs of vllm on h100)",
// or why none is near.
std::string trust_text(const Trust& t, TrustFigure f);
// The runs behind a figure's band as a table, nearest first (model, GPU, engine, lengths, concurrency,
// layout, measured, modelled, ratio).
std::string trust_runs_text(const Trust& t, TrustFigure f);
// The `trust` member of serve --format json: per figure {near, lo, hi, median, runs, ids, text}.
void trust_json(model::JsonWriter& w, const Trust& t);
// The three figures as a page shows them beside their bands: each one's label and value as `serve` prints
// them ("Mean TTFT (ms)", "123.45"), and the band's words.
struct TrustRow {
  TrustFigure figure;
  std::string label, value, text;
};
std::vector<TrustRow> trust_rows(const ServeResult& r, const Trust& t);
// The runs behind the bands for the page's tables: [{id, model, gpu, engine, isl, osl, concurrency, gpus,
// tp, dp, ep, distance, figures: {ttft: {measured, model, ratio}, …}}], numbers as the runs' text shows them.
void trust_runs_json(model::JsonWriter& w, const Trust& t);

}  // namespace tierscope::serve
