// The panels: the toolbar with its panel buttons (and counters and playback when the page has none), and
// the help, inspector, scenario editor, CSA2 modes, card check and figures sections in the area the layout
// reserved for them. Every value shown is read from the app (figures, ledger, state). Text wraps or is sized
// to fit its column; what still runs past its room is counted for the tests (layout_json's panelTextCut).
#include "ui/panels.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/card_check.h"
#include "model/params.h"
#include "model/presets.h"
#include "model/text.h"
#include "render/palette.h"
#include "ui/canvas_view.h"
#include "ui/theme.h"
#include "ui/units.h"

namespace tierscope::ui {

using anim::ObjectKind;
using model::FigureId;

namespace {

// Panels neither take focus when they appear nor move; keyboard focus enters them only when asked (a panel
// key, Enter on a selection, a click), so the schematic keeps its keys otherwise.
constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                    ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing;

ImVec4 vec4(render::Rgba c) { return ImVec4(c.r, c.g, c.b, c.a); }

// The last item ran past the right edge of the room it is drawn in (cut by the clip rectangle).
void check_fit(App& app) {
  if (ImGui::GetItemRectMax().x > ImGui::GetWindowDrawList()->GetClipRectMax().x + 0.5f) ++app.canvas.text_cut;
}

// One line of text that must fit (counted when it does not).
void line(App& app, const std::string& s, bool muted = false) {
  if (muted) ImGui::TextDisabled("%s", s.c_str());
  else ImGui::TextUnformatted(s.c_str());
  check_fit(app);
}

// Text that wraps at the edge of its room.
void para(const std::string& s, bool muted = false) {
  ImGui::PushTextWrapPos(0.0f);
  if (muted) ImGui::TextDisabled("%s", s.c_str());
  else ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
}

// Remembers where the last item was drawn, for the page's tests (layout_json's "controls").
void record(App& app, std::string id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  app.canvas.controls.push_back({std::move(id), {a.x, a.y, b.x - a.x, b.y - a.y}});
}


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
  switch (o) {
    case ObjectKind::WorkingSet: return list(ws);
    case ObjectKind::MoeWeights: return list(moe);
    case ObjectKind::GlobalKv: return list(kv);
    case ObjectKind::SparseIndex: return list(idx);
    case ObjectKind::SwaWindow: return list(win);
    case ObjectKind::SwaPool: return list(pool);
    case ObjectKind::EngramTables: return list(eng);
    case ObjectKind::PrefixCache: return list(pre);
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

void figure_card(App& app, FigureId id) {
  const model::Figure& f = app.figures[id];
  ImGui::PushID(static_cast<int>(id));
  ImGui::Separator();
  para(std::string(f.label) + " = " + display_value(f.value, f.unit));
  para(f.formula, true);
  std::string meta = model::provenance_name(f.provenance);
  if (f.lifetime != model::Lifetime::None) meta += std::string(" · ") + model::lifetime_name(f.lifetime);
  para(meta, true);
  if (const std::string src = model::figure_sources(app.figures, f); !src.empty()) para("sources: " + src, true);
  ImGui::PopID();
}

void figure_list(App& app, FigureList l) {
  for (int i = 0; i < l.count; ++i) figure_card(app, l.ids[i]);
}

// [SECTION] inspector
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
    std::string s = "owns global KV (1 row per " + count_of(m.layers[static_cast<std::size_t>(layer)].ratio, "token", "tokens") + ")";
    s += n > 0 ? "; shared by " + count_of(n, "layer", "layers") + ": " + readers : "; no other layer reads it";
    return s;
  }
  if (src < 0) return "no KV source before it";
  return "shares the global KV of layer " + std::to_string(src);
}

void inspect_layers(App& app, int first, int last) {
  const model::ModelArch& m = app.scenario.model;
  para("Each drawn row stands for " + count_of(last - first + 1, "real layer", "real layers") + ".", true);
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

void inspect_entry(App& app) {
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

void inspector(App& app) {
  const CanvasTarget t = app.canvas.selected;
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
      para(model::human(st.bytes, "B") + " resident in " + endpoint_name(app, st.tier));
      if (st.tokens > 0) para("covering " + count_of(st.tokens, "token", "tokens"), true);
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
          how = "one GPU's " + model::human(app.figures[FigureId::HwSramPerGpu].value, "B") + " on-chip (of " + count_of(hw.gpus, "GPU", "GPUs") +
                " in the instance)";
          break;
        case 1:
          how = "one GPU's " + model::human(app.figures[FigureId::HwHbmPerGpu].value, "B") + " (of " + count_of(hw.gpus, "GPU", "GPUs") +
                "): weights and KV shown per GPU";
          break;
        case 2: how = "host DRAM parameter: " + model::num(hw.host_dram_gb) + " GB"; break;
        default: how = count_of(hw.ssd_count, "drive", "drives") + " × " + model::num(hw.ssd_tb) + " TB"; break;
      }
      para(how, true);
      para("Holds:", true);
      for (int i = 0; i < anim::kObjectCount; ++i) {
        const layout::ObjectSpec& o = app.canvas.scene.objects[static_cast<std::size_t>(i)];
        if (!o.present || static_cast<int>(o.tier) != t.index) continue;
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

// [SECTION] scenario editor
std::string adjustments_text(const std::vector<Adjustment>& moved) {
  std::string s;
  for (const Adjustment& a : moved) {
    if (!s.empty()) s += " ";
    s += a.field + " moved from " + a.from + " to " + a.to + (a.why.empty() ? "." : ": " + a.why + ".");
  }
  return s;
}

void param_row(App& app, const model::ParamDef& p) {
  ImGui::PushID(p.key);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  line(app, p.key);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", p.description, model::param_allowed(p).c_str());
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string current = model::get_param_text(app.scenario, p);
  model::Errors errors;
  std::vector<Adjustment> moved;
  bool tried = false;
  if (p.kind == model::ParamKind::Enum) {
    if (ImGui::BeginCombo("##v", current.c_str())) {
      for (int i = 0; i < p.enum_count; ++i) {
        if (ImGui::Selectable(p.enum_keys[i], current == p.enum_keys[i])) {
          set_param(app, p.key, p.enum_keys[i], errors, &moved);
          tried = true;
        }
      }
      ImGui::EndCombo();
    }
  } else {
    // The typed value applies when the field is left: Enter, a click elsewhere, or focus leaving the canvas
    // (ImGui hands the edited text back then). Esc restores the old value.
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", current.c_str());
    ImGui::InputText("##v", buf, sizeof buf, ImGuiInputTextFlags_AutoSelectAll);
    if (ImGui::IsItemDeactivatedAfterEdit() && current != buf) {
      set_param(app, p.key, buf, errors, &moved);
      tried = true;
    }
  }
  record(app, std::string("param:") + p.key);
  if (tried) {
    app.canvas.edit_key = p.key;
    app.canvas.edit_error = errors.empty() ? "" : errors.front().message();
    app.canvas.edit_note = adjustments_text(moved);
  }
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  line(app, p.unit, true);
  if (app.canvas.edit_key == p.key && (!app.canvas.edit_error.empty() || !app.canvas.edit_note.empty())) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0.0f);
    if (!app.canvas.edit_error.empty())
      ImGui::TextColored(app.canvas.dark ? ImVec4(1.0f, 0.55f, 0.55f, 1.0f) : ImVec4(0.70f, 0.15f, 0.12f, 1.0f), "%s",
                         app.canvas.edit_error.c_str());
    if (!app.canvas.edit_note.empty()) ImGui::TextDisabled("%s", app.canvas.edit_note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PopID();
}

void scenario_editor(App& app) {
  model::Errors errors;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const model::PresetInfo* cur = model::find_preset(app.scenario.preset);
  // The preset's full label where it fits the box, else without its note in brackets, else its key.
  std::string shown = cur ? cur->label : app.scenario.preset;
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(shown.c_str()).x > room && shown.find(" (") != std::string::npos) shown = shown.substr(0, shown.find(" ("));
  if (ImGui::CalcTextSize(shown.c_str()).x > room) shown = app.scenario.preset;
  if (ImGui::BeginCombo("##preset", shown.c_str())) {
    for (const model::PresetInfo& p : model::presets()) {
      if (ImGui::Selectable(p.label, cur == &p)) set_preset(app, p.name, errors);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.summary);
    }
    ImGui::EndCombo();
  }
  record(app, "preset");
  para("Type a value and press Enter (or leave the field); every figure recomputes.", true);
  const model::ParamGroup order[] = {model::ParamGroup::Workload, model::ParamGroup::Hardware, model::ParamGroup::Model};
  for (model::ParamGroup g : order) {
    if (!ImGui::TreeNodeEx(model::param_group_name(g), g == model::ParamGroup::Model ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) continue;
    if (ImGui::BeginTable("params", 3, ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed);
      for (const model::ParamDef& p : model::params())
        if (p.group == g && p.kind != model::ParamKind::Text) param_row(app, p);
      ImGui::EndTable();
    }
    ImGui::TreePop();
  }
}

// [SECTION] CSA2 layer modes
render::Rgba mode_colour(model::LayerMode m, const render::Palette& pal, bool fp4) {
  switch (m) {
    case model::LayerMode::Dense:
    case model::LayerMode::Full: return pal.role[static_cast<int>(fp4 ? layout::Role::Fp4 : layout::Role::Shared)];
    case model::LayerMode::Reindex: return pal.role[static_cast<int>(layout::Role::Compute)];
    case model::LayerMode::SwaOnly: return pal.role[static_cast<int>(layout::Role::Swa)];
    default: return pal.surface2;
  }
}

void modes_panel(App& app) {
  const model::ModelArch& m = app.scenario.model;
  const render::Palette pal = render::palette(app.canvas.dark);
  para("Full layers own global KV and pick top-k; Reindex re-selects inside the pool; Reuse takes the selection "
       "unchanged; SWA-only keeps just the window. Pick a layer to edit it.",
       true);
  const float cell = ImGui::GetFontSize() * 2.2f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_row = std::max(1, static_cast<int>((avail + 4) / (cell + 4)));
  for (int l = 0; l < m.layer_count; ++l) {
    const model::Layer& layer = m.layers[static_cast<std::size_t>(l)];
    if (l % per_row) ImGui::SameLine(0, 4);
    const render::Rgba c = mode_colour(layer.mode, pal, app.canvas.scene.fp4_kv);
    const bool filled = layer.mode != model::LayerMode::Reuse;
    ImGui::PushStyleColor(ImGuiCol_Button, vec4(filled ? c : pal.surface2));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, vec4(render::mix(filled ? c : pal.surface2, pal.text, 0.25f)));
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(filled ? pal.on_role : pal.text));
    const bool sel = app.canvas.selected_layer == l;
    if (sel) ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
    char label[16];
    std::snprintf(label, sizeof label, "%c%s##%d", model::layer_mode_letter(layer.mode),
                  model::owns_kv(layer.mode) && layer.ratio != 1 ? std::to_string(layer.ratio).c_str() : "", l);
    if (ImGui::Button(label, ImVec2(cell, 0))) app.canvas.selected_layer = sel ? -1 : l;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("layer %d · %s\n%s", l, model::layer_mode_name(layer.mode), layer_role(m, l).c_str());
    if (sel) ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
  }
  const int l = app.canvas.selected_layer;
  if (l < 0 || l >= m.layer_count) return;
  ImGui::Separator();
  const model::Layer& layer = m.layers[static_cast<std::size_t>(l)];
  const bool ced = m.enc_layers > 0 && m.enc_layers < m.layer_count;
  para("Layer " + std::to_string(l) + (ced ? (l < m.enc_layers ? " · causal encoder" : " · decoder") : ""));
  para(layer_role(m, l), true);
  model::Errors errors;
  const model::LayerMode modes[] = {model::LayerMode::Full, model::LayerMode::Reindex, model::LayerMode::Reuse,
                                    model::LayerMode::SwaOnly, model::LayerMode::Dense};
  const float right = ImGui::GetContentRegionMax().x;
  for (model::LayerMode mode : modes) {
    // Radio buttons flow and wrap instead of running past the panel's edge.
    const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(model::layer_mode_name(mode)).x;
    if (mode != modes[0]) {
      ImGui::SameLine();
      if (ImGui::GetCursorPosX() + w > right) ImGui::NewLine();
    }
    if (ImGui::RadioButton(model::layer_mode_name(mode), layer.mode == mode) && layer.mode != mode) {
      model::ModelArch next = m;
      next.layers[static_cast<std::size_t>(l)].mode = mode;
      if (!set_param(app, "modes", model::layers_to_text(next), errors)) app.canvas.edit_error = errors.front().message();
      else app.canvas.edit_error.clear();
      app.canvas.edit_key = "modes";
    }
  }
  if (app.canvas.edit_key == "modes" && !app.canvas.edit_error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(app.canvas.dark ? ImVec4(1.0f, 0.55f, 0.55f, 1.0f) : ImVec4(0.70f, 0.15f, 0.12f, 1.0f), "%s",
                       app.canvas.edit_error.c_str());
    ImGui::PopTextWrapPos();
  }
}

// [SECTION] card check: one entry per claim (its text wraps; the computed value and verdict below it), so
// nothing is squeezed into a narrow column and cut.
void card_panel(App& app) {
  CanvasState& c = app.canvas;
  if (c.card_revision != app.revision) {
    c.card = model::check_card(app.scenario);
    c.card_revision = app.revision;
  }
  for (std::size_t i = 0; i < c.card.size(); ++i) {
    const model::CardRow& r = c.card[i];
    const model::FigureInfo& info = model::figure_info(r.claim->figure);
    ImGui::PushID(static_cast<int>(i));
    if (i) ImGui::Separator();
    para(r.claim->text);
    const ImVec4 col = r.verdict == model::Verdict::Consistent     ? ImVec4(0.55f, 0.82f, 0.45f, 1)
                       : r.verdict == model::Verdict::HoldsOnlyIf ? ImVec4(0.94f, 0.72f, 0.36f, 1)
                                                                  : ImVec4(1.0f, 0.55f, 0.55f, 1);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("computed %s ·", display_value(r.value, info.unit).c_str());
    ImGui::SameLine(0, 4);
    if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(model::verdict_name(r.verdict)).x > ImGui::GetContentRegionMax().x) ImGui::NewLine();
    ImGui::TextColored(c.dark ? col : ImVec4(col.x * 0.6f, col.y * 0.6f, col.z * 0.6f, 1), "%s", model::verdict_name(r.verdict));
    check_fit(app);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
      ImGui::TextUnformatted(r.reason.c_str());
      if (!r.condition.empty()) ImGui::TextDisabled("%s", r.condition.c_str());
      ImGui::TextDisabled("claimed: %s", model::claim_band(*r.claim).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopTextWrapPos();
    if (!r.condition.empty()) para(r.condition, true);
    ImGui::PopID();
  }
}

// [SECTION] figures table: each label wraps in the first column; the value column fits its widest value.
void figures_panel(App& app) {
  if (!ImGui::BeginTable("figures", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) return;
  ImGui::TableSetupColumn("figure", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed);
  for (std::size_t i = 0; i < app.figures.list.size(); ++i) {
    const model::Figure& f = app.figures.list[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const std::string label(f.label);
    const float wrap = ImGui::GetContentRegionAvail().x;
    const float h = ImGui::CalcTextSize(label.c_str(), nullptr, false, wrap).y;
    const ImVec2 at = ImGui::GetCursorPos();
    if (ImGui::Selectable("##fig", app.selected_figure == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowOverlap, ImVec2(0, h))) {
      app.selected_figure = static_cast<int>(i);
      select_target(app, {});
      set_panel(app, Panel::Inspector, true);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.formula.c_str());
    ImGui::SetCursorPos(at);
    para(label);
    ImGui::PopID();
    ImGui::TableNextColumn();
    line(app, display_value(f.value, f.unit));
  }
  ImGui::EndTable();
}

// [SECTION] help: every key the canvas answers to (the page lists the same in the canvas's aria-keyshortcuts).
void help_panel(App& app) {
  const char* rows[][2] = {
      {"Space", "play / pause"},
      {"← →", "previous / next step"},
      {"Home / End", "first / last step"},
      {"↑ ↓", "select the previous / next object"},
      {"Enter or I", "inspector (keyboard focus moves into it)"},
      {"S · M · C · F", "scenario · CSA2 modes · card check · figures"},
      {"Esc", "from a panel, back to the schematic; then closes this help or clears the selection"},
      {"?", "this help"},
      {"Tab", "leave the canvas"},
      {"Click or tap", "inspect a block, tier, layer row or the packet"},
      {"Drag sideways", "scrub through the path"},
  };
  para("Inside a panel the arrows move between its controls and Space or Enter uses one.", true);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
    for (auto& r : rows) {
      ImGui::TableNextColumn();
      line(app, r[0]);
      ImGui::TableNextColumn();
      para(r[1], true);
    }
    ImGui::EndTable();
  }
}

// [SECTION] toolbar
// The header counters; chips that do not fit the line are left out (the page's header lists them all).
void counters(const App& app, bool compact) {
  const anim::Counters& k = app.state.counters;
  const float right = ImGui::GetWindowContentRegionMax().x;
  auto chip = [&](const char* label, const std::string& value) {
    const float w = ImGui::CalcTextSize(label).x + ImGui::CalcTextSize(value.c_str()).x + 18;
    if (ImGui::GetCursorPosX() + w > right) return;
    ImGui::TextDisabled("%s", label);
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(value.c_str());
    ImGui::SameLine(0, 14);
  };
  chip(compact ? "KV" : "Global KV",
       model::num(k.global_kv_tokens) + " tok" + (compact ? "" : " · " + model::human(k.global_kv_bytes, "B")));
  chip(compact ? "SWA" : "SWA KV", model::num(k.swa_kv_tokens) + " tok");
  chip(compact ? "Engram" : "Engram rows", model::num(k.engram_rows));
  chip(compact ? "" : "CSA2 policy", policy_label(app.scenario));
}

bool toggle_button(App& app, const char* label, Panel p, const char* key) {
  const bool open = panel_open(app, p);
  if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_Header));
  const bool clicked = ImGui::Button(label);
  if (open) ImGui::PopStyleColor();
  record(app, std::string("button:") + panel_key(p));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", label, key);
  if (clicked) {
    set_panel(app, p, !open);
    if (!open) app.canvas.scroll_request = static_cast<int>(p);
  }
  ImGui::SameLine(0, 4);
  return clicked;
}

