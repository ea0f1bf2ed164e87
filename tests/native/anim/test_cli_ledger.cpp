// `tierscope ledger`: the CLI prints the same bytes the app's ledger panel receives, and checks its flags.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "anim/format.h"
#include "anim/ledger.h"
#include "cli/cli.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope;

namespace {

bool no_files(const std::string&, std::string&, std::string& why) {
  why = "no files in tests";
  return false;
}

cli::Output run(std::vector<std::string_view> args) { return cli::run_cli(args, no_files); }

}  // namespace

TEST_CASE("cli ledger: output equals the shared serializer for every path and format") {
  const model::Scenario s = model::default_scenario();
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto path = static_cast<anim::PathId>(i);
    const auto l = anim::build_ledger(s, path);
    const cli::Output json = run({"ledger", "--path", anim::path_key(path), "--format", "json"});
    CHECK(json.exit_code == cli::kExitOk);
    CHECK(json.out == anim::ledger_to_json(l));
    CHECK(run({"ledger", "--path", anim::path_key(path), "--format", "csv"}).out == anim::ledger_to_csv(l));
    CHECK(run({"ledger", "--path", anim::path_key(path)}).out == anim::ledger_to_text(l));
  }
}

TEST_CASE("golden figures: the default preset's figures JSON matches tests/golden/figures.json byte for byte") {
  std::ifstream in(std::string(TIERSCOPE_GOLDEN_DIR) + "/figures.json", std::ios::binary);
  REQUIRE(in);
  std::ostringstream want;
  want << in.rdbuf();
  const cli::Output got = run({"figures", "--format", "json"});
  CHECK(got.exit_code == cli::kExitOk);
  // The page's unit tests read this file; if the change is intended, run tools/regen-golden.
  CHECK(got.out == want.str());
}

TEST_CASE("cli ledger: --preset and --set reach the ledger") {
  model::Scenario s;
  REQUIRE(model::make_preset("v41-flash-card", s));
  model::Error e;
  REQUIRE(model::set_param_text(s, *model::find_param("ctx"), "1048576", e));
  const cli::Output o = run({"ledger", "--path=decode", "--preset", "v41-flash-card", "--set", "ctx=1048576", "--format=json"});
  CHECK(o.exit_code == cli::kExitOk);
  CHECK(o.out == anim::ledger_to_json(anim::build_ledger(s, anim::PathId::Decode)));
}

TEST_CASE("cli ledger: a missing or unknown path is a usage error naming the allowed keys") {
  const cli::Output missing = run({"ledger"});
  CHECK(missing.exit_code == cli::kExitUsage);
  CHECK(missing.err.find("--path") != std::string::npos);
  const cli::Output unknown = run({"ledger", "--path", "warp"});
  CHECK(unknown.exit_code == cli::kExitUsage);
  CHECK(unknown.err.find("warp") != std::string::npos);
  CHECK(unknown.err.find("prefix-cache") != std::string::npos);
  CHECK(run({"figures", "--path", "decode"}).exit_code == cli::kExitUsage);
  CHECK(run({"ledger", "--path", "decode", "--set", "ctx=0"}).exit_code == cli::kExitInvalid);
}
