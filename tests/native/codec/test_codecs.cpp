// JSON and URL codecs: exact round trips for every preset and every error path by code.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope::model;

namespace {

ErrorCode first_code(const Errors& e) {
  REQUIRE_FALSE(e.empty());
  return e.front().code;
}

Errors json_errors(const std::string& text) {
  Scenario s = default_scenario();
  const Scenario before = s;
  Errors e;
  CHECK_FALSE(scenario_from_json(text, s, e));
  CHECK(scenario_equal(s, before));  // nothing half-applied
  return e;
}

Errors hash_errors(const std::string& text) {
  Scenario s = default_scenario();
  const Scenario before = s;
  Errors e;
  CHECK_FALSE(scenario_from_hash(text, s, e));
  CHECK(scenario_equal(s, before));
  return e;
}

}  // namespace

TEST_CASE("JSON: every preset round-trips exactly") {
  for (const PresetInfo& p : presets()) {
    INFO(p.name);
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    const std::string a = scenario_to_json(s);
    Scenario back;
    Errors e;
    REQUIRE(scenario_from_json(a, back, e));
    CHECK(scenario_equal(s, back));
    CHECK(scenario_to_json(back) == a);
  }
}

TEST_CASE("JSON: awkward doubles survive the round trip bit for bit") {
  Scenario s = default_scenario();
  s.hw.mbu = 0.1 + 0.2;                 // 0.30000000000000004
  s.work.price_hit = 1.0 / 3.0;
  s.hw.lat_hbm_us = 1e-7;
  Errors e;
  Scenario back;
  REQUIRE(scenario_from_json(scenario_to_json(s), back, e));
  CHECK(back.hw.mbu == s.hw.mbu);
  CHECK(back.work.price_hit == s.work.price_hit);
  CHECK(back.hw.lat_hbm_us == s.hw.lat_hbm_us);
}

TEST_CASE("JSON: a partial document overrides its preset") {
  Scenario s;
  Errors e;
  REQUIRE(scenario_from_json(R"({"preset":"v41-flash-8xh200","workload":{"ctx":1048576},"hardware":{"gpu":"b300"}})", s, e));
  CHECK(s.preset == "v41-flash-8xh200");
  CHECK(s.work.ctx == 1048576);
  CHECK(s.hw.gpu == gpu_kind("b300"));
  REQUIRE(scenario_from_json("{}", s, e));
  CHECK(s.preset == kDefaultPreset);
}

TEST_CASE("JSON: error paths carry stable codes and name field, value and allowed") {
  CHECK(first_code(json_errors("{not json")) == ErrorCode::BadSyntax);
  CHECK(first_code(json_errors("[1,2]")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"preset":"nope"})")) == ErrorCode::UnknownPreset);
  CHECK(first_code(json_errors(R"({"preset":7})")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"extra":{}})")) == ErrorCode::UnknownKey);
  CHECK(first_code(json_errors(R"({"workload":{"ctxx":5}})")) == ErrorCode::UnknownKey);
  CHECK(first_code(json_errors(R"({"workload":{"gpu":"h100"}})")) == ErrorCode::UnknownKey);  // wrong group
  CHECK(first_code(json_errors(R"({"workload":[]})")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"workload":{"ctx":"big"}})")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"workload":{"ctx":true}})")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"workload":{"ctx":1.5}})")) == ErrorCode::OutOfRange);
  CHECK(first_code(json_errors(R"({"workload":{"ctx":0}})")) == ErrorCode::OutOfRange);
  // JSON has no NaN or infinity; a number that overflows a double is refused by the parser.
  CHECK(first_code(json_errors(R"({"hardware":{"mbu":1e999}})")) == ErrorCode::BadSyntax);
  CHECK(first_code(json_errors(R"({"hardware":{"gpu":"tpu"}})")) == ErrorCode::BadEnum);
  CHECK(first_code(json_errors(R"({"hardware":{"gpu":3}})")) == ErrorCode::WrongType);
  CHECK(first_code(json_errors(R"({"model":{"modes":"SSX"}})")) == ErrorCode::BadSyntax);
  CHECK(first_code(json_errors(R"({"workload":{"ctx":1024,"ctx":2048}})")) == ErrorCode::DuplicateKey);
  CHECK(first_code(json_errors(R"({"workload":{"prompt":10,"prefix_hit":20}})")) == ErrorCode::Inconsistent);
  CHECK(first_code(json_errors(std::string(kMaxJsonBytes + 1, ' '))) == ErrorCode::TooLarge);

  const Errors e = json_errors(R"({"hardware":{"mbu":1.5}})");
  REQUIRE(e.size() == 1);
  CHECK(e[0].field == "hardware.mbu");
  CHECK(e[0].value == "1.5");
  CHECK(e[0].allowed.find("0 to 1") != std::string::npos);
  const std::string msg = e[0].message();
  CHECK(msg.find("hardware.mbu") != std::string::npos);
  CHECK(msg.find("1.5") != std::string::npos);
  CHECK(msg.find("0 to 1") != std::string::npos);
  // Several mistakes are reported together.
  CHECK(json_errors(R"({"hardware":{"mbu":2,"gpus":0}})").size() == 2);
}

