// `tierscope serve`: a deterministic, seeded replay of a serving benchmark on one instance or a node of
// instances. Clients run closed-loop at a concurrency or arrive open-loop at a rate; an engine scheduler
// batches them step by step (a token budget, chunked prefill mixed into decode steps or prefill-first
// steps, the running-batch cap, KV admission against HBM); every step is timed by the step model for its
// mix (roofline/step_mix.h). The summary reads like the engines' own benchmark output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"
#include "serve/stats.h"

namespace tierscope::serve {

enum class Lengths : std::uint8_t { Fixed, Random, Sharegpt, Trace, Count };
// Auto: the engine's default. None: a decode pool of a disaggregated deployment (prompts arrive cached, the
// first token already out).
enum class PrefillMode : std::uint8_t { Auto, Chunked, First, None, Count };
const char* lengths_name(Lengths l);       // "fixed", "random", "sharegpt", "trace"
const char* prefill_mode_name(PrefillMode m);  // "auto", "chunked", "first", "none"

// What a person sets beside the scenario: every field has a `serve` flag of the same name (serve_flags()).
struct ServeSpec {
  int concurrency = 0;        // closed loop: clients, each sending its next request when the last ends
  double rate = 0;            // open loop: Poisson arrivals per second (used when concurrency is 0)
  int requests = 0;           // 0: 10 × concurrency (at least 100), or 1000 at a rate
  int input = 0, output = 0;  // mean lengths; 0: the scenario's prompt and output
  Lengths lengths = Lengths::Fixed;
  double range_ratio = 0;     // random: uniform on [L × (1 − r), L × (1 + r)] (the engines' random dataset)
  double len_sigma = 1.0;     // sharegpt: σ of the log of both lengths
  int budget = 0;             // tokens one step schedules (decodes and prefill chunks); 0: the engine's
  PrefillMode prefill = PrefillMode::Auto;
  int instances = 1;          // identical instances behind a least-outstanding router
  int steps = 0;              // scheduled steps kept for the trace (the first ones)
  std::uint64_t seed = 1;
  // From a recorded trace (Lengths::Trace): each request's input and output tokens, in order.
  std::vector<std::uint32_t> trace_input, trace_output;
};

// One flag: "--concurrency", "128". False with `err` naming the flag, the value and what is allowed.
bool set_serve_flag(std::string_view flag, std::string_view value, ServeSpec& spec, model::Error& err);
bool is_serve_flag(std::string_view flag);
const char* serve_flags_text();  // the flags for the CLI's help, one per line

// An engine's scheduler defaults, each with its source (or "assumed: …" with the reason).
struct SchedulerDefaults {
  int budget = 0;
  PrefillMode prefill = PrefillMode::Chunked;
  const char* source = "";
};
const SchedulerDefaults& scheduler_defaults(model::EngineKind e);

// One scheduled step as the ledger shows it.
struct StepRecord {
  double start = 0, seconds = 0;
  int instance = 0;
  std::vector<std::uint32_t> decodes;   // request ids decoding
  std::vector<std::uint32_t> prefills;  // request ids with a prompt chunk
  std::vector<std::uint32_t> chunk_tokens;
  double decode_s = 0, prefill_s = 0;
  double ctx = 0;                       // mean context of the decodes
  std::string bound;                    // the decode step's bound, or the prompt pass's
};

struct ServeResult {
  // Set-up as resolved.
  std::string engine, mode, prefill, lengths, admission;
  int concurrency = 0, instances = 1, budget = 0, max_batch = 0, gpus_per_instance = 1;
  double rate = 0, kv_tokens = 0;  // KV capacity of one instance, tokens
  double accept_len = 1;           // mean tokens a decode step yields per session
  std::uint64_t seed = 1;
  // Outcome.
  std::uint64_t requests = 0, completed = 0, refused = 0, steps = 0, evaluations = 0;
  std::string refused_why;  // the first refusal's reason
  double duration = 0, input_tokens = 0, output_tokens = 0;
  double request_rate = 0, output_tps = 0, output_tps_gpu = 0, total_tps = 0, tps_user = 0;
  double mean_in_flight = 0;  // time-average of requests in the system
  double max_batch_seen = 0;
  Summary ttft, tpot, itl, e2e, queue;
  std::vector<StepRecord> trace;
};

// Checks the spec against the scenario and runs it. False with errors naming each bad field (flags, or the
// scenario when it cannot run at all); a request that can never fit is refused and counted, with its reason.
bool run_serve(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors);

// The summary as the engines' benchmark tools print it, and as JSON and CSV.
std::string serve_text(const ServeResult& r);
std::string serve_json(const ServeResult& r);
std::string serve_csv(const ServeResult& r);

}  // namespace tierscope::serve
