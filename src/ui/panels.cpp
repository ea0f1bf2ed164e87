// The panels: the toolbar with its panel buttons (and counters and playback when the page has none), and
// the sections in the area the layout reserved for them, one under another (the sections are drawn by
// panels_inspector.cpp and panels_sections.cpp). Every value shown is read from the app (figures, ledger,
// state); what runs past its room is counted for the tests (layout_json's panelTextCut).
#include "ui/panels.h"
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

void check_fit(Screen& app) {
  if (ImGui::GetItemRectMax().x > ImGui::GetWindowDrawList()->GetClipRectMax().x + 0.5f) ++app.canvas.text_cut;
}

void line(Screen& app, const std::string& s, bool muted) {
  if (muted) ImGui::TextDisabled("%s", s.c_str());
  else ImGui::TextUnformatted(s.c_str());
  check_fit(app);
}

void para(const std::string& s, bool muted) {
  ImGui::PushTextWrapPos(0.0f);
  if (muted) ImGui::TextDisabled("%s", s.c_str());
  else ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
}

void record(Screen& app, std::string id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  app.canvas.controls.push_back({std::move(id), {a.x, a.y, b.x - a.x, b.y - a.y}});
}

}  // namespace panel

namespace {

using panel::kFixed;
using panel::line;
using panel::record;
using panel::vec4;

// [SECTION] toolbar
// The header counters; chips that do not fit the line are left out (the page's header lists them all).
void counters(const Screen& app, bool compact) {
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
  const std::string_view sparse = model::sparse_attention_name(app.scenario.model);
  const char* policy = sparse == "DSA" ? "DSA policy" : sparse == "CSA2" ? "CSA2 policy" : "KV policy";
  chip(compact ? "" : policy, policy_label(app.scenario));
}

bool toggle_button(Screen& app, const char* label, Panel p, const char* key) {
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
void panel_buttons(Screen& app) {
  toggle_button(app, "Scenario", Panel::Scenario, "S");
  toggle_button(app, "Modes", Panel::Modes, "M");
  toggle_button(app, "Card", Panel::Card, "C");
  toggle_button(app, "Figures", Panel::Figures, "F");
  if (ImGui::Button("?")) {
    app.help_open = !app.help_open;
    ++app.revision;
  }
  record(app, "button:help");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keys and gestures (?)");
}

void toolbar(Screen& app, const layout::Layout& L) {
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
  // The step as the link and state().step count it (from 0), as the page's status says it.
  std::string status = steps > 0 ? std::string(app.playback.playing ? "playing" : "READY") + " · step " +
                                       std::to_string(app.state.step) + " of steps 0–" + std::to_string(steps - 1)
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

void sections(Screen& app, bool docked) {
  struct Section {
    int id;
    const char* title;
    void (*draw)(Screen&);
  };
  const Section list[] = {
      {kHelpSection, "Keys and gestures", panel::help_panel},
      {static_cast<int>(Panel::Inspector), "Inspector", panel::inspector},
      {static_cast<int>(Panel::Scenario), "Scenario", panel::scenario_editor},
      {static_cast<int>(Panel::Modes), "CSA2 layer modes", panel::modes_panel},
      {static_cast<int>(Panel::Card), "Card check", panel::card_panel},
      {static_cast<int>(Panel::Figures), "Figures", panel::figures_panel},
  };
  CanvasState& c = app.canvas;
  const bool inspector_has_content = app.selected.valid() || app.selected_figure >= 0 || app.inspector_shown;
  for (const Section& s : list) {
    const bool is_help = s.id == kHelpSection;
    const bool is_inspector = s.id == static_cast<int>(Panel::Inspector);
    bool shown = is_help ? app.help_open : panel_open(app, static_cast<Panel>(s.id));
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
        app.help_open = false;
        ++app.revision;
      } else {
        set_panel(app, static_cast<Panel>(s.id), false);
        if (is_inspector) {
          select_target(app, {});
          app.selected_figure = -1;
          app.inspector_shown = false;
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

void draw_panels(Screen& app) {
  const layout::Layout& L = app.canvas.layout;
  app.canvas.controls.clear();
  app.canvas.sections.clear();
  app.canvas.text_cut = 0;
  toolbar(app, L);
  app.canvas.panel_scroll = app.canvas.panel_scroll_max = 0;
  if (L.dock.w <= 0) return;
  // The area the layout reserved beside or below the schematic: the panels never cover it.
  ImGui::SetNextWindowPos(ImVec2(L.dock.x, L.dock.y));
  ImGui::SetNextWindowSize(ImVec2(L.dock.w, L.dock.h));
  ImGui::Begin("panels", nullptr, kFixed);
  sections(app, L.dock_side == layout::DockSide::Right && L.viewport.width >= layout::Options{}.dock_min_canvas);
  app.canvas.panel_scroll = ImGui::GetScrollY();
  app.canvas.panel_scroll_max = ImGui::GetScrollMaxY();
  ImGui::End();
}

}  // namespace tierscope::ui
