// Each source text agrees with the value it speaks for: where a preset input's text, an engine default's text,
// a GPU row's source or a scheduler default's source quotes its own value, the number quoted is the number in
// force (read from the code, never typed here). A constant changed without its text fails, naming both.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/engine.h"
#include "model/params.h"
#include "model/presets.h"
#include "quoted_numbers.h"
#include "roofline/topics.h"

using namespace tierscope::model;
namespace testing = tierscope::testing;

namespace {

std::string source_of(const Scenario& s, std::string_view key) { return input_provenance(s, key).source; }

Scenario on(const char* preset, GpuKind gpu, EngineKind engine) {
  Scenario s;
  REQUIRE(make_preset(preset, s));
  s.hw.gpu = gpu;
  s.engine.kind = engine;
  return s;
}

constexpr GpuKind kOneOfEach[] = {gpu_kind("h100"), gpu_kind("b200"), gpu_kind("mi300x")};  // Hopper, Blackwell, CDNA

}  // namespace

TEST_CASE("provenance numbers: a text's quoted numbers are read as a reader reads them") {
  using testing::quoted_numbers;
  const auto values = [](std::string_view t) {
    std::vector<double> v;
    for (const auto& q : quoted_numbers(t)) v.push_back(q.hi == q.lo ? q.lo : -q.hi);
    return v;
  };
  CHECK(values("H100 at 1,979 TF FP8, MI300X and EP32 (FACTS §2.1, #19)") == std::vector<double>{1979});
  CHECK(values("46-48 µs; 0.109–0.115; 2.3 µs") == std::vector<double>{-48, -0.115, 2.3});
  CHECK(values("a 128K context, 1K/1K") == std::vector<double>{131072, 1024, 1024});
  CHECK(testing::quotes_value("46-48 µs", 47));
  CHECK_FALSE(testing::quotes_value("MI300X with 256 GB", 300));
  CHECK(testing::contains(testing::quoted_with("8 × 900 GB/s per direction, 4.5 PF FP8", "PF FP8"), 4.5));
  CHECK_FALSE(testing::contains(testing::quoted_with("8 × 900 GB/s per direction, 4.5 PF FP8", "PF FP8"), 8));
}

