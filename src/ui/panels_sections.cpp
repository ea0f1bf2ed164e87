// The canvas's editing and reference sections: the scenario editor, the CSA2 layer modes, the card check,
// the figures table and the keys and gestures the canvas answers to.
#include "ui/panel_kit.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/text.h"
#include "evidence/card_check.h"
#include "model/params.h"
#include "model/presets.h"
#include "render/palette.h"
#include "ui/canvas_view.h"
#include "ui/theme.h"

namespace tierscope::ui {

// The app room's names (App, Panel and the operations on them) read here as the UI's own.
using namespace tierscope::app;

using anim::ObjectKind;
using model::FigureId;

namespace panel {

namespace {

// [SECTION] scenario editor
std::string adjustments_text(const std::vector<Adjustment>& moved) {
  std::string s;
  for (const Adjustment& a : moved) {
    if (!s.empty()) s += " ";
    s += a.field + " moved from " + a.from + " to " + a.to + (a.why.empty() ? "." : ": " + a.why + ".");
  }
  return s;
}

void param_row(Screen& app, const model::ParamDef& p) {
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

// [SECTION] CSA2 layer modes
render::Rgba mode_colour(model::LayerMode m, const render::Palette& pal, bool fp4) {
  switch (m) {
    case model::LayerMode::Dense:
    case model::LayerMode::Full: return pal.role[static_cast<int>(fp4 ? layout::Role::Fp4 : layout::Role::Shared)];
    case model::LayerMode::Reindex: return pal.role[static_cast<int>(layout::Role::Compute)];
    case model::LayerMode::SwaOnly:
    case model::LayerMode::Linear:
    case model::LayerMode::Chunked: return pal.role[static_cast<int>(layout::Role::Swa)];  // each keeps only local state
    default: return pal.surface2;
  }
}

}  // namespace

void scenario_editor(Screen& app) {
  model::Errors errors;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const model::PresetInfo* cur = model::find_preset(app.scenario.preset);
  // The preset's full label where it fits the box, else without its note in brackets, else its key.
  std::string shown = cur ? cur->label : model::scenario_label(app.scenario);  // a loaded model by its name
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

void modes_panel(Screen& app) {
  const model::ModelArch& m = app.scenario.model;
  const render::Palette pal = render::palette(app.canvas.dark);
  para(std::string("Full layers own global KV and pick top-k; Reindex re-selects inside the pool; Reuse takes the selection "
                   "unchanged; SWA-only keeps just the window.") +
           (model::has_recurrent_state(m) ? " Linear layers keep a fixed recurrent state instead of KV." : "") +
           (model::has_chunked(m) ? " Chunked layers keep only their chunk in progress." : "") + " Pick a layer to edit it.",
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
    // A KV owner's ratio ("F4", "D128"); a window or chunk of the layer's own ("S512", "C8K").
    const bool local = layer.mode == model::LayerMode::SwaOnly || layer.mode == model::LayerMode::Chunked;
    const std::string suffix = model::owns_kv(layer.mode) && layer.ratio != 1 ? std::to_string(layer.ratio)
                               : local && layer.span > 0                      ? (layer.span % 1024 == 0 ? std::to_string(layer.span / 1024) + "K"
                                                                                                        : std::to_string(layer.span))
                                                                              : std::string();
    char label[24];
    std::snprintf(label, sizeof label, "%c%s##%d", model::layer_mode_letter(layer.mode), suffix.c_str(), l);
    if (ImGui::Button(label, ImVec2(cell, 0))) app.canvas.selected_layer = sel ? -1 : l;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("layer %d · %s\n%s", l, layout::layer_kind_name(app.canvas.scene, l).c_str(), layer_role(m, l).c_str());
    if (sel) ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
  }
  const int l = app.canvas.selected_layer;
  if (l < 0 || l >= m.layer_count) return;
  ImGui::Separator();
  const model::Layer& layer = m.layers[static_cast<std::size_t>(l)];
  const bool ced = model::is_encoder_decoder(m);
  para("Layer " + std::to_string(l) + (ced ? (l < m.enc_layers ? " · causal encoder" : " · decoder") : ""));
  para(layer_role(m, l), true);
  model::Errors errors;
  // The kinds a layer can take: the CSA2 modes, and the linear and chunked kinds where the model has them
  // (their dims and chunk are the model's own).
  std::vector<model::LayerMode> modes = {model::LayerMode::Full, model::LayerMode::Reindex, model::LayerMode::Reuse,
                                         model::LayerMode::SwaOnly, model::LayerMode::Dense};
  int chunk = 0;
  for (int i = 0; i < m.layer_count; ++i)
    if (m.layers[static_cast<std::size_t>(i)].mode == model::LayerMode::Chunked) chunk = m.layers[static_cast<std::size_t>(i)].span;
  if (model::has_recurrent_state(m)) modes.push_back(model::LayerMode::Linear);
  if (chunk > 0) modes.push_back(model::LayerMode::Chunked);
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
      next.layers[static_cast<std::size_t>(l)].span = mode == model::LayerMode::Chunked ? chunk : 0;
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
void card_panel(Screen& app) {
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
    ImGui::TextDisabled("computed %s ·", model::display_value(r.value, info.unit).c_str());
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
void figures_panel(Screen& app) {
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
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.formula().c_str());
    ImGui::SetCursorPos(at);
    para(label);
    ImGui::PopID();
    ImGui::TableNextColumn();
    line(app, model::figure_value_text(f));
  }
  ImGui::EndTable();
}

// [SECTION] help: every key the canvas answers to (the page lists the same in the canvas's aria-keyshortcuts).
void help_panel(Screen& app) {
  const char* rows[][2] = {
      {"Space", "play / pause"},
      {"← →", "previous / next step"},
      {"Home / End", "first / last step"},
      {"↑ ↓", "select the previous / next object"},
      {"Enter or I", "inspector (keyboard focus moves into it)"},
      {"S · M · C · F", "scenario · CSA2 modes · card check · figures"},
      {"Esc", "back to the schematic; then closes this help, the panels, the selection"},
      {"?", "this help"},
      {"Tab", "leave the canvas (Shift+Tab: the toolbar's buttons)"},
      {"Click or tap", "inspect a block, tier, layer row or the packet"},
      {"Drag sideways", "scrub through the path"},
      {"Wheel · swipe", "scroll the page (the wheel scrolls a panel under it)"},
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

}  // namespace panel

}  // namespace tierscope::ui
