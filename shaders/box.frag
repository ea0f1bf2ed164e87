#version 300 es
// Rounded box with an anti-aliased edge, a border, and a bar along the bottom showing the fill level
// (resident bytes over the block's footprint).
precision highp float;
in vec2 v_local;
in vec2 v_half;
in vec4 v_fill;
in vec4 v_border;
in vec4 v_params;
uniform float u_px;  // CSS px per device pixel (1 / devicePixelRatio): the anti-aliasing width
out vec4 o_color;
float rounded(vec2 p, vec2 half_size, float r) {
  vec2 q = abs(p) - half_size + r;
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}
void main() {
  float r = min(v_params.x, min(v_half.x, v_half.y));
  float d = rounded(v_local, v_half, r);
  float edge = 1.0 - smoothstep(-u_px * 0.5, u_px * 0.5, d);
  if (edge <= 0.0) discard;
  vec4 c = v_fill;
  // Fill-level bar: the bottom `bar` px, filled from the left up to the level in the border colour.
  float bar = v_params.w;
  if (bar > 0.0 && v_local.y > v_half.y - bar) {
    float x01 = (v_local.x + v_half.x) / (2.0 * v_half.x);
    c = x01 <= v_params.z ? vec4(v_border.rgb, 1.0) : mix(v_fill, vec4(v_border.rgb, 1.0), 0.25);
  }
  float bw = v_params.y;
  if (bw > 0.0) {
    float inner = smoothstep(-bw - u_px * 0.5, -bw + u_px * 0.5, d);
    c = mix(c, v_border, inner * v_border.a);
  }
  o_color = vec4(c.rgb * c.a * edge, c.a * edge);
}
