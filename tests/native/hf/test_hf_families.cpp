// The 2026 families read from their published config.json: parameter counts against the publishers' own,
// every state class (global KV, windows, indexer keys, recurrent state) from independent arithmetic, the
// weight formats (FP8 with unconverted norms, INT4 weight-only), the layouts engines run, and each family's
// broken files refused with the field named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_reader.h"
#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "hf/hf_config.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

#include "hf_test_support.h"

using namespace tierscope::model;
using F = FigureId;
using namespace tierscope::model::hf_test;

namespace {

// The text with `field`'s line removed (a broken file of the family).
std::string without(std::string text, const std::string& field) {
  const std::size_t at = text.find("\"" + field + "\"");
  REQUIRE(at != std::string::npos);
  const std::size_t start = text.rfind('\n', at), end = text.find('\n', at);
  return text.erase(start, end - start);
}

// The published files read here, by family (tests/data/hf_configs/README.md gives where each was taken).
const char* const kFamilies[] = {
    "deepseek-ai--DeepSeek-V4-Flash.json", "deepseek-ai--DeepSeek-V4-Pro.json", "deepseek-ai--DeepSeek-V3.2.json",
    "zai-org--GLM-5.json",                 "moonshotai--Kimi-K2.5.json",        "MiniMaxAI--MiniMax-M2.5.json",
    "Qwen--Qwen3.5-397B-A17B.json",        "Qwen--Qwen3.5-0.8B.json",           "nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json",
    "Qwen3-30B-A3B-GPTQ-Int4.json",        "deepseek-ai--DeepSeek-R1.json",     "deepseek-ai--DeepSeek-V3.json",
    "Qwen--Qwen3-235B-A22B.json",          "Qwen--Qwen3-32B.json",              "meta-llama--Meta-Llama-3.1-70B.json",
    "meta-llama--Meta-Llama-3.1-8B.json",  "openai--gpt-oss-120b.json",        "moonshotai--Kimi-Linear-48B-A3B-Instruct.json",
    "MiniMaxAI--MiniMax-M3.json",          "meta-llama--Llama-4-Scout-17B-16E-Instruct.json", "google--gemma-4-26B-A4B.json",
    "moonshotai--Kimi-K3.json"};

}  // namespace

// [SECTION] every file loads ---------------------------------------------------------------------------------

TEST_CASE("hf families: every published file loads, validates and names one source for every model key") {
  for (const char* file : kFamilies) {
    INFO(file);
    const Scenario s = load(file);
    CHECK(validate(s).empty());
    REQUIRE(s.origin);
    for (const ParamDef& p : params()) {
      if (p.group != ParamGroup::Model) continue;
      INFO(p.key);
      int entries = 0;
      for (const InputOrigin& o : s.origin->inputs) entries += o.key == p.key ? 1 : 0;
      CHECK(entries == 1);
    }
    // The layer kinds (S512, C8192, L), the per-layer FFN list and the state dims travel in a share link and a
    // scenario file, and reopen the same model.
    Scenario from_hash, from_json;
    Errors errors;
    REQUIRE(scenario_from_hash(scenario_to_hash(s), from_hash, errors));
    REQUIRE(scenario_from_json(scenario_to_json(s), from_json, errors));
    for (const ParamDef& p : params()) {
      if (p.group != ParamGroup::Model) continue;
      INFO(p.key);
      CHECK(param_equal(from_hash, s, p));
      CHECK(param_equal(from_json, s, p));
    }
  }
}

// [SECTION] DeepSeek-V4: the seed's own family -------------------------------------------------------------

