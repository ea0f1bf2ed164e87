#version 300 es
// Band background with slanted stripes at the band's spacing, rounded corners and a border in the stripe
// colour; stripes are anchored to the band's left edge so they do not crawl when nothing moves.
precision highp float;
in vec2 v_local;
in vec2 v_half;
in vec2 v_pos;
in vec4 v_bg;
in vec4 v_stripe;
in vec4 v_params;
uniform float u_px;
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
  float spacing = max(v_params.y, 2.0);
  float t = mod(v_local.x + v_half.x + (v_local.y + v_half.y) * 0.35, spacing);
  float w = v_params.z;
  float s = 1.0 - smoothstep(w, w + u_px, t);
  vec4 c = mix(v_bg, vec4(v_stripe.rgb, 1.0), s * v_stripe.a);
  float bw = v_params.w;
  if (bw > 0.0) {
    float inner = smoothstep(-bw - u_px * 0.5, -bw + u_px * 0.5, d);
    c = mix(c, vec4(v_stripe.rgb, 1.0), inner);
  }
  o_color = vec4(c.rgb * c.a * edge, c.a * edge);
}
