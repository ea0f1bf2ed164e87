// The ImGui screen: header with counters, and the figures table with formula and provenance one hover
// away. The canvas schematic and the other panels build on this frame.
#include "ui/app.h"

#include "model/text.h"
#include "ui/theme.h"

#include <imgui.h>

namespace tierscope::ui {

namespace {

void counter(const char* label, const std::string& value) {
  ImGui::BeginGroup();
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  ImGui::TextUnformatted(value.c_str());
  ImGui::EndGroup();
  ImGui::SameLine(0.0f, 24.0f);
}

void figures_table(App& app) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("figures", 3, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Figure", ImGuiTableColumnFlags_WidthStretch, 3.0f);
  ImGui::TableSetupColumn("Value", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Source", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < app.figures.list.size(); ++i) {
    const model::Figure& f = app.figures.list[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const bool selected = app.selected_figure == static_cast<int>(i);
    const std::string label(f.label);
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns))
      app.selected_figure = selected ? -1 : static_cast<int>(i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.formula.c_str());
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(model::human(f.value, f.unit).c_str());
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", model::provenance_name(f.provenance));
  }
  ImGui::EndTable();
}

void inspector(const App& app) {
  if (app.selected_figure < 0 || app.selected_figure >= static_cast<int>(app.figures.list.size())) {
    ImGui::TextDisabled("Select a figure to see its formula and sources.");
    return;
  }
  const model::Figure& f = app.figures.list[static_cast<std::size_t>(app.selected_figure)];
  ImGui::TextUnformatted(std::string(f.label).c_str());
  ImGui::TextWrapped("%s", f.formula.c_str());
  ImGui::TextDisabled("%s · %s", model::provenance_name(f.provenance), std::string(f.sources).c_str());
}

}  // namespace

void draw(App& app, float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("tierscope", nullptr, flags);
  ImGui::TextUnformatted("tierscope · DeepSeek V4.1 Flash · memory tiers");
  ImGui::SameLine(0.0f, 24.0f);
  const model::Figures& fig = app.figures;
  counter("Global KV", model::human(fig[model::FigureId::KvGlobalPerToken].value, "B/token"));
  counter("SWA KV", model::human(fig[model::FigureId::KvSwaPerSession].value, "B") + "/session");
  counter("Decode floor", model::human(fig[model::FigureId::DecodeStepFloor].value, "s"));
  ImGui::TextDisabled("preset: %s", app.scenario.preset.c_str());
  ImGui::Separator();

  const float inspector_h = ImGui::GetTextLineHeightWithSpacing() * 4.5f;
  ImGui::BeginChild("figures-pane", ImVec2(0, -inspector_h), false);
  figures_table(app);
  ImGui::EndChild();
  ImGui::Separator();
  inspector(app);
  ImGui::End();
}

}  // namespace tierscope::ui
