// Unit tests of the page's views under node, with a stand-in document and a stand-in app bridge: each view
// shows the app's text as it comes (nothing formatted or named in the page), downloads the app's bytes,
// and keeps its memory in the one page state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWith, fakeWindow } from './fake-dom.mjs';
import { makeEl, makeById } from '../../../web/lib/dom.mjs';
import { createPageState, createTimings } from '../../../web/lib/page-state.mjs';
import { createFigures } from '../../../web/lib/figures.mjs';
import { CATALOG, PATH_KEYS } from '../lib/catalog.mjs';
import { createNotices } from '../../../web/lib/notices-view.mjs';
import { createLedgerView, exportName } from '../../../web/lib/ledger-view.mjs';
import { createHeader } from '../../../web/lib/header-view.mjs';
import { createTables } from '../../../web/lib/tables-view.mjs';
import { createWalkthrough } from '../../../web/lib/walkthrough-view.mjs';
import { STEPS } from '../../../web/lib/tour.mjs';
import { createApi } from '../../../web/lib/public-api.mjs';
import { createConfigImport } from '../../../web/lib/config-import.mjs';

const IDS = ['notices', 'announce', 'ledger-path', 'ledger-list:ol', 'ledger-empty', 'ledger-csv:button', 'ledger-json:button', 'ledger-link:button',
  'ledger-tier:select', 'ledger-object:select', 'c-global:dd', 'c-swa:dd', 'c-engram:dd', 'c-policy:dd', 'subtitle', 'subtitle-model', 'subtitle-layout', 'status', 'pb-play:button',
  'pb-prev:button', 'pb-next:button', 'pb-scrub:input', 'pb-pos', 'pb-speed:select', 'path-list:ul', 'entry-now', 'canvas-frame', 'figures-table:table',
  'figures-count', 'figures-details:details', 'card-table:table', 'card-count', 'card-details:details', 'figures-csv:button', 'figures-json:button', 'card-csv:button', 'card-json:button',
  'tour', 'tour-count', 'tour-title', 'tour-body', 'tour-look', 'tour-dots:ol', 'tour-back:button', 'tour-next:button', 'tour-play:button',
  'config-result', 'config-dialog:dialog', 'config-text:textarea', 'config-file:input', 'config-load:button', 'open-config:button', 'ledger-compare'];

const LEDGER = {
  path: 'decode', label: 'Decode step', preset: 'v41-flash-8xb200', note: '', steps: 2,
  options: { tiers: [{ key: 'hbm', label: 'GPU HBM' }, { key: 'sram', label: 'GPU SRAM' }], objects: [{ key: 'global-kv', label: 'Global KV (FP4)' }] },
  entries: [
    { index: 0, step: 'weights', phase: '', at: '0 s', move: 'GPU HBM → GPU SRAM', bytes: '12.48 GB', object: 'MoE weights', objectKey: 'moe-weights', duration: '1.6 ms', provenance: 'derived', sentence: 'Weights stream.', formula: 'a = b', sources: 's' },
    { index: 1, step: 'kv', phase: '', at: '1.6 ms', move: 'GPU HBM → GPU SRAM', bytes: '116.7 MB', object: 'Global KV (FP4)', objectKey: 'global-kv', duration: '20 µs', provenance: 'derived', sentence: 'KV is read.', formula: 'c = d', sources: '' },
  ],
};

