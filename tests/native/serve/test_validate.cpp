// validate: the measured-runs reader's refusals (a file's, a row's), a row as a scenario (its model, formats
// and layout, or the reason it cannot be), and the gate: the shipped file replayed whole, each engine × GPU
// held to the figures recorded in tests/data/validate-gate.csv (tools/regen-validate-gate rewrites them).
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "serve/validate.h"

using namespace tierscope;

namespace {

const char* kHeader =
    "id,model_path,system,backend,backend_version,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,pp_size,"
    "attention_dp_size,moe_tp_size,moe_ep_size,silicon_ttft_ms,silicon_tpot_ms\n";

serve::MeasuredFile read_ok(const std::string& text) {
  serve::MeasuredFile f;
  model::Errors errors;
  REQUIRE(serve::read_measured_runs(text, f, errors));
  REQUIRE(errors.empty());
  return f;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// test_trust.cpp: the shipped validated runs held to these results (or, writing, rewritten from them).
void hold_validated_runs(const std::vector<serve::RunResult>& results, const serve::MeasuredFile& file, const std::string& root, bool write);

TEST_CASE("validate: a file without a needed column is refused whole, naming the column — an empty one too") {
  serve::MeasuredFile f;
  model::Errors errors;
  CHECK_FALSE(serve::read_measured_runs("model_path,system\nx,h100_sxm\n", f, errors));
  REQUIRE(!errors.empty());
  CHECK(errors.front().code == model::ErrorCode::MissingField);
  CHECK(errors.front().value == "backend");
  errors.clear();
  CHECK_FALSE(serve::read_measured_runs("", f, errors));
  CHECK(errors.front().field == "header");
  errors.clear();
  CHECK_FALSE(serve::read_measured_runs(std::string(kHeader) + "a,\"open quote\n", f, errors));
  CHECK(errors.front().code == model::ErrorCode::BadSyntax);
}

TEST_CASE("validate: a row with a bad value keeps its reason and is counted, never replayed") {
  const serve::MeasuredFile f = read_ok(std::string(kHeader) +
                                         "a,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,vllm,,bf16,agg,1024,128,,,x8,1,1,1,1,1,30,5\n"
                                         "b,meta-llama/Llama-3.1-8B-Instruct,a100_sxm,vllm,,bf16,agg,1024,128,,,8,1,1,1,1,1,30,5\n"
                                         "c,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,vllm,,bf16,agg,1024,128,,,8,1,1,1,1,1,-3,5\n"
                                         "\"d, quoted\",meta-llama/Llama-3.1-8B-Instruct,h100_sxm,vllm,,bf16,agg,1024,128,,,8,1,1,1,1,1,30,5\n");
  REQUIRE(f.runs.size() == 4);
  CHECK(f.runs[0].bad.find("batch_size: 'x8'") != std::string::npos);
  CHECK(f.runs[2].bad.find("silicon_ttft_ms") != std::string::npos);
  CHECK(f.runs[3].id == "d, quoted");
  CHECK(f.runs[3].bad.empty());
  const serve::ValidateOptions opt;
  const serve::RunResult a = serve::validate_run(f, 0, opt), b = serve::validate_run(f, 1, opt), c = serve::validate_run(f, 2, opt);
  CHECK_FALSE(a.expressed);
  CHECK(a.reason == "bad input");
  CHECK_FALSE(b.expressed);
  CHECK(b.why.find("system: 'a100_sxm'") != std::string::npos);
  CHECK_FALSE(c.expressed);
  // The good row replays: Llama 3.1 8B on one H100 at 8 clients, the model's means beside the measured.
  const serve::RunResult d = serve::validate_run(f, 3, opt);
  REQUIRE(d.expressed);
  CHECK(d.gpus == 1);
  CHECK(d.ttft_s > 0);
  CHECK(d.tpot_s > 0);
  CHECK(d.ttft_ratio() == Approx(d.ttft_s / 0.030));
  CHECK(d.ttft_parts.overhead + d.ttft_parts.wait + d.ttft_parts.queue + d.ttft_parts.prefill == Approx(d.ttft_s).epsilon(1e-9));
  CHECK(d.scenario.rfind("preset=llama31-8b-1xh100", 0) == 0);  // the preset that is this model, on its own H100
}

TEST_CASE("validate: a row's model, formats and layout, or the missing piece named") {
  serve::RunSetup s;
  std::string why, reason;
  serve::MeasuredRun r;
  r.model_path = "deepseek-ai/DeepSeek-R1";
  r.system = "b200_sxm";
  r.backend = "sglang";
  r.mode = "agg";
  r.gemm_quant = "fp8";
  r.moe_quant = "nvfp4";
  r.isl = 1024;
  r.osl = 1024;
  r.batch = 16;
  r.tp = 8;
  r.adp = 1;
  r.moe_tp = 2;
  r.moe_ep = 4;
  const serve::ValidateOptions opt;
  // Attention TP 8 over the experts' TP 2 × EP 4: experts over 4 ranks, each split 2 ways.
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.scenario.par.tp == 8);
  CHECK(s.scenario.par.ep == 4);
  CHECK(s.scenario.model.experts_fmt == model::NumFormat::FP4_G16);
  CHECK(s.scenario.model.dense_fmt == model::NumFormat::FP8);
  CHECK(s.concurrency == 16);
  CHECK(s.requests == 160);  // 10 per client, as Dynamo's TensorRT-LLM sweeps run them (validate_setup.cpp)
  // A MoE split that does not cover the attention's GPUs.
  r.moe_ep = 8;
  CHECK_FALSE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(why.find("MoE TP 2 × EP 8 = 16 GPUs") != std::string::npos);
  CHECK(why.find("every GPU of the instance") != std::string::npos);
  // Attention TP wider than the KV heads: engines copy each KV head on tp ÷ kv_heads GPUs, and so does the model.
  {
    serve::MeasuredRun q = r;
    q.model_path = "Qwen/Qwen3-235B-A22B-FP8";
    q.system = "h100_sxm";
    q.backend = "trtllm";
    q.gemm_quant = q.moe_quant = "fp8_block";
    q.tp = 8;
    q.moe_tp = 1;
    q.moe_ep = 8;
    CHECK(serve::setup_for_run(q, opt, s, why, reason));
    CHECK(s.scenario.par.tp == 8);
    CHECK(s.scenario.model.kv_heads == 4);
  }
  // A 2026 family read from its publisher's config.json compiled in (MiniMax-M2.5: minimax_m2).
  r.model_path = "MiniMaxAI/MiniMax-M2.5";
  r.moe_ep = 4;
  CHECK(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.scenario.model.experts > 0);
  // A model id no table row names, and a disaggregated run.
  r.model_path = "someone/Unknown-7B";
  CHECK_FALSE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(why.find("--config") != std::string::npos);
  r.model_path = "deepseek-ai/DeepSeek-R1";
  r.mode = "disagg";
  CHECK_FALSE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(reason == "disaggregated pools");
}

TEST_CASE("validate: the benchmark's clients, and a layout the file writes squared, read as the run's own") {
  serve::MeasuredRun r;
  r.model_path = "deepseek-ai/DeepSeek-R1";
  r.system = "b200_sxm";
  r.backend = "trtllm";
  r.mode = "agg";
  r.gemm_quant = "fp8_block";
  r.moe_quant = "fp8_block";
  r.isl = 1024;
  r.osl = 1024;
  r.batch = 16;
  r.tp = 1;
  r.adp = 8;
  r.moe_tp = 1;
  r.moe_ep = 8;
  // batch_size counts one attention-DP rank's clients; the source note's own count wins where it gives one.
  CHECK(serve::benchmark_concurrency(r) == 128);
  r.source = "db-dump/2026-04-27; config_id=1; silicon_concurrency=96; measured=2026-04-01";
  CHECK(serve::benchmark_concurrency(r) == 96);
  r.source = "silicon_concurrency=x";
  CHECK(serve::benchmark_concurrency(r) == 128);
  r.source.clear();
  serve::RunSetup s;
  std::string why, reason;
  const serve::ValidateOptions opt;
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.concurrency == 128);
  CHECK(s.requests == 1280);
  CHECK(s.scenario.hw.gpus == 8);
  CHECK(s.scenario.par.dp == 8);
  // The same run of 8 GPUs written squared: attention DP 64 over MoE TP 8 × EP 8, wider than one B200 node.
  r.adp = 64;
  r.moe_tp = 8;
  r.batch = 2;
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.concurrency == 128);
  CHECK(s.scenario.hw.gpus == 8);
  CHECK(s.scenario.par.tp == 1);
  CHECK(s.scenario.par.dp == 8);
  CHECK(s.scenario.par.ep == 8);
  // Attention TP 64 over MoE TP 8 × EP 8: attention TP 8 on 8 GPUs.
  r.tp = 64;
  r.adp = 1;
  r.batch = 16;
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.concurrency == 16);
  CHECK(s.scenario.hw.gpus == 8);
  CHECK(s.scenario.par.tp == 8);
  CHECK(s.scenario.par.ep == 8);
  // Within one NVLink domain (GB200's 72) the same numbers are a run of their own size.
  r.system = "gb200";
  r.tp = 16;
  r.moe_tp = 4;
  r.moe_ep = 4;
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.scenario.hw.gpus == 16);
  CHECK(s.scenario.par.tp == 16);
}

