// The inspector section: the figures behind the selected block, tier, layer or ledger entry, each with its
// value, formula, provenance and sources, as the app computed them.
#include "ui/panel_kit.h"
#include "ui/panels.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/text.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "layout/layout.h"
#include "model/params.h"
#include "model/presets.h"
#include "render/palette.h"
#include "ui/canvas_view.h"
#include "ui/theme.h"
#include "ui/why.h"

namespace tierscope::ui {

// The app room's names (App, Panel and the operations on them) read here as the UI's own.
using namespace tierscope::app;

using anim::ObjectKind;
using model::FigureId;

namespace panel {

namespace {

// [SECTION] figure lists: what the inspector shows for each block and tier.
struct FigureList {
  const FigureId* ids;
  int count;
};

template <int N>
FigureList list(const FigureId (&a)[N]) {
  return {a, N};
}

FigureList object_figures(ObjectKind o) {
  static const FigureId ws[] = {FigureId::HwSramPerGpu, FigureId::IndexCandidateBytes};
  static const FigureId moe[] = {FigureId::HbmWeights, FigureId::ParamsTotal, FigureId::ParamsActiveDecode, FigureId::DecodeWeightBytes,
                                 FigureId::DecodeStepTime, FigureId::DecodeWeightShare};
  static const FigureId kv[] = {FigureId::KvMainEntry, FigureId::KvIndexEntry, FigureId::KvGlobalPerToken, FigureId::KvPerSession,
                                FigureId::HbmKvBudget, FigureId::HbmSessions, FigureId::TopkSliceBytes, FigureId::GatherBytes};
  static const FigureId idx[] = {FigureId::KvIndexEntry, FigureId::IndexFullpoolBytes, FigureId::IndexFullpoolTime,
                                 FigureId::IndexCandidateBytes, FigureId::IndexCandidateTime};
  static const FigureId win[] = {FigureId::KvSwaEntry, FigureId::KvSwaPerSession, FigureId::SwaWindowBytes, FigureId::SwaWindowTime};
  static const FigureId pool[] = {FigureId::SwaPoolBytes, FigureId::SwaPoolSessions, FigureId::SwaRestoreSessionTime,
                                  FigureId::ReplayTime};
  static const FigureId eng[] = {FigureId::EngramParams, FigureId::EngramTableBytes, FigureId::EngramBytesPerToken,
                                 FigureId::EngramFetchTime, FigureId::EngramStall};
  static const FigureId pre[] = {FigureId::PrefixHitBytes, FigureId::PrefixHitTime, FigureId::PrefixRecomputeTime};
  static const FigureId tok[] = {FigureId::PrefillFlop, FigureId::PrefillTime, FigureId::DecodeTokensPerS};
  static const FigureId state[] = {FigureId::KvRecurrentPerSession, FigureId::DecodeTState, FigureId::KvPerSession, FigureId::HbmKvSessionPerGpu};
  static const FigureId ckpt[] = {FigureId::KvRecurrentCkptInterval, FigureId::KvRecurrentCkptBytes, FigureId::PrefixHitBytes, FigureId::PrefixHitTime};
  static const FigureId keys[] = {FigureId::KvIndexEntry, FigureId::KvIndexerPerToken, FigureId::KvTopkRows, FigureId::IndexFullpoolBytes,
                                  FigureId::IndexFullpoolTime};
  static const FigureId chunk[] = {FigureId::KvSwaEntry, FigureId::KvChunkPerSession, FigureId::DecodeTWindow};
  switch (o) {
    case ObjectKind::WorkingSet: return list(ws);
    case ObjectKind::MoeWeights: return list(moe);
    case ObjectKind::GlobalKv: return list(kv);
    case ObjectKind::SparseIndex: return list(idx);
    case ObjectKind::SwaWindow: return list(win);
    case ObjectKind::SwaPool: return list(pool);
    case ObjectKind::EngramTables: return list(eng);
    case ObjectKind::PrefixCache: return list(pre);
    case ObjectKind::RecurrentState: return list(state);
    case ObjectKind::StateCheckpoints: return list(ckpt);
    case ObjectKind::IndexerKeys: return list(keys);
    case ObjectKind::ChunkKv: return list(chunk);
    case ObjectKind::Tokens:
    case ObjectKind::HiddenStream:
    case ObjectKind::Count: break;
  }
  return list(tok);
}

FigureList tier_figures(int tier) {
  static const FigureId sram[] = {FigureId::HwSramPerGpu};
  static const FigureId hbm[] = {FigureId::HwHbmPerGpu, FigureId::HwHbmBwPerGpu, FigureId::HbmWeights, FigureId::HbmKvBudget};
  static const FigureId dram[] = {FigureId::HwHostLinkBw, FigureId::SwaPoolBytes, FigureId::SwaRestoreSessionTime};
  static const FigureId ssd[] = {FigureId::HwSsdBwPerDrive, FigureId::PrefixHitTime};
  switch (tier) {
    case 0: return list(sram);
    case 1: return list(hbm);
    case 2: return list(dram);
    default: return list(ssd);
  }
}

void figure_card(Screen& app, FigureId id) {
  const model::Figure& f = app.figures[id];
  ImGui::PushID(static_cast<int>(id));
  ImGui::Separator();
  para(std::string(f.label) + " = " + model::figure_text(f));  // "not computed" where the setup cannot run
  para(f.formula(), true);
  std::string meta = model::provenance_name(f.provenance);
  if (f.lifetime != model::Lifetime::None) meta += std::string(" · ") + model::lifetime_name(f.lifetime);
  para(meta, true);
  if (const std::string src = model::figure_sources(app.figures, f); !src.empty()) para("sources: " + src, true);
  ImGui::PopID();
}

void figure_list(Screen& app, FigureList l) {
  for (int i = 0; i < l.count; ++i) figure_card(app, l.ids[i]);
}

// [SECTION] inspector
void inspect_layers(Screen& app, int first, int last) {
  const model::ModelArch& m = app.scenario.model;
  para("Each drawn row stands for " + model::count_of(last - first + 1, "real layer", "real layers") + ".", true);
  para(layout::mode_key(app.canvas.scene, first, last), true);
  if (ImGui::BeginTable("layers", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("layer", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("mode", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("global KV");
    for (int l = first; l <= last; ++l) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(l);
      if (ImGui::Selectable(std::to_string(l).c_str(), app.canvas.selected_layer == l, ImGuiSelectableFlags_SpanAllColumns)) {
        app.canvas.selected_layer = l;
        set_panel(app, Panel::Modes, true);
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      line(app, model::layer_mode_name(m.layers[static_cast<std::size_t>(l)].mode));
      ImGui::TableNextColumn();
      para(layer_role(m, l), true);
    }
    ImGui::EndTable();
  }
}

void inspect_entry(Screen& app) {
  const anim::LedgerEntry* e = app.state.entry;
  if (!e) {
    para(app.ledger.note.empty() ? "This path has no steps for this model." : app.ledger.note, true);
    return;
  }
  para(e->sentence);
  para("step " + std::to_string(e->index + 1) + " of " + std::to_string(app.state.steps) + " · " + endpoint_name(app, e->from) +
           " → " + endpoint_name(app, e->to),
       true);
  if (e->bytes > 0) para("moves " + model::human(e->bytes, "B"));
  if (e->flop > 0) para("computes " + model::human(e->flop, "FLOP"));
  para("takes " + model::human(e->duration, "s") + " of model time" + (e->overlapped ? " (hidden under other work)" : ""));
  para(e->formula, true);
  para(std::string(model::provenance_name(e->provenance)) + " · " + model::lifetime_name(anim::object_lifetime(e->object)), true);
  if (!e->sources.empty()) para("sources: " + std::string(e->sources), true);
  if (e->figure != FigureId::Count) figure_card(app, e->figure);
}

}  // namespace

std::string layer_role(const model::ModelArch& m, int layer) {
  const model::LayerMode mode = m.layers[static_cast<std::size_t>(layer)].mode;
  if (mode == model::LayerMode::SwaOnly) return "SWA window only: no global KV";
  const int src = model::kv_source_of(m, layer);
  if (src == layer) {
    std::string readers;
    int n = 0;
    for (int j = layer + 1; j < m.layer_count; ++j) {
      if (model::kv_source_of(m, j) != layer || m.layers[static_cast<std::size_t>(j)].mode == model::LayerMode::SwaOnly) continue;
      if (n++ < 12) readers += (readers.empty() ? "" : ", ") + std::to_string(j);
    }
    if (n > 12) readers += ", …";
    std::string s = "owns global KV (1 row per " + model::count_of(m.layers[static_cast<std::size_t>(layer)].ratio, "token", "tokens") + ")";
    s += n > 0 ? "; shared by " + model::count_of(n, "layer", "layers") + ": " + readers : "; no other layer reads it";
    return s;
  }
  if (src < 0) return "no KV source before it";
  return "shares the global KV of layer " + std::to_string(src);
}

void inspector(Screen& app) {
  const CanvasTarget t = app.selected;
  const layout::Item* it = find_item(app, t);
  if (!it) {
    if (app.selected_figure >= 0 && app.selected_figure < static_cast<int>(app.figures.list.size())) {
      figure_card(app, static_cast<FigureId>(app.selected_figure));
      return;
    }
    para("Click or tap any block, tier, layer row or the moving packet (or walk them with ↑ ↓) to see its figures, "
         "the formula with numbers, where each number comes from, and its lifetime. Press ? for keys.",
         true);
    ImGui::Separator();
    para("Now:", true);
    inspect_entry(app);
    return;
  }
  para(target_name(app, t));
  switch (t.kind) {
    case layout::Kind::Block: {
      const auto o = static_cast<ObjectKind>(t.index);
      const anim::ObjectState& st = app.state.objects[static_cast<std::size_t>(t.index)];
      // First why it sits in this tier and what would move it, then what it holds now.
      for (const std::string& why : why_here(o, st.tier, app.scenario, app.figures)) para(why);
      para(model::human(st.bytes, "B") + " resident in " + endpoint_name(app, st.tier), true);
      if (st.tokens > 0) para("covering " + model::count_of(st.tokens, "token", "tokens"), true);
      para(std::string("lifetime: ") + model::lifetime_name(anim::object_lifetime(o)), true);
      if (o == ObjectKind::EngramTables) {
        para("Engram: weights, not activations.");
        para("The tables are trained parameters, read-only at inference: the current 2- to n-token patterns are hashed "
             "into addresses, only those rows are fetched, and a learned gate meters what enters the residual stream. "
             "Nothing is written as tokens stream by, unlike the KV caches above, which this very request creates.",
             true);
      }
      figure_list(app, object_figures(o));
      break;
    }
    case layout::Kind::Band: {
      const layout::BandInfo& b = app.canvas.layout.bands[static_cast<std::size_t>(t.index)];
      para(model::human(b.capacity, "B") + " capacity · " + model::human(b.latency, "s") + " latency");
      const model::Hardware& hw = app.scenario.hw;
      std::string how;
      switch (t.index) {
        case 0:
          how = "one GPU's " + model::human(app.figures[FigureId::HwSramPerGpu].value, "B") + " on-chip (of " + model::count_of(hw.gpus, "GPU", "GPUs") +
                " in the instance)";
          break;
        case 1:
          how = "one GPU's " + model::human(app.figures[FigureId::HwHbmPerGpu].value, "B") + " (of " + model::count_of(hw.gpus, "GPU", "GPUs") +
                "): weights and KV shown per GPU";
          break;
        case 2: how = "host DRAM parameter: " + model::num(hw.host_dram_gb) + " GB"; break;
        default: how = model::count_of(hw.ssd_count, "drive", "drives") + " × " + model::num(hw.ssd_tb) + " TB"; break;
      }
      para(how, true);
      const auto held = [&](int i) {
        const layout::ObjectSpec& o = app.canvas.scene.objects[static_cast<std::size_t>(i)];
        return o.present && static_cast<int>(o.tier) == t.index;
      };
      int holds = 0;
      for (int i = 0; i < anim::kObjectCount; ++i) holds += held(i) ? 1 : 0;
      if (holds == 0) {
        for (const std::string& why : why_empty(static_cast<anim::Endpoint>(t.index), app.scenario, app.figures)) para(why);
      } else {
        para("Holds:", true);
      }
      for (int i = 0; i < anim::kObjectCount; ++i) {
        if (!held(i)) continue;
        ImGui::Bullet();
        para(object_name(app, static_cast<ObjectKind>(i)) + " · " +
             model::human(app.state.objects[static_cast<std::size_t>(i)].bytes, "B"));
      }
      figure_list(app, tier_figures(t.index));
      break;
    }
    case layout::Kind::EncoderLayer:
    case layout::Kind::DecoderLayer: inspect_layers(app, it->first_layer, it->last_layer); break;
    case layout::Kind::Packet: inspect_entry(app); break;
    case layout::Kind::Remote: {
      // The hand-off's way out and where it lands: the figures that time it.
      static const FigureId pd[] = {FigureId::PdKvBytes, FigureId::PdPages, FigureId::PdWireTime, FigureId::PdTransferTime};
      para(t.index == static_cast<int>(anim::Endpoint::Nic)
               ? "The prefill node's network interface: the prompt's KV leaves by it over RDMA, at the NIC's rate times the RDMA efficiency."
               : "Another node's GPU memory: the decode instance receives the prompt's KV here and decodes from it.",
           true);
      figure_list(app, list(pd));
      break;
    }
    case layout::Kind::Token:
    case layout::Kind::Stream:
      para(t.kind == layout::Kind::Token
               ? (app.canvas.scene.ced ? "The prompt's tokens enter the causal encoder in prefill; decode adds one output token per step."
                                       : "The prompt's tokens run through every layer in prefill; decode adds one output token per step.")
               : (app.canvas.scene.ced ? "Each token's final encoder state is projected into the global KV the decoder layers read."
                                       : "Each token's final hidden state becomes the logits of the next token."),
           true);
      figure_list(app, object_figures(ObjectKind::Tokens));
      if (t.kind == layout::Kind::Stream) figure_card(app, FigureId::KvGlobalPerToken);
      break;
    default: break;
  }
}

}  // namespace panel

model::FigureId primary_figure(anim::ObjectKind o) {
  const panel::FigureList l = panel::object_figures(o);
  return l.count > 0 ? l.ids[0] : model::FigureId::Count;
}

}  // namespace tierscope::ui
