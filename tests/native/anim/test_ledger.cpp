// Ledger invariants (issue 4 §5): bytes agree with the model's figures, promotion order, SWA miss never on
// SSD, Engram writes nothing, durations add up, determinism, every path × preset builds with finite values.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "anim/format.h"
#include "anim/ledger.h"
#include "anim/state.h"
#include "model/figures.h"
#include "model/params.h"
#include "model/presets.h"

using namespace tierscope;
using anim::Endpoint;
using anim::ObjectKind;
using anim::PathId;
using F = model::FigureId;

namespace {

model::Scenario preset(const char* name) {
  model::Scenario s;
  REQUIRE(model::make_preset(name, s));
  REQUIRE(model::validate(s).empty());
  return s;
}

void set(model::Scenario& s, const char* key, const char* text) {
  const model::ParamDef* p = model::find_param(key);
  REQUIRE(p != nullptr);
  model::Error e;
  REQUIRE(model::set_param_text(s, *p, text, e));
}

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

}  // namespace

TEST_CASE("path keys: stable, round-trip, strict parser names field, value and allowed keys") {
  const char* keys[] = {"prefill", "decode", "engram", "csa2-modes", "swa-resume", "prefix-cache", "step-budget"};
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

TEST_CASE("decode: bytes agree with the model's figures and the memory-bound steps add up to the step floor") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::Decode);
  CHECK(sum_bytes(l, "weights") == f[F::DecodeWeightBytes].value);
  CHECK(sum_bytes(l, "fullpool-index") == f[F::IndexFullpoolBytes].value);
  CHECK(sum_bytes(l, "candidate-pool") == f[F::IndexCandidateBytes].value);
  CHECK(sum_bytes(l, "gather-encoder") + sum_bytes(l, "decoder-gather") == Approx(f[F::GatherBytes].value).epsilon(1e-12));
  CHECK(sum_bytes(l, "swa-window") == f[F::SwaWindowBytes].value);
  CHECK(sum_bytes(l, "engram-prefetch") == f[F::EngramBytesPerToken].value);
  CHECK(sum_bytes(l, "kv-append") == f[F::KvGlobalPerToken].value);
  double kv = 0, floor = 0;
  for (const char* st : {"fullpool-index", "candidate-pool", "gather-encoder", "decoder-gather", "swa-window", "dense-read"}) {
    kv += sum_bytes(l, st);
  }
  CHECK(kv == Approx(f[F::DecodeKvBytes].value).epsilon(1e-12));
  for (const char* st : {"weights", "fullpool-index", "candidate-pool", "gather-encoder", "decoder-gather", "swa-window"}) {
    floor += find(l, st)->duration;
  }
  CHECK(floor == Approx(f[F::DecodeStepFloor].value).epsilon(1e-12));
  // The order: Engram prefetch first, weights, indexers, top-k, gather, window, decoder, token out.
  const char* order[] = {"engram-prefetch", "weights", "fullpool-index", "candidate-pool", "top-k", "gather-encoder",
                         "swa-window", "decoder-gather", "kv-append", "swa-append"};
  REQUIRE(l.entries.size() == 10);
  for (int i = 0; i < 10; ++i) CHECK(l.entries[static_cast<std::size_t>(i)].step == order[i]);
  // The weight stream is the bulk of the step.
  CHECK(find(l, "weights")->duration > 0.9 * l.total);
  // Decoder layers 20-39 are the ones reading projected KV; the encoder gather covers 2-19.
  const auto* dec = find(l, "decoder-gather");
  CHECK(dec->highlight.layers.has(20));
  CHECK(dec->highlight.layers.has(39));
  CHECK_FALSE(dec->highlight.layers.has(19));
  CHECK(find(l, "gather-encoder")->highlight.layers.count() == 18);
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

