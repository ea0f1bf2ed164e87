// Ledger invariants: every entry lasts its model figure (or a stated share), bytes agree with the figures,
// promotion order, the SWA window never read from SSD under bounded replay, Engram writes nothing,
// determinism, every path × preset builds with finite values, setups that cannot run are named.
//
// Sections: path keys · one timing path · decode and prefill · prefix-cache, swa-resume, engram, csa2-modes,
// step-budget · every path × every preset, models without CSA2 or Engram, setups that cannot run ·
// determinism · state_at.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "anim/format.h"
#include "anim/ledger.h"
#include "anim/state.h"
#include "base/text.h"
#include "scenario_helpers.h"

using namespace tierscope;
using anim::Endpoint;
using anim::ObjectKind;
using anim::PathId;
using F = model::FigureId;
using test::preset;
using test::set;

namespace {

double sum_bytes(const anim::Ledger& l, std::string_view step) {
  double b = 0;
  for (const auto& e : l.entries) {
    if (e.step == step) b += e.bytes;
  }
  return b;
}

const anim::LedgerEntry* find(const anim::Ledger& l, std::string_view step) {
  for (const auto& e : l.entries) {
    if (e.step == step) return &e;
  }
  return nullptr;
}

bool is_finite(double v) { return std::isfinite(v); }

// Σ durations of the entries on the critical path (not overlapped).
double critical(const anim::Ledger& l) {
  double t = 0;
  for (const auto& e : l.entries) {
    if (!e.overlapped) t += e.duration;
  }
  return t;
}

}  // namespace

TEST_CASE("path keys: stable, round-trip, strict parser names field, value and allowed keys") {
  const char* keys[] = {"prefill", "decode", "engram", "csa2-modes", "swa-resume", "prefix-cache", "step-budget", "pd-handoff", "offload-reload"};
  REQUIRE(std::size(keys) == static_cast<std::size_t>(anim::kPathCount));
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto p = static_cast<PathId>(i);
    CHECK(std::string(anim::path_key(p)) == keys[i]);
    PathId back = PathId::Count;
    model::Error err;
    REQUIRE(anim::parse_path(keys[i], back, err));
    CHECK(back == p);
  }
  PathId out = PathId::Decode;
  model::Error err;
  CHECK_FALSE(anim::parse_path("Decode", out, err));
  CHECK(err.code == model::ErrorCode::BadEnum);
  CHECK(err.field == "path");
  CHECK(err.value == "Decode");
  CHECK(err.allowed.find("csa2-modes") != std::string::npos);
  CHECK_FALSE(anim::parse_path("", out, err));
  CHECK_FALSE(anim::parse_path("decode ", out, err));
  anim::LedgerFormat f{};
  CHECK(anim::parse_ledger_format("csv", f, err));
  CHECK(f == anim::LedgerFormat::Csv);
  CHECK_FALSE(anim::parse_ledger_format("xml", f, err));
  CHECK(err.field == "format");
}

