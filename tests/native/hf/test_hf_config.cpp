// Hugging Face config.json files read into scenarios: the corpus of real files against the counts their
// model cards and papers publish, provenance per input, layout re-spread, and every refusal by its code.
//
// Sections: [SECTION] the corpus against published counts · [SECTION] provenance, layout, share links ·
// [SECTION] refusals · the import's own moves, its name, and a model too large for the instance.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "hf/hf_config.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"
#include "roofline/fixes.h"

using namespace tierscope::model;
using F = FigureId;

namespace {

std::string fixture(const std::string& file) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Scenario preset(const char* name) {
  Scenario s;
  REQUIRE(make_preset(name, s));
  return s;
}

// Loads a corpus file onto a preset's hardware; the test fails with the reader's messages if it cannot.
Scenario load(const std::string& file, const char* base = "llama31-8b-1xh100", std::vector<std::string>* notes_out = nullptr) {
  Scenario s = preset(base);
  Errors errors;
  std::vector<std::string> notes;
  const bool ok = apply_hf_config(s, fixture(file), file.substr(0, file.size() - 5), errors, notes);
  std::string why;
  for (const Error& e : errors) why += e.message() + "\n";
  INFO(file << ":\n" << why);
  REQUIRE(ok);
  if (notes_out) *notes_out = notes;
  return s;
}

Values values_of(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c.values;
}

// The first error's code, or a sentinel when the text was accepted.
ErrorCode refused(std::string_view json, Errors* out = nullptr) {
  HfModel m;
  Errors errors;
  if (read_hf_config(json, "", m, errors)) return static_cast<ErrorCode>(0);
  REQUIRE_FALSE(errors.empty());
  if (out) *out = errors;
  return errors[0].code;
}

bool has_note(const std::vector<std::string>& notes, const std::string& part) {
  for (const std::string& n : notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// A published count checked within 1 %. Where the source gives fewer than three digits ("3.3B"), the
// model's value must also lie within one unit of the last stated digit, which that rounding allows.
void check_count(double model, double published, double last_digit, const char* what) {
  INFO(what << ": model " << model << ", published " << published);
  const double err = std::fabs(model - published);
  CHECK((err <= 0.01 * published || err < last_digit));
}

const char* const kCorpus[] = {
    "Llama-3.1-8B-Instruct.json", "Llama-3.1-70B-Instruct.json", "Mistral-7B-v0.1.json",   "Mixtral-8x7B-v0.1.json",
    "Qwen2-7B-Instruct.json",     "Qwen1.5-MoE-A2.7B-Chat.json", "Qwen3-8B.json",          "Qwen3-30B-A3B.json",
    "DeepSeek-V2-Lite-Chat.json", "DeepSeek-V3.json",            "gpt-oss-20b.json",       "gemma-2-9b-it.json",
    "gemma-3-27b-it.json",        "gemma-3-1b-it.json",          "Phi-3-mini-4k-instruct.json"};

}  // namespace

// [SECTION] the corpus against published counts -------------------------------------------------------------

TEST_CASE("hf config: every corpus file loads, names a source for every model key, and validates") {
  for (const char* file : kCorpus) {
    INFO(file);
    const Scenario s = load(file);
    CHECK(validate(s).empty());
    CHECK(s.preset.rfind("config:", 0) == 0);
    REQUIRE(s.origin);
    for (const ParamDef& p : params()) {
      if (p.group != ParamGroup::Model) continue;
      INFO(p.key);
      int entries = 0;  // the file's own source, never the base preset's
      for (const InputOrigin& o : s.origin->inputs) entries += o.key == p.key ? 1 : 0;
      CHECK(entries == 1);
      const InputProvenance ip = input_provenance(s, p.key);
      CHECK(ip.provenance != Provenance::Override);
      CHECK_FALSE(ip.source.empty());
      CHECK(ip.source.find("the model's default") == std::string::npos);
    }
  }
}

TEST_CASE("hf config: Llama 3.1 (rope_scaling llama3), Mistral's window and Mixtral's experts match their cards") {
  // Llama 3 paper (https://arxiv.org/abs/2407.21783, Table 3): 8B = 32 layers, 8 KV heads of 128 dims;
  // 70B = 80 layers, 8 KV heads. Parameter counts as the model pages state them from the weights:
  // 8.03B (https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct), 70.6B (…/Llama-3.1-70B-Instruct).
  std::vector<std::string> notes;
  const Scenario l8 = load("Llama-3.1-8B-Instruct.json", "llama31-8b-1xh100", &notes);
  Values v = values_of(l8);
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 32 * 8 * 128 * 2);
  check_count(v[F::ParamsTotal], 8.03e9, 0, "Llama-3.1-8B total");
  CHECK(l8.model.max_pos == 131072);
  CHECK(has_note(notes, "rope_scaling"));
  const Values v70 = values_of(load("Llama-3.1-70B-Instruct.json", "llama31-70b-8xh100"));
  CHECK(v70[F::KvGlobalPerToken] == 327680);  // 2 × 80 × 8 × 128 × 2 B (FACTS-parallel §1.6)
  check_count(v70[F::ParamsTotal], 70.6e9, 0, "Llama-3.1-70B total");

  // Mistral 7B paper (https://arxiv.org/abs/2310.06825, Table 1): 32 layers, 8 KV heads × 128, window
  // 4096 with a rolling buffer cache; 7.3B parameters (https://mistral.ai/news/announcing-mistral-7b).
  const Scenario m7 = load("Mistral-7B-v0.1.json");
  v = values_of(m7);
  CHECK(layers_to_text(m7.model) == std::string(32, 'S'));
  CHECK(m7.model.n_win == 4096);
  CHECK(v[F::KvGlobalPerToken] == 0);
  CHECK(v[F::KvSwaPerSession] == 32.0 * 4096 * (2 * 8 * 128 * 2));
  check_count(v[F::ParamsTotal], 7.3e9, 0.1e9, "Mistral-7B total");

  // Mixtral of experts (https://mistral.ai/news/mixtral-of-experts): 46.7B total, 12.9B used per token;
  // the paper (https://arxiv.org/abs/2401.04088, Table 1) gives Mistral 7B's attention, 8 experts, top-2.
  const Scenario mx = load("Mixtral-8x7B-v0.1.json");
  v = values_of(mx);
  CHECK(mx.model.experts == 8);
  CHECK(mx.model.experts_per_token == 2);
  CHECK(mx.model.dense_layers == 0);
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 32 * 8 * 128 * 2);
  check_count(v[F::ParamsTotal], 46.7e9, 0, "Mixtral total");
  check_count(v[F::ParamsActiveDecode], 12.9e9, 0, "Mixtral active");
}

