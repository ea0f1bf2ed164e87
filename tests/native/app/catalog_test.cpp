// The page's catalog (app::catalog_json) as the one place the page, its tests and the golden regeneration
// read the app's lists from: the checked-in copy the page's unit tests read is the app's own, and each list
// in it is the table it comes from, row for row.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "anim/ledger.h"
#include "app/app.h"
#include "app/page_json.h"
#include "charts/charts.h"
#include "codec/serve_spec.h"
#include "link/view_codec.h"
#include "model/presets.h"
#include "roofline/step_terms.h"
#include "sim/fleet_report.h"

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

// The page marks a path "none in this model" from the catalog's `applies`: it must say exactly whether the
// path's ledger has anything to play, for every preset and a loaded-looking model without Engram or window.
TEST_CASE("a path applies to a model exactly when its ledger has entries to play") {
  for (const model::PresetInfo& p : model::presets()) {
    model::Scenario s;
    REQUIRE(model::make_preset(p.name, s));
    if (!model::describe(s).computed.terms.feasible()) continue;  // a setup that cannot run animates nothing
    for (const anim::PathDef& d : anim::kPaths) {
      INFO(p.name << " " << d.key);
      CHECK(anim::path_applies(d.id, s.model) == !anim::build_ledger(s, d.id).entries.empty());
    }
  }
}

TEST_CASE("the catalog lists every path in order, with its walkthrough entry, and whether it applies") {
  app::App a;
  app::init(a);
  const nlohmann::json paths = nlohmann::json::parse(app::catalog_json(a))["paths"];
  REQUIRE(paths.size() == std::size(anim::kPaths));
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const anim::PathDef& d = anim::kPaths[i];
    CHECK(paths[i]["key"] == d.key);
    CHECK(paths[i]["opensOn"] == std::string(d.tour_step));
    CHECK(paths[i]["applies"] == d.applies(a.scenario.model));
    // The walkthrough step that tells the path opens on that entry.
    model::Errors errors;
    REQUIRE(app::open_tour_step(a, static_cast<int>(i) + 1, false, errors));
    CHECK(a.ledger.entries[static_cast<std::size_t>(a.playback.step)].step == d.tour_step);
  }
}

// The Serve panel's form and menus are the catalog's serveSettings: each setting a link carries, with the
// command line's default and range, and every choice a link may hold in words.
TEST_CASE("the catalog's serve settings are the flags' rows, with their defaults, ranges and worded choices") {
  app::App a;
  app::init(a);
  const nlohmann::json cat = nlohmann::json::parse(app::catalog_json(a));
  const serve::ServeSpec defaults;
  std::size_t k = 0;
  for (const serve::ServeSetting& s : serve::serve_settings()) {
    if (!s.in_link) continue;
    REQUIRE(k < cat["serveSettings"].size());
    const nlohmann::json& row = cat["serveSettings"][k++];
    INFO(s.name);
    CHECK(row["name"] == s.name);
    CHECK(row["default"] == serve::serve_setting_value(defaults, s));
    if (s.kind != serve::SettingKind::Choice) continue;
    std::size_t choices = 0;
    for (const serve::Choice& c : s.choices) {
      if (!c.in_link) continue;
      ++choices;
      // The menu's entry reads in a link, and has words of its own.
      CHECK(serve::serve_settings_known(std::string(s.name) + ":" + c.name));
      bool listed = false;
      for (const auto& entry : row["choices"]) listed = listed || (entry["key"] == c.name && entry["label"].get<std::string>().size() > 0);
      CHECK(listed);
    }
    CHECK(row["choices"].size() == choices);
    CHECK(row["choices"][0]["key"] == row["default"]);  // the default first, as the menu shows it
  }
  CHECK(k == cat["serveSettings"].size());
  // The fleet view's sweeps: none, then every tier the simulator sweeps.
  CHECK(cat["fleetSweeps"].size() == static_cast<std::size_t>(sim::SweepTier::Count) + 1);
}

// The panels the link names (kPanelKeys) each have the page's name for them, and a refusal's wording in the
// catalog makes the app's own messages.
TEST_CASE("the catalog names every panel and gives the wording of the app's refusals") {
  app::App a;
  app::init(a);
  const nlohmann::json cat = nlohmann::json::parse(app::catalog_json(a));
  REQUIRE(cat["panels"].size() == model::kPanelKeys.size());
  for (std::size_t i = 0; i < model::kPanelKeys.size(); ++i) {
    CHECK(cat["panels"][i]["key"] == model::kPanelKeys[i]);
    CHECK(!cat["panels"][i]["label"].get<std::string>().empty());
  }
  const nlohmann::json& w = cat["errorWording"];
  CHECK(w["message"] == model::kErrorWording.message);
  // The pieces, put together as the page does, are Error::message()'s words.
  const model::Error e = model::make_error(model::ErrorCode::BadEnum, "path", "warp", "prefill, decode");
  std::string page = w["message"].get<std::string>();
  const auto put = [](std::string& s, const std::string& slot, const std::string& text) { s.replace(s.find(slot), slot.size(), text); };
  std::string value = w["value"].get<std::string>();
  put(value, "{value}", "warp");
  put(page, "{field}", "path");
  put(page, "{value}", value);
  put(page, "{code}", "bad-enum");
  std::string allowed = w["allowed"].get<std::string>();
  put(allowed, "{allowed}", "prefill, decode");
  CHECK(page + allowed == e.message());
}
