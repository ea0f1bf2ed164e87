// ImGui styling for tierscope: calm dark surfaces, rounded panels, one accent; light variant for
// prefers-color-scheme: light.
#include "ui/theme.h"

#include <imgui.h>

namespace tierscope::ui {

void apply_theme(Theme theme) {
  ImGuiStyle& s = ImGui::GetStyle();
  if (theme == Theme::Dark) ImGui::StyleColorsDark(&s);
  else ImGui::StyleColorsLight(&s);
  s.WindowRounding = 8.0f;
  s.ChildRounding = 6.0f;
  s.FrameRounding = 6.0f;
  s.PopupRounding = 6.0f;
  s.GrabRounding = 6.0f;
  s.TabRounding = 6.0f;
  s.WindowBorderSize = 1.0f;
  s.FrameBorderSize = 0.0f;
  s.WindowPadding = ImVec2(12, 10);
  s.FramePadding = ImVec2(8, 5);
  s.ItemSpacing = ImVec2(8, 6);
  if (theme == Theme::Dark) {
    ImVec4* c = s.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.078f, 0.094f, 0.122f, 1.0f);
    c[ImGuiCol_ChildBg] = ImVec4(0.063f, 0.075f, 0.098f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.18f, 0.22f, 0.28f, 1.0f);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_WindowBg];
    c[ImGuiCol_TitleBgActive] = ImVec4(0.10f, 0.12f, 0.16f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.15f, 0.20f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.16f, 0.22f, 0.32f, 1.0f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.20f, 0.28f, 0.42f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.14f, 0.18f, 0.25f, 1.0f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.20f, 0.28f, 0.42f, 1.0f);
    c[ImGuiCol_Text] = ImVec4(0.90f, 0.92f, 0.95f, 1.0f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.58f, 0.63f, 0.70f, 1.0f);
  } else {
    ImVec4* c = s.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    c[ImGuiCol_ChildBg] = ImVec4(0.98f, 0.98f, 0.99f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.83f, 0.85f, 0.88f, 1.0f);
    c[ImGuiCol_Text] = ImVec4(0.086f, 0.10f, 0.125f, 1.0f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.34f, 0.38f, 0.43f, 1.0f);
  }
}

}  // namespace tierscope::ui
