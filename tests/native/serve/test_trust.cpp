// The trust band beside a served figure: the shipped validated runs (validate's per-row results, held to what
// validate computes now in the gate case), which runs are near a setup (engine and GPU, then the generation,
// within the distance), the band over them (percentiles of model ÷ measured), its honesty left one out, and
// serve's text and JSON with the band and the runs behind it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/text.h"
#include "cli/cli.h"
#include "serve/trust.h"

using namespace tierscope;
using serve::TrustFigure;

namespace {

serve::ValidatedRun run_at(const char* id, const char* engine, const char* gpu, int concurrency, double ttft_ratio, double tpot_ratio) {
  serve::ValidatedRun r;
  r.id = id;
  r.model = "meta-llama/Llama-3.1-70B";
  r.engine = engine;
  r.gpu = gpu;
  r.isl = 1024;
  r.osl = 1024;
  r.concurrency = concurrency;
  r.gpus = r.tp = 4;
  r.dp = r.ep = 1;
  r.params = r.active_params = 70e9;
  r.measured_ttft_s = 0.2;
  r.model_ttft_s = 0.2 * ttft_ratio;
  r.measured_tpot_s = 0.02;
  r.model_tpot_s = 0.02 * tpot_ratio;
  return r;
}

serve::TrustQuery query_at(const char* engine, const char* gpu, double concurrency) {
  serve::TrustQuery q;
  q.engine = engine;
  q.gpu = gpu;
  q.params = q.active_params = 70e9;
  q.gpus = 4;
  q.dp = 1;
  q.concurrency = concurrency;
  q.isl = q.osl = 1024;
  return q;
}

serve::TrustQuery query_of(const serve::ValidatedRun& r) {
  serve::TrustQuery q;
  q.engine = r.engine;
  q.gpu = r.gpu;
  q.params = r.params;
  q.active_params = r.active_params;
  q.gpus = r.gpus;
  q.dp = r.dp;
  q.concurrency = r.concurrency;
  q.isl = r.isl;
  q.osl = r.osl;
  return q;
}

bool no_file(const std::string& path, std::string&, std::string& why) {
  why = "no file " + path;
  return false;
}
cli::Output run(std::initializer_list<std::string_view> args) {
  const std::vector<std::string_view> v(args);
  return cli::run_cli(v, no_file);
}

}  // namespace

TEST_CASE("trust: the shipped validated runs read back, one per replayed row, each with its model's values") {
  const serve::ValidatedRuns& t = serve::shipped_validated_runs();
  REQUIRE(t.runs.size() > 1000);
  std::set<std::string> ids, engines;
  for (const serve::ValidatedRun& r : t.runs) {
    INFO(r.id);
    CHECK(ids.insert(r.id).second);
    engines.insert(r.engine);
    CHECK(r.gpus == r.tp * r.dp);
    for (const TrustFigure f : serve::kTrustFigures) {
      CHECK(serve::measured_value(r, f) > 0);
      CHECK(serve::model_ratio(r, f) == Approx(serve::model_value(r, f) / serve::measured_value(r, f)));
    }
  }
  CHECK(engines == std::set<std::string>{"sglang", "trtllm", "vllm"});
}