TEST_CASE("one timing path: every entry citing a time figure lasts exactly that figure (or its stated share)") {
  for (const auto& p : model::presets()) {
    model::Scenario s = preset(p.name);
    for (const char* batch : {"1", "8"}) {
      set(s, "batch", batch);
      const model::Figures f = model::describe(s);
      if (!f.computed.terms.feasible()) continue;
      for (int i = 0; i < anim::kPathCount; ++i) {
        const auto path = static_cast<PathId>(i);
        INFO(p.name << " batch " << batch << " / " << anim::path_key(path));
        const auto l = anim::build_ledger(s, f, path);
        std::map<std::pair<std::string, int>, double> shares;
        for (const auto& e : l.entries) {
          if (e.time_figure == F::Count) continue;
          INFO(e.step);
          CHECK(e.duration == f[e.time_figure].value * e.time_share);
          if (e.time_share != 1.0) CHECK(e.formula.find(model::num_sig(e.time_share, 4)) != std::string::npos);
          shares[{e.phase, static_cast<int>(e.time_figure)}] += e.time_share;
        }
        // Within one phase, shares of one figure never add up to more than the figure.
        for (const auto& [key, sh] : shares) CHECK(sh <= 1.0 + 1e-12);
        if (l.total_figure != F::Count && !l.entries.empty()) CHECK(critical(l) == Approx(f[l.total_figure].value).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("decode: bytes agree with the model's figures, per GPU of the busiest replica") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::Decode);
  CHECK(sum_bytes(l, "weights") == f[F::DecodeWeightBytes].value);
  CHECK(sum_bytes(l, "fullpool-index") == f[F::IndexFullpoolBytes].value);
  CHECK(sum_bytes(l, "candidate-pool") == f[F::IndexCandidateBytes].value);
  CHECK(sum_bytes(l, "gather-encoder") + sum_bytes(l, "decoder-gather") == Approx(f[F::GatherBytes].value).epsilon(1e-12));
  CHECK(sum_bytes(l, "swa-window") == f[F::SwaWindowBytes].value);
  CHECK(sum_bytes(l, "engram-prefetch") == f[F::EngramBytesPerToken].value);
  // Global KV grows where it is owned: the encoder's ratio-2 owners and layer 20's projection.
  const auto* enc = find(l, "kv-append-encoder");
  const auto* dec = find(l, "kv-append-decoder");
  REQUIRE(enc);
  REQUIRE(dec);
  CHECK(enc->from == Endpoint::Encoder);
  CHECK(dec->from == Endpoint::Stream);
  CHECK(enc->bytes == Approx(1.5 * 356));
  CHECK(dec->bytes == Approx(356));
  CHECK(enc->highlight.layers.has(2));
  CHECK_FALSE(enc->highlight.layers.has(20));
  CHECK(dec->highlight.layers.has(20));
  // Every read, then what the reads do not cover; the step's parts in order.
  const char* order[] = {"engram-prefetch", "weights", "fullpool-index", "candidate-pool", "top-k", "gather-encoder", "swa-window",
                         "decoder-gather", "compute", "all-reduce", "kernel-floors", "host", "kv-append-encoder", "kv-append-decoder", "swa-append"};
  REQUIRE(l.entries.size() == sizeof order / sizeof order[0]);
  for (std::size_t i = 0; i < l.entries.size(); ++i) CHECK(l.entries[i].step == order[i]);
  const auto* d = find(l, "decoder-gather");
  CHECK(d->highlight.layers.has(20));
  CHECK(d->highlight.layers.has(39));
  CHECK_FALSE(d->highlight.layers.has(19));
  CHECK(find(l, "gather-encoder")->highlight.layers.count() == 18);
  CHECK(l.entries.back().sentence.find("launch-bound") != std::string::npos);
  CHECK(l.labels[static_cast<int>(ObjectKind::GlobalKv)] == "Global KV (FP4)");
}

TEST_CASE("decode: batch scales per-session reads, context grows the full-pool scan but not the candidate pool") {
  model::Scenario s = preset("v41-flash-8xb200");
  const auto base = anim::build_ledger(s, PathId::Decode);
  set(s, "ctx", "1048576");
  const auto long_ctx = anim::build_ledger(s, PathId::Decode);
  CHECK(sum_bytes(long_ctx, "fullpool-index") == Approx(8 * sum_bytes(base, "fullpool-index")));
  CHECK(sum_bytes(long_ctx, "candidate-pool") == sum_bytes(base, "candidate-pool"));
  CHECK(sum_bytes(long_ctx, "swa-window") == sum_bytes(base, "swa-window"));
  CHECK(sum_bytes(long_ctx, "weights") == sum_bytes(base, "weights"));
  set(s, "ctx", "131072");
  set(s, "batch", "8");
  const auto batch8 = anim::build_ledger(s, PathId::Decode);
  CHECK(sum_bytes(batch8, "swa-window") == Approx(8 * sum_bytes(base, "swa-window")));
  CHECK(sum_bytes(batch8, "candidate-pool") == Approx(8 * sum_bytes(base, "candidate-pool")));
  CHECK(sum_bytes(batch8, "weights") > sum_bytes(base, "weights"));      // more distinct experts
  CHECK(sum_bytes(batch8, "weights") < 8 * sum_bytes(base, "weights"));  // but shared across the batch
}

TEST_CASE("prefill: KV authored by the encoder and layer 20, the decoder on the last window, SSD units") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::Prefill);
  const double P = s.work.prompt;
  const auto* author = find(l, "author-kv");
  const auto* project = find(l, "project-kv");
  REQUIRE(author);
  REQUIRE(project);
  // Encoder layers 2/8/14 at ratio 2 author 60 % of the main KV, layer 20 the rest (FACTS §4 #22).
  CHECK(author->bytes == Approx(P * 1.5 * 356));
  CHECK(author->bytes + project->bytes == Approx(P * f[F::KvGlobalPerToken].value));
  CHECK(project->highlight.layers.has(20));
  CHECK(project->from == Endpoint::Stream);
  CHECK(author->highlight.layers.has(2));
  CHECK(author->highlight.layers.has(14));
  CHECK(author->overlapped);
  CHECK(find(l, "encode")->duration == f[F::PrefillFullTime].value);
  const auto* win = find(l, "decoder-window");
  REQUIRE(win);
  CHECK(win->duration == f[F::PrefillWindowTime].value);
  CHECK(win->highlight.layers.has(21));
  CHECK_FALSE(win->highlight.layers.has(19));
  CHECK(critical(l) == Approx(f[F::PrefillTime].value));
  CHECK(find(l, "swa-fill")->bytes == f[F::KvSwaPerSession].value);
  CHECK(find(l, "engram-read")->bytes == P * f[F::EngramBytesPerToken].value);
  // The prefix is persisted in whole 64-token units, through host DRAM to SSD; the window is not (replayed).
  const auto* ssd = find(l, "persist-ssd");
  REQUIRE(ssd);
  CHECK(ssd->to == Endpoint::Ssd);
  CHECK(ssd->bytes == std::floor(P / 64) * 64 * f[F::KvGlobalPerToken].value);
  CHECK(find(l, "persist-offload")->index < ssd->index);
  CHECK(ssd->sentence.find("design card") != std::string::npos);  // ≥72 h is the card's assumption
  const auto end = anim::state_at(l, static_cast<int>(l.entries.size()) - 1, 1.0);
  CHECK(end.counters.global_kv_tokens == P);
  CHECK(end.counters.swa_kv_tokens == s.model.n_win);
  CHECK(end.objects[static_cast<int>(ObjectKind::PrefixCache)].bytes == ssd->bytes);
}

TEST_CASE("prefix-cache: an SSD hit is promoted SSD → DRAM → HBM before the first decode step — the ratio counts the replay") {
  for (const char* name : {"v41-flash-8xb200", "v41-flash-card", "llama31-70b-8xh100", "v4-flash-8xb200"}) {
    INFO(name);
    model::Scenario s = preset(name);
    set(s, "prefix_tier", "ssd");
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::PrefixCache);
    const auto* a = find(l, "promote-ssd-dram");
    const auto* b = find(l, "promote-dram-hbm");
    const auto* first = find(l, "first-decode");
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(first);
    CHECK(a->from == Endpoint::Ssd);
    CHECK(a->to == Endpoint::Dram);
    CHECK(b->from == Endpoint::Dram);
    CHECK(b->to == Endpoint::Hbm);
    CHECK(a->index < b->index);
    CHECK(b->t_start + b->duration <= first->t_start);
    CHECK(a->bytes == f[F::PrefixHitBytes].value);
    for (const auto& e : l.entries) {
      if (e.index > a->index) CHECK(e.from != Endpoint::Ssd);
    }
    const auto* re = find(l, "recompute");
    CHECK(re->duration == f[F::PrefixRecomputeTime].value);
    const bool replays = s.model.n_win > 0 && s.model.bounded_replay;
    CHECK((find(l, "replay-window") != nullptr) == replays);
    const double served = f[F::PrefixHitTime].value + f[F::PrefixReplayTime].value;
    CHECK(re->sentence.find(model::human(served, "s")) != std::string::npos);
  }
}

