// The panels: toolbar with counters and playback, and the inspector, scenario editor, CSA2 modes, card
// check and figures sections. Every value shown is read from the app (figures, ledger, state).
#include "ui/panels.h"

#include <imgui.h>

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

namespace tierscope::ui {

using anim::ObjectKind;
using model::FigureId;

namespace {

// The canvas owns the keys (space, arrows, Home/End): panels neither take focus when they appear nor
// navigate with the keyboard; text fields still get typed text.
constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                    ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing |
                                    ImGuiWindowFlags_NoNavInputs;

ImVec4 vec4(render::Rgba c) { return ImVec4(c.r, c.g, c.b, c.a); }

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

void figure_card(const App& app, FigureId id) {
  const model::Figure& f = app.figures[id];
  ImGui::PushID(static_cast<int>(id));
  ImGui::Separator();
  ImGui::TextUnformatted(std::string(f.label).c_str());
  ImGui::SameLine();
  ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_Text), "= %s", model::human(f.value, f.unit).c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", f.formula.c_str());
  std::string meta = model::provenance_name(f.provenance);
  if (f.lifetime != model::Lifetime::None) meta += std::string(" · ") + model::lifetime_name(f.lifetime);
  ImGui::TextDisabled("%s", meta.c_str());
  if (const std::string src = model::figure_sources(app.figures, f); !src.empty()) ImGui::TextDisabled("sources: %s", src.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopID();
}

void figure_list(const App& app, FigureList l) {
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
    std::string s = "owns global KV (1 row per " + std::to_string(m.layers[static_cast<std::size_t>(layer)].ratio) + " tokens)";
    s += n > 0 ? "; shared by " + std::to_string(n) + " layer" + (n > 1 ? "s" : "") + ": " + readers : "; no other layer reads it";
    return s;
  }
  if (src < 0) return "no KV source before it";
  return "shares the global KV of layer " + std::to_string(src);
}

void inspect_layers(App& app, int first, int last) {
  const model::ModelArch& m = app.scenario.model;
  ImGui::TextDisabled("Each drawn row stands for %d real layer%s.", last - first + 1, last > first ? "s" : "");
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
      ImGui::TextUnformatted(model::layer_mode_name(m.layers[static_cast<std::size_t>(l)].mode));
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", layer_role(m, l).c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
}

void inspect_entry(const App& app) {
  const anim::LedgerEntry* e = app.state.entry;
  if (!e) {
    ImGui::TextDisabled("This path has no steps for this model.");
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(e->sentence.c_str());
  ImGui::TextDisabled("step %d of %d · %s → %s", e->index + 1, app.state.steps, anim::endpoint_label(e->from), anim::endpoint_label(e->to));
  if (e->bytes > 0) ImGui::Text("moves %s", model::human(e->bytes, "B").c_str());
  if (e->flop > 0) ImGui::Text("computes %s", model::human(e->flop, "FLOP").c_str());
  ImGui::Text("takes %s of model time%s", model::human(e->duration, "s").c_str(), e->overlapped ? " (hidden under other work)" : "");
  ImGui::TextDisabled("%s", e->formula.c_str());
  ImGui::TextDisabled("%s · %s", model::provenance_name(e->provenance), model::lifetime_name(anim::object_lifetime(e->object)));
  if (!e->sources.empty()) ImGui::TextDisabled("sources: %s", std::string(e->sources).c_str());
  ImGui::PopTextWrapPos();
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
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Click or tap any block, tier, layer row or the moving packet to see its figures, the formula "
                        "with numbers, where each number comes from, and its lifetime. Press ? for keys.");
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::TextUnformatted(target_name(app, t).c_str());
  switch (t.kind) {
    case layout::Kind::Block: {
      const auto o = static_cast<ObjectKind>(t.index);
      const anim::ObjectState& st = app.state.objects[static_cast<std::size_t>(t.index)];
      ImGui::Text("%s resident in %s", model::human(st.bytes, "B").c_str(), anim::endpoint_label(st.tier));
      if (st.tokens > 0) ImGui::TextDisabled("covering %s tokens", model::num(st.tokens).c_str());
      ImGui::TextDisabled("lifetime: %s", model::lifetime_name(anim::object_lifetime(o)));
      if (o == ObjectKind::EngramTables) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted("Engram: weights, not activations.");
        ImGui::TextDisabled("The tables are trained parameters, read-only at inference: the current 2- to n-token patterns "
                            "are hashed into addresses, only those rows are fetched, and a learned gate meters what enters "
                            "the residual stream. Nothing is written as tokens stream by, unlike the KV caches above, "
                            "which this very request creates.");
        ImGui::PopTextWrapPos();
      }
      figure_list(app, object_figures(o));
      break;
    }
    case layout::Kind::Band: {
      const layout::BandInfo& b = app.canvas.layout.bands[static_cast<std::size_t>(t.index)];
      ImGui::Text("%s capacity · %s latency", model::human(b.capacity, "B").c_str(), model::human(b.latency, "s").c_str());
      const model::Hardware& hw = app.scenario.hw;
      std::string how;
      switch (t.index) {
        case 0: how = "one GPU's on-chip L2 (of " + model::num(hw.gpus) + " in the instance)"; break;
        case 1: how = "one GPU's HBM (of " + model::num(hw.gpus) + " in the instance): weights and KV shown per GPU"; break;
        case 2: how = "host DRAM parameter: " + model::num(hw.host_dram_gb) + " GB"; break;
        default: how = model::num(hw.ssd_count) + " drives × " + model::num(hw.ssd_tb) + " TB"; break;
      }
      ImGui::TextDisabled("%s", how.c_str());
      ImGui::TextDisabled("Holds:");
      for (int i = 0; i < anim::kObjectCount; ++i) {
        const layout::ObjectSpec& o = app.canvas.scene.objects[static_cast<std::size_t>(i)];
        if (o.present && static_cast<int>(o.tier) == t.index)
          ImGui::BulletText("%s · %s", anim::object_label(static_cast<ObjectKind>(i)),
                            model::human(app.state.objects[static_cast<std::size_t>(i)].bytes, "B").c_str());
      }
      figure_list(app, tier_figures(t.index));
      break;
    }
    case layout::Kind::EncoderLayer:
    case layout::Kind::DecoderLayer: inspect_layers(app, it->first_layer, it->last_layer); break;
    case layout::Kind::Packet: inspect_entry(app); break;
    case layout::Kind::Token:
    case layout::Kind::Stream:
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled(t.kind == layout::Kind::Token
                              ? "The prompt's tokens enter the causal encoder in prefill; decode adds one output token per step."
                              : "Each token's final encoder state is projected into the global KV the decoder layers read.");
      ImGui::PopTextWrapPos();
      figure_list(app, object_figures(ObjectKind::Tokens));
      if (t.kind == layout::Kind::Stream) figure_card(app, FigureId::KvGlobalPerToken);
      break;
    default: break;
  }
}

