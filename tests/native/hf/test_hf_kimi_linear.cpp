// Kimi-Linear read from its published config.json (moonshotai/Kimi-Linear-48B-A3B-Instruct): the KDA layers'
// recurrent state beside the MLA layers' latent, the length it states as model_max_length, the counts against
// the model card's and the checkpoint's own, the weight bytes at BF16, and its broken files refused by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "base/text.h"
#include "model/params.h"
#include "roofline/figures.h"

#include "hf_test_support.h"

using namespace tierscope::model;
using namespace tierscope::model::hf_test;
using F = FigureId;

namespace {

const char* const kFile = "moonshotai--Kimi-Linear-48B-A3B-Instruct.json";

// The file's dims, as its text states them, for the arithmetic below.
constexpr double kHidden = 2304, kVocab = 163840, kHeads = 32, kKda = 128, kConv = 4;
constexpr double kLatent = 512, kRope = 64, kNope = 128, kV = 128, kDense = 9216, kExpert = 1024, kExperts = 256;
constexpr int kKdaLayers = 20, kMlaLayers = 7, kMoeLayers = 26;

// What the count adds by taking KDA's low-rank gate and decay (rank 128 in the published weights) as one
// full-width gate — the note the reader gives says the same.
constexpr double kFullGateOverCount = kKdaLayers * (kHidden * kHeads * kKda - 2.0 * kKda * (kHidden + kHeads * kKda));

// The text with the first line holding `field` removed.
std::string without(std::string text, const std::string& field) {
  const std::size_t at = text.find("\"" + field + "\"");
  REQUIRE(at != std::string::npos);
  const std::size_t start = text.rfind('\n', at), end = text.find('\n', at);
  return text.erase(start, end - start);
}

}  // namespace

TEST_CASE("hf Kimi-Linear: the published file's layers — KDA in 20, MLA in every fourth and the last, MoE after the first") {
  const Scenario s = load(kFile);
  CHECK(validate(s).empty());
  REQUIRE(s.model.layer_count == 27);
  // linear_attn_config.full_attn_layers [4, 8, …, 24, 27] (1-based): layers 3, 7, …, 23 and 26 from 0.
  std::string full;
  int linear = 0;
  for (int i = 0; i < s.model.layer_count; ++i) {
    const LayerMode mode = s.model.layers[static_cast<std::size_t>(i)].mode;
    linear += mode == LayerMode::Linear ? 1 : 0;
    if (mode != LayerMode::Linear) full += std::to_string(i) + " ";
  }
  CHECK(linear == kKdaLayers);
  CHECK(full == "3 7 11 15 19 23 26 ");
  // The file states its length only as model_max_length (1,048,576): read as the model's trained positions.
  CHECK(s.model.max_pos == 1048576);
  REQUIRE(s.origin);
  bool sourced = false;
  for (const InputOrigin& o : s.origin->inputs) sourced = sourced || (o.key == "max_pos" && o.source.find("model_max_length") != std::string::npos);
  CHECK(sourced);
}

