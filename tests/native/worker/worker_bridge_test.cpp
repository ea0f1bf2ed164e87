// The worker module's exports (src/worker/worker_bridge.cpp) called as web/worker.js calls them: a chart of
// a scenario's link keys is the command line's chart of the same link, number for number; a config.json read
// there hands back link keys that make the same scenario as the page's own import; bad input is refused
// with errors naming the field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/app.h"
#include "app/page_json.h"
#include "cli/cli.h"
#include "codec/json_codec.h"
#include "codec/url_codec.h"

using namespace tierscope;
using nlohmann::json;

extern "C" const char* ts_worker_chart(const char* scenario, const char* pinned, const char* name, const char* options);
extern "C" const char* ts_worker_load_config(const char* scenario, const char* json, const char* file, const char* quant);

namespace {
std::string corpus_file(const char* name) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files in this test";
  return false;
}
std::string cli_out(std::vector<std::string_view> args) {
  const cli::Output o = cli::run_cli(args, no_files);
  REQUIRE(o.exit_code == cli::kExitOk);
  return o.out;
}
// The worker's answer with its {"f64":[at,count]} arrays read back from the module's memory, as the worker
// script does (this process is the module's memory here), non-finite numbers as null.
json with_numbers(json answer) {
  const auto base = reinterpret_cast<const double*>(static_cast<std::uintptr_t>(answer["f64"].get<long long>()));
  const auto read = [base](json& v) {
    if (!v.is_object() || !v.contains("f64")) return;
    json out = json::array();
    const long long at = v["f64"][0], n = v["f64"][1];
    for (long long i = 0; i < n; ++i) {
      const double x = base[at + i];
      out.push_back(std::isfinite(x) ? json(x) : json(nullptr));
    }
    v = out;
  };
  json chart = answer["chart"];
  read(chart["xs"]);
  for (json& line : chart["lines"]) read(line["y"]);
  return chart;
}
std::vector<std::string> codes(const json& answer) {
  std::vector<std::string> out;
  for (const json& e : answer["errors"]) out.push_back(e["field"].get<std::string>() + ":" + e["code"].get<std::string>());
  return out;
}
}  // namespace

TEST_CASE("a chart from the worker is the command line's chart of the same link") {
  const std::string hash = "preset=v41-flash-8xb200&ctx=65536&batch=16";
  for (const char* name : {"roofline", "sweep", "breakdown"}) {
    INFO(name);
    const json answer = json::parse(ts_worker_chart(hash.c_str(), "", name, "{}"));
    REQUIRE(answer["ok"] == true);
    const std::string link = "#" + hash;
    const json cli = json::parse(cli_out({"chart", name, "--hash", link, "--format", "json"}));
    CHECK(with_numbers(answer) == cli);
  }
}

TEST_CASE("a chart from the worker while comparing shows A and B, as the page's module drew them") {
  app::App page;
  app::init(page);
  app::set_compare(page, true);
  model::Errors errors;
  REQUIRE(app::set_param(page, "ctx", "32768", errors));
  std::vector<double> numbers;
  std::string mine;
  REQUIRE(app::chart_json(page, "roofline", "{}", mine, errors, &numbers));
  const std::string a = model::scenario_to_hash(page.pinned), b = model::scenario_to_hash(page.scenario);
  const json answer = json::parse(ts_worker_chart(b.c_str(), a.c_str(), "roofline", "{}"));
  REQUIRE(answer["ok"] == true);
  json expected = json::parse(mine);
  // The same chart, its numbers compared as numbers (the addresses differ between the two calls).
  json worker = with_numbers(answer);
  json page_chart = with_numbers(json{{"chart", expected}, {"f64", static_cast<long long>(reinterpret_cast<std::uintptr_t>(numbers.data()))}});
  CHECK(worker == page_chart);
  CHECK(worker.dump().find("\"series\":\"B\"") != std::string::npos);
}