// [SECTION] scenario editor
void param_row(App& app, const model::ParamDef& p) {
  ImGui::PushID(p.key);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(p.key);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", p.description, model::param_allowed(p).c_str());
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string current = model::get_param_text(app.scenario, p);
  model::Errors errors;
  if (p.kind == model::ParamKind::Enum) {
    if (ImGui::BeginCombo("##v", current.c_str())) {
      for (int i = 0; i < p.enum_count; ++i) {
        if (ImGui::Selectable(p.enum_keys[i], current == p.enum_keys[i])) set_param(app, p.key, p.enum_keys[i], errors);
      }
      ImGui::EndCombo();
    }
  } else {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", current.c_str());
    if (ImGui::InputText("##v", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll)) {
      if (set_param(app, p.key, buf, errors)) {
        app.canvas.edit_error.clear();
      }
    }
  }
  if (!errors.empty()) {
    app.canvas.edit_key = p.key;
    app.canvas.edit_error = errors.front().message();
  }
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", p.unit);
  if (app.canvas.edit_key == p.key && !app.canvas.edit_error.empty()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.55f, 1.0f), "%s", app.canvas.edit_error.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PopID();
}

void scenario_editor(App& app) {
  model::Errors errors;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const model::PresetInfo* cur = model::find_preset(app.scenario.preset);
  if (ImGui::BeginCombo("##preset", cur ? cur->label : app.scenario.preset.c_str())) {
    for (const model::PresetInfo& p : model::presets()) {
      if (ImGui::Selectable(p.label, cur == &p)) set_preset(app, p.name, errors);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.summary);
    }
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("Enter applies a value; every figure recomputes.");
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
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Full layers own global KV and pick top-k; Reindex re-selects inside the pool; Reuse takes the "
                      "selection unchanged; SWA-only keeps just the window. Pick a layer to edit it.");
  ImGui::PopTextWrapPos();
  const float cell = ImGui::GetFontSize() * 2.2f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_row = std::max(1, static_cast<int>(avail / (cell + 4)));
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
  ImGui::Text("Layer %d · %s", l, l < m.enc_layers ? "causal encoder" : "decoder");
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", layer_role(m, l).c_str());
  ImGui::PopTextWrapPos();
  model::Errors errors;
  const model::LayerMode modes[] = {model::LayerMode::Full, model::LayerMode::Reindex, model::LayerMode::Reuse,
                                    model::LayerMode::SwaOnly, model::LayerMode::Dense};
  for (model::LayerMode mode : modes) {
    ImGui::SameLine();
    if (mode == modes[0]) ImGui::NewLine();
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
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.55f, 1.0f), "%s", app.canvas.edit_error.c_str());
    ImGui::PopTextWrapPos();
  }
}