TEST_CASE("hf families: DeepSeek-V4-Flash's config.json gives the v4-flash-8xb200 preset's model figures") {
  const Scenario file = load("deepseek-ai--DeepSeek-V4-Flash.json", "v4-flash-8xb200");
  const Scenario made = preset("v4-flash-8xb200");
  // The same layers (compress_ratios 0 → S, 4 → F4 CSA with the indexer, 128 → D128 HCA) and the same dims.
  CHECK(layers_to_text(file.model) == layers_to_text(made.model));
  for (const ParamDef& p : params()) {
    if (p.group != ParamGroup::Model || std::string_view(p.key) == "checkpoint_gb") continue;
    INFO(p.key);
    CHECK(get_param_text(file, p) == get_param_text(made, p));
  }
  const Values f = values_of(file), p = values_of(made);
  CHECK(f[F::ParamsTotal] == p[F::ParamsTotal]);
  CHECK(f[F::ParamsActiveDecode] == p[F::ParamsActiveDecode]);
  CHECK(f[F::KvGlobalPerToken] == p[F::KvGlobalPerToken]);
  CHECK(f[F::KvSwaPerSession] == p[F::KvSwaPerSession]);
  CHECK(f[F::HbmWeightsPerGpu] == p[F::HbmWeightsPerGpu]);
  // 283.8 B / 13.3 B as the preset and the issue state them; 284B / 13B published
  // (https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash, FACTS §1.3).
  CHECK(f[F::ParamsTotal] == Approx(283.8e9).epsilon(0.0005));
  CHECK(f[F::ParamsActiveDecode] == Approx(13.28e9).epsilon(0.001));
  check_published(f[F::ParamsTotal], 284e9, 0, "V4-Flash total");
  // 21 CSA layers at ratio 4 with 584 B rows and 68 B FP4 index keys, 20 HCA layers at ratio 128:
  // (21/4 + 20/128) × 584 + 21/4 × 68 = 3,514 B/token (FACTS §1.3); the window: 43 layers × 128 tokens × 584 B.
  CHECK(f[F::KvGlobalPerToken] == Approx((21.0 / 4 + 20.0 / 128) * 584 + 21.0 / 4 * 68));
  CHECK(std::round(f[F::KvGlobalPerToken]) == 3514);
  CHECK(f[F::KvSwaPerSession] == 43.0 * 128 * 584);
  CHECK(f[F::KvIndexerPerToken] == Approx(21.0 / 4 * 68));
  // The checkpoint's weight formats: FP4 experts (expert_dtype), FP8 in 128 × 128 blocks elsewhere
  // (quantization_config.weight_block_size [128, 128]); V4.1's 32 × 32 blocks (FACTS §1.4.1) are not V4-Flash's.
  CHECK(file.model.dense_fmt == NumFormat::FP8_B128);
  CHECK(made.model.dense_fmt == NumFormat::FP8_B128);
}

// The presets of the families people serve most hold the model their published file gives, key for key (GLM-5's
// preset is its FP8 checkpoint: the formats differ from the BF16 file, nothing else), with the same counts and state.
TEST_CASE("hf families: each 2026 family's preset holds its config.json's model") {
  struct Pair {
    const char* file;
    const char* preset;
    std::vector<std::string_view> formats_apart;  // model keys the preset sets from another checkpoint of the same model
  };
  const Pair pairs[] = {{"Qwen--Qwen3.5-397B-A17B.json", "qwen35-397b-8xh200", {}},
                        {"moonshotai--Kimi-K2.5.json", "kimi-k25-8xh200", {}},
                        {"zai-org--GLM-5.json", "glm5-fp8-8xb200", {"experts_fmt", "dense_fmt", "act_fmt"}},
                        {"MiniMaxAI--MiniMax-M2.5.json", "minimax-m25-8xh200", {}}};
  for (const Pair& pair : pairs) {
    INFO(pair.preset);
    const Scenario made = preset(pair.preset);
    const Scenario file = load(pair.file, pair.preset);
    for (const ParamDef& p : params()) {
      if (p.group != ParamGroup::Model || std::string_view(p.key) == "checkpoint_gb") continue;
      if (std::find(pair.formats_apart.begin(), pair.formats_apart.end(), std::string_view(p.key)) != pair.formats_apart.end()) continue;
      INFO(p.key);
      CHECK(get_param_text(file, p) == get_param_text(made, p));
    }
    const Values f = values_of(file), v = values_of(made);
    CHECK(f[F::ParamsTotal] == v[F::ParamsTotal]);
    CHECK(f[F::ParamsActiveDecode] == v[F::ParamsActiveDecode]);
    CHECK(f[F::KvGlobalPerToken] == v[F::KvGlobalPerToken]);
    CHECK(f[F::KvIndexerPerToken] == v[F::KvIndexerPerToken]);
    CHECK(f[F::KvRecurrentPerSession] == v[F::KvRecurrentPerSession]);
    CHECK(validate(made).empty());
    CHECK(values_of(made)[F::HbmSessions] >= 1);  // the preset's own layout runs its own model
  }
}

