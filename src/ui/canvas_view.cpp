// The canvas frame: scene and layout from the app's state, pointer/touch/keyboard input on the canvas, the
// layout's labels over the schematic (ImGui's font atlas is baked at the device ratio, so they stay sharp),
// the hover tooltip, and layout_json() for the page.
//
// Sections: labels and the keyboard's walk over the canvas · focus_section · pointer, Esc and keys · the
// tooltip and a target's words · layout_json's parts · find_item, target_name, select_target · canvas_frame,
// canvas_render, layout_json.
#include "ui/canvas_view.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

#include "base/hash.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "evidence/reports.h"
#include "ui/panels.h"
#include "ui/theme.h"

namespace tierscope::ui {

// The app room's names (App, Panel and the operations on them) read here as the UI's own.
using namespace tierscope::app;

using layout::Item;
using layout::Kind;

namespace {

std::string block_value(const Screen& app, int object) {
  const anim::ObjectState& o = app.state.objects[static_cast<std::size_t>(object)];
  const double fp = app.canvas.scene.objects[static_cast<std::size_t>(object)].footprint;
  std::string v = model::human(o.bytes, "B");
  if (fp > o.bytes * 1.0001 && fp > 0) v += " of " + model::human(fp, "B");
  return v;
}

// The layout chose every wording to fit; this only paints it in the item's colours.
void draw_labels(const Screen& app, const render::Palette& pal) {
  const layout::Layout& L = app.canvas.layout;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (const layout::Label& l : L.labels) {
    const Item* it = l.item >= 0 ? &L.items[static_cast<std::size_t>(l.item)] : nullptr;
    render::Rgba colour = l.tone == layout::Tone::Muted ? pal.muted : l.tone == layout::Tone::Alert ? pal.alert : pal.text;
    if (l.tone == layout::Tone::OnItem && it) colour = pal.text_on(it->role, it->highlighted);
    const float x = std::round(l.x()), y = std::round(l.y());
    if (it && it->kind == Kind::Packet) {
      // The packet's bytes sit on a small plate so they read over whatever the packet passes.
      dl->AddRectFilled(ImVec2(x - 4, y - 2), ImVec2(x + l.width + 4, y + l.px + 2), pal.surface.packed(), 4);
      dl->AddRect(ImVec2(x - 4, y - 2), ImVec2(x + l.width + 4, y + l.px + 2), pal.edge(it->role).packed(), 4);
    }
    dl->AddText(ImGui::GetFont(), l.px, ImVec2(x, y), colour.packed(), l.text.c_str());
  }
}

CanvasTarget target_of(const Item* it) {
  if (!it) return {};
  return {it->kind, it->index};
}

// The order ↑ and ↓ walk the canvas in: the token row, the layer rows, the hidden stream, then each tier
// followed by the blocks it holds, then the move in flight.
std::vector<CanvasTarget> stepping_order(const layout::Layout& L) {
  std::vector<CanvasTarget> order;
  if (L.find(Kind::Token, 0)) order.push_back({Kind::Token, 0});
  for (const Kind k : {Kind::EncoderLayer, Kind::DecoderLayer})
    for (const Item& it : L.items)
      if (it.kind == k) order.push_back(target_of(&it));
  if (L.find(Kind::Stream, 0)) order.push_back({Kind::Stream, 0});
  for (int b = 0; b < 4; ++b) {
    const Item* band = L.find(Kind::Band, b);
    if (!band) continue;
    order.push_back(target_of(band));
    for (const Item& it : L.items)
      if (it.kind == Kind::Block && it.rect.inside(band->rect)) order.push_back(target_of(&it));
  }
  for (const Item& it : L.items)
    if (it.kind == Kind::Remote) order.push_back(target_of(&it));
  if (L.find(Kind::Packet, 0)) order.push_back({Kind::Packet, 0});
  return order;
}

void step_selection(Screen& app, int delta) {
  const std::vector<CanvasTarget> order = stepping_order(app.canvas.layout);
  if (order.empty()) return;
  CanvasTarget cur = app.selected;
  if (cur.kind == Kind::Token) cur.index = 0;
  const auto at = std::find(order.begin(), order.end(), cur);
  const int n = static_cast<int>(order.size());
  int next = 0;
  if (at == order.end()) next = delta > 0 ? 0 : n - 1;
  else next = ((static_cast<int>(at - order.begin()) + delta) % n + n) % n;
  select_target(app, order[static_cast<std::size_t>(next)]);
}

}  // namespace

// Moves keyboard focus into a panel section (drawn by panels.cpp on the next frame) and opens it.
void focus_section(Screen& app, int section) {
  CanvasState& c = app.canvas;
  if (section == kHelpSection) app.help_open = true;
  else set_panel(app, static_cast<Panel>(section), true);
  if (section == static_cast<int>(Panel::Inspector)) app.inspector_shown = true;
  c.focus_request = section;
  ++app.revision;  // the page hears that a panel shows (on phones it makes room for it)
}

namespace {

bool panel_has_keyboard(const ImGuiContext& g) {
  return g.NavWindow && !(g.NavWindow->Flags & ImGuiWindowFlags_NoNavInputs);
}

void handle_pointer(Screen& app) {
  ImGuiIO& io = ImGui::GetIO();
  CanvasState& c = app.canvas;
  const layout::Layout& L = c.layout;
  const bool over_ui = io.WantCaptureMouse;
  const ImVec2 mp = io.MousePos;
  const bool mouse_valid = ImGui::IsMousePosValid(&mp);
  // A finger has no hover: only a mouse or pen over the schematic shows a tooltip.
  const bool hovering = io.MouseSource == ImGuiMouseSource_Mouse && mouse_valid && !over_ui && !c.scrubbing;
  c.hover = hovering ? target_of(L.hit(mp.x, mp.y)) : CanvasTarget{};

  if (!over_ui && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    c.pressing = true;
    c.scrubbing = false;
    c.press_moved = false;
    c.press_x = mp.x;
    c.press_y = mp.y;
    c.press_screen_time = anim::screen_time(app.playback, app.time_map);
    ImGui::SetWindowFocus(nullptr);  // keys go to the schematic again, not to a panel
  }
  // The browser took the gesture (a swipe that scrolls the page): it is neither a tap nor a scrub.
  if (c.pressing && c.press_cancelled) {
    c.pressing = false;
    c.scrubbing = false;
  }
  // A drag that is clearly sideways scrubs through the path (the schematic's width is the whole path); one
  // that went up or down first is no scrub and no tap (on a touch screen the page scrolls with it). A quick
  // flick can be pressed, moved and released within two frames, so the release is judged by the same rule.
  const bool down = ImGui::IsMouseDown(ImGuiMouseButton_Left), released = ImGui::IsMouseReleased(ImGuiMouseButton_Left);
  if (c.pressing && (down || released) && mouse_valid) {
    const float dx = mp.x - c.press_x, dy = mp.y - c.press_y;
    if (!c.scrubbing && !c.press_moved && std::fabs(dx) > 10 && std::fabs(dx) > 1.5f * std::fabs(dy)) c.scrubbing = true;
    if (!c.scrubbing && std::fabs(dy) > 10) c.press_moved = true;
    if (c.scrubbing && app.time_map.screen_total > 0 && !fleet_view(app)) {
      const double span = std::max(1.0f, L.schematic.w);
      scrub(app, c.press_screen_time + static_cast<double>(dx) / span * app.time_map.screen_total);
    }
  }
  if (c.pressing && released) {
    if (!c.scrubbing && !c.press_moved) select_target(app, target_of(L.hit(c.press_x, c.press_y)));
    c.pressing = false;
    c.scrubbing = false;
  }
}

// Esc on the schematic closes what is open, one layer at a time: the key list, then every panel (and the
// selection the inspector shows), then a selection with no panel.
void escape(Screen& app) {
  if (app.help_open) {
    app.help_open = false;
    ++app.revision;
    return;
  }
  const bool panels = panel_area_wanted(app);
  for (const Panel p : {Panel::Scenario, Panel::Modes, Panel::Card, Panel::Figures}) set_panel(app, p, false);
  select_target(app, {});
  if (panels) {
    app.selected_figure = -1;
    app.inspector_shown = false;
    ++app.revision;
  }
}

void handle_keys(Screen& app) {
  ImGuiIO& io = ImGui::GetIO();
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // Keys reach the app only while the canvas element has focus (SDL listens on it alone); a text field
  // being edited keeps every key.
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;

  // Panel keys work from the schematic and from inside a panel alike.
  struct PanelKey {
    ImGuiKey key;
    int section;
  };
  const PanelKey panel_keys[] = {{ImGuiKey_S, static_cast<int>(Panel::Scenario)}, {ImGuiKey_M, static_cast<int>(Panel::Modes)},
                                 {ImGuiKey_C, static_cast<int>(Panel::Card)},     {ImGuiKey_F, static_cast<int>(Panel::Figures)},
                                 {ImGuiKey_I, static_cast<int>(Panel::Inspector)}};
  for (const PanelKey& k : panel_keys)
    if (ImGui::IsKeyPressed(k.key, false)) focus_section(app, k.section);
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
    if (io.InputQueueCharacters[i] == '?') {
      if (!app.help_open) focus_section(app, kHelpSection);
      else {
        app.help_open = false;
        ++app.revision;
      }
    }

  if (panel_has_keyboard(g)) {
    // Inside a panel, ImGui's navigation has the arrows, Space and Enter; Esc comes back to the schematic.
    if (ImGui::IsKeyPressed(ImGuiKey_Escape, false)) ImGui::SetWindowFocus(nullptr);
    return;
  }
  if (ImGui::IsKeyPressed(ImGuiKey_Space, false)) toggle_play(app);
  if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) step_by(app, 1);
  if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) step_by(app, -1);
  if (ImGui::IsKeyPressed(ImGuiKey_Home, false)) seek_clamped(app, 0);
  if (ImGui::IsKeyPressed(ImGuiKey_End, false)) seek_clamped(app, std::max(0, (fleet_view(app) ? fleet_hours(app) : app.state.steps) - 1));
  if (ImGui::IsKeyPressed(ImGuiKey_DownArrow)) step_selection(app, 1);
  if (ImGui::IsKeyPressed(ImGuiKey_UpArrow)) step_selection(app, -1);
  if (ImGui::IsKeyPressed(ImGuiKey_Enter, false) || ImGui::IsKeyPressed(ImGuiKey_KeypadEnter, false))
    focus_section(app, static_cast<int>(Panel::Inspector));
  if (ImGui::IsKeyPressed(ImGuiKey_Escape, false)) escape(app);
}

