// The families whose published config.json was not found to keep (MiMo-V2-Flash), and layouts the published
// files do not show (a small dense Gemma 4, its unmodelled fields): read from texts in the field names their
// engines read, each text built in the test and said to be so (Step 3.5 and 3.7's in test_hf_step3p5.cpp). The
// published Llama 4 Scout and Gemma 4 26B-A4B files are read in test_hf_llama4_gemma4.cpp.
// Kimi-Linear's published file is read in test_hf_kimi_linear.cpp; the small text here keeps a second layout.
// The dims follow what the engines' configuration classes and tests state; the counts are held against the
// publisher's own where one is published; every state class against independent arithmetic.
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

// "[a, b, …]" of one value per layer.
template <class Fn>
std::string per_layer(int layers, Fn value) {
  std::string out = "[";
  for (int i = 0; i < layers; ++i) out += (i ? ", " : "") + std::to_string(value(i));
  return out + "]";
}

// MiMo-V2-Flash in the fields SGLang's and vLLM's MiMoV2 model code reads (hybrid_layer_pattern 1 = sliding,
// moe_layer_freq 1 = MoE, the sliding layers' own swa_* heads): 48 layers, the first and every sixth from
// the sixth global (9), the rest a 128-token window; 256 experts, top 8; the first layer dense. Not the
// published file (not found): a text in its field names.
std::string mimo_text() {
  const int L = 48;
  return std::string(R"({"architectures": ["MiMoV2FlashForCausalLM"], "model_type": "mimo_v2_flash", "hidden_size": 4096,)") +
         R"("intermediate_size": 16384, "num_hidden_layers": 48, "num_attention_heads": 64, "num_key_value_heads": 4, "head_dim": 192,)" +
         R"("v_head_dim": 128, "swa_num_attention_heads": 64, "swa_num_key_value_heads": 8, "swa_head_dim": 192, "swa_v_head_dim": 128,)" +
         R"("sliding_window": 128, "hybrid_layer_pattern": )" + per_layer(L, [](int i) { return i != 0 && i % 6 != 5 ? 1 : 0; }) +
         R"(, "moe_layer_freq": )" + per_layer(L, [](int i) { return i == 0 ? 0 : 1; }) +
         R"(, "n_routed_experts": 256, "moe_intermediate_size": 2048, "num_experts_per_tok": 8, "vocab_size": 152576,)" +
         R"("max_position_embeddings": 262144, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";
}

// A small dense Gemma 4 text model in the field names transformers' Gemma4TextConfig and the engines read:
// sliding layers at head_dim / num_key_value_heads, global ones (V from K) at global_head_dim /
// num_global_key_value_heads, a 512-token window, five sliding layers to one global. The dims are made up (the
// published Gemma 4 file kept is the MoE 26B-A4B).
std::string gemma4_text(const std::string& extra) {
  return std::string(R"({"architectures": ["Gemma4ForCausalLM"], "model_type": "gemma4_text", "hidden_size": 1024,)") +
         R"("intermediate_size": 4096, "num_hidden_layers": 12, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,)" +
         R"("num_global_key_value_heads": 2, "global_head_dim": 512, "attention_k_eq_v": true, "sliding_window": 512, "vocab_size": 262144,)" +
         R"("max_position_embeddings": 131072, "tie_word_embeddings": true, "torch_dtype": "bfloat16", "layer_types": )" +
         per_layer(12, [](int i) { return (i + 1) % 6 != 0 ? 1 : 0; }) + extra + "}";
}
std::string gemma_types(std::string text) {
  // per_layer writes numbers: the file names the kinds
  for (std::size_t at = text.find("\"layer_types\": ["); at != std::string::npos && at < text.size();) {
    const std::size_t end = text.find(']', at);
    std::string list = text.substr(at, end - at);
    std::string out;
    for (char c : list) out += c == '1' ? std::string("\"sliding_attention\"") : c == '0' ? std::string("\"full_attention\"") : std::string(1, c);
    text.replace(at, end - at, out);
    break;
  }
  return text;
}

