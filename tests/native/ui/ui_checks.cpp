// The panels' expected contents, from the app's state and the model, evidence and layout rooms. The frame's
// text is ImGui's log of what it rendered: a field's text comes as "{ text }", a button's as "[ label ]", a
// table row as "| cell | cell |".
#include "ui_checks.h"

#include <catch2/catch.hpp>

#include <string>

#include "base/text.h"
#include "evidence/card_check.h"
#include "evidence/reports.h"
#include "layout/layout.h"
#include "model/params.h"
#include "model/presets.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"

namespace tierscope::ui_test {

std::string section_key(int section) {
  return section == ui::kHelpSection ? "help" : app::panel_key(static_cast<app::Panel>(section));
}

bool shows_only(const ui::Screen& app, const std::string& key) {
  const std::string inspector = app::panel_key(app::Panel::Inspector);
  bool shown = false;
  for (const std::string& k : app.canvas.sections) {
    if (k == key) shown = true;
    else if (k != inspector) return false;
  }
  return shown;
}

void check_scenario_editor(const ui::Screen& app, const Frame& f) {
  const model::PresetInfo* preset = model::find_preset(app.scenario.preset);
  std::string name = preset ? preset->label : model::scenario_label(app.scenario);
  // A narrow box leaves out the note in brackets, or shows the preset's key when even that is too long.
  name = name.substr(0, name.find(" ("));
  CHECK((f.has("{ " + name) || f.has("{ " + app.scenario.preset + " }")));
  for (const model::ParamDef& p : model::params()) {
    // The editor lists the workload, layout, hardware and model groups; the model's starts folded.
    const bool listed_open = p.group == model::ParamGroup::Workload || p.group == model::ParamGroup::Layout ||
                             p.group == model::ParamGroup::Hardware;
    if (p.kind == model::ParamKind::Text || !listed_open) continue;
    INFO("parameter " << p.key);
    // (A field at 0 that stands for another value shows that value: param_zero_text.)
    const std::string value = model::get_param_text(app.scenario, p);
    const std::string zero = value == "0" ? model::param_zero_text(app.scenario, p) : std::string();
    CHECK(f.has("| " + std::string(p.key) + " | { " + (zero.empty() ? value : zero) + " }"));
  }
}

void check_modes(const ui::Screen& app, const Frame& f) {
  const model::ModelArch& m = app.scenario.model;
  REQUIRE(m.layer_count > 0);
  for (int l = 0; l < m.layer_count; ++l) {
    INFO("layer " << l);
    const std::string suffix = "##" + std::to_string(l);
    const DrawnItem* button = nullptr;
    for (const DrawnItem& it : f.items)
      if (it.window == "panels" && it.label.size() > suffix.size() && it.label.ends_with(suffix)) button = &it;
    REQUIRE(button);
    CHECK(button->label.front() == model::layer_mode_letter(m.layers[static_cast<std::size_t>(l)].mode));
  }
}

void check_card(const ui::Screen& app, const Frame& f) {
  const std::vector<model::CardRow> rows = model::check_card(app.scenario);
  REQUIRE(!rows.empty());
  for (const model::CardRow& r : rows) {
    INFO("claim " << r.claim->text);
    CHECK(f.has(r.claim->text));
    CHECK(f.has("computed " + model::display_value(r.value, model::figure_info(r.claim->figure).unit) + " ·"));
    CHECK(f.has(model::verdict_name(r.verdict)));
  }
}

namespace {

// The frame shows `before` followed by the figure's text as the page's figures table and the command line
// give it (model::figure_text: "not computed" where the setup cannot run), and never a bare "NaN".
bool shows_figure(const Frame& f, const std::string& before, const model::Figure& fig, const std::string& after = "") {
  return f.has(before + model::figure_text(fig) + after) && !f.has("NaN");
}

}  // namespace

void check_figures(const ui::Screen& app, const Frame& f) {
  REQUIRE(!app.figures.list.empty());
  for (const model::Figure& fig : app.figures.list) {
    INFO("figure " << fig.label);
    CHECK(shows_figure(f, "| " + std::string(fig.label) + " | ", fig, " |"));
  }
}

void check_figure_card(const Frame& f, const model::Figure& fig) {
  INFO("figure " << fig.label);
  CHECK(shows_figure(f, std::string(fig.label) + " = ", fig));
  CHECK(f.has(fig.formula()));
}

namespace {

void check_entry(const ui::Screen& app, const Frame& f) {
  const anim::LedgerEntry* e = app.state.entry;
  if (!e) {
    CHECK(f.has(app.ledger.note));
    return;
  }
  CHECK(f.has(e->sentence));
  CHECK(f.has(e->formula));
  if (e->figure != model::FigureId::Count) check_figure_card(f, app.figures[e->figure]);
}

}  // namespace

void check_inspector_now(const ui::Screen& app, const Frame& f) { check_entry(app, f); }

void check_inspector(const ui::Screen& app, const Frame& f, app::CanvasTarget t) {
  const layout::Item* item = ui::find_item(app, t);
  REQUIRE(item);
  CHECK(f.has(ui::target_name(app, t)));
  switch (t.kind) {
    case layout::Kind::Block: {
      const auto o = static_cast<anim::ObjectKind>(t.index);
      const anim::ObjectState& st = app.state.objects[static_cast<std::size_t>(t.index)];
      CHECK(f.has(model::human(st.bytes, "B") + " resident in " + app::endpoint_name(app, st.tier)));
      if (const model::FigureId id = ui::primary_figure(o); id != model::FigureId::Count) check_figure_card(f, app.figures[id]);
      break;
    }
    case layout::Kind::Band: {
      const layout::BandInfo& b = app.canvas.layout.bands[static_cast<std::size_t>(t.index)];
      CHECK(f.has(model::human(b.capacity, "B") + " capacity · " + model::human(b.latency, "s") + " latency"));
      break;
    }
    case layout::Kind::EncoderLayer:
    case layout::Kind::DecoderLayer: {
      CHECK(f.has(layout::mode_key(app.canvas.scene, item->first_layer, item->last_layer)));
      for (int l = item->first_layer; l <= item->last_layer; ++l) {
        INFO("layer " << l);
        CHECK(f.has("| " + std::to_string(l) + " | " + model::layer_mode_name(app.scenario.model.layers[static_cast<std::size_t>(l)].mode) + " |"));
      }
      break;
    }
    case layout::Kind::Packet: check_entry(app, f); break;
    case layout::Kind::Token:
    case layout::Kind::Stream: check_figure_card(f, app.figures[ui::primary_figure(anim::ObjectKind::Tokens)]); break;
    default: FAIL("an object of a kind the inspector does not know: " << layout::kind_key(t.kind));
  }
}

}  // namespace tierscope::ui_test