TEST_CASE("trust: the file's numbers read as the general number reader reads them, to the last bit") {
  // The reader takes a quick path for the file's plain decimals; each value must be the one strtod gives.
  const char* text =
      "id,model,gpu,engine,isl,osl,concurrency,gpus,tp,dp,ep,params,active_params,measured_ttft_s,model_ttft_s,measured_tpot_s,model_tpot_s\n"
      "a,m,h100,vllm,8192,1024,128,4,4,1,1,2.286889e+11,1.102971e+10,0.972311,0.250847,0.03344291,0.03517045\n"
      "b,m,h100,vllm,1e3,1024.0,3,8,8,1,1,7.0e-1,0.1,1.7976931348623157e308,123456789012345678,4.9e-30,0.000000123\n";
  serve::ValidatedRuns t;
  model::Errors errors;
  REQUIRE(serve::read_validated_runs(text, t, errors));
  REQUIRE(t.runs.size() == 2);
  const auto general = [](const char* s) {
    double v = 0;
    REQUIRE(model::read_number(s, v));
    return v;
  };
  const serve::ValidatedRun& a = t.runs[0];
  CHECK(a.params == general("2.286889e+11"));
  CHECK(a.active_params == general("1.102971e+10"));
  CHECK(a.measured_ttft_s == general("0.972311"));
  CHECK(a.model_ttft_s == general("0.250847"));
  CHECK(a.measured_tpot_s == general("0.03344291"));
  CHECK(a.model_tpot_s == general("0.03517045"));
  const serve::ValidatedRun& b = t.runs[1];
  CHECK(b.isl == 1000);
  CHECK(b.osl == 1024);
  CHECK(b.params == general("7.0e-1"));
  CHECK(b.measured_ttft_s == general("1.7976931348623157e308"));
  CHECK(b.model_ttft_s == general("123456789012345678"));
  CHECK(b.measured_tpot_s == general("4.9e-30"));
  CHECK(b.model_tpot_s == general("0.000000123"));
  // Not numbers: refused, naming the line.
  for (const char* bad : {"1.2.3", "1e", "e5", ".", "-1", "1e+", "1,5"}) {
    INFO(bad);
    const std::string row = std::string("id,model,gpu,engine,isl,osl,concurrency,gpus,tp,dp,ep,params,active_params,measured_ttft_s,model_ttft_s,measured_tpot_s,model_tpot_s\n") +
                            "a,m,h100,vllm,8192,1024,128,4,4,1,1," + bad + ",1,1,1,1,1\n";
    model::Errors e;
    CHECK_FALSE(serve::read_validated_runs(row, t, e));
    REQUIRE(e.size() == 1);
    CHECK(e[0].field == "validated runs line 2");
  }
}

