// The app's look: ImGui style and the legend colours shared by the panels and (later) the canvas renderer.
#pragma once

#include <cstdint>

namespace tierscope::ui {

enum class Theme { Dark, Light };

// Base UI font size in CSS pixels; the atlas is baked at this size × devicePixelRatio.
inline constexpr float kFontSizePx = 15.0f;

// Legend colours (RGBA8), chosen to stay distinct for common colour-vision deficiencies and to pass
// WCAG AA contrast for text drawn on them in both themes.
struct Legend {
  static constexpr uint32_t kCompute = 0xFF6FA0F5;  // compute path (blue)       — ABGR packed for ImGui
  static constexpr uint32_t kShared  = 0xFFF29BC0;  // shared KV / Engram weights (violet)
  static constexpr uint32_t kSwa     = 0xFF72D08B;  // SWA local state (green)
  static constexpr uint32_t kFp4     = 0xFF5CB8F0;  // FP4 stored values (amber)
};

void apply_theme(Theme theme);

}  // namespace tierscope::ui