// Kimi-Linear in the fields vLLM's KimiLinearConfig reads (linear_attn_config: kda_layers and full_attn_layers,
// 1-based; num_heads, head_dim, short_conv_kernel_size): MLA every fourth layer, KDA in the others, no RoPE
// dims. The dims are made up (the published Kimi-Linear-48B-A3B file is tested on its own).
std::string kimi_linear_text() {
  const int L = 8;
  std::string kda, full;
  for (int i = 1; i <= L; ++i) (i % 4 == 0 ? full : kda) += (i % 4 == 0 ? (full.empty() ? "" : ", ") : (kda.empty() ? "" : ", ")) + std::to_string(i);
  return std::string(R"({"architectures": ["KimiLinearForCausalLM"], "model_type": "kimi_linear", "hidden_size": 2048,)") +
         R"("intermediate_size": 8192, "num_hidden_layers": 8, "num_attention_heads": 16, "num_key_value_heads": 16,)" +
         R"("q_lora_rank": null, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 0, "v_head_dim": 128,)" +
         R"("mla_use_nope": true, "num_experts": 64, "num_experts_per_token": 4, "num_shared_experts": 1, "moe_intermediate_size": 1024,)" +
         R"("first_k_dense_replace": 1, "moe_layer_freq": 1, "vocab_size": 163840, "max_position_embeddings": 131072,)" +
         R"("tie_word_embeddings": false, "torch_dtype": "bfloat16", "linear_attn_config": {"kda_layers": [)" + kda + R"(], "full_attn_layers": [)" +
         full + R"(], "num_heads": 16, "head_dim": 128, "short_conv_kernel_size": 4}})";
}

}  // namespace

TEST_CASE("hf sketched families: MiMo-V2-Flash's sliding layers keep their own heads and a 128-token window") {
  std::vector<std::string> notes;
  const Scenario s = load_text(mimo_text(), "deepseek-v3-8xh200", &notes);
  int sliding = 0;
  for (int i = 0; i < s.model.layer_count; ++i) sliding += s.model.layers[static_cast<std::size_t>(i)].mode == LayerMode::SwaOnly ? 1 : 0;
  CHECK(sliding == 39);
  const Values v = values_of(s);
  // 309B total, 15B active (https://huggingface.co/XiaomiMiMo/MiMo-V2-Flash model card).
  check_published(v[F::ParamsTotal], 309e9, 0, "MiMo-V2-Flash total");
  check_published(v[F::ParamsActiveDecode], 15e9, 0, "MiMo-V2-Flash active");
  // 9 global layers of 4 KV heads × (192 + 128) BF16; 39 windows of 128 tokens at 8 heads × (192 + 128).
  CHECK(v[F::KvGlobalPerToken] == 9.0 * 4 * 320 * 2);
  CHECK(v[F::KvSwaEntry] == 8.0 * 320 * 2);
  CHECK(v[F::KvSwaPerSession] == 39.0 * 128 * 8 * 320 * 2);
  CHECK(v[F::KvPerSession] == s.work.ctx * 9.0 * 4 * 320 * 2 + 39.0 * 128 * 8 * 320 * 2);
}

TEST_CASE("hf sketched families: Gemma 4's global layers read at their own heads — unmodelled fields are named") {
  std::vector<std::string> notes;
  const Scenario s = load_text(gemma_types(gemma4_text("")), "llama31-8b-1xh100", &notes);
  const Values v = values_of(s);
  // 10 sliding layers of 4 KV heads × 256 × 2 (K and V), a 512-token window each; 2 global ones of 2 × 512 × 2.
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 2 * 1024 * 2);
  CHECK(v[F::KvSwaPerSession] == 10.0 * 512 * 4 * 512 * 2);
  CHECK(v[F::KvPerSession] == s.work.ctx * 2.0 * 2 * 1024 * 2 + 10.0 * 512 * 4 * 512 * 2);
  // Parameters: queries, K, V and output at each kind's own head dims (the global layers' V projection counted, as
  // the attention_k_eq_v note says); a tied head; three-matrix FFNs.
  const double global_attn = 1024.0 * 8 * 512 + 1024.0 * 2 * 1024 + 8.0 * 512 * 1024;
  const double sliding_attn = 1024.0 * 8 * 256 + 1024.0 * 4 * 512 + 8.0 * 256 * 1024;
  CHECK(v[F::ParamsTotal] == Approx(2 * global_attn + 10 * sliding_attn + 12.0 * 3 * 4096 * 1024 + 262144.0 * 1024));
  // Fields that change memory and are not modelled are named, not dropped.
  std::vector<std::string> more;
  load_text(gemma_types(gemma4_text(R"(, "num_kv_shared_layers": 4, "hidden_size_per_layer_input": 256)")),
            "llama31-8b-1xh100", &more);
  CHECK(has_note(more, "attention_k_eq_v: the global layers take V from K's projection"));
  CHECK(has_note(more, "num_kv_shared_layers 4"));
  CHECK(has_note(more, "hidden_size_per_layer_input 256"));
  for (const std::string& n : more) {
    const bool listed_as_ignored = n.starts_with("ignored") && n.find("num_kv_shared_layers") != std::string::npos;
    CHECK_FALSE(listed_as_ignored);
  }
  // The expert block needs its experts named.
  HfModel m;
  Errors errors;
  CHECK_FALSE(read_hf_config(gemma_types(gemma4_text(R"(, "enable_moe_block": true)")), "", m, errors));
  REQUIRE_FALSE(errors.empty());
  CHECK(errors[0].field == "num_experts");
  CHECK(errors[0].code == ErrorCode::MissingField);
}