function setup({ ready = true } = {}) {
  const doc = pageWith(IDS);
  for (const t of ['figures-table', 'card-table']) doc.getElementById(t).append(doc.createElement('thead'), doc.createElement('tbody'));
  for (const c of ['c-global', 'c-swa', 'c-engram', 'c-policy']) { const dl = doc.createElement('div'); const dt = doc.createElement('dt'); const dd = doc.getElementById(c); dd.remove(); dl.append(dt, dd); doc.body.append(dl); }
  const win = fakeWindow(doc);
  const S = createPageState();
  const calls = [];
  S.bridge = {
    ledgerView: (tier, object) => { calls.push(['ledgerView', tier, object]); return tier === 'attic' ? { ok: false, errors: [] } : { ...LEDGER, entries: LEDGER.entries.filter((e) => !object || e.objectKey === object) }; },
    exportText: (what, format, tier = '', object = '') => { calls.push(['export', what, format, tier, object]); return { ok: true, errors: [], text: `${what}.${format}:${tier}:${object}` }; },
    pause: () => calls.push(['pause']), seek: (i) => calls.push(['seek', i]), play: () => calls.push(['play']), setPath: (p) => calls.push(['setPath', p]),
    // The app opens a walkthrough step in one operation: its path, on screen as state().tour and .path.
    openTourStep: (n, play) => { calls.push(['openTourStep', n, play]); S.state = { ...(S.state || {}), tour: n, path: PATH_KEYS[n - 1] || PATH_KEYS[0], view: '' }; return { ok: true, errors: [] }; },
    step: () => ({ ok: true, errors: [] }), setSpeed: () => ({ ok: true, errors: [] }),
    applyScenario: (hash) => { calls.push(['applyScenario', hash]); return { ok: true, errors: [] }; },
    chart: (name, options) => { calls.push(['bridge.chart', name]); return { ok: true, errors: [], chart: { chart: name, options: JSON.parse(options), from: 'app' } }; },
    state: () => S.state, stats: () => ({}),
  };
  // The worker's jobs (web/lib/worker-client.mjs), answered as the worker module answers them.
  S.work = {
    readConfig: async (scenario, text, name) => {
      calls.push(['worker.config', scenario, name]);
      return text.includes('llama') ? { ok: true, errors: [], notes: ['KV cache: bf16 (assumed)'], scenarioHash: 'preset=v41-flash-8xb200&model=llama' }
        : { ok: false, errors: [{ code: 'bad-syntax', field: 'config', value: 'x', allowed: 'JSON', message: "config: 'x' is not allowed (bad-syntax); allowed: JSON" }], notes: [] };
    },
    chart: (scenario, pinned, name, options) => { calls.push(['worker.chart', scenario, pinned, name]); return { id: 1, done: Promise.resolve({ ok: true, errors: [], chart: { chart: name, options: JSON.parse(options) } }) }; },
    cancel: () => false,
  };
  S.ready = ready;
  S.state = { path: 'decode', scenarioHash: 'preset=v41-flash-8xb200', step: 1, steps: 2, speed: 1, playing: false, pathLabel: 'Decode step', presetLabel: 'DeepSeek V4.1 Flash · 8×B200', preset: 'v41-flash-8xb200', layoutText: '8×B200 · two TP4 instances',
    counterText: { globalKvTokens: '131,072', globalKvBytes: '116.7 MB', swaKvTokens: '128', swaKvBytes: '3.1 MB', engramRows: '6,144' }, tModelText: '1.6 ms', totalText: '1.62 ms',
    feasible: true, infeasible: '', infeasibleErrors: [], entrySentence: 'KV is read.', adjustmentsSeq: 0, adjustments: [], viewHash: 'preset=v41-flash-8xb200&path=decode&step=1' };
  S.catalog = { errorCodes: { 'bad-syntax': 'cannot be read' }, charts: ['roofline', 'sweep', 'breakdown', 'fleet-hits'], fleetChartLabels: [{ key: 'fleet-hits', label: 'Hits' }], paths: [{ key: 'decode', label: 'Decode step', summary: '' }], decodeTerms: CATALOG.decodeTerms,
    speeds: [{ value: 0.25, label: '¼×' }, { value: 1, label: '1×' }], counters: [{ key: 'global', label: 'Global KV', scope: 'per GPU', applies: true }, { key: 'swa', label: 'SWA KV', scope: 'per GPU', applies: true },
      { key: 'engram', label: 'Engram rows', scope: 'so far', applies: true }, { key: 'policy', label: 'CSA2 policy', scope: '', applies: true }] };
  const $ = makeById(doc), el = makeEl(doc);
  const notices = createNotices({ el, box: $('notices'), win });
  const downloads = [];
  const download = (name, text, type) => downloads.push({ name, text, type });
  let refreshed = 0;
  const refresh = () => { refreshed++; };
  return { doc, win, S, $, el, notices, download, downloads, calls, refresh, refreshes: () => refreshed };
}

