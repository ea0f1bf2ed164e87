// A measured run as a scenario and a benchmark: its model (validate_models.cpp), its formats, GPU, engine and
// layout, its lengths and clients. Every way a row can fail to be expressed is named, with a short form that
// rows failing alike share.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"
#include "serve/validate.h"
#include "serve/validate_models.h"


namespace tierscope::serve {

namespace {


// The file's GPU systems and engines, as the model's keys name them.
struct Name {
  const char* file;
  const char* key;
};
constexpr Name kSystems[] = {{"h100_sxm", "h100"}, {"h200_sxm", "h200"}, {"b200_sxm", "b200"}, {"b300_sxm", "b300"}, {"gb200", "gb200"}, {"gb300", "gb300"}};
constexpr Name kEngines[] = {{"trtllm", "trtllm"}, {"sglang", "sglang"}, {"vllm", "vllm"}};
// GEMM quantisation modes → the weights' format and the activations' entering the GEMMs. FP8 with per-tensor
// scales; FP8 with 128 × 128 blocks (DeepSeek's, Qwen's -FP8); NVFP4, E2M1 with an E4M3 scale per 16 values
// and FP4 activations (W4A4); INT4 weight-only (W4A16, Kimi's native format) as the model's nearest 4-bit format
// with a scale per 32 values (assumed: MXFP4's 4.25 bits a weight against INT4's 4.5 with a BF16 scale per 32,
// 6 % fewer weight bytes) and BF16 activations; empty: BF16.
struct Quant {
  const char* mode;
  const char* weights;
  const char* acts;
};
constexpr Quant kQuants[] = {
    {"", "bf16", "bf16"}, {"fp8", "fp8", "fp8"}, {"fp8_block", "fp8_b128", "fp8"}, {"nvfp4", "fp4_g16", "fp4_g16"}, {"int4_wo", "fp4_g32", "bf16"}};

template <typename T, std::size_t N>
const T* find(const T (&table)[N], std::string_view name) {
  for (const T& t : table) {
    if (name == t.file) return &t;
  }
  return nullptr;
}
const Quant* find_quant(std::string_view mode) {
  for (const Quant& q : kQuants) {
    if (mode == q.mode) return &q;
  }
  return nullptr;
}
template <typename T, std::size_t N>
std::string names(const T (&table)[N]) {
  std::string s;
  for (const T& t : table) s += (s.empty() ? "" : ", ") + std::string(t.file);
  return s;
}

// AIConfigurator's benchmark of an aggregated deployment, as its generator writes it
// (https://github.com/ai-dynamo/aiconfigurator, src/aiconfigurator/generator: config/backend_templates/benchmark/
// bench_run.sh.j2 and rule_plugin/benchmark/*.rule): aiperf at the concurrency with kRequestsPerClient requests per
// client after 2 per client of warm-up, fixed lengths, ignore_eos; an engine that runs at most batch_size requests per
// attention replica with CUDA graphs captured for every batch up to it; and vLLM's step budget
// (max_num_batched_tokens) set to batch_size + isl + 1500. The same rules ask TensorRT-LLM for max_num_tokens
// and SGLang for max_prefill_tokens of that size and SGLang for mixed chunks, but those rows do not read as that
// deployment (docs/validation.md: at 1K prompts their TTFT is twice what such a budget gives, and SGLang's flag
// as written, --enable-mix-chunk, is not SGLang's --enable-mixed-chunk): they replay at their engines' own
// scheduler defaults (serve_config.cpp).
// Requests per client: the measured phase's first wave (every client at once, the prompts queued behind each
// other) weighs 1 ÷ this in the mean TTFT. The file does not say which harness ran a row; the sources give 50
// (AIConfigurator's generator, BENCH_MULTI_ROUND, overridable from the environment) and 10 (Dynamo's TensorRT-LLM
// performance sweeps, https://github.com/ai-dynamo/dynamo components/backends/trtllm/performance_sweeps/scripts/
// bench.sh: genai-perf --request-count concurrency × 10 after --warmup-request-count concurrency × 2). 10 is
// fitted on the shipped file as a whole (docs/validation.md: TTFT within 1.25× 35 / 36 / 34 / 33 % at 5 / 10 /
// 20 / 50, median |log₂| 0.52 / 0.49 / 0.53 / 0.56; TPOT unchanged).
constexpr int kRequestsPerClient = 10;
constexpr int kBudgetOverIsl = 1500;

bool fail(std::string& why, std::string& reason, std::string full, std::string short_form) {
  why = std::move(full);
  reason = std::move(short_form);
  return false;
}


// A run of N GPUs that the file writes squared: tp × attention_dp = moe_tp × moe_ep = N², wider than the
// system's NVLink domain, with the experts as N × N or 1 × N². The shipped file holds the same measurements
// twice, once in each form (DeepSeek-R1 on 8 B200s under SGLang: tp 64, MoE 8 × 8 and tp 8, MoE 1 × 8, with
// equal TTFT and TPOT), so the row is read as its N GPUs: attention TP N (tp = N²) or data-parallel attention
// over N ranks (attention_dp = N², or tp = attention_dp = N), the experts over N ranks. True with the layout.
bool squared_layout(int file_tp, int gpus, int moe_tp, int ep, const char* gpu_key, int& tp, int& dp) {
  const int n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(gpus))));
  if (n < 2 || n * n != gpus) return false;
  if (!((moe_tp == n && ep == n) || (moe_tp == 1 && ep == gpus))) return false;
  model::Scenario probe;
  model::Errors errors;
  if (!model::apply_settings(probe, std::string("gpu=") + gpu_key, errors)) return false;
  if (gpus <= model::link_domain(probe.hw)) return false;
  tp = std::max(1, file_tp / n);
  if (n % tp != 0) return false;
  dp = n / tp;
  return true;
}

