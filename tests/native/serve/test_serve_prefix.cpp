// The serving replay's shared-prefix workload and prefix cache (src/serve/serve_prefix.h): an HBM hit beats
// recomputing, a DRAM tier serves what HBM evicted, prompts that share nothing run as before, and the
// workload's settings refuse bad values by name.
#include <catch2/catch.hpp>

#include <string>

#include "codec/serve_spec.h"
#include "model/presets.h"
#include "serve/serve.h"

using namespace tierscope;

namespace {

model::Scenario preset(const char* name) {
  model::Scenario s;
  REQUIRE(model::make_preset(name, s));
  return s;
}

serve::ServeResult replay(const model::Scenario& s, const serve::ServeSpec& spec) {
  serve::ServeResult r;
  model::Errors errors;
  REQUIRE(serve::run_serve(s, spec, r, errors));
  REQUIRE(errors.empty());
  return r;
}

// A 4K system prompt shared by every request (one of `prefixes`), 256 tokens of its own, a short answer.
serve::ServeSpec shared(int prefixes, serve::CacheTiers tiers, int requests = 64) {
  serve::ServeSpec spec;
  spec.concurrency = 8;
  spec.requests = requests;
  spec.input = 256;
  spec.output = 32;
  spec.prefix_len = 4096;
  spec.prefixes = prefixes;
  spec.tiers = tiers;
  return spec;
}

}  // namespace

TEST_CASE("serve prefix: an HBM prefix cache beats no cache on a shared system prompt") {
  const model::Scenario s = preset("llama31-8b-1xh100");
  const serve::ServeResult off = replay(s, shared(1, serve::CacheTiers::Off));
  const serve::ServeResult hbm = replay(s, shared(1, serve::CacheTiers::Hbm));
  REQUIRE(off.completed == 64);
  REQUIRE(hbm.completed == 64);
  CHECK_FALSE(off.prefix.on);
  CHECK(off.prefix.hit_tokens[0] == 0);
  CHECK(hbm.prefix.on);
  // Every request after the first few (those that arrived before the prompt was cached) skips the 4K prefix.
  CHECK(hbm.prefix.hit_tokens[0] >= 0.8 * 64 * 4096);
  CHECK(hbm.prefix.hit_tokens[1] == 0);
  CHECK(hbm.ttft.mean < 0.6 * off.ttft.mean);
  CHECK(hbm.output_tps > off.output_tps);
  // Both ran the same prompts: the hit saves work, not tokens.
  CHECK(hbm.input_tokens == off.input_tokens);
}

TEST_CASE("serve prefix: when HBM cannot hold the prefixes, a DRAM tier serves what HBM evicted") {
  const model::Scenario s = preset("llama31-8b-1xh100");
  // 256 distinct 4K prefixes: 1M tokens of KV, more than the GPU's HBM holds beside the weights.
  serve::ServeSpec spec = shared(256, serve::CacheTiers::Hbm, 600);
  const serve::ServeResult hbm = replay(s, spec);
  REQUIRE(hbm.kv_tokens < 256 * 4096);
  spec.tiers = serve::CacheTiers::HbmDram;
  const serve::ServeResult dram = replay(s, spec);
  CHECK(dram.prefix.hit_tokens[1] > 0);
  CHECK(dram.prefix.loads > 0);
  CHECK(dram.prefix.hit_tokens[0] + dram.prefix.hit_tokens[1] > hbm.prefix.hit_tokens[0]);
  CHECK(hbm.prefix.hit_tokens[1] == 0);
}

TEST_CASE("serve prefix: multi-turn conversations find their history") {
  const model::Scenario s = preset("llama31-8b-1xh100");
  serve::ServeSpec spec = shared(4, serve::CacheTiers::Hbm);
  spec.reuse = serve::Reuse::MultiTurn;
  spec.turns = 4;
  const serve::ServeResult r = replay(s, spec);
  REQUIRE(r.completed == 64);
  // A later turn resends its history: it is longer than the first turn, and mostly a hit.
  CHECK(r.input_tokens > 64.0 * (4096 + 256));
  CHECK(r.prefix.hit_tokens[0] > 0.5 * r.prefix.prompt_tokens);
}

TEST_CASE("serve prefix: prompts that share nothing run as before, whatever the tiers") {
  const model::Scenario s = preset("llama31-8b-1xh100");
  serve::ServeSpec spec;
  spec.concurrency = 8;
  spec.requests = 40;
  spec.input = 512;
  spec.output = 64;
  spec.lengths = serve::Lengths::Random;
  const std::string base = serve::serve_json(replay(s, spec));
  spec.tiers = serve::CacheTiers::HbmDramSsd;
  CHECK(serve::serve_json(replay(s, spec)) == base);
  CHECK(base.find("prefix_cache") == std::string::npos);
}

TEST_CASE("serve prefix: bad workload settings are refused by name") {
  serve::ServeSpec spec;
  model::Error err;
  CHECK_FALSE(serve::set_serve_flag("--prefix-len", "-1", spec, err));
  CHECK(err.field == "--prefix-len");
  CHECK(err.value == "-1");
  CHECK(err.allowed.find("0 to") != std::string::npos);
  CHECK_FALSE(serve::set_serve_flag("--prefixes", "0", spec, err));
  CHECK(err.field == "--prefixes");
  CHECK(err.allowed.find("1 to") != std::string::npos);
  CHECK_FALSE(serve::set_serve_flag("--reuse", "sometimes", spec, err));
  CHECK(err.field == "--reuse");
  CHECK(err.value == "sometimes");
  CHECK(err.allowed.find("multi-turn") != std::string::npos);
  CHECK_FALSE(serve::set_serve_flag("--tiers", "hbm+ssd", spec, err));
  CHECK(err.allowed.find("hbm+dram+ssd") != std::string::npos);
  CHECK(spec.prefix_len == 0);
  CHECK(spec.prefixes == 1);
  // A link's settings say the same, under the link's name.
  model::Errors errors;
  CHECK_FALSE(serve::serve_settings_from_text("prefixes:0,reuse:zipf", spec, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "serve.prefixes");
  CHECK(spec.reuse == serve::Reuse::Zipf);
}

TEST_CASE("serve prefix: a prompt is its shared prefix then its own tokens, the scenario's prompt when no --input says") {
  const model::Scenario s = preset("llama31-8b-1xh100");
  serve::ServeSpec spec;
  spec.concurrency = 4;
  spec.requests = 8;
  spec.output = 16;
  spec.prefix_len = 1000;
  spec.tiers = serve::CacheTiers::Off;
  const serve::ServeResult r = replay(s, spec);
  REQUIRE(r.completed == 8);
  CHECK(r.input_tokens == 8.0 * (s.work.prompt + 1000));
  CHECK(r.prefix.prompt_tokens == 0);  // no cache ran: nothing was looked up
}
