// MiniMax-M3 read from its published config.json (MiniMaxAI/MiniMax-M3, a minimax_m3_vl file around a minimax_m3
// text_config): the sparse layers' index keys beside the GQA cache, the positions the block-sparse attention
// reads, the counts against the model card's and the checkpoint's own, the weights at BF16, broken files
// refused by field.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "model/params.h"
#include "roofline/figures.h"

#include "hf_test_support.h"

using namespace tierscope::model;
using namespace tierscope::model::hf_test;
using F = FigureId;

namespace {

const char* const kFile = "MiniMaxAI--MiniMax-M3.json";

// The file's dims, as its text_config states them.
constexpr double kHidden = 6144, kVocab = 200064, kQ = 64, kKv = 4, kHead = 128, kExpertInter = 3072, kDenseInter = 12288;
constexpr double kExperts = 128, kTopK = 4, kIdxHeads = 4, kIdxDim = 128, kBlock = 128, kTopBlocks = 16, kLocalBlocks = 1;
constexpr int kLayers = 60, kDenseLayers = 3, kSparseLayers = 57;

}  // namespace

TEST_CASE("hf MiniMax-M3: the published file's layers — full attention in the first 3, MiniMax Sparse Attention after, MoE after the dense 3") {
  std::vector<std::string> notes;
  const Scenario s = load(kFile, "deepseek-v3-8xh200", &notes);
  CHECK(validate(s).empty());
  REQUIRE(s.model.layer_count == kLayers);
  for (int i = 0; i < kLayers; ++i) {
    INFO("layer " << i);
    CHECK(s.model.layers[static_cast<std::size_t>(i)].mode == (i < kDenseLayers ? LayerMode::Dense : LayerMode::Full));
  }
  CHECK(s.model.dense_layers == kDenseLayers);
  CHECK(s.model.dense_inter == kDenseInter);
  CHECK(s.model.experts == kExperts);
  CHECK(s.model.experts_per_token == kTopK);
  CHECK(s.model.shared_experts == 1);
  CHECK(s.model.draft_layers == 1);
  CHECK(s.model.max_pos == 1048576);
  // What is not modelled is named: the block rule of the sparse attention, the MTP modules a draft does not
  // run, the per-layer index-value flags, the indexer's own projections, the vision encoder.
  CHECK(has_note(notes, "whole blocks of 128 keys"));
  CHECK(has_note(notes, "num_mtp_modules 7"));
  CHECK(has_note(notes, "sparse_disable_index_value"));
  CHECK(has_note(notes, "indexer projections"));
  CHECK(has_note(notes, "vision_config"));
}

TEST_CASE("hf MiniMax-M3: parameters against the model card and the checkpoint — weights at BF16") {
  const Scenario s = load(kFile);
  const Values v = values_of(s);
  // Independent arithmetic: embedding and head; per layer q and o of 64 heads, k and v of 4, 128 dims each;
  // 3 dense FFNs of 12,288; 57 MoE layers of 128 routed experts and 1 shared of 3,072, with the router.
  const double attn = kHidden * kQ * kHead * 2 + kHidden * kKv * kHead * 2;
  const double expert = 3 * kExpertInter * kHidden;
  const double total = 2 * kVocab * kHidden + kLayers * attn + kDenseLayers * 3 * kDenseInter * kHidden +
                       kSparseLayers * ((kExperts + 1) * expert + kExperts * kHidden);
  CHECK(v[F::ParamsTotal] == Approx(total).epsilon(1e-12));
  // ~428B total, ~23B activated (https://huggingface.co/MiniMaxAI/MiniMax-M3, the model card's Model Details).
  check_published(v[F::ParamsTotal], 428e9, 0, "MiniMax-M3 total");
  const double active = 2 * kVocab * kHidden + kLayers * attn + kDenseLayers * 3 * kDenseInter * kHidden +
                        kSparseLayers * ((kTopK + 1) * expert + kExperts * kHidden);
  CHECK(v[F::ParamsActiveDecode] == Approx(active).epsilon(1e-12));
  // The card's ~23B is the count without the embedding and the LM head (23.28 B); with the head it is 24.51 B.
  check_published(v[F::ParamsActiveDecode] - 2 * kVocab * kHidden, 23e9, 0, "MiniMax-M3 active without embedding and head");
  // The checkpoint holds 427,040,140,160 values (its safetensors, as a public model-inspection report of
  // MiniMaxAI/MiniMax-M3 sums them). Less the vision tower (631,185,920) and the projectors (234,381,312) the
  // report lists, it is the count plus the indexer's projections the note names (57 × (4 × 128 + 128) × 6,144)
  // and the norms (886,080), to the value.
  const double indexer = kSparseLayers * (kIdxHeads * kIdxDim + kIdxDim) * kHidden;
  const double norms = kLayers * 2 * kHidden + kLayers * 2 * kHead + kSparseLayers * 2 * kHead + kSparseLayers * kExperts + kHidden;
  CHECK(v[F::ParamsTotal] + indexer + norms == 427040140160.0 - 631185920.0 - 234381312.0);
  // Every weight BF16 (torch_dtype bfloat16, no quantization_config).
  CHECK(s.model.experts_fmt == NumFormat::BF16);
  CHECK(v[F::WeightsDerived] == Approx(2.0 * total).epsilon(1e-12));
}