test('page state: one object per page, nothing shared between two', () => {
  const a = createPageState(), b = createPageState({ embed: true });
  a.filter.tier = 'hbm';
  assert.equal(b.filter.tier, '');
  assert.equal(b.embed, true);
});

test('ledger view: rows are the app\'s text, filters ask the app, downloads are the app\'s bytes', () => {
  const t = setup();
  const view = createLedgerView({ ...t, copyLink: () => {} });
  view.wire();
  view.sync();
  const rows = t.$('ledger-list').querySelectorAll('button.entry');
  assert.equal(rows.length, 2);
  assert.match(rows[0].textContent, /GPU HBM → GPU SRAM.*12\.48 GB/);
  assert.equal(t.$('ledger-path').textContent, '· Decode step');
  assert.equal(rows[1].getAttribute('aria-current'), 'step', 'the current entry is marked');
  assert.equal(t.$('ledger-list').querySelector('.detail .formula').textContent, 'c = d');
  t.$('ledger-object').value = 'global-kv';
  t.$('ledger-object').dispatch('change', { target: { value: 'global-kv' } });
  assert.deepEqual(t.calls.filter((c) => c[0] === 'ledgerView').pop(), ['ledgerView', '', 'global-kv']);
  assert.equal(t.$('ledger-list').querySelectorAll('button.entry').length, 1);
  t.$('ledger-csv').click();
  assert.deepEqual(t.downloads.pop(), { name: 'tierscope-decode-v41-flash-8xb200-global-kv.csv', text: 'ledger.csv::global-kv', type: 'text/csv' });
  // A click on a row on screen seeks to its entry.
  const left = t.$('ledger-list').querySelector('button.entry');
  left.click();
  assert.deepEqual(t.calls.slice(-2), [['pause'], ['seek', Number(left.dataset.index)]]);
  assert.notEqual(left.dataset.index, undefined);
  assert.equal(exportName({ path: 'decode', preset: 'p' }, { tier: 'hbm', object: '' }, 'json'), 'tierscope-decode-p-hbm.json');
});

test('ledger view: a changed value rewrites the rows\' numbers in place, keeping the rows and the keyboard focus', () => {
  const t = setup();
  const view = createLedgerView({ ...t, copyLink: () => {} });
  view.wire();
  view.sync();
  const before = t.$('ledger-list').querySelectorAll('button.entry');
  before[0].focus();
  // The same path at another batch: new numbers, same steps.
  t.S.bridge.ledgerView = () => ({ ...LEDGER, entries: LEDGER.entries.map((e) => ({ ...e, bytes: e.bytes.replace(/^\d+/, '99'), formula: e.formula + ' × 2' })) });
  t.S.state = { ...t.S.state, scenarioHash: 'preset=v41-flash-8xb200&batch=64' };
  view.sync();
  const after = t.$('ledger-list').querySelectorAll('button.entry');
  assert.equal(after[0], before[0], 'the same row element');
  assert.equal(t.doc.activeElement, before[0], 'focus stays on it');
  assert.match(after[0].textContent, /99\.48 GB/);
  assert.match(after[1].textContent, /99\.7 MB/);
  assert.equal(t.$('ledger-list').querySelector('.detail .formula').textContent, 'c = d × 2', 'the open entry\'s formula follows');
  // Another path: the rows are made afresh.
  t.S.bridge.ledgerView = () => ({ ...LEDGER, path: 'prefill', entries: [{ ...LEDGER.entries[0], step: 'prefill-read' }] });
  t.S.state = { ...t.S.state, path: 'prefill' };
  view.sync();
  const fresh = t.$('ledger-list').querySelectorAll('button.entry');
  assert.equal(fresh.length, 1);
  assert.equal(fresh[0].dataset.step, 'prefill-read');
});

