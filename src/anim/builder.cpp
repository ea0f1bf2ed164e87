// The shared builder context and build_ledger(): layer roles, residency and entry helpers over the figures.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "base/text.h"

namespace tierscope::anim {

namespace detail {

using model::FigureId;
using model::LayerMode;

std::string B(double bytes) { return model::human(bytes, "B"); }
std::string S(double seconds) { return model::human(seconds, "s"); }
std::string N(double value) { return model::num(value); }
std::string FL(double flop) { return model::human(flop, "FLOP"); }
std::string fmt_label(model::NumFormat f) { return model::format_info(f).label; }
bool has_win(const model::LayerRead& r) { return r.window_rows > 0; }

Authoring authoring(const Builder& b, int first, int last) {
  Authoring a;
  for (int i = std::max(0, first); i <= last && i < b.m.layer_count; ++i) {
    const LayerMode mode = b.m.layers[static_cast<std::size_t>(i)].mode;
    if (mode != LayerMode::Full && mode != LayerMode::Dense) continue;
    const double inv = 1.0 / b.ratio(i);
    a.rows += inv;
    a.per_token += inv * (b.z.main + (mode == LayerMode::Full ? b.z.idx : 0.0));
    a.idx_per_token += mode == LayerMode::Full ? inv * b.z.idx : 0.0;
    a.layers.add(i);
  }
  return a;
}

Builder::Builder(const model::Scenario& scenario, const model::Figures& figures, Ledger& ledger)
    : s(scenario), m(scenario.model), f(figures), v(figures.computed.values), t(figures.computed.terms), out(ledger),
      z(model::kv_sizes(scenario.model)) {
  ced = model::is_encoder_decoder(m);
}

std::string Builder::sessions_x(double n) { return N(n) + (n == 1 ? " session × " : " sessions × "); }

LedgerEntry& Builder::add(std::string_view step, Endpoint from, Endpoint to, ObjectKind object, double duration) {
  LedgerEntry e;
  e.index = static_cast<int>(out.entries.size());
  e.step = step;
  e.t_start = out.total;
  e.duration = duration;
  e.from = from;
  e.to = to;
  e.object = object;
  e.highlight.add(from);
  e.highlight.add(to);
  e.highlight.add(object);
  out.total += duration;
  out.entries.push_back(std::move(e));
  return out.entries.back();
}

LedgerEntry& Builder::add_timed(std::string_view step, Endpoint from, Endpoint to, ObjectKind object, FigureId time, double share) {
  LedgerEntry& e = add(step, from, to, object, v[time] * share);
  e.time_figure = time;
  e.time_share = share;
  return e;
}

std::string Builder::share_text(FigureId time, double share) const {
  const std::string id = model::figure_info(time).id;
  if (share == 1.0) return S(v[time]) + " (" + id + ")";
  return S(v[time] * share) + " = " + model::num_sig(share, 4) + " × " + S(v[time]) + " (" + id + ")";
}

void Builder::cite(LedgerEntry& e, FigureId id, std::string formula) {
  const model::Figure& fg = f[id];
  e.figure = id;
  e.provenance = fg.provenance;
  e.sources = model::figure_sources(f, fg);
  e.formula = std::move(formula);
}

double Builder::ratio(int layer) const {
  return layer >= 0 ? static_cast<double>(m.layers[static_cast<std::size_t>(layer)].ratio) : 1.0;
}

LayerSet Builder::all_layers() const {
  LayerSet set;
  set.add_range(0, m.layer_count - 1);
  return set;
}

LayerSet Builder::layers_where(bool (*pred)(const model::LayerRead&)) const {
  LayerSet set;
  for (int i = 0; i < m.layer_count; ++i) {
    if (pred(read(i))) set.add(i);
  }
  return set;
}

std::string Builder::layer_list(const LayerSet& set) const {
  // Runs of three or more consecutive layers collapse to "a–b".
  std::string text;
  int i = 0;
  while (i < m.layer_count) {
    if (!set.has(i)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < m.layer_count && set.has(j + 1)) ++j;
    if (!text.empty()) text += ", ";
    if (j - i >= 2) {
      text += std::to_string(i) + "–" + std::to_string(j);
    } else {
      text += std::to_string(i);
      if (j > i) text += ", " + std::to_string(j);
    }
    i = j + 1;
  }
  return text.empty() ? std::string("none") : text;
}

Endpoint Builder::engram_home() const {
  return m.engram_home == model::EngramHome::Hbm ? Endpoint::Hbm : Endpoint::Dram;
}

void Builder::base_residency(double sessions, double tokens) {
  auto& st = out.start;
  const double engram = v[FigureId::EngramTableBytes];
  const bool engram_in_hbm = m.engram_home == model::EngramHome::Hbm;
  const double engram_gpu = engram_in_hbm ? engram / t.gpus : 0.0;
  st[static_cast<int>(ObjectKind::WorkingSet)] = {Endpoint::Sram, 0, 0, v[FigureId::HwSramPerGpu]};
  st[static_cast<int>(ObjectKind::MoeWeights)] = {Endpoint::Hbm, v[FigureId::HbmWeightsPerGpu] - engram_gpu, 0, 0};
  st[static_cast<int>(ObjectKind::GlobalKv)] = {Endpoint::Hbm, sessions * tokens * v[FigureId::KvGlobalPerToken] * t.kv_share,
                                                sessions * tokens, 0};
  const double positions = (t.selecting_layers * static_cast<double>(m.top_k) + (m.cand_src >= 0 ? m.cand_blocks : 0)) * kPositionBytes;
  st[static_cast<int>(ObjectKind::SparseIndex)] = {Endpoint::Hbm, tokens > 0 ? sessions * positions : 0.0, 0, 0};
  const double win_tokens = std::min<double>(m.n_win, tokens);
  const double win_bytes = t.window_layers * win_tokens * z.swa * t.kv_share;
  st[static_cast<int>(ObjectKind::SwaWindow)] = {Endpoint::Hbm, sessions * win_bytes, sessions * win_tokens, 0};
  st[static_cast<int>(ObjectKind::SwaPool)] = {Endpoint::Dram, 0, 0, m.n_win > 0 ? v[FigureId::SwaPoolBytes] : 0.0};
  st[static_cast<int>(ObjectKind::EngramTables)] = {engram_home(), engram_in_hbm ? engram_gpu : engram, 0, 0};
  st[static_cast<int>(ObjectKind::PrefixCache)] = {Endpoint::Ssd, 0, 0, 0};
  st[static_cast<int>(ObjectKind::Tokens)] = {Endpoint::Tokens, 0, 0, 0};
  st[static_cast<int>(ObjectKind::HiddenStream)] = {prefill_side(), 0, 0, 0};
  // The 2026 families' state: the recurrent state once a prompt has been read, its checkpoints with the prefix
  // cache (a path that restores one says so), the indexer's keys beside the KV (counted in its bytes per token
  // too), the chunk in progress.
  st[static_cast<int>(ObjectKind::RecurrentState)] = {Endpoint::Hbm, tokens > 0 ? sessions * state_on_gpu() : 0.0, 0, 0};
  st[static_cast<int>(ObjectKind::StateCheckpoints)] = {Endpoint::Ssd, 0, 0, 0};
  st[static_cast<int>(ObjectKind::IndexerKeys)] = {Endpoint::Hbm, sessions * tokens * v[FigureId::KvIndexerPerToken] * t.kv_share,
                                                   sessions * tokens, 0};
  st[static_cast<int>(ObjectKind::ChunkKv)] = {Endpoint::Hbm, sessions * chunk_bytes(tokens) * t.kv_share, sessions * chunk_tokens(tokens), 0};
}

double Builder::chunk_bytes(double tokens) const {
  double bytes = 0;
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) bytes += std::min<double>(model::layer_window(m, i), tokens) * z.swa;
  return bytes;
}

double Builder::chunk_tokens(double tokens) const {
  double most = 0;
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) most = std::max(most, std::min<double>(model::layer_window(m, i), tokens));
  return most;
}

LayerSet Builder::linear_layers() const {
  LayerSet set;
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Linear) set.add(i);
  return set;
}

}  // namespace detail

Ledger build_ledger(const model::Scenario& s, const model::Figures& f, PathId path) {
  Ledger out;
  out.path = path;
  out.preset = s.preset;
  out.label = path_label(path, s.model);
  out.summary = path_summary(path, s.model);
  for (int i = 0; i < kObjectCount; ++i) out.labels[static_cast<std::size_t>(i)] = object_label(static_cast<ObjectKind>(i), s.model);
  detail::Builder b(s, f, out);
  const model::Terms& t = f.computed.terms;
  if (!t.feasible()) {
    // A setup that cannot run is named, never animated: the canvas shows what overflows.
    b.base_residency(t.batch_replica, s.work.ctx);
    out.note = "This setup cannot run: " + model::infeasible_summary(t) + ".";
    return out;
  }
  path_def(path).build(b);
  return out;
}

Ledger build_ledger(const model::Scenario& s, PathId path) { return build_ledger(s, model::describe(s), path); }

}  // namespace tierscope::anim
