// Every derived figure against independent arithmetic from the fact sheet and calc_output.txt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "model/figures.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope::model;
using F = FigureId;

namespace {

Scenario preset(const char* name) {
  Scenario s;
  REQUIRE(make_preset(name, s));
  REQUIRE(validate(s).empty());
  return s;
}

Values values(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c.values;
}

void set(Scenario& s, const char* key, const char* text) {
  const ParamDef* p = find_param(key);
  REQUIRE(p != nullptr);
  Error e;
  REQUIRE(set_param_text(s, *p, text, e));
}

}  // namespace

TEST_CASE("figure table: ids are unique, ordered and found by name") {
  std::set<std::string> ids;
  for (int i = 0; i < kFigureCount; ++i) {
    const FigureInfo& info = figure_info(static_cast<FigureId>(i));
    CHECK(static_cast<int>(info.fid) == i);
    CHECK(ids.insert(info.id).second);
    CHECK(figure_id(info.id) == info.fid);
  }
  CHECK(figure_id("no.such_figure") == FigureId::Count);
  const Figures f = describe(default_scenario());
  REQUIRE(f.list.size() == static_cast<std::size_t>(kFigureCount));
  REQUIRE(f.find("kv.global_per_token") != nullptr);
  CHECK(f.find("kv.global_per_token")->value == Approx(890.0));
  CHECK(f.find("nope") == nullptr);
}

TEST_CASE("V4.1 Flash: KV entry sizes and 890 B/token (FACTS 1.4.4)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::KvMainEntry] == Approx(512.0 / 2 + 512.0 / 16));  // 288
  CHECK(v[F::KvIndexEntry] == Approx(128.0 / 2 + 128.0 / 32));  // 68
  CHECK(v[F::KvSwaEntry] == Approx(512.0 + 512.0 / 32));        // 528
  CHECK(v[F::KvGlobalPerToken] == Approx((0.5 + 0.5 + 0.5 + 1.0) * (288 + 68)));
  CHECK(v[F::KvSwaPerSession] == Approx(2703360.0));
  CHECK(v[F::KvPerSession] == Approx(131072.0 * 890 + 2703360.0));
}

TEST_CASE("V4.1 Flash: formula text quotes the substituted numbers") {
  const Figures f = describe(default_scenario());
  const std::string& g = f[F::KvGlobalPerToken].formula;
  CHECK(g.find("890 B/token") == 0);
  CHECK(g.find("(1/2+1/2+1/2+1/1) × (288 + 68) B") != std::string::npos);
  CHECK(f[F::KvSwaPerSession].formula.find("40 layers × 128 tokens × 528 B") != std::string::npos);
  for (const Figure& x : f.list) {
    INFO(std::string(x.id));
    CHECK_FALSE(x.formula.empty());
    CHECK_FALSE(x.sources.empty());
    CHECK(std::isfinite(x.value));
  }
}

TEST_CASE("V4.1 Flash: parameters derived from dims (FACTS 1.4.7)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::ParamsPerExpert] == Approx(3.0 * 2304 * 5120));
  CHECK(v[F::ParamsActiveDecode] == Approx(16.376e9).epsilon(1e-3));
  CHECK(v[F::ParamsActivePrefill] == Approx(8.18806784e9).epsilon(1e-6));
  CHECK(v[F::ParamsTotal] == Approx(552e9).epsilon(0.005));
}

TEST_CASE("V4.1 Flash: weight bytes per decode step as shipped and under the card") {
  const Values shipped = values(preset("v41-flash-8xb200"));
  CHECK(shipped[F::DecodeWeightBytes] == Approx(12.4797952e9).epsilon(1e-6));
  const Values card = values(preset("v41-flash-card"));
  // 16B active at 2 B each, less the embedding lookup: the card's "~32 GB" class.
  CHECK(card[F::DecodeWeightBytes] > 30e9);
  CHECK(card[F::DecodeWeightBytes] < 33e9);
  CHECK(card[F::DecodeStepFloor] >= 0.40e-3);
  CHECK(card[F::DecodeStepFloor] <= 0.50e-3);
}