// One instance's layout (an aggregated run's, or one worker of a disaggregated pool), as the scenario's keys.
struct Layout {
  int gpus = 1, tp = 1, dp = 1, ep = 1;
};

// The layout of attention TP `file_tp` inside `adp` replicas, the routed experts over `moe_ep` ranks each split
// `moe_tp` ways. `pool` names the pool in messages ("" for an aggregated run, "prefill pool ", "decode pool ").
bool layout_of(int file_tp, int adp, int file_moe_tp, int file_moe_ep, bool moe_model, const char* gpu_key, const std::string& pool, Layout& out,
               std::string& why, std::string& reason) {
  int tp = file_tp, dp = std::max(1, adp);
  int gpus = tp * dp;
  // The routed experts: EP ranks, each expert split over moe_tp GPUs, together the attention's GPUs.
  int ep = 1;
  if (moe_model) {
    const int moe_tp = file_moe_tp > 0 ? file_moe_tp : file_moe_ep > 0 ? gpus / file_moe_ep : gpus;
    ep = file_moe_ep > 0 ? file_moe_ep : gpus / std::max(1, moe_tp);
    if (moe_tp * ep != gpus) {
      return fail(why, reason,
                  pool + "layout: MoE TP " + std::to_string(moe_tp) + " × EP " + std::to_string(ep) + " = " + std::to_string(moe_tp * ep) +
                      " GPUs, not the attention's TP " + std::to_string(file_tp) + " × DP " + std::to_string(dp) + " = " + std::to_string(gpus) +
                      "; the model lays the experts over every GPU of the instance, as the engines do",
                  pool + "layout MoE TP × EP ≠ GPUs");
    }
    if (squared_layout(file_tp, gpus, moe_tp, ep, gpu_key, tp, dp)) {
      gpus = tp * dp;
      ep = gpus;
    }
  }
  out = Layout{gpus, tp, dp, ep};
  return true;
}

// The row's scenario at one instance's layout: `s` holds the row's model; the GPU, engine, formats, lengths and
// the running cap (`max_batch`, also the workload's batch) are set on it. False with the scenario's own rule
// broken, naming the pool.
bool scenario_at(model::Scenario& s, const MeasuredRun& run, const Name& gpu, const Name& engine, const Quant& gemm, const Quant& moe,
                 const Layout& l, int max_batch, const std::string& pool, std::string& why, std::string& reason) {
  const std::string kv = engine.key == std::string_view("trtllm") && !run.gemm_quant.empty() ? "fp8" : "bf16";
  std::string settings = "gpu=" + std::string(gpu.key) + "&gpus=" + std::to_string(l.gpus) + "&tp=" + std::to_string(l.tp) +
                         "&dp=" + std::to_string(l.dp) + "&ep=" + std::to_string(l.ep) + "&pp=1&redundant=0&engine=" + engine.key +
                         "&max_batch=" + std::to_string(max_batch) + "&cuda_graphs=on&dense_fmt=" + gemm.weights + "&act_fmt=" + gemm.acts + "&kv_fmt=" + kv + "&spec_tokens=0" +
                         "&prompt=" + std::to_string(run.isl) + "&output=" + std::to_string(run.osl) + "&prefix_hit=0" +
                         "&batch=" + std::to_string(max_batch) + "&ctx=" + std::to_string(run.isl + run.osl);
  if (s.model.experts > 0) settings += "&experts_fmt=" + std::string(moe.weights);
  model::Errors errors;
  if (!model::apply_settings(s, settings, errors) || !(errors = model::validate(s)).empty()) {
    const model::Error& e = errors.front();
    // The short form: the key, its value and the rule it breaks ("layout tp=8: a divisor of kv_heads (4)").
    const std::string rule = e.allowed.substr(0, e.allowed.find(':'));
    // What an engine does there that the model does not express.
    std::string missing;
    if (e.field == "tp" && rule.find("kv_heads") != std::string::npos) {
      missing = "; the engines run it by keeping a copy of each KV head on tp ÷ kv_heads GPUs, which the model does not lay out";
    } else if (e.field == "tp" && rule.find("q_heads") != std::string::npos) {
      missing = "; no engine splits the query heads unevenly (the row may mean data-parallel attention, which the file does not say)";
    }
    if (pool.empty()) return fail(why, reason, "layout: " + e.message() + missing, "layout " + e.field + "=" + e.value + ": " + rule);
    return fail(why, reason, pool + "layout " + e.field + "=" + e.value + " not expressible: " + e.message() + missing,
                pool + "layout " + e.field + "=" + e.value + " not expressible: " + rule);
  }
  return true;
}