void tooltip(const Screen& app) {
  const CanvasTarget t = app.canvas.hover;
  if (!t.valid() || app.canvas.pressing) return;
  const Item* it = find_item(app, t);
  if (!it) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(target_name(app, t).c_str());
  switch (t.kind) {
    case Kind::Block: {
      const auto o = static_cast<anim::ObjectKind>(t.index);
      ImGui::TextDisabled("%s resident · %s", block_value(app, t.index).c_str(), model::lifetime_name(anim::object_lifetime(o)));
      break;
    }
    case Kind::Band: {
      const layout::BandInfo& b = app.canvas.layout.bands[static_cast<std::size_t>(t.index)];
      ImGui::TextDisabled("%s capacity · %s latency", model::human(b.capacity, "B").c_str(), model::human(b.latency, "s").c_str());
      break;
    }
    case Kind::EncoderLayer:
    case Kind::DecoderLayer:
      // The row's letters spelled out: what each kind of layer keeps and reads.
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
      ImGui::TextDisabled("%s", layout::mode_key(app.canvas.scene, it->first_layer, it->last_layer).c_str());
      ImGui::PopTextWrapPos();
      break;
    case Kind::Packet:
      if (app.state.entry) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
        ImGui::TextDisabled("%s", app.state.entry->sentence.c_str());
        ImGui::PopTextWrapPos();
      }
      break;
    default: break;
  }
  ImGui::TextDisabled("Click to inspect");
  ImGui::EndTooltip();
}

