// Loads the WebAssembly app with visible progress and a message for every failure. This is the part of the
// page that must work before the app exists, so its few words live here.

// Why the app could not start, by the stable codes the loader and the app report.
const FAILURES = {
  'no-webgl2': ['This browser cannot draw WebGL2',
    'tierscope draws its schematic with WebGL2. Use a current Chrome, Edge, Firefox or Safari, and check that hardware acceleration is on.'],
  fetch: ['The app could not be downloaded', ''],
  script: ['The app could not be loaded', ''],
  abort: ['The app stopped unexpectedly', ''],
  webgl2: ['A WebGL2 context could not be created', ''],
  'old-wasm': ['This browser\'s WebAssembly is too old for the app',
    'tierscope needs WebAssembly with bulk memory operations: Chrome or Edge 75 or later, Firefox 79 or later, Safari 15 or later.'],
  compile: ['The app could not be compiled', ''],
};

// The smallest module that uses a bulk memory instruction (memory.fill): the app's code uses them.
const BULK_MEMORY_PROBE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1,
  0x0a, 0x0d, 1, 0x0b, 0, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0b, 0, 0x0b]);

// Megabytes with one decimal for the progress line (the app's formatter is not there yet).
const mb = (bytes) => (bytes / 1e6).toFixed(1);

