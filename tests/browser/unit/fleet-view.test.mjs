// Unit tests of the page's fleet view under node, with a stand-in document and a stand-in app: opening the
// view starts a run of the scenario on screen, which runs slice after slice until done; the progress bar
// and its live line say the app's words (the live line only at each tenth and at the end); cancel stops it
// and nothing restarts until asked; a refused or oversized trace is a notice naming the line and leaves the
// run as it was; the counters are the app's labels and text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWith, fakeWindow } from './fake-dom.mjs';
import { makeEl, makeById } from '../../../web/lib/dom.mjs';
import { createPageState } from '../../../web/lib/page-state.mjs';
import { createNotices } from '../../../web/lib/notices-view.mjs';
import { createFleetView, traceNotice, sliceStats, MAX_TRACE_BYTES } from '../../../web/lib/fleet-view.mjs';
import { checkFleetOptions } from '../../../web/lib/api.mjs';

const IDS = ['notices', 'announce', 'open-fleet:button', 'fleet-panel:section', 'fleet-for', 'fleet-progress:progress', 'fleet-status', 'fleet-cancel:button',
  'fleet-run:button', 'fleet-live', 'fleet-counters:dl', 'fleet-total', 'fleet-overload', 'fleet-mode', 'fleet-trace:input', 'fleet-synthetic:button', 'fleet-sweep:select'];

// A stand-in app: a run advances a tenth a slice; its state carries the words the page shows.
function fakeApp() {
  const app = { view: '', started: false, progress: 0, trace: '', sweep: '', scenario: '', calls: [], slices: 0, cancelled: false };
  app.fleet = () => ({
    started: app.started, done: app.started && app.progress >= 1, running: app.started && app.progress < 1, progress: app.progress,
    statusText: !app.started ? (app.cancelled ? 'Cancelled: nothing was kept. Run again to simulate.' : 'No run yet.') : app.progress >= 1 ? 'Done: 24 hours simulated.' : `Simulating · ${Math.round(app.progress * 100)} %`,
    mode: app.started ? (app.trace ? 'trace' : 'synthetic') : '', sweep: app.sweep, scenario: app.scenario, version: app.slices,
    countersFor: 'hour 3', counters: [{ key: 'prefix', label: 'Prefix hits', text: '83.4 %' }, { key: 'ttft95', label: 'TTFT p95', text: '310 ms' }],
    totalText: app.progress >= 1 ? 'total: 1,000 sessions' : '', label: 'A day of traffic', posText: 'hour 3 of 24',
  });
  return app;
}

function setup() {
  const doc = pageWith(IDS);
  const win = fakeWindow(doc);
  const S = createPageState();
  const app = fakeApp();
  S.ready = true;
  S.catalog = { errorCodes: { 'bad-syntax': 'cannot be read', 'too-large': 'is too long' } };
  const scenarioHash = { value: 'preset=v41-flash-8xb200' };
  S.bridge = {
    setView: (v) => { app.calls.push(['setView', v]); app.view = v; return { ok: true, errors: [] }; },
    redraw: () => {},
    fleetStart: (trace, sweep) => {
      app.calls.push(['fleetStart', trace.length, sweep]);
      if (trace.includes('bad')) {
        return { ok: false, errors: [{ code: 'bad-syntax', field: 'trace line 2', value: 'x', allowed: 'a JSON object', message: "trace line 2: 'x' is not allowed (bad-syntax); allowed: a JSON object" }] };
      }
      Object.assign(app, { started: true, progress: 0, trace, sweep, scenario: scenarioHash.value, cancelled: false });
      return { ok: true, errors: [], fleet: app.fleet() };
    },
    // The run sizes its own slices: the page only asks for the next one.
    fleetAdvance: (...args) => {
      app.calls.push(['fleetAdvance', ...args]);
      if (!app.started) return { ok: true, errors: [], asked: 0, events: 0, ms: 0, targetMs: 6, budgetMs: 8, fleet: app.fleet() };
      app.progress = Math.min(1, Math.round((app.progress + 0.1) * 10) / 10);
      app.slices++;
      return { ok: true, errors: [], asked: 256 * app.slices, events: 256 * app.slices, ms: 2 + (app.slices % 3), targetMs: 6, budgetMs: 8, fleet: app.fleet() };
    },
    fleetCancel: () => { app.calls.push(['fleetCancel']); app.started = false; app.cancelled = true; return { ok: true, errors: [] }; },
    fleetStatus: () => ({ started: app.started, done: app.started && app.progress >= 1, progress: app.progress, t_s: 0, horizon_s: 86400 }),
    state: () => S.state,
  };
  const $ = makeById(doc), el = makeEl(doc);
  const notices = createNotices({ el, box: $('notices'), win });
  const said = [];
  let view = null;
  const refresh = () => {
    S.state = { view: app.view, scenarioHash: scenarioHash.value, fleet: app.fleet() };
    view.sync();
  };
  view = createFleetView({ S, $, el, win, notices, refresh, announce: (t) => said.push(t) });
  view.wire();
  S.state = { view: '', scenarioHash: scenarioHash.value, fleet: app.fleet() };
  // The live line's history: what a screen reader hears during a run.
  const live = [];
  const liveNode = $('fleet-live');
  const set = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(liveNode), 'textContent').set;
  Object.defineProperty(liveNode, 'textContent', { get() { return live[live.length - 1] || ''; }, set(v) { live.push(v); set.call(liveNode, v); } });
  return { doc, win, S, app, $, view, notices, said, live, scenarioHash, refresh };
}

