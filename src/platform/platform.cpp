// SDL2 + WebGL2 + Dear ImGui set-up for the browser, with HiDPI-sharp fonts and keyboard focus kept
// on the canvas (a page that embeds tierscope keeps its own keys).
#include "platform/platform.h"

#include "base/hash.h"
#include "platform/web_bridge.h"
#include "render/ui_renderer.h"
#include "ui/theme.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl2.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <cmath>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#endif

extern const unsigned char tierscope_font_ui[];
extern const unsigned int tierscope_font_ui_size;
extern const unsigned char tierscope_font_symbols[];
extern const unsigned int tierscope_font_symbols_size;

namespace tierscope::platform {

void FrameStats::add(float ms) {
  cpu_ms[next] = ms;
  next = (next + 1) % kRing;
  if (count < kRing) ++count;
  ++frames_drawn;
}

float FrameStats::percentile(float p) const {
  if (count == 0) return 0.0f;
  float sorted[kRing];
  std::copy(cpu_ms, cpu_ms + count, sorted);
  const int idx = std::clamp(static_cast<int>(std::ceil(p * static_cast<float>(count))) - 1, 0, count - 1);
  std::nth_element(sorted, sorted + idx, sorted + count);
  return sorted[idx];
}

double now_ms() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  return static_cast<double>(SDL_GetTicks64());
#endif
}

#ifdef __EMSCRIPTEN__
namespace {
// The browser may take the GPU away (driver reset, too many contexts, the tab in the background) and give
// it back later. Returning true asks it to restore the context; every GL object must then be made anew.
EM_BOOL on_context_lost(int, const void*, void* user) {
  auto* p = static_cast<Platform*>(user);
  p->gl_lost = true;
  bridge::notice("webgl-context-lost", "The graphics context was lost; the view will come back when the browser restores it.");
  return EM_TRUE;
}
EM_BOOL on_context_restored(int, const void*, void* user) {
  auto* p = static_cast<Platform*>(user);
  p->gl_lost = false;
  p->gl_restored = true;
  p->pacer.request();
  bridge::notice("webgl-context-restored", "The graphics context is back.");
  return EM_TRUE;
}
// ImGui says when a text field starts or stops taking text (and where its caret is): the page may then
// need a DOM text input of its own for a phone's keyboard.
void on_ime(ImGuiViewport*, ImGuiPlatformImeData* data) {
  bridge::text_field(data->WantVisible, data->InputPos.x, data->InputPos.y, data->InputLineHeight);
}

// The wheel belongs to the page unless it lands on a panel that can still scroll that way: then the panel
// takes it (and the page does not move). SDL's own handler claimed every wheel event, so the page never
// scrolled while the pointer was over the canvas.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void* user) {
  auto* p = static_cast<Platform*>(user);
  // ImGui's SDL back end turns SDL's wheel into steps of 100 px (a line is a third of a step, a page 80).
  const double unit = e->deltaMode == DOM_DELTA_PIXEL ? 100.0 : e->deltaMode == DOM_DELTA_LINE ? 3.0 : 1.0 / 80.0;
  const float x = static_cast<float>(e->mouse.targetX), y = static_cast<float>(e->mouse.targetY);
  const float dx = static_cast<float>(e->deltaX / unit), dy = static_cast<float>(e->deltaY / unit);
  if (!claims_wheel(x, y, dx, dy)) return EM_FALSE;
  ImGuiIO& io = ImGui::GetIO();
  io.AddMouseSourceEvent(ImGuiMouseSource_Mouse);
  io.AddMousePosEvent(x, y);
  io.AddMouseWheelEvent(-dx, -dy);
  p->pacer.request();
  return EM_TRUE;
}
}  // namespace
#endif

namespace {

// The front-most window under a canvas point in the last drawn frame (a panel, the toolbar, an open list; the
// schematic itself is no window), or nullptr.
ImGuiWindow* window_under(float x, float y) {
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g) return nullptr;
  for (int i = g->Windows.Size - 1; i >= 0; --i) {
    ImGuiWindow* w = g->Windows[i];
    if (!w->WasActive || w->Hidden || (w->Flags & (ImGuiWindowFlags_NoMouseInputs | ImGuiWindowFlags_Tooltip))) continue;
    if (w->OuterRectClipped.Contains(ImVec2(x, y))) return w;
  }
  return nullptr;
}

