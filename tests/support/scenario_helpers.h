// Test support: a preset that must exist and validate, what the model computes for a scenario, and a
// parameter set as a link sets it (set) or as a person edits it (edit: dependent fields follow, and the
// result must validate). Shared by the model, roofline, evidence and anim tests.
#pragma once

#include <catch2/catch.hpp>

#include <string_view>

#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

namespace tierscope::test {

inline model::Scenario preset(const char* name) {
  model::Scenario s;
  REQUIRE(model::make_preset(name, s));
  REQUIRE(model::validate(s).empty());
  return s;
}

inline model::Computed computed(const model::Scenario& s) {
  model::Computed c;
  model::compute_values(s, c);
  return c;
}

inline model::Values values(const model::Scenario& s) { return computed(s).values; }

inline void set(model::Scenario& s, const char* key, const char* text) {
  const model::ParamDef* p = model::find_param(key);
  REQUIRE(p != nullptr);
  model::Error e;
  REQUIRE(model::set_param_text(s, *p, text, e));
}

inline void edit(model::Scenario& s, const char* key, const char* text) {
  const model::ParamDef* p = model::find_param(key);
  REQUIRE(p != nullptr);
  model::Adjustments moved;
  model::Error e;
  REQUIRE(model::edit_param(s, *p, text, moved, e));
  INFO(key << "=" << text);
  REQUIRE(model::validate(s).empty());
}

inline bool has_error(const model::Errors& errors, std::string_view field) {
  for (const model::Error& e : errors)
    if (e.field == field) return true;
  return false;
}

}  // namespace tierscope::test
