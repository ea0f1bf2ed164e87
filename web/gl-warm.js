// Starts a WebGL2 context off the page's thread and links the canvas's shaders in it, then says it is done.
// The GPU process takes a long while to set up a page's first context (over a second with a software GPU)
// and to compile shaders, and the page's getContext and its first frame wait for both, blocking paint and
// input. Once a throwaway context here has paid for them, the page's own context (lib/loader.mjs) takes
// milliseconds, and its links of the same sources come from the GPU process's program cache.
// A failure here is not reported: the page's own context and shaders say what went wrong.

// [vertex, fragment] source pairs of shaders/, written in by the site's assembly (tools/assemble-site).
const SHADERS = [/*__TS_SHADERS__*/];

function link(gl, [vertex, fragment]) {
  const program = gl.createProgram();
  for (const [type, text] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]]) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, text);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  return program;
}

try {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (gl) {
    const programs = SHADERS.map((pair) => link(gl, pair));
    for (const p of programs) gl.getProgramParameter(p, gl.LINK_STATUS);  // waits for the links
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
  }
} catch (e) {
  // no OffscreenCanvas WebGL2 in this browser's workers: the page's context starts cold
}
postMessage('warm');
close();
