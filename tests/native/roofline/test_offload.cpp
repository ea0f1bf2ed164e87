// Offload or recompute: a prefix hit reloaded from host DRAM or SSD against recomputing it (roofline/offload.h,
// topic_offload.cpp). The sign of the change follows the path the reload climbs and the store's own costs,
// and the flips the figures report are where the change really crosses zero.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "model/kv_store.h"
#include "model/layers.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

namespace {

// Every figure, the flips' searches too.
Values with_flips(const Scenario& s) {
  LayerPlan plan;
  plan_layers(s.model, plan);
  Computed c;
  compute_values(s, plan, c, kScopeAll | kScopeOffload);
  return c.values;
}

std::string text(double x) { return std::to_string(x); }

}  // namespace

TEST_CASE("offload: a slow drive makes an SSD reload hurt and a fast one help, while host DRAM helps in both") {
  Scenario s = preset("llama31-70b-8xh100");
  set(s, "prompt", "8192");
  set(s, "prefix_hit", "7168");
  set(s, "ssd_count", "1");
  set(s, "ssd_gbps", "1");
  const Values slow = values(s);
  set(s, "ssd_gbps", "100");
  const Values fast = values(s);
  CHECK(slow[F::OffloadChangeSsd] > 0);
  CHECK(fast[F::OffloadChangeSsd] < 0);
  CHECK(slow[F::OffloadChangeDram] < 0);
  CHECK(slow[F::OffloadChangeDram] == Approx(fast[F::OffloadChangeDram]));
  // The change is each tier's TTFT against recomputing the whole prompt.
  CHECK(slow[F::OffloadChangeSsd] == Approx(slow[F::OffloadTtftSsd] / slow[F::OffloadTtftOff] - 1));
  // A hit still in HBM is never slower than one reloaded.
  CHECK(fast[F::OffloadTtftHbm] <= fast[F::OffloadTtftDram]);
  CHECK(fast[F::OffloadTtftDram] <= fast[F::OffloadTtftSsd]);
}

TEST_CASE("offload: the flip in hit length is where the change in TTFT really crosses zero") {
  Scenario s = preset("v41-flash-8xb200");
  const Values v = with_flips(s);
  const double flip = v[F::OffloadFlipHitSsd];
  REQUIRE(flip > 0);
  REQUIRE(flip < s.work.prompt);
  // Hits of the same prompt 20 % shorter and 25 % longer than the flip: the change has one sign on each side.
  auto change_at = [&](double hit) {
    Scenario t = s;
    set(t, "prefix_hit", text(std::round(hit)).c_str());
    return values(t)[F::OffloadChangeSsd];
  };
  const double below = change_at(0.8 * flip), above = change_at(1.25 * flip);
  CHECK((below < 0) != (above < 0));
  // Here the short side hurts: LMCache reads a file per 256-token chunk per rank, a fixed cost each that a
  // short hit cannot spread over enough recomputation it saves.
  CHECK(below > 0);
  CHECK(above < 0);
}

TEST_CASE("offload: the flip in load is where a reload that helps alone starts to hurt") {
  Scenario s = preset("v41-flash-8xb200");
  const Values v = with_flips(s);
  const double flip = v[F::OffloadFlipLoadSsd];
  REQUIRE(flip > 0);
  REQUIRE(flip < 0.9);
  Scenario light = s, heavy = s;
  set(light, "prefill_load", text(flip * 0.8).c_str());
  set(heavy, "prefill_load", text(flip * 1.25).c_str());
  const double a = values(light)[F::OffloadChangeSsd], b = values(heavy)[F::OffloadChangeSsd];
  CHECK((a < 0) != (b < 0));
  // With no load at all the reload helps: the hurt comes from the queue the load builds.
  CHECK(values(s)[F::OffloadChangeSsd] < 0);
}

