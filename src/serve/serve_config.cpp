// The serve flags (one parser for the command line and the page) and each engine's scheduler defaults.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "serve/serve.h"

namespace tierscope::serve {

using model::ErrorCode;
using model::make_error;

namespace {

bool to_number(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64) return false;
  char buf[72];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  char* end = nullptr;
  v = std::strtod(buf, &end);
  return end == buf + s.size() && std::isfinite(v);
}

// An integer flag within [lo, hi].
bool int_flag(std::string_view flag, std::string_view value, long long lo, long long hi, long long& out, model::Error& err) {
  double v = 0;
  if (!to_number(value, v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    err = make_error(ErrorCode::OutOfRange, flag, value, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return false;
  }
  out = static_cast<long long>(v);
  return true;
}

bool real_flag(std::string_view flag, std::string_view value, double lo, double hi, bool lo_open, double& out, const char* allowed,
               model::Error& err) {
  double v = 0;
  if (!to_number(value, v) || v < lo || v > hi || (lo_open && v == lo)) {
    err = make_error(ErrorCode::OutOfRange, flag, value, allowed);
    return false;
  }
  out = v;
  return true;
}

constexpr const char* kFlags[] = {"--concurrency", "--rate",   "--requests", "--input",     "--output", "--lengths", "--range-ratio",
                                  "--len-sigma",   "--budget", "--prefill",  "--instances", "--steps",  "--seed"};

}  // namespace

const char* lengths_name(Lengths l) {
  switch (l) {
    case Lengths::Fixed: return "fixed";
    case Lengths::Random: return "random";
    case Lengths::Sharegpt: return "sharegpt";
    case Lengths::Trace: return "trace";
    case Lengths::Count: break;
  }
  return "";
}

const char* prefill_mode_name(PrefillMode m) {
  switch (m) {
    case PrefillMode::Auto: return "auto";
    case PrefillMode::Chunked: return "chunked";
    case PrefillMode::First: return "first";
    case PrefillMode::None: return "none";
    case PrefillMode::Count: break;
  }
  return "";
}

bool is_serve_flag(std::string_view flag) {
  for (const char* f : kFlags)
    if (flag == f) return true;
  return false;
}

const char* serve_flags_text() {
  return "  --concurrency N      serve: clients in a closed loop (1 to 100000)\n"
         "  --rate R             serve: Poisson arrivals per second instead (above 0, at most 1e6)\n"
         "  --requests N         serve: requests to run (1 to 10000000; default 10 × concurrency, at least 100)\n"
         "  --input N            serve: mean prompt tokens (default: the scenario's prompt)\n"
         "  --output N           serve: mean output tokens (default: the scenario's output)\n"
         "  --lengths KIND       serve: fixed, random (--range-ratio), sharegpt (lognormal, --len-sigma), trace (--trace)\n"
         "  --range-ratio R      serve: random lengths uniform on L × (1 ± R), 0 to 1 (below 1)\n"
         "  --len-sigma S        serve: sharegpt lengths' σ of the log, 0 to 3\n"
         "  --budget N           serve: tokens one step schedules (1 to 1048576; default: the engine's)\n"
         "  --prefill MODE       serve: chunked (prompt chunks ride decode steps), first (prefill steps alone), none (a\n"
         "                       decode pool: prompts arrive cached), auto (the engine's default)\n"
         "  --instances N        serve: identical instances behind a least-outstanding router (1 to 64)\n"
         "  --steps N            serve: the first N scheduled steps in the output (0 to 10000)\n";
}

bool set_serve_flag(std::string_view flag, std::string_view value, ServeSpec& spec, model::Error& err) {
  long long n = 0;
  if (flag == "--concurrency") {
    if (!int_flag(flag, value, 1, 100000, n, err)) return false;
    spec.concurrency = static_cast<int>(n);
  } else if (flag == "--rate") {
    if (!real_flag(flag, value, 0, 1e6, true, spec.rate, "requests per second above 0, at most 1000000", err)) return false;
  } else if (flag == "--requests") {
    if (!int_flag(flag, value, 1, 10000000, n, err)) return false;
    spec.requests = static_cast<int>(n);
  } else if (flag == "--input" || flag == "--output") {
    if (!int_flag(flag, value, flag == "--input" ? 1 : 1, 16777216, n, err)) return false;
    (flag == "--input" ? spec.input : spec.output) = static_cast<int>(n);
  } else if (flag == "--lengths") {
    if (value == "fixed") spec.lengths = Lengths::Fixed;
    else if (value == "random") spec.lengths = Lengths::Random;
    else if (value == "sharegpt") spec.lengths = Lengths::Sharegpt;
    else if (value == "trace") spec.lengths = Lengths::Trace;
    else {
      err = make_error(ErrorCode::BadEnum, flag, value, "fixed, random, sharegpt, trace");
      return false;
    }
  } else if (flag == "--range-ratio") {
    if (!real_flag(flag, value, 0, 1, false, spec.range_ratio, "a share from 0 to below 1", err)) return false;
    if (spec.range_ratio >= 1) {
      err = make_error(ErrorCode::OutOfRange, flag, value, "a share from 0 to below 1");
      return false;
    }
  } else if (flag == "--len-sigma") {
    if (!real_flag(flag, value, 0, 3, false, spec.len_sigma, "0 to 3", err)) return false;
  } else if (flag == "--budget") {
    if (!int_flag(flag, value, 1, 1048576, n, err)) return false;
    spec.budget = static_cast<int>(n);
  } else if (flag == "--prefill") {
    if (value == "chunked") spec.prefill = PrefillMode::Chunked;
    else if (value == "first") spec.prefill = PrefillMode::First;
    else if (value == "auto") spec.prefill = PrefillMode::Auto;
    else if (value == "none") spec.prefill = PrefillMode::None;
    else {
      err = make_error(ErrorCode::BadEnum, flag, value, "chunked, first, none, auto");
      return false;
    }
  } else if (flag == "--instances") {
    if (!int_flag(flag, value, 1, 64, n, err)) return false;
    spec.instances = static_cast<int>(n);
  } else if (flag == "--steps") {
    if (!int_flag(flag, value, 0, 10000, n, err)) return false;
    spec.steps = static_cast<int>(n);
  } else if (flag == "--seed") {
    if (!int_flag(flag, value, 0, 2147483647, n, err)) return false;
    spec.seed = static_cast<std::uint64_t>(n);
  } else {
    err = make_error(ErrorCode::UnknownKey, "flag", flag, "a serve flag: --concurrency, --rate, --requests, --input, --output, --lengths, "
                                                         "--range-ratio, --len-sigma, --budget, --prefill, --instances, --steps, --seed");
    return false;
  }
  return true;
}

const SchedulerDefaults& scheduler_defaults(model::EngineKind e) {
  // vLLM V1 schedules decodes first, then fills the step's token budget with prompt chunks (chunked prefill
  // on by default); the budget, max_num_batched_tokens, is set per usage context by
  // EngineArgs.create_engine_config (https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/).
  static const SchedulerDefaults kVllm{8192, PrefillMode::Chunked,
                                       "vLLM V1 mixes prompt chunks into decode steps (chunked prefill on by default, "
                                       "https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/); budget assumed 8192, the OpenAI "
                                       "server's max_num_batched_tokens on 80 GB-class GPUs (the config sets it per usage context)"};
  // SGLang runs a prefill batch on its own unless --enable-mixed-chunk is set (off by default).
  static const SchedulerDefaults kSglang{8192, PrefillMode::First,
                                         "SGLang schedules prefill batches apart from decode unless --enable-mixed-chunk is set "
                                         "(https://docs.sglang.ai/advanced_features/server_arguments.html); budget assumed 8192, its "
                                         "chunked_prefill_size on 80 GB-class GPUs (it follows GPU memory)"};
  // TensorRT-LLM's in-flight batching schedules context and generation requests in one step under max_num_tokens.
  static const SchedulerDefaults kTrt{8192, PrefillMode::Chunked,
                                      "TensorRT-LLM's in-flight batching runs context and generation requests in the same step under "
                                      "max_num_tokens (https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/"
                                      "tuning-max-batch-size-and-max-num-tokens.html); 8192 assumed, the LLM API's default"};
  // DeepSeek's own system separates prefill from decode (its inference-system note): prefill-first here.
  static const SchedulerDefaults kDs{8192, PrefillMode::First,
                                     "assumed: DeepSeek's inference system serves prefill apart from decode "
                                     "(https://github.com/deepseek-ai/open-infra-index, day 6); on one instance that is "
                                     "prefill-first steps; budget 8192 as the other engines"};
  switch (e) {
    case model::EngineKind::Vllm: return kVllm;
    case model::EngineKind::Sglang: return kSglang;
    case model::EngineKind::Trtllm: return kTrt;
    case model::EngineKind::Deepseek:
    case model::EngineKind::Count: break;
  }
  return kDs;
}

}  // namespace tierscope::serve