TEST_CASE("hf config: Qwen2, Qwen1.5-MoE (shared expert by width) and Qwen3 (dense and MoE) match their cards") {
  // Qwen2 technical report (https://arxiv.org/abs/2407.10671, Table 1): 7B = 28 layers, 4 KV heads × 128.
  // 7.62B parameters as the model page states them (https://huggingface.co/Qwen/Qwen2-7B-Instruct).
  Values v = values_of(load("Qwen2-7B-Instruct.json"));
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 28 * 4 * 128 * 2);
  check_count(v[F::ParamsTotal], 7.62e9, 0, "Qwen2-7B total");

  // Qwen1.5-MoE (https://qwenlm.github.io/blog/qwen-moe/): 14.3B total, 2.7B activated; 60 experts, top-4,
  // one shared expert of 4 experts' width (shared_expert_intermediate_size 5632 = 4 × 1408).
  const Scenario q15 = load("Qwen1.5-MoE-A2.7B-Chat.json");
  v = values_of(q15);
  CHECK(q15.model.shared_experts == 4);
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 24 * 16 * 128 * 2);
  check_count(v[F::ParamsTotal], 14.3e9, 0, "Qwen1.5-MoE total");
  check_count(v[F::ParamsActiveDecode], 2.7e9, 0, "Qwen1.5-MoE active");

  // Qwen3-8B card (https://huggingface.co/Qwen/Qwen3-8B): 8.2B, non-embedding 6.95B, 36 layers, 32 Q / 8 KV
  // heads. This copy was re-saved with "dtype": "float32" and explicit layer_types.
  std::vector<std::string> notes;
  const Scenario q3 = load("Qwen3-8B.json", "llama31-8b-1xh100", &notes);
  v = values_of(q3);
  const double emb8 = 151936.0 * 4096;
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 36 * 8 * 128 * 2);
  check_count(v[F::ParamsTotal], 8.2e9, 0, "Qwen3-8B total");
  check_count(v[F::ParamsTotal] - 2 * emb8, 6.95e9, 0, "Qwen3-8B non-embedding");
  CHECK(q3.model.dense_fmt == NumFormat::BF16);  // float32 checkpoints are served in 16-bit
  CHECK(has_note(notes, "float32"));

  // Qwen3-30B-A3B card (https://huggingface.co/Qwen/Qwen3-30B-A3B): 30.5B total, 3.3B activated,
  // non-embedding 29.9B; 48 layers, 32 Q / 4 KV heads, 128 experts, 8 activated.
  const Scenario q30 = load("Qwen3-30B-A3B.json");
  v = values_of(q30);
  const double emb30 = 151936.0 * 2048;
  CHECK(q30.model.experts == 128);
  CHECK(q30.model.shared_experts == 0);
  CHECK(v[F::KvGlobalPerToken] == 2.0 * 48 * 4 * 128 * 2);
  check_count(v[F::ParamsTotal], 30.5e9, 0, "Qwen3-30B-A3B total");
  check_count(v[F::ParamsTotal] - 2 * emb30, 29.9e9, 0, "Qwen3-30B-A3B non-embedding");
  check_count(v[F::ParamsActiveDecode], 3.3e9, 0.1e9, "Qwen3-30B-A3B activated");
}