// Where a window's scroll is heading: a scroll asked for since the last frame, else where it is.
float scroll_y_now(const ImGuiWindow* w) { return w->ScrollTarget.y < FLT_MAX ? w->ScrollTarget.y : w->Scroll.y; }

}  // namespace

bool claims_wheel(float x, float y, float dx, float dy) {
  // ImGui scrolls the first window up the chain of child windows that can scroll with the wheel; it keeps
  // the wheel only while that window has room to move in the wheel's direction (at its end the page scrolls).
  for (const ImGuiWindow* w = window_under(x, y); w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    if (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) continue;
    const bool room_y = (dy > 0 && w->Scroll.y < w->ScrollMax.y - 0.5f) || (dy < 0 && w->Scroll.y > 0.5f);
    const bool room_x = (dx > 0 && w->Scroll.x < w->ScrollMax.x - 0.5f) || (dx < 0 && w->Scroll.x > 0.5f);
    if (room_y || room_x) return true;
    if (w->ScrollMax.y > 0 || w->ScrollMax.x > 0) return false;  // this window scrolls, but not that way
  }
  return false;
}

bool window_at(float x, float y) { return window_under(x, y) != nullptr; }

bool scroll_panel(float x, float y, float dy) {
  // As the wheel: the first window up the chain that can still move that way takes the whole move, clamped at
  // its end, and it follows the finger pixel for pixel.
  for (ImGuiWindow* w = window_under(x, y); w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    if (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) continue;
    const float from = scroll_y_now(w), to = std::clamp(from + dy, 0.0f, w->ScrollMax.y);
    if (std::fabs(to - from) >= 0.5f) {
      ImGui::SetScrollY(w, to);
      return true;
    }
    if (w->ScrollMax.y > 0) return false;  // this window scrolls, but is at its end that way
  }
  return false;
}

void tap(float x, float y) {
  // As pump_events gives a finger's tap: the position, the press and the lift, then no pointer (no hover).
  ImGuiIO& io = ImGui::GetIO();
  io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
  io.AddMousePosEvent(x, y);
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
  io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

bool init_sdl() {
  // SDL listens for keys on the whole window by default; scope it to the canvas so embedding pages keep
  // their keyboard (the canvas has tabindex="0" and takes focus when clicked).
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    bridge::report_fatal("sdl-init", SDL_GetError());
    return false;
  }
  return true;
}

bool open_window(Platform& p, const char* title) {
  // WebGL2 is OpenGL ES 3.0; a desktop-profile request creates no context at all in the browser.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);

  // RESIZABLE + a CSS-sized canvas: SDL follows the canvas's CSS size. ALLOW_HIGHDPI: backing store in
  // device pixels.
  p.window = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 1280, 800,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!p.window) {
    bridge::report_fatal("window", SDL_GetError());
    return false;
  }
  p.gl = SDL_GL_CreateContext(p.window);
  if (!p.gl) {
    bridge::report_fatal("webgl2", SDL_GetError());
    return false;
  }
  SDL_GL_MakeCurrent(p.window, p.gl);
  SDL_GL_SetSwapInterval(1);
  return true;
}

bool init_ui(Platform& p, bool dark) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout comes from the app, not from a saved file
  io.LogFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  // A blinking text cursor would need frames while nothing else happens; a steady one keeps idle idle.
  io.ConfigInputTextCursorBlink = false;
  set_theme(p, dark);
  ImGui_ImplSDL2_InitForOpenGL(p.window, p.gl);
#ifdef __EMSCRIPTEN__
  io.SetPlatformImeDataFn = on_ime;
#endif
  render::start_ui(p.ui);  // compiled by the GPU process while the app goes on (finish_init waits)

