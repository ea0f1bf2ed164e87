// Edits made through the panels' widgets as a person makes them — a click on a field, typing, Enter; a
// choice from a list; a layer's mode; a row of the figures table; a panel's key — change the app exactly as
// the app's own operations do (set_param, set_preset), and a refused value is named on screen.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "base/text.h"
#include "codec/url_codec.h"
#include "model/params.h"
#include "model/presets.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"
#include "ui_checks.h"
#include "ui_driver.h"

using namespace tierscope;
using ui_test::Driver;
using ui_test::Frame;

namespace {

// Two apps hold the same scenario, and so the same figures.
void check_same_scenario(const ui::Screen& a, const ui::Screen& b) {
  CHECK(model::scenario_to_hash(a.scenario) == model::scenario_to_hash(b.scenario));
  REQUIRE(a.figures.list.size() == b.figures.list.size());
  for (std::size_t i = 0; i < a.figures.list.size(); ++i) {
    INFO("figure " << a.figures.list[i].label);
    CHECK(model::figure_value_text(a.figures.list[i]) == model::figure_value_text(b.figures.list[i]));
  }
}

std::string field_row(const ui::Screen& app, const char* key) {
  return "| " + std::string(key) + " | { " + model::get_param_text(app.scenario, *model::find_param(key)) + " }";
}

// An app on the default preset with the scenario editor opened from its toolbar button.
struct EditorFixture {
  ui::Screen app;
  Driver d;
  explicit EditorFixture(const ui_test::Viewport& vp) : d(vp.width, vp.height, vp.touch) {
    app::init(app);
    d.settle(app);
    REQUIRE(d.click_control(app, "button:" + std::string(app::panel_key(app::Panel::Scenario))));
    REQUIRE(app::panel_open(app, app::Panel::Scenario));
  }
  // Clicks the field, types the text and presses Enter.
  void type_into(const char* key, const std::string& text) {
    REQUIRE(d.click_control(app, std::string("param:") + key));
    CHECK(ImGui::GetIO().WantTextInput);
    d.type(app, text);
    d.press(app, ImGuiKey_Enter);
    CHECK_FALSE(ImGui::GetIO().WantTextInput);
  }
};

}  // namespace

TEST_CASE("a value typed into the scenario editor applies on Enter, as set_param applies it") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    EditorFixture fx(vp);
    // Lowering the prompt below the prefix hit moves the hit too: the editor shows both values and why.
    ui::Screen ref;
    app::init(ref);
    model::Errors errors;
    std::vector<app::Adjustment> moved;
    REQUIRE(app::set_param(ref, "prompt", "4096", errors, &moved));
    REQUIRE(moved.size() == 1);

    fx.type_into("prompt", "4096");
    check_same_scenario(fx.app, ref);
    const Frame& f = fx.d.settle(fx.app);
    CHECK(f.has(field_row(fx.app, "prompt")));
    CHECK(f.has("{ 4096 }"));
    CHECK(f.has(field_row(fx.app, moved[0].field.c_str())));
    CHECK(f.has(moved[0].why));
    CHECK(fx.app.canvas.text_cut == 0);
  }
}

TEST_CASE("a refused value in the scenario editor is named on screen and changes nothing") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    EditorFixture fx(vp);
    const std::string before = model::scenario_to_hash(fx.app.scenario);
    ui::Screen ref;
    app::init(ref);
    model::Errors errors;
    REQUIRE_FALSE(app::set_param(ref, "ctx", "abc", errors));
    REQUIRE(!errors.empty());

    fx.type_into("ctx", "abc");
    CHECK(model::scenario_to_hash(fx.app.scenario) == before);
    const Frame& f = fx.d.settle(fx.app);
    CHECK(f.has(errors.front().message()));
    CHECK(f.has(field_row(fx.app, "ctx")));  // the field shows the value still in force
  }
}

