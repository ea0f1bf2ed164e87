// Kimi K3 read from its published config.json (moonshotai/Kimi-K3, a kimi_k3 file around a kimi_linear text_config):
// its routed experts on a 3,584-wide latent between projections from the 7,168-wide hidden state, the counts against
// the published ones, the state a session keeps (MLA latent and KDA state), what the latent changes in the step the
// engines run (expert GEMMs, the projections, the all-to-all and all-reduce payloads), and broken files refused by field.
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

const char* const kFile = "moonshotai--Kimi-K3.json";

// The file's dims, as its text_config states them, for the arithmetic below.
constexpr double kHidden = 7168, kLatent = 3584, kVocab = 163840, kHeads = 96, kKda = 128, kConv = 4;
constexpr double kKvLora = 512, kRope = 64, kNope = 128, kV = 128, kQLora = 1536;
constexpr double kDense = 33792, kExpert = 3072, kExperts = 896, kTopK = 16, kShared = 2;
constexpr int kLayers = 93, kKdaLayers = 69, kMlaLayers = 24, kMoeLayers = 92;

// Independent arithmetic of the parts (no figure of the model's): one KDA layer (q, k, v and the full-rank output
// gate from the hidden state, one β per head, the short convolutions over q, k and v, the output); one MLA layer
// (the low-rank query of 192 dims a head, the latent and the 64-dim key down-projection, its up-projection to keys
// and values, the output); one routed expert at the latent; one shared expert at the hidden width; the latent's
// down- and up-projections of one MoE layer.
constexpr double kWidth = kHeads * kKda;
constexpr double kKdaParams = kHidden * (2 * kWidth + 2 * kWidth + kHeads) + 3 * kWidth * kConv + kWidth * kHidden;
constexpr double kMlaParams = kHidden * kQLora + kQLora * kHeads * (kNope + kRope) + kHidden * (kKvLora + kRope) +
                              kKvLora * kHeads * (kNope + kV) + kHeads * kV * kHidden;
constexpr double kRouted = 3 * kExpert * kLatent, kSharedExpert = 3 * kExpert * kHidden, kProjections = 2 * kHidden * kLatent;
constexpr double kBelowMoe = 2 * kVocab * kHidden + kKdaLayers * kKdaParams + kMlaLayers * kMlaParams + 3 * kDense * kHidden;

std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string t = text;
  const std::size_t at = t.find(from);
  REQUIRE(at != std::string::npos);
  return t.replace(at, from.size(), to);
}

Computed computed(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c;
}

// The loaded model spread over `gpus` GPUs: attention `tp`-way in `gpus / tp` replicas, experts over `ep` ranks.
Scenario spread(const Scenario& loaded, int gpus, int tp, int ep) {
  Scenario s = loaded;
  s.hw.gpus = gpus;
  s.par.tp = tp;
  s.par.dp = gpus / tp;
  s.par.ep = ep;
  s.par.redundant = 0;
  REQUIRE(validate(s).empty());
  return s;
}

}  // namespace

