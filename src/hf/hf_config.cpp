// config.json reader: finds the family, reads each field with its type checked and its name kept, and maps
// the family's fields onto ModelArch (heads, per-layer windows, MLA, the MoE layout, weight formats).
// Defaults are taken only where transformers' own config class defines one and real files rely on it;
// each is tagged assumed or derived with the reason.
//
// Sections: [SECTION] families (the model_type values read, and wrappers) · [SECTION] the model (attention,
// FFN and MoE, the parameter check, read_model) · the file itself (depth, duplicates, the family's level) ·
// read_hf_config · apply_hf_config.
#include "hf/hf_config.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/text.h"
#include "hf/hf_reader.h"
#include "model/model_names.h"
#include "model/presets.h"

namespace tierscope::model {

namespace hf {
const char* const kWhyRecurrent =
    "tierscope reads linear-attention and SSM layers in the families it knows (qwen3_5, qwen3_5_moe, nemotron_h, kimi_linear); "
    "this family's recurrent layers are not read";
}  // namespace hf

namespace {

using namespace hf;

// [SECTION] families ----------------------------------------------------------------------------------

struct FamilyInfo {
  const char* model_type;
  const char* architecture;  // the transformers class a config lists in "architectures"
  Fam fam;
};

const FamilyInfo kFamilies[] = {
    {"llama", "LlamaForCausalLM", Fam::Llama},
    {"mistral", "MistralForCausalLM", Fam::Mistral},
    {"mixtral", "MixtralForCausalLM", Fam::Mixtral},
    {"qwen2", "Qwen2ForCausalLM", Fam::Qwen2},
    {"qwen2_moe", "Qwen2MoeForCausalLM", Fam::Qwen2Moe},
    {"qwen3", "Qwen3ForCausalLM", Fam::Qwen3},
    {"qwen3_moe", "Qwen3MoeForCausalLM", Fam::Qwen3Moe},
    {"deepseek_v2", "DeepseekV2ForCausalLM", Fam::DeepseekV2},
    {"deepseek_v3", "DeepseekV3ForCausalLM", Fam::DeepseekV3},
    {"gpt_oss", "GptOssForCausalLM", Fam::GptOss},
    {"gemma2", "Gemma2ForCausalLM", Fam::Gemma2},
    {"gemma3_text", "Gemma3ForCausalLM", Fam::Gemma3},
    {"phi3", "Phi3ForCausalLM", Fam::Phi3},
    {"deepseek_v32", "DeepseekV32ForCausalLM", Fam::DeepseekV32},
    {"deepseek_v4", "DeepseekV4ForCausalLM", Fam::DeepseekV4},
    {"glm_moe_dsa", "GlmMoeDsaForCausalLM", Fam::GlmMoeDsa},
    {"kimi_k2", "KimiK2ForCausalLM", Fam::KimiK2},
    {"minimax_m2", "MiniMaxM2ForCausalLM", Fam::MinimaxM2},
    {"qwen3_5_text", "Qwen3_5ForCausalLM", Fam::Qwen35},
    {"qwen3_5_moe_text", "Qwen3_5MoeForCausalLM", Fam::Qwen35Moe},
    {"nemotron_h", "NemotronHForCausalLM", Fam::NemotronH},
    {"llama4_text", "Llama4ForCausalLM", Fam::Llama4},
    {"gemma4_text", "Gemma4ForCausalLM", Fam::Gemma4},
    {"mimo_v2_flash", "MiMoV2FlashForCausalLM", Fam::MimoV2Flash},
    {"kimi_linear", "KimiLinearForCausalLM", Fam::KimiLinear},
    {"minimax_m3", "MiniMaxM3SparseForCausalLM", Fam::MinimaxM3},
    {"step3p5", "Step3p5ForCausalLM", Fam::Step3p5},
};

// Vision-language wrappers: the language model is their text_config, of this family when it does not say.
struct Wrapper {
  const char* model_type;
  const char* architecture;
  const char* text_type;
};
const Wrapper kWrappers[] = {{"gemma3", "Gemma3ForConditionalGeneration", "gemma3_text"},
                             {"kimi_k25", "KimiK25ForConditionalGeneration", "kimi_k2"},
                             {"qwen3_5", "Qwen3_5ForConditionalGeneration", "qwen3_5_text"},
                             {"qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe_text"},
                             {"llama4", "Llama4ForConditionalGeneration", "llama4_text"},
                             {"gemma4", "Gemma4ForConditionalGeneration", "gemma4_text"},
                             {"kimi_k3", "KimiK3ForConditionalGeneration", "kimi_linear"},
                             {"minimax_m3_vl", "MiniMaxM3SparseForConditionalGeneration", "minimax_m3"},
                             {"step3p7", "Step3p7ForConditionalGeneration", "step3p5"}};

// Families whose layers keep a recurrent or linear-attention state: known, and refused by name.
const char* const kRecurrent[] = {"mamba",  "mamba2",  "falcon_mamba", "jamba",  "falcon_h1",        "recurrent_gemma", "rwkv",
                                  "rwkv5",  "rwkv6",   "rwkv7",        "qwen3_next", "zamba",       "zamba2",          "bamba",
                                  "granitemoehybrid", "lfm2", "minimax", "minimax_m1", "xlstm",     "plamo2",          "hymba"};

// Every model_type the reader takes, from the two tables above: each family, then the wrappers around it.
std::string families_text() {
  std::string s;
  const auto add = [&s](const char* t) { s += (s.empty() ? "" : ", ") + std::string(t); };
  for (const FamilyInfo& f : kFamilies) {
    add(f.model_type);
    for (const Wrapper& w : kWrappers)
      if (std::string_view(w.text_type) == f.model_type) add(w.model_type);
  }
  return s;
}

const FamilyInfo* family_by_type(std::string_view t) {
  for (const FamilyInfo& f : kFamilies)
    if (t == f.model_type) return &f;
  return nullptr;
}

bool is_recurrent(std::string_view t) {
  for (const char* r : kRecurrent)
    if (t == r) return true;
  return false;
}

// Rejects input that nests deeper than any config.json does, before the parser builds it.
bool too_deep(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > limit) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

// The file parsed into `doc`, refused when it is too large, too deep, not JSON, not an object, or has a key
// twice (JSON libraries merge duplicates silently; which one was meant is a guess).
bool parse_config(std::string_view text, json::Document& doc, Errors& errors) {
  const std::size_t before = errors.size();
  if (text.size() > kMaxConfigBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "config.json", std::to_string(text.size()) + " bytes",
                                "at most " + std::to_string(kMaxConfigBytes) + " bytes"));
    return false;
  }
  if (too_deep(text, 32)) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "config.json", text.substr(0, 40), "a JSON object nested at most 32 levels deep"));
    return false;
  }
  std::vector<std::string> duplicates;
  // Python's json module writes NaN and Infinity as bare words, and published files carry them (Nemotron-H's
  // time_step_limit): read them as the numbers they are; a field that must be finite refuses them by name.
  const bool parsed = doc.parse(text, &duplicates, true);
  const Json& j = doc.root();
  if (!parsed) {
    errors.push_back(make_error(ErrorCode::BadSyntax, "config.json", text.substr(0, 40), "a JSON object (the file is not valid JSON)"));
    return false;
  }
  if (!j.is_object()) {
    errors.push_back(make_error(ErrorCode::WrongType, "config.json", dump(j).substr(0, 40), "a JSON object"));
    return false;
  }
  for (const std::string& k : duplicates) errors.push_back(make_error(ErrorCode::DuplicateKey, k, k, "each key once per object"));
  return errors.size() == before;
}

