// Presets as data: every settings string reads through the parameter registry with no errors and in the
// registry's own words, each preset is its base plus its strings, and the link codec rebuilds it from them;
// the measured points' models against their published parameter totals; each preset's layer plan against its layers.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "codec/url_codec.h"
#include "model/layers.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope::model;

namespace {

Scenario preset(std::string_view name) {
  Scenario s;
  REQUIRE(make_preset(name, s));
  return s;
}

// Every registry key of `a` and `b` holds the same value; a differing key is named with both values.
void check_same(const Scenario& a, const Scenario& b, std::string_view what) {
  for (const ParamDef& d : params()) {
    INFO(what << " " << d.key << ": " << get_param_text(a, d) << " vs " << get_param_text(b, d));
    CHECK(param_equal(a, b, d));
  }
}

// A preset's own settings strings joined into one link tail ("a=1&b=2").
std::string own_settings(const PresetInfo& p) {
  std::string out;
  for (const char* s : p.settings) {
    if (s) out += (out.empty() ? "" : "&") + std::string(s);
  }
  return out;
}

}  // namespace

TEST_CASE("presets: every settings string parses with no errors, in the registry's own words") {
  for (const PresetInfo& p : presets()) {
    int strings = 0;
    for (const char* settings : p.settings) {
      if (!settings) continue;
      ++strings;
      INFO(p.name << ": " << settings);
      // The whole string applies, and is one a share link could carry (its characters, each key once).
      Scenario s;
      Errors errors;
      CHECK(apply_settings(s, settings, errors));
      for (const Error& e : errors) FAIL_CHECK(e.message());
      std::vector<UrlPair> pairs;
      Errors link_errors;
      CHECK(split_hash(settings, pairs, link_errors));
      for (const Error& e : link_errors) FAIL_CHECK(e.message());
      // Each value is written as the registry writes it back, so a link made from the preset says the same.
      Scenario one;
      for (const UrlPair& item : pairs) {
        const ParamDef* def = find_param(item.key);
        REQUIRE(def);
        Error e;
        REQUIRE(set_param_text(one, *def, item.value, e));
        CHECK(get_param_text(one, *def) == item.value);
      }
    }
    INFO(p.name);
    CHECK(strings > 0);
  }
}

TEST_CASE("presets: each is its base (or a fresh scenario) with its settings applied in order") {
  const std::span<const PresetInfo> all = presets();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const PresetInfo& p = all[i];
    INFO(p.name);
    Scenario s;
    if (p.base) {
      // A base is a preset listed before this one (so no chain loops).
      const PresetInfo* base = find_preset(p.base);
      REQUIRE(base);
      CHECK(base < &p);
      s = preset(p.base);
    }
    for (const char* settings : p.settings) {
      Errors errors;
      if (settings) CHECK(apply_settings(s, settings, errors));
    }
    const Scenario built = preset(p.name);
    CHECK(built.preset == p.name);
    check_same(s, built, p.name);
  }
}

TEST_CASE("presets: a link of a derived preset's base and its settings reads back as the preset") {
  for (const PresetInfo& p : presets()) {
    if (!p.base) continue;
    INFO(p.name);
    const std::string link = std::string("preset=") + p.base + "&" + own_settings(p);
    Scenario back;
    Errors errors;
    REQUIRE(scenario_from_hash(link, back, errors));
    check_same(back, preset(p.name), link);
    // And the preset's own link is its name alone, which reads back the same.
    const Scenario s = preset(p.name);
    CHECK(scenario_to_hash(s) == std::string("preset=") + p.name);
  }
}

TEST_CASE("presets: a bad settings item names its field, value and what is allowed — the rest still apply") {
  Scenario s = preset("v41-flash-8xb200");
  const Scenario before = s;
  Errors errors;
  CHECK_FALSE(apply_settings(s, "gpus=8&warp=9&tp&mbu=2&kv_fmt=fp3&ctx=4096", errors));
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].code == ErrorCode::UnknownKey);
  CHECK(errors[0].field == "warp");
  CHECK(errors[1].code == ErrorCode::BadSyntax);
  CHECK(errors[1].value == "tp");
  CHECK(errors[2].code == ErrorCode::OutOfRange);
  CHECK(errors[2].field == "mbu");
  CHECK(errors[2].allowed.find("0 to 1") != std::string::npos);
  CHECK(errors[3].code == ErrorCode::BadEnum);
  CHECK(errors[3].allowed.find("fp4_g16") != std::string::npos);
  // The good items applied, the refused ones left their fields as they were.
  CHECK(s.hw.gpus == 8);
  CHECK(s.work.ctx == 4096);
  CHECK(s.hw.mbu == before.hw.mbu);
  CHECK(s.model.kv_fmt == before.model.kv_fmt);
  CHECK(apply_settings(s, "", errors));
}

TEST_CASE("presets: a retired name reads as its successor") {
  const PresetInfo* p = find_preset("llama3-70b-8xh100");
  REQUIRE(p);
  CHECK(std::string_view(p->name) == "llama31-70b-8xh100");
  check_same(preset("llama3-70b-8xh100"), preset("llama31-70b-8xh100"), "alias");
}

// A published parameter count held within 2 %.
static void check_params(double model, double published, const char* what) {
  INFO(what << ": model " << model << ", published " << published);
  CHECK(std::fabs(model - published) <= 0.02 * published);
}

