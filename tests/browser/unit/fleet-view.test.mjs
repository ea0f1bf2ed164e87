// Unit tests of the page's fleet view under node, with a stand-in document, a stand-in app and a stand-in
// worker: opening the view starts a run of the scenario on screen in the worker, whose views the app adopts
// slice after slice until done; the progress bar
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
import { CATALOG } from '../lib/catalog.mjs';

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
    // The worker's views, handed to the app (the stand-in's view is its run's numbers as JSON).
    fleetAdopt: (view, sweep, newRun) => {
      app.calls.push(['fleetAdopt', newRun]);
      const v = JSON.parse(view);
      Object.assign(app, { started: true, progress: v.progress, trace: v.trace, sweep, scenario: v.scenario, cancelled: false });
      app.slices++;
      return { ok: true, errors: [], fleet: app.fleet() };
    },
    fleetProgress: (progress) => { app.progress = progress; return { ok: true, errors: [], fleet: app.fleet() }; },
    fleetCancel: () => { app.calls.push(['fleetCancel']); app.started = false; app.cancelled = true; return { ok: true, errors: [] }; },
    fleetStatus: () => ({ started: app.started, done: app.started && app.progress >= 1, progress: app.progress, t_s: 0, horizon_s: 86400 }),
    state: () => S.state,
  };
  // A stand-in worker: a run answers in tasks of its own, a view a tenth of the run each, the last one with
  // the answer; a trace with a bad line is refused; a cancel settles the job at once.
  const jobs = new Map();
  let nextJob = 0;
  const tick = () => new Promise((r) => setTimeout(r, 0));
  S.work = {
    fleet(scenario, trace, sweep, onProgress) {
      app.calls.push(['fleet', trace.length, sweep]);
      const id = ++nextJob;
      let settle;
      const done = new Promise((r) => { settle = r; });
      const job = { settle, cancelled: false };
      jobs.set(id, job);
      if (trace.includes('bad')) {
        settle({ ok: false, errors: [{ code: 'bad-syntax', field: 'trace line 2', value: 'x', allowed: 'a JSON object', message: "trace line 2: 'x' is not allowed (bad-syntax); allowed: a JSON object" }] });
        return { id, done };
      }
      const sliceMs = { targetMs: 6, budgetMs: 8 };
      const view = (p) => JSON.stringify({ progress: p, trace, scenario });
      (async () => {
        await tick();
        if (job.cancelled) return;
        onProgress(0, { view: view(0), progress: 0, now: 0, slices: [], sliceMs });
        for (let k = 1; k <= 10; ++k) {
          await tick();
          if (job.cancelled) return;
          const p = k / 10;
          const update = { view: view(p), progress: p, now: p * 86400, slices: [{ asked: 256 * k, events: 256 * k, ms: 2 + (k % 3) }], sliceMs };
          if (k < 10) onProgress(p, update);
          else settle({ ok: true, errors: [], done: true, progress: 1, update });
        }
      })();
      return { id, done };
    },
    cancel(id) {
      const job = jobs.get(id);
      if (!job) return false;
      job.cancelled = true;
      job.settle({ ok: false, cancelled: true, errors: [] });
      return true;
    },
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

// Lets the stand-in worker's tasks run until the page has no job in it.
async function settled(t) {
  for (let i = 0; i < 200 && t.view.F.job; i++) await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
}

test('opening the fleet view starts a run of the scenario on screen in the worker, its views adopted until it is done', async () => {
  const t = setup();
  t.$('open-fleet').click();
  assert.deepEqual(t.app.calls[0], ['setView', 'fleet']);
  assert.deepEqual(t.app.calls[1], ['fleet', 0, ''], 'synthetic traffic, no sweep');
  await settled(t);
  const adopted = t.app.calls.filter((c) => c[0] === 'fleetAdopt');
  assert.equal(adopted.length, 11, 'the first view and one a tenth of the run');
  assert.deepEqual(adopted.map((c) => c[1]), [true, ...Array(10).fill(false)], 'only the first starts the clock again');
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
  await settled(t);
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleet').length, 1);
});

test('a scenario that moves on starts a new run; cancel stops it and nothing restarts until asked', async () => {
  const t = setup();
  t.$('open-fleet').click();
  await new Promise((r) => setTimeout(r, 0));
  t.scenarioHash.value = 'preset=v41-flash-8xb200&arrivals=3';
  t.refresh();
  const runs = () => t.app.calls.filter((c) => c[0] === 'fleet');
  assert.equal(runs().length, 2, 'the run follows the scenario');
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  t.$('fleet-cancel').disabled = false;
  t.$('fleet-cancel').click();
  assert.ok(t.app.calls.some((c) => c[0] === 'fleetCancel'));
  assert.equal(t.app.started, false);
  assert.equal(t.view.F.job, null, 'the job in the worker is dropped');
  assert.equal(t.$('fleet-status').textContent, 'Cancelled: nothing was kept. Run again to simulate.');
  assert.equal(t.$('fleet-progress').hidden, true);
  assert.ok(t.live.includes('Fleet run cancelled.'));
  const adopted = t.app.calls.filter((c) => c[0] === 'fleetAdopt').length;
  await settled(t);
  assert.equal(t.app.calls.filter((c) => c[0] === 'fleetAdopt').length, adopted, 'nothing of a cancelled run reaches the app');
  t.refresh();
  assert.equal(runs().length, 2, 'a cancelled run is not restarted behind the reader\'s back');
  t.$('fleet-run').click();
  assert.equal(runs().length, 3, 'Run again starts it');
  // The sweep menu starts a run with the sweep.
  t.$('fleet-sweep').value = 'pool';
  t.$('fleet-sweep').dispatch('change', { target: t.$('fleet-sweep') });
  assert.deepEqual(runs().pop(), ['fleet', 0, 'pool']);
  await settled(t);
});

test('a trace file is replayed; a refused line or an oversized file is a notice and the run stays as it was', async () => {
  const t = setup();
  t.$('open-fleet').click();
  await settled(t);
  const good = { name: 'conversation.jsonl', size: 40, text: async () => '{"timestamp": 0, "input_length": 9, "output_length": 1, "hash_ids": [1]}\n' };
  const r = await t.view.loadTrace(good);
  assert.equal(r.ok, true);
  await settled(t);
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
  assert.equal(t.app.calls.length, calls, 'an oversized file never reaches the worker');
  // A drop on the panel is a trace, and does not reach the page's config.json drop.
  let stopped = false;
  const ev = t.$('fleet-panel').dispatch('drop', { dataTransfer: { files: [good], types: ['Files'] }, stopPropagation() { stopped = true; } });
  assert.equal(ev.defaultPrevented, true);
  assert.equal(stopped, true);
  await settled(t);
  t.$('fleet-synthetic').click();
  assert.deepEqual(t.app.calls.filter((c) => c[0] === 'fleet').pop(), ['fleet', 0, '']);
  await settled(t);
});

test('words and numbers: the trace notice quotes the app, slice statistics stay numbers, options are checked', () => {
  const n = traceNotice([{ code: 'bad-syntax', field: 'trace line 9', value: 'x', allowed: 'y', message: 'trace line 9: output_length is missing' }], 'a.jsonl', { 'bad-syntax': 'cannot be read' });
  assert.equal(n.items[0].text, 'trace line 9: output_length is missing');
  assert.match(n.summary, /a\.jsonl/);
  assert.equal(traceNotice([], 'a.jsonl', {}), null);
  const s = sliceStats([{ events: 10, ms: 1 }, { events: 20, ms: 7 }, { events: 30, ms: 3 }]);
  assert.deepEqual(s, { count: 3, events: 60, p95Ms: 7, maxMs: 7 });
  const sweeps = CATALOG.fleetSweeps.map((x) => x.key);  // the app's (catalog().fleetSweeps)
  assert.equal(checkFleetOptions(undefined, 10, sweeps), null);
  for (const sweep of sweeps) assert.equal(checkFleetOptions({ sweep }, 10, sweeps), null);
  const hbm = checkFleetOptions({ sweep: 'hbm' }, 10, sweeps);
  assert.equal(hbm.code, 'bad-enum');
  assert.equal(hbm.allowed, "'', pool, dram or ssd");
  assert.equal(checkFleetOptions({ trace: 5 }, 10).code, 'wrong-type');
  assert.equal(checkFleetOptions({ trace: 'x'.repeat(11) }, 10).code, 'too-large');
  assert.equal(checkFleetOptions({ colour: 'red' }, 10).code, 'unknown-key');
  assert.equal(checkFleetOptions({ traceName: '<b>' }, 10).code, 'wrong-type');
  assert.equal(checkFleetOptions([], 10).code, 'wrong-type');
});