test('ledger view: the rows the build prerendered are adopted, not rebuilt, when the app first syncs', () => {
  const t = setup();
  // The build's pass writes the rows (another view over the same page, as tools/prerender runs the module).
  const build = createLedgerView({ ...t, copyLink: () => {} });
  build.sync();
  const prerendered = t.$('ledger-list').querySelectorAll('li');
  // The app's own view then starts on that markup, at another batch: same steps, new numbers.
  t.S.ledgerKey = null;
  t.S.bridge.ledgerView = () => ({ ...LEDGER, entries: LEDGER.entries.map((e) => ({ ...e, bytes: e.bytes.replace(/^\d+/, '77') })) });
  const page = createLedgerView({ ...t, copyLink: () => {} });
  page.sync();
  const rows = t.$('ledger-list').querySelectorAll('li');
  assert.equal(rows.length, prerendered.length);
  rows.forEach((li, i) => assert.equal(li, prerendered[i], `row ${i} is the prerendered element`));
  assert.match(rows[0].textContent, /77\.48 GB/, 'its numbers are the app\'s');
});

test('ledger view: an empty path shows the app\'s note (why it has no steps)', () => {
  const t = setup();
  t.S.bridge.ledgerView = () => ({ ...LEDGER, steps: 0, entries: [], note: 'This setup cannot run: weights do not fit.' });
  createLedgerView({ ...t, copyLink: () => {} }).sync();
  assert.equal(t.$('ledger-empty').textContent, 'This setup cannot run: weights do not fit.');
  assert.equal(t.$('ledger-empty').hidden, false);
  assert.equal(t.$('ledger-csv').disabled, true);
});

test('header: counters, position and the caption are the app\'s text; a setup that cannot run stays on screen', () => {
  const t = setup();
  const h = createHeader(t);
  h.renderCatalog();
  h.render();
  assert.equal(t.$('c-global').textContent, '131,072 116.7 MB per GPU');
  assert.equal(t.$('c-engram').textContent, '6,144 so far');
  // The step as the link and state().step count it (from 0), with the range.
  assert.equal(t.$('pb-pos').textContent, 'step 1 of steps 0–1 · 1.6 ms of 1.62 ms');
  assert.equal(t.$('entry-now').textContent, 'KV is read.');
  assert.equal(t.$('subtitle-model').textContent, 'DeepSeek V4.1 Flash');
  assert.equal(t.$('subtitle-layout').textContent, '8×B200 · two TP4 instances');
  assert.deepEqual(t.$('pb-speed').options.map((o) => o.textContent), ['¼×', '1×']);
  t.S.state = { ...t.S.state, feasible: false, infeasible: 'weights need more than the HBM', infeasibleErrors: [{ field: 'gpus', value: '1', allowed: 'at least 4' }] };
  h.render();
  const n = t.$('notices').querySelector('.notice.infeasible');
  assert.ok(n, 'a notice says the setup cannot run');
  assert.match(n.textContent, /cannot run: weights need more than the HBM/);
  t.win.runTimers();
  assert.equal(n.classList.contains('folded'), false, 'it does not fold while the cause lasts');
  t.S.state = { ...t.S.state, feasible: true, infeasible: '' };
  h.render();
  assert.equal(t.$('notices').querySelector('.notice.infeasible'), null, 'gone when the setup runs again');
  // With the model's fixes: one button each, applied through setParam.
  const calls = [];
  t.S.bridge.setParam = (k, v) => { calls.push([k, v]); return { ok: true, errors: [] }; };
  t.S.state = { ...t.S.state, feasible: false, infeasible: 'weights need more than the HBM', infeasibleErrors: [],
    fixes: [{ field: 'gpus', value: '4', label: 'use 4 GPUs', why: 'the fewest GPUs that hold it' }] };
  h.render();
  const b = t.$('notices').querySelector('.notice.infeasible .notice-fix');
  assert.equal(b.textContent, 'Use 4 GPUs');
  b.click();
  assert.deepEqual(calls, [['gpus', '4']]);
});

