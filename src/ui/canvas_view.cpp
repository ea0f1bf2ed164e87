// The canvas frame: scene and layout from the app's state, pointer/touch/keyboard input on the canvas,
// text over the schematic (ImGui's font atlas is baked at the device ratio, so labels stay sharp), the
// hover tooltip, the help overlay, and layout_json() for the page.
#include "ui/canvas_view.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "model/text.h"
#include "ui/theme.h"

namespace tierscope::ui {

using layout::Item;
using layout::Kind;

namespace {

constexpr const char* kTierShort[4] = {"GPU SRAM", "GPU HBM", "Host DRAM", "NVMe SSD"};

// Text cut to `max_w` with an ellipsis.
std::string fit(const std::string& text, float size, float max_w) {
  ImFont* font = ImGui::GetFont();
  if (font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str()).x <= max_w) return text;
  std::string t = text;
  while (!t.empty()) {
    // Drop whole UTF-8 characters from the end.
    do t.pop_back();
    while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80);
    if (!t.empty()) t.pop_back();
    const std::string candidate = t + "…";
    if (font->CalcTextSizeA(size, FLT_MAX, 0, candidate.c_str()).x <= max_w) return candidate;
  }
  return "";
}

void text_at(ImDrawList* dl, float size, float x, float y, render::Rgba c, const std::string& s) {
  dl->AddText(ImGui::GetFont(), size, ImVec2(std::round(x), std::round(y)), c.packed(), s.c_str());
}

float text_w(float size, const std::string& s) { return ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, s.c_str()).x; }

std::string mode_summary(const layout::Scene& sc, int first, int last) {
  int counts[static_cast<int>(model::LayerMode::Count)] = {};
  model::LayerMode order[static_cast<int>(model::LayerMode::Count)];
  int n = 0;
  for (int l = first; l <= last; ++l) {
    const model::LayerMode m = sc.modes[static_cast<std::size_t>(l)];
    if (counts[static_cast<int>(m)]++ == 0) order[n++] = m;
  }
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += model::layer_mode_name(order[i]);
    const int c = counts[static_cast<int>(order[i])];
    if (c > 1) s += " ×" + std::to_string(c);
  }
  return s;
}

std::string layers_text(int first, int last) {
  return first == last ? "layer " + std::to_string(first) : "layers " + std::to_string(first) + "–" + std::to_string(last);
}

// Labels of the token row: the first prompt positions, an ellipsis, the last prompt position, the output.
std::string token_label(const App& app, int cell, int cells) {
  const int prompt = std::max(1, app.scenario.work.prompt);
  if (cell == cells - 1) return "next ▶";
  if (cell == cells - 2) return "t" + model::num(prompt);
  if (cell == cells - 3 && cells - 3 < prompt) return "…";
  return cell < prompt ? "t" + std::to_string(cell + 1) : "";
}

std::string block_value(const App& app, int object) {
  const anim::ObjectState& o = app.state.objects[static_cast<std::size_t>(object)];
  const double fp = app.canvas.scene.objects[static_cast<std::size_t>(object)].footprint;
  std::string v = model::human(o.bytes, "B");
  if (fp > o.bytes * 1.0001 && fp > 0) v += " of " + model::human(fp, "B");
  return v;
}

