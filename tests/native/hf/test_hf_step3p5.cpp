// Step 3.5 Flash and Step 3.7 Flash (step3p5, and a step3p7 file around a step3p5 text_config), read from texts
// built here in the field names their engines read: no published config.json of either was found whole. The
// counts are held against StepFun's published totals, the state bytes against independent arithmetic, and
// broken texts are refused with the field named.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/params.h"
#include "roofline/figures.h"

#include "hf_test_support.h"

using namespace tierscope::model;
using namespace tierscope::model::hf_test;
using F = FigureId;

namespace {

// The dims, as the text below states them, for the arithmetic.
constexpr int kLayers = 45, kMtp = 3, kFull = 12, kSliding = 33, kDenseLayers = 3, kMoeLayers = 42;
constexpr double kHidden = 4096, kVocab = 128896, kHeads = 64, kSwaHeads = 96, kKvHeads = 8, kHeadDim = 128, kWindow = 512;
constexpr double kDense = 11264, kExpert = 1280, kExperts = 288, kTopK = 8, kShared = 1;

// "[a, b, …]" of one text per entry.
template <class Fn>
std::string list(int n, Fn entry) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + entry(i);
  return out + "]";
}

// Step 3.5 Flash's language model in the fields vLLM's Step3p5Config and Step3p5 model code
// (vllm/model_executor/models/step3p5.py, step3p5_mtp.py) and SGLang's (python/sglang/srt/models/step3p5.py)
// read: KV heads as num_attention_groups, layer_types (a full layer every fourth, the rest a 512-token window)
// with one more entry per MTP layer, the sliding layers' heads in attention_other_setting, MoE layers listed in
// moe_layers_enum as a comma-separated string, 288 experts of 1,280 (top 8) and a shared expert of
// share_expert_dim. The dims are those ROCm/ATOM's Step-3.5-Flash config test gives as the checkpoint's
// (REALISTIC_KWARGS) and the Step3p7TextConfig defaults; three MTP layers as the Step 3.7 model code skips
// (layers 45-47). Not the published file (not found): a text in its field names.
std::string step3p5_fields() {
  std::string moe;
  for (int i = kDenseLayers; i < kLayers; ++i) moe += (moe.empty() ? "" : ",") + std::to_string(i);
  const auto full = [](int i) { return i % 4 == 0; };
  return std::string(R"("model_type": "step3p5", "hidden_size": 4096, "intermediate_size": 11264, "num_hidden_layers": 45,)") +
         R"("num_attention_heads": 64, "num_attention_groups": 8, "head_dim": 128, "vocab_size": 128896, "max_position_embeddings": 262144,)" +
         R"("rms_norm_eps": 1e-05, "att_impl_type": "GQA", "use_head_wise_attn_gate": true, "use_qk_norm": true, "sliding_window": 512,)" +
         R"("layer_types": )" + list(kLayers + kMtp, [&](int i) { return std::string(full(i) ? "\"full_attention\"" : "\"sliding_attention\""); }) +
         R"(, "attention_other_setting": {"attention_type": "sliding_attention", "num_attention_heads": 96, "num_attention_groups": 8, "head_dim": 128},)" +
         R"("rope_theta": )" + list(kLayers + kMtp, [&](int i) { return std::string(full(i) ? "5000000.0" : "10000.0"); }) +
         R"(, "partial_rotary_factors": )" + list(kLayers + kMtp, [&](int i) { return std::string(full(i) ? "0.5" : "1.0"); }) +
         R"(, "yarn_only_types": ["full_attention"], "rope_scaling": {"rope_type": "llama3", "factor": 16.0},)" +
         R"("moe_num_experts": 288, "moe_top_k": 8, "moe_intermediate_size": 1280, "share_expert_dim": 1280, "moe_layers_enum": ")" + moe +
         R"(", "norm_expert_weight": true, "moe_router_activation": "sigmoid", "moe_router_scaling_factor": 3.0, "use_moe_router_bias": true,)" +
         R"("need_fp32_gate": true, "swiglu_limits": )" + list(kLayers, [](int i) { return std::string(i < 43 ? "0.0" : "7.0"); }) +
         R"(, "swiglu_limits_shared": )" + list(kLayers, [](int i) { return std::string(i < 43 ? "0.0" : "16.0"); }) +
         R"(, "num_nextn_predict_layers": 3, "torch_dtype": "bfloat16")";
}