TEST_CASE("hf config: DeepSeek V2-Lite and V3 read as MLA with dense-first layers and match their papers") {
  // DeepSeek-V2 paper (https://arxiv.org/abs/2405.04434): the MLA cache is (d_c + d_h^R) × layers values per
  // token, d_c = 512, d_h^R = 64; V2-Lite: 27 layers, 15.7B total, 2.4B activated (input embedding aside,
  // the convention V3's weight notes spell out).
  const Scenario lite = load("DeepSeek-V2-Lite-Chat.json");
  Values v = values_of(lite);
  CHECK(lite.model.attn == AttnKind::MLA);
  CHECK(lite.model.q_lora == 0);
  CHECK(lite.model.dense_layers == 1);
  CHECK(lite.model.shared_experts == 2);
  CHECK(v[F::KvGlobalPerToken] == (512.0 + 64) * 27 * 2);
  check_count(v[F::ParamsTotal], 15.7e9, 0, "V2-Lite total");
  check_count(v[F::ParamsActiveDecode] - 102400.0 * 2048, 2.4e9, 0.1e9, "V2-Lite activated");

  // DeepSeek-V3 weight notes (https://huggingface.co/deepseek-ai/DeepSeek-V3, README_WEIGHTS.md): 671B
  // total; 36.6B activated including the 0.9B output head (so without the input embedding).
  const Scenario v3 = load("DeepSeek-V3.json", "deepseek-v3-8xh200");
  v = values_of(v3);
  CHECK(v[F::KvGlobalPerToken] == 70272);  // (512 + 64) × 61 × 2 B, FACTS-parallel §1.6
  check_count(v[F::ParamsTotal], 671e9, 0, "V3 total");
  check_count(v[F::ParamsActiveDecode] - 129280.0 * 7168, 36.6e9, 0, "V3 activated");
  CHECK(v3.model.experts_fmt == NumFormat::FP8_B128);
  CHECK(v3.model.act_fmt == NumFormat::FP8);
  CHECK(v3.model.draft_layers == 1);
}

TEST_CASE("hf config: the DeepSeek-V3 and Llama 3.1 70B files rebuild their presets' models key for key") {
  struct Pair {
    const char* file;
    const char* preset;
  };
  for (const Pair& p : {Pair{"DeepSeek-V3.json", "deepseek-v3-8xh200"}, Pair{"Llama-3.1-70B-Instruct.json", "llama31-70b-8xh100"}}) {
    const Scenario base = preset(p.preset);
    const Scenario s = load(p.file, p.preset);
    for (const ParamDef& d : params()) {
      INFO(p.file << " " << d.key << ": " << get_param_text(s, d) << " vs " << get_param_text(base, d));
      CHECK(param_equal(s, base, d));
    }
  }
}

TEST_CASE("hf config: gpt-oss (MXFP4 experts, alternating 128-token windows) matches its model card") {
  // gpt-oss model card (https://arxiv.org/abs/2508.10925, Table 1): gpt-oss-20b has 20.91B parameters,
  // 3.61B active (unembedding counted, embedding not); 24 layers alternating banded windows of 128 tokens
  // with full attention; 64 query heads and 8 KV heads of 64 dims.
  const Scenario s = load("gpt-oss-20b.json");
  const Values v = values_of(s);
  CHECK(layers_to_text(s.model).substr(0, 4) == "SDSD");
  CHECK(s.model.n_win == 128);
  CHECK(s.model.experts_fmt == NumFormat::FP4_G32);
  CHECK(s.model.dense_fmt == NumFormat::BF16);  // attention and router stay unquantized
  CHECK(v[F::KvGlobalPerToken] == 12.0 * 2 * 8 * 64 * 2);
  CHECK(v[F::KvSwaPerSession] == 12.0 * 128 * (2 * 8 * 64 * 2));
  check_count(v[F::ParamsTotal], 20.91e9, 0, "gpt-oss-20b total");
  check_count(v[F::ParamsActiveDecode] - 201088.0 * 2880, 3.61e9, 0, "gpt-oss-20b active");
}

TEST_CASE("hf config: Gemma 2 and 3 (tied embeddings, local:global patterns, a VLM's text_config) match their reports") {
  // Gemma 2 report (https://arxiv.org/abs/2408.00118, Tables 1-2): 9B = 42 layers alternating a 4096-token
  // window and global attention, 8 KV heads × 256; 917,962,752 embedding and 8,324,201,984 non-embedding
  // parameters. Embeddings are tied (one matrix), counted once as the LM head.
  const Scenario g2 = load("gemma-2-9b-it.json");
  Values v = values_of(g2);
  const double e2 = 256000.0 * 3584;
  CHECK(g2.model.tied_embed == 1);
  CHECK(layers_to_text(g2.model).substr(0, 4) == "SDSD");
  CHECK(v[F::KvGlobalPerToken] == 21.0 * 2 * 8 * 256 * 2);
  CHECK(v[F::KvSwaPerSession] == 21.0 * 4096 * (2 * 8 * 256 * 2));
  check_count(e2, 917962752, 0, "Gemma 2 9B embedding");
  check_count(v[F::ParamsTotal] - e2, 8324201984, 0, "Gemma 2 9B non-embedding");

  // Gemma 3 report (https://arxiv.org/abs/2503.19786, Table 1 and §2.1): five local layers per global one,
  // local span 1024 (1B: 512); 27B = 1,416M embedding and 25,600M non-embedding parameters; 1B = 302M and
  // 698M. The 27B file is the vision-language one: its language model sits in text_config and names no
  // vocab_size, so Gemma3TextConfig's default (262,208) applies, tagged assumed.
  std::vector<std::string> notes;
  const Scenario g27 = load("gemma-3-27b-it.json", "llama31-70b-8xh100", &notes);
  v = values_of(g27);
  const double e27 = 262208.0 * 5376;
  CHECK(g27.model.vocab == 262208);
  CHECK(input_provenance(g27, "vocab").provenance == Provenance::Assumed);
  CHECK(g27.model.n_win == 1024);
  CHECK(layers_to_text(g27.model).substr(0, 12) == "SSSSSDSSSSSD");
  CHECK(v[F::KvGlobalPerToken] == 10.0 * 2 * 16 * 128 * 2);
  CHECK(v[F::KvSwaPerSession] == 52.0 * 1024 * (2 * 16 * 128 * 2));
  check_count(e27, 1416e6, 0, "Gemma 3 27B embedding");
  check_count(v[F::ParamsTotal] - e27, 25600e6, 0, "Gemma 3 27B non-embedding");
  CHECK(has_note(notes, "vision_config"));
  CHECK_FALSE(has_note(notes, "tie_word_embeddings"));  // counted once: nothing to warn about

  const Scenario g1 = load("gemma-3-1b-it.json");
  v = values_of(g1);
  const double e1 = 262144.0 * 1152;
  CHECK(g1.model.n_win == 512);
  CHECK(v[F::KvGlobalPerToken] == 4.0 * 2 * 1 * 256 * 2);
  check_count(e1, 302e6, 0, "Gemma 3 1B embedding");
  check_count(v[F::ParamsTotal] - e1, 698e6, 0, "Gemma 3 1B non-embedding");
}