void draw_labels(const App& app, const render::Palette& pal) {
  const layout::Layout& L = app.canvas.layout;
  const layout::Scene& sc = app.canvas.scene;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float size = kFontSizePx * L.text_scale;
  const float small = size * 0.86f;
  const float pad = 8 * L.text_scale;

  // Section titles.
  const int dec_real = sc.layer_count - sc.enc_layers;
  const std::string titles[4] = {
      "INPUT / OUTPUT TOKENS",
      "CAUSAL ENCODER — runs in prefill · " + std::to_string(L.encoder_rows) + " of " + std::to_string(sc.enc_layers) +
          " layers drawn",
      sc.ced ? "DECODER — mostly skipped in prompt prefill · " + std::to_string(L.decoder_rows) + " of " +
                   std::to_string(dec_real) + " drawn"
             : "LAYERS — decoder-only · " + std::to_string(L.decoder_rows) + " of " + std::to_string(dec_real) +
                   " layers drawn",
      "MEMORY HIERARCHY — width ≈ capacity · stripes ≈ latency (log scales)",
  };
  for (int i = 0; i < 4; ++i) {
    const layout::Rect& r = L.titles[static_cast<std::size_t>(i)];
    if (r.w <= 0) continue;
    text_at(dl, small, r.x, r.y + (r.h - small) * 0.5f, pal.muted, fit(titles[i], small, r.w));
  }

  for (const Item& it : L.items) {
    const render::Rgba tc = pal.text_on(it.role, it.highlighted);
    const float inner = it.rect.w - 2 * pad;
    switch (it.kind) {
      case Kind::Token: {
        const std::string s = fit(token_label(app, it.index, L.token_cells), size, inner);
        text_at(dl, size, it.rect.cx() - text_w(size, s) * 0.5f, it.rect.cy() - size * 0.5f, tc, s);
        break;
      }
      case Kind::EncoderLayer:
      case Kind::DecoderLayer: {
        const char prefix = it.kind == Kind::EncoderLayer ? 'E' : (sc.ced ? 'D' : 'L');
        std::string s = std::string(1, prefix) + std::to_string(it.index + 1) + " · " + layers_text(it.first_layer, it.last_layer) +
                        " · " + mode_summary(sc, it.first_layer, it.last_layer);
        text_at(dl, size, it.rect.x + pad, it.rect.cy() - size * 0.5f, tc, fit(s, size, inner));
        break;
      }
      case Kind::Stream: {
        const std::string s = sc.ced ? "Encoder final hidden stream H[t] → projected global KV (read by the decoder)"
                                     : "Final hidden stream → next-token logits";
        const std::string f = fit(s, size, inner);
        text_at(dl, size, it.rect.cx() - text_w(size, f) * 0.5f, it.rect.cy() - size * 0.5f, tc, f);
        break;
      }
      case Kind::Band: {
        const layout::BandInfo& b = L.bands[static_cast<std::size_t>(it.index)];
        const std::string name = kTierShort[it.index];
        const std::string figs = model::human(b.capacity, "B") + " · " + model::human(b.latency, "s");
        const float y = b.title.y + (b.title.h - size) * 0.5f;
        text_at(dl, size, b.title.x + 2, y, pal.text, fit(name, size, b.title.w));
        const float nw = text_w(size, name) + 12;
        const float fw = text_w(small, figs);
        if (nw + fw <= b.title.w) text_at(dl, small, b.title.right() - fw - 2, y + (size - small) * 0.5f, pal.muted, figs);
        break;
      }
      case Kind::Block: {
        const std::string label = layout::block_label(static_cast<anim::ObjectKind>(it.index));
        const std::string value = block_value(app, it.index);
        const float bar = 3;
        const float avail_h = it.rect.h - bar;
        if (avail_h >= size * 2.1f) {
          const float y = it.rect.y + (avail_h - size - small) * 0.5f;
          text_at(dl, size, it.rect.x + pad, y, tc, fit(label, size, inner));
          text_at(dl, small, it.rect.x + pad, y + size, tc, fit(value, small, inner));
        } else {
          const std::string both = label + " · " + value;
          const std::string s = text_w(size, both) <= inner ? both : fit(label, size, inner);
          text_at(dl, size, it.rect.x + pad, it.rect.y + (avail_h - size) * 0.5f, tc, s);
        }
        break;
      }
      case Kind::Packet: {
        const anim::Packet& p = app.state.packet;
        std::string s = p.bytes > 0 ? model::human(p.bytes, "B") : (p.flop > 0 ? model::human(p.flop, "FLOP") : "");
        if (s.empty()) break;
        const float w = text_w(small, s);
        float x = it.rect.right() + 6;
        if (x + w + 6 > L.viewport.width) x = it.rect.x - w - 10;
        const float y = it.rect.cy() - small * 0.5f;
        dl->AddRectFilled(ImVec2(x - 4, y - 2), ImVec2(x + w + 4, y + small + 2), pal.surface.packed(), 4);
        dl->AddRect(ImVec2(x - 4, y - 2), ImVec2(x + w + 4, y + small + 2), pal.edge(it.role).packed(), 4);
        text_at(dl, small, x, y, pal.text, s);
        break;
      }
      default: break;
    }
  }
}