// The bare language model, as vLLM serves Step 3.5 Flash (Step3p5ForCausalLM).
std::string step3p5_text() { return R"({"architectures": ["Step3p5ForCausalLM"], )" + step3p5_fields() + "}"; }

// Step 3.7 Flash: the Step3p7Config wrapper (model_type step3p7) with the same language model as its
// text_config and its perception encoder in vision_config (the config class's defaults).
std::string step3p7_text() {
  return R"({"architectures": ["Step3p7ForConditionalGeneration"], "model_type": "step3p7", "text_config": {)" + step3p5_fields() +
         R"(}, "vision_config": {"width": 1536, "layers": 47, "heads": 16, "image_size": 728, "patch_size": 14, "hidden_act": "quick_gelu"},)" +
         R"("understand_projector_stride": 2, "projector_bias": false, "image_token_id": 151679, "torch_dtype": "bfloat16"})";
}

// The text with `from` replaced by `to` (the test fails if `from` is not there).
std::string with(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The text without one field (its value a string, a number or a list).
std::string without(std::string text, const std::string& field) {
  const std::size_t at = text.find("\"" + field + "\": ");
  REQUIRE(at != std::string::npos);
  const std::size_t value = at + field.size() + 4;
  const std::size_t end = text[value] == '[' ? text.find(']', value) + 1 : text[value] == '"' ? text.find('"', value + 1) + 1 : text.find(',', value);
  return text.erase(at, text.find_first_not_of(", ", end) - at);
}

}  // namespace

TEST_CASE("hf Step 3.5 and 3.7: a full layer every fourth, the others a 512-token window at their own heads, MoE after the dense 3") {
  std::vector<std::string> notes;
  const Scenario s = load_text(step3p7_text(), "deepseek-v3-8xh200", &notes);
  const ModelArch& m = s.model;
  REQUIRE(m.layer_count == kLayers);
  int sliding = 0;
  for (int i = 0; i < kLayers; ++i) {
    INFO("layer " << i);
    CHECK(m.layers[static_cast<std::size_t>(i)].mode == (i % 4 == 0 ? LayerMode::Dense : LayerMode::SwaOnly));
    sliding += m.layers[static_cast<std::size_t>(i)].mode == LayerMode::SwaOnly ? 1 : 0;
  }
  CHECK(sliding == kSliding);
  CHECK(m.n_win == kWindow);
  CHECK(m.q_heads == kHeads);
  CHECK(m.kv_heads == kKvHeads);  // num_attention_groups, not a KV head per query head
  CHECK(m.head_dim == kHeadDim);
  CHECK(m.swa_kv_heads == kKvHeads);
  CHECK(m.swa_head_dim == kHeadDim);
  CHECK(m.dense_layers == kDenseLayers);
  CHECK(m.dense_inter == kDense);
  CHECK(m.experts == kExperts);
  CHECK(m.experts_per_token == kTopK);
  CHECK(m.expert_inter == kExpert);
  CHECK(m.shared_experts == kShared);
  CHECK(m.draft_layers == 1);
  CHECK(m.tied_embed == 0);
  CHECK(m.vocab == kVocab);
  CHECK(m.max_pos == 262144);
  // What is not modelled is named, each with what it changes.
  CHECK(has_note(notes, "attention_other_setting.num_attention_heads 96: the 33 sliding layers' query heads are taken as num_attention_heads (64)"));
  CHECK(has_note(notes, "use_head_wise_attn_gate"));
  CHECK(has_note(notes, "need_fp32_gate"));
  CHECK(has_note(notes, "num_nextn_predict_layers 3"));
  CHECK(has_note(notes, "vision_config: the vision encoder is not modelled"));
  for (const std::string& n : notes) {
    const bool hidden = n.starts_with("ignored") && (n.find("attention_other_setting") != std::string::npos ||
                                                     n.find("moe_layers_enum") != std::string::npos || n.find("num_attention_groups") != std::string::npos);
    CHECK_FALSE(hidden);
  }
  // The bare step3p5 text reads to the same model.
  const Scenario bare = load_text(step3p5_text(), "deepseek-v3-8xh200");
  CHECK(values_of(bare)[F::ParamsTotal] == values_of(s)[F::ParamsTotal]);
  CHECK(values_of(bare)[F::KvPerSession] == values_of(s)[F::KvPerSession]);
  // Without layer_types, moe_layers_enum and share_expert_dim: vLLM's defaults — the even layers slide, every
  // layer but the first is MoE, the shared expert is moe_intermediate_size × moe_top_k wide.
  const Scenario d = load_text(without(without(without(step3p5_text(), "layer_types"), "moe_layers_enum"), "share_expert_dim"), "deepseek-v3-8xh200");
  CHECK(d.model.layers[0].mode == LayerMode::SwaOnly);
  CHECK(d.model.layers[1].mode == LayerMode::Dense);
  CHECK(d.model.layers[44].mode == LayerMode::SwaOnly);
  CHECK(d.model.dense_layers == 1);
  CHECK(d.model.shared_experts == kTopK);
}