TEST_CASE("prefill: KV authored by encoder + layer-20 projection, FP4 store, SWA ring, decoder on the last window, SSD units") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::Prefill);
  const double P = s.work.prompt;
  const auto* author = find(l, "author-kv");
  const auto* project = find(l, "project-kv");
  const auto* store = find(l, "quantise-store");
  REQUIRE(author);
  REQUIRE(project);
  REQUIRE(store);
  CHECK(store->bytes == P * f[F::KvGlobalPerToken].value);
  CHECK(author->bytes + project->bytes == Approx(store->bytes).epsilon(1e-12));
  // Encoder layers 2/8/14 at ratio 2 author 60 % of the main KV, layer 20 the rest (FACTS §4 #22).
  CHECK(author->bytes == Approx(P * 1.5 * 356));
  CHECK(project->highlight.layers.has(20));
  CHECK(project->from == Endpoint::Stream);
  CHECK(author->highlight.layers.has(2));
  CHECK(author->highlight.layers.has(14));
  CHECK(find(l, "encode")->duration == f[F::PrefillTime].value);
  CHECK(find(l, "swa-fill")->bytes == f[F::KvSwaPerSession].value);
  CHECK(find(l, "engram-read")->bytes == P * f[F::EngramBytesPerToken].value);
  const auto* replay = find(l, "decoder-replay");
  REQUIRE(replay);
  CHECK(replay->highlight.layers.has(21));
  CHECK_FALSE(replay->highlight.layers.has(19));
  // The prefix is persisted in whole 64-token units, through host DRAM to SSD.
  const auto* ssd = find(l, "persist-ssd");
  REQUIRE(ssd);
  CHECK(ssd->to == Endpoint::Ssd);
  CHECK(ssd->bytes == std::floor(P / 64) * 64 * f[F::KvGlobalPerToken].value);
  CHECK(find(l, "persist-offload")->index < ssd->index);
  const auto end = anim::state_at(l, static_cast<int>(l.entries.size()) - 1, 1.0);
  CHECK(end.counters.global_kv_tokens == P);
  CHECK(end.counters.swa_kv_tokens == s.model.n_win);
  CHECK(end.objects[static_cast<int>(ObjectKind::PrefixCache)].bytes == ssd->bytes);
}

TEST_CASE("prefix-cache: promotion is SSD → DRAM → HBM and ends before the turn's first decode step") {
  for (const char* name : {"v41-flash-8xb200", "v41-flash-card", "llama3-70b-8xh100"}) {
    INFO(name);
    const model::Scenario s = preset(name);
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
    CHECK(b->t_start >= a->t_start + a->duration);
    CHECK(b->t_start + b->duration <= first->t_start);
    CHECK(a->bytes == f[F::PrefixHitBytes].value);
    CHECK(b->bytes == f[F::PrefixHitBytes].value);
    // No hit-phase entry touches SSD after the promotion.
    for (const auto& e : l.entries) {
      if (e.index > a->index) CHECK(e.from != Endpoint::Ssd);
    }
    CHECK(find(l, "recompute")->duration == f[F::PrefixRecomputeTime].value);
  }
}

TEST_CASE("swa-resume: a hit restores from DRAM; a miss replays the last window and never touches SSD") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const model::Figures f = model::describe(s);
  const auto l = anim::build_ledger(s, f, PathId::SwaResume);
  bool saw_miss = false;
  for (const auto& e : l.entries) {
    CHECK(e.from != Endpoint::Ssd);
    CHECK(e.to != Endpoint::Ssd);
    if (e.phase == "miss") saw_miss = true;
  }
  CHECK(saw_miss);
  CHECK(find(l, "restore")->from == Endpoint::Dram);
  CHECK(find(l, "restore")->overlapped);
  CHECK(find(l, "bounded-replay")->flop == f[F::ReplayFlop].value);
  CHECK(find(l, "bounded-replay")->duration == f[F::ReplayTime].value);
  CHECK(find(l, "rebuild")->bytes == f[F::KvSwaPerSession].value);
  // The window leaves HBM when parked, comes back on a hit, is lost and rebuilt on a miss.
  const int swa = static_cast<int>(ObjectKind::SwaWindow), pool = static_cast<int>(ObjectKind::SwaPool);
  CHECK(anim::state_at(l, 0, 1.0).objects[swa].bytes == 0);
  CHECK(anim::state_at(l, 0, 1.0).objects[pool].bytes == f[F::KvSwaPerSession].value);
  CHECK(anim::state_at(l, 1, 1.0).objects[swa].bytes == f[F::KvSwaPerSession].value);
  CHECK(anim::state_at(l, 2, 1.0).objects[swa].bytes == 0);
  CHECK(anim::state_at(l, 4, 1.0).objects[swa].bytes == f[F::KvSwaPerSession].value);
}

TEST_CASE("engram: nothing is written, rows read match the figure") {
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
    const auto start = anim::state_at(l, 0, 0.0);
    for (int i = 0; i < anim::kObjectCount; ++i) {
      if (i == static_cast<int>(ObjectKind::WorkingSet)) continue;
      CHECK(end.objects[static_cast<std::size_t>(i)].bytes == start.objects[static_cast<std::size_t>(i)].bytes);
    }
    // The card puts the tables in host DRAM: the rows come from there.
    if (s.model.engram_home == model::EngramHome::Dram) CHECK(find(l, "fetch-rows")->from == Endpoint::Dram);
  }
}

TEST_CASE("csa2-modes: one entry per layer, modes as in the config, reads add up to the per-session KV figure") {
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
  CHECK(bytes == Approx(f[F::DecodeKvBytes].value / s.work.batch).epsilon(1e-12));
  CHECK(l.entries[20].sentence.find("candidate") != std::string::npos);
  CHECK(l.entries[24].step == "reindex");
  CHECK(l.entries[24].phase == "decoder");
}

