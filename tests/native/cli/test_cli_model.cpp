// The CLI with a model of one's own: every command that runs a model takes --config, and a share link that
// names an imported model (--hash with model=) gives the same output; and `validate FILE` end to end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"

using namespace tierscope;
using cli::Output;

namespace {

std::string corpus(const char* name) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr const char* kRuns =
    "id,model_path,system,backend,backend_version,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,pp_size,"
    "attention_dp_size,moe_tp_size,moe_ep_size,silicon_ttft_ms,silicon_tpot_ms\n"
    "r1,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,trtllm,,,agg,1024,128,,,4,1,1,1,1,1,40,4\n"
    "r2,meta-llama/Llama-3.1-8B-Instruct,h200_sxm,vllm,,,agg,2048,128,,,8,2,1,1,1,1,60,5\n"
    "r3,MiniMaxAI/MiniMax-M2.5,b200_sxm,vllm,,fp8,agg,1024,128,fp8,fp8,8,4,1,1,4,1,90,9\n"
    "r4,someone/Unknown-7B,h100_sxm,vllm,,,agg,1024,128,,,4,1,1,1,1,1,40,4\n";

// ModelOpt's file beside an NVFP4 export: weights and activations in FP4 (groups of 16), the KV cache in FP8.
constexpr const char* kQuant =
    R"({"producer": {"name": "modelopt", "version": "0.29.0"}, "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", )"
    R"("group_size": 16, "exclude_modules": ["lm_head"]}})";

// Files live in memory so the tests never touch the disk (the config.json files are the corpus's).
bool fake_read(const std::string& path, std::string& text, std::string& why) {
  if (path == "Qwen3-8B/config.json") text = corpus("Qwen3-8B.json");
  else if (path == "Llama-3.1-70B/config.json") text = corpus("meta-llama--Meta-Llama-3.1-70B.json");
  else if (path == "Qwen3-8B/hf_quant_config.json") text = kQuant;
  else if (path == "bad/hf_quant_config.json") text = R"({"quantization": {"quant_algo": "INT2"}})";
  else if (path == "runs.csv") text = kRuns;
  else if (path == "models/someone--Unknown-7B.json") text = corpus("Mistral-7B-v0.1.json");
  else if (path == "broken/someone/Unknown-7B/config.json") text = R"({"model_type": "mamba", "num_hidden_layers": 64})";
  else if (path == "nocol.csv") text = "model_path,system\nx,h100_sxm\n";
  else if (path == "empty/hf_quant_config.json") return true;  // a file that reads, empty
  else {
    why = "no such file";
    return false;
  }
  return !text.empty();
}

Output run(std::initializer_list<const char*> args) {
  std::vector<std::string_view> v(args.begin(), args.end());
  return cli::run_cli(v, fake_read);
}
Output run(const std::vector<std::string>& args) {
  std::vector<std::string_view> v(args.begin(), args.end());
  return cli::run_cli(v, fake_read);
}

// The share link `figures` prints for a scenario (its first line, "scenario: HASH").
std::string link_of(std::initializer_list<const char*> args) {
  const Output f = run(args);
  REQUIRE(f.exit_code == 0);
  const std::size_t nl = f.out.find('\n');
  REQUIRE(f.out.rfind("scenario: ", 0) == 0);
  return "#" + f.out.substr(10, nl - 10);
}

}  // namespace

