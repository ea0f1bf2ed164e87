// `tierscope serve`: a deterministic, seeded replay of a serving benchmark on one instance or a node of
// instances. Clients run closed-loop at a concurrency or arrive open-loop at a rate; an engine scheduler
// batches them step by step (a token budget, chunked prefill mixed into decode steps or prefill-first
// steps, the running-batch cap, KV admission against HBM); every step is timed by the step model for its
// mix (roofline/step_mix.h). The summary reads like the engines' own benchmark output.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "base/json_writer.h"
#include "charts/charts.h"
#include "codec/serve_spec.h"
#include "model/scenario.h"
#include "serve/serve_prefix.h"
#include "serve/stats.h"

namespace tierscope::serve {

// How an engine admits a waiting request against the KV it has left, and what it does when a step's tokens do
// not fit. Reserve: the request's whole prompt + output is set aside when it is admitted, so a running request
// never runs out (TensorRT-LLM's GUARANTEED_NO_EVICT). OnDemand: it is admitted when its prompt fits now; when a
// step's new tokens do not fit, the newest running request is preempted, its KV freed, and it is recomputed
// (prompt and tokens so far) when it is admitted again (vLLM). Estimated: it is admitted when its prompt + output
// fit beside the running requests' remaining outputs times an estimated ratio that decays step by step; a
// decode that does not fit retracts the requests with the fewest tokens out (recomputed later) and raises the
// ratio again (SGLang's new_token_ratio).
enum class Admission { Reserve, OnDemand, Estimated };

// SGLang's estimate of the share of their remaining output the running requests will still write: it starts at
// `init`, falls by (init − min) / decay_steps per decode step, and after a retraction is reset from the requests
// that stay: (their tokens out + retract_steps each) ÷ their outputs. Outputs count at most `clip` tokens.
struct TokenRatio {
  double init = 0, min = 0, decay_steps = 1;
  int retract_steps = 0, clip = 0;
};

// An engine's scheduler defaults, each with its source (or "assumed: …" with the reason).
struct SchedulerDefaults {
  int budget = 0;
  PrefillMode prefill = PrefillMode::Chunked;
  const char* source = "";
  // The engine's own work per request outside the GPU's steps: a fixed part and one per prompt token.
  double request_s = 0, request_token_s = 0;
  const char* request_source = "";
  Admission admission = Admission::Reserve;
  TokenRatio ratio;                // Estimated only
  const char* admission_text = "";  // the rule in words, as the summary prints it
  const char* admission_source = "";
};
const SchedulerDefaults& scheduler_defaults(model::EngineKind e);
// The engine's step budget on this hardware: its defaults' budget, or where the engine sizes it by the GPU's
// memory (SGLang's chunked_prefill_size), the size it picks for that GPU.
int default_budget(model::EngineKind e, const model::Hardware& hw);

// One scheduled step as the ledger shows it.
struct StepRecord {
  std::uint64_t index = 0;              // the run's step, counted from 0 over all instances
  double start = 0, seconds = 0;
  int instance = 0;
  std::vector<std::uint32_t> decodes;   // request ids decoding
  std::vector<std::uint32_t> prefills;  // request ids with a prompt chunk
  std::vector<std::uint32_t> chunk_tokens;
  double decode_s = 0, prefill_s = 0;
  double ctx = 0;                       // mean context of the decodes
  // The instance's KV when the step starts, in tokens: written (prompts read in so far and tokens
  // generated) and reserved (each admitted request's prompt + output).
  double kv_written = 0, kv_reserved = 0;
  std::string bound;                    // the decode step's bound, or the prompt pass's
  // The requests whose first token this step yields, with their TTFT's parts (they add up to its TTFT).
  struct FirstToken {
    std::uint32_t id = 0;
    double ttft = 0, overhead = 0, wait = 0, queue = 0, prefill = 0;
    double transfer = 0, admission = 0;  // disaggregated: the KV's hand-off, the decode pool's admission
  };
  std::vector<FirstToken> first_tokens;
};

// One way to split a GPU count (xPyD): x prefill workers and y decode instances, or (x = 0) y aggregated
// instances on the same GPUs, and the goodput it reaches (find_xpyd).
struct XpydSplit {
  int prefill_workers = 0, decode_instances = 0;
  double gpus = 0;          // the split's GPUs: x × a worker's + y × an instance's
  double goodput_rate = 0;  // requests/s at the attainment searched
  double per_gpu = 0;       // goodput_rate ÷ gpus
  int runs = 0;             // the replays its search ran
};

struct ServeResult {
  // Set-up as resolved.
  std::string engine, mode, prefill, lengths, admission;
  int concurrency = 0, instances = 1, budget = 0, max_batch = 0, gpus_per_instance = 1;
  double rate = 0, kv_tokens = 0;  // KV capacity of one instance, tokens
  double prefill_gpus = 0;         // pd: the prefill pool's GPUs that kept up with the prompts (0 otherwise)
  int prefill_workers = 0;         // pd: the fixed prefill pool's workers (0: sized to keep up)
  std::string handoff;             // pd: the transfer engine and link the KV crosses
  // SLO attainment: the share of completed requests whose TTFT and TPOT met the objectives (-1: none given).
  double slo_ttft = 0, slo_itl = 0, slo_attainment = -1;
  // Goodput: the highest Poisson rate (requests/s) at which `goodput_at` of the requests meet the objectives
  // (-1: not searched), and the replays the search ran.
  double goodput_at = 0, goodput_rate = -1;
  int goodput_runs = 0;
  // xPyD (--xpyd GPUS): each full split of the GPUs and the aggregated instances on them, with its goodput.
  int xpyd_gpus = 0;
  std::vector<XpydSplit> xpyd;
  double accept_len = 1;           // mean tokens a decode step yields per session
  std::uint64_t seed = 1;
  int steps_from = 0;              // the run's step the trace starts at
  // Outcome.
  std::uint64_t requests = 0, completed = 0, refused = 0, steps = 0, evaluations = 0;
  std::string refused_why;  // the first refusal's reason
  double duration = 0, input_tokens = 0, output_tokens = 0;
  double request_rate = 0, output_tps = 0, output_tps_gpu = 0, total_tps = 0, tps_user = 0;
  double mean_in_flight = 0;  // time-average of requests in the system
  double max_batch_seen = 0;
  Summary ttft, tpot, itl, e2e, queue;
  // TTFT in the parts an engine makes it of, per request (they add up to its TTFT): the engine's own work
  // before the scheduler sees the request and after its first token (tokenise, schedule, first sampling,
  // stream); the wait for the step in flight when it arrived; the admission queue behind the running-batch
  // cap and KV; the prefill from admission to the step that yields its first token. Disaggregated (pd): the
  // overhead both workers' front ends where the decode request follows the prefill's response, the queue the
  // prefill pool's, the prefill one pass, then the KV's hand-off after the pass (transfer) and the decode
  // pool's admission until the first token streams (admission).
  struct TtftParts {
    Summary overhead, wait, queue, prefill, transfer, admission;
  } ttft_parts;
  // TTFT, TPOT, ITL and E2E at each of `percentiles` (0, 2, …, 100 %), for the latency chart; a metric no
  // request measured is empty.
  std::vector<double> percentiles;
  std::array<std::vector<double>, 4> by_percentile;
  std::vector<StepRecord> trace;
  // A shared-prefix workload: the prefix cache's tiers, its hits per tier and its reloads (off: prompts share nothing).
  PrefixReport prefix;
};
constexpr int kPercentileSteps = 50;

// Checks the spec against the scenario and runs it. False with errors naming each bad field (flags, or the
// scenario when it cannot run at all); a request that can never fit is refused and counted, with its reason.
// `prefill`: with --prefill pd, the prefill workers' own scenario (their layout; the model and GPU as `s`'s),
// each worker one of its attention replicas; null: replicas of `s`'s layout.
bool run_serve(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors, const model::Scenario* prefill = nullptr);

// The goodput of `spec`'s deployment: the highest Poisson rate at which a share `spec.goodput` of the requests
// meets its objectives, found by doubling then bisecting the rate (each a replay of spec.requests, or 400,
// requests); written into `out`'s goodput fields. False with errors when the spec names no objective.
bool find_goodput(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors);
// The xPyD search over spec.xpyd GPUs (xpyd.cpp): every split into x prefill workers and y decode instances
// that leaves no room for another, and the aggregated instances on the same GPUs, each with its goodput at
// spec.goodput; written into `out`'s xpyd fields. False with errors when there is no goodput to compare by or
// the GPUs hold no split (the message names a worker's and an instance's GPUs).
bool find_xpyd(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors);
// The splits as the text report's section (empty without a search) and as the JSON's "xpyd" object.
std::string xpyd_text(const ServeResult& r);
void xpyd_json(model::JsonWriter& w, const ServeResult& r);

// The same replay run in slices, so a page can run it between frames or messages, show its progress and
// stop it: start, then advance until it says done; the result is then what run_serve gives, byte for byte.
class ServeRun {
 public:
  ServeRun();
  ~ServeRun();
  ServeRun(ServeRun&&) noexcept;
  ServeRun& operator=(ServeRun&&) noexcept;
  // False with errors as run_serve gives them (nothing is then running).
  bool start(const model::Scenario& s, const ServeSpec& spec, model::Errors& errors, const model::Scenario* prefill = nullptr);
  // Runs up to `events` more events (a step's end or an arrival); true once the replay is done.
  bool advance(std::uint64_t events);
  bool started() const;
  bool done() const;
  double progress() const;         // requests finished or refused, as a share of all
  std::uint64_t requests() const;  // the run's requests in all
  const ServeResult& result() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// TTFT, TPOT and E2E by percentile (y, log) over 0–100 % of requests (x): the spread of one run.
void latency_chart(const ServeResult& r, model::Chart& out);

// A spec that names neither a concurrency nor a rate runs the scenario's own batch as a closed loop's
// clients: what the page's Serve panel and `tierscope serve` do when given no load.
void default_load(ServeSpec& spec, const model::Scenario& s);

// The summary as the engines' benchmark tools print it, and as JSON and CSV. With `trust` (serve/trust.h), the
// band of the nearest measured runs beside TTFT, TPOT and output tokens per second per GPU, and in the JSON.
struct Trust;
std::string serve_text(const ServeResult& r, const Trust* trust = nullptr);
// Its parts, for a page that shows them as tables: the set-up line, the throughput rows (label, value as
// printed), each latency metric's row in milliseconds, and a scheduled step in words.
struct ReportRow {
  std::string label, value;
  const char* key = "";  // the figure's name in serve --format json, where a trust band stands beside it
};
struct LatencyRow {
  std::string key, name, abbrev;  // "ttft", "Time to First Token", "TTFT"
  std::string mean_ms, median_ms, p90_ms, p99_ms;
};
std::string serve_setup_text(const ServeResult& r);
std::vector<ReportRow> serve_rows(const ServeResult& r);
std::vector<LatencyRow> serve_latency_rows(const ServeResult& r);
std::string step_text(const StepRecord& st);
// The heading over the trace's steps: the first steps, or the steps from the one the spec named.
std::string steps_title(const ServeResult& r);
std::string serve_json(const ServeResult& r, const Trust* trust = nullptr);
std::string serve_csv(const ServeResult& r);

}  // namespace tierscope::serve