TEST_CASE("step-budget: each sweep point's parts add up to that point's step floor; KV share grows with context") {
  const model::Scenario s = preset("v41-flash-8xb200");
  const auto l = anim::build_ledger(s, PathId::StepBudget);
  REQUIRE_FALSE(l.entries.empty());
  std::string phase;
  double sum = 0;
  int points = 0;
  auto close_point = [&](const std::string& ph) {
    if (ph.empty()) return;
    int b = 0, c = 0;
    // "batch 8 · ctx 131,072"
    std::string digits;
    for (char ch : ph) {
      if (ch >= '0' && ch <= '9') digits += ch;
      if (ch == ' ' && !digits.empty() && b == 0) {
        b = std::stoi(digits);
        digits.clear();
      }
    }
    c = std::stoi(digits);
    model::Scenario sp = s;
    sp.work.batch = b;
    sp.work.ctx = c;
    model::Computed cv;
    model::compute_values(sp, cv);
    CHECK(sum == Approx(cv.values[F::DecodeStepFloor]).epsilon(1e-12));
    ++points;
  };
  for (const auto& e : l.entries) {
    if (e.phase != phase) {
      close_point(phase);
      phase = e.phase;
      sum = 0;
    }
    sum += e.duration;
  }
  close_point(phase);
  CHECK(points == 4);
  CHECK(l.entries.front().phase == "batch 1 · ctx 131,072");
  CHECK(l.entries.back().phase == "batch 64 · ctx 1,048,576");
}

TEST_CASE("every path × every preset builds: finite values, durations add up, entries in order, notes when empty") {
  for (const auto& p : model::presets()) {
    const model::Scenario s = preset(p.name);
    const model::Figures f = model::describe(s);
    for (int i = 0; i < anim::kPathCount; ++i) {
      const auto path = static_cast<PathId>(i);
      INFO(p.name << " / " << anim::path_key(path));
      const auto l = anim::build_ledger(s, f, path);
      CHECK(l.path == path);
      CHECK(is_finite(l.total));
      if (l.entries.empty()) CHECK_FALSE(l.note.empty());
      double t = 0;
      for (const auto& e : l.entries) {
        INFO(e.index << " " << e.step);
        CHECK(e.index == &e - l.entries.data());
        CHECK(e.t_start == t);
        CHECK(is_finite(e.duration));
        CHECK(e.duration > 0);
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

TEST_CASE("models without CSA2 or Engram skip what does not apply") {
  const model::Scenario llama = preset("llama3-70b-8xh100");
  const auto decode = anim::build_ledger(llama, PathId::Decode);
  CHECK(find(decode, "engram-prefetch") == nullptr);
  CHECK(find(decode, "fullpool-index") == nullptr);
  CHECK(find(decode, "top-k") == nullptr);
  CHECK(find(decode, "swa-window") == nullptr);
  REQUIRE(find(decode, "dense-read") != nullptr);
  CHECK(anim::build_ledger(llama, PathId::Engram).entries.empty());
  CHECK(anim::build_ledger(llama, PathId::SwaResume).entries.empty());
  const auto modes = anim::build_ledger(llama, PathId::Csa2Modes);
  CHECK(modes.entries.size() == 80);
  CHECK(modes.entries[0].step == "dense");
  const auto prefill = anim::build_ledger(preset("deepseek-v3-8xh200"), PathId::Prefill);
  CHECK(find(prefill, "project-kv") == nullptr);
  CHECK(find(prefill, "decoder-replay") == nullptr);
  CHECK(find(prefill, "quantise-store") != nullptr);
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
  CHECK(st0.counters.global_kv_bytes == s.work.ctx * 890.0);
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
  const auto empty = anim::build_ledger(preset("llama3-70b-8xh100"), PathId::Engram);
  const auto es = anim::state_at(empty, 3, 0.5);
  CHECK(es.entry == nullptr);
  CHECK_FALSE(es.packet.active);
  // The weights sit in HBM and the persistent objects where the card puts them.
  CHECK(st0.objects[static_cast<int>(ObjectKind::MoeWeights)].tier == Endpoint::Hbm);
  CHECK(st0.objects[static_cast<int>(ObjectKind::PrefixCache)].tier == Endpoint::Ssd);
  CHECK(st0.objects[static_cast<int>(ObjectKind::SwaPool)].tier == Endpoint::Dram);
  CHECK(st0.objects[static_cast<int>(ObjectKind::SwaPool)].capacity == model::describe(s)[F::SwaPoolBytes].value);
}

TEST_CASE("state_at is closed form: a 16M-token context costs the same as 1K") {
  model::Scenario s = preset("v41-flash-8xb200");
  set(s, "ctx", "16777216");
  const auto l = anim::build_ledger(s, PathId::Decode);
  const auto st = anim::state_at(l, static_cast<int>(l.entries.size()) - 1, 1.0);
  CHECK(st.counters.global_kv_tokens == 16777217.0);
}
