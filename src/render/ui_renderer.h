// Draws Dear ImGui's output with WebGL2 without reading any GL state back: the app owns all GL state, so
// nothing needs saving or restoring, and no frame waits on a synchronous getParameter round trip (which,
// with WebGL, can stall the page until the GPU process has finished its queue).
#pragma once

#include <string>

#include "render/renderer.h"

struct ImDrawData;

namespace tierscope::render {

struct UiRenderer {
  Program starting;  // the program between start_ui() and init_ui()
  unsigned program = 0;
  int u_proj = -1, u_tex = -1;
  unsigned vao = 0, vbo = 0, ebo = 0;
  unsigned font_texture = 0;
  bool ready = false;
};

// Compiles the embedded ui shaders and makes the buffers. On failure `error` names the shader and log.
// start_ui() asks for the program early; init_ui() then waits for it (or starts it itself).
void start_ui(UiRenderer& r);
bool init_ui(UiRenderer& r, std::string& error);
// (Re)uploads ImGui's font atlas (building it if needed) and hands its texture to ImGui.
void upload_font(UiRenderer& r);
// Draws one frame's ImGui draw data into a framebuffer of the given device-pixel size.
void draw_ui(UiRenderer& r, const ImDrawData* data, int fb_w, int fb_h);
// Deletes the GL objects (harmless after a lost context) and forgets them.
void shutdown_ui(UiRenderer& r);

}  // namespace tierscope::render
