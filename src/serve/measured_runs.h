// A file of measured serving runs (the columns of AIConfigurator's silicon sample: model, GPU system, engine
// and version, formats, lengths, the benchmark's concurrency, the layout, the measured mean TTFT and TPOT)
// read into rows. Pure: the caller reads the file. A file without a needed column is refused whole; a row
// with a bad value is kept with the reason, so it counts as a run that cannot be expressed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"

namespace tierscope::serve {

// One pool of a disaggregated run (prefill or decode): its workers, each worker's layout and batch.
struct MeasuredPool {
  int batch = 0, workers = 0, tp = 0, pp = 0, adp = 0, moe_tp = 0, moe_ep = 0;
};

struct MeasuredRun {
  int line = 0;               // the file's line (the header is line 1)
  std::string id;             // the run's own name in the file
  std::string model_path;     // the publisher's model id: "deepseek-ai/DeepSeek-R1"
  std::string system;         // h100_sxm, h200_sxm, b200_sxm, b300_sxm, gb200, gb300
  std::string backend;        // trtllm, sglang, vllm
  std::string version;        // the engine's version as the file gives it (may be empty)
  std::string precision;      // fp8, fp4, bf16, int4 or empty
  std::string mode;           // agg or disagg
  std::string gemm_quant;     // fp8, fp8_block, nvfp4, int4_wo, or empty (bf16)
  std::string moe_quant;      // the routed experts' mode, as gemm_quant
  int isl = 0, osl = 0;       // input and output tokens per request
  int batch = 0;              // batch_size: the benchmark's clients per attention-DP rank (benchmark_concurrency)
  int tp = 0, pp = 0, adp = 0, moe_tp = 0, moe_ep = 0;  // aggregated: attention TP, PP, attention DP, MoE TP × EP
  MeasuredPool prefill, decode;                         // disaggregated: the two pools
  double ttft_ms = 0, tpot_ms = 0;                      // measured means
  std::string source;         // silicon_data_source: the sample's own note of where the row came from (may be empty)
  std::string bad;            // why the row cannot be read ("" when it can): a bad number, an unknown system, …
};

struct MeasuredFile {
  std::vector<MeasuredRun> runs;
};

// The largest file read: the shipped one is about 1 MB.
constexpr std::size_t kMaxMeasuredBytes = 64u << 20;

// Reads CSV text (RFC 4180 quoting, a header line naming the columns in any order, extra columns ignored).
// False with errors naming the file's problem (empty, too large, a needed column missing, a malformed
// quote); each row's own problem is kept in MeasuredRun::bad instead.
bool read_measured_runs(std::string_view csv, MeasuredFile& out, model::Errors& errors);

// The benchmark's concurrent clients: the row's source note's `silicon_concurrency=N` where it gives one,
// else batch_size × attention_dp_size (the file's batch_size counts one attention-DP rank's clients: on every
// attention-DP row of the shipped file the note's concurrency is that product). A disaggregated row without
// the note: decode_batch_size × decode workers × their attention DP (the file's decode batch is the clients per
// decode rank, rounded up: on each of the shipped file's 144 disaggregated rows that give both it is
// ⌈concurrency ÷ (workers × attention DP)⌉, so the product is the concurrency where that divides evenly and at
// most one client per rank above it elsewhere); 0 where the workers are not given.
int benchmark_concurrency(const MeasuredRun& run);

// The columns a file must have, for messages and docs.
std::string measured_columns_text();

}  // namespace tierscope::serve