TEST_CASE("hf MiniMax-M3: every state class per token and per session — GQA rows on 60 layers, index keys on 57, the positions read") {
  Scenario s = load(kFile);
  // 4 KV heads × (128 + 128) BF16 on every layer; one 128-dim index key per token on each sparse layer, BF16
  // (the file names no format for it: assumed at the checkpoint's dtype).
  const double kv_row = kKv * 2 * kHead * 2;
  const double index_key = kIdxDim * 2;
  const double per_token = kLayers * kv_row + kSparseLayers * index_key;
  for (const int ctx : {8192, 131072}) {
    s.work.ctx = ctx;
    const Values v = values_of(s);
    INFO("ctx " << ctx);
    CHECK(v[F::KvMainEntry] == kv_row);
    CHECK(v[F::KvIndexEntry] == index_key);
    CHECK(v[F::KvIndexerPerToken] == kSparseLayers * index_key);
    CHECK(v[F::KvGlobalPerToken] == per_token);
    CHECK(v[F::KvSwaPerSession] == 0);
    CHECK(v[F::KvRecurrentPerSession] == 0);
    CHECK(v[F::KvPerSession] == ctx * per_token);
    // Each sparse layer reads the top 16 blocks and the local one, 128 positions each.
    CHECK(v[F::KvTopkRows] == kSparseLayers * (kTopBlocks + kLocalBlocks) * kBlock);
  }
  CHECK(per_token == 137472);
  CHECK(s.model.idx_fmt == NumFormat::BF16);
  CHECK(s.model.top_k == 2176);
}

TEST_CASE("hf MiniMax-M3: every figure's formula adds up to its value, and broken files are refused by field") {
  const Scenario s = load(kFile);
  const Figures figs = describe(s);
  const std::vector<std::string> wrong = formulas_wrong(figs);
  INFO(wrong.size() << " wrong; first: " << (wrong.empty() ? "" : wrong[0]));
  CHECK(wrong.empty());

  const std::string text = fixture(kFile);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const std::size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK(refusal(replaced("\"sparse_index_dim\": 128,\n", "")).field == "text_config.sparse_attention_config.sparse_index_dim");
  CHECK(refusal(replaced("\"sparse_topk_blocks\": 16", "\"sparse_topk_blocks\": \"16\"")).code == ErrorCode::WrongType);
  CHECK(refusal(replaced("\"sparse_attention_freq\": [\n        0,\n", "\"sparse_attention_freq\": [\n")).field ==
        "text_config.sparse_attention_config.sparse_attention_freq");
  CHECK(refusal(replaced("\"n_shared_experts\": 1", "\"n_shared_experts\": 2")).field == "text_config.n_shared_experts");
  CHECK(refusal(replaced("\"dense_intermediate_size\": 12288,\n", "")).field == "text_config.dense_intermediate_size");
  CHECK(refusal(text.substr(0, text.size() / 3)).code == ErrorCode::BadSyntax);
}