test('notices: one per source, folding after a while; messages can stay until dismissed', () => {
  const t = setup();
  t.notices.show({ kind: 'refused', summary: 'This link had 2 settings…', items: [{ field: 'ctx', code: 'out-of-range', text: 'a', allowed: '1 to 9' }, { field: 'tour', code: 'x', text: 'b', allowed: '' }] });
  const n = t.$('notices').querySelector('.notice');
  assert.deepEqual(n.querySelectorAll('[data-field]').map((x) => x.dataset.field), ['ctx', 'tour']);
  t.win.runTimers();
  assert.equal(n.classList.contains('folded'), true);
  assert.equal(n.querySelector('.notice-summary').textContent, '2 settings refused: ctx, tour');
  const m = t.notices.message('The graphics context was lost.', { kind: 'warning', key: 'gl', stay: true });
  t.win.runTimers();
  assert.equal(m.parentElement, t.$('notices'));
  t.notices.message('The graphics context is back.', { key: 'gl' });
  assert.equal(t.$('notices').querySelectorAll('.notice[data-key="gl"]').length, 1, 'the same key replaces');
});

test('notices do not pile up: a newer one of a source replaces the older, three at most, and a scenario\'s notice goes once the scenario changes', () => {
  const t = setup();
  const h = createHeader(t);
  h.renderCatalog();
  const box = t.$('notices');
  const refused = (field) => ({ kind: 'refused', summary: `1 value was refused: ${field}.`, items: [{ field, code: 'out-of-range', text: field, allowed: '' }] });
  // Two refused calls: the second replaces the first.
  t.notices.show(refused('ctx'));
  t.notices.show(refused('batch'));
  assert.deepEqual(box.querySelectorAll('.notice.refused').map((n) => n.querySelector('[data-field]').dataset.field), ['batch']);
  // Many sources at once: three show.
  for (const key of ['a', 'b', 'c', 'd']) t.notices.show(refused(key), { key });
  assert.equal(box.querySelectorAll('.notice').length, 3);
  // What an edit moved applies to the scenario it was made on: the next change of scenario takes it away.
  box.replaceChildren();
  t.S.state = { ...t.S.state, adjustmentsSeq: 1, adjustments: [{ field: 'dp', from: '1', to: '2', why: 'tp × dp = gpus' }] };
  h.render();
  assert.equal(box.querySelectorAll('.notice.adjusted').length, 1, 'a link\'s moves are said on the first state too');
  h.render();
  assert.equal(box.querySelectorAll('.notice.adjusted').length, 1, 'it stays while the scenario does');
  t.S.state = { ...t.S.state, scenarioHash: t.S.state.scenarioHash + '&ctx=4096' };
  h.render();
  assert.equal(box.querySelectorAll('.notice.adjusted').length, 0, 'gone once the scenario changed');
});

test('tables: the figures table lists the app\'s figures; downloads are the app\'s bytes', () => {
  const t = setup();
  t.S.figures = createFigures(() => [{ id: 'a.b', label: 'Weights', text: '12.48 GB', formula: 'x', provenance: 'derived', feasible: true },
    { id: 'c.d', label: 'Step time', text: 'not computed', formula: 'y', provenance: 'derived', feasible: false }]);
  const tables = createTables(t);
  tables.wire();
  tables.sync();
  assert.equal(t.$('figures-table').querySelectorAll('tr').length, 0, 'a closed table waits');
  t.$('figures-details').open = true;
  tables.sync();
  const rows = t.$('figures-table').querySelectorAll('tr');
  assert.equal(rows.length, 3);  // the column heads, then one row per figure
  assert.match(rows[0].textContent, /Figure.*Value.*Formula.*Source/);
  assert.match(rows[2].textContent, /Step time.*not computed/);
  assert.equal(rows[2].classList.contains('not-computed'), true);
  tables.save('figures', 'json');
  assert.deepEqual(t.downloads.pop(), { name: 'tierscope-figures-v41-flash-8xb200.json', text: 'figures.json::', type: 'application/json' });
});

