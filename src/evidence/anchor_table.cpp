// The measured serving points, as data: every row of FACTS-parallel §6 that maps to a preset (FACTS §1.4.7),
// each with its source, the settings it ran and what the source leaves unsaid (`assumed`). anchors.cpp
// evaluates them.
//
// Sections: the sources · settings pieces the table repeats (lengths, layouts, InferenceX's spaces) ·
// kAnchors: DeepSeek V4.1 Flash · DeepSeek-V3 / R1 · Llama · gpt-oss · Qwen3 · anchors().
#include "evidence/anchors.h"

namespace tierscope::model {

namespace {

constexpr const char* kInferenceX = "https://inferencex.semianalysis.com/inference/deepseek-v41-flash";
constexpr const char* kTrtBest = "https://nvidia.github.io/TensorRT-LLM/latest/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.html";
constexpr const char* kTrtPerf = "https://nvidia.github.io/TensorRT-LLM/developer-guide/perf-overview.html";
constexpr const char* kLmsysEp = "https://lmsys.org/blog/2025-05-05-large-scale-ep/";
constexpr const char* kLmsysGb1 = "https://lmsys.org/blog/2025-06-16-gb200-part-1/";
constexpr const char* kLmsysGb2 = "https://lmsys.org/blog/2025-09-25-gb200-part-2/";
constexpr const char* kLmsysGb300 = "https://www.lmsys.org/blog/2026-02-19-gb300-longctx";
constexpr const char* kDsNote =
    "https://github.com/deepseek-ai/open-infra-index/blob/main/202502OpenSourceWeek/day_6_one_more_thing_deepseekV3R1_inference_system_overview.md";
// The InferenceX dashboard's (and its blog's) tokens/s per GPU are input + output tokens: its charts plot the
// benchmark's total throughput per GPU, `tput_per_gpu` (https://github.com/SemiAnalysisAI/InferenceX/issues/293;
// output and input alone were added beside it, issues/129). Its points are read as that total here.
constexpr const char* kXB200H100 = "https://inferencex.semianalysis.com/zh/compare/deepseek-r1-b200-vs-h100";
constexpr const char* kXB200Gb200 = "https://inferencex.semianalysis.com/zh/compare/deepseek-r1-b200-vs-gb200";
constexpr const char* kXB200Mi300 = "https://inferencex.semianalysis.com/compare/deepseek-r1-b200-vs-mi300x";
constexpr const char* kXDisagg = "https://inferencex.semianalysis.com/blog/gb200-nvl72-vs-b200-disagg-deepseek-r1-fp4-dynamo-trt";
constexpr const char* kMlperfR1 = "https://www.storagereview.com/news/nvidia-sets-mlperf-inference-v6-0-records-with-blackwell-ultra-platform";
constexpr const char* kXLlama = "https://inferencex.semianalysis.com/compare-precision/llama-3-3-70b-b200-fp4-vs-fp8";
constexpr const char* kXGptOss = "https://inferencex.semianalysis.com/compare/gptoss-120b-b200-vs-mi325x";

// Settings pieces the table repeats. Lengths follow one convention (docs/anchors.md): the decode context is
// the prompt plus half the output, the average over a turn's decode.
#define L1K1K "prompt=1024&output=1024&prefix_hit=0&ctx=1536"
#define L1K2K "prompt=1024&output=2048&prefix_hit=0&ctx=2048"
#define L1K8K "prompt=1024&output=8192&prefix_hit=0&ctx=5120"
#define L8K1K "prompt=8192&output=1024&prefix_hit=0&ctx=8704"
#define A1K1K "1K/1K: context 1,536 on average (prompt + half the output)"
#define A1K2K "1K in / 2K out: context 2,048 on average (prompt + half the output)"
#define A1K8K "1K/8K: context 5,120 on average (prompt + half the output)"
#define A8K1K "8K/1K: context 8,704 on average (prompt + half the output)"
#define AMAX "maximum load read as every session that fits (batch=capacity)"
// MLPerf's own datasets, at their mean lengths. Llama 2 70B: 24,576 OpenOrca queries of 222.3 prompt tokens on
// average (the dataset's lengths), answered in 294.45 tokens per sample (the reference's accuracy target,
// mlcommons/inference language/llama2-70b); the offline scenario issues them all at once. DeepSeek-R1: 4,388
// queries of 803.8 prompt and 4,043.4 reference-output tokens on average. Both averages are taken over the
// datasets' per-sample lengths as published in openshift-psap/performance-dashboard's mlperf-data summaries.
#define LORCA "prompt=222&output=294&prefix_hit=0&ctx=369"
#define AORCA "MLPerf's OpenOrca set at its means (222 prompt tokens, 294 generated, context 369), its 24,576 queries issued at once"
#define MLPERF_OFFLINE "&batch=capacity&requests=24576"
#define LR1MLPERF "prompt=804&output=4043&prefix_hit=0&ctx=2826"
#define AR1MLPERF "MLPerf's DeepSeek-R1 set at its means (804 prompt tokens, 4,043 out, context 2,826)"
// The TensorRT-LLM perf table is trtllm-bench's offline run: a fixed set of requests queued at once (3,000 at
// 1K/1K, 1,500 at 8K/1K and 1K/8K, its "Reproducing Benchmarked Results" table), so no more than that many
// run, however many would fit.
#define TRT1K1K "&batch=capacity&requests=3000"
#define TRT1500 "&batch=capacity&requests=1500"
#define ATRT "maximum load read as trtllm-bench's offline run: its requests (3,000 at 1K/1K, 1,500 at 8K/1K and 1K/8K) queued at once, as many running as fit (batch = min(capacity, requests))"
// A "best config" curve is the best layout at each per-user rate over the sources' 8-GPU node (TP 1-8, DP
// and EP among them); the replay reads the front of every layout of that node, the single step is DP8 of TP1.
#define NODE8 "gpus=8&tp=1&dp=8&"
// InferenceX's own benchmark configuration (configs/*-master.yaml and the workflows before them, in
// github.com/SemiAnalysisAI/InferenceX): each "best config" curve is the best over the layouts and
// concurrencies listed there, the union over the file's history since the page does not date its points.
// Its client draws lengths uniform on [0.8 L, L] (RANDOM_RANGE_RATIO 0.8 in its workflows; the benchmark's
// sample_uniform) and sends ten requests per concurrent client (num-prompts = CONC × 10 in its single-node
// scripts, the default multiplier of its multi-node ones): IX_CLIENT, the end of every InferenceX space.
#define IX_CLIENT "lengths=0.8;prompts=10"
// DeepSeek-R1 FP8 on MI300X (SGLang): TP8, no MTP, concurrency 4-64, in every version.
#define IX_R1_MI300X "layouts=tp8;conc=4-64;" IX_CLIENT
// gpt-oss-120b on MI325X (vLLM): TP1, TP2, TP4, TP8 instances, no speculative decoding, concurrency 4-64.
#define IX_OSS_MI325X "layouts=tp1,tp2,tp4,tp8;conc=4-64;" IX_CLIENT
// Llama 3.3 70B on B200 (vLLM and TensorRT-LLM, Sept-Oct 2025): TP1, TP2, TP4, TP8, concurrency 4-64 (vLLM)
// and 4-128 (TensorRT-LLM), no speculative decoding.
#define IX_LLAMA_B200 "layouts=tp1,tp2,tp4,tp8;conc=4-128;" IX_CLIENT
// DeepSeek-R1 FP8 on H100 at 1K/1K (Dynamo with TensorRT-LLM or SGLang, every version): disaggregated,
// each recipe its decode workers (TEP16, DEP16, TP16; MTP or not), its prefill pool's GPUs and the
// concurrencies it ran.
#define IX_R1_H100 "layouts=1xdep16+ctx32@4916,1xdep16+mtp+ctx16@615/1229,3xdep16+ctx16@231/462/924/1845,3xdep16+mtp+ctx16@231," \
  "3xtep16+ctx16@6/9/30/60,3xtep16+mtp+ctx16@6/9/30/60/117/462,1xdep16+ctx16@1/2/4/8/16/32/64,1xdep16+mtp+ctx16@1/2/4/8/16/32/64," \
  "2xtp16+ctx16@1/2/4/8/16/32/64/128,2xtp16+mtp+ctx16@1/2/4/8/16/32/64/128;" IX_CLIENT
// DeepSeek-R1 FP8 on GB200 NVL72 at 8K/1K (Dynamo with SGLang, then TensorRT-LLM): disaggregated, decode
// workers DEP4 to DEP32 (and DEP24, whose 256 experts do not split evenly), TP8 and TEP8, each with its
// prefill pool; MTP with TensorRT-LLM.
#define IX_R1_GB200 "layouts=1xdep4+ctx4@4/8/16/32,1xtp8+ctx8@4/8/16,1xdep32+ctx40@512/1024/2048/6144,1xdep16+ctx24@615,1xdep16+ctx40@1229," \
  "1xdep16+mtp+ctx24@333,1xdep16+mtp+ctx40@666,1xdep32+ctx16@333,1xdep32+ctx32@666,1xdep32+mtp+ctx16@90,1xdep32+mtp+ctx32@333," \
  "1xdep8+mtp+ctx24@666,3xtep8+ctx8@6/18/63,3xtep8+mtp+ctx8@6/15;" IX_CLIENT
// DeepSeek-R1-0528 FP4 at 1K/1K, Dynamo with TensorRT-LLM and MTP, as the configuration stood for the run
// the comparison names (InferenceX run of 2026-05-22): each recipe's decode workers, prefill pool and
// concurrencies, on 8-GPU B200 nodes and on the GB200 NVL72.
#define IX_R1_B200_DISAGG "layouts=2xdep8+mtp+ctx4@1214,5xdep8+mtp+ctx4@875,5xtep8+mtp+ctx4@6/10/15/25/45/90/180," \
  "4xdep8+mtp+ctx12@4968,5xdep4+mtp+ctx12@10860;" IX_CLIENT
#define IX_R1_GB200_DISAGG "layouts=1xdep32+mtp+ctx4@180,4xtep8+mtp+ctx4@4/8/12/24/48,1xdep16+mtp+ctx8@4301,1xdep32+mtp+ctx12@2253," \
  "5xdep4+mtp+ctx12@16130;" IX_CLIENT
// DeepSeek-R1 FP8 on 8×B200 nodes: single-node TensorRT-LLM and SGLang (TP4, TP8, TEP8, DEP8, with MTP and
// without, each at the concurrencies it swept) and Dynamo's disaggregated deployments over several nodes.
#define IX_R1_B200_1K1K "layouts=1xdep8+ctx8@4096,1xtep8+ctx8@4,2xdep8+mtp+ctx8@1600,3xdep8+mtp+ctx8@1184,3xtep8+ctx8@16/32/64/128/256," \
  "3xtp8+ctx8@4/32/128,4xdep8+mtp+ctx8@1024,5xdep8+ctx16@2048/4096/5152,5xdep8+ctx8@1024/1920/2048/4096,7xdep8+mtp+ctx8@896," \
  "8xtp8+mtp+ctx8@8/32/64/256,dep8@64,dep8+mtp@64/128/256,tep8@4/8/16/32/64,tep8+mtp@4/8/16/32,tp4@8/16,tp8@1/2/4/8/16/32/64/128," \
  "tp8+mtp@1/2/4/8/16/32/64/128/256/512;" IX_CLIENT
#define IX_R1_B200_8K1K "layouts=1xdep8+ctx16@256/512/640/1024,1xdep8+ctx24@1024,1xdep8+ctx8@128/160/256/288/512/1024,1xdep8+mtp+ctx16@288," \
  "1xdep8+mtp+ctx32@1088,1xtep8+ctx8@4/32/64/512,1xtp8+ctx8@1,2xdep8+ctx8@128/288,2xtp8+mtp+ctx8@8,3xdep8+mtp+ctx16@224,3xtp8+ctx8@128," \
  "4xtep8+ctx8@64/512,4xtp8+ctx8@32/128,4xtp8+mtp+ctx8@64,6xtep8+ctx8@32,6xtp8+ctx8@8/16/32/64/96/128,6xtp8+mtp+ctx8@8/48," \
  "dep8+mtp@64/128/256,tep8@4/8/16/32/64,tep8+mtp@4/8/16/32,tp4@1/2/4/8/16/32,tp8@1/2/4/8/16/32/64/128/256," \
  "tp8+mtp@1/2/4/8/16/32/64/128/256/512;" IX_CLIENT
// The other InferenceX curves span layouts the replay cannot confine to (data-parallel attention with EP,
// multi-node disaggregated pools): their client only (IX_CLIENT).
#define ANODE8 "an 8-GPU node, as the source sweeps its layouts over one (the single step at DP8 of TP1); "
#define ACURVE "a point of a serving curve (tok/s/GPU at a tok/s/user): the model's figure is at maximum load, for reference only"
#define R1DEP4 "gpus=4&tp=1&dp=4&ep=4&"
#define H200DEP8 "engine=trtllm&kv_fmt=fp8&gpus=8&tp=1&dp=8&ep=8&"
#define V3H100EP72 "gpu=h100&gpus=72&tp=1&dp=72&ep=72&redundant=32&engine=sglang&"
#define V3GB200EP48 "gpu=gb200&gpus=48&tp=1&dp=48&ep=48&redundant=32&engine=sglang&"
#define LLAMA_FP8 "dense_fmt=fp8&act_fmt=fp8&kv_fmt=fp8&engine=trtllm&"
#define LLAMA_FP4 "dense_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&engine=trtllm&"
#define OSS_FP8 "act_fmt=fp8&kv_fmt=fp8&swa_fmt=fp8&"
#define AOSS "FP8 activations and KV (TensorRT-LLM's MXFP4 × FP8 expert path); "
// On Hopper TensorRT-LLM feeds gpt-oss's MXFP4 experts BF16 activations (the TRITON MoE backend, its default
// there) and keeps the checkpoint's BF16 KV: the perf table's own options say "Hopper: use auto" for the KV
// dtype and "Hopper: use TRITON" for the MoE, whatever its column label "(FP8)" suggests.
#define OSS_HOPPER "act_fmt=bf16&kv_fmt=bf16&swa_fmt=bf16&"
#define AOSSH "BF16 activations into the MXFP4 experts and BF16 KV, as the table's options run Hopper (KV dtype auto, MoE backend "\
  "TRITON; the gpt-oss deployment guide's backend matrix: H200, BF16 activations, MXFP4 weights, "\
  "https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-gpt-oss-on-trtllm.html); "
#define QWEN_FP4 "experts_fmt=fp4_g16&dense_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&"
#define AQWEN4 "NVFP4 attention as well as experts (NVIDIA's FP4 checkpoints quantize every linear layer of the block) and FP8 KV; "

using M = AnchorMetric;
using Pv = Provenance;

// Settings quote the source; where the source is silent the value is listed in `assumed`. Grouped by model
// family; within a family by FACTS-parallel §6 row.
const Anchor kAnchors[] = {
    // ---- DeepSeek V4.1 Flash (FACTS §1.4.7)
    {"v41-gb300-c1", "DeepSeek V4.1 Flash, 4×GB300 TP4, vLLM with MTP, concurrency 1", "v41-flash-4xgb300",
     "batch=1&spec_tokens=3&prompt=1024&output=1024&prefix_hit=0&ctx=1536",
     "1K/1K sequences (context 1,536 on average) and 3 draft tokens: the source gives neither", M::Tpot, 2.1e-3, Pv::Measured, "2026-10",
     kInferenceX},
    {"v41-gb300-c128", "DeepSeek V4.1 Flash, 4×GB300 TP4, vLLM with MTP, concurrency 128", "v41-flash-4xgb300",
     "batch=128&spec_tokens=3&prompt=1024&output=1024&prefix_hit=0&ctx=1536",
     "1K/1K sequences (context 1,536 on average) and 3 draft tokens: the source gives neither", M::Tpot, 25.1e-3, Pv::Measured, "2026-10",
     kInferenceX},

    // ---- DeepSeek-V3 / R1
    {"v3-h800-prod-prefill", "DeepSeek-V3/R1 FP8, H800 production prefill, EP32 / DP32, 56 % cache hits", "deepseek-v3-8xh200",
     "gpu=h100&link_gbps=160&gpus=32&tp=1&dp=32&ep=32&redundant=32&engine=deepseek&prompt=4096&prefix_hit=0&ctx=4096",
     "H800 as an H100 with DeepEP's ~160 GB/s NVLink; 4K prompts without hits: the day's traffic, its cache hits and its prompt lengths "
     "need the serving replay",
     M::PrefillTokensPerSGpu, 73.7e3 / 8, Pv::Paper, "2025-02", kDsNote, 1, true},
    {"v3-h800-prod-decode", "DeepSeek-V3/R1 FP8, H800 production decode, EP144 / DP144, 20-22 tok/s per user", "deepseek-v3-8xh200",
     "gpu=h100&link_gbps=160&gpus=144&tp=1&dp=144&ep=144&redundant=32&engine=deepseek&batch=12672&ctx=2048",
     "H800 as an H100 with DeepEP's ~160 GB/s NVLink; 88 sessions per GPU (14.8k tok/s/node ÷ 21 tok/s/user ÷ 8) at context 2,048: "
     "production traffic at a per-user rate needs the serving replay",
     M::DecodeTokensPerSGpu, 14.8e3 / 8, Pv::Paper, "2025-02", kDsNote, 1, true, 21},
    {"v3-h100-prefill-1k", "DeepSeek-V3 FP8, 32×H100 prefill, SGLang, EP32 with 288 slots, DP attention, 1K prompts", "deepseek-v3-8xh200",
     "gpu=h100&gpus=32&tp=1&dp=32&ep=32&redundant=32&engine=sglang&prompt=1024&prefix_hit=0&ctx=1024",
     "one prompt per replica per pass (the source batches prompts up to 16,384 tokens per GPU); no prefix hits", M::PrefillTokensPerSGpu,
     57674.0 / 8, Pv::Engine, "2025-05", kLmsysEp, 2},
    {"v3-h100-prefill-2k", "DeepSeek-V3 FP8, 32×H100 prefill, SGLang, EP32 with 288 slots, DP attention, 2K prompts", "deepseek-v3-8xh200",
     "gpu=h100&gpus=32&tp=1&dp=32&ep=32&redundant=32&engine=sglang&prompt=2048&prefix_hit=0&ctx=2048",
     "one prompt per replica per pass (the source batches prompts up to 16,384 tokens per GPU); no prefix hits", M::PrefillTokensPerSGpu,
     54543.0 / 8, Pv::Engine, "2025-05", kLmsysEp, 2},
    {"v3-h100-prefill-4k", "DeepSeek-V3 FP8, 32×H100 prefill, SGLang, EP32 with 288 slots, DP attention, 4K prompts", "deepseek-v3-8xh200",
     "gpu=h100&gpus=32&tp=1&dp=32&ep=32&redundant=32&engine=sglang&prompt=4096&prefix_hit=0&ctx=4096",
     "one prompt per replica per pass (the source batches prompts up to 16,384 tokens per GPU); no prefix hits", M::PrefillTokensPerSGpu,
     50302.0 / 8, Pv::Engine, "2025-05", kLmsysEp, 2},
    {"v3-h100-ep72", "DeepSeek-V3 FP8, 72×H100 decode pool, SGLang, EP72 with 288 slots, 256 sessions per GPU", "deepseek-v3-8xh200",
     V3H100EP72 "batch=18432&ctx=2048", "", M::StepTime, 91.9e-3, Pv::Engine, "2025-05", kLmsysEp, 3},
    {"v3-h100-ep72-mtp", "DeepSeek-V3 FP8, 72×H100 decode pool, SGLang, simulated MTP (slowed attention), 128 sessions per GPU at 4K",
     "deepseek-v3-8xh200", V3H100EP72 "batch=9216&ctx=4096",
     "plain decode: the source slows attention to mimic MTP's draft work, which the model does not run", M::DecodeTokensPerSGpu,
     17373.0 / 8, Pv::Engine, "2025-05", kLmsysEp, 4},
    {"v3-gb200-ep48-fp8", "DeepSeek-V3/R1 FP8, 48 GB200 decode ranks (12 trays), SGLang, wide EP on NVLink, 2K in", "deepseek-v3-8xh200",
     V3GB200EP48 "ctx=2048&batch=capacity", "context 2,048; 288 expert slots; " AMAX " (the source does not give its batch)",
     M::DecodeTokensPerSGpu, 7583, Pv::Engine, "2025-06", kLmsysGb1, 5},
    {"v3-gb200-prefill-fp4", "DeepSeek-V3/R1 FP8 attention + NVFP4 MoE, GB200 prefill, SGLang, 2 ranks per instance, 2K in", "deepseek-v3-8xh200",
     "gpu=gb200&gpus=2&tp=1&dp=2&ep=2&experts_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&engine=sglang&prompt=2048&prefix_hit=0&ctx=2048",
     "FP8 KV; one prompt per replica per pass; the source offloads weights over NVLink-C2C, which the model does not", M::PrefillTokensPerSGpu,
     26156, Pv::Engine, "2025-09", kLmsysGb2, 6},
    {"v3-gb200-ep48", "DeepSeek-V3 FP8 attention + NVFP4 MoE, 48 GB200 decode ranks, SGLang, 1,408 sessions per GPU", "deepseek-v3-8xh200",
     V3GB200EP48 "experts_fmt=fp4_g16&act_fmt=fp4_g16&kv_fmt=fp8&batch=67584&ctx=2048",
     "FP8 KV cache and 288 expert slots (the source's KV traffic fits FP8 at 2K context)", M::DecodeTokensPerSGpu, 13386, Pv::Engine,
     "2025-09", kLmsysGb2, 6},
    {"v3-gb200-prefill-fp8", "DeepSeek-V3/R1 BF16 attention + FP8 MoE, GB200 prefill, SGLang, 4 ranks per instance, 2K in", "deepseek-v3-8xh200",
     "gpu=gb200&gpus=4&tp=1&dp=4&ep=4&dense_fmt=bf16&engine=sglang&prompt=2048&prefix_hit=0&ctx=2048",
     "BF16 for the shared expert and dense layers too; one prompt per replica per pass; the source offloads weights over NVLink-C2C, "
     "which the model does not",
     M::PrefillTokensPerSGpu, 18471, Pv::Engine, "2025-09", kLmsysGb2, 7},
    {"v3-gb200-ep48-bf16attn", "DeepSeek-V3/R1 BF16 attention + FP8 MoE, 48 GB200 decode ranks, SGLang, 2K in", "deepseek-v3-8xh200",
     V3GB200EP48 "dense_fmt=bf16&ctx=2048&batch=capacity",
     "BF16 for the shared expert and dense layers too; 288 slots; context 2,048; " AMAX " (the source gives no batch for this run, and "
     "the NVFP4 run's 1,408 per GPU does not fit FP8 experts)",
     M::DecodeTokensPerSGpu, 9087, Pv::Engine, "2025-09", kLmsysGb2, 7},
    {"r1-gb300-128k", "DeepSeek-R1 NVFP4, GB300 NVL72, SGLang + Dynamo PD, 128K/8K at 23 tok/s per user", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=16&tp=1&dp=16&ep=16&engine=sglang&prompt=131072&output=8192&prefix_hit=0&ctx=135168&batch=capacity",
     "DEP16 decode; " ACURVE, M::TokensPerSGpu, 226.2, Pv::Engine, "2026-02", kLmsysGb300, 8, true, 23, true},
    {"r1-gb300-128k-mtp", "DeepSeek-R1 NVFP4, GB300 NVL72, SGLang + Dynamo PD with MTP, 128K/8K at 43 tok/s per user", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=16&tp=1&dp=16&ep=16&engine=sglang&spec_tokens=3&prompt=131072&output=8192&prefix_hit=0&ctx=135168&batch=capacity",
     "DEP16 decode, 3 draft tokens; " ACURVE, M::TokensPerSGpu, 224.2, Pv::Engine, "2026-02", kLmsysGb300, 8, true, 43, true},
    {"r1-gb200-128k", "DeepSeek-R1 NVFP4, GB200 NVL72, SGLang + Dynamo PD, 128K/8K", "deepseek-r1-8xb200",
     "gpu=gb200&gpus=16&tp=1&dp=16&ep=16&engine=sglang&prompt=131072&output=8192&prefix_hit=0&ctx=135168&batch=capacity",
     "DEP16 decode; " ACURVE, M::TokensPerSGpu, 147.9, Pv::Engine, "2026-02", kLmsysGb300, 8, true, 0, true},
    {"r1-gb200-128k-mtp", "DeepSeek-R1 NVFP4, GB200 NVL72, SGLang + Dynamo PD with MTP, 128K/8K", "deepseek-r1-8xb200",
     "gpu=gb200&gpus=16&tp=1&dp=16&ep=16&engine=sglang&spec_tokens=3&prompt=131072&output=8192&prefix_hit=0&ctx=135168&batch=capacity",
     "DEP16 decode, 3 draft tokens; " ACURVE, M::TokensPerSGpu, 169.1, Pv::Engine, "2026-02", kLmsysGb300, 8, true, 0, true},
    {"r1-h200-wide-ep", "DeepSeek-R1 FP8, multi-node H200 + CX-7, vLLM wide EP (DP+EP, DBO, EPLB, PD), production-like", "deepseek-v3-8xh200",
     "gpus=16&tp=1&dp=16&ep=16&engine=vllm&ctx=2048&batch=capacity",
     "16 decode GPUs, context 2,048, " AMAX ": production-like traffic needs the serving replay", M::DecodeTokensPerSGpu, 2200, Pv::Engine,
     "2025-12", "https://blog.vllm.ai/2025/12/17/large-scale-serving.html", 9, true},
    {"r1-b200-fp4-mtp", "DeepSeek-R1 FP4, 8×B200, TensorRT-LLM, TP8 attention, MoE TP4×EP2, MTP3, batch 1", "deepseek-r1-8xb200",
     "tp=8&dp=1&ep=2&spec_tokens=3&batch=1&" L1K2K, A1K2K "; the checkpoint's FP8 KV", M::Tpot, 1.0 / 274.7, Pv::Engine, "2025", kTrtBest, 10},
    {"r1-b200-fp4-dep8-fp8kv", "DeepSeek-R1-0528 FP4, 8×B200, TensorRT-LLM, DEP8, FP8 KV, concurrency 7,168", "deepseek-r1-8xb200",
     "batch=7168&" L1K2K, A1K2K, M::TokensPerSGpu, 5393, Pv::Engine, "2025", kTrtBest, 11},
    {"r1-b200-fp4-dep8", "DeepSeek-R1 FP4, 8×B200, TensorRT-LLM, DEP8, 3,072 concurrent, BF16 KV", "deepseek-r1-8xb200",
     "kv_fmt=bf16&batch=3072&" L1K2K, A1K2K, M::TokensPerSGpu, 4548, Pv::Engine, "2025", kTrtBest, 12},
    {"r1-h200-tp8-mtp", "DeepSeek-R1 FP8, 8×H200, TensorRT-LLM, TP8 attention + EP4, MTP3, batch 1", "deepseek-v3-8xh200",
     "engine=trtllm&tp=8&ep=4&spec_tokens=3&batch=1&" L1K2K, A1K2K, M::Tpot, 1.0 / 158.1, Pv::Engine, "2025", kTrtBest, 13},
    {"r1-h200-dep8", "DeepSeek-R1 FP8, 8×H200, TensorRT-LLM, DEP8 (attention DP8, EP8), 1,024 concurrent", "deepseek-v3-8xh200",
     "engine=trtllm&dp=8&ep=8&batch=1024&" L1K2K, A1K2K "; BF16 KV", M::TokensPerSGpu, 1436, Pv::Engine, "2025", kTrtBest, 14},
    {"r1-b200-dep4-1k1k", "DeepSeek-R1-0528 FP4, 4×B200 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "deepseek-r1-8xb200",
     R1DEP4 L1K1K TRT1K1K, A1K1K "; " ATRT, M::TokensPerSGpu, 6463, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-gb200-dep4-1k1k", "DeepSeek-R1-0528 FP4, 4×GB200 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "deepseek-r1-8xb200",
     "gpu=gb200&" R1DEP4 L1K1K TRT1K1K, A1K1K "; " ATRT, M::TokensPerSGpu, 6939, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-h200-dep8-1k1k", "DeepSeek-R1-0528 FP8, 8×H200 DEP8, TensorRT-LLM perf table, 1K/1K at maximum load", "deepseek-v3-8xh200",
     H200DEP8 L1K1K TRT1K1K, A1K1K "; FP8 KV; " ATRT, M::TokensPerSGpu, 1627, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-b200-dep4-1k8k", "DeepSeek-R1-0528 FP4, 4×B200 DEP4, TensorRT-LLM perf table, 1K/8K at maximum load", "deepseek-r1-8xb200",
     R1DEP4 L1K8K TRT1500, A1K8K "; " ATRT, M::TokensPerSGpu, 3862, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-gb200-dep4-1k8k", "DeepSeek-R1-0528 FP4, 4×GB200 DEP4, TensorRT-LLM perf table, 1K/8K at maximum load", "deepseek-r1-8xb200",
     "gpu=gb200&" R1DEP4 L1K8K TRT1500, A1K8K "; " ATRT, M::TokensPerSGpu, 4379, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-h200-dep8-1k8k", "DeepSeek-R1-0528 FP8, 8×H200 DEP8, TensorRT-LLM perf table, 1K/8K at maximum load", "deepseek-v3-8xh200",
     H200DEP8 L1K8K TRT1500, A1K8K "; FP8 KV; " ATRT, M::TokensPerSGpu, 1218, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-b200-dep4-8k1k", "DeepSeek-R1-0528 FP4, 4×B200 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "deepseek-r1-8xb200",
     R1DEP4 L8K1K TRT1500, A8K1K "; " ATRT, M::TokensPerSGpu, 1168, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-gb200-dep4-8k1k", "DeepSeek-R1-0528 FP4, 4×GB200 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "deepseek-r1-8xb200",
     "gpu=gb200&" R1DEP4 L8K1K TRT1500, A8K1K "; " ATRT, M::TokensPerSGpu, 1192, Pv::Engine, "2025", kTrtPerf, 15},
    {"r1-gb200-disagg-125", "DeepSeek-R1-0528 FP4, GB200 NVL72, Dynamo + TensorRT-LLM PD with MTP, 1K/1K at 125 tok/s per user",
     "deepseek-r1-8xb200", "gpu=gb200&gpus=32&tp=1&dp=32&ep=32&spec_tokens=3&" L1K1K "&batch=capacity",
     "DEP32 decode, 3 draft tokens; " ACURVE, M::TotalTokensPerSGpu, 4130, Pv::Measured, "2025", kXDisagg, 16, true, 125, true, IX_R1_GB200_DISAGG},
    {"r1-b200-disagg-125", "DeepSeek-R1-0528 FP4, 8×B200, Dynamo + TensorRT-LLM PD with MTP, 1K/1K at 125 tok/s per user", "deepseek-r1-8xb200",
     "spec_tokens=3&" L1K1K "&batch=capacity", "DEP8 decode, 3 draft tokens; " ACURVE, M::TotalTokensPerSGpu, 941, Pv::Measured, "2025", kXDisagg,
     16, true, 125, true, IX_R1_B200_DISAGG},
    {"r1-b200-fp8-42", "DeepSeek-R1 FP8, 8×B200, best config, 1K/1K at 42 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L1K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 4792, Pv::Measured, "2025",
     kXB200H100, 17, true, 42, false, IX_R1_B200_1K1K},
    {"r1-b200-fp8-71", "DeepSeek-R1 FP8, 8×B200, best config, 1K/1K at 71 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L1K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 1020, Pv::Measured, "2025",
     kXB200H100, 17, true, 71, false, IX_R1_B200_1K1K},
    {"r1-b200-fp8-100", "DeepSeek-R1 FP8, 8×B200, best config, 1K/1K at 100 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L1K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 498, Pv::Measured, "2025",
     kXB200H100, 17, true, 100, false, IX_R1_B200_1K1K},
    {"r1-h100-fp8-42", "DeepSeek-R1 FP8, 16×H100, best config, 1K/1K at 42 tok/s per user", "deepseek-v3-8xh200",
     "gpu=h100&engine=sglang&gpus=16&tp=1&dp=16&ep=16&" L1K1K "&batch=capacity", "two nodes, DEP16 (671 GB of FP8 weights need more than 8 H100); " ACURVE,
     M::TotalTokensPerSGpu, 266, Pv::Measured, "2025", kXB200H100, 17, true, 42, true, IX_R1_H100},
    {"r1-h100-fp8-71", "DeepSeek-R1 FP8, 16×H100, best config, 1K/1K at 71 tok/s per user", "deepseek-v3-8xh200",
     "gpu=h100&engine=sglang&gpus=16&tp=1&dp=16&ep=16&" L1K1K "&batch=capacity", "two nodes, DEP16 (671 GB of FP8 weights need more than 8 H100); " ACURVE,
     M::TotalTokensPerSGpu, 73, Pv::Measured, "2025", kXB200H100, 17, true, 71, true, IX_R1_H100},
    {"r1-h100-fp8-100", "DeepSeek-R1 FP8, 16×H100, best config, 1K/1K at 100 tok/s per user", "deepseek-v3-8xh200",
     "gpu=h100&engine=sglang&gpus=16&tp=1&dp=16&ep=16&" L1K1K "&batch=capacity", "two nodes, DEP16 (671 GB of FP8 weights need more than 8 H100); " ACURVE,
     M::TotalTokensPerSGpu, 23, Pv::Measured, "2025", kXB200H100, 17, true, 100, true, IX_R1_H100},
    {"r1-b200-fp8-8k1k-75", "DeepSeek-R1 FP8, 8×B200, best config, 8K/1K at 75 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 2558, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 75, false, IX_R1_B200_8K1K},
    {"r1-b200-fp8-8k1k-120", "DeepSeek-R1 FP8, 8×B200, best config, 8K/1K at 120 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 1110, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 120, false, IX_R1_B200_8K1K},
    {"r1-b200-fp8-8k1k-164", "DeepSeek-R1 FP8, 8×B200, best config, 8K/1K at 164 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 751, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 164, false, IX_R1_B200_8K1K},
    {"r1-gb200-fp8-8k1k-75", "DeepSeek-R1 FP8, GB200 NVL72, best config, 8K/1K at 75 tok/s per user", "deepseek-v3-8xh200",
     "gpu=gb200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 5790, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 75, true, IX_R1_GB200},
    {"r1-gb200-fp8-8k1k-120", "DeepSeek-R1 FP8, GB200 NVL72, best config, 8K/1K at 120 tok/s per user", "deepseek-v3-8xh200",
     "gpu=gb200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 3988, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 120, true, IX_R1_GB200},
    {"r1-gb200-fp8-8k1k-164", "DeepSeek-R1 FP8, GB200 NVL72, best config, 8K/1K at 164 tok/s per user", "deepseek-v3-8xh200",
     "gpu=gb200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 818, Pv::Measured, "2025",
     kXB200Gb200, 18, true, 164, true, IX_R1_GB200},
    {"r1-b200-fp8-8k1k-23", "DeepSeek-R1 FP8, 8×B200, best config, 8K/1K at 23 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 5857, Pv::Measured, "2025",
     kXB200Mi300, 19, true, 23, false, IX_R1_B200_8K1K},
    {"r1-b200-fp8-8k1k-42", "DeepSeek-R1 FP8, 8×B200, best config, 8K/1K at 42 tok/s per user", "deepseek-v3-8xh200",
     "gpu=b200&engine=trtllm&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8; " ACURVE, M::TotalTokensPerSGpu, 5220, Pv::Measured, "2025",
     kXB200Mi300, 19, true, 42, false, IX_R1_B200_8K1K},
    {"r1-mi300x-fp8-8k1k-23", "DeepSeek-R1 FP8, 8×MI300X, best config, 8K/1K at 23 tok/s per user", "deepseek-v3-8xh200",
     "gpu=mi300x&engine=sglang&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8, SGLang; " ACURVE, M::TotalTokensPerSGpu, 725, Pv::Measured,
     "2025", kXB200Mi300, 19, true, 23, false, IX_R1_MI300X},
    {"r1-mi300x-fp8-8k1k-42", "DeepSeek-R1 FP8, 8×MI300X, best config, 8K/1K at 42 tok/s per user", "deepseek-v3-8xh200",
     "gpu=mi300x&engine=sglang&gpus=8&tp=1&dp=8&ep=8&" L8K1K "&batch=capacity", "DEP8, SGLang; " ACURVE, M::TotalTokensPerSGpu, 406, Pv::Measured,
     "2025", kXB200Mi300, 19, true, 42, false, IX_R1_MI300X},
    {"r1-gb300-mlperf51-server", "DeepSeek-R1, 72 GB300, TensorRT-LLM + Dynamo, MLPerf v5.1 server", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=72&tp=1&dp=72&ep=72&redundant=32&spec_tokens=3&" LR1MLPERF "&batch=capacity",
     "DEP72 with 288 slots, 3 draft tokens, " AR1MLPERF ": MLPerf's server scenario (arrivals under TTFT and per-user limits) needs the serving replay",
     M::TokensPerSGpu, 2907, Pv::Measured, "2025-09", "https://thedailyscout.com/s/8Smu3FP2fK4", 20, true},
    {"r1-gb300-mlperf60-server", "DeepSeek-R1, 72 GB300, TensorRT-LLM + Dynamo, MLPerf v6.0 server", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=72&tp=1&dp=72&ep=72&redundant=32&spec_tokens=3&" LR1MLPERF "&batch=capacity",
     "DEP72 with 288 slots, 3 draft tokens, " AR1MLPERF ": MLPerf's server scenario (arrivals under TTFT and per-user limits) needs the serving replay",
     M::TokensPerSGpu, 8064, Pv::Measured, "2026-04", kMlperfR1, 20, true},
    {"r1-gb300x288-mlperf60-offline", "DeepSeek-R1, 288 GB300, TensorRT-LLM + Dynamo, MLPerf v6.0 offline", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=72&tp=1&dp=72&ep=72&redundant=32&spec_tokens=3&" LR1MLPERF "&batch=capacity",
     "four DEP72 instances with 288 slots, 3 draft tokens, " AR1MLPERF ": MLPerf's offline dataset and scheduling need the serving replay",
     M::TokensPerSGpu, 2494310.0 / 288, Pv::Measured, "2026-04", "https://pubt.io/view/1F10736CBCCD3D79DCB336A35D41F8C21E50AE89", 20, true},
    {"r1-gb300x288-mlperf60-server", "DeepSeek-R1, 288 GB300, TensorRT-LLM + Dynamo, MLPerf v6.0 server", "deepseek-r1-8xb200",
     "gpu=gb300&gpus=72&tp=1&dp=72&ep=72&redundant=32&spec_tokens=3&" LR1MLPERF "&batch=capacity",
     "four DEP72 instances with 288 slots, 3 draft tokens, " AR1MLPERF ": MLPerf's server scenario needs the serving replay", M::TokensPerSGpu,
     1555110.0 / 288, Pv::Measured, "2026-04", "https://pubt.io/view/1F10736CBCCD3D79DCB336A35D41F8C21E50AE89", 20, true},

    // ---- Llama
    {"llama8b-h100-b1", "Llama 3.1 8B BF16, 1×H100, one decode step at batch 1 with CUDA graphs", "llama31-8b-1xh100",
     "batch=1&ctx=1024", "context 1,024", M::StepTime, 5.1e-3, Pv::Measured, "2026", "https://cloudai.pt/tag/cuda-graphs/"},
    {"llama70b-b200-tp1", "Llama 3.3 70B FP4, 1×B200 TP1, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=b200&gpus=1&tp=1&" LLAMA_FP4 L1K1K TRT1K1K, "FP8 KV cache; " A1K1K "; " ATRT, M::TokensPerSGpu, 6920, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-gb200-tp1", "Llama 3.3 70B FP4, 1×GB200 TP1, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=gb200&gpus=1&tp=1&" LLAMA_FP4 L1K1K TRT1K1K, "FP8 KV cache; " A1K1K "; " ATRT, M::TokensPerSGpu, 7769, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-h200-tp2", "Llama 3.3 70B FP8, 2×H200 TP2, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=h200&gpus=2&tp=2&" LLAMA_FP8 L1K1K TRT1K1K, "FP8 KV cache; " A1K1K "; " ATRT, M::TokensPerSGpu, 2587, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-h100-tp2", "Llama 3.3 70B FP8, 2×H100 TP2, TensorRT-LLM, 1K/1K at maximum load", "llama31-70b-8xh100",
     "gpus=2&tp=2&" LLAMA_FP8 L1K1K TRT1K1K, "FP8 KV cache; " A1K1K "; " ATRT, M::TokensPerSGpu, 2209, Pv::Engine, "2026", kTrtPerf,
     24},
    {"llama70b-b200-tp1-8k1k", "Llama 3.3 70B FP4, 1×B200 TP1, TensorRT-LLM, 8K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=b200&gpus=1&tp=1&" LLAMA_FP4 L8K1K TRT1500, "FP8 KV cache; " A8K1K "; " ATRT, M::TokensPerSGpu, 1362, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-gb200-tp1-8k1k", "Llama 3.3 70B FP4, 1×GB200 TP1, TensorRT-LLM, 8K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=gb200&gpus=1&tp=1&" LLAMA_FP4 L8K1K TRT1500, "FP8 KV cache; " A8K1K "; " ATRT, M::TokensPerSGpu, 1491, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-h200-tp2-8k1k", "Llama 3.3 70B FP8, 2×H200 TP2, TensorRT-LLM, 8K/1K at maximum load", "llama31-70b-8xh100",
     "gpu=h200&gpus=2&tp=2&" LLAMA_FP8 L8K1K TRT1500, "FP8 KV cache; " A8K1K "; " ATRT, M::TokensPerSGpu, 537, Pv::Engine, "2026",
     kTrtPerf, 24},
    {"llama70b-h100-tp2-8k1k", "Llama 3.3 70B FP8, 2×H100 TP2, TensorRT-LLM, 8K/1K at maximum load", "llama31-70b-8xh100",
     "gpus=2&tp=2&" LLAMA_FP8 L8K1K TRT1500, "FP8 KV cache; " A8K1K "; " ATRT, M::TokensPerSGpu, 398, Pv::Engine, "2026", kTrtPerf, 24},
    {"llama70b-b200-fp8-76", "Llama 3.3 70B FP8, B200, best config, 1K/1K at 76 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP8 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 4431, Pv::Measured, "2025", kXLlama, 25, true, 76, false, IX_LLAMA_B200},
    {"llama70b-b200-fp8-108", "Llama 3.3 70B FP8, B200, best config, 1K/1K at 108 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP8 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 2744, Pv::Measured, "2025", kXLlama, 25, true, 108, false, IX_LLAMA_B200},
    {"llama70b-b200-fp8-139", "Llama 3.3 70B FP8, B200, best config, 1K/1K at 139 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP8 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 912, Pv::Measured, "2025", kXLlama, 25, true, 139, false, IX_LLAMA_B200},
    {"llama70b-b200-fp4-76", "Llama 3.3 70B FP4, B200, best config, 1K/1K at 76 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP4 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 5971, Pv::Measured, "2025", kXLlama, 26, true, 76, false, IX_LLAMA_B200},
    {"llama70b-b200-fp4-108", "Llama 3.3 70B FP4, B200, best config, 1K/1K at 108 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP4 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 3099, Pv::Measured, "2025", kXLlama, 26, true, 108, false, IX_LLAMA_B200},
    {"llama70b-b200-fp4-139", "Llama 3.3 70B FP4, B200, best config, 1K/1K at 139 tok/s per user", "llama31-70b-8xh100",
     "gpu=b200&" NODE8 LLAMA_FP4 L1K1K "&batch=capacity", ANODE8 ACURVE, M::TotalTokensPerSGpu, 1032, Pv::Measured, "2025", kXLlama, 26, true, 139, false, IX_LLAMA_B200},
    {"llama2-70b-b200-mlperf-offline", "Llama 2 70B, 8×B200, TensorRT-LLM, MLPerf v5.1 offline (per GPU)", "llama31-70b-8xh100",
     "vocab=32000&max_pos=4096&gpu=b200&gpus=1&tp=1&" LLAMA_FP4 LORCA MLPERF_OFFLINE,
     "Llama 2 70B as the Llama 3 shape with its 32,000-token vocabulary and 4,096 positions; one GPU per replica, FP4; " AORCA,
     M::TokensPerSGpu, 103e3 / 8, Pv::Measured, "2025-09", "https://ainews247.org/story/36773", 27, true},
    {"llama2-70b-gb200-mlperf-offline", "Llama 2 70B, GB200 NVL72 (18 × 4-GPU replicas), TensorRT-LLM, MLPerf v4.1 offline (per GPU)",
     "llama31-70b-8xh100", "vocab=32000&max_pos=4096&gpu=gb200&gpus=1&tp=1&" LLAMA_FP4 LORCA MLPERF_OFFLINE,
     "Llama 2 70B as the Llama 3 shape with its 32,000-token vocabulary and 4,096 positions; one GPU per replica, FP4; " AORCA,
     M::TokensPerSGpu, 865e3 / 72, Pv::Measured, "2024", "https://techcommunity.microsoft.com/blog/azurehighperformancecomputingblog/azure%E2%80%99s-nd-gb200-v6-delivers-record-performance-for-inference-workloads/4399253",
     28, true},

    // ---- gpt-oss
    {"oss120-b200-dep2", "gpt-oss-120b MXFP4, 2×B200 DEP2, TensorRT-LLM perf table, 1K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=b200&gpus=2&tp=1&dp=2&ep=2&" OSS_FP8 L1K1K TRT1K1K, AOSS A1K1K "; " ATRT, M::TokensPerSGpu, 25943, Pv::Engine, "2025",
     kTrtPerf, 30},
    {"oss120-gb200-tp1", "gpt-oss-120b MXFP4, 1×GB200 TP1, TensorRT-LLM perf table, 1K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=gb200&" OSS_FP8 L1K1K TRT1K1K, AOSS A1K1K "; " ATRT, M::TokensPerSGpu, 27198, Pv::Engine, "2025", kTrtPerf, 30},
    {"oss120-h200-tp1", "gpt-oss-120b MXFP4 (FP8), 1×H200 TP1, TensorRT-LLM perf table, 1K/1K at maximum load", "gpt-oss-120b-1xh200",
     OSS_HOPPER L1K1K TRT1K1K, AOSSH A1K1K "; " ATRT, M::TokensPerSGpu, 6868, Pv::Engine, "2025", kTrtPerf, 30},
    {"oss120-h100-dep4", "gpt-oss-120b MXFP4 (FP8), 4×H100 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=h100&gpus=4&tp=1&dp=4&ep=4&" OSS_HOPPER L1K1K TRT1K1K, AOSSH A1K1K "; " ATRT, M::TokensPerSGpu, 4685, Pv::Engine, "2025",
     kTrtPerf, 30},
    {"oss120-b200-dep2-8k1k", "gpt-oss-120b MXFP4, 2×B200 DEP2, TensorRT-LLM perf table, 8K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=b200&gpus=2&tp=1&dp=2&ep=2&" OSS_FP8 L8K1K TRT1500, AOSS A8K1K "; " ATRT, M::TokensPerSGpu, 6111, Pv::Engine, "2025",
     kTrtPerf, 30},
    {"oss120-gb200-tp1-8k1k", "gpt-oss-120b MXFP4, 1×GB200 TP1, TensorRT-LLM perf table, 8K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=gb200&" OSS_FP8 L8K1K TRT1500, AOSS A8K1K "; " ATRT, M::TokensPerSGpu, 6835, Pv::Engine, "2025", kTrtPerf, 30},
    {"oss120-h200-tp1-8k1k", "gpt-oss-120b MXFP4 (FP8), 1×H200 TP1, TensorRT-LLM perf table, 8K/1K at maximum load", "gpt-oss-120b-1xh200",
     OSS_HOPPER L8K1K TRT1500, AOSSH A8K1K "; " ATRT, M::TokensPerSGpu, 1828, Pv::Engine, "2025", kTrtPerf, 30},
    {"oss120-h100-dep4-8k1k", "gpt-oss-120b MXFP4 (FP8), 4×H100 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "gpt-oss-120b-1xh200",
     "gpu=h100&gpus=4&tp=1&dp=4&ep=4&" OSS_HOPPER L8K1K TRT1500, AOSSH A8K1K "; " ATRT, M::TokensPerSGpu, 1169, Pv::Engine, "2025",
     kTrtPerf, 30},
    {"oss120-b200-72", "gpt-oss-120b FP4, B200, best config, 1K/1K at 72 tok/s per user", "gpt-oss-120b-1xh200",
     "gpu=b200&" NODE8 OSS_FP8 L1K1K "&batch=capacity", ANODE8 AOSS ACURVE, M::TotalTokensPerSGpu, 25320, Pv::Measured, "2025", kXGptOss, 31, true, 72, false, IX_CLIENT},
    {"oss120-b200-100", "gpt-oss-120b FP4, B200, best config, 1K/1K at 100 tok/s per user", "gpt-oss-120b-1xh200",
     "gpu=b200&" NODE8 OSS_FP8 L1K1K "&batch=capacity", ANODE8 AOSS ACURVE, M::TotalTokensPerSGpu, 20939, Pv::Measured, "2025", kXGptOss, 31, true, 100, false, IX_CLIENT},
    {"oss120-mi325x-72", "gpt-oss-120b FP4, MI325X, best config, 1K/1K at 72 tok/s per user", "gpt-oss-120b-1xh200",
     "gpu=mi300x&hbm_gb=256&hbm_tbps=6&engine=vllm&" NODE8 OSS_FP8 L1K1K "&batch=capacity",
     "MI325X as an MI300X with 256 GB at 6 TB/s; " ANODE8 ACURVE, M::TotalTokensPerSGpu, 1999, Pv::Measured, "2025", kXGptOss, 31, true, 72, false, IX_OSS_MI325X},
    {"oss120-mi325x-100", "gpt-oss-120b FP4, MI325X, best config, 1K/1K at 100 tok/s per user", "gpt-oss-120b-1xh200",
     "gpu=mi300x&hbm_gb=256&hbm_tbps=6&engine=vllm&" NODE8 OSS_FP8 L1K1K "&batch=capacity",
     "MI325X as an MI300X with 256 GB at 6 TB/s; " ANODE8 ACURVE, M::TotalTokensPerSGpu, 835, Pv::Measured, "2025", kXGptOss, 31, true, 100, false, IX_OSS_MI325X},
    {"oss120-gb300-mlperf-offline", "gpt-oss-120b, 4×GB300 (Lambda), MLPerf v6.0 offline (per GPU)", "gpt-oss-120b-1xh200",
     "gpu=gb300&" OSS_FP8 L1K1K "&batch=capacity", "one GPU per replica; " A1K1K ": MLPerf's offline dataset and scheduling need the serving replay",
     M::TokensPerSGpu, 60220.0 / 4, Pv::Measured, "2026-04", "https://thedailyscout.com/s/7BVZlhW-nHw", 32, true},
    {"oss120-gb300-mlperf-server", "gpt-oss-120b, 4×GB300 (Lambda), MLPerf v6.0 server (per GPU)", "gpt-oss-120b-1xh200",
     "gpu=gb300&" OSS_FP8 L1K1K "&batch=capacity", "one GPU per replica; " A1K1K ": MLPerf's server scenario needs the serving replay",
     M::TokensPerSGpu, 53463.0 / 4, Pv::Measured, "2026-04", "https://thedailyscout.com/s/7BVZlhW-nHw", 32, true},
    {"oss120-h100-vllm-peak", "gpt-oss-120b, 1×H100, vLLM, peak at low concurrency", "gpt-oss-120b-1xh200",
     "gpu=h100&engine=vllm&batch=4&" L1K1K, "concurrency 4, the most the source ran on the H100 (its table: 1-4, contexts 1K-96K), " A1K1K
     ": the peak of the sweep, at its highest concurrency and shortest context, needs the serving replay",
     M::DecodeTokensPerSGpu, 511, Pv::Measured, "2025", "https://www.millstoneai.com/inference-benchmark/gpt-oss-120b-mxfp4", 33, true},
    {"oss120-h200-vllm-peak", "gpt-oss-120b, 1×H200, vLLM, peak at low concurrency", "gpt-oss-120b-1xh200", "engine=vllm&batch=10&" L1K1K,
     "concurrency 10, the most the source ran on the H200 (its table: 1-10, contexts 1K-128K), " A1K1K
     ": the peak of the sweep, at its highest concurrency and shortest context, needs the serving replay",
     M::DecodeTokensPerSGpu, 849, Pv::Measured, "2025", "https://www.millstoneai.com/inference-benchmark/gpt-oss-120b-mxfp4", 33, true},
    {"oss120-h100-tp2-sharegpt", "gpt-oss-120b, 2×H100 TP2, vLLM 0.10.2 with async scheduling, ShareGPT, 1,000 requests at once",
     "gpt-oss-120b-1xh200", "gpu=h100&gpus=2&tp=2&engine=vllm&prompt=215&output=196&prefix_hit=0&ctx=313&batch=capacity&requests=1000",
     "the source's own run: 1,000 ShareGPT requests sent at once (vllm bench serve's default rate), 215,312 prompt and 196,205 "
     "generated tokens, read as every request at those mean lengths", M::TokensPerSGpu, 7648.67 / 2, Pv::Measured, "2025",
     "https://docs.gpustack.ai/latest/performance-lab/gpt-oss-120b/h100", 34, true},

    // ---- Qwen3
    {"q235-b200-dep4", "Qwen3-235B-A22B FP4, 4×B200 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "gpu=b200&" QWEN_FP4 L1K1K TRT1K1K, AQWEN4 A1K1K "; " ATRT, M::TokensPerSGpu, 5764, Pv::Engine, "2025", kTrtPerf, 35},
    {"q235-gb200-dep4", "Qwen3-235B-A22B FP4, 4×GB200 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "gpu=gb200&" QWEN_FP4 L1K1K TRT1K1K, AQWEN4 A1K1K "; " ATRT, M::TokensPerSGpu, 6172, Pv::Engine, "2025", kTrtPerf, 35},
    {"q235-h200-dep4", "Qwen3-235B-A22B FP8, 4×H200 DEP4, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "kv_fmt=fp8&" L1K1K TRT1K1K, "FP8 KV; " A1K1K "; " ATRT, M::TokensPerSGpu, 3288, Pv::Engine, "2025", kTrtPerf, 35},
    {"q235-h100-dep8", "Qwen3-235B-A22B FP8, 8×H100 DEP8, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "gpu=h100&gpus=8&tp=1&dp=8&ep=8&kv_fmt=fp8&" L1K1K TRT1K1K, "FP8 KV; " A1K1K "; " ATRT, M::TokensPerSGpu, 1932, Pv::Engine, "2025",
     kTrtPerf, 35},
    {"q235-b200-dep4-8k1k", "Qwen3-235B-A22B FP4, 4×B200 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "gpu=b200&" QWEN_FP4 L8K1K TRT1500, AQWEN4 A8K1K "; " ATRT, M::TokensPerSGpu, 1410, Pv::Engine, "2025", kTrtPerf, 35},
    {"q235-gb200-dep4-8k1k", "Qwen3-235B-A22B FP4, 4×GB200 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "gpu=gb200&" QWEN_FP4 L8K1K TRT1500, AQWEN4 A8K1K "; " ATRT, M::TokensPerSGpu, 1464, Pv::Engine, "2025", kTrtPerf, 35},
    {"q235-h200-dep4-8k1k", "Qwen3-235B-A22B FP8, 4×H200 DEP4, TensorRT-LLM perf table, 8K/1K at maximum load", "qwen3-235b-a22b-4xh200",
     "kv_fmt=fp8&" L8K1K TRT1500, "FP8 KV; " A8K1K "; " ATRT, M::TokensPerSGpu, 627, Pv::Engine, "2025", kTrtPerf, 35},
    {"q30-b200-tp1", "Qwen3-30B-A3B FP4, 1×B200 TP1, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-30b-a3b-1xb200",
     L1K1K TRT1K1K, A1K1K "; " ATRT, M::TokensPerSGpu, 26971, Pv::Engine, "2025", kTrtPerf, 36},
    {"q30-gb200-tp1", "Qwen3-30B-A3B FP4, 1×GB200 TP1, TensorRT-LLM perf table, 1K/1K at maximum load", "qwen3-30b-a3b-1xb200",
     "gpu=gb200&" L1K1K TRT1K1K, A1K1K "; " ATRT, M::TokensPerSGpu, 22856, Pv::Engine, "2025", kTrtPerf, 36},
};

#undef L1K1K
#undef L1K2K
#undef L1K8K
#undef L8K1K
#undef A1K1K
#undef A1K2K
#undef A1K8K
#undef A8K1K
#undef AMAX
#undef ACURVE
#undef R1DEP4
#undef H200DEP8
#undef V3H100EP72
#undef V3GB200EP48
#undef LLAMA_FP8
#undef LLAMA_FP4
#undef OSS_FP8
#undef AOSS
#undef QWEN_FP4
#undef AQWEN4

}  // namespace

std::span<const Anchor> anchors() { return {kAnchors, sizeof kAnchors / sizeof kAnchors[0]}; }

}  // namespace tierscope::model