TEST_CASE("hf families: DeepSeek-V4-Pro reads its own compress_ratios and counts") {
  std::vector<std::string> notes;
  const Scenario s = load("deepseek-ai--DeepSeek-V4-Pro.json", "deepseek-v3-8xh200", &notes);
  const Values v = values_of(s);
  // 1.6T total, 49B active (https://huggingface.co/deepseek-ai/DeepSeek-V4-Pro model card, FACTS §1.3).
  check_published(v[F::ParamsTotal], 1.6e12, 0, "V4-Pro total");
  check_published(v[F::ParamsActiveDecode], 49e9, 0, "V4-Pro active");
  // compress_ratios [128, 128, 4, 128, …, 4] (+ one MTP entry): 30 CSA layers, 31 HCA layers, every layer a window.
  int csa = 0, hca = 0;
  for (int i = 0; i < s.model.layer_count; ++i) {
    const Layer& l = s.model.layers[static_cast<std::size_t>(i)];
    csa += l.mode == LayerMode::Full && l.ratio == 4 ? 1 : 0;
    hca += l.mode == LayerMode::Dense && l.ratio == 128 ? 1 : 0;
  }
  CHECK(s.model.layer_count == 61);
  CHECK(csa == 30);
  CHECK(hca == 31);
  CHECK(s.model.top_k == 1024);
  CHECK(v[F::KvGlobalPerToken] == Approx(30.0 / 4 * (584 + 68) + 31.0 / 128 * 584));
  CHECK(v[F::KvSwaPerSession] == 61.0 * 128 * 584);
  CHECK(has_note(notes, "compress_ratios: 62 entries for 61 layers"));
  CHECK(has_note(notes, "hc_mult"));
  // The file's block scales are 8-bit exponents (scale_fmt ue8m0), counted as FP32: said in a note.
  CHECK(has_note(notes, "quantization_config.scale_fmt ue8m0"));
}

// [SECTION] sparse attention's indexer keys -----------------------------------------------------------------

TEST_CASE("hf families: the sparse attention is named by its layers — DSA where every layer indexes its own rows, CSA2 with sharers or compression") {
  // The page's words (the walkthrough's sparse step, the policy counter) follow this name.
  CHECK(std::string(sparse_attention_name(load("deepseek-ai--DeepSeek-V3.2.json").model)) == "DSA");
  CHECK(std::string(sparse_attention_name(load("zai-org--GLM-5.json", "deepseek-v3-8xh200").model)) == "DSA");
  CHECK(std::string(sparse_attention_name(load("deepseek-ai--DeepSeek-V4-Flash.json").model)) == "CSA2");
  CHECK(std::string(sparse_attention_name(preset("v41-flash-8xb200").model)) == "CSA2");
  CHECK(std::string(sparse_attention_name(preset("llama31-70b-8xh100").model)).empty());
}

TEST_CASE("hf families: DeepSeek-V3.2 and GLM-5 keep FP8 indexer keys beside the MLA latent and read top-k rows") {
  Scenario v32 = load("deepseek-ai--DeepSeek-V3.2.json");
  v32.work.ctx = 131072;
  Values v = values_of(v32);
  // 671B total, 37B active (https://huggingface.co/deepseek-ai/DeepSeek-V3.2 model card).
  check_published(v[F::ParamsTotal], 671e9, 0, "V3.2 total");
  check_published(v[F::ParamsActiveDecode] - v32.model.vocab * double(v32.model.hidden), 37e9, 0, "V3.2 active without the input embedding");
  // Per layer: the latent 512 + 64 RoPE in BF16 (1,152 B) and a 128-dim FP8 key with an FP32 scale (132 B).
  CHECK(v[F::KvIndexEntry] == 132);
  CHECK(v[F::KvIndexerPerToken] == 61 * 132);
  CHECK(v[F::KvGlobalPerToken] == 61 * (1152 + 132));
  // Each step the indexer scores every key (grows with the context) while attention reads top-k 2,048 rows per layer.
  CHECK(v[F::KvTopkRows] == 61 * 2048);
  CHECK(v[F::IndexFullpoolBytes] == Approx(61.0 * 131072 * 132));
  CHECK(v[F::GatherBytes] == Approx(61.0 * 2048 * 1152));
  Scenario longer = v32;
  longer.work.ctx = 163840;
  const Values w = values_of(longer);
  CHECK(w[F::KvTopkRows] == v[F::KvTopkRows]);
  CHECK(w[F::IndexFullpoolBytes] > v[F::IndexFullpoolBytes]);

  const Scenario glm = load("zai-org--GLM-5.json", "deepseek-v3-8xh200");
  const Values g = values_of(glm);
  // 744B total, 40B active (https://huggingface.co/zai-org/GLM-5 model card).
  check_published(g[F::ParamsTotal], 744e9, 0, "GLM-5 total");
  check_published(g[F::ParamsActiveDecode] - glm.model.vocab * double(glm.model.hidden), 40e9, 0, "GLM-5 active without the input embedding");
  CHECK(g[F::KvGlobalPerToken] == 78 * (1152 + 132));
  CHECK(glm.model.dense_layers == 3);
  CHECK(glm.model.draft_layers == 1);
}

// [SECTION] formats -----------------------------------------------------------------------------------------