// One line about a target for the page's live region: what it holds or does, and its leading figure.
std::string target_detail(const Screen& app, CanvasTarget t, const Item* it) {
  switch (t.kind) {
    case Kind::Block: {
      const auto o = static_cast<anim::ObjectKind>(t.index);
      const anim::ObjectState& st = app.state.objects[static_cast<std::size_t>(t.index)];
      std::string s = model::human(st.bytes, "B") + " resident in " + endpoint_name(app, st.tier);
      const model::FigureId id = primary_figure(o);
      if (id != model::FigureId::Count) {
        const model::Figure& f = app.figures[id];
        s += "; " + std::string(f.label) + ": " + model::figure_text(f);
      }
      return s;
    }
    case Kind::Band: {
      const layout::BandInfo& b = app.canvas.layout.bands[static_cast<std::size_t>(std::clamp(t.index, 0, 3))];
      return model::human(b.capacity, "B") + " capacity, " + model::human(b.latency, "s") + " latency";
    }
    case Kind::EncoderLayer:
    case Kind::DecoderLayer:
      return it ? layout::mode_key(app.canvas.scene, it->first_layer, it->last_layer) : "";
    case Kind::Packet: return app.state.entry ? app.state.entry->sentence : "";
    case Kind::Token: return "the prompt, " + model::count_of(std::max(1, app.scenario.work.prompt), "token", "tokens");
    case Kind::Remote:
      return t.index == static_cast<int>(anim::Endpoint::Nic) ? "the prefill node's network interface: KV bound for another node leaves by it, over RDMA"
                                                               : "another node's GPU memory: the decode instance that receives the prompt's KV and decodes";
    case Kind::Stream:
      return app.canvas.scene.ced ? "each token's final encoder state, projected into the global KV the decoder reads"
                                  : "each token's final state, turned into the next token's logits";
    default: return "";
  }
}