TEST_CASE("offload: a shared PCIe switch and host memory slow the upload as the load grows") {
  // One GPU per instance: the other GPU behind its PCIe switch belongs to another instance, loading as often
  // as the load says.
  Scenario s = preset("llama31-8b-1xh100");
  set(s, "prefill_load", "0");
  const double alone = values(s)[F::OffloadUploadRate];
  set(s, "prefill_load", "0.9");
  const double busy = values(s)[F::OffloadUploadRate];
  CHECK(busy < alone);
  CHECK(busy == Approx(alone / 1.9));  // the switch's uplink shared with the neighbour 90 % of the time
  // A switch of its own: only the offloads running the other way are left to take their share.
  set(s, "pcie_share", "1");
  const double own = values(s)[F::OffloadUploadRate];
  CHECK(own > busy);
  CHECK(own == Approx(alone * (1 - 0.9 * (1 - kDuplexShare))));
}

TEST_CASE("offload: HiCache's file backend reads each rank's pages one after another, so its SSD hit hurts a short prompt however fast the drives") {
  // MiniMax-M2.5 at TP8, an 8K prompt with 90 % of it cached: the run of sglang#26305 at 16 clients. Each rank
  // reads its page files in turn at one reader's rate, so eight ranks move 9.6 GB/s whatever the drives give.
  Scenario s = preset("minimax-m25-8xh200");
  set(s, "gpus", "8");
  set(s, "tp", "8");
  set(s, "engine", "sglang");
  set(s, "kv_fmt", "fp8");
  set(s, "prompt", "8192");
  set(s, "prefix_hit", "7373");
  set(s, "ssd_gbps", "100");
  set(s, "kv_store", "hicache");
  const Values file = values(s);
  CHECK(file[F::OffloadSsdRate] < 8 * 1.2e9);
  CHECK(file[F::OffloadChangeSsd] > 0);
  // Mooncake's store, loaded through the same HiCache layer by layer, reads its SSD tier 16 objects at a time
  // at the drives' rate: on the same drives it helps.
  set(s, "kv_store", "mooncake");
  const Values parallel = values(s);
  CHECK(parallel[F::OffloadSsdRate] > 8 * 1.2e9);
  CHECK(parallel[F::OffloadChangeSsd] < 0);
  // The readers are the ranks: half the ranks read the same hit at half the rate.
  set(s, "kv_store", "hicache");
  set(s, "gpus", "4");
  set(s, "tp", "4");
  const Values four = values(s);
  CHECK(four[F::PrefixSsdReadTime] > 1.8 * file[F::PrefixSsdReadTime]);
  // A host-DRAM hit never meets the readers: HiCache's L2 still helps.
  CHECK(file[F::OffloadChangeDram] < 0);
}

TEST_CASE("offload: the serial readers cap the SSD hop only when they are slower than the drives") {
  Scenario s = preset("minimax-m25-8xh200");
  set(s, "gpus", "8");
  set(s, "tp", "8");
  set(s, "engine", "sglang");
  set(s, "kv_store", "hicache");
  set(s, "prompt", "8192");
  set(s, "prefix_hit", "7373");
  // One slow drive (2 GB/s) is below eight readers' 9.6 GB/s: the drive sets the rate again.
  set(s, "ssd_count", "1");
  set(s, "ssd_gbps", "2");
  const Values slow = values(s);
  CHECK(slow[F::OffloadSsdRate] < 2e9);
  set(s, "ssd_gbps", "4");
  const Values faster = values(s);
  CHECK(faster[F::OffloadSsdRate] > slow[F::OffloadSsdRate]);
}

TEST_CASE("offload: ranks that each hold the whole MLA latent each read all of it, so HiCache's file hit comes at one reader's rate") {
  Scenario s = preset("deepseek-v3-8xh200");
  set(s, "engine", "sglang");
  set(s, "kv_store", "hicache");
  set(s, "prompt", "32768");
  set(s, "prefix_hit", "30000");
  const Values v = values(s);
  CHECK(v[F::OffloadSsdRate] < 1.2e9);
  CHECK(v[F::OffloadSsdRate] > 1.0e9);
}