TEST_CASE("swa-resume: the pool outlives HBM, so a miss promotes the global KV, then replays — the window never comes from SSD") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  REQUIRE(f[F::SwaPoolSessions].value > f[F::HbmSessionsPerNode].value);
  const auto l = anim::build_ledger(s, f, PathId::SwaResume);
  for (const auto& e : l.entries) {
    if (e.object == ObjectKind::SwaWindow || e.object == ObjectKind::SwaPool) {
      CHECK(e.from != Endpoint::Ssd);
      CHECK(e.to != Endpoint::Ssd);
    }
  }
  CHECK(find(l, "restore")->from == Endpoint::Dram);
  CHECK(find(l, "restore")->overlapped);
  CHECK(find(l, "reload-kv")->phase == "hit");
  // The miss: the pool drops the window (not the HBM window), the global KV comes back SSD → DRAM → HBM, then replay.
  const auto* drop = find(l, "drop");
  REQUIRE(drop);
  CHECK(drop->changes[0].object == ObjectKind::SwaPool);
  const auto* ssd = find(l, "promote-kv-ssd");
  const auto* hbm = find(l, "promote-kv-hbm");
  const auto* replay = find(l, "bounded-replay");
  REQUIRE(ssd);
  REQUIRE(hbm);
  REQUIRE(replay);
  CHECK(ssd->from == Endpoint::Ssd);
  CHECK(ssd->index < hbm->index);
  CHECK(hbm->index < replay->index);
  CHECK(replay->duration == f[F::ReplayTime].value);
  CHECK(find(l, "rebuild")->bytes == f[F::KvSwaPerSession].value);
  // V4 Flash caches its window with the prefix: no replay, the window comes back from SSD.
  const auto v4 = anim::build_ledger(preset("v4-flash-8xb200"), PathId::SwaResume);
  CHECK(find(v4, "bounded-replay") == nullptr);
  CHECK(find(v4, "restore-window-ssd") != nullptr);
}

