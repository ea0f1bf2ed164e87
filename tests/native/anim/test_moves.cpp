// The paths that move KV between nodes and tiers: the prefill→decode hand-off and the offload reload last what
// their figures say and carry the figures' bytes; the prefix-cache path draws the move from the tier that
// holds the hit (prefix_tier).
#include <catch2/catch.hpp>

#include <string>

#include "anim/ledger.h"
#include "base/text.h"
#include "scenario_helpers.h"

using namespace tierscope;
using anim::Endpoint;
using anim::PathId;
using F = model::FigureId;
using test::preset;
using test::set;

namespace {

const anim::LedgerEntry* find(const anim::Ledger& l, std::string_view step) {
  for (const auto& e : l.entries)
    if (e.step == step) return &e;
  return nullptr;
}

bool any_from(const anim::Ledger& l, Endpoint e) {
  for (const auto& x : l.entries)
    if (x.from == e) return true;
  return false;
}

// Σ durations of the entries of a phase that are not overlapped, and Σ of every entry's bytes.
double critical(const anim::Ledger& l, std::string_view phase = "") {
  double t = 0;
  for (const auto& e : l.entries)
    if (!e.overlapped && e.phase == phase) t += e.duration;
  return t;
}
double bytes(const anim::Ledger& l) {
  double b = 0;
  for (const auto& e : l.entries) b += e.bytes;
  return b;
}

}  // namespace

TEST_CASE("pd-handoff: the KV crosses the NIC into the decode node's HBM — bytes are pd.kv_bytes, the wait after the prefill is pd.transfer_time") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "pd_link", "nic");
  for (const char* overlap : {"off", "layer"}) {
    INFO(overlap);
    set(s, "pd_overlap", overlap);
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::Handoff);
    const auto* prefill = find(l, "prefill");
    const auto* send = find(l, "send-pages");
    REQUIRE(prefill);
    REQUIRE(send);
    CHECK(prefill->duration == f[F::PrefillTime].value);
    CHECK(send->from == Endpoint::Nic);
    CHECK(send->to == Endpoint::PeerHbm);
    CHECK(find(l, "transfer-setup")->to == Endpoint::Nic);
    // Every byte that crosses is counted once; the first token waits the prefill, then pd.transfer_time.
    CHECK(bytes(l) == Approx(f[F::PdKvBytes].value).epsilon(1e-12));
    CHECK(critical(l) - prefill->duration == Approx(f[F::PdTransferTime].value).epsilon(1e-12));
    const auto* push = find(l, "push-during-prefill");
    if (std::string(overlap) == "layer") {
      // The layer-wise push sends what the prefill covers: the transfer on its own is pd.wire_time.
      REQUIRE(push);
      CHECK(push->overlapped);
      CHECK(push->duration + find(l, "post-descriptors")->duration + send->duration == Approx(f[F::PdWireTime].value).epsilon(1e-12));
      CHECK(f[F::PdTransferTime].value < f[F::PdWireTime].value);
    } else {
      CHECK(push == nullptr);
    }
    // The descriptors' entry names the pages the figure counts.
    CHECK(find(l, "post-descriptors")->sentence.find(model::num(f[F::PdPages].value) + " pages") != std::string::npos);
  }
}

TEST_CASE("pd-handoff: an MLA latent is sent once to each decode rank, GQA heads kept on several GPUs once per copy") {
  {
    const model::Scenario s = preset("v41-flash-8xb200");
    const auto l = anim::build_ledger(s, PathId::Handoff);
    CHECK(find(l, "send-pages")->sentence.find("sent once to each of the") != std::string::npos);
  }
  model::Scenario s = preset("llama31-70b-8xh100");
  set(s, "pd_link", "nic");
  set(s, "tp", "16");
  const model::Figures f = model::describe(s);
  REQUIRE(s.model.kv_heads < 16);
  const auto l = anim::build_ledger(s, f, PathId::Handoff);
  CHECK(find(l, "send-pages")->sentence.find("copies") != std::string::npos);
  CHECK(bytes(l) == Approx(f[F::PdKvBytes].value).epsilon(1e-12));
}