TEST_CASE("hf Kimi K3: the published file loads — KDA in 69 layers, MLA in 24, 896 experts on a 3,584-wide latent") {
  std::vector<std::string> notes;
  const Scenario s = load(kFile, "deepseek-v3-8xh200", &notes);
  CHECK(validate(s).empty());
  REQUIRE(s.model.layer_count == kLayers);
  int kda = 0;
  for (int i = 0; i < kLayers; ++i) kda += s.model.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear ? 1 : 0;
  CHECK(kda == kKdaLayers);
  CHECK(s.model.expert_latent == kLatent);
  CHECK(has_latent_experts(s.model));
  CHECK(s.model.experts == kExperts);
  CHECK(s.model.experts_per_token == kTopK);
  CHECK(s.model.shared_experts == kShared);
  CHECK(s.model.dense_layers == 1);
  // MXFP4 routed experts (compressed-tensors, groups of 32); attention, shared experts and the rest BF16 (its ignore list).
  CHECK(s.model.experts_fmt == NumFormat::FP4_G32);
  CHECK(s.model.dense_fmt == NumFormat::BF16);
  REQUIRE(s.origin);
  bool sourced = false;
  for (const InputOrigin& o : s.origin->inputs) sourced = sourced || (o.key == "expert_latent" && o.source.find("routed_expert_hidden_size") != std::string::npos);
  CHECK(sourced);
  // What the model does not represent is named, each with what it leaves out; none is in the ignored list.
  CHECK(has_note(notes, "latent_moe_use_norm"));
  CHECK(has_note(notes, "mla_use_output_gate"));
  CHECK(has_note(notes, "attn_res_block_size 12"));
  CHECK(has_note(notes, "activation_situ_beta, activation_situ_linear_beta"));
  CHECK(has_note(notes, "per-channel decay is low-rank"));
  for (const std::string& n : notes) {
    if (n.rfind("ignored", 0) != 0) continue;
    for (const char* key : {"routed_expert_hidden_size", "latent_moe_use_norm", "attn_res_block_size", "activation_situ", "mla_use_output_gate"}) {
      INFO(key);
      CHECK(n.find(key) == std::string::npos);
    }
  }
}

TEST_CASE("hf Kimi K3: parameters against the published 2.8T total and 104B activated — weights at MXFP4 and BF16") {
  const Scenario s = load(kFile);
  const Values v = values_of(s);
  CHECK(v[F::ParamsPerExpert] == kRouted);
  const double total = kBelowMoe + kMoeLayers * (kExperts * kRouted + kShared * kSharedExpert + kProjections + kExperts * kHidden);
  const double active = kBelowMoe + kMoeLayers * (kTopK * kRouted + kShared * kSharedExpert + kProjections + kExperts * kHidden);
  CHECK(v[F::ParamsTotal] == Approx(total).epsilon(1e-12));
  CHECK(v[F::ParamsActiveDecode] == Approx(active).epsilon(1e-12));
  // 2.8T total, 104B activated: the model card's counts as NVIDIA NeMo AutoModel's Kimi K3 page gives them
  // (https://docs.nvidia.com/nemo/automodel/model-coverage/large-language-models/moonshotai/kimi-k3); the model's
  // Hugging Face page (https://huggingface.co/moonshotai/Kimi-K3) lists 2.8T. Counted at hidden_size the routed
  // experts alone would be 5.4T: the latent is what brings the count to the published one.
  check_published(v[F::ParamsTotal], 2.8e12, 0, "Kimi K3 total");
  check_published(v[F::ParamsActiveDecode], 104e9, 0, "Kimi K3 active");
  CHECK(kMoeLayers * kExperts * 3 * kExpert * kHidden > 5.4e12);
  // Stored: routed experts MXFP4 (0.53125 B a value), everything else BF16 — the latent projections too (SGLang
  // loads them unquantized). The routed experts alone, 92 × 896 × 33.03 M at MXFP4, are 1.446 TB.
  const double routed = kMoeLayers * kExperts * kRouted;
  CHECK(v[F::WeightsDerived] == Approx(routed * 0.53125 + (total - routed) * 2).epsilon(1e-12));
  CHECK(routed * 0.53125 == Approx(1.446e12).epsilon(1e-3));
}