TEST_CASE("engram: nothing is written, rows read match the figure, fetched from where the tables live") {
  for (const char* name : {"v41-flash-8xb200", "v41-flash-card"}) {
    INFO(name);
    const model::Scenario s = preset(name);
    const model::Figures f = model::describe(s);
    const auto l = anim::build_ledger(s, f, PathId::Engram);
    REQUIRE_FALSE(l.entries.empty());
    for (const auto& e : l.entries) {
      INFO(e.step);
      CHECK_FALSE(anim::writes_storage(e));
    }
    CHECK(sum_bytes(l, "fetch-rows") == f[F::EngramBytesPerToken].value);
    const auto end = anim::state_at(l, static_cast<int>(l.entries.size()) - 1, 1.0);
    CHECK(end.counters.engram_rows == 48);
    if (s.model.engram_home == model::EngramHome::Dram) CHECK(find(l, "fetch-rows")->from == Endpoint::Dram);
    // Two Engram layers fetch half the token's rows each, by the same rule as the figure.
    CHECK(find(l, "fetch-rows")->duration < f[F::EngramFetchTime].value);
  }
}

TEST_CASE("csa2-modes: one entry per layer — a Reuse layer reuses the preceding selecting layer's choice") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::Csa2Modes);
  REQUIRE(l.entries.size() == 40);
  double bytes = 0;
  int full = 0, reindex = 0, reuse = 0, swa_only = 0;
  for (const auto& e : l.entries) {
    bytes += e.bytes;
    CHECK(e.layer == e.index);
    full += e.step == "full";
    reindex += e.step == "reindex";
    reuse += e.step == "reuse";
    swa_only += e.step == "swa-only";
  }
  CHECK(full == 4);
  CHECK(reindex == 4);
  CHECK(reuse == 30);
  CHECK(swa_only == 2);
  CHECK(bytes == Approx(f[F::IndexFullpoolBytes].value + f[F::IndexCandidateBytes].value + f[F::GatherBytes].value + f[F::SwaWindowBytes].value));
  CHECK(l.entries[25].sentence.find("reuses layer 24's selection") != std::string::npos);
  CHECK(l.entries[25].sentence.find("layer 20's cache") != std::string::npos);
  CHECK(l.entries[21].sentence.find("reuses layer 20's selection") != std::string::npos);
  CHECK(l.entries[25].highlight.layers.has(24));
  CHECK(l.entries[24].step == "reindex");
  CHECK(l.entries[24].phase == "decoder");
}

TEST_CASE("step-budget: each entry lasts its own sweep point's figure — points that cannot run are named") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const auto l = anim::build_ledger(s, PathId::StepBudget);
  REQUIRE_FALSE(l.entries.empty());
  int checked = 0, cannot = 0;
  for (const auto& e : l.entries) {
    // "batch 8 · ctx 131,072"
    std::string digits;
    int b = 0;
    for (char ch : e.phase) {
      if (ch >= '0' && ch <= '9') digits += ch;
      if (ch == ' ' && !digits.empty() && b == 0) {
        b = std::stoi(digits);
        digits.clear();
      }
    }
    model::Scenario sp = s;
    sp.work.batch = b;
    sp.work.ctx = std::stoi(digits);
    model::Computed cv;
    model::compute_values(sp, cv);
    if (e.step == "cannot-run") {
      CHECK_FALSE(cv.terms.feasible());
      CHECK(e.formula == model::infeasible_summary(cv.terms));
      ++cannot;
      continue;
    }
    REQUIRE(e.figure != F::Count);
    CHECK(e.duration == cv.values[e.figure]);
    ++checked;
  }
  CHECK(checked > 8);
  CHECK(l.entries.front().phase == "batch 1 · ctx 131,072");
  CHECK(l.entries.back().phase == "batch 64 · ctx 1,048,576");
  CHECK(cannot == 1);  // 64 sessions of 1M tokens do not fit 4 B200s beside the weights
}