// Pixel geometry to a tenth of a pixel: what the page's layout checks compare.
model::JsonWriter& px(model::JsonWriter& w, float v) { return w.fixed(static_cast<double>(v), 1); }
void rect_json(model::JsonWriter& w, const layout::Rect& r) {
  w.array();
  px(w, r.x);
  px(w, r.y);
  px(w, r.w);
  px(w, r.h);
  w.end();
}

// Colours of each role as the canvas paints them (sRGB 0-255), plain and highlighted, for pixel checks.
void colours_json(model::JsonWriter& w, const render::Palette& pal) {
  w.object("colours");
  for (int r = 0; r < static_cast<int>(layout::Role::Count); ++r) {
    const auto role = static_cast<layout::Role>(r);
    const render::Rgba a = pal.fill(role, false), b = pal.fill(role, true);
    w.object(layout::role_key(role)).array("plain").integer(std::lround(a.r * 255)).integer(std::lround(a.g * 255)).integer(std::lround(a.b * 255));
    w.end().array("highlighted").integer(std::lround(b.r * 255)).integer(std::lround(b.g * 255)).integer(std::lround(b.b * 255)).end().end();
  }
  w.end();
}

void item_json(model::JsonWriter& w, const layout::Layout& L, const Item& it) {
  w.object().str("id", layout::item_id(it)).str("kind", layout::kind_key(it.kind)).key("rect");
  rect_json(w, it.rect);
  w.str("role", layout::role_key(it.role)).boolean("highlighted", it.highlighted);
  if (it.kind == Kind::Block) w.key("fill").fixed(static_cast<double>(it.fill), 4);
  if (it.kind == Kind::Band && it.fill >= 0) w.key("fill").fixed(static_cast<double>(it.fill), 6);  // the fleet view's level
  if (it.first_layer >= 0) w.array("layers").integer(it.first_layer).integer(it.last_layer).end();
  if (it.kind == Kind::Band) {
    const layout::BandInfo& b = L.bands[static_cast<std::size_t>(it.index)];
    w.key("capacity").sig(b.capacity, 6).key("latency").sig(b.latency, 6).key("stripeSpacing").fixed(static_cast<double>(b.stripe_spacing), 2);
  }
  w.end();
}

}  // namespace

const Item* find_item(const Screen& app, CanvasTarget t) {
  return t.valid() ? app.canvas.layout.find(t.kind, t.index) : nullptr;
}

