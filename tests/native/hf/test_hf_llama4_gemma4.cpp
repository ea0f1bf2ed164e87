// Llama 4 Scout and Gemma 4 26B-A4B read from their published config.json (tests/data/hf_configs/README.md says
// where each copy was taken): the layers each file gives (chunked and global, sliding and global, the MoE block),
// the parameter counts against the model cards and against independent arithmetic, every state class per token
// and per session at 8K and 128K from the dims alone, and broken or truncated files refused with the field named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "model/params.h"
#include "roofline/figures.h"

#include "hf_test_support.h"

using namespace tierscope::model;
using namespace tierscope::model::hf_test;
using F = FigureId;

namespace {

const char* const kScout = "meta-llama--Llama-4-Scout-17B-16E-Instruct.json";
const char* const kGemma = "google--gemma-4-26B-A4B.json";

// The text with `from` replaced by `to` (a broken file of the family); the test fails if `from` is not there.
std::string edited(const std::string& text, const std::string& from, const std::string& to) {
  std::string t = text;
  const std::size_t at = t.find(from);
  REQUIRE(at != std::string::npos);
  return t.replace(at, from.size(), to);
}

int count_mode(const Scenario& s, LayerMode mode) {
  int n = 0;
  for (int i = 0; i < s.model.layer_count; ++i) n += s.model.layers[static_cast<std::size_t>(i)].mode == mode ? 1 : 0;
  return n;
}

// Llama 4 Scout's text_config: 48 layers of 40 query and 8 KV heads of 128 dims, 16 routed experts and one
// shared of 8,192, top 1, every layer MoE; untied embedding and head over 202,048 tokens.
namespace scout {
constexpr double kHidden = 5120, kVocab = 202048, kQ = 40, kKv = 8, kHead = 128, kExpertInter = 8192, kExperts = 16, kChunk = 8192;
constexpr int kLayers = 48, kGlobal = 12, kChunked = 36;
}  // namespace scout

// Gemma 4 26B-A4B's text_config: 30 layers of 16 query heads; 25 sliding layers of 8 KV heads × 256 in a
// 1,024-token window, 5 global of 2 KV heads × 512 (attention_k_eq_v); 128 experts of 704, top 8, beside a
// dense MLP of 2,112 in every layer; one embedding of 262,144 tokens tied to the head.
namespace gemma {
constexpr double kHidden = 2816, kVocab = 262144, kQ = 16, kSlideKv = 8, kSlideHead = 256, kGlobalKv = 2, kGlobalHead = 512;
constexpr double kExperts = 128, kTopK = 8, kExpertInter = 704, kDenseInter = 2112, kWindow = 1024;
constexpr int kLayers = 30, kGlobal = 5, kSliding = 25;
}  // namespace gemma

}  // namespace

TEST_CASE("hf Llama 4 Scout: the published file's layers — every fourth global (NoPE), the others in chunks of 8,192, every layer MoE") {
  using namespace scout;
  std::vector<std::string> notes;
  const Scenario s = load(kScout, "llama31-70b-8xh100", &notes);
  CHECK(validate(s).empty());
  REQUIRE(s.model.layer_count == kLayers);
  // no_rope_layers is [] in the file: transformers' Llama4TextConfig then makes every fourth layer NoPE and global.
  for (int i = 0; i < kLayers; ++i) {
    INFO("layer " << i);
    CHECK(s.model.layers[static_cast<std::size_t>(i)].mode == ((i + 1) % 4 == 0 ? LayerMode::Dense : LayerMode::Chunked));
  }
  CHECK(count_mode(s, LayerMode::Chunked) == kChunked);
  CHECK(s.model.dense_layers == 0);
  CHECK(s.model.experts == kExperts);
  CHECK(s.model.experts_per_token == 1);
  CHECK(s.model.shared_experts == 1);
  CHECK(s.model.max_pos == 10485760);  // the 10M context the card states
  CHECK(has_note(notes, "vision_config"));
}

