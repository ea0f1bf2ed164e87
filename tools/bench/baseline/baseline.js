// Baseline for tierscope's benchmarks: the least a WebGL2 page can do — create a context and clear the
// canvas every frame — with the same marks and counters the app reports. With ?shader=1 it also draws one
// triangle with one shader program: the least a page that draws anything with a shader waits for (WebGL
// checks a program's link before its first use, so that frame waits for the GPU process's compile).
'use strict';
(function () {
  const canvas = document.getElementById('canvas');
  const gl = canvas.getContext('webgl2');
  let program = null;
  if (new URLSearchParams(location.search).get('shader') === '1') {
    const shader = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
    program = gl.createProgram();
    gl.attachShader(program, shader(gl.VERTEX_SHADER, '#version 300 es\nvoid main() { vec2 p = vec2(gl_VertexID == 1 ? 1.0 : -1.0, gl_VertexID == 2 ? 1.0 : -1.0); gl_Position = vec4(p * 0.5, 0.0, 1.0); }'));
    gl.attachShader(program, shader(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float; out vec4 o; void main() { o = vec4(1.0, 0.8, 0.2, 1.0); }'));
    gl.linkProgram(program);
  }
  let frames = 0;
  const cpu = [];
  function frame() {
    const t0 = performance.now();
    const r = window.devicePixelRatio || 1;
    const w = Math.floor(canvas.clientWidth * r), h = Math.floor(canvas.clientHeight * r);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.1, 0.3 + 0.2 * Math.sin(frames / 30), 0.5, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (program) { gl.useProgram(program); gl.drawArrays(gl.TRIANGLES, 0, 3); }
    frames++;
    cpu.push(performance.now() - t0);
    if (cpu.length > 240) cpu.shift();
    if (frames === 1) performance.mark('tierscope-first-frame');
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  const pct = (p) => {
    if (!cpu.length) return 0;
    const s = cpu.slice().sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  };
  window.baseline = { stats: () => ({ framesDrawn: frames, cpuMsP50: pct(0.5), cpuMsP95: pct(0.95) }) };
})();
