// C++ half of the bridge: the exported functions the page calls, and the calls out to web_bridge.js.
// Calls from the page before attach() are ignored; natively every call-out is a quiet fallback.
#include "platform/web_bridge.h"

#include "platform/platform.h"
#include "ui/app.h"

#include <cstdio>
#include <string>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
extern "C" {
void ts_js_report_fatal(const char* code, const char* detail);
void ts_js_notify_ready();
void ts_js_watch_canvas();
int ts_js_prefers_dark();
}
#define TS_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define TS_EXPORT extern "C"
#endif

namespace tierscope::bridge {
namespace {
ui::App* g_app = nullptr;              // the page's calls have no context argument, so the bridge keeps
platform::Platform* g_platform = nullptr;  // the two objects they act on (set once, at start-up)
std::string g_out;                     // last string handed to JS; valid until the next call
}  // namespace

void attach(ui::App* app, platform::Platform* platform) {
  g_app = app;
  g_platform = platform;
}

void report_fatal(const char* code, const char* detail) {
#ifdef __EMSCRIPTEN__
  ts_js_report_fatal(code, detail ? detail : "");
#else
  std::fprintf(stderr, "tierscope: %s: %s\n", code, detail ? detail : "");
#endif
}

void notify_ready() {
#ifdef __EMSCRIPTEN__
  ts_js_notify_ready();
#endif
}

bool prefers_dark() {
#ifdef __EMSCRIPTEN__
  return ts_js_prefers_dark() != 0;
#else
  return true;
#endif
}

void watch_canvas() {
#ifdef __EMSCRIPTEN__
  ts_js_watch_canvas();
#endif
}

}  // namespace tierscope::bridge

using namespace tierscope;

// The canvas changed size or the device pixel ratio changed.
TS_EXPORT void ts_bridge_canvas_resized() {
  if (!bridge::g_platform) return;
  platform::sync_canvas_size(*bridge::g_platform);
}

// Asks for a redraw (e.g. after the page changed something the canvas shows).
TS_EXPORT void ts_bridge_request_redraw() {
  if (bridge::g_platform) bridge::g_platform->redraw_frames = 2;
}

// Frame statistics as JSON: CPU time per drawn frame (p50, p95), frames drawn, loop ticks, WASM heap.
TS_EXPORT const char* ts_bridge_stats_json() {
  bridge::g_out.clear();
  if (!bridge::g_platform) return "{}";
  const auto& st = bridge::g_platform->stats;
  double heap = 0;
#ifdef __EMSCRIPTEN__
  heap = static_cast<double>(emscripten_get_heap_size());
#endif
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "{\"cpuMsP50\":%.4f,\"cpuMsP95\":%.4f,\"framesDrawn\":%llu,\"ticks\":%llu,\"wasmHeapBytes\":%.0f,"
                "\"canvasCss\":[%d,%d],\"canvasPx\":[%d,%d],\"pixelRatio\":%.3f}",
                st.percentile(0.5f), st.percentile(0.95f), static_cast<unsigned long long>(st.frames_drawn),
                static_cast<unsigned long long>(st.ticks), heap, bridge::g_platform->width, bridge::g_platform->height,
                bridge::g_platform->drawable_w, bridge::g_platform->drawable_h, bridge::g_platform->pixel_ratio);
  bridge::g_out = buf;
  return bridge::g_out.c_str();
}