TEST_CASE("cli: serve, fleet, chart frontier, validate and anchors take --config — a link with model= reproduces each") {
  const std::string link = link_of({"figures", "--config", "Qwen3-8B/config.json", "--preset", "llama31-8b-1xh100", "--figures", "model.params_total"});
  CHECK(link.find("model=Qwen3-8B") != std::string::npos);
  const std::vector<std::vector<std::string>> commands = {
      {"serve", "--concurrency", "4", "--requests", "8", "--format", "json"},
      {"fleet", "--hours", "0.05", "--format", "csv"},
      {"chart", "frontier", "--concurrency", "4", "--input", "512", "--output", "64", "--format", "csv"},
      {"validate", "runs.csv", "--format", "csv"},
  };
  for (const std::vector<std::string>& c : commands) {
    INFO(c[0]);
    std::vector<std::string> with_config = c, with_link = c, preset_only = c;
    for (const char* a : {"--config", "Qwen3-8B/config.json", "--preset", "llama31-8b-1xh100"}) with_config.emplace_back(a);
    with_link.emplace_back("--hash");
    with_link.push_back(link);
    preset_only.emplace_back("--preset");
    preset_only.emplace_back("llama31-8b-1xh100");
    const Output a = run(with_config), b = run(with_link), p = run(preset_only);
    CHECK(a.exit_code == 0);
    CHECK(b.exit_code == 0);
    CHECK(a.out == b.out);        // the link reopens the imported model
    CHECK_FALSE(a.out.empty());
    if (c[0] != "fleet") CHECK(a.out != p.out);  // and it is that model, not the preset's
  }
  // anchors: the carried points measured on that model, evaluated with the file's; none for a model no
  // point was measured on (named, exit 3).
  const Output an = run({"anchors", "--config", "Llama-3.1-70B/config.json", "--format", "json"});
  CHECK(an.exit_code == 0);
  CHECK(an.out.find("\"llama") != std::string::npos);
  CHECK(an.out.find("\"v41") == std::string::npos);
  const Output none = run({"anchors", "--config", "Qwen3-8B/config.json"});
  CHECK(none.exit_code == cli::kExitInvalid);
  CHECK(none.err.find("a model some carried point was measured on") != std::string::npos);
  CHECK(run({"params", "--config", "Qwen3-8B/config.json"}).exit_code == cli::kExitUsage);
}

TEST_CASE("cli: validate FILE prints the table, one line per row as JSON or CSV, and names every refusal") {
  const Output t = run({"validate", "runs.csv"});
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("4 measured runs, 3 replayed") != std::string::npos);
  CHECK(t.out.find("meta-llama/Llama-3.1-8B-Instruct · h100_sxm · trtllm") != std::string::npos);
  CHECK(t.out.find("cannot express 1: unknown model") != std::string::npos);
  const Output j = run({"validate", "runs.csv", "--format", "json"});
  REQUIRE(j.exit_code == 0);
  CHECK(std::count(j.out.begin(), j.out.end(), '\n') == 4);
  CHECK(j.out.find("\"id\":\"r3\"") != std::string::npos);
  CHECK(j.out.find("\"ttft_parts_s\"") != std::string::npos);
  const Output c = run({"validate", "runs.csv", "--format", "csv"});
  CHECK(std::count(c.out.begin(), c.out.end(), '\n') == 5);
  CHECK(c.out.rfind("line,id,model,gpu,engine", 0) == 0);
  // Refusals: no file (2), a file that cannot be read (4), a needed column missing (3, naming it).
  CHECK(run({"validate"}).exit_code == cli::kExitUsage);
  CHECK(run({"validate", "missing.csv"}).exit_code == cli::kExitFile);
  const Output n = run({"validate", "nocol.csv"});
  CHECK(n.exit_code == cli::kExitInvalid);
  CHECK(n.err.find("nocol.csv: header: 'backend'") != std::string::npos);
  CHECK(run({"validate", "runs.csv", "extra.csv"}).exit_code == cli::kExitUsage);
}