test('opening the fleet view starts a run of the scenario on screen, one slice a frame until it is done', () => {
  const t = setup();
  t.$('open-fleet').click();
  assert.deepEqual(t.app.calls[0], ['setView', 'fleet']);
  assert.deepEqual(t.app.calls[1], ['fleetStart', 0, ''], 'synthetic traffic, no sweep');
  const advances = t.app.calls.filter((c) => c[0] === 'fleetAdvance');
  assert.equal(advances.length, 10, 'slice after slice until the run is done');
  assert.ok(advances.every((c) => c.length === 1), 'the page asks for the next slice; the run sizes it');
  const stats = t.view.status().slices;
  assert.equal(stats.targetMs, 6, "the slices' target is the run's");
  assert.equal(stats.budgetMs, 8, "the slices' budget is the run's");
  assert.ok(stats.targetMs < stats.budgetMs, 'each slice is sized for its target, within the budget');
  assert.equal(stats.count, 10);
  assert.equal(t.$('fleet-panel').hidden, false);
  assert.equal(t.$('open-fleet').getAttribute('aria-pressed'), 'true');
  // The progress bar and its words are the app's.
  assert.equal(t.$('fleet-progress').value, 100);
  assert.equal(t.$('fleet-progress').getAttribute('aria-valuetext'), 'Done: 24 hours simulated.');
  assert.equal(t.$('fleet-status').textContent, 'Done: 24 hours simulated.');
  assert.equal(t.$('fleet-cancel').disabled, true, 'nothing to cancel once done');
  // The live line spoke at most at each tenth and at the end, not at every slice.
  assert.ok(t.live.length <= 12, JSON.stringify(t.live));
  assert.equal(t.live[t.live.length - 1], 'Done: 24 hours simulated.');
  // The counters are the app's labels and text.
  assert.match(t.$('fleet-counters').textContent, /Prefix hits83\.4 %TTFT p95310 ms/);
  assert.equal(t.$('fleet-for').textContent, '· hour 3');
  assert.equal(t.$('fleet-total').textContent, 'total: 1,000 sessions');
  // The page's record of the slices, for the tests and the benchmark.
  const st = t.view.status();
  assert.equal(st.slices.count, 10);
  assert.equal(st.slices.events, 256 * 55);
  assert.equal(st.done, true);
  // Nothing starts again while the scenario stays the same.
  t.refresh();
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleetStart').length, 1);
});

test('a scenario that moves on starts a new run; cancel stops it and nothing restarts until asked', () => {
  const t = setup();
  t.$('open-fleet').click();
  t.scenarioHash.value = 'preset=v41-flash-8xb200&arrivals=3';
  t.refresh();
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleetStart').length, 2, 'the run follows the scenario');
  t.$('fleet-cancel').disabled = false;
  t.$('fleet-cancel').click();
  assert.ok(t.app.calls.some((c) => c[0] === 'fleetCancel'));
  assert.equal(t.app.started, false);
  assert.equal(t.$('fleet-status').textContent, 'Cancelled: nothing was kept. Run again to simulate.');
  assert.equal(t.$('fleet-progress').hidden, true);
  assert.ok(t.live.includes('Fleet run cancelled.'));
  t.refresh();
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleetStart').length, 2, 'a cancelled run is not restarted behind the reader\'s back');
  t.$('fleet-run').click();
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleetStart').length, 3, 'Run again starts it');
  // The sweep menu starts a run with the sweep.
  t.$('fleet-sweep').value = 'pool';
  t.$('fleet-sweep').dispatch('change', { target: t.$('fleet-sweep') });
  assert.deepEqual(t.app.calls.filter((c) => c[0] === 'fleetStart').pop(), ['fleetStart', 0, 'pool']);
});