TEST_CASE("the frontier from the worker is the command line's at the page's 512 concurrencies, its front points naming their link keys") {
  const std::string hash = "preset=v41-flash-8xb200&prompt=2048&output=256";
  const json answer = json::parse(ts_worker_chart(hash.c_str(), "", "frontier", "{}"));
  REQUIRE(answer["ok"] == true);
  const json cli = json::parse(cli_out({"chart", "frontier", "--hash", "#" + hash, "--concurrency", "512", "--format", "json"}));
  const json chart = with_numbers(answer);
  CHECK(chart == cli);
  CHECK(chart["command"] == "tierscope chart frontier --concurrency 512 --format json");
  CHECK(chart["description"].get<std::string>().find("concurrencies up to 512") != std::string::npos);
  int front = 0;
  for (const json& m : chart["marks"]) {
    if (m["kind"] != "front") continue;
    ++front;
    const std::string setup = m["setup"];
    CHECK(setup.rfind("tp=", 0) == 0);
    CHECK(setup.find("&batch=") != std::string::npos);
    // The keys open as a scenario the link codec reads.
    model::Scenario s;
    model::Errors errors;
    CHECK(model::scenario_from_hash(hash + "&" + setup, s, errors));
    CHECK(errors.empty());
  }
  CHECK(front > 0);
  // While comparing, A's front and B's, as the command line draws them for a link that pins A.
  const json pair = with_numbers(json::parse(ts_worker_chart(hash.c_str(), "preset=v41-flash-8xb200", "frontier", "{}")));
  CHECK(pair == json::parse(cli_out({"chart", "frontier", "--hash", "#" + hash + "&cmp=v41-flash-8xb200", "--concurrency", "512", "--format", "json"})));
  CHECK(pair.dump().find("\"series\":\"A\"") != std::string::npos);
  CHECK(pair.dump().find("\"series\":\"B\"") != std::string::npos);
}

TEST_CASE("the worker refuses frontier options by field") {
  const std::string ok = "preset=v41-flash-8xb200";
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "", "frontier", "{\"points\": 8}"))) == std::vector<std::string>{"points:bad-syntax"});
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "", "frontier", "{\"figure\": \"x\"}"))) == std::vector<std::string>{"figure:bad-syntax"});
}

TEST_CASE("the worker refuses a bad chart request by field, and a fleet run's chart, which is the page's") {
  const std::string ok = "preset=v41-flash-8xb200";
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "", "pie", "{}"))) == std::vector<std::string>{"name:bad-enum"});
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "", "fleet-occupancy", "{}"))) == std::vector<std::string>{"name:bad-enum"});
  CHECK(codes(json::parse(ts_worker_chart("preset=nope", "", "roofline", "{}"))).front().rfind("preset:", 0) == 0);
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "preset=nope", "roofline", "{}"))).front().rfind("preset:", 0) == 0);
  CHECK(codes(json::parse(ts_worker_chart(nullptr, "", "roofline", "{}"))) == std::vector<std::string>{"scenario:too-large"});
  CHECK(codes(json::parse(ts_worker_chart(ok.c_str(), "", "sweep", "{\"points\": \"many\"}"))).front().rfind("points:", 0) == 0);
  const json answer = json::parse(ts_worker_chart(ok.c_str(), "", "roofline", "not json"));
  CHECK(answer["ok"] == false);
  CHECK_FALSE(answer.contains("chart"));
}

TEST_CASE("a config.json read in the worker gives link keys that make the page's own import, as its share link reopens it") {
  for (const char* file : {"Qwen3-30B-A3B.json", "gemma-3-27b-it.json", "DeepSeek-V2-Lite-Chat.json"}) {
    INFO(file);
    app::App direct, through;
    app::init(direct);
    app::init(through);
    model::Errors errors;
    std::vector<std::string> notes;
    const std::string text = corpus_file(file);
    REQUIRE(app::load_config(direct, text, errors, notes, file));
    const std::string start = model::scenario_to_hash(through.scenario);
    const json answer = json::parse(ts_worker_load_config(start.c_str(), text.c_str(), file, ""));
    REQUIRE(answer["ok"] == true);
    CHECK(answer["notes"] == json(notes));
    REQUIRE(app::apply_scenario_hash(through, answer["scenarioHash"].get<std::string>(), errors));
    CHECK(errors.empty());
    CHECK(model::scenario_equal(through.scenario, direct.scenario));
    CHECK(app::view_hash(through) == app::view_hash(direct));
    // Every figure's value and words, with the sources a share link of the import gives (the link carries
    // the model's keys, each sourced to the named config.json, not the file's own field names).
    app::App link;
    app::init(link);
    REQUIRE(app::apply_hash(link, app::view_hash(direct), errors));
    CHECK(app::figures_view_json(through) == app::figures_view_json(link));
  }
}