TEST_CASE("the scenario editor has the layout's fields — dp typed in moves tp as set_param moves it, a tp the heads refuse is named with what is allowed") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    EditorFixture fx(vp);
    const Frame& shown = fx.d.settle(fx.app);
    for (const char* key : {"tp", "dp", "ep", "redundant"}) {
      INFO(key);
      CHECK(shown.has(field_row(fx.app, key)));
    }
    CHECK(shown.has("Serve panel's setting (instances)"));  // where the instances behind a router are set
    // dp=2 on 4 GPUs: tp follows to 2 (tp × dp = gpus), and the editor says so.
    ui::Screen ref;
    app::init(ref);
    model::Errors errors;
    std::vector<app::Adjustment> moved;
    REQUIRE(app::set_param(ref, "dp", "2", errors, &moved));
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].field == "tp");
    fx.type_into("dp", "2");
    check_same_scenario(fx.app, ref);
    const Frame& f = fx.d.settle(fx.app);
    CHECK(f.has(field_row(fx.app, "dp")));
    CHECK(f.has(field_row(fx.app, "tp")));
    CHECK(f.has(moved[0].why));
    // tp=3 splits no head count: refused, the message names tp and the sizes the heads allow.
    const std::string before = model::scenario_to_hash(fx.app.scenario);
    model::Errors refused;
    REQUIRE_FALSE(app::set_param(ref, "tp", "3", refused));
    REQUIRE(!refused.empty());
    CHECK(refused.front().field == "tp");
    CHECK(refused.front().allowed == model::tp_allowed_text(fx.app.scenario.model));
    fx.type_into("tp", "3");
    CHECK(model::scenario_to_hash(fx.app.scenario) == before);
    CHECK(fx.d.settle(fx.app).has(refused.front().message()));
    CHECK(fx.app.canvas.text_cut == 0);
  }
}

TEST_CASE("a choice from a list in the scenario editor applies, as set_param applies it") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    EditorFixture fx(vp);
    const model::ParamDef& gpu = *model::find_param("gpu");
    REQUIRE(gpu.kind == model::ParamKind::Enum);
    const std::string current = model::get_param_text(fx.app.scenario, gpu);
    std::string choice;
    for (int i = 0; i < gpu.enum_count && choice.empty(); ++i)
      if (current != gpu.enum_keys[i]) choice = gpu.enum_keys[i];
    ui::Screen ref;
    app::init(ref);
    model::Errors errors;
    REQUIRE(app::set_param(ref, "gpu", choice, errors));

    REQUIRE(fx.d.click_control(fx.app, "param:gpu"));  // opens the list
    REQUIRE(fx.d.click_item(fx.app, choice));
    check_same_scenario(fx.app, ref);
    CHECK(fx.d.settle(fx.app).has(field_row(fx.app, "gpu")));
  }
}

TEST_CASE("a preset picked from the scenario editor's list loads as set_preset loads it") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    for (const model::PresetInfo& preset : model::presets()) {
      if (preset.name == std::string(model::kDefaultPreset)) continue;
      INFO(vp.name << ", " << preset.name);
      EditorFixture fx(vp);
      ui::Screen ref;
      app::init(ref);
      model::Errors errors;
      REQUIRE(app::set_preset(ref, preset.name, errors));

      REQUIRE(fx.d.click_control(fx.app, "preset"));
      REQUIRE(fx.d.click_item(fx.app, preset.label));
      CHECK(fx.app.scenario.preset == preset.name);
      check_same_scenario(fx.app, ref);
      ui_test::check_scenario_editor(fx.app, fx.d.settle(fx.app));
    }
  }
}

