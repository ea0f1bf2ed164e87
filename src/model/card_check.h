// The design card's numeric claims checked against computed figures, with verdicts computed, not typed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/figures.h"
#include "model/scenario.h"

namespace tierscope::model {

enum class Verdict : std::uint8_t {
  Consistent,   // the scenario's value falls inside the claimed band
  HoldsOnlyIf,  // it falls inside only under the card's assumptions, or read as another quantity
  Inconsistent, // no reading puts it inside the band
};
const char* verdict_name(Verdict v);  // "consistent", "holds only if", "inconsistent"

// One claim as data: the card's words and the band its value implies. "~x" is read as ±25 % for sizes
// and ±50 % for times (the card gives latencies as rough orders); stated ranges are taken as written.
struct Claim {
  const char* id;        // stable key, e.g. "weights-per-token"
  const char* text;      // the card's wording
  double lo, hi;         // claimed band, in the figure's base unit
  FigureId figure;       // the quantity the card names
  FigureId alt;          // another reading of the claim (FigureId::Count: none)
  const char* alt_condition;   // when the alternative reading applies
  const char* card_condition;  // the card preset's assumptions that matter for this claim
  const char* note;            // fact-sheet context shown with the verdict
};
std::span<const Claim> claims();

struct CardRow {
  const Claim* claim = nullptr;
  double value = 0;       // under the scenario being checked
  double card_value = 0;  // under the v41-flash-card preset
  double alt_value = 0;   // the alternative reading under the scenario (if any)
  Verdict verdict = Verdict::Inconsistent;
  std::string condition;  // for HoldsOnlyIf
  std::string reason;     // the numbers that decided the verdict
};

// Checks every claim against `scenario` (normally the default preset) and the card preset.
std::vector<CardRow> check_card(const Scenario& scenario);
// Formats a claim band in the figure's unit ("0.4 ms to 0.5 ms").
std::string claim_band(const Claim& c);

}  // namespace tierscope::model
