// Each engine's scheduler defaults, with their sources.

#include "serve/serve.h"

namespace tierscope::serve {

namespace {
// Every engine's front end per request, before its scheduler sees it and after its first token: HTTP, the
// prompt's tokenisation, the request's scheduling, the first token's sampling and streaming. One process
// does it for every request (vLLM's API server, SGLang's tokenizer manager, trtllm-serve), so a burst of
// arrivals reaches the scheduler one after another.
constexpr double kRequestS = 5e-3, kRequestTokenS = 2e-6;
constexpr const char* kRequestSource =
    "assumed: 5 ms per request (HTTP, scheduling, the first token's sampling and stream) and 2 µs per prompt token "
    "(a fast BPE tokenizer's ~0.5 M tokens/s on one core), one request at a time in the engine's front-end process; "
    "no engine publishes it, and validate's TTFT at 4-8 clients (data/silicon) is what it is held against";

constexpr const char* kReserveText =
    "each request reserves its prompt + output KV when admitted; when HBM or the running-batch cap is full it queues "
    "(first come, first served, no preemption)";
constexpr const char* kOnDemandText =
    "a request is admitted when its prompt's KV fits now and grows a token at a time; when a step's tokens do not fit, "
    "the newest running request is preempted and recomputed later, and that step admits no one (first come, first served)";
constexpr const char* kEstimatedText =
    "a request is admitted when its prompt + output fit beside the running requests' remaining outputs times a ratio "
    "that decays from 0.7 to 0.098 over 600 steps; a decode that does not fit retracts the requests with the fewest "
    "tokens out, recomputed later, and raises the ratio";
}  // namespace

const SchedulerDefaults& scheduler_defaults(model::EngineKind e) {
  // vLLM V1 schedules decodes first, then fills the step's token budget with prompt chunks (chunked prefill
  // on by default); the budget, max_num_batched_tokens, is set per usage context by
  // EngineArgs.create_engine_config (https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/).
  static const SchedulerDefaults kVllm{8192, PrefillMode::Chunked,
                                       "vLLM V1 mixes prompt chunks into decode steps (chunked prefill on by default, "
                                       "https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/); budget assumed 8192, the OpenAI "
                                       "server's max_num_batched_tokens on 80 GB-class GPUs (the config sets it per usage context)",
                                       kRequestS, kRequestTokenS, kRequestSource, Admission::OnDemand, {}, kOnDemandText,
                                       "vLLM V1's scheduler allocates KV blocks for the tokens it schedules and, when a running request "
                                       "cannot get one, preempts the last running request and recomputes it when it is scheduled again "
                                       "(RECOMPUTE is V1's only preemption mode: https://docs.vllm.ai/en/latest/configuration/optimization.html); "
                                       "its scheduler takes waiting requests only in a step with no preemption (vllm/v1/core/sched/scheduler.py)"};
  // SGLang runs a prefill batch on its own unless --enable-mixed-chunk is set (off by default).
  static const SchedulerDefaults kSglang{8192, PrefillMode::First,
                                         "SGLang schedules prefill batches apart from decode unless --enable-mixed-chunk is set "
                                         "(https://docs.sglang.ai/advanced_features/server_arguments.html); budget its chunked_prefill_size, "
                                         "8192 below 160 GiB of GPU memory and 16384 from it (server_args.py)",
                                       kRequestS, kRequestTokenS, kRequestSource, Admission::Estimated, {0.7, 0.7 * 0.14, 600, 20, 4096},
                                       kEstimatedText,
                                       "SGLang's PrefillAdder charges each running request min(max_new_tokens − its tokens out, 4096) × "
                                       "new_token_ratio and each new one its prompt + min(max_new_tokens, 4096); the ratio starts at "
                                       "SGLANG_INIT_NEW_TOKEN_RATIO 0.7, decays to 0.7 × SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14 over "
                                       "SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS 600 decode steps, and after retract_decode is (tokens out + "
                                       "SGLANG_RETRACT_DECODE_STEPS 20 each) ÷ max_new_tokens of the requests kept "
                                       "(https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/environ.py, "
                                       "managers/schedule_policy.py, managers/schedule_batch.py)"};
  // TensorRT-LLM's in-flight batching schedules context and generation requests in one step under max_num_tokens.
  static const SchedulerDefaults kTrt{8192, PrefillMode::Chunked,
                                      "TensorRT-LLM's in-flight batching runs context and generation requests in the same step under "
                                      "max_num_tokens (https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/"
                                      "tuning-max-batch-size-and-max-num-tokens.html); 8192 assumed, the LLM API's default",
                                       kRequestS, kRequestTokenS, kRequestSource, Admission::Reserve, {}, kReserveText,
                                       "TensorRT-LLM's default capacity scheduler policy, GUARANTEED_NO_EVICT, admits a request only when "
                                       "its prompt + maximum output fit, so a started request is never paused "
                                       "(https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/useful-runtime-flags.html)"};
  // DeepSeek's own system separates prefill from decode (its inference-system note): prefill-first here.
  static const SchedulerDefaults kDs{8192, PrefillMode::First,
                                     "assumed: DeepSeek's inference system serves prefill apart from decode "
                                     "(https://github.com/deepseek-ai/open-infra-index, day 6); on one instance that is "
                                     "prefill-first steps; budget 8192 as the other engines",
                                       kRequestS, kRequestTokenS, kRequestSource, Admission::Reserve, {}, kReserveText,
                                       "assumed: a request's whole KV set aside when it is admitted (DeepSeek does not publish its admission rule)"};
  switch (e) {
    case model::EngineKind::Vllm: return kVllm;
    case model::EngineKind::Sglang: return kSglang;
    case model::EngineKind::Trtllm: return kTrt;
    case model::EngineKind::Deepseek:
    case model::EngineKind::Count: break;
  }
  return kDs;
}

// SGLang sizes chunked_prefill_size (its prefill step's token budget, and max_prefill_tokens caps a prefill
// batch at 16,384) by the GPU memory it detects: 8,192 below 160 GiB (H100, H200), 16,384 from 160 GiB (B200,
// B300, GB200, GB300) (https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py,
// _handle_gpu_memory_settings). The catalog gives decimal GB.
constexpr double kSglangLargeBudgetGb = 160 * 1.073741824;
constexpr int kSglangLargeBudget = 16384;

int default_budget(model::EngineKind e, const model::Hardware& hw) {
  if (e == model::EngineKind::Sglang && model::hbm_gb_per_gpu(hw) >= kSglangLargeBudgetGb) return kSglangLargeBudget;
  return scheduler_defaults(e).budget;
}

}  // namespace tierscope::serve