CanvasTarget target_of(const Item* it) {
  if (!it) return {};
  return {it->kind, it->index};
}

void handle_input(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  CanvasState& c = app.canvas;
  const layout::Layout& L = c.layout;
  const bool over_ui = io.WantCaptureMouse;
  const ImVec2 mp = io.MousePos;
  const bool mouse_valid = ImGui::IsMousePosValid(&mp);

  c.hover = (!over_ui && mouse_valid && !c.scrubbing) ? target_of(L.hit(mp.x, mp.y)) : CanvasTarget{};

  if (!over_ui && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    c.pressing = true;
    c.scrubbing = false;
    c.press_x = mp.x;
    c.press_y = mp.y;
    c.press_screen_time = anim::screen_time(app.playback, app.time_map);
    ImGui::SetWindowFocus(nullptr);  // keys go to the canvas again, not to a panel
  }
  if (c.pressing && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    const float dx = mp.x - c.press_x, dy = mp.y - c.press_y;
    // A mostly sideways drag scrubs through the path; the full canvas width is the whole path.
    if (!c.scrubbing && std::fabs(dx) > 10 && std::fabs(dx) > 1.5f * std::fabs(dy)) c.scrubbing = true;
    if (c.scrubbing && app.time_map.screen_total > 0) {
      const double span = std::max(1.0f, L.schematic.w);
      scrub(app, c.press_screen_time + static_cast<double>(dx) / span * app.time_map.screen_total);
    }
  }
  if (c.pressing && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    if (!c.scrubbing) {
      const Item* hit = L.hit(c.press_x, c.press_y);
      c.selected = target_of(hit);
      if (hit) set_panel(app, Panel::Inspector, true);
    }
    c.pressing = false;
    c.scrubbing = false;
  }

  // Keys reach the app only while the canvas element has focus (SDL listens on it alone); a text field
  // being edited keeps them.
  if (io.WantTextInput) return;
  if (ImGui::IsKeyPressed(ImGuiKey_Space, false)) toggle_play(app);
  if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) step_by(app, 1);
  if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) step_by(app, -1);
  if (ImGui::IsKeyPressed(ImGuiKey_Home, false)) seek_clamped(app, 0);
  if (ImGui::IsKeyPressed(ImGuiKey_End, false)) seek_clamped(app, std::max(0, app.state.steps - 1));
  if (ImGui::IsKeyPressed(ImGuiKey_Escape, false)) {
    c.selected = {};
    c.help_open = false;
  }
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
    if (io.InputQueueCharacters[i] == '?') c.help_open = !c.help_open;
}

void tooltip(const App& app) {
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
      ImGui::TextDisabled("%s", mode_summary(app.canvas.scene, it->first_layer, it->last_layer).c_str());
      break;
    case Kind::Packet:
      if (app.state.entry) ImGui::TextDisabled("%s", app.state.entry->sentence.c_str());
      break;
    default: break;
  }
  ImGui::TextDisabled("Click to inspect");
  ImGui::EndTooltip();
}

