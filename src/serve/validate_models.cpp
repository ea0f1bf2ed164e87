// Which model a measured run names: the presets' models and the publishers' config.json files compiled in, each
// under its publisher's id; a quantised, instruction-tuned or revised variant read as its base checkpoint; and the
// user's own files (--models) before them. The model's formats are the row's, applied after (validate_setup.cpp).
#include "serve/validate_models.h"

#include <algorithm>
#include <string>
#include <vector>

#include "hf/hf_config.h"
#include "model/presets.h"

// The publishers' config.json files, compiled in from tests/data/hf_configs/ (src/serve/CMakeLists.txt), so
// validate runs from any folder.
#define TIERSCOPE_HF_CONFIG(sym) \
  extern const unsigned char sym[]; \
  extern const unsigned int sym##_size;
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen__Qwen3_32B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen__Qwen3_5_397B_A17B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_MiniMaxAI__MiniMax_M2_5)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_moonshotai__Kimi_K2_5)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_zai_org__GLM_5)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen__Qwen3_235B_A22B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen3_30B_A3B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen3_30B_A3B_GPTQ_Int4)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen3_8B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen__Qwen3_5_0_8B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen2_7B_Instruct)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Qwen1_5_MoE_A2_7B_Chat)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_deepseek_ai__DeepSeek_V3_2)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_deepseek_ai__DeepSeek_V4_Flash)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_deepseek_ai__DeepSeek_V4_Pro)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_DeepSeek_V2_Lite_Chat)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_moonshotai__Kimi_K3)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_moonshotai__Kimi_Linear_48B_A3B_Instruct)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_MiniMaxAI__MiniMax_M3)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_meta_llama__Meta_Llama_3_1_8B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_meta_llama__Llama_4_Scout_17B_16E_Instruct)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_google__gemma_4_26B_A4B)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_gemma_3_27b_it)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_gemma_3_1b_it)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_gemma_2_9b_it)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_gpt_oss_20b)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_nvidia__NVIDIA_Nemotron_3_Nano_30B_A3B_BF16)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Mixtral_8x7B_v0_1)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Mistral_7B_v0_1)
TIERSCOPE_HF_CONFIG(tierscope_hfcfg_Phi_3_mini_4k_instruct)
#undef TIERSCOPE_HF_CONFIG