TEST_CASE("every path × every preset builds: finite values, entries in order, notes when empty") {
  for (const auto& p : model::presets()) {
    const model::Scenario s = preset(p.name);
    const model::Figures f = model::describe(s);
    for (int i = 0; i < anim::kPathCount; ++i) {
      const auto path = static_cast<PathId>(i);
      INFO(p.name << " / " << anim::path_key(path));
      const auto l = anim::build_ledger(s, f, path);
      CHECK(l.path == path);
      CHECK(is_finite(l.total));
      CHECK_FALSE(l.summary.empty());
      if (l.entries.empty()) CHECK_FALSE(l.note.empty());
      double t = 0;
      for (const auto& e : l.entries) {
        INFO(e.index << " " << e.step);
        CHECK(e.index == &e - l.entries.data());
        CHECK(e.t_start == t);
        CHECK(is_finite(e.duration));
        CHECK(e.duration >= 0);
        CHECK(is_finite(e.bytes));
        CHECK(e.bytes >= 0);
        CHECK(is_finite(e.flop));
        CHECK(is_finite(e.engram_rows));
        CHECK_FALSE(e.step.empty());
        CHECK_FALSE(e.sentence.empty());
        CHECK_FALSE(e.formula.empty());
        CHECK(e.formula.find("nan") == std::string::npos);
        CHECK(e.formula.find("inf") == std::string::npos);
        CHECK(e.sentence.find("nan") == std::string::npos);
        CHECK(e.sentence.find(" 1 sessions") == std::string::npos);
        t += e.duration;
      }
      CHECK(l.total == t);
      for (const auto& r : l.start) {
        CHECK(is_finite(r.bytes));
        CHECK(r.bytes >= 0);
      }
      const auto json = anim::ledger_to_json(l);
      CHECK(json.find("null") == std::string::npos);
    }
  }
}

TEST_CASE("models without CSA2 or Engram skip what does not apply and name what they have") {
  const model::Scenario llama = preset("llama31-70b-8xh100");
  const auto decode = anim::build_ledger(llama, PathId::Decode);
  CHECK(find(decode, "engram-prefetch") == nullptr);
  CHECK(find(decode, "fullpool-index") == nullptr);
  CHECK(find(decode, "top-k") == nullptr);
  CHECK(find(decode, "swa-window") == nullptr);
  REQUIRE(find(decode, "dense-read") != nullptr);
  CHECK(decode.labels[static_cast<int>(ObjectKind::MoeWeights)] == "Dense weights");
  CHECK(decode.labels[static_cast<int>(ObjectKind::GlobalKv)] == "KV cache (BF16)");
  CHECK(decode.summary.find("causal encoder") == std::string::npos);
  CHECK(anim::build_ledger(llama, PathId::Engram).entries.empty());
  CHECK(anim::build_ledger(llama, PathId::SwaResume).entries.empty());
  const auto modes = anim::build_ledger(llama, PathId::Csa2Modes);
  CHECK(modes.entries.size() == 80);
  CHECK(modes.entries[0].step == "dense");
  const auto prefill = anim::build_ledger(preset("deepseek-v3-8xh200"), PathId::Prefill);
  CHECK(find(prefill, "project-kv") == nullptr);
  CHECK(find(prefill, "decoder-window") == nullptr);
  CHECK(find(prefill, "last-window") != nullptr);
  CHECK(prefill.labels[static_cast<int>(ObjectKind::GlobalKv)] == "MLA latent KV (BF16)");
}

TEST_CASE("a setup that cannot run is named, never animated") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "gpus", "1");
  set(s, "tp", "1");
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto l = anim::build_ledger(s, static_cast<PathId>(i));
    CHECK(l.entries.empty());
    CHECK(l.note.find("cannot run") != std::string::npos);
    CHECK(l.note.find("500.8 GB") != std::string::npos);
    // The canvas still sees the weights that overflow one GPU's HBM.
    CHECK(l.start[static_cast<int>(ObjectKind::MoeWeights)].bytes > 180e9);
  }
}