TEST_CASE("hf config: Phi-3 mini's head_dim comes from hidden ÷ heads and its 2047-token window from the file") {
  // Phi-3 report (https://arxiv.org/abs/2404.14219): phi-3-mini has 3.8B parameters, 32 layers, hidden
  // 3072, 32 heads. The released config gives sliding_window 2047 for every layer.
  const Scenario s = load("Phi-3-mini-4k-instruct.json");
  const Values v = values_of(s);
  CHECK(s.model.head_dim == 96);
  CHECK(input_provenance(s, "head_dim").provenance == Provenance::Derived);
  CHECK(v[F::KvSwaPerSession] == 32.0 * 2047 * (2 * 3072 * 2));
  check_count(v[F::ParamsTotal], 3.8e9, 0.1e9, "Phi-3-mini total");
}

// [SECTION] provenance, layout, share links ---------------------------------------------------------------

TEST_CASE("hf config: inputs name their field, assumptions say so, and later edits read as overrides") {
  Scenario s = load("Qwen3-30B-A3B.json", "v41-flash-8xb200");
  const InputProvenance kv = input_provenance(s, "kv_heads");
  CHECK(kv.provenance == Provenance::Paper);
  CHECK(kv.source.find("config.json of Qwen3-30B-A3B") != std::string::npos);
  CHECK(kv.source.find("num_key_value_heads") != std::string::npos);
  CHECK(input_provenance(s, "kv_fmt").provenance == Provenance::Assumed);
  // Hardware keeps the base preset's sources.
  CHECK(input_provenance(s, "gpu").source == input_provenance(preset("v41-flash-8xb200"), "gpu").source);
  const Figures f = describe(s);
  CHECK(f[F::KvGlobalPerToken].provenance == Provenance::Assumed);  // the KV format is assumed
  CHECK(figure_sources(f, f[F::KvGlobalPerToken]).find("num_key_value_heads") != std::string::npos);
  Adjustments moved;
  Error e;
  REQUIRE(edit_param(s, *find_param("kv_fmt"), "fp8", moved, e));
  const InputProvenance edited = input_provenance(s, "kv_fmt");
  CHECK(edited.provenance == Provenance::Override);
  CHECK(edited.source.find("bf16") != std::string::npos);
}

TEST_CASE("hf config: a layout that does not split the new model is re-spread over the same GPUs, each move a note") {
  // DeepSeek-V3's preset runs TP8 + EP8. Qwen3-30B-A3B has 32 query and 4 KV heads: TP8 stays, each KV head
  // copied on two GPUs as engines run it (hbm.kv_copies 2), and no move is made.
  std::vector<std::string> notes;
  Scenario qwen = load("Qwen3-30B-A3B.json", "deepseek-v3-8xh200", &notes);
  CHECK(qwen.par.tp == 8);
  CHECK_FALSE(has_note(notes, "layout: tp"));
  CHECK(values_of(qwen)[F::HbmKvCopies] == Approx(2));
  // Gemma 3 1B has 4 query heads: TP8 cannot split them, so TP drops to 4 with 2 replicas.
  notes.clear();
  Scenario s = load("gemma-3-1b-it.json", "deepseek-v3-8xh200", &notes);
  CHECK(s.hw.gpus == 8);
  CHECK(s.par.tp == 4);
  CHECK(s.par.dp == 2);
  CHECK(s.par.ep == 1);
  CHECK(has_note(notes, "layout: tp 8 → 4"));
  CHECK(input_provenance(s, "tp").provenance == Provenance::Derived);
  CHECK(input_provenance(qwen, "ep").provenance != Provenance::Derived);  // ep 8 still divides 128 experts
  // The moved layout travels with the scenario's JSON and link.
  Scenario again;
  Errors errs;
  REQUIRE(scenario_from_json(scenario_to_json(s), again, errs));
  CHECK(again.par.tp == 4);
  REQUIRE(scenario_from_hash(scenario_to_hash(s), again, errs));
  CHECK(again.par.dp == 2);
  // A dense model has no expert parallel.
  notes.clear();
  s = load("Llama-3.1-8B-Instruct.json", "deepseek-v3-8xh200", &notes);
  CHECK(s.par.ep == 1);
  CHECK(s.par.tp == 8);
  CHECK(has_note(notes, "layout: ep 8 → 1"));
  // Speculative decoding needs a draft module.
  Scenario spec = preset("deepseek-v3-8xh200");
  spec.work.spec_tokens = 2;
  Errors errors;
  REQUIRE(apply_hf_config(spec, fixture("Qwen3-8B.json"), "", errors, notes));
  CHECK(spec.work.spec_tokens == 0);
  CHECK(has_note(notes, "spec_tokens"));
}