TEST_CASE("URL: every preset round-trips, output is minimal") {
  for (const PresetInfo& p : presets()) {
    INFO(p.name);
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    CHECK(scenario_to_hash(s) == std::string("preset=") + p.name);
    Scenario back;
    Errors e;
    REQUIRE(scenario_from_hash(scenario_to_hash(s), back, e));
    CHECK(scenario_equal(s, back));
  }
  Scenario s = default_scenario();
  Errors e;
  REQUIRE(scenario_from_hash("#preset=v41-flash-8xb200&ctx=1048576&batch=8", s, e));
  CHECK(s.work.ctx == 1048576);
  CHECK(s.work.batch == 8);
  CHECK(scenario_to_hash(s) == "preset=v41-flash-8xb200&ctx=1048576&batch=8");
  // The view's keys are the link codec's (link/view_codec.h): the scenario's reader names one it is handed.
  Scenario untouched = default_scenario();
  Errors view_key;
  CHECK_FALSE(scenario_from_hash("#preset=v41-flash-8xb200&ctx=1048576&path=decode", untouched, view_key));
  REQUIRE(view_key.size() == 1);
  CHECK(view_key[0].field == "path");
  CHECK(view_key[0].code == ErrorCode::UnknownKey);
  CHECK(scenario_equal(untouched, default_scenario()));
}

TEST_CASE("URL: changed text, enum and real values round-trip exactly") {
  Scenario s = default_scenario();
  s.model.layers[24].mode = LayerMode::Reuse;
  s.model.kv_fmt = NumFormat::FP8_G32;
  s.hw.mbu = 0.1 + 0.2;
  s.model.engram_count = 1;
  const std::string h = scenario_to_hash(s);
  CHECK(h.find("modes=SSF2UUUUUF2UUUUUF2UUUUUFUUUUUUUIUUUIUUUIUUU") != std::string::npos);
  CHECK(h.find("engram=1:384006168") != std::string::npos);
  Scenario back;
  Errors e;
  REQUIRE(scenario_from_hash(h, back, e));
  CHECK(scenario_equal(s, back));
  CHECK(scenario_to_hash(back) == h);
}

TEST_CASE("URL: scenario keys are told from others") {
  CHECK(is_scenario_key("preset"));
  CHECK(is_scenario_key("model"));
  CHECK(is_scenario_key("ctx"));
  CHECK_FALSE(is_scenario_key("path"));
  std::vector<UrlPair> pairs;
  Errors e;
  REQUIRE(split_hash("ctx=2048&speed=2", pairs, e));
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[1].key == "speed");
  // A view key is the link codec's: handed to the scenario's reader it is an unknown key, named.
  Scenario s;
  CHECK_FALSE(scenario_from_pairs(pairs, s, e));
  REQUIRE(e.size() == 1);
  CHECK(e[0].field == "speed");
  pairs.pop_back();
  Errors none;
  REQUIRE(scenario_from_pairs(pairs, s, none));
  CHECK(s.work.ctx == 2048);
}