// A disaggregated row's pools (AIConfigurator's silicon columns prefill_* and decode_*: each pool's batch per
// attention rank, its workers and each worker's TP, PP, attention DP, MoE TP and EP). The generator deploys
// `workers` engines per pool, each of tp × pp × attention DP GPUs, prefill engines at max_batch_size 1 unless
// set, and sizes the benchmark's concurrency from the decode workers times their batch
// (https://github.com/ai-dynamo/aiconfigurator, src/aiconfigurator/generator/rule_plugin/benchmark/trtllm.rule:
// gpus_per_worker, prefill max_batch_size, estimated_concurrency). What serve --prefill pd cannot take is
// named, the first missing quantity the row's short reason.
bool pool_counts_given(const MeasuredRun& run, std::string& why, std::string& reason) {
  const MeasuredPool& p = run.prefill;
  const MeasuredPool& d = run.decode;
  // The counts the replay needs and the file may leave out (792 rows of the shipped file give no workers nor
  // batch sizes for either pool: no column of theirs says how many engines each pool ran).
  std::vector<std::string> missing;
  if (p.workers < 1) missing.push_back("prefill workers");
  if (d.workers < 1) missing.push_back("decode workers");
  if (p.batch < 1) missing.push_back("prefill batch size");
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size(); ++i) list += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + missing[i];
    // The short form names the workers (what every such row lacks first); the full one every count.
    const std::string first = p.workers < 1 && d.workers < 1 ? "prefill and decode workers" : missing.front();
    return fail(why, reason,
                "disaggregated: " + list + " not given (prefill_num_workers, decode_num_workers, prefill_batch_size); serve --prefill pd "
                "replays a pool of a stated size, and no other column of the row gives it",
                first + " not given");
  }
  if (p.pp > 1 || d.pp > 1) {
    const char* pool = p.pp > 1 ? "prefill" : "decode";
    return fail(why, reason, std::string(pool) + " pool: pp_size " + std::to_string(p.pp > 1 ? p.pp : d.pp) + " pipeline stages; the model runs one stage per instance",
                std::string(pool) + " pool pipeline parallel");
  }
  if (p.batch > 1) {
    return fail(why, reason,
                "prefill_batch_size " + std::to_string(p.batch) + " not expressible: serve's prefill pool runs one prompt per pass on each worker "
                "(an attention replica of the prefill layout)",
                "prefill batch " + std::to_string(p.batch) + " not expressible");
  }
  return true;
}

