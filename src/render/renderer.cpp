// WebGL2 drawing of the schematic: instance buffers filled from the layout each drawn frame, then four
// instanced draw calls (tier bands with stripes, boxes, the arrow, the packet). Shaders are embedded files.
#include "render/renderer.h"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>

extern const unsigned char tierscope_shader_box_vert[];
extern const unsigned char tierscope_shader_box_frag[];
extern const unsigned char tierscope_shader_stripes_vert[];
extern const unsigned char tierscope_shader_stripes_frag[];
extern const unsigned char tierscope_shader_arrow_vert[];
extern const unsigned char tierscope_shader_arrow_frag[];

namespace tierscope::render {

namespace {

enum Batch { kBoxes = 0, kStripes = 1, kArrows = 2, kPackets = 3 };
constexpr int kFloats[4] = {16, 16, 12, 16};  // per instance

const char* text_of(const unsigned char* bytes) { return reinterpret_cast<const char*>(bytes); }

GLuint compile(GLenum type, const char* src) {
  const GLuint sh = glCreateShader(type);
  glShaderSource(sh, 1, &src, nullptr);
  glCompileShader(sh);
  return sh;
}

// A shader's compile error, if it has one (asking waits for the compile).
bool compile_error(GLuint sh, const char* name, std::string& error) {
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (ok) return false;
  char log[1024] = {};
  glGetShaderInfoLog(sh, sizeof log, nullptr, log);
  error = std::string("shader ") + name + " failed to compile: " + log;
  return true;
}

}  // namespace

void start_program(Program& p, const unsigned char* vs, const unsigned char* fs) {
  p.vs = compile(GL_VERTEX_SHADER, text_of(vs));
  p.fs = compile(GL_FRAGMENT_SHADER, text_of(fs));
  p.id = glCreateProgram();
  glAttachShader(p.id, p.vs);
  glAttachShader(p.id, p.fs);
  glLinkProgram(p.id);
}

bool finish_program(Program& p, const char* vname, const char* fname, std::string& error) {
  // Only the link status is asked for; a failed link says which shader failed to compile, if one did.
  GLint ok = 0;
  glGetProgramiv(p.id, GL_LINK_STATUS, &ok);
  if (!ok && !compile_error(p.vs, vname, error) && !compile_error(p.fs, fname, error)) {
    char log[1024] = {};
    glGetProgramInfoLog(p.id, sizeof log, nullptr, log);
    error = std::string("shaders ") + vname + " + " + fname + " failed to link: " + log;
  }
  glDeleteShader(p.vs);
  glDeleteShader(p.fs);
  p.vs = p.fs = 0;
  if (!ok) return false;
  p.u_view = glGetUniformLocation(p.id, "u_view");
  p.u_px = glGetUniformLocation(p.id, "u_px");
  return true;
}

bool link_done(const Program& p, bool can_poll) {
  if (!can_poll || !p.id || !p.vs) return true;
  constexpr GLenum kCompletionStatus = 0x91B1;  // GL_COMPLETION_STATUS_KHR
  GLint done = 0;
  glGetProgramiv(p.id, kCompletionStatus, &done);
  return done != 0;
}

bool link_program(Program& p, const unsigned char* vs, const unsigned char* fs, const char* vname, const char* fname,
                  std::string& error) {
  start_program(p, vs, fs);
  return finish_program(p, vname, fname, error);
}

namespace {

// One VAO per batch: the shared quad at location 0, the instance attributes (vec4 each) after it.
void make_batch(Renderer& r, int b) {
  glGenVertexArrays(1, &r.vao[b]);
  glGenBuffers(1, &r.vbo[b]);
  glBindVertexArray(r.vao[b]);
  glBindBuffer(GL_ARRAY_BUFFER, r.quad);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo[b]);
  const int vec4s = kFloats[b] / 4;
  const GLsizei stride = static_cast<GLsizei>(kFloats[b] * sizeof(float));
  for (int i = 0; i < vec4s; ++i) {
    const GLuint loc = static_cast<GLuint>(1 + i);
    glEnableVertexAttribArray(loc);
    glVertexAttribPointer(loc, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(static_cast<std::size_t>(i) * 4 * sizeof(float)));
    glVertexAttribDivisor(loc, 1);
  }
  glBindVertexArray(0);
}

void push4(std::vector<float>& v, float a, float b, float c, float d) {
  v.push_back(a);
  v.push_back(b);
  v.push_back(c);
  v.push_back(d);
}
void push_rect(std::vector<float>& v, const layout::Rect& r) { push4(v, r.x, r.y, r.w, r.h); }
void push_rgba(std::vector<float>& v, Rgba c) { push4(v, c.r, c.g, c.b, c.a); }

// The point where the segment from inside `r` toward `(ox, oy)` leaves `r`.
void exit_point(const layout::Rect& r, float cx, float cy, float ox, float oy, float& x, float& y) {
  const float dx = ox - cx, dy = oy - cy;
  float t = 1.0f;
  if (dx > 0) t = std::min(t, (r.right() - cx) / dx);
  if (dx < 0) t = std::min(t, (r.x - cx) / dx);
  if (dy > 0) t = std::min(t, (r.bottom() - cy) / dy);
  if (dy < 0) t = std::min(t, (r.y - cy) / dy);
  t = std::clamp(t, 0.0f, 1.0f);
  x = cx + dx * t;
  y = cy + dy * t;
}

// The rectangle an anchor sits on (a block or row, never the packet).
const layout::Rect* anchor_rect(const layout::Layout& L, float x, float y) {
  const layout::Rect* best = nullptr;
  for (const layout::Item& it : L.items) {
    if (it.kind == layout::Kind::Packet || !it.rect.contains(x, y)) continue;
    if (!best || it.rect.w * it.rect.h < best->w * best->h) best = &it.rect;
  }
  return best;
}

}  // namespace