// Where the language model's fields are and which family reads them.
struct FamilyAt {
  const Json* lm = nullptr;   // the object holding the language model's fields
  const Json* top = nullptr;  // a wrapper's top level (its text_config is `lm`), else nullptr
  std::string prefix;         // "text_config." for a wrapper's fields
  std::string text_type;      // the language model's model_type
  const FamilyInfo* fam = nullptr;
};

// The family: model_type, or the architecture class when model_type is absent; a wrapper's text_config.
// False, with errors naming the field, for a family the app does not read.
bool find_family(const Json& j, FamilyAt& at, Errors& errors) {
  const std::size_t before = errors.size();
  auto string_at = [&](const Json& o, const char* key, const std::string& path) -> std::optional<std::string> {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
      errors.push_back(make_error(ErrorCode::WrongType, path, dump(*it), "a string"));
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  auto first_architecture = [&](const Json& o) -> std::optional<std::string> {
    auto it = o.find("architectures");
    if (it == o.end() || it->is_null()) return std::nullopt;
    if (!it->is_array() || it->empty() || !(*it)[0].is_string()) {
      errors.push_back(make_error(ErrorCode::WrongType, "architectures", dump(*it), "a list of class names"));
      return std::nullopt;
    }
    return (*it)[0].get<std::string>();
  };
  std::optional<std::string> type = string_at(j, "model_type", "model_type");
  const std::optional<std::string> arch = first_architecture(j);
  if (errors.size() != before) return false;
  if (!type && arch) {
    for (const FamilyInfo& f : kFamilies)
      if (*arch == f.architecture) type = f.model_type;
    for (const Wrapper& w : kWrappers)
      if (*arch == w.architecture) type = w.model_type;
  }
  if (!type) {
    errors.push_back(make_error(ErrorCode::MissingField, "model_type", arch.value_or(""),
                                "a model_type (or an architectures class) of: " + families_text()));
    return false;
  }
  at.lm = &j;
  at.text_type = *type;
  auto tc = j.find("text_config");
  if (tc != j.end() && !tc->is_null()) {
    if (!tc->is_object()) {
      errors.push_back(make_error(ErrorCode::WrongType, "text_config", dump(*tc), "an object holding the language model's fields"));
      return false;
    }
    at.lm = &*tc;
    at.top = &j;
    at.prefix = "text_config.";
    std::optional<std::string> inner = string_at(*tc, "model_type", "text_config.model_type");
    if (errors.size() != before) return false;
    if (!inner) {
      for (const Wrapper& w : kWrappers)
        if (*type == w.model_type) inner = w.text_type;
    }
    if (!inner) {
      errors.push_back(make_error(ErrorCode::MissingField, "text_config.model_type", *type,
                                  "the language model's family (text_config.model_type) of: " + families_text()));
      return false;
    }
    at.text_type = *inner;
  } else {
    for (const Wrapper& w : kWrappers)
      if (*type == w.model_type) at.text_type = w.text_type;  // a text-only file under the wrapper's name
  }
  if (is_recurrent(at.text_type)) {
    errors.push_back(make_error(ErrorCode::Unrepresentable, at.prefix + "model_type", at.text_type, kWhyRecurrent));
    return false;
  }
  at.fam = family_by_type(at.text_type);
  if (!at.fam) {
    errors.push_back(make_error(ErrorCode::UnknownFamily, at.prefix + "model_type", at.text_type, families_text()));
    return false;
  }
  return true;
}

// Everything not read, said once: it has no bearing on memory or time (a vision or audio encoder and
// rope_scaling each get a note of their own).
void note_unread(Reader& r, const FamilyAt& at, const HfModel& got) {
  std::string ignored;
  auto collect = [&](const Json& o, const std::set<std::string>& used, const std::string& pre) {
    for (auto it = o.begin(); it != o.end(); ++it) {
      if (used.count(it.key())) continue;
      if ((it.key() == "vision_config" || it.key() == "audio_config") && !it->is_null()) {  // null: no such encoder
        r.notes.push_back(pre + it.key() + ": the " + (it.key() == "vision_config" ? "vision" : "audio") +
                          " encoder is not modelled (its weights are not counted; its tokens count as context)");
        continue;
      }
      if (it.key() == "rope_scaling" && it->is_object()) {
        r.notes.push_back(pre + "rope_scaling: positions only, no bearing on memory or time; the context limit is max_position_embeddings (" +
                          std::to_string(got.model.max_pos) + ")");
        continue;
      }
      ignored += (ignored.empty() ? "" : ", ") + pre + it.key();
    }
  };
  collect(*at.lm, r.used_lm, at.prefix);
  if (at.top) collect(*at.top, r.used_top, "");
  if (!ignored.empty()) r.notes.push_back("ignored (no bearing on memory or time): " + ignored);
}

}  // namespace

