// The ImGui panels drawn natively, for every preset, on a desktop canvas and a phone's: each panel draws
// without Dear ImGui asserting, leaves draw data, and shows the words and numbers the app computed for that
// scenario (the inspector's figure text is the app's figure text, the card check's verdicts are the
// evidence room's); the same for a model imported from a config.json and for a setup that cannot run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/presets.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"
#include "ui_checks.h"
#include "ui_driver.h"

using namespace tierscope;
using ui_test::Driver;
using ui_test::Frame;

namespace {

// Opens one section alone, as its key does (ui::focus_section), and returns the settled frame.
const Frame& show_only(ui::Screen& app, Driver& d, int section) {
  for (int p = 0; p < app::kPanelCount; ++p) app::set_panel(app, static_cast<app::Panel>(p), false);
  app.help_open = false;
  app.selected_figure = -1;
  ui::select_target(app, {});
  ui::focus_section(app, section);
  return d.settle(app);
}

// Draws every section alone and checks each against what the app computed.
void check_every_panel(ui::Screen& app, Driver& d) {
  for (int section = 0; section <= app::kPanelCount; ++section) {
    const int id = section < app::kPanelCount ? section : ui::kHelpSection;
    const std::string key = ui_test::section_key(id);
    INFO("section " << key);
    const Frame& f = show_only(app, d, id);
    // Alone, but for the inspector, which a wide canvas keeps docked beside the schematic.
    CHECK(ui_test::shows_only(app, key));
    CHECK(f.vertices > 0);
    CHECK(d.window_vertices("panels") > 0);
    CHECK(app.canvas.text_cut == 0);
    if (id == static_cast<int>(app::Panel::Scenario)) ui_test::check_scenario_editor(app, f);
    if (id == static_cast<int>(app::Panel::Modes)) ui_test::check_modes(app, f);
    if (id == static_cast<int>(app::Panel::Card)) ui_test::check_card(app, f);
    if (id == static_cast<int>(app::Panel::Figures)) ui_test::check_figures(app, f);
    if (id == static_cast<int>(app::Panel::Inspector)) ui_test::check_inspector_now(app, f);
  }
}

// Walks the objects of the canvas with ↓ from the schematic (Esc first leaves any panel), as the keys help
// says, checking the inspector for each; every tier, block and layer row the canvas drew is reached.
void walk_objects(ui::Screen& app, Driver& d) {
  show_only(app, d, static_cast<int>(app::Panel::Inspector));
  d.press(app, ImGuiKey_Escape);
  d.press(app, ImGuiKey_DownArrow);
  const app::CanvasTarget first = app.selected;
  REQUIRE(first.valid());
  std::vector<app::CanvasTarget> visited;
  do {
    INFO("object " << app.selection_id);
    CHECK(ui_test::shows_only(app, "inspector"));
    CHECK(app.selection_name == ui::target_name(app, app.selected));
    CHECK(app.canvas.text_cut == 0);
    ui_test::check_inspector(app, d.last(), app.selected);
    visited.push_back(app.selected);
    d.press(app, ImGuiKey_DownArrow);
  } while (!(app.selected == first) && visited.size() < 200);
  for (const layout::Item& it : app.canvas.layout.items) {
    if (it.kind != layout::Kind::Band && it.kind != layout::Kind::Block && it.kind != layout::Kind::EncoderLayer &&
        it.kind != layout::Kind::DecoderLayer)
      continue;
    INFO("item " << layout::item_id(it));
    CHECK(std::find(visited.begin(), visited.end(), app::CanvasTarget{it.kind, it.index}) != visited.end());
  }
}

// A point of an item not covered by another (the packet in flight may lie over a block), or none.
std::optional<ImVec2> open_point(const layout::Layout& L, const layout::Item& it) {
  for (float fy : {0.5f, 0.25f, 0.75f})
    for (float fx : {0.5f, 0.2f, 0.8f, 0.05f, 0.95f}) {
      const float x = it.rect.x + it.rect.w * fx, y = it.rect.y + it.rect.h * fy;
      const layout::Item* top = L.hit(x, y);
      if (top && top->kind == it.kind && top->index == it.index) return ImVec2(x, y);
    }
  return std::nullopt;
}

// Clicks (or taps) each block of the canvas: the inspector opens on that block.
void click_blocks(ui::Screen& app, Driver& d) {
  d.press(app, ImGuiKey_Escape);
  const std::vector<layout::Item> items = app.canvas.layout.items;
  int clicked = 0;
  for (const layout::Item& it : items) {
    if (it.kind != layout::Kind::Block) continue;
    INFO("block " << layout::item_id(it));
    const std::optional<ImVec2> at = open_point(app.canvas.layout, it);
    if (!at) continue;
    d.click(app, *at);
    REQUIRE(app.selected == app::CanvasTarget{it.kind, it.index});
    CHECK(ui_test::shows_only(app, "inspector"));
    ui_test::check_inspector(app, d.last(), app.selected);
    ++clicked;
  }
  CHECK(clicked > 0);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("every panel draws the app's figures for every preset, on a desktop and a phone canvas") {
  for (const model::PresetInfo& preset : model::presets()) {
    for (const ui_test::Viewport& vp : ui_test::kViewports) {
      INFO(preset.name << " on a " << vp.name << " canvas");
      ui::Screen app;
      app::init(app);
      model::Errors errors;
      REQUIRE(app::set_preset(app, preset.name, errors));
      Driver d(vp.width, vp.height, vp.touch);
      check_every_panel(app, d);
    }
  }
}

TEST_CASE("the inspector explains every object of the canvas with the app's figures, for every preset") {
  for (const model::PresetInfo& preset : model::presets()) {
    for (const ui_test::Viewport& vp : ui_test::kViewports) {
      INFO(preset.name << " on a " << vp.name << " canvas");
      ui::Screen app;
      app::init(app);
      model::Errors errors;
      REQUIRE(app::set_preset(app, preset.name, errors));
      Driver d(vp.width, vp.height, vp.touch);
      d.settle(app);
      walk_objects(app, d);
      click_blocks(app, d);
    }
  }
}

TEST_CASE("a model imported from a config.json draws every panel with its own figures") {
  for (const char* file : {"Qwen3-30B-A3B.json", "gemma-3-27b-it.json"}) {
    INFO(file);
    const std::string text = read_file(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + file);
    REQUIRE(!text.empty());
    for (const ui_test::Viewport& vp : ui_test::kViewports) {
      INFO(vp.name);
      ui::Screen app;
      app::init(app);
      model::Errors errors;
      std::vector<std::string> notes;
      REQUIRE(app::load_config(app, text, errors, notes, file));
      REQUIRE(model::find_preset(app.scenario.preset) == nullptr);  // the editor names the loaded model
      Driver d(vp.width, vp.height, vp.touch);
      check_every_panel(app, d);
      walk_objects(app, d);
    }
  }
}

TEST_CASE("a setup that cannot run draws every panel, and the canvas says why") {
  ui::Screen app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "gpus", "1", errors));
  REQUIRE_FALSE(app.figures.computed.terms.feasible());
  REQUIRE_FALSE(app.fixes.empty());  // the model's one-edit ways out
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    Driver d(vp.width, vp.height, vp.touch);
    check_every_panel(app, d);
    walk_objects(app, d);
    const auto alert = std::find_if(app.canvas.layout.labels.begin(), app.canvas.layout.labels.end(),
                                    [](const layout::Label& l) { return l.tone == layout::Tone::Alert; });
    CHECK(alert != app.canvas.layout.labels.end());
  }
}

TEST_CASE("on a wide canvas with the inspector docked from the start, the keys work once Tab reaches the canvas") {
  // The docked panels draw from the first frame; ImGui's own focus must not leave them holding the keys.
  for (const ImVec2 size : {ImVec2(1920, 1080), ImVec2(2560, 1440), ImVec2(1280, 800)}) {
    INFO(size.x << "×" << size.y);
    ui::Screen app;
    app::init(app);
    Driver d(size.x, size.y);
    d.settle(app);
    ui::canvas_focus(app, true);  // what the page tells the app when Tab reaches the canvas
    d.settle(app);
    const int step = app.playback.step;
    d.press(app, ImGuiKey_RightArrow);
    CHECK(app.playback.step == step + 1);
    d.press(app, ImGuiKey_DownArrow);
    CHECK(app.selected.valid());
  }
}
