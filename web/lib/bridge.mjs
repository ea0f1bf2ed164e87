// Calls into the app: strings in and out of WebAssembly memory, JSON parsed once, and a clear result
// when an export is missing (an older build) instead of a TypeError deep in the page.

// A chart's per-point arrays (xs and each line's y) as {f64: [at, count]}: `count` doubles from index
// `at0 + at` of `numbers` (the app's memory, or the copy the worker posts), put back in place as plain
// arrays, non-finite as null — the chart is then exactly what `tierscope chart NAME --format json` prints,
// without a number printed or parsed as text.
export function readNumbers(chart, numbers, at0 = 0) {
  const read = (v) => {
    const ref = v && v.f64;
    if (!Array.isArray(ref) || ref.length !== 2) return v;
    const out = new Array(ref[1]);
    for (let i = 0, at = at0 + ref[0]; i < ref[1]; i++) { const x = numbers[at + i]; out[i] = Number.isFinite(x) ? x : null; }
    return out;
  };
  chart.xs = read(chart.xs);
  for (const l of chart.lines || []) l.y = read(l.y);
  return chart;
}

export function makeBridge(m) {
  const has = (name) => !!m && typeof m['_ts_bridge_' + name] === 'function';
  const missing = (name) => ({ ok: false, errors: [{ code: 'unavailable', field: name, value: '', allowed: '', message: `${name}: this build of the app does not offer it` }] });

  // Copies a JS string into the app's memory for one call and frees it afterwards.
  function withString(text, fn) {
    const s = String(text);
    const size = m.lengthBytesUTF8(s) + 1;
    const ptr = m._malloc(size);
    try {
      m.stringToUTF8(s, ptr, size);
      return fn(ptr);
    } finally {
      m._free(ptr);
    }
  }
  function json(ptr) {
    if (!ptr) return null;
    const text = m.UTF8ToString(ptr);
    try { return JSON.parse(text); } catch { return null; }
  }
  // {ok, errors}, plus what some calls add: the values an edit moved (setParam), the notes of a loaded
  // config.json, what a link named (applyHash), a download's text, a chart.
  function result(ptr) {
    const r = json(ptr);
    if (!r || typeof r !== 'object') return { ok: true, errors: [] };
    const out = { ok: r.ok !== false, errors: Array.isArray(r.errors) ? r.errors : [] };
    if (Array.isArray(r.adjustments) && r.adjustments.length) out.adjustments = r.adjustments;
    if (Array.isArray(r.notes)) out.notes = r.notes;
    if (typeof r.pathGiven === 'boolean') { out.pathGiven = r.pathGiven; out.tour = Number(r.tour) || 0; }
    if (typeof r.text === 'string') out.text = r.text;
    if (r.chart && typeof r.chart === 'object') out.chart = typeof r.f64 === 'number' ? withNumbers(r.chart, r.f64) : r.chart;
    return out;
  }
  // A chart's per-point arrays come as {f64: [at, count]}: doubles at the address `base` in the app's memory
  // (valid until its next chart call), copied into plain arrays (readNumbers).
  function withNumbers(chart, base) {
    const heap = m.HEAPF64;
    if (!heap || base % 8 !== 0) return chart;
    return readNumbers(chart, heap, base / 8);
  }
  // {ok, errors} of an already parsed reply.
  function result0(r) { return { ok: r.ok !== false, errors: Array.isArray(r.errors) ? r.errors : [] }; }
  function call(name, ...args) {
    if (!has(name)) return missing(name);
    const f = m['_ts_bridge_' + name];
    return result(f(...args));
  }
  function read(name) { return has(name) ? json(m['_ts_bridge_' + name]()) : null; }
  function readText(name) { return has(name) ? m.UTF8ToString(m['_ts_bridge_' + name]()) : null; }

  return {
    has,
    state: () => read('state_json'),
    ledger: () => read('ledger_json'),
    catalog: () => read('catalog_json'),
    ledgerView: (tier, object) => (has('ledger_view_json')
      ? withString(tier || '', (t) => withString(object || '', (o) => json(m._ts_bridge_ledger_view_json(t, o))))
      : null),
    // A download exactly as the command line writes it: what = ledger | figures | card, format = csv | json.
    exportText: (what, format, tier = '', object = '') => (has('export')
      ? withString(what, (w) => withString(format, (f) => withString(tier, (t) => withString(object, (o) => result(m._ts_bridge_export(w, f, t, o))))))
      : missing('export')),
    // A fleet run's chart (the scenario's charts come from the worker: worker-client.mjs).
    chart: (name, options) => (has('chart')
      ? withString(name, (n) => withString(options, (o) => result(m._ts_bridge_chart(n, o))))
      : missing('chart')),
    // Applies a scenario's link keys (an import the worker read: its scenarioHash), keeping the path and view.
    applyScenario: (hash) => (has('apply_scenario') ? withString(hash, (p) => result(m._ts_bridge_apply_scenario(p))) : missing('apply_scenario')),
    // Opens a walkthrough step (-1: its first screen; 1 to N) on the entry it talks about, or playing its path.
    openTourStep: (tour, play = false) => call('open_tour_step', tour, play ? 1 : 0),
    // The page's view ("" or "chart-<key>") and the sweep chart's choice, for the share link.
    setView: (view, sweep) => (has('set_view')
      ? withString(view || '', (v) => withString(sweep || '', (w) => result(m._ts_bridge_set_view(v, w))))
      : missing('set_view')),
    // The Serve panel's settings ("concurrency:64,input:1024"), for the share link; state().serve spells them.
    setServe: (settings) => (has('set_serve') ? withString(settings || '', (p) => result(m._ts_bridge_set_serve(p))) : missing('set_serve')),
    // The Serve panel's replayed steps for the canvas (KV shares written and reserved, "0.1,…") and the step
    // on screen (-1: none).
    serveSteps: (written, reserved, step) => (has('serve_steps')
      ? withString(written || '', (w) => withString(reserved || '', (r) => result(m._ts_bridge_serve_steps(w, r, step | 0))))
      : missing('serve_steps')),
    // Pins the current scenario as A beside the one on screen (true), or ends the comparison (false).
    setCompare: (on) => call('set_compare', on ? 1 : 0),
    compare: () => read('compare_json'),
    // The figures named in `ids` (comma-separated), or all of them for ''.
    figuresView: (ids = '') => (has('figures_view_json') ? withString(ids, (p) => json(m._ts_bridge_figures_view_json(p))) : null),
    stats: () => read('stats_json'),
    layout: () => read('layout_json'),
    viewHash: () => readText('view_hash'),
    applyHash: (h) => (has('apply_hash') ? withString(h, (p) => result(m._ts_bridge_apply_hash(p))) : missing('apply_hash')),
    setPath: (k) => (has('set_path') ? withString(k, (p) => result(m._ts_bridge_set_path(p))) : missing('set_path')),
    setParam: (k, v) => (has('set_param')
      ? withString(k, (kp) => withString(v, (vp) => result(m._ts_bridge_set_param(kp, vp))))
      : missing('set_param')),
    seek: (i) => call('seek', i),
    step: (d) => call('step', d),
    setSpeed: (s) => call('set_speed', s),
    play: () => (has('play') ? (m._ts_bridge_play(), { ok: true, errors: [] }) : missing('play')),
    pause: () => (has('pause') ? (m._ts_bridge_pause(), { ok: true, errors: [] }) : missing('pause')),
    // Opens a canvas panel ("scenario", "modes", "card", "figures", "inspector", "help") with keyboard focus in it.
    openPanel: (key) => (has('open_panel') ? withString(key, (p) => result(m._ts_bridge_open_panel(p))) : missing('open_panel')),
    redraw: () => { if (has('request_redraw')) m._ts_bridge_request_redraw(); },
    // The page's views are built: the app's first frame may be drawn.
    pageBuilt: () => { if (has('page_built')) m._ts_bridge_page_built(); },
    // Tells the app which controls the page shows itself, so the canvas does not repeat them.
    hostControls: (playback, counters) => call('set_host_controls', playback ? 1 : 0, counters ? 1 : 0),
    // The fleet view's run, computed in the worker (worker-client.mjs): its views handed to the app (the
    // first of a run with newRun), where it is between them, its status, its results as the command line
    // prints them (`tierscope fleet --format json`, text), and cancel. Each answer: {ok, errors, fleet}.
    fleetAdopt: (view, sweep, newRun) => (has('fleet_adopt')
      ? withString(view || '', (v) => withString(sweep || '', (w) => { const r = json(m._ts_bridge_fleet_adopt(v, w, newRun ? 1 : 0)); return r ? { ...result0(r), fleet: r.fleet || null } : missing('fleet_adopt'); }))
      : missing('fleet_adopt')),
    fleetProgress: (progress, now) => {
      if (!has('fleet_progress')) return missing('fleet_progress');
      const r = json(m._ts_bridge_fleet_progress(Number(progress) || 0, Number(now) || 0));
      return r ? { ...result0(r), fleet: r.fleet || null } : missing('fleet_progress');
    },
    fleetStatus: () => read('fleet_status_json'),
    fleetJson: () => readText('fleet_json'),
    fleetCancel: () => (has('fleet_cancel') ? (m._ts_bridge_fleet_cancel(), { ok: true, errors: [] }) : missing('fleet_cancel')),
  };
}