TEST_CASE("pd-handoff: inside one NVLink domain no NIC is crossed") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "pd_link", "nvlink");
  const auto l = anim::build_ledger(s, PathId::Handoff);
  for (const auto& e : l.entries) {
    CHECK(e.from != Endpoint::Nic);
    CHECK(e.to != Endpoint::Nic);
  }
  CHECK(find(l, "send-pages")->to == Endpoint::PeerHbm);
}

TEST_CASE("offload-reload: the SSD arm lasts offload.ttft_ssd, its bytes are the store's read and one GPU's upload, recompute cites the flip") {
  for (const char* name : {"v41-flash-8xb200", "llama31-70b-8xh100"}) {
    for (const char* load : {"0", "0.6"}) {
      INFO(name << " load " << load);
      model::Scenario s = preset(name);
      set(s, "prefill_load", load);
      const model::Figures f = model::describe(s);
      const auto l = anim::build_ledger(s, f, PathId::OffloadReload);
      const auto* stage = find(l, "stage-ssd-dram");
      const auto* up = find(l, "upload");
      const auto* re = find(l, "recompute");
      REQUIRE(stage);
      REQUIRE(up);
      REQUIRE(re);
      CHECK(stage->from == Endpoint::Ssd);
      CHECK(stage->to == Endpoint::Dram);
      CHECK(up->from == Endpoint::Dram);
      CHECK(up->to == Endpoint::Hbm);
      CHECK(stage->bytes == f[F::OffloadHitBytes].value);
      // One GPU's share as the store keeps it (copies and full-length windows included), as prefix.upload_time quotes it.
      CHECK(up->bytes == f.computed.terms.prefix_hops.gpu_bytes);
      CHECK(f[F::PrefixUploadTime].formula().find(model::human(up->bytes, "B")) != std::string::npos);
      CHECK(stage->duration == f[F::PrefixSsdReadTime].value);
      CHECK(up->duration == f[F::PrefixUploadTime].value);
      CHECK(critical(l, "ssd") == Approx(f[F::OffloadTtftSsd].value).epsilon(1e-9));
      CHECK(re->duration == f[F::OffloadTtftOff].value);
      const double flip = f[F::OffloadFlipHitSsd].value;
      CHECK(re->sentence.find(flip > 0 ? model::num(flip) + " hit tokens" : std::string("at every hit length")) != std::string::npos);
    }
  }
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "prefix_hit", "0");
  const auto none = anim::build_ledger(s, PathId::OffloadReload);
  CHECK(none.entries.empty());
  CHECK_FALSE(none.note.empty());
}

TEST_CASE("prefix-cache: the move starts from the tier that holds the hit — HBM moves nothing, DRAM reads no SSD") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "prefix_tier", "hbm");
  {
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::PrefixCache);
    REQUIRE(find(l, "hit-hbm"));
    CHECK(find(l, "hit-hbm")->duration == 0);
    CHECK_FALSE(any_from(l, Endpoint::Ssd));
    CHECK_FALSE(any_from(l, Endpoint::Dram));
    CHECK(l.start[static_cast<int>(anim::ObjectKind::GlobalKv)].tokens == std::min(s.work.prefix_hit, s.work.prompt));
  }
  set(s, "prefix_tier", "dram");
  {
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::PrefixCache);
    CHECK(find(l, "promote-ssd-dram") == nullptr);
    CHECK_FALSE(any_from(l, Endpoint::Ssd));
    const auto* up = find(l, "promote-dram-hbm");
    REQUIRE(up);
    CHECK(up->duration == f[F::PrefixHitTime].value);
    CHECK(up->sentence.find("nothing is read from SSD") != std::string::npos);
    CHECK(l.start[static_cast<int>(anim::ObjectKind::PrefixCache)].tier == Endpoint::Dram);
  }
  set(s, "prefix_tier", "ssd");
  {
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::PrefixCache);
    REQUIRE(find(l, "promote-ssd-dram"));
    CHECK(find(l, "promote-ssd-dram")->duration + find(l, "promote-dram-hbm")->duration == Approx(f[F::PrefixHitTime].value));
  }
  // Left to the figures (auto), the ledger reads from the tier they chose.
  set(s, "prefix_tier", "auto");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::PrefixCache);
  CHECK((find(l, "promote-ssd-dram") != nullptr) == (f.computed.terms.prefix_from == model::PrefixTier::Ssd));
  CHECK((find(l, "hit-hbm") != nullptr) == (f.computed.terms.prefix_from == model::PrefixTier::Hbm));
}
