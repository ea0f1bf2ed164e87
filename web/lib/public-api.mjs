// window.tierscope: commands return {ok, errors} (each error {code, field, value, allowed, message}) and
// never throw; reads return the app's data, or null before it is ready. Arguments are checked here
// (lib/api.mjs) before they reach the app, which checks values again.
import { argError, fail, checkPath, checkStep, checkParam, checkSpeed, checkConfigText, checkConfigName, checkChart, checkFleetOptions } from './api.mjs';
import { MAX_TRACE_BYTES, fleetRecord, fleetStatus, serveRecord, serveStatus } from './panel-status.mjs';
import { MAX_CONFIG_BYTES } from './config-import.mjs';

export function createApi({ S, win, refresh, link, fleet = null, serve = null }) {
  const notReady = (what) => fail(argError('not-ready', what, '', 'after window.tierscope.ready resolves'));
  const b = () => S.bridge;

  function overridesOf(scenarioHash) {
    const out = {};
    for (const item of String(scenarioHash || '').split('&')) {
      const [k, v = ''] = item.split('=');
      if (k && k !== 'preset') out[k] = v;
    }
    return out;
  }

  // null until the page has applied its link (web/lib/init.mjs): before that the app holds its own first
  // view, which the link is about to change, and an answer from it would contradict the link.
  function state() {
    if (!S.ready || !S.linkApplied) return null;
    const s = b().state();
    if (!s) return null;
    return {
      preset: s.preset, presetLabel: s.presetLabel, layoutText: s.layoutText || '', overrides: overridesOf(s.scenarioHash), scenarioHash: s.scenarioHash, path: s.path, step: s.step,
      steps: s.steps, playing: !!s.playing, speed: s.speed, tModel: s.tModel, total: s.total, counters: s.counters,
      ledgerLength: s.ledgerLength, panels: s.panels, arch: s.arch, feasible: s.feasible !== false, hash: s.viewHash, view: s.view || '',
    };
  }

  function done(r) {
    refresh();
    const out = { ok: r.ok, errors: r.errors || [] };
    if (r.adjustments) out.adjustments = r.adjustments;
    if (r.notes) out.notes = r.notes;
    return out;
  }

  // The fleet panel, once its script has arrived: {view} or {failed: {ok: false, errors}} naming `what`.
  async function panel(what) {
    try {
      return { view: await fleet.get() };
    } catch (e) {
      const why = `the fleet panel's code did not arrive (${e && e.message ? e.message : e})`;
      return { failed: fail({ code: 'unavailable', field: what, value: '', allowed: '', message: `${what}: ${why}` }) };
    }
  }

  const pathKeys = () => (S.catalog ? S.catalog.paths.map((p) => p.key) : []);
  const parse = (text) => { try { return JSON.parse(text); } catch { return null; } };

  return {
    ready: S.readyPromise,
    version: '0.3.0',
    notReady,
    // Plays `path` from its start, or resumes the current path when no path is given.
    play(path) {
      if (!S.ready) return notReady('play');
      const bad = checkPath(path, pathKeys());
      if (bad) return fail(bad);
      if (path !== undefined) {
        const r = b().setPath(path);
        if (!r.ok) return done(r);
        b().seek(0);
      }
      return done(b().play());
    },
    pause() { return S.ready ? done(b().pause()) : notReady('pause'); },
    seek(step) {
      if (!S.ready) return notReady('seek');
      const s = b().state();
      const bad = checkStep(step, s ? s.steps : 0);
      return bad ? fail(bad) : done(b().seek(step));
    },
    stepBy(delta) { return S.ready ? done(b().step(delta)) : notReady('step'); },
    setParam(key, value) {
      if (!S.ready) return notReady('setParam');
      const bad = checkParam(key, value);
      return bad ? fail(bad) : done(b().setParam(key, String(value)));
    },
    setSpeed(speed) {
      if (!S.ready) return notReady('setSpeed');
      const bad = checkSpeed(speed);
      return bad ? fail(bad) : done(b().setSpeed(speed));
    },
    // Replaces the model by a config.json's: a promise of {ok, errors, notes}. The share link then carries the
    // inputs. `name` (optional): the file's name, for a config.json that does not name its model; `quant`
    // (optional): the hf_quant_config.json its publisher ships beside it. The file is read in the worker
    // (web/worker.js), over the scenario on screen when it is called.
    async loadConfig(text, name = '', quant = '') {
      if (!S.ready) return { ...notReady('loadConfig'), notes: [] };
      const bad = checkConfigText(text, MAX_CONFIG_BYTES) || checkConfigName(name) ||
        (quant === '' ? null : checkConfigText(quant, MAX_CONFIG_BYTES, 'quant'));
      if (bad) return { ...fail(bad), notes: [] };
      const s = b().state();
      const r = await S.work.readConfig(s ? s.scenarioHash : '', text, name, quant);
      if (!r.ok) return { ok: false, errors: r.errors, notes: r.notes };
      const applied = done(b().applyScenario(r.scenarioHash));
      return { ok: applied.ok, errors: applied.errors, notes: applied.ok ? r.notes : [] };
    },
    state,
    stats() {
      if (!S.ready) return null;
      // How the page module's deferred part came (read before the call below, which may itself need it):
      // state waiting|fetching|loaded|failed, by "idle" or "call N" (the first function that needed it).
      const deferred = { ...S.deferred };
      const s = b().stats();
      if (s) s.deferred = deferred;
      if (s && win.performance && win.performance.memory) s.jsHeapBytes = win.performance.memory.usedJSHeapSize;
      // The page's own work in milliseconds: a refresh after a change, a chart's recompute and redraw.
      if (s) s.page = S.timings.summary();
      return s;
    },
    layout: () => (S.ready ? b().layout() : null),
    link: () => link(),
    // Every figure, as `tierscope figures --format json` lists them.
    figures() {
      if (!S.ready) return null;
      const r = b().exportText('figures', 'json');
      const d = r.ok ? parse(r.text) : null;
      return d && Array.isArray(d.figures) ? d.figures : null;
    },
    // The current path's ledger exactly as the app serialises it (the CLI's `ledger --format json`).
    ledger: () => (S.ready ? b().ledger() : null),
    // The names and labels the page shows (paths, objects, endpoints, speeds, panels, error codes, …).
    catalog: () => (S.ready ? b().catalog() : null),
    // A promise of a chart's series, as `tierscope chart NAME --format json` prints it, or of {ok: false,
    // errors}. The scenario's charts are computed in the worker (web/worker.js), a fleet run's by the app.
    async chart(name, options) {
      if (!S.ready) return notReady('chart');
      const bad = checkChart(name, options, S.catalog ? S.catalog.charts : []);
      if (bad) return fail(bad);
      let text;
      try { text = options === undefined ? '{}' : JSON.stringify(options); } catch { return fail(argError('wrong-type', 'options', options, 'plain data (numbers, strings, arrays, objects)')); }
      const fleetCharts = ((S.catalog && S.catalog.fleetChartLabels) || []).map((c) => c.key);
      const s = b().state();
      const r = fleetCharts.includes(name) || !s ? b().chart(name, text)
        : await S.work.chart(s.scenarioHash, s.compare ? s.compare.hash : '', name, text).done;
      return r.ok && r.chart ? r.chart : { ok: false, errors: r.errors };
    },
    // The fleet view: opens it and starts a run of the current scenario (synthetic traffic, or a trace's
    // text), computed in the page's worker. A promise of {ok, errors}, settled once the run has started (the
    // fleet panel's script may still be arriving); a refused trace names its line.
    async runFleet(options) {
      if (!S.ready || !fleet) return notReady('runFleet');
      const bad = checkFleetOptions(options, MAX_TRACE_BYTES, ((S.catalog && S.catalog.fleetSweeps) || []).map((x) => x.key));
      if (bad) return fail(bad);
      const f = await panel('runFleet');
      if (!f.view) return f.failed;
      const o = options || {};
      if (S.state && S.state.view !== 'fleet') { const v = f.view.setOpen(true); if (!v.ok) return v; }
      const trace = typeof o.trace === 'string' && o.trace.length ? { name: o.traceName || 'trace', text: o.trace } : null;
      return f.view.start({ trace, sweep: o.sweep || '' });
    },
    async cancelFleet() {
      if (!S.ready || !fleet) return notReady('cancelFleet');
      const f = await panel('cancelFleet');
      return f.view ? f.view.cancel() : f.failed;
    },
    // The run's progress and the page's slices: {view, started, done, progress, tS, horizonS, mode, sweep,
    // statusText, trace, wallMs, slices: {count, events, p95Ms, maxMs, targetMs, budgetMs, list}}; null before
    // ready. Before the fleet panel has arrived, as it would answer before its first run.
    fleet() {
      if (!S.ready || !fleet) return null;
      const p = fleet.loaded();
      return p ? p.status() : fleetStatus(S, fleetRecord());
    },
    // The Serve panel: whether it is open or running, its settings, and the last replay's summary.
    serve() {
      if (!S.ready || !serve) return null;
      const p = serve.loaded();
      return p ? p.status() : serveStatus(S, serveRecord());
    },
    // The run's results as `tierscope fleet --format json` prints them (with the sweep once it ran), or null.
    fleetResults() {
      if (!S.ready) return null;
      const text = b().fleetJson();
      return text ? parse(text) : null;
    },
  };
}
