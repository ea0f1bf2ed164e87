// The name a loaded model goes by — from its config.json, its file name, or its family and size — as its
// scenario's preset ("config:NAME"), its label and its share link's `model=` carry it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/scenario.h"

namespace tierscope::model {

// Names that appear in ids, labels and links: letters, digits, '.', '_' and '-' only (others become '-'),
// not first '.' or '-', at most 64 characters; a path keeps its last part.
std::string clean_name(std::string_view raw);
// A model's name from the name of its file: "Qwen3-30B-A3B.json" → "Qwen3-30B-A3B"; a folder's name for a
// plain config.json ("Qwen3-30B-A3B/config.json"); "" for a name that says nothing ("config.json").
std::string name_from_file(std::string_view file);
// The family and the size the parameter count gives: "qwen3_moe-30.5B".
std::string sized_name(std::string_view model_type, const ModelArch& m);
// Whether a share link's `model=` value can name a model: what clean_name keeps, at most kMaxModelName
// characters. The words of the refusal.
constexpr std::size_t kMaxModelName = 64;
bool model_name_ok(std::string_view name);
std::string model_name_allowed();
// Names the model of `s` as a loaded config.json's, as a share link reopens it: the preset becomes
// "config:NAME", and the model keys, which the link carries, are sourced to that file.
void name_loaded_model(Scenario& s, std::string_view name);

}  // namespace tierscope::model