void help_window(App& app) {
  if (!app.canvas.help_open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(420.0f, io.DisplaySize.x - 24), 0));
  if (ImGui::Begin("Keys and gestures", &app.canvas.help_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                                                       ImGuiWindowFlags_NoResize)) {
    const char* rows[][2] = {{"Space", "play / pause"},       {"← →", "previous / next step"},
                             {"Home / End", "first / last step"}, {"Click or tap", "inspect a block, tier, layer or packet"},
                             {"Drag sideways", "scrub through the path"}, {"Esc", "clear the selection"},
                             {"?", "this help"}};
    if (ImGui::BeginTable("keys", 2)) {
      for (auto& r : rows) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r[0]);
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", r[1]);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void append_rect(std::string& o, const layout::Rect& r) {
  model::appendf(o, "[%.1f,%.1f,%.1f,%.1f]", static_cast<double>(r.x), static_cast<double>(r.y), static_cast<double>(r.w),
                 static_cast<double>(r.h));
}

}  // namespace

const Item* find_item(const App& app, CanvasTarget t) {
  return t.valid() ? app.canvas.layout.find(t.kind, t.index) : nullptr;
}

std::string target_name(const App& app, CanvasTarget t) {
  const Item* it = find_item(app, t);
  switch (t.kind) {
    case Kind::Block: return anim::object_label(static_cast<anim::ObjectKind>(t.index));
    case Kind::Band: return kTierShort[std::clamp(t.index, 0, 3)];
    case Kind::Token: return "Token row";
    case Kind::Stream: return app.canvas.scene.ced ? "Encoder final hidden stream H[t]" : "Final hidden stream";
    case Kind::EncoderLayer: return "Encoder row E" + std::to_string(t.index + 1) + (it ? " · " + layers_text(it->first_layer, it->last_layer) : "");
    case Kind::DecoderLayer:
      return std::string(app.canvas.scene.ced ? "Decoder row D" : "Layer row L") + std::to_string(t.index + 1) +
             (it ? " · " + layers_text(it->first_layer, it->last_layer) : "");
    case Kind::Packet:
      return app.state.entry ? std::string("Moving: ") + anim::object_label(app.state.packet.object) + " · " +
                                   anim::endpoint_label(app.state.packet.from) + " → " + anim::endpoint_label(app.state.packet.to)
                             : "Packet";
    default: return "";
  }
}

bool canvas_frame(App& app, float css_w, float css_h) {
  CanvasState& c = app.canvas;
  if (c.scene_revision != app.revision) {
    c.scene = layout::make_scene(app.scenario, app.figures, app.ledger);
    c.scene_revision = app.revision;
  }
  handle_input(app);
  // Under reduced motion the packet does not glide: it is shown where the step takes it.
  anim::StepState st = app.state;
  if (c.reduced_motion && st.packet.active) st.packet.progress = 1;
  layout::TextMetrics tm;
  tm.line_height = kFontSizePx * 1.2f;
  tm.char_width = ImGui::GetFont()->CalcTextSizeA(kFontSizePx, FLT_MAX, 0, "Global KV active window 0123456789").x / 34.0f;
  layout::Options opt;
  opt.host_playback = c.host_playback;
  opt.host_counters = c.host_counters;
  layout::compute_layout(c.scene, st, {css_w, css_h}, tm, c.layout, opt);
  if (app.playback.playing && !c.reduced_motion) c.clock += static_cast<double>(ImGui::GetIO().DeltaTime);

  const render::Palette pal = render::palette(c.dark);
  draw_labels(app, pal);
  tooltip(app);
  help_window(app);
  return app.playback.playing;
}

void canvas_render(const App& app, render::Renderer& r, int drawable_w, int drawable_h, float pixel_ratio) {
  const CanvasState& c = app.canvas;
  render::FrameInput in;
  in.css_w = c.layout.viewport.width;
  in.css_h = c.layout.viewport.height;
  in.drawable_w = drawable_w;
  in.drawable_h = drawable_h;
  in.pixel_ratio = pixel_ratio;
  in.time = c.clock;
  in.hover = find_item(app, c.hover);
  in.selected = find_item(app, c.selected);
  in.selected_layer = c.selected_layer;
  render::draw(r, c.layout, render::palette(c.dark), in);
}

