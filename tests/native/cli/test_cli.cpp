// The CLI end to end through its pure layer: arguments in, output text and exit codes out.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "anchors_doc.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "codec/json_codec.h"
#include "evidence/anchors.h"
#include "model/presets.h"

using namespace tierscope;
using cli::Output;

namespace {

// Files live in memory so the tests never touch the disk.
bool fake_read(const std::string& path, std::string& text, std::string& why) {
  if (path == "h200.json") {
    text = R"({"preset":"v41-flash-8xh200","workload":{"ctx":1048576}})";
    return true;
  }
  if (path == "bad.json") {
    text = R"({"workload":{"ctx":-4}})";
    return true;
  }
  if (path == "full.json") {
    text = model::scenario_to_json(model::default_scenario());
    return true;
  }
  if (path == "one-run.csv") {
    // A measured-runs file of one aggregated run (the columns validate needs).
    text =
        "id,model_path,system,backend,backend_version,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,"
        "pp_size,attention_dp_size,moe_tp_size,moe_ep_size,silicon_ttft_ms,silicon_tpot_ms\n"
        "r1,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,trtllm,,,agg,1024,128,,,4,1,1,1,1,1,40,4\n";
    return true;
  }
  if (path == "Qwen3-8B/config.json" || path == "mamba.json") {
    // A real config.json from the corpus (tests/data/hf_configs), and one the reader must refuse.
    if (path == "mamba.json") {
      text = R"({"model_type": "mamba", "num_hidden_layers": 64})";
      return true;
    }
    std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/Qwen3-8B.json", std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return !text.empty();
  }
  why = "no such file";
  return false;
}

Output run(std::initializer_list<const char*> args) {
  std::vector<std::string_view> v(args.begin(), args.end());
  return cli::run_cli(v, fake_read);
}

}  // namespace

TEST_CASE("cli: help and listing commands succeed") {
  CHECK(run({}).out.find("Usage: tierscope") != std::string::npos);
  CHECK(run({"--help"}).exit_code == cli::kExitOk);
  const Output p = run({"presets"});
  CHECK(p.exit_code == 0);
  for (const model::PresetInfo& info : model::presets()) CHECK(p.out.find(info.name) != std::string::npos);
  const Output k = run({"params", "--format", "csv"});
  CHECK(k.exit_code == 0);
  CHECK(k.out.find("\nctx,workload,tokens,") != std::string::npos);
}

TEST_CASE("cli: figures in text, json and csv") {
  const Output t = run({"figures", "--figures", "kv.global_per_token"});
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("(3 layers / 2 + 1 layer) × (main entry 288 B + index key 68 B)") != std::string::npos);
  const Output j = run({"figures", "--format=json", "--set", "ctx=1048576"});
  CHECK(j.exit_code == 0);
  // The JSON writer escapes '&' (the same text is safe inside an HTML page).
  CHECK(j.out.find("\"hash\": \"preset=v41-flash-8xb200\\u0026ctx=1048576\"") != std::string::npos);
  const Output c = run({"figures", "--format", "csv", "--preset", "llama31-70b-8xh100", "--figures", "kv.global_per_token"});
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("kv.global_per_token,Global KV per token,327680,") != std::string::npos);
}

TEST_CASE("cli: an id an earlier release printed still answers, with a note naming the new id") {
  const Output o = run({"figures", "--format", "csv", "--figures", "decode.step_floor"});
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("\ndecode.step_time,") != std::string::npos);
  CHECK(o.err.find("figure decode.step_floor is now decode.step_time") != std::string::npos);
}

TEST_CASE("cli: scenario files") {
  const Output f = run({"figures", "--scenario", "h200.json", "--figures", "hbm.sessions", "--format", "csv"});
  CHECK(f.exit_code == 0);
  // H200 at TP4 with the Engram tables in host DRAM: ⌊(126.9 − 4 − 74.64 GB) / 935.9 MB⌋ at 1M tokens.
  CHECK(f.out.find("hbm.sessions,\"Sessions the instance runs at once: those its HBM holds, at most the engine's cap\",51,") != std::string::npos);
  CHECK(run({"figures", "--scenario", "full.json"}).exit_code == 0);
  CHECK(run({"figures", "--scenario", "missing.json"}).exit_code == cli::kExitFile);
  const Output bad = run({"figures", "--scenario", "bad.json"});
  CHECK(bad.exit_code == cli::kExitInvalid);
  CHECK(bad.err.find("bad.json: workload.ctx") != std::string::npos);
}