TEST_CASE("hf config: the share link and the scenario JSON carry the mapped inputs and reopen the same model") {
  for (const char* file : {"gemma-3-27b-it.json", "DeepSeek-V2-Lite-Chat.json", "gpt-oss-20b.json"}) {
    INFO(file);
    const Scenario s = load(file, "v41-flash-8xb200");
    Scenario from_hash, from_json;
    Errors errors;
    REQUIRE(scenario_from_hash(scenario_to_hash(s), from_hash, errors));
    REQUIRE(scenario_from_json(scenario_to_json(s), from_json, errors));
    CHECK(base_preset_name(from_hash) == "v41-flash-8xb200");
    CHECK(from_hash.preset == s.preset);  // the link names the loaded model (model=NAME)
    CHECK(scenario_label(from_hash) == scenario_label(s));
    for (const ParamDef& p : params()) {
      INFO(p.key);
      CHECK(param_equal(s, from_hash, p));
      CHECK(param_equal(s, from_json, p));
    }
  }
}

// [SECTION] refusals ------------------------------------------------------------------------------------------

namespace {
// A small valid llama config to break one field at a time.
std::string llama(const std::string& extra = "", const std::string& drop = "") {
  std::string s = "{";
  const std::pair<const char*, const char*> fields[] = {
      {"model_type", "\"llama\""},      {"num_hidden_layers", "4"},          {"hidden_size", "256"},
      {"num_attention_heads", "8"},     {"num_key_value_heads", "2"},        {"intermediate_size", "512"},
      {"vocab_size", "1000"},           {"max_position_embeddings", "2048"}, {"torch_dtype", "\"bfloat16\""}};
  for (const auto& [k, v] : fields) {
    if (drop == k || extra.find(std::string("\"") + k + "\"") != std::string::npos) continue;
    s += std::string(s.size() > 1 ? "," : "") + "\"" + k + "\":" + v;
  }
  if (!extra.empty()) s += "," + extra;
  return s + "}";
}
}  // namespace

TEST_CASE("hf config: malformed, oversized, deep and duplicated input is refused without touching the scenario") {
  CHECK(refused(llama()) == static_cast<ErrorCode>(0));
  CHECK(refused("{\"model_type\": \"llama\",") == ErrorCode::BadSyntax);
  CHECK(refused("[1, 2, 3]") == ErrorCode::WrongType);
  CHECK(refused("") == ErrorCode::BadSyntax);
  CHECK(refused(std::string(kMaxConfigBytes + 1, ' ')) == ErrorCode::TooLarge);
  CHECK(refused(std::string(200, '[') + std::string(200, ']')) == ErrorCode::BadSyntax);
  CHECK(refused(llama("\"hidden_size\": 256, \"hidden_size\": 512")) == ErrorCode::DuplicateKey);

  Scenario s = preset("v41-flash-8xb200");
  const std::string before = scenario_to_json(s);
  Errors errors;
  std::vector<std::string> notes;
  CHECK_FALSE(apply_hf_config(s, "{\"model_type\": \"llama\"}", "", errors, notes));
  CHECK(scenario_to_json(s) == before);
  CHECK_FALSE(s.origin);
}

TEST_CASE("hf config: unknown families and recurrent layers are named, with what is allowed") {
  Errors e;
  CHECK(refused("{\"model_type\": \"gpt2\", \"n_layer\": 12}", &e) == ErrorCode::UnknownFamily);
  CHECK(e[0].field == "model_type");
  CHECK(e[0].allowed.find("qwen3_moe") != std::string::npos);
  CHECK(refused("{\"model_type\": \"mamba\"}", &e) == ErrorCode::Unrepresentable);
  CHECK(e[0].allowed.find("recurrent") != std::string::npos);
  CHECK(refused("{\"hidden_size\": 4}", &e) == ErrorCode::MissingField);
  CHECK(e[0].field == "model_type");
  // The family from the architecture class when model_type is absent.
  std::string arch = llama();
  arch.replace(arch.find("\"model_type\":\"llama\""), 20, "\"architectures\":[\"LlamaForCausalLM\"]");
  CHECK(refused(arch) == static_cast<ErrorCode>(0));
  // A known family whose layer_types holds linear-attention layers: which layers, and why.
  const std::string hybrid = llama("\"layer_types\": [\"linear_attention\", \"linear_attention\", \"full_attention\", \"linear_attention\"]");
  CHECK(refused(hybrid, &e) == ErrorCode::Unrepresentable);
  CHECK(e[0].field == "layer_types");
  CHECK(e[0].value.find("layers 0-1, 3") != std::string::npos);
  CHECK(e[0].value.find("linear_attention") != std::string::npos);
}

