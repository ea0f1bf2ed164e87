// The canvas colours for the dark and light themes, the legend roles' fills for plain and highlighted
// items, and the WCAG contrast arithmetic the tests hold them to. Pure data: no GL.
#pragma once

#include <cmath>
#include <cstdint>

#include "layout/layout.h"

namespace tierscope::render {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
  static constexpr Rgba hex(std::uint32_t rgb, float alpha = 1) {
    return {static_cast<float>((rgb >> 16) & 0xFF) / 255.0f, static_cast<float>((rgb >> 8) & 0xFF) / 255.0f,
            static_cast<float>(rgb & 0xFF) / 255.0f, alpha};
  }
  // ImGui's packed ABGR.
  std::uint32_t packed() const {
    auto c = [](float v) { return static_cast<std::uint32_t>(std::lround(std::fmin(1.0f, std::fmax(0.0f, v)) * 255.0f)); };
    return c(r) | (c(g) << 8) | (c(b) << 16) | (c(a) << 24);
  }
  bool operator==(const Rgba&) const = default;
};

constexpr Rgba mix(Rgba a, Rgba b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}

// WCAG 2 relative luminance and contrast ratio of opaque colours.
inline double luminance(Rgba c) {
  auto ch = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
}
inline double contrast(Rgba a, Rgba b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::fmax(la, lb) + 0.05) / (std::fmin(la, lb) + 0.05);
}

struct Palette {
  bool dark = true;
  Rgba bg, surface, surface2, border, text, muted, on_role, accent;
  Rgba alert;  // what keeps a setup from running: an overflowing tier's edge and words
  Rgba role[static_cast<int>(layout::Role::Count)];  // the legend colours (the page's --compute … --fp4)
  float tint = 0.2f;                                  // share of the role colour in a plain item's fill

  // Fill of an item: a tint of its role normally, the solid legend colour when highlighted (a shade deeper
  // in the light theme, where the pale legend colours would sit too close to their own tints).
  Rgba fill(layout::Role r, bool highlighted) const {
    const Rgba c = role[static_cast<int>(r)];
    if (r == layout::Role::Neutral) return highlighted ? mix(surface2, text, 0.35f) : surface2;
    if (!highlighted) return mix(surface2, c, tint);
    return dark ? c : mix(c, Rgba::hex(0x000000), 0.12f);
  }
  // Text drawn on that fill.
  Rgba text_on(layout::Role r, bool highlighted) const {
    return highlighted && r != layout::Role::Neutral ? on_role : text;
  }
  // The fleet view's level in a tier band: the role colour, translucent over the band's stripes. The band's
  // text over it is in the text colour, which stays readable (test_palette.cpp).
  Rgba level(layout::Role r) const {
    if (r == layout::Role::Neutral) return {border.r, border.g, border.b, 0.6f};
    const Rgba c = role[static_cast<int>(r)];
    return {c.r, c.g, c.b, 0.32f};
  }
  // Border of an item: the role colour, darker in the light theme so it reads on white.
  Rgba edge(layout::Role r) const {
    const Rgba c = role[static_cast<int>(r)];
    if (r == layout::Role::Neutral) return border;
    return dark ? c : mix(c, Rgba::hex(0x000000), 0.35f);
  }
};

inline Palette palette(bool dark) {
  Palette p;
  p.dark = dark;
  // Legend colours match web/style.css (--compute, --shared, --swa, --fp4) in both themes.
  p.role[static_cast<int>(layout::Role::Compute)] = Rgba::hex(0x6fa0f5);
  p.role[static_cast<int>(layout::Role::Shared)] = Rgba::hex(0xc09bf2);
  p.role[static_cast<int>(layout::Role::Swa)] = Rgba::hex(0x8bd072);
  p.role[static_cast<int>(layout::Role::Fp4)] = Rgba::hex(0xf0b85c);
  if (dark) {
    p.bg = Rgba::hex(0x0c0e12);
    p.surface = Rgba::hex(0x14181f);
    p.surface2 = Rgba::hex(0x1b2029);
    p.border = Rgba::hex(0x2b3441);
    p.text = Rgba::hex(0xe6eaf0);
    p.muted = Rgba::hex(0x9aa4b2);
    p.accent = Rgba::hex(0xffffff);
    p.on_role = Rgba::hex(0x0c0e12);
    p.alert = Rgba::hex(0xff7b72);
    p.tint = 0.2f;
  } else {
    p.bg = Rgba::hex(0xf5f6f8);
    p.surface = Rgba::hex(0xffffff);
    p.surface2 = Rgba::hex(0xeef1f5);
    p.border = Rgba::hex(0xc3cad4);
    p.text = Rgba::hex(0x161a20);
    p.muted = Rgba::hex(0x4f5966);
    p.accent = Rgba::hex(0x161a20);
    p.on_role = Rgba::hex(0x161a20);
    p.alert = Rgba::hex(0xb42318);
    p.tint = 0.16f;
  }
  p.role[static_cast<int>(layout::Role::Neutral)] = p.muted;
  return p;
}

}  // namespace tierscope::render