TEST_CASE("provenance numbers: a preset input's text that quotes numbers quotes its own value") {
  // Inputs whose texts speak for their values, with the scale from the parameter's unit to the text's (a
  // share quoted in %, GB/s quoted as the NIC's Gb/s).
  const std::pair<const char*, double> keys[] = {
      {"ctx", 1}, {"prompt", 1}, {"output", 1}, {"prefix_hit", 1}, {"chunk", 1}, {"hbm_usable", 1}, {"workspace_gb", 1},
      {"ar_lat_us", 1}, {"ar_rdma_lat_us", 1}, {"a2a_lat_us", 1}, {"a2a_rdma_lat_us", 1}, {"spec_accept", 1}, {"eplb_residual", 1},
      {"retention_h", 1}, {"ssd_dwpd", 1}, {"link_eff", 100}, {"swa_pool", 100}, {"wm_high", 100}, {"wm_low", 100}, {"day_amp", 100},
      {"nic_gbps", 8}};
  int checked = 0;
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    for (const auto& [key, scale] : keys) {
      const ParamDef* d = find_param(key);
      REQUIRE(d);
      double value = 0;
      if (!read_number(get_param_text(s, *d), value) || value == 0) continue;  // 0: the catalog's or the engine's, checked below
      const std::string text = source_of(s, key);
      if (testing::quoted_numbers(text).empty()) continue;  // a text that quotes no number (a URL, a section)
      INFO(p.name << " " << key << "=" << value << ": " << text);
      CHECK(testing::quotes_value(text, value * scale, 1e-6));
      ++checked;
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("provenance numbers: the engine defaults' texts quote the engine profiles' values, per engine and generation") {
  const Scenario base = on("v41-flash-8xb200", gpu_kind("b200"), EngineKind::Vllm);
  const std::string launch = source_of(base, "kernel_us"), ramp = source_of(base, "kernel_ramp_us"), graphs = source_of(base, "cuda_graphs");
  const std::string host = source_of(base, "host_per_seq_us"), step = source_of(base, "host_us"), gemm = source_of(base, "gemm_bw_eff");
  const std::string attn = source_of(base, "attn_bw_eff"), topk = source_of(base, "topk_gkeys");
  for (int e = 0; e < static_cast<int>(EngineKind::Count); ++e) {
    for (const GpuKind g : kOneOfEach) {
      const EngineKind ek = static_cast<EngineKind>(e);
      const GpuGen gen = gpu_gen(g);
      const EngineProfile& p = engine_profile(ek, gen);
      INFO(engine_label(ek) << " on " << gpu_info(g).key);
      CHECK(testing::quotes_value(launch, p.kernel_graph_us));
      CHECK(testing::quotes_value(launch, p.kernel_eager_us));
      CHECK(testing::quotes_value(launch, p.prefill_host_us));  // a prompt pass's kernel, dispatched by the host
      CHECK(testing::contains(testing::quoted_with(p.prefill_source, "µs"), p.prefill_host_us));
      CHECK(testing::quotes_value(ramp, p.kernel_ramp_us));
      CHECK(testing::quotes_value(graphs, p.graph_max_batch));
      CHECK(testing::quotes_value(host, p.host_per_seq_us));
      CHECK(testing::quotes_value(host, p.host_res_us / 1000));  // in ms
      CHECK(testing::quotes_value(step, p.host_us / 1000));
      CHECK(testing::quotes_value(step, p.host_per_seq_us));
      for (const double v : {p.gemm.bw_eff, p.gemm.flop_eff, p.expert.bw_eff, p.expert.flop_eff, p.gemm.m_half}) CHECK(testing::quotes_value(gemm, v));
      if (p.gemm_fp4_bw > 0) CHECK(testing::quotes_value(gemm, p.gemm_fp4_bw));
      if (gen != GpuGen::Cdna) {  // the attention text says CDNA is assumed, without numbers
        for (const double v : {p.mla_bw, p.mla_flop, p.paged_bw, p.index_bw, p.index_flop}) CHECK(testing::quotes_value(attn, v));
      }
      // The top-k select's rate in G scores/s.
      const Scenario s = on("v41-flash-8xb200", g, ek);
      CHECK(testing::contains(testing::quoted_with(topk, "G scores/s"), topics::topk_rate(s) / 1e9));
    }
  }
}

TEST_CASE("provenance numbers: a GPU row's source quotes the row's own capacity, link, rates and tray where it quotes them") {
  for (const GpuInfo& g : kGpus) {
    const std::string_view t = g.source;
    INFO(g.key << ": " << t);
    // Each field against the numbers the text puts before its unit; a text that quotes none for a field says
    // nothing of it.
    const auto speaks = [&](std::initializer_list<std::pair<const char*, double>> units, double value) {
      bool quoted = false, agrees = false;
      for (const auto& [unit, scale] : units) {
        const auto qs = testing::quoted_with(t, unit);
        quoted = quoted || !qs.empty();
        agrees = agrees || testing::contains(qs, value * scale, 1e-6);
      }
      return !quoted || agrees;
    };
    CHECK(speaks({{"GB as deployed", 1}, {"GB)", 1}}, g.hbm_gb));
    CHECK(speaks({{"GB/s per direction", 1}}, g.link_gbps));
    CHECK(speaks({{"PF FP8", 1}, {"TF FP8", 1000}}, g.fp8_pflops));
    CHECK(speaks({{"PF FP4", 1}, {"PF MXFP4", 1}}, g.fp4_pflops));
    CHECK(speaks({{"GPUs per compute tray", 1}}, g.node_gpus));
    // "FP8 4.5 PF; FP4 13-18 PF, 15 taken": the number after the format's name.
    for (const auto& [format, value] : {std::pair{"FP8 ", g.fp8_pflops}, std::pair{"FP4 ", g.fp4_pflops}}) {
      for (std::size_t at = t.find(format); at != std::string_view::npos; at = t.find(format, at + 1)) {
        const std::string_view rest = t.substr(at + 4);
        const auto qs = testing::quoted_numbers(rest.substr(0, rest.find(';')));
        if (qs.empty() || qs.front().begin != 0 || rest.substr(qs.front().end, 3) != " PF") continue;
        CHECK(testing::quotes_value(rest.substr(0, rest.find(';')), value));
      }
    }
  }
}
