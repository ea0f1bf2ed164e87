// The headless host of the UI test: Dear ImGui's context set up as src/platform sets it up on the page, frames
// made as the page's frame function makes them (app::tick, ImGui::NewFrame, ui::draw, ImGui::Render) with no
// back end and no GPU, input given as SDL's back end gives it, and the two things ImGui lets a test define:
// the IM_ASSERT handler and the item hooks.
#include "ui_driver.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "ui/panels.h"
#include "ui/theme.h"

// The canvas's fonts, the same files the app embeds (tools/make-fonts makes them).
extern const unsigned char tierscope_font_ui[];
extern const unsigned int tierscope_font_ui_size;
extern const unsigned char tierscope_font_symbols[];
extern const unsigned int tierscope_font_symbols_size;

// A failed IM_ASSERT anywhere in ImGui or the ui room: the test fails naming it. While an earlier failure is
// already unwinding (the context is then torn down half-way through a frame) it is only printed.
void tierscope_imgui_assert_failed(const char* expr, const char* file, int line) {
  const std::string where = std::string(file).substr(std::string(file).find_last_of('/') + 1);
  const std::string what = "IM_ASSERT(" + std::string(expr) + ") failed at " + where + ":" + std::to_string(line);
  if (std::uncaught_exceptions() > 0) {
    std::fprintf(stderr, "%s (while unwinding)\n", what.c_str());
    return;
  }
  throw tierscope::ui_test::ImGuiAssertFailed(what);
}

// ImGui's test-engine hooks (IMGUI_ENABLE_TEST_ENGINE): each item's rectangle, then its label. A window's
// Begin registers the window itself first, which is where its text log starts: ImGui logs the text a window
// renders until its End, and then hands the log over as clipboard text (Driver::frame collects it).
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, ImGuiID id, const ImRect& bb, const ImGuiLastItemData*) {
  auto* d = static_cast<tierscope::ui_test::Driver*>(ctx->TestEngine);
  const ImGuiWindow* w = ctx->CurrentWindow;
  if (!d || !w) return;
  if (!ctx->LogEnabled) ImGui::LogToClipboard(0);  // depth 0: opens no tree node the reader has not opened
  d->item_added(id, bb, w->ClipRect, w->Name);
}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags) {
  auto* d = static_cast<tierscope::ui_test::Driver*>(ctx->TestEngine);
  if (d && label) d->item_labelled(id, label);
}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }

namespace tierscope::ui_test {

const ui::Control* control(const ui::Screen& app, std::string_view id) {
  for (const ui::Control& c : app.canvas.controls)
    if (c.id == id) return &c;
  return nullptr;
}

Driver::Driver(float width, float height, bool touch) : width_(width), height_(height), touch_(touch) {
  IMGUI_CHECKVERSION();
  ctx_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx_);
  ctx_->TestEngine = this;
  ctx_->TestEngineHookItems = true;
  // As platform::init_ui: no saved layout, keyboard navigation in the panels, a steady text cursor.
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.ConfigInputTextCursorBlink = false;
  ui::apply_theme(ui::Theme::Dark);
  // As platform::ensure_fonts at ratio 1: Inter with DejaVu's formula symbols merged in. The files are subsets
  // holding just the characters the app draws, so the whole plane is asked for and the atlas gets those.
  static const ImWchar everything[] = {0x0020, 0xFFFF, 0};
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;
  cfg.OversampleH = 1;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  cfg.GlyphRanges = everything;
  io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(tierscope_font_ui), static_cast<int>(tierscope_font_ui_size),
                                 ui::kFontSizePx, &cfg);
  ImFontConfig sym = cfg;
  sym.MergeMode = true;
  io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(tierscope_font_symbols),
                                 static_cast<int>(tierscope_font_symbols_size), ui::kFontSizePx, &sym);
  // Each window's text log arrives as clipboard text when the window ends.
  io.ClipboardUserData = this;
  io.SetClipboardTextFn = [](void* user, const char* text) { static_cast<Driver*>(user)->frame_.text += text; };
  // Built, never uploaded: no renderer reads it.
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
}

Driver::~Driver() {
  ImGui::SetCurrentContext(ctx_);
  ImGui::DestroyContext(ctx_);
}