TEST_CASE("hf families: INT4 weight-only checkpoints keep the group size from the file and run at the activations' rate") {
  // Kimi-K2.5: compressed-tensors INT4 (group 32, symmetric) on the routed experts; attention, shared experts and
  // the dense MLP left in BF16 by its ignore list; no input_activations: weight-only.
  const Scenario kimi = load("moonshotai--Kimi-K2.5.json", "deepseek-v3-8xh200");
  CHECK(kimi.model.experts_fmt == NumFormat::INT4_G32);
  CHECK(kimi.model.dense_fmt == NumFormat::BF16);
  CHECK(kimi.model.act_fmt == NumFormat::BF16);
  const Values k = values_of(kimi);
  // 1T total, 32B active (https://huggingface.co/moonshotai/Kimi-K2.5 model card).
  check_published(k[F::ParamsTotal], 1.0e12, 0, "Kimi-K2.5 total");
  check_published(k[F::ParamsActiveDecode], 32e9, 0, "Kimi-K2.5 active");
  Computed c;
  compute_values(kimi, c);
  CHECK(c.terms.weights_bytes_experts == Approx(c.terms.p_routed_all * (0.5 + 2.0 / 32)));
  // A W4A16 GEMM dequantises in its main loop and multiplies at BF16's rate, never FP4's, on every part.
  Hardware b200;
  b200.gpu = gpu_kind("b200");
  CHECK(gemm_pflops(b200, NumFormat::INT4_G32, NumFormat::BF16) == gpu_info(gpu_kind("b200")).fp8_pflops / 2);
  CHECK(gemm_pflops(b200, NumFormat::INT4_G128, NumFormat::FP4_G16) == gpu_info(gpu_kind("b200")).fp8_pflops);

  // GPTQ (Qwen3-30B-A3B-GPTQ-Int4): every linear layer in 4 bits, group 128 from the file, symmetric.
  const Scenario gptq = load("Qwen3-30B-A3B-GPTQ-Int4.json", "deepseek-v3-8xh200");
  CHECK(gptq.model.experts_fmt == NumFormat::INT4_G128);
  CHECK(gptq.model.dense_fmt == NumFormat::INT4_G128);
  CHECK(bytes_per_value(NumFormat::INT4_G128) == 0.5 + 2.0 / 128);
  // AWQ: a 4-bit zero point beside each 16-bit scale (AutoAWQ's quantization_config shape).
  std::string awq = fixture("Qwen3-30B-A3B.json");
  awq.insert(awq.rfind('}'), ",\"quantization_config\": {\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128, \"zero_point\": true, \"version\": \"gemm\"}");
  const Scenario a = load_text(awq, "deepseek-v3-8xh200");
  CHECK(a.model.experts_fmt == NumFormat::INT4_G128Z);
  CHECK(bytes_per_value(NumFormat::INT4_G128Z) == 0.5 + 2.5 / 128);
}

TEST_CASE("hf families: FP8 checkpoints listing norms and the router's bias as unconverted are read") {
  // MiniMax-M2.5: modules_to_not_convert ["gate", "e_score_correction_bias", "lm_head"] — a bias is not a
  // linear layer, so every linear layer but the router and head is FP8 in 128 × 128 blocks.
  const Scenario mm = load("MiniMaxAI--MiniMax-M2.5.json", "deepseek-v3-8xh200");
  CHECK(mm.model.experts_fmt == NumFormat::FP8_B128);
  CHECK(mm.model.dense_fmt == NumFormat::FP8_B128);
  CHECK(mm.model.act_fmt == NumFormat::FP8);
  const Values v = values_of(mm);
  // 230B total, 10B active (https://huggingface.co/MiniMaxAI/MiniMax-M2.5 model card).
  check_published(v[F::ParamsTotal], 230e9, 0, "MiniMax-M2.5 total");
  check_published(v[F::ParamsActiveDecode] - mm.model.vocab * double(mm.model.hidden), 10e9, 0, "MiniMax-M2.5 active without the input embedding");
  CHECK(v[F::KvGlobalPerToken] == 62.0 * 2 * 8 * 128 * 2);
  CHECK(mm.model.draft_layers == 1);  // use_mtp, mtp_transformer_layers 1
  // Qwen3-235B-A22B-FP8's quantization_config lists layer norms and the router among its unconverted modules.
  std::string fp8 = fixture("Qwen--Qwen3-235B-A22B.json");
  fp8.insert(fp8.rfind('}'), ",\"quantization_config\": {\"activation_scheme\": \"dynamic\", \"fmt\": \"e4m3\", \"quant_method\": \"fp8\", "
                             "\"weight_block_size\": [128, 128], \"modules_to_not_convert\": [\"lm_head\", \"model.layers.0.input_layernorm\", "
                             "\"model.layers.0.mlp.gate\", \"model.layers.0.post_attention_layernorm\", \"model.layers.0.self_attn.k_norm\", "
                             "\"model.layers.0.self_attn.q_norm\", \"model.norm\"]}");
  const Scenario q = load_text(fp8, "qwen3-235b-a22b-4xh200");
  CHECK(q.model.dense_fmt == NumFormat::FP8_B128);
  CHECK(q.model.experts_fmt == NumFormat::FP8_B128);
  // A linear layer left out of a format it shares with the others is still refused, by name.
  std::string split = fixture("Qwen--Qwen3-235B-A22B.json");
  split.insert(split.rfind('}'), ",\"quantization_config\": {\"quant_method\": \"fp8\", \"modules_to_not_convert\": [\"model.layers.0.self_attn.o_proj\"]}");
  const Error e = refusal(split);
  CHECK(e.code == ErrorCode::Unrepresentable);
  CHECK(e.field == "quantization_config.modules_to_not_convert");
}

