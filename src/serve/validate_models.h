// Inside validate: the model a measured run is replayed with (validate_models.cpp), for validate_setup.cpp.
#pragma once

#include <string>

#include "model/scenario.h"
#include "serve/measured_runs.h"
#include "serve/validate.h"

namespace tierscope::serve {

// The row's model: the one the options give for every row, else the options' catalogue's for its model_path
// (a user's config.json), else a preset's or a compiled-in config.json's, by its id or its base checkpoint's.
// False with the reason in full and its short form when none is, or the file cannot be read as a model.
bool model_of(const MeasuredRun& run, const ValidateOptions& opt, model::Scenario& s, std::string& why, std::string& reason);

}  // namespace tierscope::serve