std::string target_name(const Screen& app, CanvasTarget t) {
  const Item* it = find_item(app, t);
  switch (t.kind) {
    case Kind::Block: return object_name(app, static_cast<anim::ObjectKind>(t.index));
    case Kind::Band: return layout::tier_short_name(t.index);
    case Kind::Token: return "Token row";
    case Kind::Remote: return t.index == static_cast<int>(anim::Endpoint::Nic) ? "NIC (RDMA)" : "Decode node HBM";
    case Kind::Stream: return app.canvas.scene.ced ? "Encoder final hidden stream H[t]" : "Final hidden stream";
    case Kind::EncoderLayer: return "Encoder row E" + std::to_string(t.index + 1) + (it ? " · " + layout::layers_text(it->first_layer, it->last_layer) : "");
    case Kind::DecoderLayer:
      return std::string(app.canvas.scene.ced ? "Decoder row D" : "Layer row L") + std::to_string(t.index + 1) +
             (it ? " · " + layout::layers_text(it->first_layer, it->last_layer) : "");
    case Kind::Packet:
      return app.state.entry ? "Moving: " + object_name(app, app.state.packet.object) + " · " +
                                   endpoint_name(app, app.state.packet.from) + " → " + endpoint_name(app, app.state.packet.to)
                             : "Packet";
    default: return "";
  }
}

void select_target(Screen& app, CanvasTarget t) {
  const Item* it = find_item(app, t);
  if (!it) {
    set_selection(app, {}, "", "", "");
    return;
  }
  // A new object opens the inspector at its top, its name and why it sits where it does in view.
  if (set_selection(app, t, layout::item_id(*it), target_name(app, t), target_detail(app, t, it)))
    app.canvas.scroll_request = static_cast<int>(Panel::Inspector);
  set_panel(app, Panel::Inspector, true);
}

std::uint64_t view_signature(const Screen& app) {
  const CanvasState& c = app.canvas;
  const int v[] = {static_cast<int>(c.hover.kind), c.hover.index, static_cast<int>(app.selected.kind), app.selected.index,
                   c.selected_layer, app.help_open ? 1 : 0, c.dark ? 1 : 0};
  return model::hash_bytes(v, sizeof v, app.revision);
}

void canvas_focus(Screen& app, bool focused) {
  if (focused) app.canvas.focus_pending = true;
  else app.canvas.blur_pending = true;
}

bool canvas_frame(Screen& app, float css_w, float css_h) {
  CanvasState& c = app.canvas;
  if (c.blur_pending) {
    // Focus left the canvas: leaving the field being edited applies it (ImGui hands its text back on the
    // next call of that field), and the panels give keyboard focus back to the schematic.
    c.blur_pending = false;
    ImGui::ClearActiveID();
    ImGui::SetWindowFocus(nullptr);
  }
  if (c.focus_pending) {
    // A panel asked for the keys in the same breath (a toolbar button's Enter) keeps them: its request is
    // served after this, when the panels draw.
    c.focus_pending = false;
    if (!ImGui::GetIO().WantTextInput) ImGui::SetWindowFocus(nullptr);
  }
  if (c.scene_revision != app.revision) {
    c.scene = layout::make_scene(app.scenario, app.figures, app.ledger);
    c.scene_revision = app.revision;
  }
  handle_pointer(app);
  handle_keys(app);
  // Under reduced motion the packet does not glide: it is shown where the step takes it.
  anim::StepState st = app.state;
  if (c.reduced_motion && st.packet.active) st.packet.progress = 1;
  layout::TextMetrics tm;
  tm.font_px = kFontSizePx;
  tm.line_height = kFontSizePx * 1.2f;
  ImFont* font = ImGui::GetFont();
  tm.char_width = font->CalcTextSizeA(kFontSizePx, FLT_MAX, 0, "Global KV active window 0123456789").x / 34.0f;
  tm.measure_ctx = font;
  tm.measure = [](const void* ctx, std::string_view text, float px) {
    return static_cast<const ImFont*>(ctx)->CalcTextSizeA(px, FLT_MAX, 0, text.data(), text.data() + text.size()).x;
  };
  layout::Options opt;
  opt.host_playback = c.host_playback;
  opt.host_counters = c.host_counters;
  opt.panel_open = panel_area_wanted(app);
  const bool fleet = fleet_view(app), serve = serve_view(app) && app.serve_step >= 0;
  if (fleet || serve) {
    // No move in flight: the fleet view fills the tiers with the run's occupancy at the fleet clock, the
    // Serve view on a replayed step fills HBM with that step's KV.
    st.packet.active = false;
    st.highlight = {};
    for (anim::ObjectState& o : st.objects) o.highlighted = false;
    opt.occupancy = fleet ? fleet_occupancy(app) : serve_occupancy(app);
  }
  layout::compute_layout(c.scene, st, {css_w, css_h}, tm, c.layout, opt);
  // A selection whose item is gone (no packet at this step, a block this model lacks) is cleared. Its words
  // are not refreshed while the path plays: the page announces each step itself, and the inspector is live.
  if (app.selected.valid() && !find_item(app, app.selected)) select_target(app, {});
  if (app.playback.playing && !c.reduced_motion) c.clock += static_cast<double>(ImGui::GetIO().DeltaTime);

  const render::Palette pal = render::palette(c.dark);
  draw_labels(app, pal);
  tooltip(app);
  return app.playback.playing;
}

