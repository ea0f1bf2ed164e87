// tierscope page shell: checks WebGL2, downloads the WebAssembly app with visible progress, shows a clear
// message for every failure, and exposes window.tierscope to the page. Relative URLs only, no inline code.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $('canvas');
  const statusEl = $('status');
  const loading = $('loading');
  const progress = $('progress');
  const progressText = $('progress-text');

  const FAILURES = {
    'no-webgl2': ['This browser cannot draw WebGL2',
      'tierscope draws its schematic with WebGL2. Use a current Chrome, Edge, Firefox or Safari, and check that hardware acceleration is on.'],
    'fetch': ['The app could not be downloaded', ''],
    'script': ['The app could not be loaded', ''],
    'abort': ['The app stopped unexpectedly', ''],
    'webgl2': ['A WebGL2 context could not be created', ''],
  };

  let failed = false;
  function fail(code, detail) {
    if (failed) return;
    failed = true;
    const known = FAILURES[code] || ['Something went wrong', ''];
    $('fatal-title').textContent = known[0];
    $('fatal-detail').textContent = [known[1], detail].filter(Boolean).join(' ');
    $('fatal').hidden = false;
    loading.hidden = true;
    statusEl.textContent = 'Error: ' + known[0];
    resolveReady = null;
    if (rejectReady) rejectReady(new Error(code + (detail ? ': ' + detail : '')));
  }

  let resolveReady = null, rejectReady = null;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // failures are shown on the page; callers may still await and catch

  let module = null;
  const api = {
    ready,
    version: '0.1.0',
    // Frame statistics from the app, plus the page's JS heap where the browser reports it.
    stats() {
      if (!module) return null;
      const s = JSON.parse(module.UTF8ToString(module._ts_bridge_stats_json()));
      if (performance.memory) s.jsHeapBytes = performance.memory.usedJSHeapSize;
      return s;
    },
  };
  Object.defineProperty(window, 'tierscope', { value: api, configurable: false, writable: false });

  function hasWebGL2() {
    try { return !!document.createElement('canvas').getContext('webgl2'); } catch (e) { return false; }
  }
  if (!hasWebGL2()) { fail('no-webgl2'); return; }

  function showProgress(loaded, total) {
    if (total > 0) {
      progress.value = Math.min(1, loaded / total);
      progressText.textContent = (loaded / 1e6).toFixed(1) + ' of ' + (total / 1e6).toFixed(1) + ' MB';
    } else {
      progress.removeAttribute('value');
      progressText.textContent = (loaded / 1e6).toFixed(1) + ' MB';
    }
  }

  // Downloads the .wasm with progress (a fetch body read chunk by chunk), then instantiates it.
  async function fetchWasm(url) {
    let response;
    try { response = await fetch(url, { credentials: 'same-origin' }); } catch (e) { throw new Error(url + ': ' + e.message); }
    if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
    const total = Number(response.headers.get('Content-Length')) || 0;
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

  function start() {
    statusEl.textContent = 'Loading…';
    createTierscope({
      canvas,
      locateFile: (path) => path,  // next to this page, whatever the base path
      instantiateWasm(imports, receive) {
        fetchWasm('tierscope.wasm')
          .then((bytes) => WebAssembly.instantiate(bytes, imports))
          .then((r) => receive(r.instance, r.module))
          .catch((e) => fail('fetch', e.message));
        return {};
      },
      onFatal: (code, detail) => fail(code, detail),
      onAbort: (what) => fail('abort', String(what || '')),
      onReady() {
        loading.hidden = true;
        statusEl.textContent = 'Ready';
        if (resolveReady) resolveReady(api);
      },
      print: (t) => console.log(t),
      printErr: (t) => console.warn(t),
    }).then((m) => { module = m; }, (e) => fail('abort', e && e.message));
  }

  const script = document.createElement('script');
  script.src = 'tierscope.js';
  script.onload = () => (typeof createTierscope === 'function' ? start() : fail('script', 'tierscope.js defines no app.'));
  script.onerror = () => fail('script', 'tierscope.js could not be fetched.');
  document.head.appendChild(script);
  canvas.addEventListener('pointerdown', () => canvas.focus());
})();