TEST_CASE("V4.1 Flash: decode step floor on 8xB200 at MBU 1 and 0.7") {
  Scenario s = preset("v41-flash-8xb200");
  const double kv = 3 * 65536.0 * 68 + 131072.0 * 68 + 4 * 16384.0 * 68 + 38 * 512.0 * 288 + 40 * 128.0 * 528;
  const double w = 12.4797952e9;
  Values v = values(s);
  CHECK(v[F::DecodeKvBytes] == Approx(kv));
  CHECK(v[F::DecodeStepFloor] == Approx(0.5e-6 + (w + kv) / (64e12 * 0.7)).epsilon(1e-5));
  CHECK(v[F::DecodeWeightShare] == Approx(w / (w + kv)).epsilon(1e-5));
  CHECK(v[F::DecodeWeightShare] > 0.99);
  set(s, "mbu", "1");
  v = values(s);
  CHECK(v[F::DecodeWeightBytes] / 64e12 == Approx(0.195e-3).epsilon(1e-3));
  CHECK(v[F::DecodeStepFloor] == Approx(0.195e-3).epsilon(0.01));
}

TEST_CASE("distinct experts per layer at batch B (FACTS 1.4.7)") {
  Scenario s = preset("v41-flash-8xb200");
  const std::pair<const char*, double> cases[] = {{"1", 6.0}, {"8", 45.5}, {"32", 152.0}, {"128", 332.8}, {"256", 377.2}};
  for (const auto& [b, want] : cases) {
    set(s, "batch", b);
    CHECK(values(s)[F::DecodeDistinctExperts] == Approx(want).epsilon(0.002));
  }
  set(s, "batch", "128");
  // Routed bytes at B=128: 250.3 GB (calc_output) plus the fixed dense part.
  const double fixed = 12.4797952e9 - 4.5121536e9;
  CHECK(values(s)[F::DecodeWeightBytes] - fixed == Approx(250.3e9).epsilon(0.001));
}

TEST_CASE("top-k slice (card definition) and physical sparse gather") {
  const Values card = values(preset("v41-flash-card"));
  CHECK(card[F::TopkSliceBytes] == Approx(512.0 * 890));
  CHECK(card[F::TopkSliceTime] == Approx(56.96e-9).epsilon(1e-3));
  CHECK(card[F::GatherBytes] == Approx(38.0 * 512 * 288));
  CHECK(card[F::GatherTime] == Approx(0.700416e-6).epsilon(1e-5));
}

TEST_CASE("full-pool index scan grows with context, candidate pool stays flat") {
  Scenario s = preset("v41-flash-card");
  const std::pair<const char*, double> ctx[] = {{"8192", 8192}, {"131072", 131072}, {"1048576", 1048576}};
  for (const auto& [text, n] : ctx) {
    set(s, "ctx", text);
    const Values v = values(s);
    CHECK(v[F::IndexFullpoolBytes] == Approx(n * 170));
    // The pool holds at most the context: 2048 × 8 positions, or fewer in a short context.
    CHECK(v[F::IndexCandidateBytes] == Approx(4.0 * std::min(2048.0 * 8, n) * 68));
  }
  set(s, "ctx", "1048576");
  CHECK(values(s)[F::IndexFullpoolTime] == Approx(1048576.0 * 170 / 8e12).epsilon(1e-9));
}

TEST_CASE("SWA restore per layer and per session, pool capacity (FACTS 4 #13)") {
  Scenario s = preset("v41-flash-8xb200");
  Values v = values(s);
  CHECK(v[F::SwaRestoreSessionTime] - 1.5e-6 == Approx(42.24e-6).epsilon(1e-3));
  CHECK(v[F::SwaRestoreLayerTime] - 1.5e-6 == Approx(1.056e-6).epsilon(1e-3));
  CHECK(v[F::SwaPoolSessions] == Approx(73982.0).epsilon(1e-4));
  set(s, "host_link", "pcie6");
  CHECK(values(s)[F::SwaRestoreSessionTime] - 1.5e-6 == Approx(21.12e-6).epsilon(1e-3));
  set(s, "host_gbps", "900");
  CHECK(values(s)[F::SwaRestoreSessionTime] - 1.5e-6 == Approx(3.0e-6).epsilon(2e-3));
  CHECK(v[F::SwaWindowTime] == Approx(2703360.0 / (8e12 * 0.7)));
}