TEST_CASE("validate: the deployment the benchmark ran: the batch as the running cap with graphs, and vLLM's budget batch + isl + 1500") {
  serve::MeasuredRun r;
  r.model_path = "meta-llama/Llama-3.1-70B";
  r.system = "h200_sxm";
  r.backend = "vllm";
  r.mode = "agg";
  r.gemm_quant = "fp8";
  r.moe_quant = "fp8";
  r.isl = 1024;
  r.osl = 1024;
  r.batch = 16;
  r.tp = 4;
  r.adp = 1;
  serve::RunSetup s;
  std::string why, reason;
  const serve::ValidateOptions opt;
  REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
  CHECK(s.scenario.engine.max_batch == 16);
  CHECK(s.scenario.engine.cuda_graphs == model::CudaGraphs::On);
  CHECK(s.budget == 16 + 1024 + 1500);
  CHECK(s.prefill == serve::PrefillMode::Chunked);
  // TensorRT-LLM and SGLang rows replay at their engines' own scheduler defaults.
  for (const char* engine : {"trtllm", "sglang"}) {
    r.backend = engine;
    REQUIRE(serve::setup_for_run(r, opt, s, why, reason));
    INFO(engine);
    CHECK(s.budget == 0);
    CHECK(s.prefill == serve::PrefillMode::Auto);
    CHECK(s.scenario.engine.max_batch == 16);
  }
}