test('a trace file is replayed; a refused line or an oversized file is a notice and the run stays as it was', async () => {
  const t = setup();
  t.$('open-fleet').click();
  const good = { name: 'conversation.jsonl', size: 40, text: async () => '{"timestamp": 0, "input_length": 9, "output_length": 1, "hash_ids": [1]}\n' };
  const r = await t.view.loadTrace(good);
  assert.equal(r.ok, true);
  assert.equal(t.app.trace.length > 0, true);
  assert.equal(t.$('fleet-mode').textContent, 'Replaying conversation.jsonl.');
  assert.equal(t.$('fleet-synthetic').hidden, false, 'a way back to synthetic traffic');
  const kept = t.app.trace;
  const bad = { name: 'broken.jsonl', size: 40, text: async () => '{"timestamp": 0}\nbad\n' };
  const b = await t.view.loadTrace(bad);
  assert.equal(b.ok, false);
  assert.equal(b.errors[0].field, 'trace line 2');
  const notice = t.$('notices').textContent;
  assert.match(notice, /broken\.jsonl could not be loaded/);
  assert.match(notice, /trace line 2/);
  assert.equal(t.app.trace, kept, 'the run on screen is unchanged');
  const calls = t.app.calls.length;
  const huge = { name: 'huge.jsonl', size: MAX_TRACE_BYTES + 1, text: async () => { throw new Error('never read'); } };
  const h = await t.view.loadTrace(huge);
  assert.equal(h.ok, false);
  assert.equal(h.errors[0].code, 'too-large');
  assert.equal(t.app.calls.length, calls, 'an oversized file never reaches the app');
  // A drop on the panel is a trace, and does not reach the page's config.json drop.
  let stopped = false;
  const ev = t.$('fleet-panel').dispatch('drop', { dataTransfer: { files: [good], types: ['Files'] }, stopPropagation() { stopped = true; } });
  assert.equal(ev.defaultPrevented, true);
  assert.equal(stopped, true);
  t.$('fleet-synthetic').click();
  assert.deepEqual(t.app.calls.filter((c) => c[0] === 'fleetStart').pop(), ['fleetStart', 0, '']);
});

test('words and numbers: the trace notice quotes the app, slice statistics stay numbers, options are checked', () => {
  const n = traceNotice([{ code: 'bad-syntax', field: 'trace line 9', value: 'x', allowed: 'y', message: 'trace line 9: output_length is missing' }], 'a.jsonl', { 'bad-syntax': 'cannot be read' });
  assert.equal(n.items[0].text, 'trace line 9: output_length is missing');
  assert.match(n.summary, /a\.jsonl/);
  assert.equal(traceNotice([], 'a.jsonl', {}), null);
  const s = sliceStats([{ events: 10, ms: 1 }, { events: 20, ms: 7 }, { events: 30, ms: 3 }]);
  assert.deepEqual(s, { count: 3, events: 60, p95Ms: 7, maxMs: 7 });
  assert.equal(checkFleetOptions(undefined, 10), null);
  assert.equal(checkFleetOptions({ sweep: 'pool' }, 10), null);
  assert.equal(checkFleetOptions({ sweep: 'hbm' }, 10).code, 'bad-enum');
  assert.equal(checkFleetOptions({ trace: 5 }, 10).code, 'wrong-type');
  assert.equal(checkFleetOptions({ trace: 'x'.repeat(11) }, 10).code, 'too-large');
  assert.equal(checkFleetOptions({ colour: 'red' }, 10).code, 'unknown-key');
  assert.equal(checkFleetOptions({ traceName: '<b>' }, 10).code, 'wrong-type');
  assert.equal(checkFleetOptions([], 10).code, 'wrong-type');
});