TEST_CASE("bounded replay: 4.19 TFLOP and its time on 8xB200") {
  Scenario s = preset("v41-flash-8xb200");
  Values v = values(s);
  CHECK(v[F::ReplayFlop] == Approx(4.19229073408e12).epsilon(1e-4));
  CHECK(v[F::ReplayTime] == Approx(116e-6).epsilon(0.01));
  set(s, "compute", "fp4");
  CHECK(values(s)[F::ReplayTime] == Approx(58e-6).epsilon(0.01));
  set(s, "mbu", "1");
  CHECK(values(s)[F::ReplayTimeStandalone] == Approx(194.9968e-6).epsilon(1e-4));
}

TEST_CASE("Engram: bytes per token, table footprint, fetch and stall") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::EngramBytesPerToken] == Approx(12672.0));
  CHECK(v[F::EngramTableBytes] == Approx(202.755e9).epsilon(1e-4));
  CHECK(v[F::EngramParams] == Approx(196.611e9).epsilon(1e-4));
  CHECK(v[F::EngramFetchTime] == Approx(1.75e-6 + 12672.0 / 50e9));
  CHECK(v[F::EngramStall] == 0.0);  // the fetch hides behind layer 0
}

TEST_CASE("sessions that fit in HBM (FACTS 4 #11, calc.py assumptions)") {
  Scenario s = preset("v41-flash-8xb200");
  CHECK(values(s)[F::HbmSessions] == Approx(6314.73).epsilon(1e-4));
  set(s, "ctx", "1048576");
  CHECK(values(s)[F::HbmSessions] == Approx(805.30).epsilon(1e-4));
  Scenario h = preset("v41-flash-8xh200");
  CHECK(values(h)[F::HbmSessions] == Approx(3962.13).epsilon(1e-4));
  // Engram tables moved to host DRAM free 202.8 GB of HBM for KV.
  set(s, "engram_home", "dram");
  CHECK(values(s)[F::HbmKvBudget] == Approx(753.71e9 + 202.758e9).epsilon(1e-4));
}

TEST_CASE("SSD prefix hit: latency + bytes / bottleneck, against recompute") {
  Scenario s = preset("v41-flash-8xb200");
  set(s, "prefix_hit", "1024");
  set(s, "ssd_count", "1");
  set(s, "lat_ssd_us", "0");
  CHECK(values(s)[F::PrefixSsdHitTime] == Approx(65.1e-6).epsilon(1e-3));
  set(s, "lat_ssd_us", "60");
  CHECK(values(s)[F::PrefixSsdHitTime] == Approx(125.1e-6).epsilon(1e-3));
  set(s, "ssd_count", "8");  // 112 GB/s of drives, capped by the 64 GB/s host link
  CHECK(values(s)[F::PrefixSsdHitTime] == Approx(60e-6 + 1024.0 * 890 / 64e9).epsilon(1e-6));
  CHECK(values(s)[F::PrefixRecomputeTime] > values(s)[F::PrefixSsdHitTime]);
}

TEST_CASE("prefill FLOP: 2 x active prefill weights per token plus attention and indexer") {
  Scenario s = preset("v41-flash-8xb200");
  Computed c;
  compute_values(s, c);
  CHECK(c.terms.prefill_flop_weights / 8192 == Approx(2 * (8.18806784e9 - 129280.0 * 5120)).epsilon(1e-6));
  CHECK(c.values[F::PrefillFlop] > c.terms.prefill_flop_weights);
  CHECK(c.values[F::PrefillTime] == Approx(c.values[F::PrefillFlop] / 36e15));
}