TEST_CASE("hf families: hf_quant_config.json beside config.json states ModelOpt's formats") {
  const std::string quant =
      R"({"producer": {"name": "modelopt", "version": "0.29.0"}, "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16, "exclude_modules": ["lm_head"]}})";
  std::vector<std::string> notes;
  const Scenario s = load_text(fixture("Qwen3-30B-A3B.json"), "qwen3-30b-a3b-1xb200", &notes, quant);
  CHECK(s.model.experts_fmt == NumFormat::FP4_G16);
  CHECK(s.model.act_fmt == NumFormat::FP4_G16);
  CHECK(s.model.kv_fmt == NumFormat::FP8);
  CHECK(input_provenance(s, "kv_fmt").source.find("hf_quant_config.json") != std::string::npos);
  HfModel m;
  Errors errors;
  CHECK_FALSE(read_hf_config(fixture("Qwen3-30B-A3B.json"), "", m, errors, "{\"quantization\": {\"quant_algo\": \"INT2\"}}"));
  REQUIRE_FALSE(errors.empty());
  CHECK(errors[0].field == "hf_quant_config.json.quantization.quant_algo");
}

// [SECTION] recurrent state -----------------------------------------------------------------------------------

TEST_CASE("hf families: Qwen3.5's Gated DeltaNet layers keep a fixed state per session, read once per step") {
  Scenario s = load("Qwen--Qwen3.5-397B-A17B.json", "deepseek-v3-8xh200");
  const Values v = values_of(s);
  // 397B total, 17B active (https://huggingface.co/Qwen/Qwen3.5-397B-A17B model card).
  check_published(v[F::ParamsTotal], 397e9, 0, "Qwen3.5-397B total");
  check_published(v[F::ParamsActiveDecode], 17e9, 0, "Qwen3.5-397B active");
  // 45 linear layers: a 64 × 128 × 128 FP32 state (mamba_ssm_dtype) and a 3-token BF16 convolution over
  // q, k, v (2 × 16 × 128 + 64 × 128 channels); 15 full layers of 2 KV heads × (256 + 256) BF16.
  const double state = 45.0 * (64.0 * 128 * 128 * 4 + 3.0 * (2 * 16 * 128 + 64 * 128) * 2);
  CHECK(v[F::KvRecurrentPerSession] == state);
  CHECK(v[F::KvGlobalPerToken] == 15.0 * 2 * 2 * 256 * 2);
  CHECK(v[F::KvPerSession] == s.work.ctx * 15.0 * 2048 + state);
  // The state does not grow with the context, and decode reads it once per step whatever the context.
  Scenario longer = s;
  longer.work.ctx = 200000;
  const Values w = values_of(longer);
  CHECK(w[F::KvRecurrentPerSession] == v[F::KvRecurrentPerSession]);
  CHECK(w[F::DecodeTState] == v[F::DecodeTState]);
  CHECK(v[F::DecodeTState] > 0);
  // Engines checkpoint it for prefix reuse: SGLang every 256 tokens, vLLM at each attention block.
  Scenario sg = s;
  sg.engine.kind = EngineKind::Sglang;
  CHECK(values_of(sg)[F::KvRecurrentCkptInterval] == 256);
  CHECK(v[F::KvRecurrentCkptInterval] == 16 * std::ceil((64.0 * 128 * 128 * 4 + 3.0 * (2 * 16 * 128 + 64 * 128) * 2) / (16.0 * 2048)));
  CHECK(v[F::KvRecurrentCkptBytes] == state);  // the 7,168-token hit restores one checkpoint
  CHECK(v[F::PrefixHitBytes] == Approx(s.work.prefix_hit * v[F::KvGlobalPerToken] + state));

  const Scenario small = load("Qwen--Qwen3.5-0.8B.json", "llama31-8b-1xh100");
  const Values d = values_of(small);
  // "0.8B" (https://huggingface.co/Qwen/Qwen3.5-0.8B): within its one stated digit (the vision encoder is not counted).
  check_published(d[F::ParamsTotal], 0.8e9, 0.1e9, "Qwen3.5-0.8B total");
  CHECK(d[F::KvRecurrentPerSession] == 18.0 * (16.0 * 128 * 128 * 4 + 3.0 * (2 * 16 * 128 + 16 * 128) * 2));
  CHECK(d[F::KvGlobalPerToken] == 6.0 * 2 * 2 * 256 * 2);
  CHECK(small.model.draft_layers == 1);  // mtp_num_hidden_layers
}

