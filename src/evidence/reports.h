// The figures and the design card check as JSON and CSV: one writer each, called by `tierscope figures`,
// `tierscope check-card` and the page (through the bridge), so their bytes agree.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "evidence/card_check.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::model {

// A figure's value as a reader sees it: display_value(), or "not computed" where the setup cannot run.
std::string figure_text(const Figure& f);

// {"preset", "hash", "feasible", "infeasible": [{field, value, allowed}], "figures": [{id, label, value,
// unit, text, feasible, formula, provenance, sources, tier, lifetime}]}, two-space indented, exact numbers,
// a newline at the end. `ids` empty: every figure.
std::string figures_to_json(const Figures& f, const Scenario& s, std::span<const FigureId> ids = {});
// A header row, then one row per figure (RFC 4180, "\n" line ends).
std::string figures_to_csv(const Figures& f, std::span<const FigureId> ids = {});

// {"scenario", "claims": [{id, claim, band_low, band_high, unit, figure, value, band_high_open, card_value,
// verdict, condition, reason, note, band, value_text, card_value_text}]}: the *_text fields and the band
// are the numbers as the page shows them.
std::string card_to_json(const std::vector<CardRow>& rows, const Scenario& s);
std::string card_to_csv(const std::vector<CardRow>& rows);

}  // namespace tierscope::model