TEST_CASE("hf sketched families: Kimi-Linear's KDA layers keep a fixed state beside the MLA latent") {
  const Scenario s = load_text(kimi_linear_text(), "deepseek-v3-8xh200");
  int linear = 0;
  for (int i = 0; i < s.model.layer_count; ++i) linear += s.model.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear ? 1 : 0;
  CHECK(linear == 6);
  const Values v = values_of(s);
  // 6 KDA layers: 16 heads × 128 × 128 FP32 (no dtype named: SGLang's float32) and a 3-token BF16 convolution
  // over q, k and v (2 × 16 × 128 + 16 × 128 channels); 2 MLA layers of a 512-value BF16 latent (no RoPE dims).
  const double state = 6.0 * (16.0 * 128 * 128 * 4 + 3.0 * (2 * 16 * 128 + 16 * 128) * 2);
  CHECK(v[F::KvRecurrentPerSession] == state);
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 512 * 2);
  CHECK(v[F::KvPerSession] == s.work.ctx * 2.0 * 512 * 2 + state);
  Scenario longer = s;
  longer.work.ctx = 4 * s.work.ctx;
  CHECK(values_of(longer)[F::DecodeTState] == v[F::DecodeTState]);
}

TEST_CASE("hf sketched families: every figure's formula adds up to its value for per-layer windows, own heads, chunks and KDA") {
  // Llama 4 Scout's published file: chunked layers.
  const std::string scout = fixture("meta-llama--Llama-4-Scout-17B-16E-Instruct.json");
  const std::vector<Scenario> models = {load_text(mimo_text(), "deepseek-v3-8xh200"), load_text(gemma_types(gemma4_text("")), "llama31-8b-1xh100"),
                                        load_text(kimi_linear_text(), "deepseek-v3-8xh200"), load_text(scout, "llama31-70b-8xh100")};
  std::vector<std::string> wrong;
  int checked = 0;
  for (const Scenario& base : models) {
    for (const char* edit : {"", "ctx=2048", "batch=32", "engine=sglang", "tp=8&dp=1"}) {
      Scenario s = base;
      std::string_view item = edit;
      if (!item.empty()) {
        const std::size_t amp = item.find('&');
        Error err;
        bool ok = true;
        for (std::string_view part : {item.substr(0, amp), amp == std::string_view::npos ? std::string_view() : item.substr(amp + 1)}) {
          if (part.empty()) continue;
          const std::size_t eq = part.find('=');
          ok = ok && set_param_text(s, *find_param(part.substr(0, eq)), part.substr(eq + 1), err);
        }
        if (!ok) continue;
      }
      if (!validate(s).empty()) continue;
      const Figures figs = describe(s);
      for (const Figure& f : figs.list) {
        ++checked;
        const std::string why = formula_mismatch(f);
        if (!why.empty()) wrong.push_back(std::string(f.id) + " (" + edit + "): " + why);
      }
    }
  }
  INFO(checked << " formulas evaluated");
  std::string first;
  for (std::size_t i = 0; i < std::min<std::size_t>(wrong.size(), 8); ++i) first += wrong[i] + "\n";
  INFO(wrong.size() << " wrong:\n" << first);
  CHECK(checked > 1000);
  CHECK(wrong.empty());
}