TEST_CASE("cli: check-card lists every claim with a verdict") {
  const Output o = run({"check-card", "--format", "csv"});
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("weights-per-token,~32 GB/token streamed,") != std::string::npos);
  CHECK(o.out.find(",holds only if,") != std::string::npos);
}

TEST_CASE("cli: sweep over one and two parameters") {
  const Output a = run({"sweep", "--over", "ctx=1024:8192:x2", "--figures", "kv.per_session"});
  CHECK(a.exit_code == 0);
  CHECK(a.out == "ctx,kv.per_session,feasible,why\n1024,3614720,true,\n2048,4526080,true,\n4096,6348800,true,\n8192,9994240,true,\n");
  const Output b = run({"sweep", "--over", "batch=1,8", "--over", "mbu=0.5:1:+0.25", "--figures", "decode.distinct_experts"});
  CHECK(b.exit_code == 0);
  CHECK(b.out.find("batch,mbu,decode.distinct_experts,feasible,why\n1,0.5,6,true,\n1,0.75,6,true,\n1,1,6,true,\n8,0.5,45.455") == 0);
  // A point that cannot run is marked, not printed: beyond capacity the step time is blank.
  const Output m = run({"sweep", "--over", "batch=1,100000", "--figures", "hbm.sessions,decode.step_time"});
  CHECK(m.exit_code == 0);
  CHECK(m.out.find("\n100000,273,,false,\"batch 100,000 exceeds the 273 sessions") != std::string::npos);
  // An invalid point stops the sweep with the scenario exit code.
  const Output c = run({"sweep", "--over", "tp=1,3"});
  CHECK(c.exit_code == cli::kExitInvalid);
  CHECK(c.out.empty());
}

