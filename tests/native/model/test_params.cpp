// The parameter registry: an edit moves the fields that depend on it instead of refusing, and every input
// of every preset names its source (a changed one says override, down to the figures it feeds).
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <utility>

#include "model/engine.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

TEST_CASE("edits move dependent fields together instead of refusing") {
  Scenario s = preset("v41-flash-8xb200");
  Adjustments moved;
  Error e;
  REQUIRE(edit_param(s, *find_param("prompt"), "4096", moved, e));
  CHECK(s.work.prefix_hit == 4096);
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].field == "prefix_hit");
  CHECK(moved[0].from == "7168");
  moved.clear();
  REQUIRE(edit_param(s, *find_param("gpus"), "8", moved, e));  // TP4 → TP8 (all tensor parallel)
  CHECK(s.par.tp == 8);
  CHECK(s.par.dp == 1);
  CHECK(validate(s).empty());
  REQUIRE(edit_param(s, *find_param("dp"), "8", moved, e));
  CHECK(s.par.tp == 1);
  REQUIRE(edit_param(s, *find_param("gpus"), "16", moved, e));  // all data parallel stays so
  CHECK(s.par.dp == 16);
  CHECK(s.par.tp == 1);
  CHECK(validate(s).empty());
  REQUIRE(edit_param(s, *find_param("gpus"), "1", moved, e));
  CHECK(s.par.tp * s.par.dp == 1);
  CHECK(validate(s).empty());
}

TEST_CASE("provenance: every input of every preset names its source — a changed input says override") {
  for (const PresetInfo& p : presets()) {
    Scenario s;
    REQUIRE(make_preset(p.name, s));
    for (const ParamDef& d : params()) {
      INFO(p.name << " " << d.key);
      const InputProvenance ip = input_provenance(s, d.key);
      CHECK(ip.source.find("the model's default") == std::string::npos);
      CHECK_FALSE(ip.source.empty());
    }
  }
  Scenario s = preset("v41-flash-8xb200");
  edit(s, "mbu", "0.5");
  CHECK(input_provenance(s, "mbu").provenance == Provenance::Override);
  const Figures f = describe(s);
  CHECK(f[F::DecodeStepTime].provenance == Provenance::Override);
  CHECK(f[F::KvGlobalPerToken].provenance == Provenance::Paper);
  // No figure of another model claims V4.1's config as its source.
  const Figures l = describe(preset("llama31-70b-8xh100"));
  for (const Figure& x : l.list) {
    INFO(std::string(x.id));
    CHECK(figure_sources(l, x).find("DeepSeek-V4.1") == std::string::npos);
  }
}

// Keys come from links and files: a prefix, a longer word or a NUL inside never names a parameter.
TEST_CASE("params: find_param matches whole keys only") {
  REQUIRE(find_param("ctx") != nullptr);
  CHECK(std::string_view(find_param("ctx")->key) == "ctx");
  CHECK(find_param("ct") == nullptr);
  CHECK(find_param("ctxx") == nullptr);
  CHECK(find_param("") == nullptr);
  CHECK(find_param(std::string_view("ctx\0", 4)) == nullptr);
  CHECK(find_param(std::string_view("c\0x", 3)) == nullptr);
  for (const ParamDef& p : params()) CHECK(find_param(p.key) == &p);
}