// The two pools as scenarios (their layouts checked as an aggregated run's are) and the deployment serve runs.
bool disagg_setup(const MeasuredRun& run, const model::Scenario& base, const Name& gpu, const Name& engine, const Quant& gemm, const Quant& moe,
                  RunSetup& out, std::string& why, std::string& reason) {
  const MeasuredPool& p = run.prefill;
  const MeasuredPool& d = run.decode;
  const bool moe_model = base.model.experts > 0;
  Layout pl, dl;
  if (!layout_of(p.tp, p.adp, p.moe_tp, p.moe_ep, moe_model, gpu.key, "prefill pool ", pl, why, reason)) return false;
  if (!layout_of(d.tp, d.adp, d.moe_tp, d.moe_ep, moe_model, gpu.key, "decode pool ", dl, why, reason)) return false;
  const int concurrency = benchmark_concurrency(run);
  if (concurrency < 1) {
    return fail(why, reason, "disaggregated: the benchmark's concurrency not given (no silicon_concurrency in silicon_data_source, no decode_batch_size)",
                "concurrency not given");
  }
  // The decode workers' running cap: the file's decode batch per attention rank (⌈concurrency ÷ (workers × DP)⌉,
  // measured_runs.h) over the worker's ranks.
  const int decode_cap = (d.batch > 0 ? d.batch : (concurrency + d.workers * dl.dp - 1) / (d.workers * dl.dp)) * dl.dp;
  model::Scenario prefill = base;
  if (!scenario_at(prefill, run, gpu, engine, gemm, moe, pl, p.batch * pl.dp, "prefill pool ", why, reason)) return false;
  model::Scenario decode = base;
  if (!scenario_at(decode, run, gpu, engine, gemm, moe, dl, decode_cap, "decode pool ", why, reason)) return false;
  out.scenario = std::move(decode);
  out.prefill_scenario = std::move(prefill);
  out.concurrency = concurrency;
  out.instances = d.workers;
  // serve's prefill workers are attention replicas of the prefill layout; a row's worker of attention DP d is d.
  out.prefill_workers = p.workers * pl.dp;
  out.prefill = PrefillMode::Pd;
  out.budget = 0;  // the decode pool admits handed-off prompts: no prompt chunk shares its steps
  return true;
}

}  // namespace

bool setup_for_run(const MeasuredRun& run, const ValidateOptions& opt, RunSetup& out, std::string& why, std::string& reason) {
  if (!run.bad.empty()) return fail(why, reason, "bad input: " + run.bad, "bad input");
  const Name* gpu = find(kSystems, run.system);
  if (!gpu) return fail(why, reason, "system: '" + run.system + "' is not one of " + names(kSystems), "unknown system " + run.system);
  const Name* engine = find(kEngines, run.backend);
  if (!engine) return fail(why, reason, "backend: '" + run.backend + "' is not one of " + names(kEngines), "unknown backend " + run.backend);
  const Quant* gemm = find_quant(run.gemm_quant);
  const Quant* moe = find_quant(run.moe_quant);
  if (!gemm || !moe) {
    const std::string& mode = gemm ? run.moe_quant : run.gemm_quant;
    return fail(why, reason, std::string(gemm ? "moe_quant_mode" : "gemm_quant_mode") + ": '" + mode +
                "' has no format in the model (fp8, fp8_block, nvfp4, int4_wo, or empty for bf16)",
                "format " + mode);
  }
  const bool disagg = run.mode == "disagg";
  if (!disagg && run.pp > 1) return fail(why, reason, "pp_size: " + std::to_string(run.pp) + " pipeline stages; the model runs one stage per instance", "pipeline parallel");
  if (disagg && !pool_counts_given(run, why, reason)) return false;
  model::Scenario s;
  if (!model_of(run, opt, s, why, reason)) return false;
  // The benchmark as AIConfigurator measures its silicon runs, aggregated or not: fixed input and output
  // lengths (aiperf with both standard deviations 0 and ignore_eos), a closed loop whose clients all start at
  // once ("all C arrive at t=0", https://github.com/ai-dynamo/aiconfigurator/blob/main/docs/design/queueing_model.md),
  // 10 requests per client (kRequestsPerClient). Its 2 warm-up requests per client run before and are not
  // counted; the replay leaves them out, so its first wave is the measured run's own.
  out.input = run.isl;
  out.output = std::max(2, run.osl);
  out.range_ratio = 0;
  if (disagg) {
    if (!disagg_setup(run, s, *gpu, *engine, *gemm, *moe, out, why, reason)) return false;
    out.requests = kRequestsPerClient * out.concurrency;
    return true;
  }
  Layout l;
  if (!layout_of(run.tp, run.adp, run.moe_tp, run.moe_ep, s.model.experts > 0, gpu->key, "", l, why, reason)) return false;
  const int concurrency = benchmark_concurrency(run);
  if (!scenario_at(s, run, *gpu, *engine, *gemm, *moe, l, concurrency, "", why, reason)) return false;
  out.scenario = std::move(s);
  out.concurrency = concurrency;
  out.requests = kRequestsPerClient * concurrency;
  out.budget = 0;
  out.prefill = PrefillMode::Auto;
  out.instances = 1;
  out.prefill_workers = 0;
  if (engine->key == std::string_view("vllm")) {
    out.budget = (concurrency + l.dp - 1) / l.dp + run.isl + kBudgetOverIsl;
    out.prefill = PrefillMode::Chunked;
  }
  return true;
}

}  // namespace tierscope::serve