// One test case for the three formats: the replays behind them run once per process (their fronts are
// cached), and each replay of every anchor costs seconds, minutes under the sanitizers, where the case is
// hidden ([.noasan]) and the replay's own tests run instead.
#if defined(__SANITIZE_ADDRESS__)
#define TS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_UNDER_ASAN 1
#endif
#endif
#ifdef TS_UNDER_ASAN
#define TS_ANCHORS_TAGS "[.noasan]"
#endif
#ifndef TS_ANCHORS_TAGS
#define TS_ANCHORS_TAGS "[anchors]"
#endif
TEST_CASE("cli: anchors list every measured point with its ratio, and as JSON, CSV and text they agree: every ratio, whether it counts, and the summary",
          TS_ANCHORS_TAGS) {
  const Output a = run({"anchors", "--format", "csv"});
  CHECK(a.exit_code == 0);
  CHECK(a.out.find("v41-gb300-c1,DeepSeek V4.1,0,TPOT,0.0021,") != std::string::npos);
  const Output j = run({"anchors", "--format", "json"});
  const Output t = run({"anchors"});
  REQUIRE(j.exit_code == 0);
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("model/measured") != std::string::npos);
  CHECK(t.out.find("per decode step") != std::string::npos);
  CHECK(t.out.find("per prefill pass") != std::string::npos);
  CHECK(t.out.find("\n== Qwen3\n") != std::string::npos);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  const auto& list = doc.at("anchors");
  REQUIRE(list.size() == model::anchors().size());
  int counted = 0, within = 0, replay = 0;
  for (const auto& x : list) {
    const std::string id = x.at("id").get<std::string>();
    INFO(id);
    const std::size_t at = t.out.find("\n" + id + "  ");
    REQUIRE(at != std::string::npos);
    const std::size_t end = t.out.find("\n\n", at + 1);
    const std::string block = t.out.substr(at, end - at);
    const bool counts = x.at("counts").get<bool>();
    CHECK(block.find(counts ? "counts toward the aim: yes" : "counts toward the aim: no") != std::string::npos);
    if (x.at("replay").get<bool>()) ++replay;
    if (!x.at("ok").get<bool>()) {
      CHECK(block.find("not computed: " + x.at("why").get<std::string>()) != std::string::npos);
      if (counts) ++counted;  // a miss: it counts, never within 2×
      continue;
    }
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "model/measured %.2f", x.at("ratio").get<double>());
    CHECK(block.find(ratio) != std::string::npos);
    if (counts) {
      ++counted;
      if (std::fabs(std::log2(x.at("ratio").get<double>())) <= 1) ++within;
    }
  }
  const auto& s = doc.at("summary");
  CHECK(s.at("points").get<int>() == counted);
  CHECK(s.at("within_2x").get<int>() == within);
  CHECK(s.at("replay").get<int>() == replay);
  CHECK(t.out.find("SUMMARY: " + s.at("text").get<std::string>() + "\n") != std::string::npos);

  // docs/anchors.md's tables are this output: a document left behind by a change of the model or of a point
  // fails here (TIERSCOPE_WRITE_ANCHORS_DOC=1, which tools/regen-anchors-doc sets, rewrites them instead).
  {
    const std::string path = std::string(TIERSCOPE_SOURCE_DIR) + "/docs/anchors.md";
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    const std::string document((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string tables = tierscope::testing::anchors_doc_tables(doc);
    if (const char* w = std::getenv("TIERSCOPE_WRITE_ANCHORS_DOC"); w && std::string(w) == "1") {
      std::string rewritten;
      REQUIRE(tierscope::testing::splice_anchors_doc(document, tables, rewritten));
      std::ofstream(path, std::ios::binary) << rewritten;
      WARN("wrote " << path);
    } else {
      INFO("docs/anchors.md's tables are not what `tierscope anchors` prints now: rewrite them with tools/regen-anchors-doc and read the diff");
      CHECK(tierscope::testing::generated_part(document) == tables);
    }
  }

  // The replayed summary is the replays' own ratios, and it holds the aim docs/anchors.md states: at least
  // 90 % of the replayed points within 2× and a median |log₂(replay ÷ measured)| of at most 0.35. A change
  // to the model or to how a source is read that loses it fails here, with the numbers. A replay that stops
  // computing is a miss on both counts, never dropped from them.
  std::vector<double> logs;
  int replayed_within = 0;
  for (const auto& x : list) {
    const auto& r = x.at("replayed");
    if (r.is_null()) continue;
    INFO(x.at("id").get<std::string>() << " replayed: " << r.dump());
    CHECK(r.at("ok").get<bool>());  // every replay computes today: one that stops fails here by name
    if (!r.at("ok").get<bool>()) {
      logs.push_back(std::numeric_limits<double>::infinity());
      continue;
    }
    logs.push_back(std::fabs(std::log2(r.at("ratio").get<double>())));
    if (logs.back() <= 1) ++replayed_within;
  }
  REQUIRE(!logs.empty());
  std::sort(logs.begin(), logs.end());
  const std::size_t n = logs.size();
  const double median = n % 2 ? logs[n / 2] : 0.5 * (logs[n / 2 - 1] + logs[n / 2]);
  const auto& rs = s.at("replayed");
  CHECK(rs.at("points").get<int>() == static_cast<int>(n));
  CHECK(rs.at("within_2x").get<int>() == replayed_within);
  CHECK(rs.at("median_abs_log2").get<double>() == Approx(median).epsilon(1e-12));
  INFO(rs.at("text").get<std::string>());
  CHECK(10 * replayed_within >= 9 * static_cast<int>(n));
  CHECK(median <= 0.35);
}

TEST_CASE("cli: the anchors document's tables are replaced between its markers, and a document without them is refused") {
  using tierscope::testing::kAnchorsDocBegin;
  using tierscope::testing::kAnchorsDocEnd;
  const std::string part = std::string(kAnchorsDocBegin) + "\nold\n" + std::string(kAnchorsDocEnd) + "\n";
  const std::string doc = "before\n" + part + "after\n";
  CHECK(tierscope::testing::generated_part(doc) == part);
  std::string out;
  const std::string fresh = std::string(kAnchorsDocBegin) + "\nnew\n" + std::string(kAnchorsDocEnd) + "\n";
  REQUIRE(tierscope::testing::splice_anchors_doc(doc, fresh, out));
  CHECK(out == "before\n" + fresh + "after\n");
  CHECK_FALSE(tierscope::testing::splice_anchors_doc("no markers\n", fresh, out));
  CHECK_FALSE(tierscope::testing::splice_anchors_doc(std::string(kAnchorsDocEnd) + "\n" + std::string(kAnchorsDocBegin) + "\n", fresh, out));
  CHECK(tierscope::testing::generated_part("no markers\n").empty());
}

TEST_CASE("cli: bad flags and values map to distinct exit codes") {
  CHECK(run({"frobnicate"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--bogus"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--set"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--set", "ctx"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--format", "xml"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "figures"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--figures", "nope"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--preset", "x", "--scenario", "h200.json"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx=1:2:x1"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx=1:16777216:+1"}).exit_code == cli::kExitUsage);  // too many points
  CHECK(run({"sweep", "--over", "gpu=1:2:+1"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx=1,2", "--over", "ctx=3"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx=1,2", "--format", "json"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--over", "ctx=1,2"}).exit_code == cli::kExitUsage);
  const Output u = run({"figures", "--preset", "nope"});
  CHECK(u.exit_code == cli::kExitInvalid);
  CHECK(u.err.find("'nope'") != std::string::npos);
  const Output v = run({"figures", "--set", "mbu=nan"});
  CHECK(v.exit_code == cli::kExitInvalid);
  CHECK(v.err.find("not-finite") != std::string::npos);
  CHECK(run({"figures", "--set", "preset=v41-flash-card"}).exit_code == cli::kExitInvalid);
  // Dependent fields move together, and the CLI says so.
  const Output h = run({"figures", "--set", "prefix_hit=99999", "--figures", "prefix.hit_bytes"});
  CHECK(h.exit_code == cli::kExitOk);
  CHECK(h.err.find("also set prompt 8192 → 99999") != std::string::npos);
  // A setup that cannot run still prints what holds, names why on stderr and exits 3.
  const Output g = run({"figures", "--set", "gpus=1"});
  CHECK(g.exit_code == cli::kExitInvalid);
  CHECK(g.out.find("this setup cannot run") != std::string::npos);
  CHECK(g.out.find("890 B/token") != std::string::npos);
  CHECK(g.err.find("gpus: '1 GPU (500.8 GB of weights per GPU)' is not allowed (infeasible)") != std::string::npos);
  CHECK(run({"ledger", "--path", "decode", "--set", "batch=4096"}).exit_code == cli::kExitInvalid);
  // Oversized argument lists and arguments are refused before any work.
  std::vector<std::string_view> many(65, "figures");
  CHECK(cli::run_cli(many, fake_read).exit_code == cli::kExitUsage);
  const std::string huge(5000, 'x');
  const std::vector<std::string_view> one = {"figures", huge};
  CHECK(cli::run_cli(one, fake_read).exit_code == cli::kExitUsage);
}

// Each of these ran (exit 0) with the flag or its value silently ignored or read as something else; each is now a
// usage error that names the flag, the value and what is allowed, before any work.
TEST_CASE("cli: a flag given twice, an empty name, a flag the command ignores and a number in another notation are refused") {
  const auto refused = [](std::initializer_list<const char*> args, const std::string& message) {
    const Output o = run(args);
    INFO(o.err);
    CHECK(o.exit_code == cli::kExitUsage);
    CHECK(o.out.empty());
    CHECK(o.err.find("tierscope: " + message) != std::string::npos);
  };
  // Twice: the last one used to win (only --hash was refused).
  refused({"figures", "--format", "csv", "--format", "json"}, "--format: 'json' is not allowed (duplicate-key); allowed: the flag once (--set, --over and --figures may repeat)");
  refused({"figures", "--preset", "llama31-8b-1xh100", "--preset", "deepseek-v3-8xh200"}, "--preset: 'deepseek-v3-8xh200' is not allowed (duplicate-key); allowed: the flag once (--set, --over and --figures may repeat)");
  refused({"ledger", "--path", "decode", "--path=prefill"}, "--path: 'prefill' is not allowed (duplicate-key); allowed: the flag once (--set, --over and --figures may repeat)");
  refused({"serve", "--concurrency", "8", "--concurrency", "9"}, "--concurrency: '9' is not allowed (duplicate-key); allowed: the flag once (--set, --over and --figures may repeat)");
  refused({"figures", "--hash", "#ctx=1024", "--hash", "#ctx=2048"}, "--hash: '#ctx=2048' is not allowed (duplicate-key); allowed: the flag once (--set, --over and --figures may repeat)");
  // The flags that add up still do.
  CHECK(run({"figures", "--set", "ctx=1024", "--set", "batch=2", "--figures", "kv.per_session", "--figures", "hbm.sessions"}).exit_code == cli::kExitOk);
  CHECK(run({"sweep", "--over", "ctx=1024,2048", "--over", "batch=1,2", "--figures", "kv.per_session"}).exit_code == cli::kExitOk);
  // Empty names: the default preset ran, and an empty ledger filter kept every move (on any command).
  refused({"figures", "--preset", ""}, "--preset: (empty) is not allowed (bad-syntax); allowed: a preset's name (see `tierscope presets`)");
  refused({"ledger", "--path", "decode", "--tier", ""}, "--tier: (empty) is not allowed (bad-syntax); allowed: one of: sram, hbm, dram, ssd, tokens, encoder, stream, decoder, nic, peer-hbm");
  refused({"figures", "--object="}, "--object: (empty) is not allowed (bad-syntax); allowed: one of: working-set, moe-weights, global-kv");
  // Flags the command does not read: the listing commands build no scenario, and only figures, sweep and chart
  // sweep pick figures.
  refused({"presets", "--set", "ctx=5"}, "--set: 'ctx=5' is not allowed (bad-syntax); allowed: only with figures, check-card, sweep, ledger, anchors, chart, fleet, serve or validate");
  refused({"params", "--preset", "llama31-8b-1xh100"}, "--preset: 'llama31-8b-1xh100' is not allowed (bad-syntax); allowed: only with figures, check-card, sweep, ledger, anchors, chart, fleet, serve or validate");
  refused({"params", "--scenario", "h200.json"}, "--scenario: 'h200.json' is not allowed (bad-syntax); allowed: only with figures, check-card, sweep, ledger, anchors, chart, fleet, serve or validate");
  refused({"ledger", "--path", "decode", "--figures", "kv.per_session"}, "--figures: 'kv.per_session' is not allowed (bad-syntax); allowed: only with figures, sweep or chart sweep");
  refused({"serve", "--figures", "x"}, "--figures: 'x' is not allowed (bad-syntax); allowed: only with figures, sweep or chart sweep");
  refused({"check-card", "--figures", "x"}, "--figures: 'x' is not allowed (bad-syntax); allowed: only with figures, sweep or chart sweep");
  // chart frontier reads --input, --output and --concurrency (and the seed); serve's other flags changed nothing.
  refused({"chart", "frontier", "--rate", "5"}, "--rate: '5' is not allowed (bad-syntax); allowed: with chart frontier only --input, --output and --concurrency (the others: serve or chart serve-latency)");
  refused({"chart", "frontier", "--input", "512", "--tiers", "off"}, "--tiers: 'off' is not allowed (bad-syntax); allowed: with chart frontier only --input, --output and --concurrency");
  CHECK(cli::parse_args(std::vector<std::string_view>{"chart", "frontier", "--input", "512", "--output", "64", "--concurrency", "4", "--seed", "2"}).errors.empty());
  CHECK(cli::parse_args(std::vector<std::string_view>{"chart", "serve-latency", "--rate", "5", "--tiers", "off"}).errors.empty());
  // Hex and padded numbers: strtod read "0x10" as 16 and " 8" as 8 for serve's flags and --over, where --set refused them.
  refused({"serve", "--concurrency", "0x10"}, "--concurrency: '0x10' is not allowed (out-of-range); allowed: a whole number from 1 to 100000");
  refused({"serve", "--rate", " 2"}, "--rate: ' 2' is not allowed (out-of-range); allowed: requests per second above 0, at most 1000000");
  CHECK(run({"sweep", "--over", "ctx=0x400:0x800:x2"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx= 1024:2048:x2"}).exit_code == cli::kExitUsage);
  CHECK(run({"sweep", "--over", "ctx=1024:2048:x2"}).exit_code == cli::kExitOk);
  CHECK(run({"serve", "--concurrency", "+4", "--requests", "1e2", "--format", "json"}).exit_code == cli::kExitOk);
  // A value out of range is named as typed, not as the double it reads as ('9.223372036854776e+18').
  const Output big = run({"figures", "--set", "ctx=9223372036854775808"});
  CHECK(big.exit_code == cli::kExitInvalid);
  CHECK(big.err.find("--set ctx: '9223372036854775808' is not allowed (out-of-range)") != std::string::npos);
  CHECK(run({"figures", "--hash", "#ctx=1e308"}).err.find("--hash ctx: '1e308' is not allowed (out-of-range)") != std::string::npos);
}

TEST_CASE("cli: a serve run in which every request is refused prints its summary and exits 3, naming why") {
  // Prompts longer than the KV one instance holds: nothing completes, nothing is measured.
  const Output all = run({"serve", "--preset", "llama31-8b-1xh100", "--input", "200000", "--concurrency", "1", "--requests", "20"});
  CHECK(all.exit_code == cli::kExitInvalid);
  CHECK(all.out.find("Refused requests:") != std::string::npos);
  CHECK(all.err.find("every request was refused (20)") != std::string::npos);
  // Some completing is a result (exit 0), whatever else was refused.
  CHECK(run({"serve", "--preset", "llama31-8b-1xh100", "--input", "1024", "--concurrency", "2", "--requests", "4"}).exit_code == cli::kExitOk);
}

// The unknown-flag refusal is built from the parser's own tables: every flag it lists is one the parser takes.
TEST_CASE("cli: every flag an unknown-flag refusal lists is taken by the parser") {
  const cli::ParseResult bad = cli::parse_args(std::vector<std::string_view>{"figures", "--bogus"});
  REQUIRE(bad.errors.size() == 1);
  const std::string allowed = bad.errors[0].allowed;
  CHECK(allowed.find("--steps-from") != std::string::npos);
  CHECK(allowed.find("--concurrency") != std::string::npos);
  std::size_t at = 0, listed = 0;
  while (at < allowed.size()) {
    std::size_t comma = allowed.find(", ", at);
    if (comma == std::string::npos) comma = allowed.size();
    const std::string flag = allowed.substr(at, comma - at);
    at = comma + 2;
    ++listed;
    if (flag == "--help") continue;
    INFO(flag);
    const cli::ParseResult r = cli::parse_args(std::vector<std::string_view>{"figures", flag, "x"});
    for (const auto& e : r.errors) CHECK(e.code != model::ErrorCode::UnknownKey);
  }
  CHECK(listed >= 29);
}

TEST_CASE("cli: --config puts a config.json's model on the preset's hardware for figures, ledger, sweep and check-card") {
  const Output f = run({"figures", "--config", "Qwen3-8B/config.json", "--preset", "llama31-8b-1xh100", "--set", "ctx=32768",
                        "--figures", "kv.global_per_token", "--format", "json"});
  CHECK(f.exit_code == cli::kExitOk);
  CHECK(f.out.find("\"preset\": \"config:Qwen3-8B\"") != std::string::npos);  // named after its folder
  CHECK(f.out.find("\"value\": 147456") != std::string::npos);                // 2 × 36 layers × 8 KV heads × 128 × 2 B
  CHECK(f.out.find("num_key_value_heads") != std::string::npos);               // the source names the field
  CHECK(f.err.find("tierscope: note: Qwen3-8B/config.json: KV cache") != std::string::npos);
  // The share link carries the model's keys on the preset it kept.
  CHECK(f.out.find("\"hash\": \"preset=llama31-8b-1xh100\\u0026model=Qwen3-8B\\u0026ctx=32768\\u0026modes=") != std::string::npos);
  // --set applies after the file and reads as an override of it.
  const Output o = run({"figures", "--config", "Qwen3-8B/config.json", "--preset", "llama31-8b-1xh100", "--set", "ctx=32768",
                        "--set", "kv_fmt=fp8", "--figures", "kv.global_per_token", "--format", "csv"});
  CHECK(o.exit_code == cli::kExitOk);
  CHECK(o.out.find(",73728,") != std::string::npos);
  CHECK(o.out.find(",override,") != std::string::npos);

  CHECK(run({"ledger", "--path", "decode", "--config", "Qwen3-8B/config.json", "--set", "ctx=32768"}).exit_code == cli::kExitOk);
  const Output sw = run({"sweep", "--config", "Qwen3-8B/config.json", "--over", "ctx=1024,4096", "--figures", "kv.per_session"});
  CHECK(sw.exit_code == cli::kExitOk);
  CHECK(sw.out == "ctx,kv.per_session,feasible,why\n1024,150994944,true,\n4096,603979776,true,\n");
  CHECK(run({"check-card", "--config", "Qwen3-8B/config.json", "--set", "ctx=32768"}).exit_code == cli::kExitOk);
  CHECK(run({"figures", "--config", "Qwen3-8B/config.json", "--scenario", "h200.json", "--set", "ctx=32768"}).exit_code == cli::kExitOk);
}

TEST_CASE("cli: --config errors keep the exit codes: 4 unreadable, 3 refused, 2 misused") {
  CHECK(run({"figures", "--config", "missing/config.json"}).exit_code == cli::kExitFile);
  const Output r = run({"figures", "--config", "mamba.json"});
  CHECK(r.exit_code == cli::kExitInvalid);
  CHECK(r.err.find("mamba.json: model_type: 'mamba' is not allowed (unrepresentable)") != std::string::npos);
  CHECK(r.out.empty());
  CHECK(run({"presets", "--config", "Qwen3-8B/config.json"}).exit_code == cli::kExitUsage);
  CHECK(run({"figures", "--config", ""}).exit_code == cli::kExitUsage);
  // A model the layout cannot split on this many GPUs is re-spread, and the CLI says so.
  const Output m = run({"figures", "--config", "Qwen3-8B/config.json", "--preset", "deepseek-v3-8xh200", "--set", "ctx=32768",
                        "--figures", "kv.global_per_token"});
  CHECK(m.exit_code == cli::kExitOk);
  CHECK(m.err.find("layout: ep 8 → 1") != std::string::npos);
}

TEST_CASE("cli: --hash reads a share link: the same scenario and path as --preset, --set and --path") {
  const Output a = run({"ledger", "--hash", "#preset=v41-flash-8xh200&ctx=1048576&path=prefill&step=3&tour=1", "--format", "csv"});
  const Output b = run({"ledger", "--preset", "v41-flash-8xh200", "--set", "ctx=1048576", "--path", "prefill", "--format", "csv"});
  CHECK(a.exit_code == 0);
  CHECK(a.out == b.out);
  const Output f = run({"figures", "--hash", "preset=llama31-70b-8xh100&batch=8", "--format", "json"});
  const Output g = run({"figures", "--preset", "llama31-70b-8xh100", "--set", "batch=8", "--format", "json"});
  CHECK(f.exit_code == g.exit_code);
  CHECK(f.out == g.out);
  // A walkthrough step without a path names the path it tells.
  CHECK(run({"ledger", "--hash", "tour=3"}).out == run({"ledger", "--path", "engram"}).out);
  // --set applies after the hash.
  CHECK(run({"figures", "--hash", "ctx=4096", "--set", "batch=2", "--format", "csv"}).out ==
        run({"figures", "--set", "ctx=4096", "--set", "batch=2", "--format", "csv"}).out);
}

TEST_CASE("cli: a bad --hash names every bad key and runs nothing") {
  const Output o = run({"figures", "--hash", "ctx=banana&path=warp&speed=99&colour=red"});
  CHECK(o.exit_code == cli::kExitInvalid);
  CHECK(o.out.empty());
  for (const char* field : {"--hash ctx", "--hash path", "--hash speed", "--hash colour"}) CHECK(o.err.find(field) != std::string::npos);
  CHECK(run({"figures", "--hash", "ctx=4096", "--preset", "v41-flash-8xh200"}).exit_code == cli::kExitUsage);
  CHECK(run({"ledger", "--hash", "path=decode", "--path", "prefill"}).exit_code == cli::kExitUsage);
  CHECK(run({"ledger", "--hash", "ctx=4096"}).exit_code == cli::kExitUsage);  // no path anywhere
  CHECK(run({"presets", "--hash", "ctx=4096"}).exit_code == cli::kExitUsage);
}

TEST_CASE("cli: ledger --tier and --object keep the matching entries, as the page's filtered download") {
  const Output all = run({"ledger", "--path", "decode", "--format", "csv"});
  const Output kv = run({"ledger", "--path", "decode", "--format", "csv", "--object", "global-kv"});
  const Output sram = run({"ledger", "--path", "decode", "--format", "json", "--tier", "sram"});
  CHECK(kv.exit_code == 0);
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  CHECK(lines(kv.out) > 1);
  CHECK(lines(kv.out) < lines(all.out));
  std::istringstream rows(kv.out);
  std::string row;
  std::getline(rows, row);  // header
  while (std::getline(rows, row)) CHECK(row.find(",global-kv,") != std::string::npos);
  CHECK(sram.out.find("\"filter\": {\"tier\": \"sram\", \"object\": null}") != std::string::npos);
  const Output bad = run({"ledger", "--path", "decode", "--tier", "attic", "--object", "gold"});
  CHECK(bad.exit_code == cli::kExitUsage);
  CHECK(bad.err.find("--tier: 'attic'") != std::string::npos);
  CHECK(bad.err.find("--object: 'gold'") != std::string::npos);
  CHECK(run({"figures", "--tier", "sram"}).exit_code == cli::kExitUsage);
}

TEST_CASE("cli: check-card JSON carries the numbers as the page shows them") {
  const Output o = run({"check-card", "--format", "json"});
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("\"claims\": [") != std::string::npos);
  CHECK(o.out.find("\"value_text\": ") != std::string::npos);
  CHECK(o.out.find("\"band\": ") != std::string::npos);
}

// A command is one row (cli/commands.h): its name parses to it, its line is in the help, it runs through
// the dispatch, and the flags that need a scenario (or a config.json) go with exactly the rows that say so.
TEST_CASE("cli: every command's row names, documents, runs and refuses flags as it says") {
  const std::string help = run({"--help"}).out;
  for (const cli::CommandDef& c : cli::commands()) {
    INFO(c.name);
    std::vector<std::string_view> args = {c.name};
    const cli::ParseResult parsed = cli::parse_args(args);
    CHECK(parsed.options.command == c.id);
    CHECK(&cli::command_def(c.id) == &c);
    CHECK(help.find("\n  " + std::string(c.usage) + " ") != std::string::npos);
    // Run it as the shortest invocation the command takes; it answers (a usage refusal says why). The anchors'
    // replays take minutes under the sanitizers, where that whole command runs in the plain build only (the
    // anchors case above is hidden there for the same reason).
#ifdef TS_UNDER_ASAN
    if (c.id == cli::Command::Anchors) continue;
#endif
    const Output o = c.id == cli::Command::Chart ? run({c.name, "roofline"})
                     : c.id == cli::Command::Ledger ? run({c.name, "--path", "decode"})
                     : c.id == cli::Command::Sweep ? run({c.name, "--over", "batch=1,2"})
                     : c.id == cli::Command::Fleet ? run({c.name, "--hours", "0.01"})
                     : c.id == cli::Command::Serve ? run({c.name, "--concurrency", "2", "--requests", "4"})
                     : c.id == cli::Command::Validate ? run({c.name, "one-run.csv"})
                                                   : cli::run_cli(args, fake_read);
    CHECK(o.exit_code == cli::kExitOk);
    CHECK(!o.out.empty());
    const std::vector<std::string_view> with_hash = {c.name, "--hash", "#preset=v41-flash-8xb200"};
    const bool hash_refused = !cli::parse_args(with_hash).errors.empty() && cli::parse_args(with_hash).errors[0].field == "--hash";
    CHECK(hash_refused == !c.scenario);
    const std::vector<std::string_view> with_config = {c.name, "--config", "Qwen3-8B/config.json"};
    bool config_refused = false;
    for (const auto& e : cli::parse_args(with_config).errors) config_refused = config_refused || e.field == "--config";
    CHECK(config_refused == !c.config);
  }
  const Output unknown = run({"warp"});
  CHECK(unknown.exit_code == cli::kExitUsage);
  for (const cli::CommandDef& c : cli::commands()) CHECK(unknown.err.find(c.name) != std::string::npos);
}