void start(Renderer& r) {
  start_program(r.box, tierscope_shader_box_vert, tierscope_shader_box_frag);
  start_program(r.stripes, tierscope_shader_stripes_vert, tierscope_shader_stripes_frag);
  start_program(r.arrow, tierscope_shader_arrow_vert, tierscope_shader_arrow_frag);
}

bool links_done(const Renderer& r, bool can_poll) {
  return link_done(r.box, can_poll) && link_done(r.stripes, can_poll) && link_done(r.arrow, can_poll);
}

bool init(Renderer& r, std::string& error) {
  if (!r.box.id) start(r);
  if (!finish_program(r.box, "box.vert", "box.frag", error)) return false;
  if (!finish_program(r.stripes, "stripes.vert", "stripes.frag", error)) return false;
  if (!finish_program(r.arrow, "arrow.vert", "arrow.frag", error)) return false;
  static const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &r.quad);
  glBindBuffer(GL_ARRAY_BUFFER, r.quad);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  for (int b = 0; b < 4; ++b) make_batch(r, b);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  r.ready = true;
  return true;
}

void shutdown(Renderer& r) {
  for (int b = 0; b < 4; ++b) {
    if (r.vbo[b]) glDeleteBuffers(1, &r.vbo[b]);
    if (r.vao[b]) glDeleteVertexArrays(1, &r.vao[b]);
  }
  if (r.quad) glDeleteBuffers(1, &r.quad);
  for (Program* p : {&r.box, &r.stripes, &r.arrow})
    if (p->id) glDeleteProgram(p->id);
  r = Renderer{};
}