TEST_CASE("cost of a turn with and without cache hits (FACTS 3 prices)") {
  const Values v = values(preset("v41-flash-8xb200"));
  CHECK(v[F::CostTurnMiss] == Approx((8192 * 0.30 + 1024 * 1.20) / 1e6));
  CHECK(v[F::CostTurnHit] == Approx((1024 * 0.30 + 7168 * 0.006 + 1024 * 1.20) / 1e6));
}

TEST_CASE("other presets: published per-token KV sizes and parameter counts") {
  const Values v4 = values(preset("v4-flash-8xb200"));
  CHECK(v4[F::KvMainEntry] == Approx(584.0));
  CHECK(v4[F::KvGlobalPerToken] == Approx((21.0 / 4 + 20.0 / 128) * 584 + 21.0 / 4 * 68));
  CHECK(values(preset("v41-flash-8xb200"))[F::KvGlobalPerToken] / v4[F::KvGlobalPerToken] == Approx(0.2533).epsilon(1e-3));
  CHECK(v4[F::ParamsTotal] == Approx(284e9).epsilon(0.01));
  CHECK(v4[F::ParamsActiveDecode] == Approx(13e9).epsilon(0.05));
  const Values v3 = values(preset("deepseek-v3-8xh200"));
  CHECK(v3[F::KvGlobalPerToken] == Approx(70272.0));
  CHECK(v3[F::ParamsTotal] == Approx(671e9).epsilon(0.01));
  CHECK(v3[F::ParamsActiveDecode] == Approx(37e9).epsilon(0.03));
  const Values ll = values(preset("llama3-70b-8xh100"));
  CHECK(ll[F::KvGlobalPerToken] == Approx(327680.0));
  CHECK(ll[F::ParamsTotal] == Approx(70.6e9).epsilon(0.01));
  CHECK(ll[F::DecodeDistinctExperts] == 0.0);
  CHECK(ll[F::KvSwaPerSession] == 0.0);
}

TEST_CASE("closed form: a 1M context and 100k sessions stay finite and scale linearly") {
  Scenario s = preset("v41-flash-8xb200");
  set(s, "ctx", "1048576");
  const double one = values(s)[F::DecodeKvBytes];
  set(s, "batch", "100000");
  const Values v = values(s);
  CHECK(v[F::DecodeKvBytes] == Approx(100000 * one));
  CHECK(v[F::DecodeDistinctExperts] == Approx(384.0));
  for (double x : v.v) CHECK(std::isfinite(x));
}

TEST_CASE("per-layer modes: ownership is derived, edits change the figures") {
  Scenario s = preset("v41-flash-8xb200");
  CHECK(kv_source_of(s.model, 24) == 20);
  CHECK(kv_source_of(s.model, 7) == 2);
  CHECK(kv_source_of(s.model, 1) == -1);
  CHECK(layers_to_text(s.model) == "SSF2UUUUUF2UUUUUF2UUUUUFUUUIUUUIUUUIUUUIUUU");  // ratio 1 implied
  // Layer 24 Reindex → Reuse: one fewer candidate-pool indexer.
  s.model.layers[24].mode = LayerMode::Reuse;
  CHECK(values(s)[F::IndexCandidateBytes] == Approx(3.0 * 16384 * 68));
  // Layer 8 stops owning KV: its ratio-2 entries leave the per-token total.
  s.model.layers[8].mode = LayerMode::Reuse;
  CHECK(values(s)[F::KvGlobalPerToken] == Approx(890.0 - 178.0));
  CHECK(validate(s).empty());
  // A Reuse layer with no source before it is rejected.
  s.model.layers[0].mode = LayerMode::Reuse;
  const Errors e = validate(s);
  REQUIRE_FALSE(e.empty());
  CHECK(e[0].code == ErrorCode::Inconsistent);
  CHECK(e[0].field == "modes");
}
