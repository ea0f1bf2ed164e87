#version 300 es
// Instanced arrows: one quad per segment, oriented along it, wide enough for the head.
precision highp float;
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_ends;     // x0, y0, x1, y1 in CSS px
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec4 a_params;   // line width, head length, dash period (0: solid), dash phase
uniform vec2 u_view;
out vec2 v_uv;      // x: px along the segment from its start, y: px across from its axis
out float v_len;
out vec4 v_color;
out vec4 v_params;
void main() {
  vec2 p0 = a_ends.xy, p1 = a_ends.zw;
  vec2 dir = p1 - p0;
  float len = max(length(dir), 1e-3);
  dir /= len;
  vec2 nrm = vec2(-dir.y, dir.x);
  float half_w = max(a_params.x, a_params.y * 0.6) + 1.0;
  float along = -1.0 + a_corner.x * (len + 2.0);
  float across = (a_corner.y * 2.0 - 1.0) * half_w;
  vec2 pos = p0 + dir * along + nrm * across;
  v_uv = vec2(along, across);
  v_len = len;
  v_color = a_color;
  v_params = a_params;
  vec2 ndc = pos / u_view * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
