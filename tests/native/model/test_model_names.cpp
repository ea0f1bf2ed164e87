// The parameter count and the names of loaded models, in the model room without the figures: the count is
// the one the figures show for every preset, and a model's name is cleaned, taken from its file, or made
// of its family and that count, as a share link carries it.
#include <catch2/catch.hpp>

#include <string>

#include "model/model_names.h"
#include "model/param_count.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope::model;

TEST_CASE("the parameter count is the one the figures show, for every preset") {
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    Computed c;
    compute_values(s, c);
    const ParamCount n = count_params(s.model);
    INFO(p.name);
    CHECK(n.total() == c.values[FigureId::ParamsTotal]);
    CHECK(n.active_decode() == c.values[FigureId::ParamsActiveDecode]);
    CHECK(n.expert == c.values[FigureId::ParamsPerExpert]);
    CHECK(n.active_decode() <= n.total());
  }
}

TEST_CASE("a tied model counts its embedding once, as its LM head") {
  Scenario s;
  REQUIRE(make_preset("llama31-8b-1xh100", s));
  s.model.tied_embed = false;
  const ParamCount untied = count_params(s.model);
  s.model.tied_embed = true;
  const ParamCount tied = count_params(s.model);
  CHECK(untied.emb == untied.head);
  CHECK(tied.emb == 0);
  CHECK(untied.total() - tied.total() == untied.head);
}

TEST_CASE("a loaded model's name: cleaned for links, from its file, or its family and size") {
  CHECK(clean_name("meta-llama/Llama 3.1 (8B)") == "Llama-3.1--8B-");
  CHECK(clean_name("..-x") == "x");
  CHECK(clean_name(std::string(80, 'a')).size() == 64);
  CHECK(name_from_file("models/Qwen3-30B-A3B.json") == "Qwen3-30B-A3B");
  CHECK(name_from_file("Qwen3-30B-A3B/config.json") == "Qwen3-30B-A3B");
  CHECK(name_from_file("config.json").empty());
  Scenario s;
  REQUIRE(make_preset("qwen3-30b-a3b-1xb200", s));
  CHECK(sized_name("qwen3_moe", s.model) == "qwen3_moe-30.5B");
  CHECK(model_name_ok("Qwen3-30B-A3B"));
  CHECK_FALSE(model_name_ok("a b"));
  CHECK_FALSE(model_name_ok(std::string(kMaxModelName + 1, 'a')));
  name_loaded_model(s, "Qwen3-30B-A3B");
  CHECK(s.preset == "config:Qwen3-30B-A3B");
  CHECK(config_name(s) == "Qwen3-30B-A3B");
}