TEST_CASE("hf Kimi K3: state per token and per session — the MLA latent in 24 layers, KDA's fixed state in 69") {
  Scenario s = load(kFile);
  // 24 MLA layers of a 512-value latent and the 64-value key part (mla_use_nope: not rotated, still cached), BF16
  // (the file names no cache format).
  const double per_token = kMlaLayers * (kKvLora + kRope) * 2;
  // 69 KDA layers: 96 heads × 128 × 128 FP32 (SGLang's default state format; the file names none) and the last 3
  // tokens of the q, k and v convolutions (3 × 96 × 128 channels) in BF16.
  const double recurrent = kKdaLayers * (kHeads * kKda * kKda * 4 + (kConv - 1) * 3 * kHeads * kKda * 2);
  CHECK(per_token == 27648);
  CHECK(recurrent == 449372160);
  for (const int ctx : {8192, 131072}) {
    s.work.ctx = ctx;
    const Values v = values_of(s);
    INFO("ctx " << ctx);
    CHECK(v[F::KvGlobalPerToken] == per_token);
    CHECK(v[F::KvRecurrentPerSession] == recurrent);
    CHECK(v[F::KvSwaPerSession] == 0);
    CHECK(v[F::KvIndexerPerToken] == 0);
    CHECK(v[F::KvPerSession] == ctx * per_token + recurrent);
  }
  // 675.9 MB a session at 8K, 4.073 GB at 128K.
  CHECK(8192 * per_token + recurrent == 675864576);
  CHECK(131072 * per_token + recurrent == 4073250816);
}

TEST_CASE("hf Kimi K3: the latent in the step — experts' GEMMs at its width, the projections whole on every GPU, a latent-wide all-to-all") {
  const Scenario k3 = load(kFile);
  // The same file with the latent at hidden_size: every routed expert twice as wide, no projections.
  const Scenario wide = load_text(replaced(fixture(kFile), "\"routed_expert_hidden_size\": 3584", "\"routed_expert_hidden_size\": 7168"),
                                  "deepseek-v3-8xh200");
  CHECK_FALSE(has_latent_experts(wide.model));
  struct Layout {
    int gpus, tp, ep;
  };
  for (const Layout l : {Layout{64, 1, 64}, Layout{32, 32, 1}}) {
    INFO("tp " << l.tp << ", ep " << l.ep << " over " << l.gpus << " GPUs");
    const bool a2a = l.tp == 1;
    Scenario a = spread(k3, l.gpus, l.tp, l.ep), b = spread(wide, l.gpus, l.tp, l.ep);
    a.work.batch = b.work.batch = 64;
    const Computed ca = computed(a), cb = computed(b);
    const Terms &ta = ca.terms, &tb = cb.terms;
    // The routed experts' FLOP and weight bytes at the busiest rank halve (the same load, half the width).
    CHECK(ta.flop_experts == Approx(tb.flop_experts * kLatent / kHidden).epsilon(1e-12));
    CHECK(ta.w_step_experts == Approx(tb.w_step_experts * kLatent / kHidden).epsilon(1e-12));
    // The projections are whole on every GPU (ReplicatedLinear, BF16): each GPU streams all 92 layers' and runs
    // them on its replica's tokens, beside the TP-split dense parts.
    const double proj = kMoeLayers * kProjections;
    CHECK(ta.w_step_dense - tb.w_step_dense == Approx(proj * 2).epsilon(1e-9));
    CHECK(ta.flop_dense - tb.flop_dense == Approx(2 * ta.tokens_replica * proj).epsilon(1e-9));
    CHECK(ca.values[F::HbmWeightsPerGpu] - ta.w_experts - ta.w_router - ta.w_latent ==
          Approx(cb.values[F::HbmWeightsPerGpu] - tb.w_experts - tb.w_router).epsilon(1e-12));
    CHECK(ta.w_latent == proj * 2);
    if (a2a) {
      // Data-parallel attention over expert parallelism: the all-to-all carries the latent, projected down before
      // the dispatch and up after the combine (SGLang's KimiK3MoE), FP8 with a scale per 128 out and BF16 back.
      CHECK(ta.pay_dispatch == kLatent * (1 + 4.0 / 128));
      CHECK(ta.pay_combine == kLatent * 2);
      CHECK(tb.pay_dispatch == kHidden * (1 + 4.0 / 128));
      REQUIRE(ta.a2a_layer_bytes > 0);
      CHECK(ta.a2a_layer_bytes == Approx(tb.a2a_layer_bytes * kLatent / kHidden).epsilon(1e-12));
    } else {
      // Tensor-parallel attention, experts split over every GPU and all-reduced: the routed experts' latent-wide sum (reduced before the
      // latent's norm) and the shared experts' hidden-wide one, in one collective per MoE layer.
      CHECK(ta.ar_count_moe == kMoeLayers);
      CHECK(ta.ar_bytes_moe == ta.tokens_replica * (kLatent + kHidden) * 2);
      CHECK(tb.ar_bytes_moe == tb.tokens_replica * kHidden * 2);
    }
    // Every figure's formula still adds up to its value.
    const std::vector<std::string> wrong = formulas_wrong(describe(a));
    INFO(wrong.size() << " wrong; first: " << (wrong.empty() ? "" : wrong[0]));
    CHECK(wrong.empty());
  }
}

