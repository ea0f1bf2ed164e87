// The card check: verdicts follow from computed values, and change when the scenario changes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/card_check.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope::model;

namespace {
const CardRow& row(const std::vector<CardRow>& rows, const char* id) {
  for (const CardRow& r : rows) {
    if (std::string(r.claim->id) == id) return r;
  }
  FAIL("no claim " << id);
  return rows.front();
}
}  // namespace

TEST_CASE("card check under the default scenario (FACTS 4)") {
  const auto rows = check_card(default_scenario());
  REQUIRE(rows.size() == claims().size());
  CHECK(row(rows, "params-total").verdict == Verdict::Consistent);
  CHECK(row(rows, "params-active").verdict == Verdict::Consistent);
  CHECK(row(rows, "weight-share").verdict == Verdict::Consistent);
  CHECK(row(rows, "topk-slice").verdict == Verdict::Consistent);
  CHECK(row(rows, "swa-window").verdict == Verdict::Consistent);
  CHECK(row(rows, "engram-params").verdict == Verdict::Consistent);
  CHECK(row(rows, "engram-stall").verdict == Verdict::Consistent);
  // ~32 GB and the 0.4–0.5 ms floor only come out with the card's BF16, MBU 1 assumptions.
  const CardRow& w = row(rows, "weights-per-token");
  CHECK(w.verdict == Verdict::HoldsOnlyIf);
  CHECK(w.value == Approx(12.48e9).epsilon(1e-3));
  CHECK(w.card_value == Approx(31.43e9).epsilon(1e-3));
  CHECK(w.condition.find("BF16") != std::string::npos);
  CHECK(row(rows, "step-floor").verdict == Verdict::HoldsOnlyIf);
  // Read literally the slice time is 81 ns; the physical gather is what takes about 1 µs.
  const CardRow& t = row(rows, "topk-time");
  CHECK(t.verdict == Verdict::HoldsOnlyIf);
  CHECK(t.value < 0.1e-6);
  CHECK(t.alt_value == Approx(5603328.0 / 5.6e12));
  CHECK(row(rows, "index-sub-us").verdict == Verdict::HoldsOnlyIf);
  CHECK(row(rows, "swa-hit").verdict == Verdict::HoldsOnlyIf);
  CHECK(row(rows, "replay").verdict == Verdict::HoldsOnlyIf);
  CHECK(row(rows, "ssd-hit").verdict == Verdict::HoldsOnlyIf);
  CHECK(row(rows, "sram-capacity").verdict == Verdict::Inconsistent);  // B200 L2 is 126 MB
  for (const CardRow& r : rows) {
    INFO(r.claim->id);
    CHECK_FALSE(r.reason.empty());
    if (r.verdict == Verdict::HoldsOnlyIf) CHECK_FALSE(r.condition.empty());
  }
}

TEST_CASE("card check: the card preset reproduces the card's own figures") {
  Scenario card;
  REQUIRE(make_preset("v41-flash-card", card));
  const auto rows = check_card(card);
  for (const char* id : {"weights-per-token", "step-floor", "replay", "ssd-hit", "swa-window", "topk-slice"}) {
    INFO(id);
    CHECK(row(rows, id).verdict == Verdict::Consistent);
  }
  CHECK(row(rows, "step-floor").value == Approx(0.492e-3).epsilon(0.01));
}

TEST_CASE("card check: verdicts are computed, so scenario edits move them") {
  Scenario s = default_scenario();
  CHECK(row(check_card(s), "sram-capacity").verdict == Verdict::Inconsistent);
  Error e;
  REQUIRE(set_param_text(s, *find_param("gpu"), "h200", e));
  CHECK(row(check_card(s), "sram-capacity").verdict == Verdict::Consistent);
  // A long context with a big batch drops the weights' share below 95 %.
  REQUIRE(set_param_text(s, *find_param("ctx"), "1048576", e));
  REQUIRE(set_param_text(s, *find_param("batch"), "128", e));
  const std::vector<CardRow> rows = check_card(s);  // kept alive: row() returns a reference into it
  const CardRow& share = row(rows, "weight-share");
  CHECK(share.value < 0.95);
  CHECK(share.verdict == Verdict::HoldsOnlyIf);  // the card preset (batch 1) still satisfies it
  // With no FP4 units and one GPU the replay misses the band every way.
  REQUIRE(set_param_text(s, *find_param("gpus"), "1", e));
  CHECK(row(check_card(s), "replay").value > 100e-6);
}