TEST_CASE("hf config: wrong types, missing fields and impossible values name the field") {
  Errors e;
  CHECK(refused(llama("\"num_hidden_layers\": \"32\""), &e) == ErrorCode::WrongType);
  CHECK(e[0].field == "num_hidden_layers");
  CHECK(refused(llama("\"tie_word_embeddings\": \"yes\""), &e) == ErrorCode::WrongType);
  CHECK(e[0].field == "tie_word_embeddings");
  CHECK(refused(llama("\"hidden_size\": 3.5"), &e) == ErrorCode::WrongType);
  CHECK(refused(llama("", "intermediate_size"), &e) == ErrorCode::MissingField);
  CHECK(e[0].field == "intermediate_size");
  CHECK(refused(llama("", "num_hidden_layers"), &e) == ErrorCode::MissingField);
  CHECK(refused(llama("\"num_hidden_layers\": 200"), &e) == ErrorCode::OutOfRange);
  CHECK(e[0].allowed.find("128") != std::string::npos);
  CHECK(refused(llama("\"num_hidden_layers\": -1"), &e) == ErrorCode::OutOfRange);
  CHECK(refused(llama("\"sliding_window\": 2000000, \"max_position_embeddings\": 4000000, \"layer_types\": [\"sliding_attention\", \"full_attention\", "
                      "\"sliding_attention\", \"full_attention\"]"),
                &e) == ErrorCode::OutOfRange);
  CHECK(e[0].field == "sliding_window");
  CHECK(refused(llama("\"torch_dtype\": \"int8\""), &e) == ErrorCode::BadEnum);
  CHECK(refused(llama("\"layer_types\": [\"full_attention\"]"), &e) == ErrorCode::Inconsistent);
  CHECK(refused(llama("\"layer_types\": [\"sliding_attention\", \"full_attention\", \"sliding_attention\", \"full_attention\"]"), &e) ==
        ErrorCode::MissingField);
  CHECK(e[0].field == "sliding_window");
  // Without head_dim the width must split evenly over the heads.
  CHECK(refused(llama("\"num_attention_heads\": 6, \"num_key_value_heads\": 2"), &e) == ErrorCode::MissingField);
  CHECK(e[0].field == "head_dim");
  // Weight formats tierscope cannot store.
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}"), &e) == ErrorCode::BadEnum);
  CHECK(e[0].field == "quantization_config.quant_method");
  CHECK(e[0].value == "bitsandbytes");
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": 96}"), &e) == ErrorCode::BadEnum);
  CHECK(e[0].field == "quantization_config.group_size");
  CHECK(e[0].value == "96");
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"gptq\", \"bits\": 3, \"group_size\": 128}"), &e) == ErrorCode::OutOfRange);
  CHECK(e[0].field == "quantization_config.bits");
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"fp8\", \"weight_block_size\": [64, 64]}"), &e) == ErrorCode::BadEnum);
  // A layer count the reader accepts but the parallel layout cannot split is fixed, never refused; a head
  // count that does not split into KV groups is refused by the scenario's own rule.
  Scenario s = preset("llama31-8b-1xh100");
  std::vector<std::string> notes;
  e.clear();
  CHECK_FALSE(apply_hf_config(s, llama("\"num_key_value_heads\": 3"), "", e, notes));
  REQUIRE_FALSE(e.empty());
  CHECK(e[0].code == ErrorCode::Inconsistent);
  CHECK(e[0].field == "kv_heads");
}

TEST_CASE("hf config: MoE layer patterns read: dense-first as dense_layers, any other as a per-layer list") {
  const std::string moe = "\"model_type\": \"qwen3_moe\", \"num_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 64";
  auto qwen = [&](const std::string& extra) {
    std::string s = llama(moe + (extra.empty() ? "" : ", " + extra));
    return s;
  };
  HfModel m;
  Errors e;
  REQUIRE(read_hf_config(qwen("\"mlp_only_layers\": [0, 1]"), "", m, e));
  CHECK(m.model.experts == 8);
  CHECK(m.model.dense_layers == 2);
  CHECK(m.model.dense_inter == 512);
  CHECK(m.model.ffn_count == 0);
  // A dense layer after a MoE one (mlp_only_layers [2], or every other layer MoE) is kept per layer.
  REQUIRE(read_hf_config(qwen("\"mlp_only_layers\": [2]"), "", m, e));
  CHECK(m.model.ffn_count == 4);
  CHECK(ffn_of(m.model, 2) == FfnKind::Dense);
  CHECK(ffn_of(m.model, 3) == FfnKind::Moe);
  REQUIRE(read_hf_config(qwen("\"decoder_sparse_step\": 2"), "", m, e));
  Scenario interleaved = preset("llama31-8b-1xh100");
  interleaved.model = m.model;
  Computed c;
  compute_values(interleaved, c);
  CHECK(c.terms.moe_layers == 2);
  CHECK(c.terms.ffn_dense_layers == 2);
  CHECK(refused(qwen("\"mlp_only_layers\": [9]"), &e) == ErrorCode::OutOfRange);
  std::string greedy = qwen("");
  greedy.replace(greedy.find("\"num_experts_per_tok\": 2"), 24, "\"num_experts_per_tok\": 9");
  CHECK(refused(greedy, &e) == ErrorCode::Inconsistent);
  // Qwen2-MoE's shared expert must be a whole number of expert widths.
  std::string q2 = qwen("\"shared_expert_intermediate_size\": 100");
  q2.replace(q2.find("qwen3_moe"), 9, "qwen2_moe");
  CHECK(refused(q2, &e) == ErrorCode::Unrepresentable);
  CHECK(e[0].field == "shared_expert_intermediate_size");
}