TEST_CASE("trust: a validated-runs file with another header or a bad field is refused, naming its line") {
  serve::ValidatedRuns t;
  model::Errors errors;
  CHECK_FALSE(serve::read_validated_runs("", t, errors));
  CHECK(errors.front().code == model::ErrorCode::MissingField);
  errors.clear();
  CHECK_FALSE(serve::read_validated_runs("id,model\n", t, errors));
  CHECK(errors.front().field == "validated runs line 1");
  const std::string head =
      "id,model,gpu,engine,isl,osl,concurrency,gpus,tp,dp,ep,params,active_params,measured_ttft_s,model_ttft_s,measured_tpot_s,model_tpot_s\n";
  errors.clear();
  REQUIRE(serve::read_validated_runs(head + "a,m,h100,vllm,1024,128,8,1,1,1,1,8e9,8e9,0.1,0.12,0.01,0.011\n", t, errors));
  REQUIRE(t.runs.size() == 1);
  CHECK(t.runs[0].model_tpot_s == Approx(0.011));
  for (const char* bad : {"a,m,a100,vllm,1024,128,8,1,1,1,1,8e9,8e9,0.1,0.12,0.01,0.011", "a,m,h100,vllm,1024,128,8,1,1,1,1,8e9,8e9,0.1,-0.12,0.01,0.011",
                          "a,m,h100,vllm,1024.5,128,8,1,1,1,1,8e9,8e9,0.1,0.12,0.01,0.011", "a,m,h100,vllm,1024,128,8,1,1,1,1,8e9,8e9,0.1,0.12,0.01"}) {
    INFO(bad);
    errors.clear();
    CHECK_FALSE(serve::read_validated_runs(head + "a,m,h100,vllm,1024,128,8,1,1,1,1,8e9,8e9,0.1,0.12,0.01,0.011\n" + bad + "\n", t, errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors.front().field == "validated runs line 3");
  }
}

TEST_CASE("trust: near is the same engine and GPU within the distance — the generation joins when too few are, else none is near") {
  serve::ValidatedRuns t;
  // vLLM on H100 at 16-128 clients, one at 1,024 (8 doublings from 4: out of reach), SGLang on H100, vLLM on H200.
  for (const int c : {16, 32, 64, 128}) t.runs.push_back(run_at(("h100-" + std::to_string(c)).c_str(), "vllm", "h100", c, 1.0, 1.0));
  t.runs.push_back(run_at("h100-far", "vllm", "h100", 1024, 1.0, 1.0));
  t.runs.push_back(run_at("sglang", "sglang", "h100", 32, 1.0, 1.0));
  t.runs.push_back(run_at("h200-32", "vllm", "h200", 32, 1.0, 1.0));
  t.runs.push_back(run_at("b200-32", "vllm", "b200", 32, 1.0, 1.0));
  const serve::Trust near = serve::trust_for(t, query_at("vllm", "h100", 32));
  REQUIRE(near.near);
  CHECK_FALSE(near.widened);
  REQUIRE(near.runs.size() == 4);  // the same engine and GPU within reach: the generation stays out
  CHECK(near.runs[0] == 1);        // nearest first: 32 clients, then 16 and 64 (one doubling, file order), 128
  CHECK(near.runs[1] == 0);
  CHECK(near.runs[2] == 2);
  CHECK(near.runs[3] == 3);
  CHECK(near.distance[0] == Approx(0));
  CHECK(near.distance[3] == Approx(2));
  CHECK(near.scope == "vllm on h100");
  // On H200 alone there is one such run: the H100 ones join it (Hopper), the B200 one does not.
  const serve::Trust kin = serve::trust_for(t, query_at("vllm", "h200", 32));
  REQUIRE(kin.near);
  CHECK(kin.widened);
  CHECK(kin.runs.size() == 5);
  CHECK(kin.runs[0] == 6);
  CHECK(kin.scope == "vllm on h200, h100");
  // An engine with no runs, and a load out of reach of every run: none near, and the words say what was looked for.
  for (const serve::Trust& none : {serve::trust_for(t, query_at("trtllm", "h100", 32)), serve::trust_for(t, query_at("vllm", "b200", 1))}) {
    CHECK_FALSE(none.near);
    CHECK(none.runs.empty());
    CHECK(serve::trust_text(none, TrustFigure::Tpot).find("no measured runs near this setup") == 0);
  }
  CHECK(serve::trust_for(t, query_at("vllm", "b200", 1)).reach == 0);
  // At most the nearest kTrustNearest.
  serve::ValidatedRuns many;
  for (int i = 0; i < 30; ++i) many.runs.push_back(run_at(("r" + std::to_string(i)).c_str(), "vllm", "h100", 16 + i, 1.0, 1.0));
  CHECK(serve::trust_for(many, query_at("vllm", "h100", 16)).runs.size() == static_cast<std::size_t>(serve::kTrustNearest));
}

TEST_CASE("trust: the distance adds doublings of model size, GPUs, load and lengths, and attention DP on one side only") {
  const serve::ValidatedRun r = run_at("r", "vllm", "h100", 32, 1, 1);
  serve::TrustQuery q = query_of(r);
  CHECK(serve::trust_distance(q, r) == Approx(0));
  q.params = 140e9;
  CHECK(serve::trust_distance(q, r) == Approx(1));
  q.active_params = 35e9;
  CHECK(serve::trust_distance(q, r) == Approx(2));
  q = query_of(r);
  q.gpus = 16;
  CHECK(serve::trust_distance(q, r) == Approx(2));
  q.dp = 4;
  CHECK(serve::trust_distance(q, r) == Approx(3));
  q = query_of(r);
  q.concurrency = 8;
  q.isl = 4096;
  q.osl = 256;
  CHECK(serve::trust_distance(q, r) == Approx(2 + 0.5 * 2 + 0.5 * 2));
}

TEST_CASE("trust: the band is the 10th to 90th percentile and the median of model ÷ measured over the near runs") {
  serve::ValidatedRuns t;
  // Eleven runs, TTFT ratios 0.5 to 1.5 in steps of 0.1 (in a shuffled order), TPOT all 0.9.
  for (const int k : {3, 9, 0, 6, 1, 10, 4, 8, 2, 7, 5}) t.runs.push_back(run_at(("k" + std::to_string(k)).c_str(), "vllm", "h100", 32, 0.5 + 0.1 * k, 0.9));
  const serve::Trust b = serve::trust_for(t, query_at("vllm", "h100", 32));
  REQUIRE(b.near);
  REQUIRE(b.runs.size() == 11);
  CHECK(b.band(TrustFigure::Ttft).lo == Approx(0.6));  // order statistics 1 and 9 of 0..10
  CHECK(b.band(TrustFigure::Ttft).hi == Approx(1.4));
  CHECK(b.band(TrustFigure::Ttft).median == Approx(1.0));
  CHECK(b.band(TrustFigure::Tpot).lo == Approx(0.9));
  CHECK(b.band(TrustFigure::Tpot).hi == Approx(0.9));
  // Throughput per GPU: concurrency × osl ÷ (TTFT + (osl − 1) × TPOT) ÷ GPUs, measured and modelled alike.
  const serve::ValidatedRun& r = t.runs[0];
  const double measured = 32.0 * 1024 / (0.2 + 1023 * 0.02) / 4;
  CHECK(serve::measured_value(r, TrustFigure::Throughput) == Approx(measured));
  CHECK(serve::model_ratio(r, TrustFigure::Throughput) == Approx((0.2 + 1023 * 0.02) / (r.model_ttft_s + 1023 * r.model_tpot_s)));
  char want[96];
  std::snprintf(want, sizeof want, "measured runs like this: model ÷ measured %.2f–%.2f (11 runs of vllm on h100)", 0.6, 1.4);
  CHECK(serve::trust_text(b, TrustFigure::Ttft) == want);
}

TEST_CASE("trust: left out, a shipped run's own ratio lies inside the band of the runs near it for most runs") {
  // The band claims that a setup like these runs fares like them: held to the shipped runs one at a time,
  // each left out of its own band. A band of the 10th to 90th percentile of 12 neighbours covers about 70 %
  // of draws from their own spread; below 65 % the bands would be narrower than the model's errors.
  serve::ValidatedRuns t = serve::shipped_validated_runs();
  int asked = 0, none = 0;
  int inside[3] = {0, 0, 0};
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    const serve::ValidatedRun own = t.runs[i];
    std::swap(t.runs[i], t.runs.back());
    t.runs.pop_back();
    const serve::Trust b = serve::trust_for(t, query_of(own));
    t.runs.push_back(own);
    std::swap(t.runs[i], t.runs.back());
    if (!b.near) {
      ++none;
      continue;
    }
    ++asked;
    for (const TrustFigure f : serve::kTrustFigures) {
      const double ratio = serve::model_ratio(own, f);
      inside[static_cast<int>(f)] += ratio >= b.band(f).lo && ratio <= b.band(f).hi;
    }
  }
  REQUIRE(asked > 0);
  WARN("left out: " << asked << " runs with a band (" << none << " with none near); inside: TTFT " << 100.0 * inside[0] / asked << " %, TPOT "
                    << 100.0 * inside[1] / asked << " %, throughput " << 100.0 * inside[2] / asked << " %");
  CHECK(none * 20 < static_cast<int>(t.runs.size()));  // nearly every shipped run has runs near it
  for (const int n : inside) CHECK(n >= 0.65 * asked);
}

