// The shared builder context and build_ledger(): rates from the figures' terms, layer roles, entry helpers.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "model/text.h"

namespace tierscope::anim {

namespace detail {

using model::FigureId;
using model::LayerMode;

std::string B(double bytes) { return model::human(bytes, "B"); }
std::string S(double seconds) { return model::human(seconds, "s"); }
std::string N(double value) { return model::num(value); }
std::string FL(double flop) { return model::human(flop, "FLOP"); }

Builder::Builder(const model::Scenario& scenario, const model::Figures& figures, Ledger& ledger)
    : s(scenario), m(scenario.model), f(figures), v(figures.computed.values), t(figures.computed.terms), out(ledger) {
  lat_hbm = s.hw.lat_hbm_us * 1e-6;
  lat_sram = s.hw.lat_sram_ns * 1e-9;
  lat_ssd = s.hw.lat_ssd_us * 1e-6;
  lat_rdma = s.hw.lat_rdma_us * 1e-6;
  host_lat = t.host_lat;
  bw_total = t.bw_total;
  host_bw = t.host_bw;
  // The SSD array alone; the host link is its own hop in the promotion path.
  ssd_bw = s.hw.ssd_count * s.hw.ssd_gbps * 1e9;
  nic_bw = s.hw.nic_gbps * 1e9;
  pflops = t.pflops_total;
  batch = s.work.batch;
  ctx = s.work.ctx;
  prompt = s.work.prompt;
  ced = m.enc_layers > 0 && m.enc_layers < m.layer_count;
}

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

void Builder::cite(LedgerEntry& e, FigureId id, std::string formula) {
  const model::Figure& fg = f[id];
  e.figure = id;
  e.provenance = fg.provenance;
  e.sources = fg.sources;
  e.formula = std::move(formula);
}

double Builder::ratio(int layer) const {
  return layer >= 0 ? static_cast<double>(m.layers[static_cast<std::size_t>(layer)].ratio) : 1.0;
}

LayerRead Builder::layer_read(int i) const {
  // Mirrors the per-layer split in compute_values(); the tests compare the sums with its figures.
  LayerRead r;
  const model::Layer& l = m.layers[static_cast<std::size_t>(i)];
  r.mode = l.mode;
  const double swa = v[FigureId::KvSwaEntry], idx = v[FigureId::KvIndexEntry], main = v[FigureId::KvMainEntry];
  if (model::has_window(m, i)) r.window = std::min<double>(m.n_win, ctx) * swa;
  if (l.mode == LayerMode::SwaOnly) return r;
  r.source = model::kv_source_of(m, i);
  if (r.source < 0) return r;
  r.rows = ctx / ratio(r.source);
  const double pool = static_cast<double>(m.cand_blocks) * m.cand_block;
  const double selected = std::min<double>(m.top_k, r.rows) * main;
  switch (l.mode) {
    case LayerMode::Dense: r.dense = r.rows * main; break;
    case LayerMode::Full:
      r.fullpool = r.rows * idx;
      r.gather = selected;
      break;
    case LayerMode::Reindex:
      if (m.cand_src >= 0 && i > m.cand_src && pool > 0) {
        r.pool_scorer = true;
        r.pool = std::min(pool, r.rows) * idx;
      } else {
        r.fullpool = r.rows * idx;
      }
      r.gather = selected;
      break;
    case LayerMode::Reuse:
      if (m.layers[static_cast<std::size_t>(r.source)].mode == LayerMode::Dense) {
        r.dense = r.rows * main;
      } else {
        r.gather = selected;
      }
      break;
    case LayerMode::SwaOnly:
    case LayerMode::Count: break;
  }
  return r;
}

int Builder::selecting_layers() const {
  int n = 0;
  for (int i = 0; i < m.layer_count; ++i) {
    const LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    if (mode == LayerMode::Full || mode == LayerMode::Reindex) ++n;
  }
  return n;
}

LayerSet Builder::all_layers() const {
  LayerSet set;
  set.add_range(0, m.layer_count - 1);
  return set;
}

LayerSet Builder::layers_where(bool (*pred)(const LayerRead&)) const {
  LayerSet set;
  for (int i = 0; i < m.layer_count; ++i) {
    if (pred(layer_read(i))) set.add(i);
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
  return m.engram_home == model::EngramHome::Dram ? Endpoint::Dram : Endpoint::Hbm;
}

double Builder::engram_time(double bytes) const {
  // Host-resident tables are read over the NIC/RDMA path the model's engram.fetch_time uses;
  // HBM-resident (row-sharded) tables are a dependent HBM access.
  return engram_home() == Endpoint::Dram ? lat_rdma + bytes / nic_bw : lat_hbm + bytes / bw_total;
}

std::string Builder::engram_time_formula(double bytes) const {
  if (engram_home() == Endpoint::Dram) {
    return S(engram_time(bytes)) + " = " + N(s.hw.lat_rdma_us) + " µs RDMA latency + " + B(bytes) + " / " +
           N(s.hw.nic_gbps) + " GB/s";
  }
  return S(engram_time(bytes)) + " = " + N(s.hw.lat_hbm_us) + " µs HBM latency + " + B(bytes) + " / " +
         model::human(bw_total, "B/s") + " (tables row-sharded in HBM)";
}

std::string Builder::kernel_formula() const {
  return S(lat_sram) + " = lat_sram " + N(s.hw.lat_sram_ns) +
         " ns: a step inside one kernel, shown at the SRAM latency (invisible in the time budget)";
}

void Builder::base_residency(double sessions, double tokens) {
  auto& st = out.start;
  const double engram = v[FigureId::EngramTableBytes];
  const bool engram_in_hbm = engram_home() == Endpoint::Hbm;
  st[static_cast<int>(ObjectKind::WorkingSet)] = {Endpoint::Sram, 0, 0, v[FigureId::HwSramPerGpu]};
  st[static_cast<int>(ObjectKind::MoeWeights)] = {Endpoint::Hbm, v[FigureId::HbmWeights] - (engram_in_hbm ? engram : 0.0), 0, 0};
  st[static_cast<int>(ObjectKind::GlobalKv)] = {Endpoint::Hbm, sessions * tokens * v[FigureId::KvGlobalPerToken], sessions * tokens, 0};
  const double positions = (selecting_layers() * static_cast<double>(m.top_k) + (m.cand_src >= 0 ? m.cand_blocks : 0)) *
                           kPositionBytes;
  st[static_cast<int>(ObjectKind::SparseIndex)] = {Endpoint::Hbm, tokens > 0 ? sessions * positions : 0.0, 0, 0};
  const double win_tokens = std::min<double>(m.n_win, tokens);
  const double win_bytes = t.window_layers * win_tokens * v[FigureId::KvSwaEntry];
  st[static_cast<int>(ObjectKind::SwaWindow)] = {Endpoint::Hbm, sessions * win_bytes, sessions * win_tokens, 0};
  st[static_cast<int>(ObjectKind::SwaPool)] = {Endpoint::Dram, 0, 0, m.n_win > 0 ? v[FigureId::SwaPoolBytes] : 0.0};
  st[static_cast<int>(ObjectKind::EngramTables)] = {engram_home(), engram, 0, 0};
  st[static_cast<int>(ObjectKind::PrefixCache)] = {Endpoint::Ssd, 0, 0, 0};
  st[static_cast<int>(ObjectKind::Tokens)] = {Endpoint::Tokens, 0, 0, 0};
  st[static_cast<int>(ObjectKind::HiddenStream)] = {prefill_side(), 0, 0, 0};
}

}  // namespace detail

Ledger build_ledger(const model::Scenario& s, const model::Figures& f, PathId path) {
  Ledger out;
  out.path = path;
  out.preset = s.preset;
  detail::Builder b(s, f, out);
  switch (path) {
    case PathId::Prefill: detail::build_prefill(b); break;
    case PathId::Decode: detail::build_decode(b); break;
    case PathId::Engram: detail::build_engram(b); break;
    case PathId::Csa2Modes: detail::build_csa2_modes(b); break;
    case PathId::SwaResume: detail::build_swa_resume(b); break;
    case PathId::PrefixCache: detail::build_prefix_cache(b); break;
    case PathId::StepBudget: detail::build_step_budget(b); break;
    case PathId::Count: break;
  }
  return out;
}

Ledger build_ledger(const model::Scenario& s, PathId path) { return build_ledger(s, model::describe(s), path); }

}  // namespace tierscope::anim
