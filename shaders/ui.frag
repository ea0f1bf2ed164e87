#version 300 es
// The font atlas is a one-channel coverage texture (its white pixel is full coverage), so every ImGui
// triangle is its vertex colour times the coverage.
precision mediump float;
uniform sampler2D u_tex;
in vec2 v_uv;
in vec4 v_color;
out vec4 o_color;
void main() {
  o_color = vec4(v_color.rgb, v_color.a * texture(u_tex, v_uv).r);
}