void draw(Renderer& r, const layout::Layout& L, const Palette& pal, const FrameInput& in) {
  r.draw_calls = 0;
  if (!r.ready) return;
  for (auto& s : r.scratch) s.clear();
  using layout::Kind;
  using layout::Role;

  // Bands: background and latency stripes.
  for (const layout::Item& it : L.items) {
    if (it.kind != Kind::Band) continue;
    const layout::BandInfo& b = L.bands[static_cast<std::size_t>(it.index)];
    const bool lit = it.highlighted;
    const bool sel = in.selected == &it, hov = in.hover == &it;
    std::vector<float>& v = r.scratch[kStripes];
    push_rect(v, it.rect);
    push_rgba(v, lit ? mix(pal.surface, pal.text, pal.dark ? 0.07f : 0.05f) : pal.surface);
    const Rgba edge = b.overflow ? pal.alert
                      : lit      ? mix(pal.border, pal.text, pal.dark ? 0.45f : 0.25f)
                                 : Rgba{pal.border.r, pal.border.g, pal.border.b, pal.dark ? 1.0f : 0.75f};
    push_rgba(v, edge);
    push4(v, 8, b.stripe_spacing, 1.2f, sel ? 2.5f : (lit || hov || b.overflow) ? 2.0f : 1.0f);
  }

  // The fleet view's levels: each band filled from its left edge to its occupancy, under the blocks.
  for (const layout::Item& it : L.items) {
    if (it.kind != Kind::Band || !(it.fill > 0)) continue;
    layout::Rect level = it.rect;
    level.w *= std::min(it.fill, 1.0f);
    std::vector<float>& v = r.scratch[kBoxes];
    push_rect(v, level);
    push_rgba(v, pal.level(L.bands[static_cast<std::size_t>(it.index)].level_role));
    push_rgba(v, Rgba{0, 0, 0, 0});
    push4(v, 8, 0, 0, 0);
  }

  // Boxes: tokens, layer rows, the stream, blocks.
  for (const layout::Item& it : L.items) {
    if (it.kind == Kind::Band || it.kind == Kind::Packet || it.kind == Kind::Title) continue;
    const bool block = it.kind == Kind::Block;
    const bool sel = in.selected == &it, hov = in.hover == &it;
    const bool picked_layer = in.selected_layer >= 0 && in.selected_layer >= it.first_layer && in.selected_layer <= it.last_layer &&
                              (it.kind == Kind::EncoderLayer || it.kind == Kind::DecoderLayer);
    Rgba edge = block || it.highlighted ? pal.edge(it.role) : pal.border;
    float bw = 1;
    if (hov) bw = 1.5f;
    if (sel || picked_layer) {
      edge = pal.accent;
      bw = 2;
    }
    std::vector<float>& v = r.scratch[kBoxes];
    push_rect(v, it.rect);
    push_rgba(v, pal.fill(it.role, it.highlighted));
    push_rgba(v, edge);
    push4(v, 6, bw, block ? it.fill : 0.0f, block ? 3.0f : 0.0f);
  }

  // The move in flight: an arrow from the source's edge to the destination's edge, and the packet.
  const layout::Flight& f = L.flight;
  const layout::Item* packet = L.find(Kind::Packet, 0);
  if (f.active && packet) {
    const Rgba c = pal.edge(packet->role);
    if (!f.stays) {
      float ax = f.x0, ay = f.y0, bx = f.x1, by = f.y1;
      if (const layout::Rect* src = anchor_rect(L, f.x0, f.y0)) exit_point(*src, f.x0, f.y0, f.x1, f.y1, ax, ay);
      if (const layout::Rect* dst = anchor_rect(L, f.x1, f.y1)) exit_point(*dst, f.x1, f.y1, f.x0, f.y0, bx, by);
      if (std::hypot(bx - ax, by - ay) > 4) {
        std::vector<float>& v = r.scratch[kArrows];
        push4(v, ax, ay, bx, by);
        push_rgba(v, Rgba{c.r, c.g, c.b, 0.9f});
        push4(v, 2.0f, 10.0f, 10.0f, static_cast<float>(std::fmod(in.time * 24.0, 10.0)));
      }
    }
    std::vector<float>& v = r.scratch[kPackets];
    push_rect(v, packet->rect);
    push_rgba(v, pal.role[static_cast<int>(packet->role)]);
    push_rgba(v, pal.accent);
    push4(v, packet->rect.h * 0.5f, in.selected == packet ? 2.5f : 1.5f, 0, 0);
  }

  glViewport(0, 0, in.drawable_w, in.drawable_h);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  const float px = 1.0f / std::max(in.pixel_ratio, 0.25f);
  auto run = [&](int b, const Program& p) {
    const std::vector<float>& v = r.scratch[b];
    if (v.empty()) return;
    glUseProgram(p.id);
    glUniform2f(p.u_view, in.css_w, in.css_h);
    glUniform1f(p.u_px, px);
    glBindBuffer(GL_ARRAY_BUFFER, r.vbo[b]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(float)), v.data(), GL_STREAM_DRAW);
    glBindVertexArray(r.vao[b]);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(v.size() / static_cast<std::size_t>(kFloats[b])));
    ++r.draw_calls;
  };
  run(kStripes, r.stripes);
  run(kBoxes, r.box);
  run(kArrows, r.arrow);
  run(kPackets, r.box);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glUseProgram(0);
}

}  // namespace tierscope::render