TEST_CASE("hf Llama 4 Scout: parameters against the model card and independent arithmetic") {
  using namespace scout;
  const Values v = values_of(load(kScout, "llama31-70b-8xh100"));
  const double attn = kHidden * kQ * kHead * 2 + kHidden * kKv * kHead * 2;
  const double expert = 3 * kExpertInter * kHidden;
  const double router = kExperts * kHidden;
  const double embed_and_head = 2 * kVocab * kHidden;  // tie_word_embeddings absent: Llama4Config's false
  CHECK(v[F::ParamsTotal] == embed_and_head + kLayers * (attn + (kExperts + 1) * expert + router));
  CHECK(v[F::ParamsActiveDecode] == embed_and_head + kLayers * (attn + 2 * expert + router));
  // 109B total (with the vision encoder, which is not counted), 17B active
  // (https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct, the model card's table).
  check_published(v[F::ParamsTotal], 109e9, 0, "Llama 4 Scout total");
  check_published(v[F::ParamsActiveDecode], 17e9, 0, "Llama 4 Scout active");
}

TEST_CASE("hf Llama 4 Scout: KV per token and per session at 8K and 128K — 12 global layers grow, 36 chunks stop at 8,192 tokens") {
  using namespace scout;
  Scenario s = load(kScout, "llama31-70b-8xh100");
  const double row = kKv * kHead * 2 * 2;  // K and V, BF16 (the file names no cache format)
  for (const double ctx : {8192.0, 131072.0}) {
    INFO("ctx " << ctx);
    s.work.ctx = static_cast<std::int32_t>(ctx);
    const Values v = values_of(s);
    CHECK(v[F::KvGlobalPerToken] == kGlobal * row);
    CHECK(v[F::KvChunkPerSession] == kChunked * std::min(ctx, kChunk) * row);
    CHECK(v[F::KvSwaPerSession] == 0);
    CHECK(v[F::KvRecurrentPerSession] == 0);
    CHECK(v[F::KvPerSession] == ctx * kGlobal * row + kChunked * std::min(ctx, kChunk) * row);
  }
  CHECK(kGlobal * row == 49152);
  CHECK(formulas_wrong(describe(s)).empty());
}

TEST_CASE("hf Gemma 4 26B-A4B: the published file's layers — five sliding to one global, the expert block beside the dense MLP") {
  using namespace gemma;
  std::vector<std::string> notes;
  const Scenario s = load(kGemma, "llama31-70b-8xh100", &notes);
  CHECK(validate(s).empty());
  REQUIRE(s.model.layer_count == kLayers);
  for (int i = 0; i < kLayers; ++i) {
    INFO("layer " << i);
    CHECK(s.model.layers[static_cast<std::size_t>(i)].mode == ((i + 1) % 6 == 0 ? LayerMode::Dense : LayerMode::SwaOnly));
  }
  CHECK(count_mode(s, LayerMode::SwaOnly) == kSliding);
  // Global layers at their own heads (K = V: num_global_key_value_heads); sliding ones at head_dim / num_key_value_heads.
  CHECK(s.model.kv_heads == kGlobalKv);
  CHECK(s.model.head_dim == kGlobalHead);
  CHECK(s.model.swa_kv_heads == kSlideKv);
  CHECK(s.model.swa_head_dim == kSlideHead);
  CHECK(s.model.experts == kExperts);
  CHECK(s.model.experts_per_token == kTopK);
  CHECK(s.model.expert_inter == kExpertInter);
  CHECK(s.model.shared_experts == 3);  // the dense MLP of 2,112 = 3 expert widths, on every token
  CHECK(s.model.dense_layers == 0);
  CHECK(has_note(notes, "counted as 3 shared experts"));
  CHECK(has_note(notes, "5 layers × 2816 × 2 × 512 = 14417920 parameters more"));
  CHECK_FALSE(has_note(notes, "audio encoder"));  // audio_config is null: there is none
}