TEST_CASE("hf config: a language model nested under text_config is read there — fields that matter are not guessed") {
  // Any wrapper whose text_config names a known family.
  const std::string inner = llama();
  const std::string vlm = "{\"model_type\": \"llava\", \"architectures\": [\"LlavaForConditionalGeneration\"], \"text_config\": " + inner +
                          ", \"vision_config\": {\"hidden_size\": 1024}, \"torch_dtype\": \"bfloat16\"}";
  HfModel m;
  Errors e;
  REQUIRE(read_hf_config(vlm, "", m, e));
  CHECK(m.model.layer_count == 4);
  CHECK(m.model_type == "llama");
  bool vision_noted = false;
  for (const std::string& n : m.notes) vision_noted = vision_noted || n.find("vision_config") != std::string::npos;
  CHECK(vision_noted);
  // Errors inside text_config name the nested field.
  std::string bad = vlm;
  bad.replace(bad.find("\"hidden_size\":256"), 17, "\"hidden_size\":\"x\"");
  CHECK(refused(bad, &e) == ErrorCode::WrongType);
  CHECK(e[0].field == "text_config.hidden_size");
  // A wrapper whose text_config does not say its family, and is not one the reader knows.
  CHECK(refused("{\"model_type\": \"llava\", \"text_config\": {\"hidden_size\": 8}}", &e) == ErrorCode::MissingField);
  CHECK(e[0].field == "text_config.model_type");
  CHECK(refused("{\"model_type\": \"llava\", \"text_config\": 5}", &e) == ErrorCode::WrongType);
  // Ignored fields are listed, never silently dropped.
  REQUIRE(read_hf_config(llama("\"bos_token_id\": 1, \"rms_norm_eps\": 1e-5"), "", m, e));
  bool listed = false;
  for (const std::string& n : m.notes) listed = listed || (n.find("ignored") != std::string::npos && n.find("bos_token_id") != std::string::npos);
  CHECK(listed);
}

TEST_CASE("hf config: weight formats from quantization_config and the dtype") {
  HfModel m;
  Errors e;
  REQUIRE(read_hf_config(llama("\"quantization_config\": {\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"kv_cache_quant_algo\": \"FP8\", "
                               "\"exclude_modules\": [\"lm_head\"]}"),
                         "", m, e));
  CHECK(m.model.dense_fmt == NumFormat::FP4_G16);
  CHECK(m.model.act_fmt == NumFormat::FP4_G16);
  CHECK(m.model.kv_fmt == NumFormat::FP8);
  CHECK(m.model.head_fmt == NumFormat::BF16);
  for (const InputOrigin& o : m.inputs)
    if (o.key == "kv_fmt") CHECK(o.provenance == Provenance::Paper);  // stated by the file, not assumed
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"fp8\", \"modules_to_not_convert\": [\"model.layers.0.mlp\"]}"), &e) ==
        ErrorCode::Unrepresentable);
  CHECK(refused(llama("\"quantization_config\": {\"quant_method\": \"mxfp4\"}"), &e) == ErrorCode::Inconsistent);  // no experts
  CHECK(refused(llama("\"quantization_config\": \"fp8\""), &e) == ErrorCode::WrongType);
  REQUIRE(read_hf_config(llama("\"torch_dtype\": \"float16\""), "", m, e));
  CHECK(m.model.dense_fmt == NumFormat::BF16);
  REQUIRE(read_hf_config(llama("", "torch_dtype"), "", m, e));
  bool assumed = false;
  for (const InputOrigin& o : m.inputs)
    if (o.key == "dense_fmt") assumed = o.provenance == Provenance::Assumed;
  CHECK(assumed);
}

TEST_CASE("hf config: each family's own window rule when layer_types is absent") {
  HfModel m;
  Errors e;
  // Qwen: layers from max_window_layers on slide, only with use_sliding_window.
  std::string q = llama("\"use_sliding_window\": true, \"max_window_layers\": 2, \"sliding_window\": 1024");
  q.replace(q.find("\"llama\""), 7, "\"qwen2\"");
  REQUIRE(read_hf_config(q, "", m, e));
  CHECK(layers_to_text(m.model) == "DDSS");
  CHECK(m.model.n_win == 1024);
  q.replace(q.find("\"use_sliding_window\": true"), 26, "\"use_sliding_window\": false");
  REQUIRE(read_hf_config(q, "", m, e));
  CHECK(layers_to_text(m.model) == "DDDD");
  CHECK(m.model.n_win == 0);
  // Mistral: one window for every layer; a window as long as the trained positions never bites.
  std::string mi = llama("\"sliding_window\": 512");
  mi.replace(mi.find("\"llama\""), 7, "\"mistral\"");
  REQUIRE(read_hf_config(mi, "", m, e));
  CHECK(layers_to_text(m.model) == "SSSS");
  mi.replace(mi.find("\"sliding_window\": 512"), 21, "\"sliding_window\": 4096");
  REQUIRE(read_hf_config(mi, "", m, e));
  CHECK(layers_to_text(m.model) == "DDDD");
  bool noted = false;
  for (const std::string& n : m.notes) noted = noted || n.find("never bites") != std::string::npos;
  CHECK(noted);
  // Gemma 2: local first, then global, alternating.
  std::string g = llama("\"sliding_window\": 256, \"head_dim\": 32");
  g.replace(g.find("\"llama\""), 7, "\"gemma2\"");
  REQUIRE(read_hf_config(g, "", m, e));
  CHECK(layers_to_text(m.model) == "SDSD");
  CHECK(m.model.tied_embed == 1);  // Gemma2Config's default
  // Llama has no window: a stray sliding_window is noted, not used.
  REQUIRE(read_hf_config(llama("\"sliding_window\": 512"), "", m, e));
  CHECK(layers_to_text(m.model) == "DDDD");
}

