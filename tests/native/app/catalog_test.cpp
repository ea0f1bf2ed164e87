// The page's catalog (app::catalog_json) as the one place the page, its tests and the golden regeneration
// read the app's lists from: the checked-in copy the page's unit tests read is the app's own, and each list
// in it is the table it comes from, row for row.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/page_json.h"
#include "charts/charts.h"
#include "model/presets.h"
#include "roofline/step_terms.h"

using namespace tierscope;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string default_catalog() {
  app::App a;
  app::init(a);
  return app::catalog_json(a);
}

}  // namespace

TEST_CASE("the checked-in catalog is the default view's, as the app writes it") {
  const std::string file = std::string(TIERSCOPE_GOLDEN_DIR) + "/catalog.json";
  INFO("golden file " << file << ": if the change is intended, run tools/regen-golden and review the diff");
  CHECK(read_file(file) == default_catalog() + "\n");
}

TEST_CASE("the catalog's decode terms are the breakdown's bars, each with its figures and words") {
  const nlohmann::json terms = nlohmann::json::parse(default_catalog())["decodeTerms"];
  REQUIRE(terms.is_array());
  const model::Scenario s = model::default_scenario();
  const model::Values v = model::describe(s).computed.values;
  const std::vector<model::StepTerm> bars = model::step_terms(v, false);
  std::size_t k = 0;
  for (const model::DecodeTermDef& t : model::kDecodeTerms) {
    if (t.serve_only) continue;
    REQUIRE(k < terms.size());
    const nlohmann::json& row = terms[k];
    CHECK(row["key"].get<std::string>() == t.key);
    CHECK(row["label"].get<std::string>() == bars[static_cast<std::size_t>(t.term)].label);
    CHECK(!row["words"].get<std::string>().empty());
    // The walkthrough sums the listed figures: they make the bar's seconds.
    double sum = 0;
    for (const auto& id : row["figures"]) sum += v[model::figure_id(id.get<std::string>())];
    CHECK(sum == bars[static_cast<std::size_t>(t.term)].seconds);
    ++k;
  }
  CHECK(k == terms.size());
}