#ifdef __EMSCRIPTEN__
  // Scrolling stays the page's: the wheel goes to a panel only when it can scroll (on_wheel, in place of
  // SDL's handler), and a touch start is not cancelled (SDL cancels it when finger events are on), so with
  // the canvas's `touch-action: pan-y` a vertical swipe scrolls the page while a sideways drag still reaches
  // the app as a pointer drag (SDL's touch-as-mouse events do not depend on the finger events).
  emscripten_set_wheel_callback("#canvas", nullptr, EM_FALSE, nullptr);
  emscripten_set_wheel_callback("#canvas", &p, EM_FALSE, on_wheel);
  SDL_EventState(SDL_FINGERDOWN, SDL_IGNORE);
  SDL_EventState(SDL_FINGERUP, SDL_IGNORE);
  SDL_EventState(SDL_FINGERMOTION, SDL_IGNORE);
  emscripten_set_webglcontextlost_callback("#canvas", &p, EM_FALSE, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", &p, EM_FALSE, on_context_restored);
#endif
  sync_canvas_size(p);
  return true;
}

bool finish_init(Platform& p) {
  std::string ui_error;
  if (!render::init_ui(p.ui, ui_error)) {
    bridge::report_fatal("shader", ui_error.c_str());
    return false;
  }
  p.last_time_ms = now_ms();
  p.pacer.request();
  return true;
}

void set_theme(Platform& p, bool dark) {
  ui::apply_theme(dark ? ui::Theme::Dark : ui::Theme::Light);
  const float dark_rgb[3] = {0.047f, 0.055f, 0.071f}, light_rgb[3] = {0.961f, 0.965f, 0.973f};
  for (int i = 0; i < 3; ++i) p.clear_rgb[i] = dark ? dark_rgb[i] : light_rgb[i];
  p.pacer.request();
}

void shutdown(Platform& p) {
  render::shutdown_ui(p.ui);
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  if (p.gl) SDL_GL_DeleteContext(p.gl);
  if (p.window) SDL_DestroyWindow(p.window);
  SDL_Quit();
}

void sync_canvas_size(Platform& p) {
  int w = 0, h = 0;
#ifdef __EMSCRIPTEN__
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  w = std::max(1, static_cast<int>(css_w));
  h = std::max(1, static_cast<int>(css_h));
  int cur_w = 0, cur_h = 0;
  SDL_GetWindowSize(p.window, &cur_w, &cur_h);
  // SDL sets the backing store to CSS size × its pixel ratio when the size changes.
  if (cur_w != w || cur_h != h) SDL_SetWindowSize(p.window, w, h);
  p.pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
#else
  SDL_GetWindowSize(p.window, &w, &h);
#endif
  p.width = w;
  p.height = h;
  SDL_GL_GetDrawableSize(p.window, &p.drawable_w, &p.drawable_h);
  if (p.width > 0 && p.drawable_w > 0) p.pixel_ratio = static_cast<float>(p.drawable_w) / static_cast<float>(p.width);
  p.pacer.request();
}

void ensure_fonts(Platform& p) {
  const float ratio = std::clamp(p.pixel_ratio, 1.0f, 4.0f);
  if (std::fabs(ratio - p.font_ratio) < 0.01f) return;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes live in the binary's data segment
  cfg.OversampleH = 1;               // baked at device resolution, so no oversampling is needed
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  // Must match the canvas subset made by tools/make-fonts.
  static const ImWchar ranges[] = {0x0020, 0x007E, 0x00A7, 0x00A7, 0x00B1, 0x00B7, 0x00BD, 0x00BD, 0x00D7, 0x00D7,
                                   0x03A3, 0x03A3, 0x2013, 0x2014, 0x2026, 0x2026, 0x2190, 0x2194, 0x2211, 0x2212,
                                   0x221A, 0x221A, 0x221E, 0x221E, 0x2248, 0x2248, 0x2264, 0x2265,
                                   0x25B6, 0x25B6, 0x25BC, 0x25BC, 0x25CF, 0x25CF, 0x2713, 0x2713, 0x2717, 0x2717, 0};
  cfg.GlyphRanges = ranges;
  io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(tierscope_font_ui),
                                 static_cast<int>(tierscope_font_ui_size), ui::kFontSizePx * ratio, &cfg);
  // Formula symbols Inter lacks, merged into the same font (must match tools/make-fonts).
  static const ImWchar symbol_ranges[] = {0x21C4, 0x21C4, 0x2308, 0x2309, 0};
  ImFontConfig sym = cfg;
  sym.MergeMode = true;
  sym.GlyphRanges = symbol_ranges;
  io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(tierscope_font_symbols),
                                 static_cast<int>(tierscope_font_symbols_size), ui::kFontSizePx * ratio, &sym);
  io.FontGlobalScale = 1.0f / ratio;
  render::upload_font(p.ui);
  p.font_ratio = ratio;
}