TEST_CASE("hf Kimi K3: a bad routed_expert_hidden_size or a cut file is refused, naming the field") {
  const std::string text = fixture(kFile);
  const std::string field = "text_config.routed_expert_hidden_size";
  const std::string from = "\"routed_expert_hidden_size\": 3584";
  for (const char* bad : {"0", "-3584", "7169", "1048576"}) {
    INFO(bad);
    const Error e = refusal(replaced(text, from, std::string("\"routed_expert_hidden_size\": ") + bad));
    CHECK(e.field == field);
    CHECK(e.code == ErrorCode::OutOfRange);
    CHECK(e.value == bad);
    CHECK(e.allowed.find("an integer from 1 to 7168") != std::string::npos);
  }
  for (const char* bad : {"3584.5", "\"3584\"", "true"}) {
    INFO(bad);
    const Error e = refusal(replaced(text, from, std::string("\"routed_expert_hidden_size\": ") + bad));
    CHECK(e.field == field);
    CHECK(e.code == ErrorCode::WrongType);
  }
  CHECK(refusal(text.substr(0, text.size() / 2)).code == ErrorCode::BadSyntax);
  CHECK(refusal(text.substr(0, text.size() - 1)).code == ErrorCode::BadSyntax);
  // As large as hidden_size, or null (the engines' "no latent"): the experts take hidden_size in and out.
  for (const char* none : {"7168", "null"}) {
    INFO(none);
    const Scenario s = load_text(replaced(text, from, std::string("\"routed_expert_hidden_size\": ") + none), "deepseek-v3-8xh200");
    CHECK_FALSE(has_latent_experts(s.model));
    CHECK(values_of(s)[F::ParamsPerExpert] == 3 * kExpert * kHidden);
  }
}

TEST_CASE("hf Kimi K3: the latent is a scenario key — checked against hidden, inert at 0, carried by links") {
  Scenario s = load(kFile);
  Adjustments moved;
  Error e;
  // Wider than the model is refused by validation, naming the key.
  REQUIRE(edit_param(s, *find_param("expert_latent"), "8192", moved, e));
  const Errors errs = validate(s);
  REQUIRE_FALSE(errs.empty());
  CHECK(errs[0].field == "expert_latent");
  CHECK(errs[0].code == ErrorCode::Inconsistent);
  // 0: no latent, the figures as for experts at hidden_size, and no source line for the key in any figure.
  REQUIRE(edit_param(s, *find_param("expert_latent"), "0", moved, e));
  CHECK(validate(s).empty());
  CHECK(values_of(s)[F::ParamsPerExpert] == 3 * kExpert * kHidden);
  const Figures none = describe(preset("deepseek-v3-8xh200"));
  for (const Figure& f : none.list) {
    INFO(f.id);
    CHECK(figure_sources(none, f).find("expert_latent") == std::string::npos);
  }
  const Figures k3 = describe(load(kFile));
  CHECK(figure_sources(k3, k3[F::ParamsPerExpert]).find("expert_latent") != std::string::npos);
}
