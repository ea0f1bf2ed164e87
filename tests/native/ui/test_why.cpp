// The inspector's "why here" words: each object's first line states how often it is read and what the
// next tier out would cost, with the scenario's own numbers; an empty host DRAM says what it would hold.
#include <catch2/catch.hpp>

#include <string>

#include "ui/why.h"
#include "base/text.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope;
using anim::Endpoint;
using anim::ObjectKind;
using F = model::FigureId;

namespace {

model::Scenario preset(const char* name) {
  model::Scenario s;
  REQUIRE(model::make_preset(name, s));
  return s;
}

std::string text(const model::Figures& f, F id) { return model::display_value(f[id].value, f[id].unit); }

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("why the weights and the global KV sit in HBM: read every step, and the host link would take far longer") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const double host = f[F::HwHostLinkBw].value;

  const auto w = ui::why_here(ObjectKind::MoeWeights, Endpoint::Hbm, s, f);
  REQUIRE(w.size() == 2);
  CHECK(has(w[0], "Read every decode step"));
  CHECK(has(w[0], text(f, F::DecodeWeightBytes)));
  CHECK(has(w[0], text(f, F::HwHostLinkBw)));
  CHECK(has(w[0], model::human(f[F::DecodeWeightBytes].value / host, "s") + " per step from host DRAM"));
  CHECK(has(w[0], "so the weights stay in HBM"));
  CHECK(has(w[1], text(f, F::HbmWeightsPerGpu)));

  const auto kv = ui::why_here(ObjectKind::GlobalKv, Endpoint::Hbm, s, f);
  REQUIRE(kv.size() == 2);
  CHECK(has(kv[0], text(f, F::DecodeKvBytes)));
  CHECK(has(kv[0], model::human(f[F::DecodeKvBytes].value / host, "s") + " per step from host DRAM"));
  CHECK(has(kv[0], "stays in HBM"));
  CHECK(has(kv[1], "going quiet"));
  CHECK(has(kv[1], text(f, F::ResumeKvReloadTime)));
}

TEST_CASE("why the Engram tables and the prefix cache sit where they do, with the scenario's numbers") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto e = ui::why_here(ObjectKind::EngramTables, Endpoint::Hbm, s, f);
  REQUIRE(e.size() == 2);
  CHECK(has(e[0], text(f, F::EngramBytesPerToken) + " per token"));
  CHECK(has(e[0], text(f, F::EngramFetchTime)));
  // In HBM on this preset: what host DRAM would cost for one token's rows (latency + bytes over the link).
  const double from_dram = f[F::HwHostLatency].value + f[F::EngramBytesPerToken].value / f[F::HwHostLinkBw].value;
  CHECK(has(e[1], "Kept in HBM"));
  CHECK(has(e[1], model::human(from_dram, "s")));

  // The H200 preset keeps the tables in host DRAM, and says why.
  const model::Scenario h = preset("v41-flash-8xh200");
  const model::Figures fh = model::describe(h);
  const auto eh = ui::why_here(ObjectKind::EngramTables, Endpoint::Dram, h, fh);
  REQUIRE(eh.size() == 2);
  CHECK(has(eh[1], "Kept in host DRAM"));
  CHECK(has(eh[1], text(fh, F::EngramTableBytes)));

  const auto p = ui::why_here(ObjectKind::PrefixCache, Endpoint::Ssd, s, f);
  REQUIRE(p.size() == 2);
  CHECK(has(p[0], "Read once per returning turn"));
  CHECK(has(p[0], text(f, F::PrefixHitBytes)));
  CHECK(has(p[0], text(f, F::PrefixHitTime)));
  CHECK(has(p[0], text(f, F::PrefixRecomputeTime)));
  CHECK(has(p[1], text(f, F::SsdCapacity)));
}

TEST_CASE("an empty host DRAM says it holds nothing now, what it would hold and why this model leaves it empty") {
  const model::Scenario s = preset("llama31-70b-8xh100");
  REQUIRE(s.model.n_win == 0);
  REQUIRE(s.model.engram_count == 0);
  const model::Figures f = model::describe(s);
  const auto d = ui::why_empty(Endpoint::Dram, s, f);
  REQUIRE(d.size() == 3);
  CHECK(d[0] == "Holds nothing for this model now.");
  CHECK(has(d[1], text(f, F::HwHostDram) + " per node"));
  CHECK(has(d[1], "keeps no sliding window"));
  CHECK(has(d[1], "this model has none"));
  CHECK(has(d[2], text(f, F::PrefixHitBytes)));
  CHECK(ui::why_here(ObjectKind::Tokens, Endpoint::Tokens, s, f).empty());
}