TEST_CASE("hf families: a Gated DeltaNet layer launches its own kernels — the chunked delta rule in a prompt, the fused update in decode") {
  // Qwen3.5-397B under SGLang, a 1K prompt: against the same model with its 45 linear layers read as GQA
  // layers, each linear layer adds the chunked rule's kernels to the prompt pass (gate projection, split,
  // conv1d, gating, two l2 norms, cumsum, K·Kᵀ, triangular solve, W/U, state recurrence, output, gated
  // norm: thirteen, less the three a GQA layer counts) and two to the decode step (gate projection, split,
  // conv update, fused update, gated norm: five, less the same three), each at the engine's launch cost.
  Scenario s = load("Qwen--Qwen3.5-397B-A17B.json", "deepseek-v3-8xh200");
  s.engine.kind = EngineKind::Sglang;
  s.work.prompt = 1024;
  s.work.prefix_hit = 0;
  Scenario gqa = s;
  int linear = 0;
  for (int i = 0; i < gqa.model.layer_count; ++i) {
    Layer& l = gqa.model.layers[static_cast<std::size_t>(i)];
    if (l.mode == LayerMode::Linear) l.mode = LayerMode::Dense, ++linear;
  }
  REQUIRE(linear == 45);
  Computed a, b;
  compute_values(s, a);
  compute_values(gqa, b);
  const Pass& pa = a.terms.prefill.full;
  const Pass& pb = b.terms.prefill.full;
  REQUIRE(a.terms.prefill.chunks == 1);
  REQUIRE(pa.launch_s == pb.launch_s);
  CHECK(pa.floor_c[2] / pa.launch_s - pb.floor_c[2] / pb.launch_s == Approx(45.0 * 10));
  CHECK(a.terms.kernels_per_step - b.terms.kernels_per_step == Approx(45.0 * 2));
  // A 1K prompt's attention kernels are launch-bound: the pass grows by at least those launches.
  CHECK(a.values[F::PrefillFullTime] - b.values[F::PrefillFullTime] >= 45.0 * 10 * pa.launch_s * 0.999);
}