TEST_CASE("hf Step 3.5 and 3.7: parameters against StepFun's published counts and independent arithmetic") {
  std::vector<std::string> notes;
  const Scenario s = load_text(step3p7_text(), "deepseek-v3-8xh200", &notes);
  const Values v = values_of(s);
  // Step 3.5 Flash: "activates only 11B of its 196B parameters per token" (StepFun's README of the model,
  // https://github.com/stepfun-ai/Step-3.5-Flash, also its Hugging Face card). Step 3.7 Flash: 198B total, 11B
  // active (StepFun's model overview in its platform docs, guides/models/reasoning), a 196B language backbone
  // beside a 1.8B perception encoder (vLLM's Step-3.7-Flash recipe); the encoder is not modelled, so the
  // language model is held against 196B.
  check_published(v[F::ParamsTotal], 196e9, 0, "Step 3.5 Flash / Step 3.7 Flash language model total");
  check_published(v[F::ParamsActiveDecode], 11e9, 0, "Step 3.5 Flash / Step 3.7 Flash active");
  // Counted: every layer's attention at 64 query heads (the sliding layers' 96 are named in a note), 8 KV heads
  // of 128; three dense FFNs of 11,264; 42 MoE layers of 288 routed experts and one shared expert of 1,280, each
  // gate, up and down; an input embedding and a separate LM head.
  const double attn = kHidden * kHeads * kHeadDim * 2 + kHidden * kKvHeads * kHeadDim * 2;
  const double expert = 3.0 * kHidden * kExpert;
  const double router = kExperts * kHidden;
  const double total =
      kLayers * attn + kDenseLayers * 3.0 * kHidden * kDense + kMoeLayers * ((kExperts + kShared) * expert + router) + 2.0 * kVocab * kHidden;
  CHECK(v[F::ParamsTotal] == Approx(total).epsilon(1e-6));
  const double active =
      kLayers * attn + kDenseLayers * 3.0 * kHidden * kDense + kMoeLayers * ((kTopK + kShared) * expert + router) + 2.0 * kVocab * kHidden;
  CHECK(v[F::ParamsActiveDecode] == Approx(active).epsilon(1e-6));
  // The sliding layers' 32 more query heads are what the note says the count leaves out (195.83 B counted,
  // 196.94 B with them): either is within 5 % of the published 196B.
  const double swa_extra = kSliding * 2.0 * kHidden * (kSwaHeads - kHeads) * kHeadDim;
  CHECK(swa_extra == 1107296256.0);
  CHECK(has_note(notes, "33 × 2 × 4096 × 32 × 128 = 1,107,296,256 parameters fewer than the checkpoint holds"));
  check_published(v[F::ParamsTotal] + swa_extra, 196e9, 0, "with the sliding layers' own query heads");
}