export function createLoader({ S, $, win, doc, hooks }) {
  const progress = $('progress');
  const progressText = $('progress-text');

  function failLoad(code, detail) {
    if (S.failed) return;
    S.failed = true;
    const known = FAILURES[code] || ['Something went wrong', ''];
    $('fatal-title').textContent = known[0];
    $('fatal-detail').textContent = [known[1], detail].filter(Boolean).join(' ');
    $('fatal').hidden = false;
    $('loading').hidden = true;
    $('status').textContent = 'Error: ' + known[0];
    S.resolveReady = null;
    if (S.rejectReady) S.rejectReady(new Error(code + (detail ? ': ' + detail : '')));
  }

  function showProgress(loaded, total) {
    if (total > 0) {
      progress.value = Math.min(1, loaded / total);
      progressText.textContent = `${mb(loaded)} of ${mb(total)} MB`;
    } else {
      progress.removeAttribute('value');
      progressText.textContent = `${mb(loaded)} MB`;
    }
  }

  // Reads a body chunk by chunk (for the progress bar) into one byte array.
  async function readBytes(response, total) {
    if (!response.body || !response.body.getReader) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const chunks = [];
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      showProgress(loaded, total);
    }
    const bytes = new Uint8Array(loaded);
    let at = 0;
    for (const c of chunks) { bytes.set(c, at); at += c.length; }
    return bytes;
  }

  // The canvas's WebGL2 context, made while the app downloads and compiles: the GPU process takes a long
  // while to start a context (over a second with a software GPU), and the app's first frame waits for it.
  // The app's own request (same canvas, same attributes: src/platform/platform.cpp) is then handed this one.
  // Made after a throwaway context in a worker (gl-warm.js) has started the GPU's side off this thread and
  // linked the same shaders, so neither the page's getContext nor its first frame blocks it for long.
  // The backing store is given its final size (CSS size × pixel ratio, truncated as the app's window does)
  // before the context exists: resizing a live WebGL context waits for the GPU process.
  function makeContext() {
    if (S.failed) return;
    const canvas = $('canvas');
    const box = canvas.getBoundingClientRect();
    const ratio = win.devicePixelRatio || 1;
    if (box.width >= 1 && box.height >= 1) {
      canvas.width = Math.trunc(box.width * ratio);
      canvas.height = Math.trunc(box.height * ratio);
    }
    if (!canvas.getContext('webgl2', { alpha: false, depth: false, stencil: false, antialias: false })) failLoad('webgl2');
    mark('context');
  }

  // Resolves once the page has painted its first text (or after a few seconds: a hidden tab paints nothing).
  function afterFirstPaint() {
    return new Promise((resolve) => {
      let done = false;
      const go = () => { if (!done) { done = true; resolve(); } };
      win.setTimeout(go, 3000);
      const Observer = win.PerformanceObserver;
      if (!Observer || !(Observer.supportedEntryTypes || []).includes('paint')) {
        win.requestAnimationFrame(() => win.setTimeout(go, 0));
        return;
      }
      const painted = (entries) => entries.some((e) => e.name === 'first-contentful-paint');
      if (painted(win.performance.getEntriesByType('paint'))) { go(); return; }
      const observer = new Observer((list) => { if (painted(list.getEntries())) { observer.disconnect(); go(); } });
      observer.observe({ type: 'paint', buffered: true });
    });
  }

  // A throwaway WebGL2 context in a worker; resolves when it is made, when it fails, or after a few seconds.
  function warmGpu() {
    if (typeof win.Worker !== 'function' || typeof win.OffscreenCanvas !== 'function') return Promise.resolve();
    return new Promise((resolve) => {
      let worker = null;
      const done = () => { if (worker) worker.terminate(); worker = null; resolve(); };
      try {
        worker = new win.Worker(new win.URL('gl-warm.js', doc.baseURI));
      } catch (e) {
        resolve();
        return;
      }
      worker.onmessage = done;
      worker.onerror = (e) => { e.preventDefault(); done(); };
      win.setTimeout(done, 4000);
    });
  }

  // Downloads and compiles the .wasm at once: one copy of the body streams into the compiler while the other
  // is counted for the progress bar. Browsers without streaming compile get the bytes-then-compile path.
  async function compileWasm(url, counted = true) {
    const request = win.fetch(url, { credentials: 'same-origin' });
    request.catch(() => {});  // reported below, once awaited
    let response;
    try { response = await request; } catch (e) { throw new Error(url + ': ' + e.message); }
    if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
    // A compressed response's length counts the compressed bytes, not the ones read here: the bar then
    // shows what has arrived without a total.
    const total = response.headers.get('Content-Encoding') ? 0 : Number(response.headers.get('Content-Length')) || 0;
    if (!counted && response.body && typeof win.WebAssembly.compileStreaming === 'function') {
      return win.WebAssembly.compileStreaming(new win.Response(response.body, { headers: { 'Content-Type': 'application/wasm' } }));
    }
    if (!response.body || typeof response.body.tee !== 'function' || typeof win.WebAssembly.compileStreaming !== 'function') {
      const bytes = await readBytes(response, total);
      return win.WebAssembly.compile(bytes);
    }
    const [forCompiler, forProgress] = response.body.tee();
    const compiled = win.WebAssembly.compileStreaming(new win.Response(forCompiler, { headers: { 'Content-Type': 'application/wasm' } }));
    (async () => {
      const reader = forProgress.getReader();
      let loaded = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        loaded += value.length;
        showProgress(loaded, total);
      }
    })().catch(() => {});  // progress is cosmetic; the compiler reports real failures
    return compiled;
  }

  // The rest of the page's module: tools/first-frame.mjs split off every function the first frame does not
  // run into tierscope.deferred.wasm. Once the page is idle after its first frame it is fetched, compiled off
  // the thread and joined to the running module (its functions fill the table slots the split left), so no
  // call waits for it. A call that needs it sooner (a click in the first moments) loads it then, blocking
  // for its download once. `S.deferred` tells the page's stats how it came.
  const DEFERRED = 'tierscope.deferred.wasm';
  const deferred = S.deferred = { state: 'waiting', by: '', ms: 0 };
  let deferredCompiled = null;  // the fetched module, once compiled (a Promise until then)
  const joined = () => deferred.state === 'loaded';

  function join(mod, imports, by) {
    const t0 = win.performance.now();
    const instance = new win.WebAssembly.Instance(mod, imports);
    Object.assign(deferred, { state: 'loaded', by, ms: Math.round(win.performance.now() - t0) });
    mark('deferred');
    return instance;
  }

  // The file's bytes at once: a page's synchronous request cannot ask for an ArrayBuffer, so the body comes
  // as text with every byte kept (the user-defined charset maps bytes 0–255 to themselves).
  function fetchBytesNow(url) {
    const x = new win.XMLHttpRequest();
    x.open('GET', url, false);
    x.overrideMimeType('text/plain; charset=x-user-defined');
    x.send();
    if (x.status !== 200) throw new Error(url + ': HTTP ' + x.status);
    const text = x.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
  }

  // Emscripten calls this when a function of the deferred part is called before it was joined.
  function loadSplitModule(_file, imports, prop) {
    try {
      const mod = deferredCompiled instanceof win.WebAssembly.Module ? deferredCompiled : new win.WebAssembly.Module(fetchBytesNow(DEFERRED));
      return [join(mod, imports, 'call ' + prop), mod];
    } catch (e) {
      deferred.state = 'failed';
      failWasm(e);
      throw e;
    }
  }

  // Fetches, compiles and joins the deferred part while the page is idle; a failure here is left for the
  // first call that needs it, which tries again and reports.
  function warmDeferred() {
    if (joined() || deferredCompiled || S.failed) return;
    deferred.state = 'fetching';
    deferredCompiled = compileWasm(DEFERRED, false).then((mod) => {
      deferredCompiled = mod;
      if (joined() || S.failed || !S.module || !S.module.asm) return;
      join(mod, { primary: S.module.asm }, 'idle');
    }).catch((e) => {
      deferredCompiled = null;
      if (!joined()) deferred.state = 'waiting';
      win.console.warn('the rest of the app will load when first needed: ' + (e && e.message));
    });
  }

  // Start-up marks for the benchmark (navigation → compiled → instantiated → the app's own marks).
  const mark = (name) => { if (win.performance && win.performance.mark) win.performance.mark(`tierscope-${name}`); };

  // The .wasm arrived but is not a module this browser compiles (a damaged file, a server's error page), or
  // it did not arrive at all.
  const failWasm = (e) => failLoad(win.WebAssembly.CompileError && e instanceof win.WebAssembly.CompileError ? 'compile' : 'fetch', e && e.message);

  // A browser without WebGL2 at all is told before anything downloads. Whether a context can really be made
  // shows when the page makes its own (the worker's throwaway context reports nothing).
  function start() {
    if (typeof win.WebGL2RenderingContext !== 'function') { failLoad('no-webgl2'); return; }
    if (!win.WebAssembly || !win.WebAssembly.validate(BULK_MEMORY_PROBE)) { failLoad('old-wasm'); return; }
    $('status').textContent = 'Loading…';
    // The page's own text paints first: the app's download would take the network from the style sheet
    // on a slow link, and the GPU's start-up would hold the paint back.
    afterFirstPaint().then(load);
  }

  function load() {
    if (S.failed) return;
    const script = doc.createElement('script');
    script.src = 'tierscope.js';
    script.onload = () => {
      if (typeof win.createTierscope !== 'function') { failLoad('script', 'tierscope.js defines no app.'); return; }
      win.createTierscope({
        canvas: $('canvas'),
        locateFile: (path) => path,  // next to this page, whatever the base path
        instantiateWasm(imports, receive) {
          Promise.all([wasm, context])
            .then(([mod]) => { mark('compiled'); return win.WebAssembly.instantiate(mod, imports).then((instance) => { mark('instantiated'); receive(instance, mod); }); })
            .catch(failWasm);
          return {};
        },
        loadSplitModule,
        onFatal: (code, detail) => failLoad(code, detail),
        onAbort: (what) => failLoad('abort', String(what || '')),
        // The model is ready for calls (inside main(), before the first frame): the module comes along, since
        // the factory's promise resolves only after main() returns. True: the first frame waits for the page.
        onLoaded: (m) => { S.module = m; return hooks.loaded(m); },
        onReady() {
          // onReady can come before the factory's promise resolves; wait for the module object.
          const go = () => (S.module ? hooks.ready(S.module) : win.setTimeout(go, 0));
          go();
        },
        onState: hooks.state,
        onNotice: hooks.notice,
        print: (t) => win.console.log(t),
        // (the runtime's own lines about loading the deferred part are left out: S.deferred tells it)
        printErr: (t) => { if (!/^(placeholder function called|instantiated deferred module)/.test(t)) win.console.warn(t); },
      }).then((m) => { S.module = m; }, (e) => failLoad('abort', e && e.message));
    };
    script.onerror = () => failLoad('script', 'tierscope.js could not be fetched.');
    doc.head.appendChild(script);  // its download starts now; it runs once the wasm below is on its way
    const wasm = compileWasm('tierscope.wasm');
    wasm.catch(failWasm);
    const context = warmGpu().then(makeContext);
  }

  return { start, failLoad, showProgress, warmDeferred };
}