// The shipped file replayed whole (about ten seconds natively; minutes under the sanitizers, where it is
// hidden and the cases above run instead). Each engine × GPU may not lose replayed rows, may not fall more
// than 5 points below its recorded share within 1.25× or within 2× (TTFT and TPOT alike), and its median
// |log₂(model ÷ measured)| may not rise more than 0.05 above the record. A change of the model that moves
// them on purpose rewrites the record with tools/regen-validate-gate, and the diff shows what moved.
#if defined(__SANITIZE_ADDRESS__)
#define TS_GATE_TAGS "[.noasan]"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_GATE_TAGS "[.noasan]"
#endif
#endif
#ifndef TS_GATE_TAGS
#define TS_GATE_TAGS "[gate]"
#endif
TEST_CASE("validate: the shipped measured runs keep every engine × GPU's recorded figures", TS_GATE_TAGS) {
  const std::string root = TIERSCOPE_SOURCE_DIR;
  const serve::MeasuredFile file = read_ok(slurp(root + "/data/silicon/measured-runs.csv"));
  REQUIRE(file.runs.size() > 2000);
  // The rows shared over two threads, as the CLI shares them over the cores (each row's replay is seeded on
  // its own, so the results do not depend on the sharing).
  std::vector<serve::RunResult> results(file.runs.size());
  const serve::ValidateOptions opt;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < file.runs.size(); i = next++) results[i] = serve::validate_run(file, i, opt);
  };
  std::thread helper(work);
  work();
  helper.join();
  const std::vector<serve::Partition> parts = serve::summarize(results, serve::PartitionBy::EngineGpu);
  const auto pct = [](int k, int n) { return n > 0 ? 100.0 * k / n : 0.0; };
  const std::string gate = root + "/tests/data/validate-gate.csv";
  const char* writing = std::getenv("TIERSCOPE_WRITE_VALIDATE_GATE");
  hold_validated_runs(results, file, root, writing && std::string(writing) == "1");
  if (const char* w = std::getenv("TIERSCOPE_WRITE_VALIDATE_GATE"); w && std::string(w) == "1") {
    std::FILE* f = std::fopen(gate.c_str(), "wb");
    REQUIRE(f);
    std::fprintf(f, "engine,gpu,rows,replayed,ttft_within_125,ttft_within_2,ttft_median_abs_log2,tpot_within_125,tpot_within_2,tpot_median_abs_log2\n");
    for (const serve::Partition& p : parts) {
      std::fprintf(f, "%s,%s,%d,%d,%.1f,%.1f,%.3f,%.1f,%.1f,%.3f\n", p.engine.c_str(), p.gpu.c_str(), p.rows, p.expressed, pct(p.ttft.within_125, p.ttft.n),
                   pct(p.ttft.within_2, p.ttft.n), p.ttft.median_abs_log2, pct(p.tpot.within_125, p.tpot.n), pct(p.tpot.within_2, p.tpot.n),
                   p.tpot.median_abs_log2);
    }
    std::fclose(f);
    WARN("wrote " << gate);
    return;
  }
  std::istringstream in(slurp(gate));
  std::string line;
  REQUIRE(std::getline(in, line));
  std::map<std::string, std::vector<double>> recorded;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string engine, gpu, cell;
    std::getline(ls, engine, ',');
    std::getline(ls, gpu, ',');
    std::vector<double> v;
    while (std::getline(ls, cell, ',')) v.push_back(std::stod(cell));
    REQUIRE(v.size() == 8);
    recorded[engine + " · " + gpu] = v;
  }
  REQUIRE(recorded.size() == parts.size());
  for (const serve::Partition& p : parts) {
    const std::string key = p.engine + " · " + p.gpu;
    INFO(key);
    REQUIRE(recorded.count(key) == 1);
    const std::vector<double>& r = recorded[key];
    CHECK(p.rows == static_cast<int>(r[0]));
    CHECK(p.expressed >= static_cast<int>(r[1]));
    if (p.expressed == 0) continue;
    CHECK(pct(p.ttft.within_125, p.ttft.n) >= r[2] - 5);
    CHECK(pct(p.ttft.within_2, p.ttft.n) >= r[3] - 5);
    CHECK(p.ttft.median_abs_log2 <= r[4] + 0.05);
    CHECK(pct(p.tpot.within_125, p.tpot.n) >= r[5] - 5);
    CHECK(pct(p.tpot.within_2, p.tpot.n) >= r[6] - 5);
    CHECK(p.tpot.median_abs_log2 <= r[7] + 0.05);
  }
}