void rebuild_gl_objects(Platform& p) {
  // The old handles died with the context; deleting them is harmless.
  render::shutdown_ui(p.ui);
  std::string error;
  if (!render::init_ui(p.ui, error)) bridge::report_fatal("shader", error.c_str());
  p.font_ratio = 0.0f;  // forces ensure_fonts() to upload the atlas again
  ensure_fonts(p);
  p.gl_restored = false;
}

bool pump_events(Platform& p, bool& quit) {
  ImGuiIO& io = ImGui::GetIO();
  bool changed = false;
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    const bool button = e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP;
    const bool touch = button && e.button.which == SDL_TOUCH_MOUSEID;
    if (button) {
      // The position first: a press must land where it happens, even when no motion event came before
      // it (a second tap on the same spot, a pen, a click right after the page loads).
      io.AddMouseSourceEvent(touch ? ImGuiMouseSource_TouchScreen : ImGuiMouseSource_Mouse);
      // A finger the page scrolled with lifts off nowhere, so no panel button under it counts a click.
      const bool nowhere = touch && e.type == SDL_MOUSEBUTTONUP && p.touch_cancelled;
      io.AddMousePosEvent(nowhere ? -FLT_MAX : static_cast<float>(e.button.x), nowhere ? -FLT_MAX : static_cast<float>(e.button.y));
    }
    ImGui_ImplSDL2_ProcessEvent(&e);
    if (touch && e.type == SDL_MOUSEBUTTONUP) {
      // A lifted finger points at nothing: without this the last tap would keep its hover and tooltip.
      io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
      io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
    }
    changed = true;
    if (e.type == SDL_QUIT) quit = true;
    if (e.type == SDL_WINDOWEVENT &&
        (e.window.event == SDL_WINDOWEVENT_RESIZED || e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)) {
      sync_canvas_size(p);
    }
  }
  return changed;
}

bool input_queued() { return ImGui::GetCurrentContext() && ImGui::GetCurrentContext()->InputEventsQueue.Size > 0; }

std::uint64_t draw_hash(std::uint64_t seed) {
  const ImDrawData* d = ImGui::GetDrawData();
  std::uint64_t h = seed;
  if (!d) return h;
  for (int i = 0; i < d->CmdListsCount; ++i) {
    const ImDrawList* l = d->CmdLists[i];
    h = model::hash_bytes(l->VtxBuffer.Data, static_cast<std::size_t>(l->VtxBuffer.Size) * sizeof(ImDrawVert), h);
    h = model::hash_bytes(l->IdxBuffer.Data, static_cast<std::size_t>(l->IdxBuffer.Size) * sizeof(ImDrawIdx), h);
    for (const ImDrawCmd& c : l->CmdBuffer) {
      const float clip[4] = {c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w};
      const unsigned counts[3] = {c.ElemCount, c.IdxOffset, c.VtxOffset};
      h = model::hash_bytes(clip, sizeof clip, h);
      h = model::hash_bytes(counts, sizeof counts, h);
    }
  }
  return h;
}

float clamped_dt(Platform& p) {
  const double t = now_ms();
  const double dt = (t - p.last_time_ms) / 1000.0;
  p.last_time_ms = t;
  return static_cast<float>(std::clamp(dt, 0.0, 0.1));
}

}  // namespace tierscope::platform
