// The design card's numeric claims checked against computed figures. Verdicts and their conditions are
// found from the model (a search over one input), never typed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::model {

enum class Verdict : std::uint8_t {
  Consistent,   // the scenario's value falls inside the claimed band
  HoldsOnlyIf,  // it falls inside only under another reading, or for a range of one input (found)
  Inconsistent, // no reading and no value of the searched input puts it inside the band
};
const char* verdict_name(Verdict v);  // "consistent", "holds only if", "inconsistent"

// How to look for the condition under which a claim holds: vary one input over a grid (numeric), or try
// named alternatives (an enum's values). `key` empty: no search.
struct ClaimSearch {
  const char* key = "";
  double lo = 0, hi = 0;  // numeric grid bounds (geometric, ×2 steps, then refined at the band's edge)
};

// One claim as data: the card's words and the band its value implies. "~x" is read as ±25 % for sizes
// and ±50 % for times (the card gives latencies as rough orders); stated ranges are taken as written.
struct Claim {
  const char* id;        // stable key, e.g. "weights-per-token"
  const char* text;      // the card's wording
  double lo, hi;         // claimed band, in the figure's base unit
  FigureId figure;       // the quantity the card names
  FigureId alt;          // another reading of the claim (FigureId::Count: none)
  const char* alt_reading;  // what that reading means, in words
  ClaimSearch search;
};
std::span<const Claim> claims();

struct CardRow {
  const Claim* claim = nullptr;
  double value = 0;       // under the scenario being checked (NaN: the scenario cannot run)
  double card_value = 0;  // under the v41-flash-card preset
  double alt_value = 0;   // the alternative reading under the scenario (if any)
  Verdict verdict = Verdict::Inconsistent;
  std::string condition;  // for HoldsOnlyIf: the reading, or the range of the searched input
  std::string reason;     // the numbers that decided the verdict
  std::string note;       // context generated from figures
};

// Checks every claim against `scenario` (normally the default preset) and the card preset.
std::vector<CardRow> check_card(const Scenario& scenario);
// Formats a claim band in the figure's unit ("0.4 ms to 0.5 ms").
std::string claim_band(const Claim& c);

}  // namespace tierscope::model
