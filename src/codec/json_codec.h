// Scenario ⇄ JSON: one strict parser and one exact serializer, shared by the app, the CLI and files.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "model/scenario.h"

namespace tierscope::model {

constexpr std::size_t kMaxJsonBytes = 256 * 1024;

// {"preset": "...", "model": {...}, "hardware": {...}, "layout": {...}, "workload": {...}, "fleet": {...}} with every registry key, in
// registry order. Doubles are written with the fewest digits that read back to the same value.
std::string scenario_to_json(const Scenario& s);

// Reads a full or partial scenario: "preset" picks the base (the default preset if absent) and every
// other key overrides it. Strict: unknown or duplicate keys, wrong types, non-finite or out-of-range
// values and cross-field contradictions are errors. On any error `out` is left untouched.
bool scenario_from_json(std::string_view text, Scenario& out, Errors& errors);

// True when every registry parameter and the preset name are equal.
bool scenario_equal(const Scenario& a, const Scenario& b);

}  // namespace tierscope::model
