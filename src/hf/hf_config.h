// A Hugging Face config.json read into the model inputs of a scenario, each tagged with the field it came from.
#pragma once

#include <cstddef>
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

// The import's own move of the workload (hf_positions.cpp): a context beyond the model's trained positions is
// lowered to them, and a prompt whose prompt + output passes them to what they leave beside the output, as a
// person would set it; each move is an adjustment. False when nothing moved.
bool fit_trained_positions(Scenario& s, Adjustments& moved);

}  // namespace tierscope::model