const Frame& Driver::frame(ui::Screen& app) {
  ImGui::SetCurrentContext(ctx_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(width_, height_);
  io.DeltaTime = 1.0f / 60.0f;
  frame_ = Frame{};
  app::tick(app, io.DeltaTime);
  ImGui::NewFrame();
  ui::draw(app, width_, height_);
  ImGui::Render();
  const ImDrawData* d = ImGui::GetDrawData();
  frame_.vertices = d && d->Valid ? d->TotalVtxCount : 0;
  return frame_;
}

const Frame& Driver::settle(ui::Screen& app) {
  for (int guard = 0; guard < 64 && ctx_->InputEventsQueue.Size > 0; ++guard) frame(app);
  frame(app);  // what the last event changed (a panel opened) is laid out on the frame after it
  return frame(app);
}

int Driver::window_vertices(const char* name) const {
  for (const ImGuiWindow* w : ctx_->Windows)
    if (w->Active && std::string_view(w->Name) == name) return w->DrawList->VtxBuffer.Size;
  return 0;
}

void Driver::click(ui::Screen& app, ImVec2 at) {
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiMouseSource source = touch_ ? ImGuiMouseSource_TouchScreen : ImGuiMouseSource_Mouse;
  io.AddMouseSourceEvent(source);
  io.AddMousePosEvent(at.x, at.y);
  // A mouse comes to rest over the widget before it presses (a widget that lets others overlap it takes a
  // press only once it was hovered the frame before); a finger's tap arrives with its position.
  if (!touch_) settle(app);
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
  settle(app);
  io.AddMouseSourceEvent(source);
  io.AddMousePosEvent(at.x, at.y);
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
  if (touch_) {
    // A lifted finger points at nothing (platform::pump_events).
    io.AddMouseSourceEvent(source);
    io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  }
  settle(app);
}

const DrawnItem* Driver::find(std::string_view label, int nth) const {
  for (const DrawnItem& i : frame_.items)
    if (i.label == label && nth-- == 0) return &i;
  return nullptr;
}

const DrawnItem* Driver::find_id(ImGuiID id) const {
  for (const DrawnItem& i : frame_.items)
    if (i.id == id) return &i;
  return nullptr;
}

const DrawnItem* Driver::control_item(const ui::Screen& app, std::string_view id) const {
  const ui::Control* c = control(app, id);
  if (!c) return nullptr;
  for (const DrawnItem& i : frame_.items)
    if (std::fabs(i.rect.Min.x - c->rect.x) < 0.5f && std::fabs(i.rect.Min.y - c->rect.y) < 0.5f &&
        std::fabs(i.rect.GetWidth() - c->rect.w) < 0.5f && std::fabs(i.rect.GetHeight() - c->rect.h) < 0.5f)
      return &i;
  return nullptr;
}

bool Driver::click_id(ui::Screen& app, ImGuiID id) {
  for (int turn = 0; turn < 200; ++turn) {
    const DrawnItem* it = find_id(id);
    if (!it) return false;
    // Shown but for the padding its row's clip rectangle may trim off.
    if (it->shown() && it->visible.GetHeight() >= it->rect.GetHeight() - 2) {
      click(app, it->visible.GetCenter());
      return true;
    }
    const ImGuiWindow* w = ImGui::FindWindowByName(it->window.c_str());
    if (!w) return false;
    ImGuiIO& io = ImGui::GetIO();
    io.AddMouseSourceEvent(ImGuiMouseSource_Mouse);
    io.AddMousePosEvent(w->InnerRect.GetCenter().x, w->InnerRect.GetCenter().y);
    io.AddMouseWheelEvent(0, it->rect.Min.y < w->InnerRect.Min.y ? 1.0f : -1.0f);
    settle(app);
  }
  return false;
}

bool Driver::click_item(ui::Screen& app, std::string_view label, int nth) {
  const DrawnItem* it = find(label, nth);
  return it && click_id(app, it->id);
}

bool Driver::click_control(ui::Screen& app, std::string_view id) {
  const DrawnItem* it = control_item(app, id);
  return it && click_id(app, it->id);
}

void Driver::type(ui::Screen& app, std::string_view text) {
  ImGui::GetIO().AddInputCharactersUTF8(std::string(text).c_str());
  settle(app);
}

void Driver::press(ui::Screen& app, ImGuiKey key) {
  ImGuiIO& io = ImGui::GetIO();
  io.AddKeyEvent(key, true);
  settle(app);
  io.AddKeyEvent(key, false);
  settle(app);
}

void Driver::item_added(ImGuiID id, const ImRect& bb, const ImRect& clip, const char* window) {
  DrawnItem it;
  it.id = id;
  it.rect = bb;
  it.visible = bb;
  it.visible.ClipWithFull(clip);
  it.window = window;
  frame_.items.push_back(std::move(it));
}

void Driver::item_labelled(ImGuiID id, const char* label) {
  // The label belongs to the latest item of that id (the widget just added).
  for (auto i = frame_.items.rbegin(); i != frame_.items.rend(); ++i)
    if (i->id == id) {
      i->label = label;
      return;
    }
}

}  // namespace tierscope::ui_test