TEST_CASE("URL: error paths") {
  CHECK(first_code(hash_errors("ctx=abc")) == ErrorCode::WrongType);
  CHECK(first_code(hash_errors("ctx=")) == ErrorCode::WrongType);
  CHECK(first_code(hash_errors("ctx=0")) == ErrorCode::OutOfRange);
  CHECK(first_code(hash_errors("mbu=nan")) == ErrorCode::NotFinite);
  CHECK(first_code(hash_errors("mbu=inf")) == ErrorCode::NotFinite);
  CHECK(first_code(hash_errors("gpu=tpu9")) == ErrorCode::BadEnum);
  CHECK(first_code(hash_errors("nonsense=1")) == ErrorCode::UnknownKey);
  CHECK(first_code(hash_errors("preset=missing")) == ErrorCode::UnknownPreset);
  CHECK(first_code(hash_errors("ctx=1&ctx=2")) == ErrorCode::DuplicateKey);
  CHECK(first_code(hash_errors("=5")) == ErrorCode::BadSyntax);
  CHECK(first_code(hash_errors("ctx=1%202")) == ErrorCode::BadSyntax);
  CHECK(first_code(hash_errors("CTX=1")) == ErrorCode::BadSyntax);
  CHECK(first_code(hash_errors("prefix_hit=9000")) == ErrorCode::Inconsistent);
  CHECK(first_code(hash_errors("engram=1:5,99:5")) == ErrorCode::Inconsistent);
  CHECK(first_code(hash_errors("engram=1-5")) == ErrorCode::BadSyntax);
  const Errors m = hash_errors("gpu=<script>alert(1)</script>");
  CHECK(first_code(m) == ErrorCode::Markup);
  CHECK(m[0].value.find('<') == std::string::npos);  // never echoed back raw
  CHECK(first_code(hash_errors("preset=x\"onload")) == ErrorCode::Markup);
  // A 100 kB hash is refused up front, before any splitting.
  std::string big = "ctx=1";
  while (big.size() < 100000) big += "&ctx=1";
  const Errors t = hash_errors(big);
  REQUIRE(t.size() == 1);
  CHECK(t[0].code == ErrorCode::TooLarge);
}

TEST_CASE("params registry: every key reads back what it writes") {
  Scenario s = default_scenario();
  for (const ParamDef& p : params()) {
    INFO(p.key);
    const std::string text = get_param_text(s, p);
    Scenario copy = s;
    Error e;
    REQUIRE(set_param_text(copy, p, text, e));
    CHECK(param_equal(copy, s, p));
    CHECK_FALSE(param_allowed(p).empty());
    CHECK(find_param(p.key) == &p);
  }
  const ParamDef* mbu = find_param("mbu");
  REQUIRE(mbu);
  Error e;
  CHECK_FALSE(set_param_number(s, *mbu, -0.5, e));  // 0 is allowed: each class at its own share
  CHECK(e.code == ErrorCode::OutOfRange);
  CHECK_FALSE(set_param_number(s, *mbu, std::nan(""), e));
  CHECK(e.code == ErrorCode::NotFinite);
  CHECK_FALSE(set_param_number(s, *mbu, HUGE_VAL, e));
  CHECK(e.code == ErrorCode::NotFinite);
  CHECK(s.hw.mbu == 0);
}

TEST_CASE("url: a link that leaves out what its keys imply is completed, never moving a key it names") {
  Scenario s;
  Errors e;
  Adjustments moved;
  std::vector<UrlPair> pairs;
  REQUIRE(split_hash("preset=v41-flash-8xb200&gpus=1", pairs, e));
  REQUIRE(scenario_from_pairs(pairs, s, e, &moved));
  CHECK(e.empty());
  CHECK(s.hw.gpus == 1);
  CHECK(s.par.tp * s.par.dp == 1);
  REQUIRE_FALSE(moved.empty());
  CHECK(moved[0].field == "tp");
  // A key the link names is kept: a contradiction among named keys is still an error naming them.
  pairs.clear();
  REQUIRE(split_hash("gpus=8&tp=3", pairs, e));
  CHECK_FALSE(scenario_from_pairs(pairs, s, e));
  CHECK_FALSE(e.empty());
  // Lowering the prompt alone lowers the prefix hit with it.
  pairs.clear();
  e.clear();
  moved.clear();
  REQUIRE(split_hash("prompt=1000", pairs, e));
  REQUIRE(scenario_from_pairs(pairs, s, e, &moved));
  CHECK(s.work.prompt == 1000);
  CHECK(s.work.prefix_hit <= 1000);
  // What the writer writes still reads back exactly (nothing to complete).
  Scenario back;
  pairs.clear();
  const std::string h = scenario_to_hash(s);
  REQUIRE(split_hash(h, pairs, e));
  REQUIRE(scenario_from_pairs(pairs, back, e));
  CHECK(scenario_to_hash(back) == h);
}