// A GPU, a host link and a storage format are each one row of their catalog (catalogs.h): the row's key is
// the choice a link or `--set` names, and choosing it reads that row's facts and sources, never a neighbour's.
TEST_CASE("each catalog row is the choice its key names, with its own facts and source") {
  const ParamDef& gpu = *find_param("gpu");
  REQUIRE(gpu.enum_count == kGpuCount);
  for (int i = 0; i < kGpuCount; ++i) {
    const GpuInfo& row = kGpus[i];
    INFO(row.key);
    CHECK(param_allowed(gpu).find(row.key) != std::string::npos);
    Scenario s = preset("v41-flash-8xb200");
    Error e;
    REQUIRE(set_param_text(s, gpu, row.key, e));
    CHECK(&gpu_info(s.hw.gpu) == &row);
    CHECK(get_param_text(s, gpu) == row.key);
    CHECK(hbm_gb_per_gpu(s.hw) == row.hbm_gb);
    CHECK(gpu_gen(s.hw.gpu) == row.gen);
    CHECK(std::string(input_provenance(s, "hbm_gb").source) == row.source);  // 0: the catalog row's
    CHECK(gpu_index(row.key) == i);
    CHECK(std::string(row.label).size() > 0);
  }
  const ParamDef& link = *find_param("host_link");
  REQUIRE(link.enum_count == static_cast<int>(std::size(kLinks)));
  for (const LinkInfo& row : kLinks) {
    Scenario s = preset("v41-flash-8xb200");
    Error e;
    REQUIRE(set_param_text(s, link, row.key, e));
    CHECK(&link_info(s.hw.host_link) == &row);
    CHECK(host_gbps(s.hw) == row.gbps);
  }
  // Every GPU names its node's host link, and a row the catalog has.
  for (const GpuInfo& row : kGpus) {
    INFO(row.key);
    bool known = false;
    for (const LinkInfo& l : kLinks) known = known || std::string_view(l.key) == row.host_link;
    CHECK(known);
    CHECK(row.bf16_pflops > 0);
    if (row.fp8_pflops > 0) CHECK(row.bf16_pflops == Approx(row.fp8_pflops / 2).epsilon(0.02));  // BF16 at about half FP8
  }
  for (const char* key : {"kv_fmt", "experts_fmt", "engram_fmt"}) {
    const ParamDef& fmt = *find_param(key);
    REQUIRE(fmt.enum_count == static_cast<int>(std::size(kFormats)));
    for (const FormatInfo& row : kFormats) {
      Scenario s = preset("v41-flash-8xb200");
      Error e;
      REQUIRE(set_param_text(s, fmt, row.key, e));
      CHECK(&format_info(static_cast<NumFormat>(get_param_number(s, fmt))) == &row);
    }
  }
}

// Choosing a GPU as a person does brings its node's host link: Grace superchips (GH200, GB200, GB300) reach host
// DRAM over NVLink-C2C, A100 and L40S hosts over PCIe 4. A link set by hand stays, and a link's `gpu=` alone
// (set, not edit) moves nothing, so share links reopen exactly.
TEST_CASE("edit: gpu moves host_link to the part's node link when it was the old part's, and says so") {
  Scenario s = preset("v41-flash-8xb200");
  REQUIRE(s.hw.host_link == HostLink::Pcie5);
  const ParamDef& gpu = *find_param("gpu");
  for (const auto& [key, link] : std::initializer_list<std::pair<const char*, HostLink>>{
           {"gb200", HostLink::NvlinkC2c}, {"b200", HostLink::Pcie5}, {"gh200", HostLink::NvlinkC2c}, {"gb300", HostLink::NvlinkC2c},
           {"a100_80gb", HostLink::Pcie4}, {"l40s", HostLink::Pcie4}, {"h20", HostLink::Pcie5}}) {
    INFO(key);
    const HostLink before = s.hw.host_link;
    Adjustments moved;
    Error e;
    REQUIRE(edit_param(s, gpu, key, moved, e));
    CHECK(s.hw.host_link == link);
    if (before != link) {
      REQUIRE(moved.size() == 1);
      CHECK(moved[0].field == "host_link");
      CHECK(moved[0].to == kLinks[static_cast<int>(link)].key);
      CHECK(moved[0].why.find(kLinks[static_cast<int>(link)].label) != std::string::npos);
    } else {
      CHECK(moved.empty());
    }
  }
  // A host link chosen by hand (CXL memory) is kept when the GPU changes.
  edit(s, "host_link", "cxl");
  Adjustments moved;
  Error e;
  REQUIRE(edit_param(s, gpu, "gb200", moved, e));
  CHECK(s.hw.host_link == HostLink::Cxl);
  CHECK(moved.empty());
  // A link's key sets the GPU alone.
  Scenario l = preset("v41-flash-8xb200");
  set(l, "gpu", "gb200");
  CHECK(l.hw.host_link == HostLink::Pcie5);
}