// The one call of ui/ into GL (the WebGL renderer draws the schematic). The native build of the ui room,
// the UI test over Dear ImGui without a GPU, defines TIERSCOPE_UI_NO_GL and leaves it out, so it links no
// renderer; the web build compiles this file as it is.
#ifndef TIERSCOPE_UI_NO_GL
void canvas_render(const Screen& app, render::Renderer& r, int drawable_w, int drawable_h, float pixel_ratio) {
  const CanvasState& c = app.canvas;
  render::FrameInput in;
  in.css_w = c.layout.viewport.width;
  in.css_h = c.layout.viewport.height;
  in.drawable_w = drawable_w;
  in.drawable_h = drawable_h;
  in.pixel_ratio = pixel_ratio;
  in.time = c.clock;
  in.hover = find_item(app, c.hover);
  in.selected = find_item(app, app.selected);
  in.selected_layer = c.selected_layer;
  render::draw(r, c.layout, render::palette(c.dark), in);
}
#endif

std::string layout_json(const Screen& app) {
  const layout::Layout& L = app.canvas.layout;
  model::JsonWriter w(8192);
  w.object().array("viewport");
  px(w, L.viewport.width);
  px(w, L.viewport.height);
  w.end().key("textScale").fixed(static_cast<double>(L.text_scale), 3).str("theme", app.canvas.dark ? "dark" : "light");
  w.str("path", anim::path_key(app.state.path)).integer("step", app.state.step).key("toolbar");
  rect_json(w, L.toolbar);
  w.key("dock");
  rect_json(w, L.dock);
  w.str("dockSide", layout::dock_side_key(L.dock_side)).key("schematic");
  rect_json(w, L.schematic);
  colours_json(w, render::palette(app.canvas.dark));
  w.array("items");
  for (const Item& it : L.items) item_json(w, L, it);
  // The text on the canvas, each with the room it was fitted into and its measured width.
  w.end().array("labels");
  for (const layout::Label& l : L.labels) {
    w.object().str("text", l.text).key("box");
    rect_json(w, l.box);
    px(w.key("width"), l.width);
    px(w.key("px"), l.px).end();  // its font size
  }
  // Panel controls as drawn, and how many panel texts ran past their room (none should).
  w.end().object("controls");
  for (const auto& c : app.canvas.controls) {
    w.key(c.id);
    rect_json(w, c.rect);
  }
  w.end().array("sections");
  for (const auto& section : app.canvas.sections) w.str(section);
  w.end().integer("panelTextCut", app.canvas.text_cut);
  // How far the panels' area is scrolled, and how far it can be: [y, max] in CSS px.
  w.array("panelScroll");
  px(w, app.canvas.panel_scroll);
  px(w, app.canvas.panel_scroll_max);
  w.end().key("flight");
  const layout::Flight& f = L.flight;
  if (f.active) {
    w.object().str("from", anim::endpoint_key(f.from)).str("to", anim::endpoint_key(f.to));
    w.str("object", f.object == anim::ObjectKind::Count ? "" : anim::object_key(f.object)).array("start");
    px(px(w, f.x0), f.y0).end().array("end");
    px(px(w, f.x1), f.y1).end().end();
  } else {
    w.null();
  }
  const Item* si = find_item(app, app.selected);
  w.key("selected");
  if (si) w.str(layout::item_id(*si));
  else w.null();
  return w.end().take();
}

}  // namespace tierscope::ui