TEST_CASE("the worker refuses a bad config.json with the page's own messages, and a missing one by size") {
  const std::string start = "preset=v41-flash-8xb200";
  app::App page;
  app::init(page);
  model::Errors errors;
  std::vector<std::string> notes;
  CHECK_FALSE(app::load_config(page, "{\"model_type\": \"mamba\"}", errors, notes));
  const json answer = json::parse(ts_worker_load_config(start.c_str(), "{\"model_type\": \"mamba\"}", "", ""));
  CHECK(answer["ok"] == false);
  CHECK(answer["errors"] == json::parse(app::errors_json(errors))["errors"]);
  CHECK_FALSE(answer.contains("scenarioHash"));
  CHECK(codes(json::parse(ts_worker_load_config(start.c_str(), nullptr, "", ""))) == std::vector<std::string>{"config:too-large"});
  CHECK(codes(json::parse(ts_worker_load_config("preset=nope", "{}", "", ""))).front().rfind("preset:", 0) == 0);
}

// A ModelOpt export's hf_quant_config.json read beside its config.json: the formats it states reach the link's
// keys (the share link carries them without the file); a bad one is refused with its own name.
TEST_CASE("the worker reads the hf_quant_config.json beside a config.json, and its formats reach the link") {
  const std::string start = "preset=deepseek-v3-8xh200";
  const std::string text = corpus_file("Qwen3-30B-A3B.json");
  const char* quant = R"({"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16}})";
  const json plain = json::parse(ts_worker_load_config(start.c_str(), text.c_str(), "Qwen3-30B-A3B.json", ""));
  const json fp4 = json::parse(ts_worker_load_config(start.c_str(), text.c_str(), "Qwen3-30B-A3B.json", quant));
  REQUIRE(plain["ok"] == true);
  REQUIRE(fp4["ok"] == true);
  const std::string with = fp4["scenarioHash"].get<std::string>(), without = plain["scenarioHash"].get<std::string>();
  CHECK(with.find("experts_fmt=fp4_g16") != std::string::npos);
  CHECK(with.find("kv_fmt=fp8") != std::string::npos);
  CHECK(without.find("experts_fmt=bf16") != std::string::npos);
  const json bad = json::parse(ts_worker_load_config(start.c_str(), text.c_str(), "", R"({"quantization": {"quant_algo": "INT2"}})"));
  CHECK(bad["ok"] == false);
  CHECK(codes(bad).front().rfind("hf_quant_config.json.quantization.quant_algo:", 0) == 0);
}

extern "C" const char* ts_worker_serve_start(const char* scenario, const char* settings);
extern "C" const char* ts_worker_serve_advance(double events);
extern "C" void ts_worker_serve_stop();

TEST_CASE("a serving replay run in the worker's slices is the command line's serve of the same link, byte for byte") {
  const std::string scenario = "preset=v41-flash-8xb200", settings = "concurrency:8,requests:40,input:2048,output:64,lengths:random,range-ratio:0.2,steps:4";
  const json started = json::parse(ts_worker_serve_start(scenario.c_str(), settings.c_str()));
  REQUIRE(started["ok"] == true);
  CHECK(started["requests"] == 40);
  json last;
  int slices = 0;
  double progress = 0;
  for (; slices < 100000; ++slices) {
    last = json::parse(ts_worker_serve_advance(7));
    REQUIRE(last["ok"] == true);
    CHECK(last["progress"].get<double>() >= progress);  // progress only moves forward
    progress = last["progress"];
    if (last["done"] == true) break;
  }
  CHECK(slices > 5);  // it really ran in slices
  CHECK(progress == 1.0);
  const std::string hash = "#" + scenario + "&view=serve&serve=" + settings;
  CHECK(last["summary"] == json::parse(cli_out({"serve", "--hash", hash, "--format", "json"})));
  CHECK(last["chart"] == json::parse(cli_out({"chart", "serve-latency", "--hash", hash, "--format", "json"})));
  CHECK(last["summary"]["steps_trace"].size() == 4);
  CHECK(last["summary"]["trust"]["tpot"]["near"] == false);  // no measured run is like V4.1 Flash on B200: it says so
  CHECK(last["trustRuns"] == json::array());
  // Settled: more slices change nothing.
  CHECK(json::parse(ts_worker_serve_advance(7))["done"] == true);
  // No load in the settings: the scenario's batch, as the command line does.
  REQUIRE(json::parse(ts_worker_serve_start("preset=v41-flash-8xb200&batch=3", "requests:6"))["ok"] == true);
  json done = json::parse(ts_worker_serve_advance(1e7));
  CHECK(done["summary"]["concurrency"] == 3);
  ts_worker_serve_stop();
}