TEST_CASE("presets: the measured points' models add up to their published totals, on the layouts their engines ran") {
  using F = FigureId;
  // gpt-oss-120b model card (https://arxiv.org/abs/2508.10925, Table 1): 116.83B total, 5.13B active
  // (unembedding counted, embedding not): the model's active count less the 201,088 × 2,880 embedding.
  {
    const Scenario s = preset("gpt-oss-120b-1xh200");
    Computed c;
    compute_values(s, c);
    check_params(c.values[F::ParamsTotal], 116.8e9, "gpt-oss-120b total");
    check_params(c.values[F::ParamsActiveDecode] - 201088.0 * 2880, 5.1e9, "gpt-oss-120b active");
    CHECK(layers_to_text(s.model) == "SDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSDSD");  // 18 window-only layers, 18 full
    CHECK(s.model.swa_all == 0);
    CHECK(c.values[F::KvGlobalPerToken] == 18.0 * 2 * 8 * 64 * 2);
    CHECK(c.values[F::KvSwaPerSession] == 18.0 * 128 * (2 * 8 * 64 * 2));
    CHECK(s.model.experts_fmt == NumFormat::FP4_G32);
    CHECK(s.model.dense_fmt == NumFormat::BF16);
    CHECK(s.engine.kind == EngineKind::Trtllm);
    CHECK(s.hw.gpu == gpu_kind("h200"));
    CHECK(s.hw.gpus == 1);
  }
  // Qwen3-235B-A22B card (https://huggingface.co/Qwen/Qwen3-235B-A22B): 235B total, 22B activated.
  {
    const Scenario s = preset("qwen3-235b-a22b-4xh200");
    Computed c;
    compute_values(s, c);
    check_params(c.values[F::ParamsTotal], 235e9, "Qwen3-235B-A22B total");
    check_params(c.values[F::ParamsActiveDecode], 22e9, "Qwen3-235B-A22B active");
    CHECK(s.par.dp == 4);
    CHECK(s.par.ep == 4);
    CHECK(s.par.tp == 1);
    CHECK(s.model.experts_fmt == NumFormat::FP8_B128);
    CHECK(s.engine.kind == EngineKind::Trtllm);
  }
  // Qwen3-30B-A3B card (https://huggingface.co/Qwen/Qwen3-30B-A3B): 30.5B total, 3.3B activated.
  {
    const Scenario s = preset("qwen3-30b-a3b-1xb200");
    Computed c;
    compute_values(s, c);
    check_params(c.values[F::ParamsTotal], 30.5e9, "Qwen3-30B-A3B total");
    check_params(c.values[F::ParamsActiveDecode], 3.3e9, "Qwen3-30B-A3B active");
    CHECK(s.model.experts_fmt == NumFormat::FP4_G16);
    CHECK(s.model.kv_fmt == NumFormat::FP8);
    CHECK(s.hw.gpu == gpu_kind("b200"));
    CHECK(s.hw.gpus == 1);
  }
  // DeepSeek-R1-0528 NVFP4: the V3 model (671B) with NVFP4 experts and FP8 KV, DEP8 on 8 B200.
  {
    const Scenario s = preset("deepseek-r1-8xb200");
    Computed c;
    compute_values(s, c);
    check_params(c.values[F::ParamsTotal], 671e9, "DeepSeek-R1 total");
    CHECK(c.values[F::KvGlobalPerToken] == 35136);  // (512 + 64) × 61 × 1 B, FACTS-parallel §1.6
    CHECK(s.model.experts_fmt == NumFormat::FP4_G16);
    CHECK(s.par.dp == 8);
    CHECK(s.par.ep == 8);
    CHECK(s.engine.kind == EngineKind::Trtllm);
    CHECK(validate(s).empty());
  }
}

// The KV layout reads its layer counts from the plan (summed once per model) rather than walking the
// layers on every evaluation: for every preset they are the per-layer counts, and the groups cover each
// layer exactly once.
TEST_CASE("layer plan: every preset's counts are its layers' and the groups cover every layer once") {
  for (const PresetInfo& p : presets()) {
    INFO(p.name);
    const ModelArch& m = preset(p.name).model;
    LayerPlan plan;
    plan_layers(m, plan);
    double window = 0, owners = 0, index_owners = 0, inv_main = 0, inv_index = 0, selecting = 0;
    int last = -1;
    for (int i = 0; i < m.layer_count; ++i) {
      const Layer& l = m.layers[static_cast<std::size_t>(i)];
      if (has_window(m, i)) window += 1;
      if (owns_kv(l.mode)) {
        owners += 1;
        inv_main += 1.0 / l.ratio;
        last = i;
      }
      if (l.mode == LayerMode::Full) {
        index_owners += 1;
        inv_index += 1.0 / l.ratio;
      }
      if (l.mode == LayerMode::Full || l.mode == LayerMode::Reindex) selecting += 1;
    }
    CHECK(plan.counts.window_layers == window);
    CHECK(plan.counts.owners == owners);
    CHECK(plan.counts.index_owners == index_owners);
    CHECK(plan.counts.inv_ratio_main == Approx(inv_main));
    CHECK(plan.counts.inv_ratio_index == Approx(inv_index));
    CHECK(plan.counts.selecting_layers == selecting);
    CHECK(plan.counts.last_source == last);
    for (int range = 0; range < 3; ++range) {
      int covered = 0;
      for (int g = 0; g < plan.group_count[range]; ++g) covered += plan.groups[range][g].count;
      const int expected = range == LayerPlan::All ? m.layer_count
                           : range == LayerPlan::BeforeSplit ? plan.split
                                                             : m.layer_count - plan.split;
      CHECK(covered == expected);
    }
  }
}