// [SECTION] card check
void card_panel(App& app) {
  CanvasState& c = app.canvas;
  if (c.card_revision != app.revision) {
    c.card = model::check_card(app.scenario);
    c.card_revision = app.revision;
  }
  if (!ImGui::BeginTable("card", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) return;
  ImGui::TableSetupColumn("the card says", ImGuiTableColumnFlags_WidthStretch, 3);
  ImGui::TableSetupColumn("computed", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("verdict", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableHeadersRow();
  for (const model::CardRow& r : c.card) {
    const model::FigureInfo& info = model::figure_info(r.claim->figure);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(r.claim->text);
    ImGui::PopTextWrapPos();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(model::human(r.value, info.unit).c_str());
    ImGui::TableNextColumn();
    const ImVec4 col = r.verdict == model::Verdict::Consistent     ? ImVec4(0.55f, 0.82f, 0.45f, 1)
                       : r.verdict == model::Verdict::HoldsOnlyIf ? ImVec4(0.94f, 0.72f, 0.36f, 1)
                                                                  : ImVec4(1.0f, 0.55f, 0.55f, 1);
    ImGui::TextColored(c.dark ? col : ImVec4(col.x * 0.6f, col.y * 0.6f, col.z * 0.6f, 1), "%s", model::verdict_name(r.verdict));
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
      ImGui::TextUnformatted(r.reason.c_str());
      if (!r.condition.empty()) ImGui::TextDisabled("%s", r.condition.c_str());
      ImGui::TextDisabled("claimed: %s", model::claim_band(*r.claim).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::EndTable();
}

// [SECTION] figures table
void figures_panel(App& app) {
  if (!ImGui::BeginTable("figures", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) return;
  for (std::size_t i = 0; i < app.figures.list.size(); ++i) {
    const model::Figure& f = app.figures.list[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(std::string(f.label).c_str(), app.selected_figure == static_cast<int>(i), ImGuiSelectableFlags_SpanAllColumns)) {
      app.selected_figure = static_cast<int>(i);
      app.canvas.selected = {};
      set_panel(app, Panel::Inspector, true);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.formula.c_str());
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(model::human(f.value, f.unit).c_str());
  }
  ImGui::EndTable();
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

bool toggle_button(App& app, const char* label, Panel p) {
  const bool open = panel_open(app, p);
  if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_Header));
  const bool clicked = ImGui::Button(label);
  if (open) ImGui::PopStyleColor();
  if (clicked) set_panel(app, p, !open);
  ImGui::SameLine(0, 4);
  return clicked;
}

// The panel buttons and the help button.
void panel_buttons(App& app) {
  toggle_button(app, "Scenario", Panel::Scenario);
  toggle_button(app, "Modes", Panel::Modes);
  toggle_button(app, "Card", Panel::Card);
  toggle_button(app, "Figures", Panel::Figures);
  if (ImGui::Button("?")) app.canvas.help_open = !app.canvas.help_open;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keys and gestures (?)");
}

void toolbar(App& app, const layout::Layout& L) {
  ImGui::SetNextWindowPos(ImVec2(L.toolbar.x, L.toolbar.y));
  ImGui::SetNextWindowSize(ImVec2(L.toolbar.w, L.toolbar.h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 3));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(6, 4));
  ImGui::Begin("toolbar", nullptr, kFixed | ImGuiWindowFlags_NoScrollbar);
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
  if (ImGui::BeginCombo("##path", anim::path_label(app.playback.path))) {
    for (int i = 0; i < anim::kPathCount; ++i) {
      const auto p = static_cast<anim::PathId>(i);
      if (ImGui::Selectable(anim::path_label(p), p == app.playback.path)) set_path(app, p);
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

void sections(App& app, bool docked) {
  struct Section {
    Panel panel;
    const char* title;
    void (*draw)(App&);
  };
  const Section list[] = {
      {Panel::Inspector, "Inspector", inspector}, {Panel::Scenario, "Scenario", scenario_editor},
      {Panel::Modes, "CSA2 layer modes", modes_panel}, {Panel::Card, "Card check", card_panel},
      {Panel::Figures, "Figures", figures_panel},
  };
  for (const Section& s : list) {
    if (!panel_open(app, s.panel) && !(docked && s.panel == Panel::Inspector)) continue;
    bool visible = true;
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    if (ImGui::CollapsingHeader(s.title, &visible)) {
      ImGui::PushID(s.title);
      s.draw(app);
      ImGui::PopID();
      ImGui::Spacing();
    }
    if (!visible) {
      set_panel(app, s.panel, false);
      if (s.panel == Panel::Inspector) app.canvas.selected = {};
    }
  }
}

}  // namespace

void draw_panels(App& app) {
  const layout::Layout& L = app.canvas.layout;
  toolbar(app, L);
  const bool docked = L.dock.w > 0;
  if (docked) {
    ImGui::SetNextWindowPos(ImVec2(L.dock.x, L.dock.y));
    ImGui::SetNextWindowSize(ImVec2(L.dock.w, L.dock.h));
    ImGui::Begin("panels", nullptr, kFixed);
    sections(app, true);
    ImGui::End();
    return;
  }
  // Narrow: the open panels share one overlay, shown only while something is open (the inspector only
  // with a selection), so the schematic stays visible otherwise.
  bool any = false;
  for (int p = 0; p < kPanelCount; ++p) {
    const auto panel = static_cast<Panel>(p);
    if (!panel_open(app, panel)) continue;
    if (panel == Panel::Inspector && !find_item(app, app.canvas.selected) && app.selected_figure < 0) continue;
    any = true;
  }
  if (!any) return;
  const float m = 8;
  const float w = std::min(440.0f, L.viewport.width - 2 * m);
  const float top = L.toolbar.bottom() + 6;
  ImGui::SetNextWindowPos(ImVec2(L.viewport.width - w - m, top));
  ImGui::SetNextWindowSize(ImVec2(w, std::max(120.0f, (L.viewport.height - top - m) * 0.62f)));
  ImGui::Begin("panels", nullptr, kFixed);
  sections(app, false);
  ImGui::End();
}

}  // namespace tierscope::ui