TEST_CASE("the worker refuses a bad serving replay by field, and never advances a run it does not have") {
  CHECK(codes(json::parse(ts_worker_serve_start("preset=v41-flash-8xb200", "concurrency:0,nope:1"))) ==
        std::vector<std::string>{"serve.concurrency:out-of-range", "serve.nope:unknown-key"});
  CHECK(codes(json::parse(ts_worker_serve_advance(100))) == std::vector<std::string>{"serve:bad-syntax"});
  CHECK(codes(json::parse(ts_worker_serve_start("preset=nope", "concurrency:2")))[0].rfind("preset:", 0) == 0);
  CHECK(codes(json::parse(ts_worker_serve_start(nullptr, "")))[0] == "scenario:too-large");
  REQUIRE(json::parse(ts_worker_serve_start("preset=v41-flash-8xb200", "concurrency:2,requests:4"))["ok"] == true);
  CHECK(codes(json::parse(ts_worker_serve_advance(0))) == std::vector<std::string>{"events:out-of-range"});
  CHECK(codes(json::parse(ts_worker_serve_advance(std::nan("")))) == std::vector<std::string>{"events:out-of-range"});
  ts_worker_serve_stop();
  CHECK(codes(json::parse(ts_worker_serve_advance(100))) == std::vector<std::string>{"serve:bad-syntax"});
}

extern "C" const char* ts_worker_fleet_start(const char* scenario, const char* trace, const char* sweep);
extern "C" double ts_worker_fleet_next_slice();
extern "C" void ts_worker_fleet_slice_took(double events, double ms);
extern "C" const char* ts_worker_fleet_advance(double events);
extern "C" void ts_worker_fleet_stop();

TEST_CASE("a fleet run in the worker's slices, shown by an app that adopts its views, is the command line's fleet of the same link") {
  const std::string scenario = "preset=v41-flash-8xb200&hours=2";
  const json started = json::parse(ts_worker_fleet_start(scenario.c_str(), "", "pool"));
  REQUIRE(started["ok"] == true);
  REQUIRE(started.contains("view"));
  app::App shown;
  app::init(shown);
  model::Errors errors;
  REQUIRE(app::fleet_adopt(shown, started["view"].get<std::string>(), "pool", true, errors));
  CHECK(shown.fleet.started);
  int slices = 0, views = 1;
  double progress = 0;
  json last;
  for (; slices < 100000; ++slices) {
    const double asked = ts_worker_fleet_next_slice();
    CHECK(asked >= 256);
    last = json::parse(ts_worker_fleet_advance(asked));
    REQUIRE(last["ok"] == true);
    ts_worker_fleet_slice_took(last["events"].get<double>(), 3.0);
    CHECK(last["progress"].get<double>() >= progress);  // progress only moves forward
    progress = last["progress"];
    if (last.contains("view")) {
      REQUIRE(app::fleet_adopt(shown, last["view"].get<std::string>(), "pool", false, errors));
      ++views;
    } else {
      app::fleet_progress(shown, last["progress"], last["now"]);
    }
    if (last["done"] == true) break;
  }
  CHECK(last.contains("view"));  // the end is handed over
  CHECK(views >= 3);             // an hour at a time, not every slice
  CHECK(views < slices);
  CHECK(shown.fleet.done);
  CHECK(app::fleet_json(shown) == cli_out({"fleet", "--hash", "#" + scenario, "--sweep", "pool", "--format", "json"}));
  ts_worker_fleet_stop();
}

