// Calls into the app: every export the page calls as one table (EXPORTS), strings in and out of WebAssembly
// memory, JSON parsed once.

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

// Every call of the page into the app's module, by the method the page calls: the export (_ts_bridge_<name>,
// src/platform/web_bridge.cpp), how each argument crosses, and what comes back. A new export is one row here
// and one TS_EXPORT there (tests/browser/unit/bridge-table.test.mjs holds the two to each other).
// Arguments: s text; o text, '' when absent; i a number as given (the export takes an int or a double);
// f a number, 0 when not one; b a flag, as 1 or 0.
// Answers: json the parsed JSON (null if none); text the string; result {ok, errors, …} (see result());
// fleet a result with the fleet view's state; done nothing, read as {ok: true, errors: []}; none nothing.
export const EXPORTS = {
  state: ['state_json', '', 'json'],
  ledger: ['ledger_json', '', 'json'],
  catalog: ['catalog_json', '', 'json'],
  // The ledger panel's rows, narrowed by an endpoint key and an object key ('': any).
  ledgerView: ['ledger_view_json', 'oo', 'json'],
  // A download exactly as the command line writes it: what = ledger | figures | card | …, format = csv | json.
  exportText: ['export', 'ssoo', 'result'],
  // A fleet run's chart (the scenario's charts come from the worker: worker-client.mjs).
  chart: ['chart', 'ss', 'result'],
  // Applies a scenario's link keys (an import the worker read: its scenarioHash), keeping the path and view.
  applyScenario: ['apply_scenario', 's', 'result'],
  // Opens a walkthrough step (-1: its first screen; 1 to N) on the entry it talks about, or playing its path.
  openTourStep: ['open_tour_step', 'ib', 'result'],
  // The page's view ("" or "chart-<key>") and the sweep chart's choice, for the share link.
  setView: ['set_view', 'oo', 'result'],
  // The Serve panel's settings ("concurrency:64,input:1024"), for the share link; state().serve spells them.
  setServe: ['set_serve', 'o', 'result'],
  // The Serve panel's replayed steps for the canvas (KV shares written and reserved, "0.1,…") and the step
  // on screen (-1: none).
  serveSteps: ['serve_steps', 'ooi', 'result'],
  // Pins the current scenario as A beside the one on screen (true), or ends the comparison (false).
  setCompare: ['set_compare', 'b', 'result'],
  compare: ['compare_json', '', 'json'],
  // The figures named in `ids` (comma-separated), or all of them for ''.
  figuresView: ['figures_view_json', 'o', 'json'],
  stats: ['stats_json', '', 'json'],
  layout: ['layout_json', '', 'json'],
  viewHash: ['view_hash', '', 'text'],
  applyHash: ['apply_hash', 's', 'result'],
  setPath: ['set_path', 's', 'result'],
  setParam: ['set_param', 'ss', 'result'],
  seek: ['seek', 'i', 'result'],
  step: ['step', 'i', 'result'],
  setSpeed: ['set_speed', 'i', 'result'],
  play: ['play', '', 'done'],
  pause: ['pause', '', 'done'],
  // Opens a canvas panel ("scenario", "modes", "card", "figures", "inspector", "help") with keyboard focus in it.
  openPanel: ['open_panel', 's', 'result'],
  redraw: ['request_redraw', '', 'none'],
  // The page's views are built: the app's first frame may be drawn.
  pageBuilt: ['page_built', '', 'none'],
  // Tells the app which controls the page shows itself (playback, counters), so the canvas does not repeat them.
  hostControls: ['set_host_controls', 'bb', 'result'],
  // The fleet view's run, computed in the worker (worker-client.mjs): its views handed to the app (the first
  // of a run with newRun), where it is between them, its status, its results as the command line prints them
  // (`tierscope fleet --format json`, text), and cancel. fleetAdopt's and fleetProgress's answer: {ok, errors, fleet}.
  fleetAdopt: ['fleet_adopt', 'oob', 'fleet'],
  fleetProgress: ['fleet_progress', 'ff', 'fleet'],
  fleetStatus: ['fleet_status_json', '', 'json'],
  fleetJson: ['fleet_json', '', 'text'],
  fleetCancel: ['fleet_cancel', '', 'done'],
};

export function makeBridge(m) {
  // Copies JS strings into the app's memory for one call and frees them afterwards.
  function withStrings(texts, fn) {
    const ptrs = texts.map((t) => {
      const s = String(t), size = m.lengthBytesUTF8(s) + 1, ptr = m._malloc(size);
      m.stringToUTF8(s, ptr, size);
      return ptr;
    });
    try {
      return fn(ptrs);
    } finally {
      for (const p of ptrs) m._free(p);
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
  const ANSWERS = {
    json,
    text: (ptr) => m.UTF8ToString(ptr),
    result,
    fleet: (ptr) => {
      const r = json(ptr);
      if (!r) return { ok: false, errors: [], fleet: null };
      return { ok: r.ok !== false, errors: Array.isArray(r.errors) ? r.errors : [], fleet: r.fleet || null };
    },
    done: () => ({ ok: true, errors: [] }),
    none: () => undefined,
  };
  const ARGS = { s: (v) => v, o: (v) => v || '', i: (v) => v, f: (v) => Number(v) || 0, b: (v) => (v ? 1 : 0) };

  // One method per row: its arguments converted, text copied in for the call, the answer read.
  function method([name, kinds, answer]) {
    const fn = '_ts_bridge_' + name, read = ANSWERS[answer];
    const texts = [...kinds].map((k, i) => (k === 's' || k === 'o' ? i : -1)).filter((i) => i >= 0);
    return (...given) => {
      const args = [...kinds].map((k, i) => ARGS[k](given[i]));
      if (!texts.length) return read(m[fn](...args));
      return withStrings(texts.map((i) => args[i]), (ptrs) => {
        texts.forEach((at, j) => { args[at] = ptrs[j]; });
        return read(m[fn](...args));
      });
    };
  }
  return Object.fromEntries(Object.entries(EXPORTS).map(([key, row]) => [key, method(row)]));
}