TEST_CASE("hf Step 3.5 and 3.7: KV bytes per token and per session — 12 full layers per token, 33 windows of 512") {
  const Scenario s = load_text(step3p7_text(), "deepseek-v3-8xh200");
  const Values v = values_of(s);
  // BF16 K and V (no cache format named): 8 KV heads × 128 dims × 2 (K, V) × 2 B = 4,096 B per layer and token.
  const double row = kKvHeads * kHeadDim * 2 * 2;
  CHECK(v[F::KvGlobalPerToken] == kFull * row);  // 49,152 B
  CHECK(v[F::KvSwaEntry] == row);
  CHECK(v[F::KvSwaPerSession] == kSliding * kWindow * row);  // 69,206,016 B
  for (int ctx : {8192, 131072}) {
    Scenario at = s;
    at.work.ctx = ctx;
    INFO("ctx " << ctx);
    // 8K: 402,653,184 + 69,206,016 = 471,859,200 B; 128K: 6,442,450,944 + 69,206,016 = 6,511,656,960 B.
    CHECK(values_of(at)[F::KvPerSession] == ctx * kFull * row + kSliding * kWindow * row);
  }
}

TEST_CASE("hf Step 3.5 and 3.7: every figure's formula adds up, and broken texts are refused by field") {
  const Scenario s = load_text(step3p7_text(), "deepseek-v3-8xh200");
  const Figures figs = describe(s);
  const std::vector<std::string> wrong = formulas_wrong(figs);
  INFO(wrong.size() << " wrong; first: " << (wrong.empty() ? "" : wrong[0]));
  CHECK(figs.list.size() > 100);
  CHECK(wrong.empty());

  const std::string text = step3p7_text();
  struct Case {
    std::string text;
    const char* field;
    ErrorCode code;
  };
  const std::string moe = R"("moe_layers_enum": "3,4,5,)";
  const std::vector<Case> cases = {
      {with(text, R"("num_attention_groups": 8, "head_dim": 128, "vocab_size")", R"("head_dim": 128, "vocab_size")"), "text_config.num_attention_groups",
       ErrorCode::MissingField},
      {with(text, R"("layer_types": ["full_attention", )", R"("layer_types": [)"), "text_config.layer_types", ErrorCode::Inconsistent},
      {with(text, R"("layer_types": ["full_attention", )", R"("layer_types": ["linear_attention", )"), "text_config.layer_types", ErrorCode::BadEnum},
      {with(text, moe, R"("moe_layers_enum": "3,4,x,)"), "text_config.moe_layers_enum", ErrorCode::BadEnum},
      {with(text, moe, R"("moe_layers_enum": "3,4,99,)"), "text_config.moe_layers_enum", ErrorCode::OutOfRange},
      {with(text, moe, R"("moe_layers_enum": 3, "x": ")"), "text_config.moe_layers_enum", ErrorCode::WrongType},
      {with(text, R"("num_attention_heads": 96, "num_attention_groups": 8, )", R"("num_attention_heads": 96, )"),
       "text_config.attention_other_setting.num_attention_groups", ErrorCode::MissingField},
      {with(text, R"("attention_type": "sliding_attention")", R"("attention_type": "full_attention")"), "text_config.attention_other_setting.attention_type",
       ErrorCode::Unrepresentable},
      {with(text, R"("att_impl_type": "GQA")", R"("att_impl_type": "MFA")"), "text_config.att_impl_type", ErrorCode::BadEnum},
      {with(text, R"("sliding_window": 512,)", ""), "text_config.sliding_window", ErrorCode::MissingField},
      {with(text, R"("share_expert_dim": 1280)", R"("share_expert_dim": 1000)"), "text_config.share_expert_dim", ErrorCode::Unrepresentable},
      {with(text, R"("moe_top_k": 8)", R"("moe_top_k": "8")"), "text_config.moe_top_k", ErrorCode::WrongType},
      {with(text, R"("num_nextn_predict_layers": 3)", R"("num_nextn_predict_layers": -1)"), "text_config.num_nextn_predict_layers", ErrorCode::OutOfRange},
  };
  for (const Case& c : cases) {
    INFO(c.field);
    const Error e = refusal(c.text);
    CHECK(e.field == c.field);
    CHECK(e.code == c.code);
  }
  // A text cut short.
  CHECK(refusal(text.substr(0, text.size() / 2)).code == ErrorCode::BadSyntax);
  CHECK(refusal(step3p5_text().substr(0, 700)).code == ErrorCode::BadSyntax);
}