TEST_CASE("hf Kimi-Linear: parameters against the model card and the checkpoint — weights at BF16") {
  std::vector<std::string> notes;
  const Scenario s = load(kFile, "deepseek-v3-8xh200", &notes);
  const Values v = values_of(s);
  // Independent arithmetic: embedding and head; per KDA layer q, k, v, a full-width gate, one scalar per head,
  // the short convolutions over q, k and v, and the output; per MLA layer a full-rank query of 192 dims a head,
  // the latent and RoPE key down-projection, its up-projection to keys and values, and the output; the first
  // layer's dense FFN; 26 MoE layers of 256 routed experts and 1 shared, with the router.
  const double width = kHeads * kKda;
  const double kda = kHidden * (2 * width + 2 * width + kHeads) + 3 * width * kConv + width * kHidden;
  const double mla = kHidden * kHeads * (kNope + kRope) + kHidden * (kLatent + kRope) + kLatent * kHeads * (kNope + kV) + kHeads * kV * kHidden;
  const double expert = 3 * kExpert * kHidden;
  const double total = 2 * kVocab * kHidden + kKdaLayers * kda + kMlaLayers * mla + 3 * kDense * kHidden +
                       kMoeLayers * ((kExperts + 1) * expert + kExperts * kHidden);
  CHECK(v[F::ParamsTotal] == Approx(total).epsilon(1e-12));
  // 48B total, 3B activated (https://huggingface.co/moonshotai/Kimi-Linear-48B-A3B-Instruct, the model card's table).
  check_published(v[F::ParamsTotal], 48e9, 0, "Kimi-Linear total");
  // "3B" is one digit: the active count without the input embedding (a lookup, not a GEMM) rounds to it.
  const double active = v[F::ParamsActiveDecode] - kVocab * kHidden;
  INFO("active without the input embedding " << active);
  CHECK(std::round(active / 1e9) == 3);
  CHECK(v[F::ParamsActiveDecode] == Approx(2 * kVocab * kHidden + kKdaLayers * kda + kMlaLayers * mla + 3 * kDense * kHidden +
                                            kMoeLayers * ((8 + 1) * expert + kExperts * kHidden))
                                         .epsilon(1e-12));
  // The checkpoint holds 49,122,681,728 values (its safetensors, as a public model-inspection report of
  // moonshotai/Kimi-Linear-48B-A3B-Instruct sums them): the count less the note's full-width-gate surplus is that
  // number within the norms and per-head scalars the count leaves out (222,080 of them).
  CHECK(has_note(notes, "low-rank (rank head_dim 128)"));
  CHECK(has_note(notes, num(kFullGateOverCount) + " parameters more than the checkpoint holds"));
  CHECK(v[F::ParamsTotal] - kFullGateOverCount == Approx(49122681728.0).epsilon(1e-5));
  // Weights at the stored format: every tensor BF16 (dtype bfloat16, no quantization_config).
  CHECK(s.model.experts_fmt == NumFormat::BF16);
  CHECK(s.model.dense_fmt == NumFormat::BF16);
  CHECK(v[F::WeightsDerived] == Approx(2.0 * total).epsilon(1e-12));
}

TEST_CASE("hf Kimi-Linear: every state class per token and per session — the MLA latent, KDA's fixed state, no window") {
  Scenario s = load(kFile);
  // 7 MLA layers of a 512-value latent and a 64-value RoPE key, BF16 (the file names no cache format).
  const double per_token = kMlaLayers * (kLatent + kRope) * 2;
  // 20 KDA layers: 32 heads × 128 × 128 FP32 (SGLang's default state format; the file names none) and the
  // last 3 tokens of the q, k and v convolutions (3 × 32 × 128 channels) in BF16.
  const double recurrent = kKdaLayers * (kHeads * kKda * kKda * 4 + (kConv - 1) * 3 * kHeads * kKda * 2);
  for (const int ctx : {8192, 131072}) {
    s.work.ctx = ctx;
    const Values v = values_of(s);
    INFO("ctx " << ctx);
    CHECK(v[F::KvGlobalPerToken] == per_token);
    CHECK(v[F::KvRecurrentPerSession] == recurrent);
    CHECK(v[F::KvSwaPerSession] == 0);
    CHECK(v[F::KvChunkPerSession] == 0);
    CHECK(v[F::KvIndexerPerToken] == 0);
    CHECK(v[F::KvPerSession] == ctx * per_token + recurrent);
  }
  CHECK(per_token == 8064);
  CHECK(recurrent == 43417600);
}

TEST_CASE("hf Kimi-Linear: every figure's formula adds up to its value, and broken files are refused by field") {
  const Scenario s = load(kFile);
  const Figures figs = describe(s);
  const std::vector<std::string> wrong = formulas_wrong(figs);
  INFO(wrong.size() << " wrong; first: " << (wrong.empty() ? "" : wrong[0]));
  CHECK(figs.list.size() > 100);
  CHECK(wrong.empty());

  const std::string text = fixture(kFile);
  // No length at all: the field the family reads first is named.
  CHECK(refusal(without(text, "model_max_length")).field == "max_position_embeddings");
  // The KDA heads missing, or of the wrong type.
  CHECK(refusal(without(text, "num_heads")).field == "linear_attn_config.num_heads");
  std::string wrong_type = text;
  wrong_type.replace(wrong_type.find("\"short_conv_kernel_size\": 4"), 27, "\"short_conv_kernel_size\": \"4\"");
  const Error conv = refusal(wrong_type);
  CHECK(conv.field == "linear_attn_config.short_conv_kernel_size");
  CHECK(conv.code == ErrorCode::WrongType);
  // A layer in neither list.
  std::string unlisted = text;
  unlisted.replace(unlisted.find("\"full_attn_layers\": [\n      4,"), 30, "\"full_attn_layers\": [\n      5,");
  CHECK(refusal(unlisted).field == "linear_attn_config");
  // A file cut short.
  CHECK(refusal(text.substr(0, text.size() / 2)).code == ErrorCode::BadSyntax);
}
