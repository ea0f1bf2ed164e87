// WebGL2 drawing of Dear ImGui's draw lists: one program, one vertex array, streamed buffers, a
// one-channel font atlas. Sets every piece of state it relies on and reads none back.
#include "render/ui_renderer.h"

#include "render/renderer.h"

#include <GLES3/gl3.h>
#include <imgui.h>

#include <cstddef>
#include <cstdint>

extern const unsigned char tierscope_shader_ui_vert[];
extern const unsigned char tierscope_shader_ui_frag[];

namespace tierscope::render {

void start_ui(UiRenderer& r) { start_program(r.starting, tierscope_shader_ui_vert, tierscope_shader_ui_frag); }

bool init_ui(UiRenderer& r, std::string& error) {
  if (!r.starting.id) start_ui(r);
  Program p = r.starting;
  r.starting = {};
  if (!finish_program(p, "ui.vert", "ui.frag", error)) return false;
  r.program = p.id;
  r.u_proj = glGetUniformLocation(r.program, "u_proj");
  r.u_tex = glGetUniformLocation(r.program, "u_tex");

  glGenVertexArrays(1, &r.vao);
  glGenBuffers(1, &r.vbo);
  glGenBuffers(1, &r.ebo);
  glBindVertexArray(r.vao);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r.ebo);  // part of the vertex array's state
  const auto stride = static_cast<GLsizei>(sizeof(ImDrawVert));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
  glBindVertexArray(0);

  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "tierscope_webgl2";
  r.ready = true;
  return true;
}

void upload_font(UiRenderer& r) {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
  if (!r.font_texture) glGenTextures(1, &r.font_texture);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, r.font_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, w, h, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(r.font_texture)));
  // The atlas lives on the GPU now; ImGui keeps only the glyph metrics.
  io.Fonts->ClearTexData();
}

void draw_ui(UiRenderer& r, const ImDrawData* data, int fb_w, int fb_h) {
  if (!r.ready || !data || fb_w <= 0 || fb_h <= 0 || data->CmdListsCount == 0) return;
  const float L = data->DisplayPos.x, R = data->DisplayPos.x + data->DisplaySize.x;
  const float T = data->DisplayPos.y, B = data->DisplayPos.y + data->DisplaySize.y;
  const float proj[16] = {2.0f / (R - L), 0, 0, 0, 0, 2.0f / (T - B), 0, 0, 0, 0, -1, 0,
                          (R + L) / (L - R), (T + B) / (B - T), 0, 1};
  const ImVec2 scale = data->FramebufferScale;

  glViewport(0, 0, fb_w, fb_h);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glUseProgram(r.program);
  glUniformMatrix4fv(r.u_proj, 1, GL_FALSE, proj);
  glUniform1i(r.u_tex, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(r.vao);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo);

  constexpr GLenum kIndexType = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
  for (int n = 0; n < data->CmdListsCount; ++n) {
    const ImDrawList* list = data->CmdLists[n];
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->VtxBuffer.Size) * static_cast<GLsizeiptr>(sizeof(ImDrawVert)),
                 list->VtxBuffer.Data, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->IdxBuffer.Size) * static_cast<GLsizeiptr>(sizeof(ImDrawIdx)),
                 list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) continue;  // the app registers none
      const float x0 = (cmd.ClipRect.x - data->DisplayPos.x) * scale.x;
      const float y0 = (cmd.ClipRect.y - data->DisplayPos.y) * scale.y;
      const float x1 = (cmd.ClipRect.z - data->DisplayPos.x) * scale.x;
      const float y1 = (cmd.ClipRect.w - data->DisplayPos.y) * scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(static_cast<GLint>(x0), static_cast<GLint>(static_cast<float>(fb_h) - y1),
                static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(cmd.GetTexID())));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount), kIndexType,
                     reinterpret_cast<void*>(static_cast<std::uintptr_t>(cmd.IdxOffset) * sizeof(ImDrawIdx)));
    }
  }
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(0);
}

void shutdown_ui(UiRenderer& r) {
  if (r.font_texture) glDeleteTextures(1, &r.font_texture);
  if (r.ebo) glDeleteBuffers(1, &r.ebo);
  if (r.vbo) glDeleteBuffers(1, &r.vbo);
  if (r.vao) glDeleteVertexArrays(1, &r.vao);
  if (r.program) glDeleteProgram(r.program);
  r = UiRenderer{};
}

}  // namespace tierscope::render