test('walkthrough: placeholders before the app, the app\'s numbers after; a step opens its path and entry', () => {
  const t = setup({ ready: false });
  t.S.state = null;
  t.S.catalog = null;
  t.S.earlyTour = 0;  // step one, as a link names it (a page without a link starts on the first screen, before it)
  const w = createWalkthrough({ ...t, announce: () => {}, writeHash: () => {} });
  w.render();
  assert.ok(t.$('tour-body').querySelectorAll('.fig.pending').length > 0);
  assert.equal(t.$('tour-play').disabled, true);
  w.renderPaths();
  assert.equal(t.$('path-list').querySelectorAll('button.path').length, PATH_KEYS.length, 'a waiting row per path, so the list does not grow');
  assert.match(t.$('path-list').querySelector('button').getAttribute('aria-label'), /appear when the model has loaded/);
  t.S.ready = true;
  t.S.catalog = { paths: CATALOG.paths, decodeTerms: CATALOG.decodeTerms };  // read with the app's first state
  const asked = [];
  t.S.figures = createFigures((ids) => { asked.push(ids); return [{ id: 'prefill.flop', text: '4.19 TFLOP', label: 'x', formula: 'f' }].filter((f) => !ids.length || ids.includes(f.id)); });
  w.render();
  assert.equal(asked.length, 1, 'one read for the step\'s numbers');
  // This step's numbers and the decode step's terms (the dots name every step, and the decode step's title
  // names its largest term), nothing else.
  const decodeTerms = CATALOG.decodeTerms.flatMap((t) => t.figures);
  const own = asked[0].filter((id) => !decodeTerms.includes(id));
  assert.ok(own.length > 0 && own.length < 10 && own.includes('prefill.flop'), 'only the numbers this step shows');
  assert.deepEqual(asked[0].filter((id) => decodeTerms.includes(id)), decodeTerms, 'and the terms the dots\' titles choose from');
  assert.ok(t.$('tour-body').querySelectorAll('.fig').some((x) => x.textContent === '4.19 TFLOP'));
  assert.equal(w.current(), 0, 'before the app has a state, the step the link names');
  const before = t.calls.length;
  w.go(1);
  assert.deepEqual(t.calls.slice(before), [['openTourStep', 2, false]], 'one app operation opens the step, its path and its entry');
  assert.equal(w.current(), 1, "the step on screen is the app's");
  assert.equal(t.$('tour-count').textContent, `· 2 of ${STEPS.length}`);
  w.go(0, { play: true });
  assert.deepEqual(t.calls[t.calls.length - 1], ['openTourStep', 1, true], 'Play asks the app to play the step');
  assert.equal(w.current(), 0);
});

