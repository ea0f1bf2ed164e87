// Baseline for tierscope's benchmarks: the least a WebGL2 page can do — create a context and clear the
// canvas every frame — with the same marks and counters the app reports.
'use strict';
(function () {
  const canvas = document.getElementById('canvas');
  const gl = canvas.getContext('webgl2');
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