TEST_CASE("trust: serve prints the band beside mean TTFT, mean TPOT and output tokens/s per GPU — JSON per figure, --trust-runs lists the runs") {
  // Llama 3.1 70B on 4 H100 under vLLM at 64 clients, 8K in and 1K out: a setup the shipped file measured.
  const auto args = {std::string_view("--preset"), std::string_view("llama31-70b-8xh100"), std::string_view("--set"), std::string_view("gpus=4"),
                     std::string_view("--set"), std::string_view("tp=4"), std::string_view("--set"), std::string_view("dense_fmt=fp8"),
                     std::string_view("--set"), std::string_view("act_fmt=fp8"), std::string_view("--concurrency"), std::string_view("64"),
                     std::string_view("--requests"), std::string_view("64"), std::string_view("--input"), std::string_view("8192"),
                     std::string_view("--output"), std::string_view("1024")};
  std::vector<std::string_view> j = {"serve"};
  j.insert(j.end(), args.begin(), args.end());
  std::vector<std::string_view> x = j;
  j.insert(j.end(), {"--format", "json"});
  const cli::Output js = cli::run_cli(j, no_file);
  REQUIRE(js.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(js.out);
  const serve::ValidatedRuns& table = serve::shipped_validated_runs();
  for (const char* key : {"ttft", "tpot", "output_tokens_per_s_gpu"}) {
    INFO(key);
    const auto& b = doc.at("trust").at(key);
    REQUIRE(b.at("near").get<bool>());
    const auto ids = b.at("ids").get<std::vector<std::string>>();
    CHECK(b.at("runs").get<int>() == static_cast<int>(ids.size()));
    CHECK(ids.size() >= static_cast<std::size_t>(serve::kTrustMinRuns));
    CHECK(b.at("lo").get<double>() <= b.at("median").get<double>());
    CHECK(b.at("median").get<double>() <= b.at("hi").get<double>());
    // The band is the ratios of the runs it names.
    std::vector<double> ratios;
    TrustFigure f{};
    REQUIRE(serve::trust_figure_from_key(std::string(key) == "output_tokens_per_s_gpu" ? "throughput" : key, f));
    for (const std::string& id : ids) {
      const auto it = std::find_if(table.runs.begin(), table.runs.end(), [&](const serve::ValidatedRun& r) { return r.id == id; });
      REQUIRE(it != table.runs.end());
      CHECK(it->engine == "vllm");
      ratios.push_back(serve::model_ratio(*it, f));
    }
    CHECK(b.at("lo").get<double>() >= *std::min_element(ratios.begin(), ratios.end()) - 1e-12);
    CHECK(b.at("hi").get<double>() <= *std::max_element(ratios.begin(), ratios.end()) + 1e-12);
  }
  // The nearest is the measured run of these very settings.
  CHECK(doc.at("trust").at("tpot").at("ids").at(0).get<std::string>().find("llama_3_1_70b_h100_sxm_vllm_fp8_agg_8192x1024_c64_tp4") != std::string::npos);
  // The text says the same band beside the three figures.
  const cli::Output tx = cli::run_cli(x, no_file);
  REQUIRE(tx.exit_code == 0);
  for (const char* key : {"ttft", "tpot", "output_tokens_per_s_gpu"}) CHECK(tx.out.find("   " + doc.at("trust").at(key).at("text").get<std::string>() + "\n") != std::string::npos);
  CHECK(tx.out.find("Mean TPOT (ms):") < tx.out.find(doc.at("trust").at("tpot").at("text").get<std::string>()));
  // --trust-runs lists the runs behind one band, each by its id.
  x.insert(x.end(), {"--trust-runs", "tpot"});
  const cli::Output listed = cli::run_cli(x, no_file);
  REQUIRE(listed.exit_code == 0);
  CHECK(listed.out.find("Measured runs like this, for mean TPOT") != std::string::npos);
  for (const auto& id : doc.at("trust").at("tpot").at("ids")) CHECK(listed.out.find(id.get<std::string>() + "\n") != std::string::npos);
  // A figure it does not know, another command, or JSON: refused by name.
  CHECK(run({"serve", "--trust-runs", "itl"}).exit_code == cli::kExitUsage);
  CHECK(run({"serve", "--trust-runs", "itl"}).err.find("--trust-runs: 'itl'") != std::string::npos);
  CHECK(run({"figures", "--trust-runs", "tpot"}).exit_code == cli::kExitUsage);
  CHECK(run({"serve", "--trust-runs", "tpot", "--format", "json"}).exit_code == cli::kExitUsage);
}

// The shipped validated runs against validate's results on the shipped file now (the gate case in
// test_validate.cpp replays it once for both): the same rows in the same order, every count the same and
// every number within its 7 significant digits. Writing (tools/regen-validate-gate) rewrites the file instead.
void hold_validated_runs(const std::vector<serve::RunResult>& results, const serve::MeasuredFile& file, const std::string& root, bool write) {
  const std::string text = serve::validated_runs_csv(results, file);
  const std::string path = root + "/data/silicon/validated-runs.csv";
  if (write) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    WARN("wrote " << path);
    return;
  }
  serve::ValidatedRuns now;
  model::Errors errors;
  REQUIRE(serve::read_validated_runs(text, now, errors));
  const serve::ValidatedRuns& shipped = serve::shipped_validated_runs();
  INFO("data/silicon/validated-runs.csv is not what validate computes now: rewrite it with tools/regen-validate-gate and read the diff");
  REQUIRE(shipped.runs.size() == now.runs.size());
  for (std::size_t i = 0; i < now.runs.size(); ++i) {
    const serve::ValidatedRun &a = shipped.runs[i], &b = now.runs[i];
    INFO("row " << i << ": " << b.id);
    REQUIRE(a.id == b.id);
    CHECK((a.model == b.model && a.gpu == b.gpu && a.engine == b.engine));
    CHECK((a.isl == b.isl && a.osl == b.osl && a.concurrency == b.concurrency && a.gpus == b.gpus && a.tp == b.tp && a.dp == b.dp && a.ep == b.ep));
    for (const auto& [x, y] : {std::pair{a.params, b.params}, {a.active_params, b.active_params}, {a.measured_ttft_s, b.measured_ttft_s},
                               {a.model_ttft_s, b.model_ttft_s}, {a.measured_tpot_s, b.measured_tpot_s}, {a.model_tpot_s, b.model_tpot_s}}) {
      CHECK(x == Approx(y).epsilon(1e-6));
    }
  }
}
