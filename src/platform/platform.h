// The platform layer: one SDL2 window with a WebGL2 (OpenGL ES 3.0) context, Dear ImGui wired to it,
// and the per-frame bookkeeping (clamped dt, redraw-only-when-needed, frame statistics).
#pragma once

#include <cstdint>

#include "app/frame_pacer.h"
#include "render/ui_renderer.h"

struct SDL_Window;
typedef void* SDL_GLContext;

namespace tierscope::platform {

// CPU cost of drawn frames, kept as a small ring so percentiles are cheap to report.
struct FrameStats {
  static constexpr int kRing = 240;
  float cpu_ms[kRing] = {};
  int count = 0;           // samples written into the ring (saturates at kRing for percentile purposes)
  int next = 0;            // next slot to write
  uint64_t frames_drawn = 0;
  uint64_t ticks = 0;      // main-loop callbacks, drawn or not

  void add(float ms);
  float percentile(float p) const;  // p in [0, 1]; 0 when no samples
};

struct Platform {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  int width = 0, height = 0;              // CSS pixels
  int drawable_w = 0, drawable_h = 0;     // device pixels
  float pixel_ratio = 1.0f;
  float clear_rgb[3] = {0.047f, 0.055f, 0.071f};  // canvas background behind the panels
  float font_ratio = 0.0f;                // pixel ratio the current font atlas was baked for
  double last_time_ms = 0.0;
  app::FramePacer pacer;                       // when to draw: after input, until Dear ImGui has settled
  bool gl_lost = false;                   // the WebGL context is gone: draw nothing until it is back
  bool gl_restored = false;               // it came back: GL objects must be made again before drawing
  bool touch_cancelled = false;           // the browser took the current touch to scroll: its lift clicks nothing
  FrameStats stats;
  render::UiRenderer ui;                  // draws ImGui's output
};

// The start-up's parts, each run as a task of its own (main.cpp's kStartSteps): SDL2 itself (init_sdl), the
// SDL2 window on the page's canvas with its GL context (open_window), then Dear ImGui on it (theme, input, the
// UI's shaders sent; finish_init waits for them); ensure_fonts (below) builds the font atlas. Each returns
// false (after reporting to the page) on failure.
bool init_sdl();
bool open_window(Platform& p, const char* title);
bool init_ui(Platform& p, bool dark);
bool finish_init(Platform& p);
void shutdown(Platform& p);

// Pumps SDL events into ImGui, each pointer button preceded by its position (and, for touch, followed by
// "no pointer", so a finger leaves no hover behind). Returns true when something arrived.
bool pump_events(Platform& p, bool& quit);

// Whether a wheel turn of (dx, dy) steps at canvas point (x, y) is the canvas's: only over a panel that can
// still scroll that way (from the last drawn frame). Otherwise the page scrolls.
bool claims_wheel(float x, float y, float dx, float dy);

// A touch that starts on the panels is theirs, not SDL's (web_bridge.js): whether a window (a panel, the
// toolbar, an open list) lies under canvas point (x, y) in the last drawn frame; a finger's vertical move of
// `dy` CSS px scrolls the panel under it (positive: the finger went up, the text moves up) while it can still
// scroll that way, and says whether it did (otherwise the page scrolls); a tap reaches the control under it,
// pressed and lifted at once, so a swipe that starts on a field never opens it.
bool window_at(float x, float y);
bool scroll_panel(float x, float y, float dy);
void tap(float x, float y);

// True while Dear ImGui still holds input it has not processed (it takes one change per key or button a
// frame): the loop keeps drawing until the queue is empty.
bool input_queued();

// A hash of what ImGui drew this frame (vertices, indices, commands): equal hashes, nothing changed.
std::uint64_t draw_hash(std::uint64_t seed);

// Re-reads the canvas's CSS size and the device pixel ratio (called when the page resizes the canvas).
void sync_canvas_size(Platform& p);

// Restyles ImGui and the clear colour for the page's colour scheme.
void set_theme(Platform& p, bool dark);

// Rebuilds the font atlas when the pixel ratio changed, so text stays sharp on HiDPI screens.
void ensure_fonts(Platform& p);

// Remakes ImGui's GL objects (shaders, buffers, font texture) after a WebGL context restore.
void rebuild_gl_objects(Platform& p);

// Seconds since the previous call, clamped so a backgrounded tab does not jump the animation.
float clamped_dt(Platform& p);

// Milliseconds on a monotonic clock.
double now_ms();

}  // namespace tierscope::platform