namespace tierscope::serve {

namespace {

// How a model id of the file is built. A preset where one is that model (its sources come with it), else the
// publisher's config.json read by the model's own reader. A quantised variant (nvidia/…-NVFP4, …-FP8) is its
// base model: the row's formats say what it runs at.
struct ModelSource {
  const char* model_path;
  const char* preset;     // or nullptr
  const char* file;       // the config's name, as tests/data/hf_configs/ holds it
  const unsigned char* text;
  const unsigned int* size;
};
#define CFG(name, sym) nullptr, name, sym, &sym##_size
const ModelSource kModels[] = {
    {"deepseek-ai/DeepSeek-R1", "deepseek-r1-8xb200", nullptr, nullptr, nullptr},
    {"nvidia/DeepSeek-R1-NVFP4", "deepseek-r1-8xb200", nullptr, nullptr, nullptr},
    {"deepseek-ai/DeepSeek-V3", "deepseek-v3-8xh200", nullptr, nullptr, nullptr},
    {"meta-llama/Llama-3.1-70B", "llama31-70b-8xh100", nullptr, nullptr, nullptr},
    {"meta-llama/Llama-3.1-8B-Instruct", "llama31-8b-1xh100", nullptr, nullptr, nullptr},
    {"nvidia/Llama-3.1-8B-Instruct-FP8", "llama31-8b-1xh100", nullptr, nullptr, nullptr},
    {"openai/gpt-oss-120b", "gpt-oss-120b-1xh200", nullptr, nullptr, nullptr},
    {"Qwen/Qwen3-235B-A22B-FP8", "qwen3-235b-a22b-4xh200", nullptr, nullptr, nullptr},
    {"Qwen/Qwen3-32B", CFG("Qwen--Qwen3-32B", tierscope_hfcfg_Qwen__Qwen3_32B)},
    {"nvidia/Qwen3-32B-NVFP4", CFG("Qwen--Qwen3-32B", tierscope_hfcfg_Qwen__Qwen3_32B)},
    {"Qwen/Qwen3.5-397B-A17B", CFG("Qwen--Qwen3.5-397B-A17B", tierscope_hfcfg_Qwen__Qwen3_5_397B_A17B)},
    {"MiniMaxAI/MiniMax-M2.5", CFG("MiniMaxAI--MiniMax-M2.5", tierscope_hfcfg_MiniMaxAI__MiniMax_M2_5)},
    {"moonshotai/Kimi-K2.5", CFG("moonshotai--Kimi-K2.5", tierscope_hfcfg_moonshotai__Kimi_K2_5)},
    {"zhipuai/GLM-5", CFG("zai-org--GLM-5", tierscope_hfcfg_zai_org__GLM_5)},
    {"zai-org/GLM-5", CFG("zai-org--GLM-5", tierscope_hfcfg_zai_org__GLM_5)},
    {"Qwen/Qwen3-235B-A22B", CFG("Qwen--Qwen3-235B-A22B", tierscope_hfcfg_Qwen__Qwen3_235B_A22B)},
    {"Qwen/Qwen3-30B-A3B", CFG("Qwen3-30B-A3B", tierscope_hfcfg_Qwen3_30B_A3B)},
    {"Qwen/Qwen3-30B-A3B-GPTQ-Int4", CFG("Qwen3-30B-A3B-GPTQ-Int4", tierscope_hfcfg_Qwen3_30B_A3B_GPTQ_Int4)},
    {"Qwen/Qwen3-8B", CFG("Qwen3-8B", tierscope_hfcfg_Qwen3_8B)},
    {"Qwen/Qwen3.5-0.8B", CFG("Qwen--Qwen3.5-0.8B", tierscope_hfcfg_Qwen__Qwen3_5_0_8B)},
    {"Qwen/Qwen2-7B-Instruct", CFG("Qwen2-7B-Instruct", tierscope_hfcfg_Qwen2_7B_Instruct)},
    {"Qwen/Qwen1.5-MoE-A2.7B-Chat", CFG("Qwen1.5-MoE-A2.7B-Chat", tierscope_hfcfg_Qwen1_5_MoE_A2_7B_Chat)},
    {"deepseek-ai/DeepSeek-V3.2", CFG("deepseek-ai--DeepSeek-V3.2", tierscope_hfcfg_deepseek_ai__DeepSeek_V3_2)},
    {"deepseek-ai/DeepSeek-V4-Flash", CFG("deepseek-ai--DeepSeek-V4-Flash", tierscope_hfcfg_deepseek_ai__DeepSeek_V4_Flash)},
    {"deepseek-ai/DeepSeek-V4-Pro", CFG("deepseek-ai--DeepSeek-V4-Pro", tierscope_hfcfg_deepseek_ai__DeepSeek_V4_Pro)},
    {"deepseek-ai/DeepSeek-V2-Lite-Chat", CFG("DeepSeek-V2-Lite-Chat", tierscope_hfcfg_DeepSeek_V2_Lite_Chat)},
    {"moonshotai/Kimi-K3", CFG("moonshotai--Kimi-K3", tierscope_hfcfg_moonshotai__Kimi_K3)},
    {"moonshotai/Kimi-Linear-48B-A3B-Instruct", CFG("moonshotai--Kimi-Linear-48B-A3B-Instruct", tierscope_hfcfg_moonshotai__Kimi_Linear_48B_A3B_Instruct)},
    {"MiniMaxAI/MiniMax-M3", CFG("MiniMaxAI--MiniMax-M3", tierscope_hfcfg_MiniMaxAI__MiniMax_M3)},
    {"meta-llama/Llama-3.1-8B", CFG("meta-llama--Meta-Llama-3.1-8B", tierscope_hfcfg_meta_llama__Meta_Llama_3_1_8B)},
    {"meta-llama/Llama-4-Scout-17B-16E-Instruct", CFG("meta-llama--Llama-4-Scout-17B-16E-Instruct", tierscope_hfcfg_meta_llama__Llama_4_Scout_17B_16E_Instruct)},
    {"google/gemma-4-26B-A4B", CFG("google--gemma-4-26B-A4B", tierscope_hfcfg_google__gemma_4_26B_A4B)},
    {"google/gemma-3-27b-it", CFG("gemma-3-27b-it", tierscope_hfcfg_gemma_3_27b_it)},
    {"google/gemma-3-1b-it", CFG("gemma-3-1b-it", tierscope_hfcfg_gemma_3_1b_it)},
    {"google/gemma-2-9b-it", CFG("gemma-2-9b-it", tierscope_hfcfg_gemma_2_9b_it)},
    {"openai/gpt-oss-20b", CFG("gpt-oss-20b", tierscope_hfcfg_gpt_oss_20b)},
    {"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", CFG("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", tierscope_hfcfg_nvidia__NVIDIA_Nemotron_3_Nano_30B_A3B_BF16)},
    {"mistralai/Mixtral-8x7B-v0.1", CFG("Mixtral-8x7B-v0.1", tierscope_hfcfg_Mixtral_8x7B_v0_1)},
    {"mistralai/Mistral-7B-v0.1", CFG("Mistral-7B-v0.1", tierscope_hfcfg_Mistral_7B_v0_1)},
    {"microsoft/Phi-3-mini-4k-instruct", CFG("Phi-3-mini-4k-instruct", tierscope_hfcfg_Phi_3_mini_4k_instruct)},
};
#undef CFG

bool fail(std::string& why, std::string& reason, std::string full, std::string short_form) {
  why = std::move(full);
  reason = std::move(short_form);
  return false;
}

// A model id as its base checkpoint: the publisher's folder dropped, a leading "Meta-" and trailing format,
// tuning and dated-revision suffixes taken off, letters folded to lower case. A quantised or instruction-tuned variant keeps its
// base's architecture (the row's formats say what it runs at), so "nvidia/Kimi-K2.5-NVFP4" and
// "moonshotai/Kimi-K2.5" meet at "kimi-k2.5", "nvidia/Llama-3.1-70B-Instruct-FP8" and "meta-llama/Llama-3.1-70B" at
// "llama-3.1-70b".
std::string base_model_name(std::string_view model_path) {
  if (const std::size_t slash = model_path.rfind('/'); slash != std::string_view::npos) model_path.remove_prefix(slash + 1);
  std::string n;
  for (const char c : model_path) n += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (n.starts_with("meta-")) n.erase(0, 5);
  static constexpr std::string_view kSuffixes[] = {"-fp8-dynamic", "-nvfp4", "-mxfp4", "-fp4", "-fp8", "-bf16", "-instruct", "-thinking", "-chat", "-base", "-it"};
  // A dated revision ("-0528", "-2507": DeepSeek-R1-0528, Qwen3-235B-A22B-Instruct-2507) retrains the same
  // architecture.
  const auto revision = [](const std::string& x) {
    const std::size_t k = x.size();
    return k > 5 && x[k - 5] == '-' && std::all_of(x.end() - 4, x.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  for (bool cut = true; cut;) {
    cut = false;
    if (revision(n)) {
      n.resize(n.size() - 5);
      cut = true;
    }
    for (std::string_view suf : kSuffixes) {
      if (n.size() > suf.size() && n.ends_with(suf)) {
        n.resize(n.size() - suf.size());
        cut = true;
      }
    }
  }
  return n;
}

// The compiled-in model of a row's model_path: its own id, else the first whose base checkpoint is the same.
const ModelSource* builtin_model(std::string_view model_path) {
  for (const ModelSource& m : kModels) {
    if (model_path == m.model_path) return &m;
  }
  const std::string base = base_model_name(model_path);
  for (const ModelSource& m : kModels) {
    if (base == base_model_name(m.model_path)) return &m;
  }
  return nullptr;
}

}  // namespace

bool model_of(const MeasuredRun& run, const ValidateOptions& opt, model::Scenario& s, std::string& why, std::string& reason) {
  if (opt.model) {
    s = *opt.model;
    return true;
  }
  if (opt.models) {
    if (const auto it = opt.models->find(run.model_path); it != opt.models->end()) {
      if (!it->second.ok) return fail(why, reason, it->second.why, it->second.reason);
      s = it->second.scenario;
      return true;
    }
  }
  const ModelSource* src = builtin_model(run.model_path);
  if (!src) {
    return fail(why, reason,
                "model_path: '" + run.model_path + "' is not a model validate knows (the table's text lists those it does; give its config.json with "
                "--models DIR, as DIR/" + config_file_stem(run.model_path) + ".json, or with --config for every row)",
                "unknown model " + run.model_path);
  }
  if (src->preset) return model::make_preset(src->preset, s);
  const ModelEntry e = model_from_config(std::string_view(reinterpret_cast<const char*>(src->text), *src->size), "", src->file,
                                       std::string(src->file) + ".json");
  if (!e.ok) return fail(why, reason, e.why, e.reason);
  s = e.scenario;
  return true;
}

std::string config_file_stem(std::string_view model_path) {
  std::string stem(model_path);
  for (std::size_t at = stem.find('/'); at != std::string::npos; at = stem.find('/', at + 2)) stem.replace(at, 1, "--");
  return stem;
}

ModelEntry model_from_config(std::string_view config, std::string_view quant, std::string_view name, std::string_view where) {
  ModelEntry e;
  model::make_preset("llama31-70b-8xh100", e.scenario);  // its hardware, layout and workload are replaced per row
  model::Errors errors;
  std::vector<std::string> notes;
  if (!model::apply_hf_config(e.scenario, config, std::string(name), errors, notes, quant)) {
    const model::Error& err = errors.front();
    e.why = std::string(where) + ": " + err.message();
    e.reason = std::string(model::error_code_name(err.code)) + " " + err.value;
    return e;
  }
  e.ok = true;
  return e;
}

std::vector<std::string> known_models() {
  std::vector<std::string> out;
  for (const ModelSource& m : kModels) out.emplace_back(m.model_path);
  return out;
}

}  // namespace tierscope::serve