TEST_CASE("same scenario, same ledger: bit for bit") {
  for (int i = 0; i < anim::kPathCount; ++i) {
    const auto path = static_cast<PathId>(i);
    const model::Scenario s = model::default_scenario();
    const std::string a = anim::ledger_to_json(anim::build_ledger(s, path));
    const std::string b = anim::ledger_to_json(anim::build_ledger(model::default_scenario(), path));
    CHECK(a == b);
    CHECK(anim::ledger_to_csv(anim::build_ledger(s, path)) == anim::ledger_to_csv(anim::build_ledger(s, path)));
  }
}

TEST_CASE("state_at: counters, residency, highlight and the packet at a step") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const auto l = anim::build_ledger(s, PathId::Decode);
  const auto st0 = anim::state_at(l, 0, 0.0);
  CHECK(st0.steps == static_cast<int>(l.entries.size()));
  CHECK(st0.counters.global_kv_tokens == s.work.ctx);
  CHECK(st0.counters.global_kv_bytes == s.work.ctx * 890.0);  // every GPU of the TP group holds the whole latent
  CHECK(st0.counters.swa_kv_tokens == 128);
  CHECK(st0.counters.engram_rows == 0);
  CHECK(st0.packet.active);
  CHECK(st0.packet.from == Endpoint::Hbm);
  CHECK(st0.objects[static_cast<int>(ObjectKind::EngramTables)].highlighted);
  const auto mid = anim::state_at(l, 0, 0.5);
  CHECK(mid.counters.engram_rows == 24);
  CHECK(mid.t_model == Approx(0.5 * l.entries[0].duration));
  const auto end = anim::state_at(l, 1000, 7.0);  // clamped
  CHECK(end.step == st0.steps - 1);
  CHECK(end.fraction == 1.0);
  CHECK(end.counters.global_kv_tokens == s.work.ctx + 1);
  CHECK(end.counters.engram_rows == 48);
  CHECK(end.t_model == Approx(l.total));
  const auto neg = anim::state_at(l, -3, std::nan(""));
  CHECK(neg.step == 0);
  CHECK(neg.fraction == 0.0);
  // An empty path still has a state: the objects at rest, no packet.
  const auto empty = anim::build_ledger(preset("llama31-70b-8xh100"), PathId::Engram);
  const auto es = anim::state_at(empty, 3, 0.5);
  CHECK(es.entry == nullptr);
  CHECK_FALSE(es.packet.active);
  // The weights sit in HBM and the persistent objects where the card puts them.
  CHECK(st0.objects[static_cast<int>(ObjectKind::MoeWeights)].tier == Endpoint::Hbm);
  CHECK(st0.objects[static_cast<int>(ObjectKind::PrefixCache)].tier == Endpoint::Ssd);
  CHECK(st0.objects[static_cast<int>(ObjectKind::SwaPool)].tier == Endpoint::Dram);
  CHECK(st0.objects[static_cast<int>(ObjectKind::SwaPool)].capacity == model::describe(s)[F::SwaPoolBytes].value);
}

TEST_CASE("state_at is closed form: a 1M-token context costs the same as 1K") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "ctx", "1048576");
  const auto l = anim::build_ledger(s, PathId::Decode);
  const auto st = anim::state_at(l, static_cast<int>(l.entries.size()) - 1, 1.0);
  CHECK(st.counters.global_kv_tokens == 1048577.0);
}

// A decoder-only model's prefill is told in its own terms: the prompt runs through every layer but the last,
// which the next entry runs on the prompt's end only ("93 of the 94 layers" read as if one were missing).
TEST_CASE("prefill of a decoder-only MoE model names its layers, not a count of a part of them") {
  const model::Scenario s = preset("qwen3-235b-a22b-4xh200");
  REQUIRE_FALSE(model::is_encoder_decoder(s.model));
  const auto l = anim::build_ledger(s, model::describe(s), PathId::Prefill);
  const auto* encode = find(l, "encode");
  REQUIRE(encode);
  const int n = s.model.layer_count;
  INFO(encode->sentence);
  CHECK(encode->sentence.find(" of the " + std::to_string(n) + " layers") == std::string::npos);
  CHECK(encode->sentence.find("layers 0–" + std::to_string(n - 2) + ", all but the last one (which runs on the prompt's end only, next)") !=
        std::string::npos);
  CHECK(encode->sentence.find("encoder") == std::string::npos);
}
