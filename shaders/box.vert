#version 300 es
// Instanced rounded boxes (blocks, layer rows, token cells, the stream, packets): one quad per instance,
// positioned in CSS pixels; the fragment shader cuts the rounded corners and draws border and fill level.
precision highp float;
layout(location = 0) in vec2 a_corner;   // unit quad corner, 0..1
layout(location = 1) in vec4 a_rect;     // x, y, w, h in CSS px
layout(location = 2) in vec4 a_fill;     // RGBA, premultiplied later
layout(location = 3) in vec4 a_border;   // RGBA
layout(location = 4) in vec4 a_params;   // radius, border width, fill level (0..1), bar height
uniform vec2 u_view;                     // canvas size in CSS px
out vec2 v_local;                        // position inside the box, CSS px from its centre
out vec2 v_half;
out vec4 v_fill;
out vec4 v_border;
out vec4 v_params;
void main() {
  // Grow the quad by a pixel so the anti-aliased edge is not clipped.
  vec2 pos = a_rect.xy - 1.0 + a_corner * (a_rect.zw + 2.0);
  v_half = a_rect.zw * 0.5;
  v_local = pos - (a_rect.xy + v_half);
  v_fill = a_fill;
  v_border = a_border;
  v_params = a_params;
  vec2 ndc = pos / u_view * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