test('window.tierscope: refuses before ready and on bad arguments; loadConfig and chart go to the worker, a fleet chart to the app', async () => {
  const t = setup({ ready: false });
  const api = createApi({ S: t.S, win: t.win, refresh: t.refresh, link: () => 'l' });
  assert.equal((await api.loadConfig('{}')).errors[0].code, 'not-ready');
  assert.deepEqual((await api.loadConfig('{}')).notes, []);
  assert.equal((await api.chart('roofline')).errors[0].code, 'not-ready');
  t.S.ready = true;
  assert.equal((await api.loadConfig(42)).errors[0].code, 'wrong-type');
  assert.equal((await api.loadConfig('')).errors[0].code, 'out-of-range');
  assert.equal((await api.loadConfig('x'.repeat(300000))).errors[0].code, 'too-large');
  assert.equal(t.calls.length, 0, 'refused before the worker or the app hears of it');
  assert.deepEqual(await api.loadConfig('{"model_type":"llama"}', 'llama.json'), { ok: true, errors: [], notes: ['KV cache: bf16 (assumed)'] });
  assert.deepEqual(t.calls, [['worker.config', 'preset=v41-flash-8xb200', 'llama.json'], ['applyScenario', 'preset=v41-flash-8xb200&model=llama']],
    'read over the scenario on screen, then the worker\'s link keys applied');
  t.calls.length = 0;
  assert.equal((await api.loadConfig('x')).ok, false);
  assert.deepEqual(t.calls, [['worker.config', 'preset=v41-flash-8xb200', '']], 'a refused file changes nothing');
  t.calls.length = 0;
  assert.equal((await api.chart('pie')).errors[0].code, 'bad-enum');
  assert.equal((await api.chart('sweep', [1])).errors[0].field, 'options');
  const cyclic = {}; cyclic.self = cyclic;
  assert.equal((await api.chart('sweep', cyclic)).errors[0].code, 'wrong-type');
  assert.deepEqual(await api.chart('sweep', { x: 'ctx' }), { chart: 'sweep', options: { x: 'ctx' } });
  t.S.state = { ...t.S.state, compare: { label: 'A', hash: 'preset=v41-flash-8xb200&ctx=4096' } };
  await api.chart('roofline');
  assert.deepEqual((await api.chart('fleet-hits')).from, 'app');
  assert.deepEqual(t.calls, [['worker.chart', 'preset=v41-flash-8xb200', '', 'sweep'], ['worker.chart', 'preset=v41-flash-8xb200', 'preset=v41-flash-8xb200&ctx=4096', 'roofline'], ['bridge.chart', 'fleet-hits']]);
});

test('config import: notes and refusals become notices and the dialog says what happened', async () => {
  const t = setup();
  const api = createApi({ S: t.S, win: t.win, refresh: t.refresh, link: () => 'l' });
  const c = createConfigImport({ ...t, api });
  const loading = c.load('{"model_type":"llama"}');
  assert.equal(t.$('config-result').textContent, 'Reading…', 'the dialog says the file is being read');
  assert.equal((await loading).ok, true);
  assert.match(t.$('notices').querySelector('.notice.config').textContent, /KV cache: bf16/);
  assert.equal((await c.load('x')).ok, false);
  assert.match(t.$('config-result').textContent, /config: 'x' is not allowed/);
  assert.match(t.$('notices').querySelector('.notice.refused').textContent, /config.*cannot be read/);
});

test('figures: a view reads only the figures it shows, each once per scenario; the table reads them all once', () => {
  const list = [{ id: 'a', text: '1' }, { id: 'b', text: '2' }, { id: 'c', text: '3' }];
  const reads = [];
  const figs = createFigures((ids) => { reads.push(ids.join(',')); return list.filter((f) => !ids.length || ids.includes(f.id)); });
  assert.equal(figs.pick(['a', 'b']).get('b').text, '2');
  figs.pick(['b', 'a', 'nope']);
  assert.equal(figs.get('nope'), undefined);
  assert.deepEqual(reads, ['a,b', 'nope'], 'what was read is not read again; an unknown id is asked once');
  assert.equal(figs.get('c'), undefined, 'not read, so not known');
  assert.deepEqual([...figs.all().keys()], ['a', 'b', 'c']);
  figs.pick(['c']);
  assert.deepEqual(reads, ['a,b', 'nope', ''], 'with all read, a pick reads nothing');
  list[0] = { id: 'a', text: '10' };
  figs.invalidate();
  assert.equal(figs.pick(['a']).get('a').text, '10', 'a new scenario is read afresh');
});

test('timings: the page keeps the last durations of each kind and summarises them, never a growing list', () => {
  const t = createTimings(4);
  for (const ms of [9, 1, 2, 3, 4]) t.add('chart', ms);  // the 9 has been overwritten
  const s = t.summary();
  assert.deepEqual(s.chart, { count: 5, p50: 3, p95: 4, max: 4 });
  assert.equal(s.refresh, undefined);
  t.clear();
  assert.deepEqual(t.summary(), {});
});

