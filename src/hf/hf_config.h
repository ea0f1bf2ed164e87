// A Hugging Face config.json read into the model inputs of a scenario, each tagged with the field it came from.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/params.h"
#include "model/scenario.h"

namespace tierscope::model {

// A config.json is a few kilobytes; a vision-language one with long RoPE tables stays far below this.
constexpr std::size_t kMaxConfigBytes = 256 * 1024;

// What a config.json says about the model, before it meets a scenario.
struct HfModel {
  std::string name;        // the model's name: _name_or_path, the caller's hint, or the architecture
  std::string model_type;  // the language model's family as the file names it ("qwen3_moe")
  ModelArch model;         // every model key set
  std::vector<InputOrigin> inputs;  // where each model key of params.h came from, one entry per key
  std::vector<std::string> notes;   // what was assumed, and the fields that have no bearing on the figures
};

// The families the reader knows (model_type values), for messages and docs.
std::span<const char* const> hf_families();

// Reads config.json text. A vision-language config is read through its text_config. `name_hint` names
// the model when the file does not (a file or folder name; may be empty). Strict: malformed JSON, an
// unknown family, a field of the wrong type, a missing field that decides memory or time, or layers the
// scenario cannot describe are errors naming the field, the value and what is allowed; on any error
// `out` is left untouched and every problem found is listed.
// `quant_json`: the hf_quant_config.json a publisher ships beside config.json (NVIDIA ModelOpt checkpoints state
// their NVFP4 / FP8 formats and KV cache format there), or empty.
bool read_hf_config(std::string_view json, std::string_view name_hint, HfModel& out, Errors& errors, std::string_view quant_json = {});

// Replaces the model of `s` by the file's and keeps its hardware, layout and workload. Where the new
// model needs it, tp, dp, ep and redundant are re-spread over the same GPUs and speculative decoding is
// switched off for a model without a draft module; each move is a note. The result is preset
// "config:NAME" and carries the file's sources (Scenario::origin). All or nothing: on error `s` is
// untouched.
bool apply_hf_config(Scenario& s, std::string_view json, std::string_view name_hint, Errors& errors,
                     std::vector<std::string>& notes, std::string_view quant_json = {});

// [SECTION] the loaded model's name (hf_config_names.cpp)

// A model's name from the name of its file: "Qwen3-30B-A3B.json" → "Qwen3-30B-A3B"; a folder's name for a
// plain config.json ("Qwen3-30B-A3B/config.json"); "" for a name that says nothing ("config.json").
std::string name_from_file(std::string_view file);
// The family and the size the figures compute: "qwen3_moe-30.5B".
std::string sized_name(std::string_view model_type, const ModelArch& m);
// Whether a share link's `model=` value can name a model: what clean_name keeps (letters, digits, '.',
// '_' and '-', not first '.' or '-'), at most kMaxModelName characters. The words of the refusal.
constexpr std::size_t kMaxModelName = 64;
bool model_name_ok(std::string_view name);
std::string model_name_allowed();
// Names the model of `s` as a loaded config.json's, as a share link reopens it: the preset becomes
// "config:NAME", and the model keys, which the link carries, are sourced to that file.
void name_loaded_model(Scenario& s, std::string_view name);
// The import's own move of the workload: a context (or prompt) beyond the model's trained positions is
// lowered to them, as a person would set it; each move is an adjustment. False when nothing moved.
bool fit_trained_positions(Scenario& s, Adjustments& moved);

}  // namespace tierscope::model
