// Palette tests: the legend colours and the text drawn on every fill pass WCAG AA (4.5:1) in both themes,
// and plain and highlighted fills stay distinguishable for the pixel tests and for people.
#include <catch2/catch.hpp>

#include "render/palette.h"

using namespace tierscope;
using layout::Role;

TEST_CASE("text on every canvas fill passes WCAG AA contrast in both themes") {
  for (bool dark : {true, false}) {
    const render::Palette p = render::palette(dark);
    INFO((dark ? "dark" : "light") << " theme");
    for (int r = 0; r < static_cast<int>(Role::Count); ++r) {
      const auto role = static_cast<Role>(r);
      for (bool lit : {false, true}) {
        INFO(layout::role_key(role) << (lit ? " highlighted" : " plain"));
        REQUIRE(render::contrast(p.text_on(role, lit), p.fill(role, lit)) >= 4.5);
      }
    }
    // Titles, band names and figures on the canvas surface.
    REQUIRE(render::contrast(p.text, p.surface) >= 4.5);
    REQUIRE(render::contrast(p.muted, p.surface) >= 4.5);
    REQUIRE(render::contrast(p.muted, p.bg) >= 4.5);
    // The words saying why a setup cannot run, on a band and on the page background.
    REQUIRE(render::contrast(p.alert, p.surface) >= 4.5);
    REQUIRE(render::contrast(p.alert, p.bg) >= 4.5);
  }
}

TEST_CASE("highlighted fills differ clearly from plain ones, and roles from each other") {
  for (bool dark : {true, false}) {
    const render::Palette p = render::palette(dark);
    for (int r = 1; r < static_cast<int>(Role::Count); ++r) {
      const auto role = static_cast<Role>(r);
      // The light legend colours sit close to white, so the light theme keeps a smaller (still clear) step.
      REQUIRE(render::contrast(p.fill(role, true), p.fill(role, false)) >= (dark ? 2.0 : 1.5));
      for (int q = r + 1; q < static_cast<int>(Role::Count); ++q) REQUIRE_FALSE(p.role[r] == p.role[q]);
    }
    // Borders of plain blocks are visible against the surface (non-text contrast, WCAG 1.4.11).
    for (int r = 1; r < static_cast<int>(Role::Count); ++r)
      REQUIRE(render::contrast(p.edge(static_cast<Role>(r)), p.surface) >= (dark ? 3.0 : 2.0));
  }
}

TEST_CASE("contrast arithmetic matches WCAG reference values") {
  REQUIRE(render::contrast(render::Rgba::hex(0x000000), render::Rgba::hex(0xffffff)) == Approx(21.0));
  REQUIRE(render::contrast(render::Rgba::hex(0x777777), render::Rgba::hex(0xffffff)) == Approx(4.48).epsilon(0.01));
  REQUIRE(render::Rgba::hex(0x6fa0f5).packed() == 0xFFF5A06Fu);
}

TEST_CASE("band text stays readable over the fleet view's levels, in both themes") {
  for (bool dark : {true, false}) {
    const render::Palette p = render::palette(dark);
    for (int r = 0; r < static_cast<int>(Role::Count); ++r) {
      const render::Rgba level = p.level(static_cast<Role>(r));
      // The level is drawn translucent over the band's surface (and over its stripes, in the stripe colour
      // at low alpha): the band's name and what it holds (in the text colour) sit on the mix of the two.
      const render::Rgba under = render::mix(p.surface, render::Rgba{level.r, level.g, level.b, 1}, level.a);
      INFO((dark ? "dark" : "light") << " theme, " << layout::role_key(static_cast<Role>(r)));
      REQUIRE(render::contrast(p.text, under) >= 4.5);
      // And the level is visible against the empty part of the band (non-text contrast is not asked of a
      // tint, but it must differ).
      REQUIRE_FALSE(under == p.surface);
    }
  }
}
