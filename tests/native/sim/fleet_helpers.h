// Shared set-up for the fleet tests: a scenario with fleet keys set as a person would set them, the run
// built from it, and the long-run switch.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "model/params.h"
#include "model/presets.h"
#include "sim/fleet.h"

namespace fleet_test {

using namespace tierscope;

inline model::Scenario scenario(std::initializer_list<std::pair<const char*, const char*>> sets) {
  model::Scenario s = model::default_scenario();
  for (const auto& [key, value] : sets) {
    const model::ParamDef* p = model::find_param(key);
    REQUIRE(p);
    model::Error e;
    model::Adjustments moved;
    INFO(key << "=" << value);
    REQUIRE(model::edit_param(s, *p, value, moved, e));
  }
  REQUIRE(model::validate(s).empty());
  return s;
}

inline sim::FleetConfig config(const model::Scenario& s, const sim::Trace* trace = nullptr) {
  sim::FleetConfig c;
  model::Errors errors;
  const bool ok = sim::make_fleet_config(s, trace, c, errors);
  for (const auto& e : errors) INFO(e.message());
  REQUIRE(ok);
  return c;
}

// A light synthetic workload: short turns that never queue for HBM, so times between a turn's end and
// the next lookup are the think times themselves.
inline model::Scenario light(std::initializer_list<std::pair<const char*, const char*>> extra = {}) {
  model::Scenario s = scenario({{"arrivals", "2"}, {"day_amp", "0"}, {"turns", "4"}, {"think_s", "300"}, {"user_tokens", "64"},
                                {"out_tokens", "16"}, {"len_sigma", "0"}, {"prefixes", "0"}, {"hours", "2"}});
  for (const auto& [key, value] : extra) {
    model::Error e;
    model::Adjustments moved;
    INFO(key << "=" << value);
    REQUIRE(model::edit_param(s, *model::find_param(key), value, moved, e));
  }
  return s;
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string fixture(const char* name) { return read_text(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/fixtures/fleet/" + name); }

constexpr double kInf = HUGE_VAL;

}  // namespace fleet_test
