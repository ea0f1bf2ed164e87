// `tierscope validate`: every row of a measured-runs file replayed by `serve` at the row's own settings (its
// model at its formats, its GPU, engine and layout, its lengths and concurrency), the model's mean TTFT and
// TPOT against the measured ones, summed up per model × GPU × engine. A row the tool cannot express is
// counted with its reason, never dropped. Each row's result keeps what a later look-up of "the measured runs
// nearest to a setup" needs: engine, GPU, model size, layout, concurrency, lengths and both ratios.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"
#include "codec/serve_spec.h"
#include "serve/measured_runs.h"

namespace tierscope::serve {

// A model a row can be replayed with, read from a config.json (and the hf_quant_config.json beside it), or
// why it could not be read (its rows are then counted with that reason).
struct ModelEntry {
  bool ok = false;
  model::Scenario scenario;
  std::string why, reason;  // the reason in full, and the short form rows failing alike share
};
// `name` names the model (the scenario's preset becomes "config:NAME"), `where` the file in a refusal.
ModelEntry model_from_config(std::string_view config, std::string_view quant, std::string_view name, std::string_view where);
// Models by the file's model_path (`--models DIR`: the user's own config.json files).
using ModelCatalog = std::map<std::string, ModelEntry, std::less<>>;
// A model_path as the file stem its config.json takes in a folder: "org/name" → "org--name" (the publishers'
// ids with "--" for "/", as tests/data/hf_configs and the measured-runs sample name them).
std::string config_file_stem(std::string_view model_path);
// The model_paths validate knows without a config.json of the user's: the presets' models and the publishers'
// config.json files compiled in (tests/data/hf_configs). A model_path not among them is still read when its base
// checkpoint is (a quantised or instruction-tuned variant: "nvidia/Kimi-K2.5-NVFP4" is "moonshotai/Kimi-K2.5").
std::vector<std::string> known_models();

// What every row is replayed with. `model` (a loaded config.json's, or a link's model keys) replaces every
// row's model when set; else `models` gives the rows whose model_path it holds theirs, before the models validate
// knows. The row's formats still apply.
struct ValidateOptions {
  std::uint64_t seed = 1;
  const model::Scenario* model = nullptr;
  const ModelCatalog* models = nullptr;
};

// The means of TTFT's parts over the run's requests, in seconds (serve's ttft_parts).
struct TtftMeans {
  double queue = 0, wait = 0, prefill = 0, overhead = 0;
};

// One row's outcome.
struct RunResult {
  std::size_t row = 0;         // index in MeasuredFile::runs
  bool disagg = false;         // a prefill/decode-disaggregated run (its tables are apart from the aggregated ones')
  bool expressed = false;      // replayed; else `why` says what is missing
  std::string why;             // the reason in full
  std::string reason;          // the reason's short form, the same for rows that fail alike ("unknown-family qwen3_5_moe_text")
  // Where the row belongs: its model id, GPU and engine as the model names them ("h200", "vllm").
  std::string model, gpu, engine;
  // What a nearest-run look-up compares (set when expressed): the model's size, the layout, the load.
  double params = 0, active_params = 0;  // parameters in all and per token
  int gpus = 0, tp = 0, dp = 0, ep = 0, concurrency = 0, isl = 0, osl = 0;  // disaggregated: one decode worker's layout
  // Disaggregated: the decode workers (serve's instances), and the prefill pool's workers and each one's layout.
  int decode_workers = 0, prefill_workers = 0, prefill_gpus = 0, prefill_tp = 0, prefill_dp = 0, prefill_ep = 0;
  std::string handoff;         // disaggregated: the transfer engine and the link the KV crosses (serve's)
  std::string scenario;        // the replayed scenario as a share link's hash (disaggregated: a decode worker's)
  double ttft_s = 0, tpot_s = 0;                   // the replay's means
  double measured_ttft_s = 0, measured_tpot_s = 0;  // the file's
  TtftMeans ttft_parts;
  double ttft_transfer = 0, ttft_admission = 0;  // disaggregated: the KV hand-off and the decode pool's admission (means, s)
  double ttft_ratio() const { return measured_ttft_s > 0 ? ttft_s / measured_ttft_s : 0.0; }
  double tpot_ratio() const { return measured_tpot_s > 0 ? tpot_s / measured_tpot_s : 0.0; }
};

// The scenario and the benchmark a row stands for: false with `why` (and its short form) when the row
// cannot be expressed.
struct RunSetup {
  model::Scenario scenario;
  int concurrency = 0, requests = 0, input = 0, output = 0;
  double range_ratio = 0;
  // The deployment the benchmark ran: the token budget of a step per attention replica, and how prompts share
  // steps with decodes.
  int budget = 0;
  PrefillMode prefill = PrefillMode::Auto;
  // A disaggregated run (prefill = Pd): `scenario` is one decode worker, `instances` of them behind the router;
  // the prefill pool is `prefill_workers` attention replicas of `prefill_scenario` (serve's workers: a row's
  // prefill worker of attention DP d is d of them).
  int instances = 1, prefill_workers = 0;
  model::Scenario prefill_scenario;
};
bool setup_for_run(const MeasuredRun& run, const ValidateOptions& opt, RunSetup& out, std::string& why, std::string& reason);

// Replays one row.
RunResult validate_run(const MeasuredFile& file, std::size_t row, const ValidateOptions& opt);

// The rows in the order a pool of threads best takes them: the most work first (the clients' output tokens,
// concurrency × osl, which the replay's steps follow), so the threads end together. Ties in file order.
std::vector<std::size_t> replay_order(const MeasuredFile& file);

// How a set of rows fared on one metric.
struct MetricStats {
  int n = 0, within_125 = 0, within_2 = 0;
  double median_abs_log2 = 0;  // median |log₂(model ÷ measured)|
  double median_log2 = 0;      // median log₂(model ÷ measured): the signed bias
};
// One partition: its rows, the expressed ones' stats, and the others' reasons with their counts.
struct Partition {
  std::string mode;                // "agg" or "disagg" (the file's mode); empty where the partition spans both
  std::string model, gpu, engine;  // empty where the partition spans them
  int rows = 0, expressed = 0;
  MetricStats ttft, tpot;
  std::vector<std::pair<std::string, int>> cannot;  // reason, rows; most first
};
// Every partition but All keeps aggregated and disaggregated rows apart (Mode: one partition each).
enum class PartitionBy { ModelGpuEngine, EngineGpu, Engine, Mode, All };
std::vector<Partition> summarize(const std::vector<RunResult>& results, PartitionBy by);
// The most a constant per engine × GPU could do: the results with each replayed row's model figures divided by its
// engine × GPU partition's median model ÷ measured (aggregated and disaggregated rows apart, TTFT and TPOT each),
// to summarize(). What stays is the scatter inside a partition, which no constant of an engine profile (a kernel
// efficiency, a host overhead) can take out; the difference from the results as they are is the share a constant
// could. Not a correction the model applies: a bound on what calibration can reach on this file.
std::vector<RunResult> offset_removed(const std::vector<RunResult>& results);

// The report: the table per model × GPU × engine with a total (text), or one line per row (json, csv).
std::string validate_text(const std::vector<RunResult>& results, std::string_view file_name);
std::string validate_json(const std::vector<RunResult>& results, const MeasuredFile& file);
std::string validate_csv(const std::vector<RunResult>& results, const MeasuredFile& file);

}  // namespace tierscope::serve
