// The serve settings a link carries (codec/serve_spec.h): one spelling per run, each refusal naming the
// setting, and the flags' own limits.
#include <catch2/catch.hpp>

#include <string>

#include "codec/serve_spec.h"

using namespace tierscope;

TEST_CASE("serve settings: read, spelled once, and read back to the same spec") {
  serve::ServeSpec spec;
  model::Errors errors;
  REQUIRE(serve::serve_settings_from_text("input:2048,concurrency:64,lengths:random,range-ratio:0.2,rate:0", spec, errors) == false);
  // rate 0 is not a rate: refused, the rest applied.
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "serve.rate");
  CHECK(spec.concurrency == 64);
  CHECK(spec.input == 2048);
  CHECK(spec.lengths == serve::Lengths::Random);
  CHECK(spec.range_ratio == 0.2);
  // The flags' order, defaults left out (0.2 is what random lengths mean unless told: kRandomRangeRatio).
  const std::string text = serve::serve_settings_text(spec);
  CHECK(text == "concurrency:64,input:2048,lengths:random");
  serve::ServeSpec again;
  errors.clear();
  REQUIRE(serve::serve_settings_from_text(text, again, errors));
  CHECK(serve::serve_settings_text(again) == text);
  CHECK(serve::serve_settings_text(serve::ServeSpec{}).empty());
  // A rate written back reads as the same number.
  serve::ServeSpec rated;
  REQUIRE(serve::serve_settings_from_text("steps-from:500,rate:0.1,prefill:first,instances:2,steps:8", rated, errors));
  CHECK(rated.steps_from == 500);
  CHECK(serve::serve_settings_text(rated) == "rate:0.1,prefill:first,instances:2,steps:8,steps-from:500");
  // Disaggregated prefill reads and writes back as "pd".
  serve::ServeSpec disagg;
  REQUIRE(serve::serve_settings_from_text("concurrency:8,prefill:pd", disagg, errors));
  CHECK(disagg.prefill == serve::PrefillMode::Pd);
  CHECK(serve::serve_settings_text(disagg) == "concurrency:8,prefill:pd");
  std::string canonical;
  CHECK(serve::serve_settings_known("steps:8,rate:0.1", &canonical));
  CHECK(canonical == "rate:0.1,steps:8");
  CHECK(serve::serve_settings_known(""));
}

TEST_CASE("serve settings: every refusal names the setting, the value and what is allowed") {
  struct Bad {
    const char* text;
    const char* field;
  };
  for (const Bad& b : {Bad{"concurrency:0", "serve.concurrency"}, Bad{"concurrency", "serve.concurrency"}, Bad{"requests:1.5", "serve.requests"},
                       Bad{"lengths:trace", "serve.lengths"}, Bad{"lengths:zipf", "serve.lengths"}, Bad{"seed:3", "serve.seed"},
                       Bad{"nope:1", "serve.nope"}, Bad{"input:4,input:8", "serve.input"}, Bad{",", "serve.(empty)"},
                       Bad{"range-ratio:1", "serve.range-ratio"}, Bad{"instances:65", "serve.instances"},
                       Bad{"steps-from:-2", "serve.steps-from"}, Bad{"steps-from:x", "serve.steps-from"}}) {
    INFO(b.text);
    serve::ServeSpec spec;
    model::Errors errors;
    CHECK_FALSE(serve::serve_settings_from_text(b.text, spec, errors));
    REQUIRE(!errors.empty());
    CHECK(errors[0].field == b.field);
    CHECK(!errors[0].allowed.empty());
  }
  serve::ServeSpec spec;
  model::Errors errors;
  CHECK_FALSE(serve::serve_settings_from_text(std::string(serve::kMaxServeSettingsBytes + 1, 'a'), spec, errors));
  CHECK(errors.at(0).code == model::ErrorCode::TooLarge);
  // A refused setting leaves the spec as it was.
  spec.input = 100;
  errors.clear();
  CHECK_FALSE(serve::serve_settings_from_text("input:-4", spec, errors));
  CHECK(spec.input == 100);
}
