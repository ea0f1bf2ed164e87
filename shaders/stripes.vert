#version 300 es
// Instanced tier bands: one quad per band; the fragment shader draws stripes whose spacing encodes the
// tier's latency (dense stripes = slow tier).
precision highp float;
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_rect;     // x, y, w, h in CSS px
layout(location = 2) in vec4 a_bg;       // band background
layout(location = 3) in vec4 a_stripe;   // stripe colour
layout(location = 4) in vec4 a_params;   // radius, stripe spacing, stripe width, border width
uniform vec2 u_view;
out vec2 v_local;
out vec2 v_half;
out vec2 v_pos;
out vec4 v_bg;
out vec4 v_stripe;
out vec4 v_params;
void main() {
  vec2 pos = a_rect.xy - 1.0 + a_corner * (a_rect.zw + 2.0);
  v_half = a_rect.zw * 0.5;
  v_local = pos - (a_rect.xy + v_half);
  v_pos = pos;
  v_bg = a_bg;
  v_stripe = a_stripe;
  v_params = a_params;
  vec2 ndc = pos / u_view * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