TEST_CASE("hf Gemma 4 26B-A4B: parameters against the model card and independent arithmetic") {
  using namespace gemma;
  const Values v = values_of(load(kGemma, "llama31-70b-8xh100"));
  const double slide_attn = 2 * kHidden * kQ * kSlideHead + 2 * kHidden * kSlideKv * kSlideHead;
  const double global_attn = 2 * kHidden * kQ * kGlobalHead + 2 * kHidden * kGlobalKv * kGlobalHead;  // V counted, as the note says
  const double expert = 3 * kExpertInter * kHidden, dense = 3 * kDenseInter * kHidden, router = kExperts * kHidden;
  const double attn = kSliding * slide_attn + kGlobal * global_attn;
  const double embed = kVocab * kHidden;  // tied to the head: one matrix
  CHECK(v[F::ParamsTotal] == embed + attn + kLayers * (kExperts * expert + dense + router));
  CHECK(v[F::ParamsActiveDecode] == embed + attn + kLayers * (kTopK * expert + dense + router));
  // 25.2B total, 3.8B active (https://huggingface.co/google/gemma-4-26B-A4B, the model card's table; the
  // vision encoder is listed apart there).
  check_published(v[F::ParamsTotal], 25.2e9, 0, "Gemma 4 26B-A4B total");
  check_published(v[F::ParamsActiveDecode], 3.8e9, 0, "Gemma 4 26B-A4B active");
}

TEST_CASE("hf Gemma 4 26B-A4B: KV per token and per session at 8K and 128K — 5 global layers grow, 25 windows of 1,024") {
  using namespace gemma;
  Scenario s = load(kGemma, "llama31-70b-8xh100");
  const double global_row = kGlobalKv * kGlobalHead * 2 * 2, slide_row = kSlideKv * kSlideHead * 2 * 2;  // K and V, BF16
  for (const double ctx : {8192.0, 131072.0}) {
    INFO("ctx " << ctx);
    s.work.ctx = static_cast<std::int32_t>(ctx);
    const Values v = values_of(s);
    CHECK(v[F::KvGlobalPerToken] == kGlobal * global_row);
    CHECK(v[F::KvSwaEntry] == slide_row);
    CHECK(v[F::KvSwaPerSession] == kSliding * kWindow * slide_row);
    CHECK(v[F::KvPerSession] == ctx * kGlobal * global_row + kSliding * kWindow * slide_row);
  }
  CHECK(kGlobal * global_row == 20480);
  CHECK(formulas_wrong(describe(s)).empty());
  // Without K = V the global layers take num_key_value_heads, as transformers' Gemma4TextAttention does.
  const Scenario apart = load_text(edited(fixture(kGemma), "\"attention_k_eq_v\": true", "\"attention_k_eq_v\": false"), "llama31-70b-8xh100");
  CHECK(apart.model.kv_heads == kSlideKv);
  CHECK(values_of(apart)[F::KvGlobalPerToken] == kGlobal * kSlideKv * kGlobalHead * 2 * 2);
}

TEST_CASE("hf Llama 4 and Gemma 4: broken or truncated published files are refused with the field named") {
  const std::string scout = fixture(kScout), gemma = fixture(kGemma);
  CHECK(refusal(edited(scout, "\"attention_chunk_size\": 8192,\n", "")).field == "text_config.attention_chunk_size");
  CHECK(refusal(edited(scout, "\"num_local_experts\": 16,\n", "")).field == "text_config.num_local_experts");
  CHECK(refusal(edited(scout, "\"num_experts_per_tok\": 1", "\"num_experts_per_tok\": 17")).field == "text_config.num_experts_per_tok");
  CHECK(refusal(edited(scout, "\"no_rope_layers\": []", "\"no_rope_layers\": [1, 0]")).field == "text_config.no_rope_layers");
  CHECK(refusal(edited(scout, "\"head_dim\": 128", "\"head_dim\": \"128\"")).code == ErrorCode::WrongType);
  CHECK(refusal(scout.substr(0, scout.size() / 2)).code == ErrorCode::BadSyntax);

  CHECK(refusal(edited(gemma, "\"top_k_experts\": 8,\n", "")).field == "text_config.top_k_experts");
  CHECK(refusal(edited(gemma, "\"num_experts\": 128,\n", "")).field == "text_config.num_experts");
  CHECK(refusal(edited(gemma, "\"sliding_window\": 1024,\n", "")).field == "text_config.sliding_window");
  CHECK(refusal(edited(gemma, "\"intermediate_size\": 2112", "\"intermediate_size\": 2000")).field == "text_config.intermediate_size");
  CHECK(refusal(edited(gemma, "\"full_attention\"\n", "\"chunked_attention\"\n")).field == "text_config.layer_types");
  CHECK(refusal(gemma.substr(0, gemma.size() / 3)).code == ErrorCode::BadSyntax);
}
