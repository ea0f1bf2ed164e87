// The WebGL2 renderer of the schematic: owns the shader programs and instance buffers, and draws what the
// layout returns with one instanced draw call per primitive kind (boxes, stripes, arrows, packets).
#pragma once

#include <string>
#include <vector>

#include "layout/layout.h"
#include "render/palette.h"

namespace tierscope::render {

struct Program {
  unsigned id = 0;
  int u_view = -1, u_px = -1;
  unsigned vs = 0, fs = 0;  // its shaders, between start_program() and finish_program()
};

// What the frame adds to the layout: emphasis from the pointer and the clock for the marching dashes.
struct FrameInput {
  float css_w = 0, css_h = 0;   // canvas in CSS px
  int drawable_w = 0, drawable_h = 0;
  float pixel_ratio = 1;
  double time = 0;              // seconds, for the dash phase (frozen under reduced motion)
  const layout::Item* hover = nullptr;
  const layout::Item* selected = nullptr;
  int selected_layer = -1;      // a real layer picked in the modes panel: its row gets an outline
};

struct Renderer {
  Program box, stripes, arrow;
  unsigned quad = 0;                 // shared unit-quad corners
  unsigned vao[4] = {};              // boxes, stripes, arrows, packets
  unsigned vbo[4] = {};
  std::vector<float> scratch[4];
  int draw_calls = 0;                // of the last frame, for the stats and the tests
  bool ready = false;
};

// Compiles and links one program from embedded shader text; on failure `error` names the shader and holds
// the info log. Sets u_view and u_px when the program has them. link_program() does it at once;
// start_program() only asks (the GPU process compiles while the app goes on) and finish_program() waits for
// the result and checks it.
bool link_program(Program& p, const unsigned char* vs, const unsigned char* fs, const char* vname, const char* fname,
                  std::string& error);
void start_program(Program& p, const unsigned char* vs, const unsigned char* fs);
bool finish_program(Program& p, const char* vname, const char* fname, std::string& error);
// Whether the GPU has finished linking a started program, asked without waiting for it
// (KHR_parallel_shader_compile's completion status, `can_poll`); true when it cannot be asked so, or when
// the program is not waiting to be finished. Asking for the link status itself waits for the link.
bool link_done(const Program& p, bool can_poll);

// Compiles and links the embedded shaders. On failure `error` names the shader and holds the info log.
// start() asks for the programs early; init() then waits for them (or starts them itself) and makes the
// buffers.
void start(Renderer& r);
bool init(Renderer& r, std::string& error);
// Whether all three started programs are linked (link_done of each).
bool links_done(const Renderer& r, bool can_poll);
void shutdown(Renderer& r);

// Draws the schematic (everything except text, which the caller draws over it through ImGui).
void draw(Renderer& r, const layout::Layout& L, const Palette& pal, const FrameInput& in);

}  // namespace tierscope::render
