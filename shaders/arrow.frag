#version 300 es
// A dashed shaft whose dashes march toward the destination, ending in a solid triangular head.
precision highp float;
in vec2 v_uv;
in float v_len;
in vec4 v_color;
in vec4 v_params;
uniform float u_px;
out vec4 o_color;
void main() {
  float half_w = v_params.x * 0.5;
  float head = min(v_params.y, v_len * 0.5);
  float a = 0.0;
  if (v_uv.x > v_len - head) {
    // Head: a triangle from full width at its base to a point at the end.
    float k = (v_len - v_uv.x) / head;
    float hw = head * 0.55 * k;
    a = 1.0 - smoothstep(hw - u_px * 0.5, hw + u_px * 0.5, abs(v_uv.y));
    a *= step(v_uv.x, v_len);
  } else {
    a = 1.0 - smoothstep(half_w - u_px * 0.5, half_w + u_px * 0.5, abs(v_uv.y));
    a *= step(0.0, v_uv.x);
    float period = v_params.z;
    if (period > 0.0) {
      float t = mod(v_uv.x - v_params.w, period);
      a *= step(t, period * 0.6);
    }
  }
  if (a <= 0.0) discard;
  o_color = vec4(v_color.rgb * v_color.a * a, v_color.a * a);
}