TEST_CASE("cli: validate --models DIR reads each row's own model from the user's folder") {
  // The row validate does not know replays from DIR/org--name.json; the others keep their models.
  const Output t = run({"validate", "runs.csv", "--models", "models", "--format", "csv"});
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("someone/Unknown-7B,h100_sxm,vllm,,1024,128,4,true") != std::string::npos);
  CHECK(t.out.find("unknown model") == std::string::npos);
  CHECK(t.out == run({"validate", "runs.csv", "--models", "models/", "--format", "csv"}).out);
  // A folder without it: the row is refused as before; with a file the reader refuses (DIR/org/name/config.json):
  // refused with the reader's reason, and a note names the file.
  CHECK(run({"validate", "runs.csv", "--models", "empty", "--format", "csv"}).out.find("unknown model someone/Unknown-7B") != std::string::npos);
  const Output b = run({"validate", "runs.csv", "--models", "broken", "--format", "csv"});
  REQUIRE(b.exit_code == 0);
  CHECK(b.out.find("unrepresentable mamba") != std::string::npos);
  CHECK(b.err.find("--models: broken/someone/Unknown-7B/config.json") != std::string::npos);
  // The text names the models validate knows when a row's is not among them.
  CHECK(run({"validate", "runs.csv"}).out.find("the models validate knows") != std::string::npos);
  // Only with validate, not beside --config (one model for every row), and not empty.
  CHECK(run({"serve", "--models", "models"}).exit_code == cli::kExitUsage);
  const Output both = run({"validate", "runs.csv", "--models", "models", "--config", "Qwen3-8B/config.json"});
  CHECK(both.exit_code == cli::kExitUsage);
  CHECK(both.err.find("either --models") != std::string::npos);
  CHECK(run({"validate", "runs.csv", "--models", ""}).exit_code == cli::kExitUsage);
}

// A ModelOpt export states its formats in hf_quant_config.json beside config.json: --quant-config reads it with
// the model, its bad values are named with its own file, and it means nothing without --config.
TEST_CASE("cli: --quant-config reads the hf_quant_config.json beside --config") {
  const auto figure = [](const Output& o, const std::string& id) {
    const std::size_t at = o.out.find("\n" + id);
    REQUIRE(at != std::string::npos);
    return o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
  };
  const Output plain = run({"figures", "--config", "Qwen3-8B/config.json", "--preset", "llama31-8b-1xh100", "--figures", "model.weights_bytes,kv.global_per_token"});
  const Output fp4 = run({"figures", "--config", "Qwen3-8B/config.json", "--quant-config", "Qwen3-8B/hf_quant_config.json", "--preset",
                          "llama31-8b-1xh100", "--figures", "model.weights_bytes,kv.global_per_token"});
  REQUIRE(plain.exit_code == 0);
  REQUIRE(fp4.exit_code == 0);
  CHECK(figure(plain, "model.weights_bytes") != figure(fp4, "model.weights_bytes"));
  CHECK(figure(plain, "kv.global_per_token") != figure(fp4, "kv.global_per_token"));
  const Output bad = run({"figures", "--config", "Qwen3-8B/config.json", "--quant-config", "bad/hf_quant_config.json", "--preset", "llama31-8b-1xh100"});
  CHECK(bad.exit_code == cli::kExitInvalid);
  CHECK(bad.err.find("bad/hf_quant_config.json: hf_quant_config.json.quantization.quant_algo") != std::string::npos);
  const Output missing = run({"figures", "--config", "Qwen3-8B/config.json", "--quant-config", "none/hf_quant_config.json"});
  CHECK(missing.exit_code == cli::kExitFile);
  CHECK(missing.err.find("--quant-config") != std::string::npos);
  CHECK(run({"figures", "--quant-config", "Qwen3-8B/hf_quant_config.json"}).exit_code == cli::kExitUsage);
  // An empty file given is refused by name, not read as "no quantization file" (it printed the plain figures, exit 0).
  const Output empty = run({"figures", "--config", "Qwen3-8B/config.json", "--quant-config", "empty/hf_quant_config.json"});
  CHECK(empty.exit_code == cli::kExitInvalid);
  CHECK(empty.out.empty());
  CHECK(empty.err.find("empty/hf_quant_config.json: hf_quant_config.json: (empty) is not allowed (bad-syntax); allowed: a JSON object (the file is empty)") !=
        std::string::npos);
}
