// What the config.json tests share: the published files under tests/data/hf_configs, loading a text onto a
// preset's hardware, the publishers' counts within 5 %, and a formula's check against its value.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hf/hf_config.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

namespace tierscope::model::hf_test {

inline std::string fixture(const std::string& file) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + file, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Scenario preset(const char* name) {
  Scenario s;
  REQUIRE(make_preset(name, s));
  return s;
}

// Loads a config.json text onto a preset's hardware; fails the test with the reader's messages if refused.
inline Scenario load_text(const std::string& text, const char* base, std::vector<std::string>* notes_out = nullptr, std::string_view quant = {}) {
  Scenario s = preset(base);
  Errors errors;
  std::vector<std::string> notes;
  const bool ok = apply_hf_config(s, text, "", errors, notes, quant);
  std::string why;
  for (const Error& e : errors) why += e.message() + "\n";
  INFO(why);
  REQUIRE(ok);
  if (notes_out) *notes_out = notes;
  return s;
}
inline Scenario load(const std::string& file, const char* base = "deepseek-v3-8xh200", std::vector<std::string>* notes = nullptr) {
  INFO(file);
  return load_text(fixture(file), base, notes);
}

inline Values values_of(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c.values;
}

// The first error of a refused text (the test fails if it is accepted).
inline Error refusal(std::string_view json) {
  HfModel m;
  Errors errors;
  const bool ok = read_hf_config(json, "", m, errors);
  CHECK_FALSE(ok);
  REQUIRE_FALSE(errors.empty());
  return errors[0];
}

inline bool has_note(const std::vector<std::string>& notes, const std::string& part) {
  for (const std::string& n : notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// Within 5 % of a publisher's count (the bar), or within one unit of its last stated digit when the
// publisher gives fewer digits ("0.8B").
inline void check_published(double model, double published, double last_digit, const char* what) {
  INFO(what << ": model " << model << ", published " << published);
  const double err = std::fabs(model - published);
  CHECK((err <= 0.05 * published || err < last_digit));
}

// Why a figure's formula does not add up to its value (test_formulas.cpp's rule), or empty when it does.
inline std::string formula_mismatch(const Figure& f) {
  if (!f.feasible || !f.expr().arithmetic() || !std::isfinite(f.value)) return {};
  const double exact = f.expr().eval(), shown = f.expr().eval_shown();
  const double scale = std::max(std::fabs(f.value), f.expr().magnitude_shown());
  const bool rounding = f.formula().find("⌊") != std::string::npos || f.formula().find("⌈") != std::string::npos;
  if (!std::isfinite(exact) || std::fabs(exact - f.value) > 1e-9 * scale + 1e-300) return "exact " + std::to_string(exact) + ": " + f.formula();
  if (!std::isfinite(shown) || std::fabs(shown - f.value) > 6e-4 * f.expr().leaf_count() * scale + (rounding ? 1.0 : 0.0))
    return "shown " + std::to_string(shown) + ": " + f.formula();
  return {};
}

// Each figure whose formula does not add up to its value, as "id: why" (none when every one does).
inline std::vector<std::string> formulas_wrong(const Figures& figs) {
  std::vector<std::string> wrong;
  for (const Figure& f : figs.list)
    if (const std::string why = formula_mismatch(f); !why.empty()) wrong.push_back(std::string(f.id) + ": " + why);
  return wrong;
}

}  // namespace tierscope::model::hf_test