bool read_hf_config(std::string_view text, std::string_view name_hint, HfModel& out, Errors& errors, std::string_view quant_json) {
  const std::size_t before = errors.size();
  json::Document doc;
  if (!parse_config(text, doc, errors)) return false;
  const Json& j = doc.root();
  FamilyAt at;
  if (!find_family(j, at, errors)) return false;

  // The name, for sources, the preset and the link: the file's own, then the file's name (a folder's for a
  // plain config.json), then the family and size once the model is read (below).
  std::string name;
  if (auto it = j.find("_name_or_path"); it != j.end() && it->is_string()) name = clean_name(it->get<std::string>());
  if (name.empty()) name = name_from_file(name_hint);
  const bool named = !name.empty();
  if (!named) name = clean_name(at.text_type);

  Reader r{*at.lm, at.top, at.prefix, name, errors, {}, {}, {}, {}};
  // The family and the name were read above, at whichever level holds them.
  for (const char* k : {"model_type", "architectures", "_name_or_path", "text_config"}) {
    r.used_top.insert(k);
    if (!at.top) r.used_lm.insert(k);
  }
  r.used_lm.insert("model_type");
  std::optional<HfModel> got = read_model(r, at.fam->fam, at.text_type, quant_json);
  if (!got || errors.size() != before) return false;
  note_unread(r, at, *got);

  if (!named) {
    // No name in the file or its file name: the family and the size ("qwen3_moe-30.5B"), which the
    // figures compute; sources said "config.json of qwen3_moe" until now.
    const std::string sized = sized_name(at.text_type, got->model);
    const std::string was = "config.json of " + name + ":", now = "config.json of " + sized + ":";
    for (InputOrigin& in : r.inputs)
      if (in.source.starts_with(was)) in.source.replace(0, was.size(), now);
    name = sized;
  }
  got->name = name;
  got->inputs = std::move(r.inputs);
  got->notes = std::move(r.notes);
  out = std::move(*got);
  return true;
}