TEST_CASE("hf families: Nemotron 3's Mamba-2 layers, ReLU² experts and pattern read as layers") {
  std::vector<std::string> notes;
  const Scenario s = load("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json", "deepseek-v3-8xh200", &notes);
  const Values v = values_of(s);
  // 31.6B total, 3.6B active with the embeddings (https://huggingface.co/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 model card).
  check_published(v[F::ParamsTotal], 31.6e9, 0, "Nemotron-3-Nano total");
  check_published(v[F::ParamsActiveDecode], 3.6e9, 0, "Nemotron-3-Nano active");
  // 52 blocks: 23 Mamba-2 and 6 attention mixers, each with the MoE block after it or none: 29 layers.
  CHECK(s.model.layer_count == 29);
  int linear = 0;
  for (int i = 0; i < s.model.layer_count; ++i) linear += s.model.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear ? 1 : 0;
  CHECK(linear == 23);
  CHECK(s.model.ffn_mats == 2);
  CHECK(s.model.shared_experts == 2);  // moe_shared_expert_intermediate_size 3712 = 2 × 1856
  // 23 × (64 heads × 64 × 128 state in FP32 + 3 × (2 × 8 × 128 + 64 × 64) BF16 convolution channels).
  CHECK(v[F::KvRecurrentPerSession] == 23.0 * (64.0 * 64 * 128 * 4 + 3.0 * (2 * 8 * 128 + 64 * 64) * 2));
  CHECK(v[F::KvGlobalPerToken] == 6.0 * 2 * 2 * 128 * 2);
  // Python's json module writes Infinity in Nemotron-H files (time_step_limit): read, and named as ignored.
  std::string inf = fixture("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
  inf.insert(inf.rfind('}'), ",\"time_step_limit\": [\n    0.0,\n    Infinity\n  ]");
  std::vector<std::string> inf_notes;
  load_text(inf, "deepseek-v3-8xh200", &inf_notes);
  CHECK(has_note(inf_notes, "time_step_limit"));
}

// [SECTION] layouts engines run ---------------------------------------------------------------------------------

TEST_CASE("hf families: chunked-local layers read at most their chunk — a tensor parallel wider than the KV heads copies them") {
  // Llama 4 Scout's published file (meta-llama/Llama-4-Scout-17B-16E-Instruct): 48 layers, chunks of 8,192,
  // every fourth layer global (NoPE).
  Scenario s = load("meta-llama--Llama-4-Scout-17B-16E-Instruct.json", "llama31-70b-8xh100");
  int chunked = 0;
  for (int i = 0; i < s.model.layer_count; ++i) chunked += s.model.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked ? 1 : 0;
  CHECK(chunked == 36);
  const Values v = values_of(s);
  // 12 global layers hold the context; 36 chunked ones at most 8,192 tokens each (8 KV heads × 256 dims × 2 B).
  CHECK(v[F::KvGlobalPerToken] == 12.0 * 8 * 256 * 2);
  CHECK(v[F::KvChunkPerSession] == 36.0 * 8192 * 8 * 256 * 2);
  Scenario longer = s;
  longer.work.ctx = 200000;
  CHECK(values_of(longer)[F::KvChunkPerSession] == v[F::KvChunkPerSession]);
  CHECK(values_of(longer)[F::SwaWindowBytes] == v[F::SwaWindowBytes]);  // each step reads at most the chunk
  // Qwen3.5-397B has 2 KV heads: at TP8 engines copy each on 4 GPUs, while the recurrent state's 64 value
  // heads split 8 ways.
  Scenario q = load("Qwen--Qwen3.5-397B-A17B.json", "deepseek-v3-8xh200");
  q.par.tp = 8, q.par.dp = 1;
  REQUIRE(validate(q).empty());
  Computed c;
  compute_values(q, c);
  CHECK(c.values[F::HbmKvCopies] == 4);
  CHECK(c.values[F::HbmKvSessionPerGpu] ==
        Approx((c.values[F::KvPerSession] - c.values[F::KvRecurrentPerSession]) / 2 + c.values[F::KvRecurrentPerSession] / 8));
}

// [SECTION] refusals ------------------------------------------------------------------------------------------

TEST_CASE("hf families: each family's broken or truncated file is refused with the field named") {
  struct Case {
    const char* file;
    const char* drop;
    const char* field;
  };
  const Case cases[] = {
      {"deepseek-ai--DeepSeek-V4-Flash.json", "sliding_window", "sliding_window"},
      {"deepseek-ai--DeepSeek-V4-Pro.json", "o_groups", "o_groups"},
      {"deepseek-ai--DeepSeek-V3.2.json", "index_topk", "index_topk"},
      {"zai-org--GLM-5.json", "index_n_heads", "index_n_heads"},
      {"moonshotai--Kimi-K2.5.json", "kv_lora_rank", "text_config.kv_lora_rank"},
      {"MiniMaxAI--MiniMax-M2.5.json", "num_local_experts", "num_local_experts"},
      {"Qwen--Qwen3.5-397B-A17B.json", "linear_num_value_heads", "text_config.linear_num_value_heads"},
      {"Qwen--Qwen3.5-0.8B.json", "linear_key_head_dim", "text_config.linear_key_head_dim"},
      {"nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json", "ssm_state_size", "ssm_state_size"},
  };
  for (const Case& c : cases) {
    INFO(c.file << " without " << c.drop);
    const Error e = refusal(without(fixture(c.file), c.drop));
    CHECK(e.code == ErrorCode::MissingField);
    CHECK(e.field == c.field);
    // Cut in half, the file is not JSON.
    const std::string text = fixture(c.file);
    CHECK(refusal(text.substr(0, text.size() / 2)).code == ErrorCode::BadSyntax);
  }
  // Wrong values name the field and what is allowed.
  std::string v4 = fixture("deepseek-ai--DeepSeek-V4-Flash.json");
  v4.replace(v4.find("\"compress_ratios\": ["), 20, "\"compress_ratios\": [-4, ");
  CHECK(refusal(v4).field == "compress_ratios");
  std::string nemo = fixture("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
  nemo.replace(nemo.find("\"MEMEM"), 6, "\"-EMEM");
  const Error pattern = refusal(nemo);
  CHECK(pattern.code == ErrorCode::Unrepresentable);
  CHECK(pattern.field == "hybrid_override_pattern");
  std::string layers = fixture("Qwen--Qwen3.5-0.8B.json");
  layers.replace(layers.find("\"linear_attention\""), 18, "\"mamba\"");
  CHECK(refusal(layers).field == "text_config.layer_types");
  std::string inf = fixture("deepseek-ai--DeepSeek-V3.2.json");
  inf.replace(inf.find("\"num_hidden_layers\": 61"), 23, "\"num_hidden_layers\": Infinity");
  const Error nonfinite = refusal(inf);
  CHECK(nonfinite.code == ErrorCode::WrongType);
  CHECK(nonfinite.field == "num_hidden_layers");
  CHECK(nonfinite.value == "Infinity");
  // Unknown families are still refused by name.
  const Error unknown = refusal(R"({"model_type": "no_such_family", "num_hidden_layers": 4})");
  CHECK(unknown.code == ErrorCode::UnknownFamily);
  CHECK(unknown.value == "no_such_family");
}

// The list a refusal gives is the reader's own table: every model_type it names is taken as a family (a
// minimal text of it is refused for a missing field, never as an unknown family).
TEST_CASE("hf families: every model_type an unknown-family refusal lists is a family the reader takes") {
  const Error unknown = refusal(R"({"model_type": "no_such_family", "num_hidden_layers": 4})");
  REQUIRE(unknown.code == ErrorCode::UnknownFamily);
  std::vector<std::string> listed;
  std::string_view rest = unknown.allowed;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(", ");
    listed.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
  }
  CHECK(listed.size() >= 28);
  for (const std::string& t : listed) {
    INFO(t);
    const Error e = refusal("{\"model_type\": \"" + t + "\"}");
    CHECK(e.code != ErrorCode::UnknownFamily);
  }
}

TEST_CASE("hf families: Python's NaN and Infinity are read in config.json only, never in a scenario file") {
  json::Document doc;
  CHECK(doc.parse(R"({"a": [0.0, Infinity, -Infinity, NaN]})", nullptr, true));
  const json::Value& a = *doc.root().find("a");
  CHECK(std::isinf(a[1].number()));
  CHECK(a[2].number() < 0);
  CHECK(std::isnan(a[3].number()));
  CHECK(doc.root().dump() == R"({"a":[0.0,Infinity,-Infinity,NaN]})");
  CHECK_FALSE(doc.parse(R"({"a": Infinity})"));  // strict JSON without the option
  Scenario s = preset("v41-flash-8xb200");
  Errors errors;
  CHECK_FALSE(scenario_from_json(R"({"preset": "v41-flash-8xb200", "workload": {"ctx": Infinity}})", s, errors));
  REQUIRE_FALSE(errors.empty());
  CHECK(errors[0].code == ErrorCode::BadSyntax);
}

// [SECTION] formulas ---------------------------------------------------------------------------------------------


TEST_CASE("hf families: every figure's formula adds up to its value for the new layer kinds and layouts") {
  std::vector<std::string> wrong;
  int checked = 0;
  for (const char* file : {"deepseek-ai--DeepSeek-V4-Pro.json", "deepseek-ai--DeepSeek-V3.2.json", "Qwen--Qwen3.5-397B-A17B.json",
                           "nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json", "moonshotai--Kimi-K2.5.json", "Qwen3-30B-A3B-GPTQ-Int4.json",
                           "Qwen--Qwen3.5-0.8B.json"}) {
    const Scenario base = load(file, "deepseek-v3-8xh200");
    for (const char* edit : {"", "batch=64", "ctx=2048", "prefix_hit=0", "engine=sglang", "tp=8&dp=1", "gpus=16&tp=16&dp=1&ep=16&batch=32"}) {
      Scenario s = base;
      std::string_view rest = edit;
      bool ok = true;
      while (ok && !rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view item = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const std::size_t eq = item.find('=');
        Error err;
        ok = set_param_text(s, *find_param(item.substr(0, eq)), item.substr(eq + 1), err);
      }
      if (!ok || !validate(s).empty()) continue;
      const Figures figs = describe(s);
      for (const Figure& f : figs.list) {
        ++checked;
        const std::string why = formula_mismatch(f);
        if (!why.empty()) wrong.push_back(std::string(file) + " + " + edit + ": " + std::string(f.id) + ": " + why);
      }
    }
  }
  INFO(checked << " formulas evaluated");
  std::string first;
  for (std::size_t i = 0; i < std::min<std::size_t>(wrong.size(), 8); ++i) first += wrong[i] + "\n";
  INFO(wrong.size() << " wrong:\n" << first);
  CHECK(wrong.empty());
}