TEST_CASE("hf: an import lowers a context beyond the trained positions to them and says so in its notes") {
  std::vector<std::string> notes;
  const Scenario s = load("Qwen3-30B-A3B.json", kDefaultPreset, &notes);  // the default asks 131,072 tokens
  CHECK(s.work.ctx == 40960);
  CHECK(s.work.ctx == s.model.max_pos);
  bool said = false;
  for (const std::string& n : notes) said = said || n.starts_with("context: ctx 131072 → 40960 (the model's 40,960 trained positions");
  CHECK(said);
  CHECK(input_provenance(s, "ctx").provenance == Provenance::Derived);  // moved by the import, not by a person
  Computed c;
  compute_values(s, c);
  CHECK(c.terms.feasible());
  // A context within the positions is left as it was.
  Scenario small = preset(kDefaultPreset);
  small.work.ctx = 32768;
  Errors e;
  std::vector<std::string> n2;
  REQUIRE(apply_hf_config(small, fixture("Qwen3-30B-A3B.json"), "Qwen3-30B-A3B", e, n2));
  CHECK(small.work.ctx == 32768);
}

// A prompt lowered to the whole of the positions left no room for the output: a serving replay of the import
// refused every request (Phi-3-mini: 4,096 positions, prompt 4,096 + output 1,024), and the frontier drew nothing.
TEST_CASE("hf: an import lowers a prompt to what the trained positions leave beside the output, and says so") {
  std::vector<std::string> notes;
  const Scenario s = load("Phi-3-mini-4k-instruct.json", kDefaultPreset, &notes);  // prompt 8,192, output 1,024
  REQUIRE(s.model.max_pos == 4096);
  CHECK(s.work.ctx == 4096);
  CHECK(s.work.prompt == 3072);
  CHECK(s.work.prompt + s.work.output == s.model.max_pos);
  CHECK(s.work.prefix_hit <= s.work.prompt);
  bool said = false;
  for (const std::string& n : notes) said = said || n.starts_with("context: prompt 8192 → 3072 (the model's 4,096 trained positions, max_position_embeddings, less the 1,024 output tokens)");
  CHECK(said);
  // gemma-2 (8,192 positions): a prompt of 8,192 fits the positions alone but not with its output.
  const Scenario g = load("gemma-2-9b-it.json", kDefaultPreset);
  CHECK(g.work.prompt + g.work.output == g.model.max_pos);
  // A prompt that leaves room already is kept.
  const Scenario q = load("Qwen3-30B-A3B.json", kDefaultPreset);
  CHECK(q.work.prompt == preset(kDefaultPreset).work.prompt);
}

TEST_CASE("hf: an import is named by the file's _name_or_path, else its file's name, else its family and size") {
  HfModel m;
  Errors e;
  REQUIRE(read_hf_config(fixture("Qwen3-30B-A3B.json"), "Qwen3-30B-A3B.json", m, e));
  CHECK(m.name == "Qwen3-30B-A3B");
  REQUIRE(read_hf_config(fixture("Qwen3-30B-A3B.json"), "models/Qwen3-30B-A3B/config.json", m, e));
  CHECK(m.name == "Qwen3-30B-A3B");
  // A plain config.json with no folder, or pasted text: the family and the size the figures compute.
  REQUIRE(read_hf_config(fixture("Qwen3-30B-A3B.json"), "config.json", m, e));
  CHECK(m.name == "qwen3_moe-30.5B");
  for (const InputOrigin& in : m.inputs) CHECK(in.source.find("config.json of qwen3_moe:") == std::string::npos);
  bool sourced = false;
  for (const InputOrigin& in : m.inputs) sourced = sourced || in.source.starts_with("config.json of qwen3_moe-30.5B: ");
  CHECK(sourced);
  REQUIRE(read_hf_config(fixture("Llama-3.1-8B-Instruct.json"), "", m, e));
  CHECK(m.name.starts_with("llama-"));
  CHECK(m.name.ends_with("B"));
  REQUIRE(read_hf_config(fixture("Phi-3-mini-4k-instruct.json"), "other.json", m, e));  // the file names itself
  CHECK(m.name == "Phi-3-mini-4k-instruct");
  // The scenario's label and preset follow the name and the hardware it runs on now.
  Scenario s = load("Qwen3-30B-A3B.json", kDefaultPreset);
  CHECK(s.preset == "config:Qwen3-30B-A3B");
  CHECK(scenario_label(s) == "Qwen3-30B-A3B (config.json) · 8×B200 (two TP4 instances)");
  Adjustments moved;
  Error err;
  REQUIRE(edit_param(s, *find_param("gpus"), "16", moved, err));
  CHECK(scenario_label(s) == "Qwen3-30B-A3B (config.json) · 16×B200");
}

TEST_CASE("hf: a 671B model on the default instance can run after one of the fixes the model computes") {
  Scenario s = load("DeepSeek-V3.json", kDefaultPreset);
  const std::vector<SetupFix> fixes = setup_fixes(s);
  if (setup_runs(s)) {
    CHECK(fixes.empty());
    return;
  }
  REQUIRE_FALSE(fixes.empty());
  for (const SetupFix& f : fixes) {
    Scenario next = s;
    Adjustments moved;
    Error err;
    INFO(f.label);
    REQUIRE(edit_param(next, *find_param(f.field), f.value, moved, err));
    CHECK(validate(next).empty());
    CHECK(setup_runs(next));
  }
}
