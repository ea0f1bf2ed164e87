// The scene: the parts of the canvas that stay fixed while a path plays (layer modes, tier capacities and
// latencies, each state object's tier, largest footprint and colour role), built once per ledger.
#include <algorithm>
#include <cmath>

#include "base/text.h"
#include "layout/layout.h"

namespace tierscope::layout {

using anim::Endpoint;
using anim::ObjectKind;

const char* dock_side_key(DockSide d) {
  switch (d) {
    case DockSide::Right: return "right";
    case DockSide::Bottom: return "bottom";
    case DockSide::None: break;
  }
  return "none";
}

const char* role_key(Role r) {
  switch (r) {
    case Role::Neutral: return "neutral";
    case Role::Compute: return "compute";
    case Role::Shared: return "shared";
    case Role::Swa: return "swa";
    case Role::Fp4: return "fp4";
    case Role::Count: break;
  }
  return "neutral";
}

Role object_role(ObjectKind o, bool fp4_kv) {
  switch (o) {
    case ObjectKind::MoeWeights:
    case ObjectKind::EngramTables: return Role::Shared;
    case ObjectKind::GlobalKv:
    case ObjectKind::IndexerKeys:
    case ObjectKind::PrefixCache: return fp4_kv ? Role::Fp4 : Role::Shared;
    case ObjectKind::SwaWindow:
    case ObjectKind::SwaPool:
    case ObjectKind::RecurrentState:
    case ObjectKind::StateCheckpoints:
    case ObjectKind::ChunkKv: return Role::Swa;  // local state of one session, not shared between layers
    case ObjectKind::WorkingSet:
    case ObjectKind::SparseIndex:
    case ObjectKind::Tokens:
    case ObjectKind::HiddenStream: return Role::Compute;
    case ObjectKind::Count: break;
  }
  return Role::Neutral;
}

const char* block_label(ObjectKind o, const Scene& sc) {
  switch (o) {
    case ObjectKind::WorkingSet: return "Kernel working set";
    case ObjectKind::MoeWeights: return sc.moe ? "MoE weights" : "Dense weights";
    case ObjectKind::GlobalKv: return sc.attn == model::AttnKind::MHA ? "KV cache" : sc.attn == model::AttnKind::MLA ? "MLA latent KV" : "Global KV";
    case ObjectKind::SparseIndex: return "CSA2 sparse index";
    case ObjectKind::SwaWindow: return "SWA active window";
    case ObjectKind::SwaPool: return "SWA session pool";
    case ObjectKind::EngramTables: return "Engram tables";
    case ObjectKind::PrefixCache: return "Prefix cache";
    case ObjectKind::Tokens: return "Tokens";
    case ObjectKind::HiddenStream: return "Hidden stream";
    case ObjectKind::RecurrentState: return "Recurrent state";
    case ObjectKind::StateCheckpoints: return "State checkpoints";
    case ObjectKind::IndexerKeys: return "Indexer keys";
    case ObjectKind::ChunkKv: return "Chunk KV";
    case ObjectKind::Count: break;
  }
  return "";
}

int drawn_rows(int real) { return std::clamp(real, 0, kDrawnLayers); }

void row_layers(int real, int rows, int row, int& first, int& last) {
  if (rows <= 0 || real <= 0) {
    first = last = -1;
    return;
  }
  // Integer split: every real layer belongs to exactly one row, rows differ by at most one layer.
  first = row * real / rows;
  last = (row + 1) * real / rows - 1;
}

Scene make_scene(const model::Scenario& s, const model::Figures& f, const anim::Ledger& ledger) {
  Scene sc;
  const model::ModelArch& m = s.model;
  sc.layer_count = m.layer_count;
  sc.ced = model::is_encoder_decoder(m);
  sc.enc_layers = sc.ced ? m.enc_layers : 0;
  for (int i = 0; i < m.layer_count && i < model::kMaxLayers; ++i) {
    const model::Layer& l = m.layers[static_cast<std::size_t>(i)];
    sc.modes[static_cast<std::size_t>(i)] = l.mode;
    sc.ratios[static_cast<std::size_t>(i)] = l.ratio;
    sc.spans[static_cast<std::size_t>(i)] = l.span;
  }
  sc.cand_pool = m.cand_src >= 0;
  sc.prompt_tokens = s.work.prompt;
  sc.fp4_kv = model::format_info(m.kv_fmt).value_bits <= 4.0;
  sc.moe = m.experts > 0;
  sc.attn = m.attn;
  // What keeps the setup from running, said where it happens: memory on the HBM band, positions on the
  // token row. Numbers come from the model's reasons.
  const model::Terms& t = f.computed.terms;
  for (int i = 0; i < t.infeasible_count; ++i) {
    const model::InfeasibleReason& r = t.infeasible[i];
    const std::string need = model::human(r.value, r.unit), have = model::human(r.limit, r.unit);
    switch (r.kind) {
      case model::Infeasible::WeightsDoNotFit:
        sc.overflow[1] = {"cannot run: weights need " + need + " per GPU, " + have + " usable", "weights " + need + " > " + have, "overflows"};
        break;
      case model::Infeasible::KvDoesNotFit:
        sc.overflow[1] = {"cannot run: one session's KV needs " + need + ", " + have + " left", "KV " + need + " > " + have, "overflows"};
        break;
      case model::Infeasible::BatchOverCapacity:
        sc.overflow[1] = {"cannot run: batch " + model::num(r.value) + ", room for " + model::num(r.limit) + " sessions",
                          "batch " + model::num(r.value) + " > " + model::num(r.limit), "overflows"};
        break;
      case model::Infeasible::CtxOverMaxPos:
      case model::Infeasible::PromptOverMaxPos:
        sc.cannot_run = {"cannot run: " + model::infeasible_text(r), std::string(r.kind == model::Infeasible::CtxOverMaxPos ? "context" : "prompt") +
                                                                          " > " + model::num(r.limit) + " positions", "cannot run"};
        break;
      case model::Infeasible::Count: break;
    }
  }

  // One GPU's SRAM and HBM (the ledger places weights and KV per GPU), the node's DRAM and drives.
  sc.tiers[0] = {f[model::FigureId::HwSramPerGpu].value, s.hw.lat_sram_ns * 1e-9};
  sc.tiers[1] = {f[model::FigureId::HwHbmPerGpu].value, s.hw.lat_hbm_us * 1e-6};
  sc.tiers[2] = {s.hw.host_dram_gb * 1e9, model::host_lat_us(s.hw) * 1e-6};
  sc.tiers[3] = {s.hw.ssd_count * s.hw.ssd_tb * 1e12, s.hw.lat_ssd_us * 1e-6};

  for (int i = 0; i < anim::kObjectCount; ++i) {
    const auto& r = ledger.start[static_cast<std::size_t>(i)];
    ObjectSpec& o = sc.objects[static_cast<std::size_t>(i)];
    o.tier = r.tier;
    o.present = anim::is_tier(r.tier);
    o.role = object_role(static_cast<ObjectKind>(i), sc.fp4_kv);
    o.footprint = std::max(r.bytes, r.capacity);
  }
  // State the model does not have is not drawn: no window without sliding-window KV, no sparse index
  // without indexers, no Engram tables without Engram layers (a dense GQA model shows none of the three), no
  // recurrent state or its checkpoints without linear layers, no indexer keys, no chunk KV without chunked layers.
  const auto absent = [&](ObjectKind k) { sc.objects[static_cast<std::size_t>(k)].present = false; };
  if (f[model::FigureId::KvSwaPerSession].value <= 0) {
    absent(ObjectKind::SwaWindow);
    absent(ObjectKind::SwaPool);
  }
  if (m.top_k <= 0 || m.idx_heads <= 0) absent(ObjectKind::SparseIndex);
  if (f[model::FigureId::EngramParams].value <= 0) absent(ObjectKind::EngramTables);
  if (!model::has_recurrent_state(m)) {
    absent(ObjectKind::RecurrentState);
    absent(ObjectKind::StateCheckpoints);
  }
  if (f[model::FigureId::KvIndexerPerToken].value <= 0) absent(ObjectKind::IndexerKeys);
  if (!model::has_chunked(m)) absent(ObjectKind::ChunkKv);
  // A path that sends KV to another node draws the way out (the NIC) and where it lands.
  for (const anim::LedgerEntry& e : ledger.entries)
    for (const Endpoint end : {e.from, e.to}) sc.remote = sc.remote || end == Endpoint::Nic || end == Endpoint::PeerHbm;
  // Largest footprint over the path (both ends of every step), so blocks keep their size while it plays
  // and the fill shows what is resident now.
  const int n = static_cast<int>(ledger.entries.size());
  for (int step = 0; step < std::max(n, 1); ++step) {
    for (double frac : {0.0, 1.0}) {
      const anim::StepState st = anim::state_at(ledger, step, frac);
      for (int i = 0; i < anim::kObjectCount; ++i) {
        ObjectSpec& o = sc.objects[static_cast<std::size_t>(i)];
        o.footprint = std::max(o.footprint, st.objects[static_cast<std::size_t>(i)].bytes);
      }
    }
  }
  return sc;
}

}  // namespace tierscope::layout