std::string layout_json(const App& app) {
  const layout::Layout& L = app.canvas.layout;
  const render::Palette pal = render::palette(app.canvas.dark);
  std::string o;
  o.reserve(8192);
  model::appendf(o, "{\"viewport\":[%.1f,%.1f],\"textScale\":%.3f,\"theme\":\"%s\",\"path\":\"%s\",\"step\":%d,\"toolbar\":",
                 static_cast<double>(L.viewport.width), static_cast<double>(L.viewport.height), static_cast<double>(L.text_scale),
                 app.canvas.dark ? "dark" : "light", anim::path_key(app.state.path), app.state.step);
  append_rect(o, L.toolbar);
  o += ",\"dock\":";
  append_rect(o, L.dock);
  o += ",\"schematic\":";
  append_rect(o, L.schematic);
  // Colours of each role as the canvas paints them (sRGB 0-255), plain and highlighted, for pixel checks.
  o += ",\"colours\":{";
  for (int r = 0; r < static_cast<int>(layout::Role::Count); ++r) {
    const auto role = static_cast<layout::Role>(r);
    const render::Rgba a = pal.fill(role, false), b = pal.fill(role, true);
    if (r) o += ',';
    model::appendf(o, "\"%s\":{\"plain\":[%ld,%ld,%ld],\"highlighted\":[%ld,%ld,%ld]}", layout::role_key(role),
                   std::lround(a.r * 255), std::lround(a.g * 255), std::lround(a.b * 255), std::lround(b.r * 255),
                   std::lround(b.g * 255), std::lround(b.b * 255));
  }
  o += "},\"items\":[";
  bool first = true;
  for (const Item& it : L.items) {
    if (!first) o += ',';
    first = false;
    o += "{\"id\":\"" + layout::item_id(it) + "\",\"kind\":\"" + layout::kind_key(it.kind) + "\",\"rect\":";
    append_rect(o, it.rect);
    model::appendf(o, ",\"role\":\"%s\",\"highlighted\":%s", layout::role_key(it.role), it.highlighted ? "true" : "false");
    if (it.kind == Kind::Block) model::appendf(o, ",\"fill\":%.4f", static_cast<double>(it.fill));
    if (it.first_layer >= 0) model::appendf(o, ",\"layers\":[%d,%d]", it.first_layer, it.last_layer);
    if (it.kind == Kind::Band)
      model::appendf(o, ",\"capacity\":%.6g,\"latency\":%.6g,\"stripeSpacing\":%.2f",
                     L.bands[static_cast<std::size_t>(it.index)].capacity, L.bands[static_cast<std::size_t>(it.index)].latency,
                     static_cast<double>(L.bands[static_cast<std::size_t>(it.index)].stripe_spacing));
    o += '}';
  }
  o += "],\"flight\":";
  const layout::Flight& f = L.flight;
  if (f.active)
    model::appendf(o, "{\"from\":\"%s\",\"to\":\"%s\",\"object\":\"%s\",\"start\":[%.1f,%.1f],\"end\":[%.1f,%.1f]}",
                   anim::endpoint_key(f.from), anim::endpoint_key(f.to),
                   f.object == anim::ObjectKind::Count ? "" : anim::object_key(f.object), static_cast<double>(f.x0),
                   static_cast<double>(f.y0), static_cast<double>(f.x1), static_cast<double>(f.y1));
  else
    o += "null";
  const CanvasTarget sel = app.canvas.selected;
  const Item* si = find_item(app, sel);
  o += ",\"selected\":";
  o += si ? "\"" + layout::item_id(*si) + "\"" : "null";
  o += '}';
  return o;
}

}  // namespace tierscope::ui