TEST_CASE("the worker refuses a bad fleet run by field, and never advances a run it does not have") {
  ts_worker_fleet_stop();
  CHECK(codes(json::parse(ts_worker_fleet_advance(100))) == std::vector<std::string>{"fleet:bad-syntax"});
  CHECK(codes(json::parse(ts_worker_fleet_start("preset=v41-flash-8xb200", "", "hbm"))) == std::vector<std::string>{"sweep:bad-enum"});
  CHECK(codes(json::parse(ts_worker_fleet_start("preset=nope", "", "")))[0].rfind("preset:", 0) == 0);
  const json bad_trace = json::parse(ts_worker_fleet_start("preset=v41-flash-8xb200", "{\"timestamp\": 0}\nnot json\n", ""));
  REQUIRE(bad_trace["ok"] == false);
  CHECK(bad_trace["errors"][0]["field"].get<std::string>().rfind("trace line", 0) == 0);
  CHECK(codes(json::parse(ts_worker_fleet_start(nullptr, "", "")))[0] == "scenario:too-large");
  REQUIRE(json::parse(ts_worker_fleet_start("preset=v41-flash-8xb200&hours=1", "", ""))["ok"] == true);
  CHECK(codes(json::parse(ts_worker_fleet_advance(0))) == std::vector<std::string>{"events:out-of-range"});
  CHECK(codes(json::parse(ts_worker_fleet_advance(std::nan("")))) == std::vector<std::string>{"events:out-of-range"});
  ts_worker_fleet_stop();
  CHECK(codes(json::parse(ts_worker_fleet_advance(100))) == std::vector<std::string>{"fleet:bad-syntax"});
}

TEST_CASE("a serving replay in the worker carries the trust band the command line prints, and the runs behind it for the page's tables") {
  // Llama 3.1 70B FP8 on 4 H100 under vLLM at 64 clients, 8K in and 1K out: runs the shipped file measured.
  const std::string scenario = "preset=llama31-70b-8xh100&gpus=4&tp=4&dense_fmt=fp8&act_fmt=fp8", settings = "concurrency:64,requests:64,input:8192,output:1024";
  REQUIRE(json::parse(ts_worker_serve_start(scenario.c_str(), settings.c_str()))["ok"] == true);
  json last = json::object();
  for (int i = 0; i < 1000 && last.value("done", false) != true; ++i) last = json::parse(ts_worker_serve_advance(1e5));
  REQUIRE(last["done"] == true);
  ts_worker_serve_stop();
  const json cli = json::parse(cli_out({"serve", "--hash", "#" + scenario + "&view=serve&serve=" + settings, "--format", "json"}));
  CHECK(last["summary"]["trust"] == cli["trust"]);
  // Each banded figure as the command line prints it, with its band's words.
  const std::string text = cli_out({"serve", "--hash", "#" + scenario + "&view=serve&serve=" + settings});
  REQUIRE(last["trustRows"].size() == 3);
  for (const json& row : last["trustRows"]) {
    INFO(row.dump());
    CHECK(row["text"] == cli["trust"][row["key"].get<std::string>()]["text"]);
    CHECK(text.find(row["label"].get<std::string>() + ":") != std::string::npos);
    CHECK(text.find(row["value"].get<std::string>() + "   " + row["text"].get<std::string>()) != std::string::npos);
  }
  const json& runs = last["trustRuns"];
  const json& ids = cli["trust"]["ttft"]["ids"];
  REQUIRE(runs.size() == ids.size());
  REQUIRE(!runs.empty());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO(i);
    CHECK(runs[i]["id"] == ids[i]);
    for (const char* key : {"ttft", "tpot", "output_tokens_per_s_gpu"}) {
      const json& f = runs[i]["figures"][key];
      CHECK(std::stod(f["model"].get<std::string>()) / std::stod(f["measured"].get<std::string>()) == Approx(std::stod(f["ratio"].get<std::string>())).epsilon(0.02));
    }
  }
}