bool apply_hf_config(Scenario& s, std::string_view json, std::string_view name_hint, Errors& errors, std::vector<std::string>& notes,
                     std::string_view quant_json) {
  HfModel hf;
  if (!read_hf_config(json, name_hint, hf, errors, quant_json)) return false;
  Scenario next = s;
  next.origin.reset();
  next.model = hf.model;
  next.preset = std::string(kConfigPresetPrefix) + hf.name;

  // The old layout may not split the new model: move it the least, as a person changing the GPU count would.
  Adjustments moved;
  fit_layout(next, moved);
  if (next.work.spec_tokens > 0 && next.model.draft_layers < 1) {
    moved.push_back({"spec_tokens", std::to_string(next.work.spec_tokens), "0", "the loaded model has no draft (MTP) module"});
    next.work.spec_tokens = 0;
  }
  // A context the model was never trained for cannot run: take it to the trained positions, as a person would.
  fit_trained_positions(next, moved);
  Errors cross = validate(next);
  if (!cross.empty()) {
    errors.insert(errors.end(), cross.begin(), cross.end());
    return false;
  }

  auto origin = std::make_shared<ScenarioOrigin>();
  origin->base_preset = std::string(base_preset_name(s));
  origin->label = config_label(hf.name, next);
  origin->inputs = std::move(hf.inputs);
  for (const Adjustment& a : moved) {
    origin->inputs.push_back(InputOrigin{a.field, Provenance::Derived,
                                         "moved from " + a.from + " when " + hf.name + "'s config.json was loaded: " + a.why});
  }
  origin->loaded = next;

  notes = std::move(hf.notes);
  for (const Adjustment& a : moved) {
    const bool positions = a.field == "ctx" || a.field == "prompt" || a.field == "prefix_hit";
    notes.push_back(std::string(positions ? "context: " : a.field == "spec_tokens" ? "workload: " : "layout: ") + a.field + " " + a.from + " → " + a.to + " (" + a.why + ")");
  }
  next.origin = std::move(origin);
  s = std::move(next);
  return true;
}

}  // namespace tierscope::model
