// Why a state object sits in the tier it sits in, and what would move it, in plain words with the
// scenario's own numbers (sizes, bandwidths, how often each step reads it). The inspector's first lines.
#pragma once

#include <string>
#include <vector>

#include "anim/ledger.h"
#include "model/scenario.h"
#include "roofline/figures.h"

namespace tierscope::ui {

// The first line says how often the object is read and what that would cost from the next tier out; the
// second what would move it. Empty for the compute-side objects (token row, hidden stream).
std::vector<std::string> why_here(anim::ObjectKind o, anim::Endpoint tier, const model::Scenario& s, const model::Figures& f);

// For a tier that holds nothing for this model: that it is empty now, what it would hold and why not here.
std::vector<std::string> why_empty(anim::Endpoint tier, const model::Scenario& s, const model::Figures& f);

}  // namespace tierscope::ui