TEST_CASE("a layer's mode picked in the CSA2 modes panel applies as set_param(modes), or is refused on screen") {
  const model::LayerMode modes[] = {model::LayerMode::Full, model::LayerMode::Reindex, model::LayerMode::Reuse,
                                    model::LayerMode::SwaOnly, model::LayerMode::Dense};
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    // One change the model accepts and one it refuses, found by asking the app itself.
    bool tried_accepted = false, tried_refused = false;
    ui::Screen probe;
    app::init(probe);
    const int layers = probe.scenario.model.layer_count;
    for (int l = 0; l < layers && !(tried_accepted && tried_refused); ++l) {
      for (model::LayerMode mode : modes) {
        if (probe.scenario.model.layers[static_cast<std::size_t>(l)].mode == mode) continue;
        model::ModelArch next = probe.scenario.model;
        next.layers[static_cast<std::size_t>(l)].mode = mode;
        ui::Screen ref;
        app::init(ref);
        model::Errors errors;
        const bool accepted = app::set_param(ref, "modes", model::layers_to_text(next), errors);
        if (accepted ? tried_accepted : tried_refused) continue;
        INFO("layer " << l << " to " << model::layer_mode_name(mode));

        ui::Screen app;
        app::init(app);
        Driver d(vp.width, vp.height, vp.touch);
        d.settle(app);
        REQUIRE(d.click_control(app, "button:" + std::string(app::panel_key(app::Panel::Modes))));
        const std::string suffix = "##" + std::to_string(l);
        const ui_test::DrawnItem* button = nullptr;
        for (const ui_test::DrawnItem& it : d.last().items)
          if (it.window == "panels" && it.label.ends_with(suffix) && it.label.size() > suffix.size()) button = &it;
        REQUIRE(button);
        REQUIRE(d.click_id(app, button->id));
        CHECK(app.canvas.selected_layer == l);
        CHECK(d.last().has("Layer " + std::to_string(l)));
        const std::string before = model::scenario_to_hash(app.scenario);
        REQUIRE(d.click_item(app, model::layer_mode_name(mode)));
        const Frame& f = d.settle(app);
        if (accepted) {
          check_same_scenario(app, ref);
          ui_test::check_modes(app, f);
          tried_accepted = true;
        } else {
          CHECK(model::scenario_to_hash(app.scenario) == before);
          CHECK(f.has(errors.front().message()));
          tried_refused = true;
        }
      }
    }
    CHECK(tried_accepted);
    CHECK(tried_refused);
  }
}

TEST_CASE("a figure picked in the figures table is the one the inspector explains") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    for (const model::PresetInfo& preset : model::presets()) {
      INFO(vp.name << ", " << preset.name);
      ui::Screen app;
      app::init(app);
      model::Errors errors;
      REQUIRE(app::set_preset(app, preset.name, errors));
      Driver d(vp.width, vp.height, vp.touch);
      d.settle(app);
      REQUIRE(d.click_control(app, "button:" + std::string(app::panel_key(app::Panel::Figures))));
      const int n = static_cast<int>(app.figures.list.size());
      for (int i : {0, n / 2, n - 1}) {
        INFO("figure " << app.figures.list[static_cast<std::size_t>(i)].label);
        REQUIRE(d.click_item(app, "##fig", i));
        CHECK(app.selected_figure == i);
        const Frame& f = d.settle(app);
        CHECK(ui_test::shows_only(app, "figures"));
        CHECK(std::find(app.canvas.sections.begin(), app.canvas.sections.end(), "inspector") != app.canvas.sections.end());
        ui_test::check_figure_card(f, app.figures.list[static_cast<std::size_t>(i)]);
      }
    }
  }
}

TEST_CASE("each panel's key opens it from the schematic with keyboard focus in it, and Esc goes back") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    ui::Screen app;
    app::init(app);
    Driver d(vp.width, vp.height, vp.touch);
    d.settle(app);
    d.press(app, ImGuiKey_Escape);  // the schematic has the keys
    struct Key {
      ImGuiKey key;
      int section;
    };
    const Key keys[] = {{ImGuiKey_S, static_cast<int>(app::Panel::Scenario)}, {ImGuiKey_M, static_cast<int>(app::Panel::Modes)},
                        {ImGuiKey_C, static_cast<int>(app::Panel::Card)},     {ImGuiKey_F, static_cast<int>(app::Panel::Figures)},
                        {ImGuiKey_I, static_cast<int>(app::Panel::Inspector)}};
    for (const Key& k : keys) {
      const std::string key = ui_test::section_key(k.section);
      INFO("section " << key);
      d.press(app, k.key);
      CHECK(std::find(app.canvas.sections.begin(), app.canvas.sections.end(), key) != app.canvas.sections.end());
      const ImGuiWindow* nav = ImGui::GetCurrentContext()->NavWindow;
      REQUIRE(nav);
      CHECK(std::string(nav->Name) == "panels");
      d.press(app, ImGuiKey_Escape);  // back to the schematic: ↓ walks the objects again
      d.press(app, ImGuiKey_DownArrow);
      CHECK(app.selected.valid());
      d.press(app, ImGuiKey_Escape);
      d.press(app, ImGuiKey_Escape);
    }
    // '?' comes as a character (it needs Shift on most keyboards): the keys help, then Esc closes it.
    ImGui::GetIO().AddInputCharacter('?');
    d.settle(app);
    CHECK(ui_test::shows_only(app, "help"));
    d.press(app, ImGuiKey_Escape);
    d.press(app, ImGuiKey_Escape);
    CHECK(std::find(app.canvas.sections.begin(), app.canvas.sections.end(), "help") == app.canvas.sections.end());
  }
}

