// Golden ledgers: the default preset's seven paths as checked-in JSON, compared byte for byte.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "anim/format.h"
#include "anim/ledger.h"
#include "model/presets.h"

using namespace tierscope;

namespace {

bool read(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// The first line that differs, with its number, so a failure says what changed.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "no line differs (line endings?)";
    if (la != lb || ha != hb) {
      return "line " + std::to_string(line) + "\n  golden: " + (ha ? la : "<end of file>") +
             "\n  built:  " + (hb ? lb : "<end of output>");
    }
  }
}

}  // namespace

TEST_CASE("golden ledgers for the default preset match byte for byte") {
  const model::Scenario s = model::default_scenario();
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto path = static_cast<anim::PathId>(i);
    const std::string file = std::string(TIERSCOPE_GOLDEN_DIR) + "/" + anim::path_key(path) + ".json";
    INFO("golden file " << file);
    std::string want;
    REQUIRE(read(file, want));
    const std::string got = anim::ledger_to_json(anim::build_ledger(s, path));
    if (got != want) {
      FAIL_CHECK("the " << anim::path_key(path) << " ledger differs from its golden file at "
                        << first_difference(want, got)
                        << "\nIf the change is intended, run tools/regen-golden and review the diff.");
    }
  }
}