test('header: a counter the model has no part for is hidden, not shown as zero', () => {
  const t = setup();
  const h = createHeader(t);
  t.S.catalog = { ...t.S.catalog, counters: [{ key: 'global', label: 'KV cache', scope: 'per GPU', applies: true }, { key: 'swa', label: 'SWA KV', scope: 'per GPU', applies: false },
    { key: 'engram', label: 'Engram rows', scope: 'so far', applies: false }, { key: 'policy', label: 'KV policy', scope: '', applies: true }] };
  h.renderCatalog();
  h.render();
  assert.equal(t.$('c-swa').parentElement.hidden, true);
  assert.equal(t.$('c-engram').parentElement.hidden, true);
  assert.equal(t.$('c-global').parentElement.hidden, false);
  assert.equal(t.$('c-global').parentElement.querySelector('dt').textContent, 'KV cache');
});

test('ledger view: both times of a row are labelled (start and duration)', () => {
  const t = setup();
  createLedgerView({ ...t, copyLink: () => {} }).sync();
  const rows = t.$('ledger-list').querySelectorAll('button.entry');
  // Visible words, not only words for screen readers.
  const seen = (n) => n.textContent.replace(n.querySelector('.sr-only')?.textContent || '', '');
  assert.equal(seen(rows[1].querySelector('.t')), 'at 1.6 ms');
  assert.equal(seen(rows[1].querySelector('.dur')), 'takes 20 µs');
});

test('figures table and walkthrough chips: each value says what it counts', async () => {
  const { scopeWords, figureWithScope } = await import('../../../web/lib/figures.mjs');
  assert.equal(figureWithScope({ text: '74.64 GB', unit: 'B', scope: 'per GPU' }), '74.64 GB per GPU');
  assert.equal(figureWithScope({ text: '202.8 GB', unit: 'B', scope: 'whole model' }), '202.8 GB (whole model)');
  assert.equal(figureWithScope({ text: '890 B/token', unit: 'B/token', scope: 'per token' }), '890 B/token', 'the unit says it already');
  assert.equal(scopeWords({ text: 'not computed', feasible: false, scope: 'per step' }), '');
  // Inside a sentence, each "per X" the words after the number say already is left out (the walkthrough's
  // decode step read "69.99 GB per GPU per step on each GPU per step" and "the 46.97 ms per step step").
  const { chipText } = await import('../../../web/lib/figures.mjs');
  assert.equal(chipText({ text: '69.99 GB', unit: 'B', scope: 'per GPU per step' }, ' on each GPU per step, '), '69.99 GB');
  assert.equal(chipText({ text: '46.97 ms', unit: 's', scope: 'per step' }, ' step; kernels held'), '46.97 ms');
  assert.equal(chipText({ text: '44.16 GB', unit: 'B', scope: 'per GPU per step' }, ' per step at this context'), '44.16 GB per GPU');
  assert.equal(chipText({ text: '24.58 ms', unit: 's', scope: 'per step' }, ' of the '), '24.58 ms per step');
  assert.equal(chipText({ text: '202.8 GB', unit: 'B', scope: 'whole model' }, ' for'), '202.8 GB (whole model)');
  const t = setup();
  const figs = [{ id: 'hbm.sessions', label: 'Sessions', text: '273 sessions', unit: 'sessions', scope: 'per instance', formula: 'f', provenance: 'derived' },
    { id: 'engram.table_bytes', label: 'Tables', text: '202.8 GB', unit: 'B', scope: 'whole model', formula: 'g', provenance: 'third-party' }];
  t.S.figures = createFigures(() => figs);
  t.$('figures-details').open = true;
  createTables(t).renderFigures();
  const cells = t.$('figures-table').querySelectorAll('tbody td.num');
  assert.equal(cells[0].textContent, '273 sessions per instance');
  assert.equal(cells[1].textContent, '202.8 GB (whole model)');
  assert.equal(cells[0].querySelector('.scope').textContent, ' per instance');
});