// The hardware fields at 0 stand for the catalog's values (the GPU's HBM and link, each kernel class's own
// shares): the editor shows those, greyed in the field, never a bare "0" — and a value typed there applies.
TEST_CASE("the scenario editor shows the catalog's value where a hardware field is 0") {
  for (const ui_test::Viewport& vp : ui_test::kViewports) {
    INFO(vp.name);
    EditorFixture fx(vp);
    const model::Hardware& hw = fx.app.scenario.hw;
    REQUIRE(hw.hbm_gb == 0);
    REQUIRE(hw.link_gbps == 0);
    const std::pair<const char*, std::string> shown[] = {{"hbm_gb", "catalog: " + model::num(model::hbm_gb_per_gpu(hw))},
                                                         {"link_gbps", "catalog: " + model::num(model::link_gbps(hw))},
                                                         {"mbu", "each class's own"},
                                                         {"mfu", "each class's own"}};
    for (const auto& [key, text] : shown) {
      INFO(key);
      REQUIRE(fx.d.click_control(fx.app, std::string("param:") + key));  // scrolled into view
      fx.d.press(fx.app, ImGuiKey_Escape);
      const Frame& f = fx.d.settle(fx.app);
      CHECK(f.has("| " + std::string(key) + " | { " + text + " }"));
      CHECK_FALSE(f.has("| " + std::string(key) + " | { 0 }"));
    }
    CHECK(model::hbm_gb_per_gpu(hw) > 100);  // the catalog's B200, not 0
    // Left as it was, the field stays 0; a value typed over the greyed one applies.
    CHECK(fx.app.scenario.hw.hbm_gb == 0);
    fx.type_into("hbm_gb", "141");
    CHECK(fx.app.scenario.hw.hbm_gb == 141);
    CHECK(fx.d.settle(fx.app).has("| hbm_gb | { 141 }"));
  }
}

// Every field of the editor is wide enough for the value it holds ("1048576" read "104857", "auto" read "autc"
// where the key and unit columns left the values too little room), at the desktop's and the phone's width.
TEST_CASE("every scenario editor field shows its whole value") {
  // (At 1440×900 the editor docks beside the schematic, in its narrowest column.)
  for (const ui_test::Viewport& vp : {ui_test::kViewports[0], ui_test::kViewports[1], ui_test::Viewport{"laptop", 750, 598, false}}) {
    INFO(vp.name);
    EditorFixture fx(vp);
    for (const model::ParamDef& p : model::params()) {
      if (p.group == model::ParamGroup::Model || p.kind == model::ParamKind::Text) continue;
      INFO(p.key);
      const ui::Control* c = ui_test::control(fx.app, std::string("param:") + p.key);
      if (!c) continue;  // not in the editor's open groups
      // The longest value the field is likely to hold: its own, or the largest context.
      const std::string v = std::string(p.key) == "ctx" ? std::string("1048576") : model::get_param_text(fx.app.scenario, p);
      // The text and the frame's padding, and for a menu its arrow.
      const float arrow = p.kind == model::ParamKind::Enum ? ImGui::GetFrameHeight() : 0.0f;
      const float need = ImGui::CalcTextSize(v.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x + arrow;
      CHECK(c->rect.w >= need);
    }
  }
}
