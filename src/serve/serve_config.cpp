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
}  // namespace

const SchedulerDefaults& scheduler_defaults(model::EngineKind e) {
  // vLLM V1 schedules decodes first, then fills the step's token budget with prompt chunks (chunked prefill
  // on by default); the budget, max_num_batched_tokens, is set per usage context by
  // EngineArgs.create_engine_config (https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/).
  static const SchedulerDefaults kVllm{8192, PrefillMode::Chunked,
                                       "vLLM V1 mixes prompt chunks into decode steps (chunked prefill on by default, "
                                       "https://docs.vllm.ai/en/stable/api/vllm/config/scheduler/); budget assumed 8192, the OpenAI "
                                       "server's max_num_batched_tokens on 80 GB-class GPUs (the config sets it per usage context)",
                                       kRequestS, kRequestTokenS, kRequestSource};
  // SGLang runs a prefill batch on its own unless --enable-mixed-chunk is set (off by default).
  static const SchedulerDefaults kSglang{8192, PrefillMode::First,
                                         "SGLang schedules prefill batches apart from decode unless --enable-mixed-chunk is set "
                                         "(https://docs.sglang.ai/advanced_features/server_arguments.html); budget assumed 8192, its "
                                         "chunked_prefill_size on 80 GB-class GPUs (it follows GPU memory)",
                                       kRequestS, kRequestTokenS, kRequestSource};
  // TensorRT-LLM's in-flight batching schedules context and generation requests in one step under max_num_tokens.
  static const SchedulerDefaults kTrt{8192, PrefillMode::Chunked,
                                      "TensorRT-LLM's in-flight batching runs context and generation requests in the same step under "
                                      "max_num_tokens (https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/"
                                      "tuning-max-batch-size-and-max-num-tokens.html); 8192 assumed, the LLM API's default",
                                       kRequestS, kRequestTokenS, kRequestSource};
  // DeepSeek's own system separates prefill from decode (its inference-system note): prefill-first here.
  static const SchedulerDefaults kDs{8192, PrefillMode::First,
                                     "assumed: DeepSeek's inference system serves prefill apart from decode "
                                     "(https://github.com/deepseek-ai/open-infra-index, day 6); on one instance that is "
                                     "prefill-first steps; budget 8192 as the other engines",
                                       kRequestS, kRequestTokenS, kRequestSource};
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