// The panel buttons and the help button.
void panel_buttons(App& app) {
  toggle_button(app, "Scenario", Panel::Scenario, "S");
  toggle_button(app, "Modes", Panel::Modes, "M");
  toggle_button(app, "Card", Panel::Card, "C");
  toggle_button(app, "Figures", Panel::Figures, "F");
  if (ImGui::Button("?")) {
    app.canvas.help_open = !app.canvas.help_open;
    ++app.revision;
  }
  record(app, "button:help");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keys and gestures (?)");
}

void toolbar(App& app, const layout::Layout& L) {
  ImGui::SetNextWindowPos(ImVec2(L.toolbar.x, L.toolbar.y));
  ImGui::SetNextWindowSize(ImVec2(L.toolbar.w, L.toolbar.h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 3));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(6, 4));
  // The toolbar takes no arrows: keyboard users reach its panels through their keys.
  ImGui::Begin("toolbar", nullptr, kFixed | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs);
  // Same rules as the layout's toolbar height: phones (< 560 px) give the panel buttons their own line.
  const float line_h = ImGui::GetFrameHeight();
  const bool lines2 = L.toolbar.h > line_h * 1.8f, lines3 = L.toolbar.h > line_h * 2.8f;
  const bool buttons_own_line = L.toolbar.w < 536;  // buttons on their own line
  const bool counters_line = lines3 || (lines2 && !buttons_own_line);  // a counters line
  if (app.canvas.host_playback) {
    // The page shows playback and status: the panel buttons, then the counters unless the page has them.
    panel_buttons(app);
    if (!app.canvas.host_counters) {
      ImGui::SameLine(0, 14);
      ImGui::AlignTextToFramePadding();
      counters(app, L.toolbar.w < 700);
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
    return;
  }
  if (ImGui::Button("←")) step_by(app, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous step (←)");
  ImGui::SameLine(0, 4);
  if (ImGui::Button(app.playback.playing ? "Pause" : "▶ Play")) toggle_play(app);
  ImGui::SameLine(0, 4);
  if (ImGui::Button("→")) step_by(app, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next step (→)");
  ImGui::SameLine(0, 8);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("##path", anim::path_label(app.playback.path, app.scenario.model).c_str())) {
    for (int i = 0; i < anim::kPathCount; ++i) {
      const auto p = static_cast<anim::PathId>(i);
      if (ImGui::Selectable(anim::path_label(p, app.scenario.model).c_str(), p == app.playback.path)) set_path(app, p);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", anim::path_summary(p));
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine(0, 8);
  const int steps = app.state.steps;
  std::string status = steps > 0 ? std::string(app.playback.playing ? "playing" : "READY") + " · step " +
                                       std::to_string(app.state.step + 1) + " of " + std::to_string(steps)
                                 : "no steps for this model";
  // Panel buttons at the right end of the first line; the status only where it fits before them.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float buttons_w = ImGui::CalcTextSize("ScenarioModesCardFigures?").x + 10 * st.FramePadding.x + 4 * 4;
  const float right = buttons_own_line ? 0.0f : ImGui::GetWindowContentRegionMax().x - buttons_w;
  ImGui::AlignTextToFramePadding();
  if (!counters_line) {
    counters(app, false);  // a wide canvas has room for them beside the controls
  } else if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(status.c_str()).x <
             (buttons_own_line ? ImGui::GetWindowContentRegionMax().x : right) - 8) {
    ImGui::TextDisabled("%s", status.c_str());
    ImGui::SameLine(0, 8);
  }
  if (buttons_own_line) ImGui::NewLine();
  else if (right > ImGui::GetCursorPosX()) ImGui::SetCursorPosX(right);
  panel_buttons(app);
  if (counters_line) {
    ImGui::AlignTextToFramePadding();
    counters(app, L.toolbar.w < 700);
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
}

// Puts keyboard focus on the item just drawn (a section's header), shows ImGui's navigation highlight on
// it and scrolls it into view.
void take_keyboard_focus() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  ImGui::FocusWindow(w);
  ImGui::SetFocusID(ImGui::GetItemID(), w);
  ImGui::SetScrollHereY(0.0f);
  g.NavDisableHighlight = false;
  g.NavDisableMouseHover = true;
}

void sections(App& app, bool docked) {
  struct Section {
    int id;
    const char* title;
    void (*draw)(App&);
  };
  const Section list[] = {
      {kHelpSection, "Keys and gestures", help_panel},
      {static_cast<int>(Panel::Inspector), "Inspector", inspector},
      {static_cast<int>(Panel::Scenario), "Scenario", scenario_editor},
      {static_cast<int>(Panel::Modes), "CSA2 layer modes", modes_panel},
      {static_cast<int>(Panel::Card), "Card check", card_panel},
      {static_cast<int>(Panel::Figures), "Figures", figures_panel},
  };
  CanvasState& c = app.canvas;
  const bool inspector_has_content = c.selected.valid() || app.selected_figure >= 0 || c.inspector_shown;
  for (const Section& s : list) {
    const bool is_help = s.id == kHelpSection;
    const bool is_inspector = s.id == static_cast<int>(Panel::Inspector);
    bool shown = is_help ? c.help_open : panel_open(app, static_cast<Panel>(s.id));
    if (is_inspector) shown = docked || (shown && inspector_has_content);
    if (!shown) continue;
    c.sections.push_back(is_help ? "help" : panel_key(static_cast<Panel>(s.id)));
    const bool focus_here = c.focus_request == s.id;
    bool visible = true;
    ImGui::SetNextItemOpen(true, focus_here ? ImGuiCond_Always : ImGuiCond_Appearing);
    const bool open = ImGui::CollapsingHeader(s.title, &visible);
    if (focus_here) {
      take_keyboard_focus();
      c.focus_request = kNoSection;
    } else if (c.scroll_request == s.id) {
      ImGui::SetScrollHereY(0.0f);
    }
    if (open) {
      ImGui::PushID(s.title);
      s.draw(app);
      ImGui::PopID();
      ImGui::Spacing();
    }
    if (!visible) {
      if (is_help) {
        c.help_open = false;
        ++app.revision;
      } else {
        set_panel(app, static_cast<Panel>(s.id), false);
        if (is_inspector) {
          select_target(app, {});
          app.selected_figure = -1;
          c.inspector_shown = false;
          ++app.revision;
        }
      }
    }
  }
  // A request for a section that is not shown (nothing to show) is dropped rather than kept for later.
  c.focus_request = kNoSection;
  c.scroll_request = kNoSection;
}

}  // namespace

model::FigureId primary_figure(anim::ObjectKind o) {
  const FigureList l = object_figures(o);
  return l.count > 0 ? l.ids[0] : model::FigureId::Count;
}

void draw_panels(App& app) {
  const layout::Layout& L = app.canvas.layout;
  app.canvas.controls.clear();
  app.canvas.sections.clear();
  app.canvas.text_cut = 0;
  toolbar(app, L);
  if (L.dock.w <= 0) return;
  // The area the layout reserved beside or below the schematic: the panels never cover it.
  ImGui::SetNextWindowPos(ImVec2(L.dock.x, L.dock.y));
  ImGui::SetNextWindowSize(ImVec2(L.dock.w, L.dock.h));
  ImGui::Begin("panels", nullptr, kFixed);
  sections(app, L.dock_side == layout::DockSide::Right && L.viewport.width >= layout::Options{}.dock_min_canvas);
  ImGui::End();
}

}  // namespace tierscope::ui
