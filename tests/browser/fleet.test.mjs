// The fleet view in the page: its summary equals `tierscope fleet --format json` for the same link (a
// sweep's too), its ledger lists the hours as the command line prints them and its charts are the CLI's; a
// simulated day at the node's session capacity runs in slices that keep to the slicing contract (sizes
// from the last slice's time, at most 2^20 events; times are reported, never asserted); progress shows
// and cancel stops; the view works from the keyboard alone; a trace file replays and a bad line is named
// with nothing half-loaded; the canvas's bands fill with the run's occupancy and idle once it is done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser, settled, ROOT } from './lib/browser.mjs';
import { CLI, skipWithoutCli } from './lib/catalog.mjs';
import { sameChart } from './lib/same-chart.mjs';

const noCli = skipWithoutCli();
const FIXTURES = path.join(ROOT, 'tests/fixtures/fleet');
const env = useBrowser();

function cli(args) { return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 }); }

// Waits for the page's fleet run to end (a day at capacity takes a few seconds in a headless browser).
async function runDone(page, timeout = 120000) {
  await page.waitForFunction(() => { const f = window.tierscope.fleet(); return f && f.started && f.done; }, null, { timeout, polling: 100 });
}

// The slicing rule of sim::next_slice_events, from the last slice's events and milliseconds.
function nextSlice(events, ms, target) {
  let next = 256;
  if (events > 0 && ms > 0 && target > 0) next = events * Math.min(4, target / ms);
  else if (events > 0) next = events * 4;
  return Math.floor(Math.min(1048576, Math.max(256, next)));
}

test('the page\'s fleet summary, hourly ledger and charts equal the CLI\'s for the same link', { skip: noCli }, async () => {
  const link = '#preset=v41-flash-8xb200&arrivals=3&seed=5&hours=2&view=fleet';
  const { page, errors } = await openApp(env.browser.context, env.site.url + link);
  await runDone(page);
  const hash = new URL(await page.evaluate(() => window.tierscope.link())).hash;
  assert.match(hash, /view=fleet/);
  assert.match(hash, /seed=5/);
  const inPage = await page.evaluate(() => window.tierscope.fleetResults());
  const fromCli = JSON.parse(cli(['fleet', '--hash', hash, '--format', 'json']));
  assert.deepEqual(inPage, fromCli, 'the simulator is deterministic across machines: the JSON is equal');
  // The ledger panel lists each hour as `tierscope fleet` prints it.
  const lines = cli(['fleet', '--hash', hash]).split('\n').filter((l) => /^hour \d+ \(/.test(l));
  assert.equal(lines.length, 2);
  const rows = await page.$$eval('#ledger-list .sentence', (n) => n.map((x) => x.textContent));
  assert.deepEqual(rows, lines);
  assert.match(await page.textContent('#ledger-path'), /hour by hour/);
  // The downloads are the CLI's bytes.
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#ledger-csv')]);
  assert.equal(fs.readFileSync(await d.path(), 'utf8'), cli(['fleet', '--hash', hash, '--format', 'csv']));
  // The counters and the caption say the hour on screen in the app's words.
  const st = await page.evaluate(() => window.tierscope.state());
  assert.equal(st.view, 'fleet');
  assert.equal(st.steps, 2);
  assert.equal(await page.textContent('#entry-now'), lines[st.step]);
  assert.match(await page.textContent('#fleet-counters'), /Prefix hits.*%.*TTFT p95/);
  // Charts of the run: the CLI's series, within the last place.
  for (const kind of ['fleet-occupancy', 'fleet-hits']) {
    sameChart(await page.evaluate((k) => window.tierscope.chart(k), kind), JSON.parse(cli(['chart', kind, '--hash', hash, '--format', 'json'])), kind);
  }
  const noSweep = await page.evaluate(() => window.tierscope.chart('fleet-sweep'));
  assert.equal(noSweep.ok, false);
  assert.equal(noSweep.errors[0].field, 'sweep');
  assert.ok((await page.evaluate(() => window.tierscope.catalog().charts)).includes('fleet-occupancy'));
  // With a sweep, the run's JSON carries it as `--sweep pool` prints it, and the sweep chart follows.
  await page.evaluate(() => window.tierscope.setParam('hours', 0.5));
  const r = await page.evaluate(() => window.tierscope.runFleet({ sweep: 'pool' }));
  assert.equal(r.ok, true);
  await runDone(page);
  const hash2 = new URL(await page.evaluate(() => window.tierscope.link())).hash;
  assert.deepEqual(await page.evaluate(() => window.tierscope.fleetResults()), JSON.parse(cli(['fleet', '--hash', hash2, '--sweep', 'pool', '--format', 'json'])));
  sameChart(await page.evaluate(() => window.tierscope.chart('fleet-sweep')), JSON.parse(cli(['chart', 'fleet-sweep', '--hash', hash2, '--sweep', 'pool', '--format', 'json'])), 'fleet-sweep');
  // Bad calls are refused by name.
  const bad = await page.evaluate(() => Promise.all([window.tierscope.runFleet({ sweep: 'hbm' }), window.tierscope.runFleet('x'), window.tierscope.chart('fleet-hits', { points: 3 })]));
  assert.deepEqual(bad.map((b) => b.errors[0].field), ['sweep', 'options', 'points']);
  // Reopening the link reproduces the run.
  const again = await page.context().newPage();
  await again.goto(env.site.url + hash2);
  await again.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await runDone(again);
  assert.deepEqual(await again.evaluate(() => window.tierscope.fleetResults()), JSON.parse(cli(['fleet', '--hash', hash2, '--format', 'json'])));
  await again.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a day at the node\'s session capacity runs in slices that keep to the slicing contract', async () => {
  // 2.84 sessions/s keeps hbm.sessions_per_node sessions in the system (docs/fleet.md); 24 simulated hours.
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&arrivals=2.84&view=fleet');
  await runDone(page, 240000);
  const f = await page.evaluate(() => window.tierscope.fleet());
  const results = await page.evaluate(() => window.tierscope.fleetResults());
  assert.equal(results.horizon_s, 86400);
  const slices = f.slices.list;
  // Sized for 6 ms, within the 8 ms a slice may hold a frame up.
  assert.equal(f.slices.targetMs, 6);
  assert.equal(f.slices.budgetMs, 8);
  // Every event was run in a slice the page asked for, one per animation frame.
  assert.equal(slices.reduce((a, s) => a + s.events, 0), results.events);
  // The first slice is the smallest; each next one is sized from the last one's events and measured time.
  assert.equal(slices[0].asked, 256);
  for (let i = 1; i < slices.length; ++i) {
    const want = nextSlice(slices[i - 1].events, slices[i - 1].ms, f.slices.targetMs);
    assert.equal(slices[i].asked, want, `slice ${i}: ${JSON.stringify(slices[i - 1])} → ${slices[i].asked}`);
    assert.ok(slices[i].events <= slices[i].asked);
    assert.ok(slices[i].asked <= 1048576);
  }
  const stats = await page.evaluate(() => window.tierscope.stats());
  // Reported, never asserted: the machine is shared and headless.
  console.log(`# fleet day at capacity: ${results.events} events in ${slices.length} slices, ${(f.wallMs / 1000).toFixed(2)} s wall; ` +
    `slice p95 ${f.slices.p95Ms.toFixed(2)} ms, max ${f.slices.maxMs.toFixed(2)} ms; WASM heap ${stats.wasmHeapBytes} B`);
  // Once done and paused, nothing is drawn.
  await settled(page);
  const a = (await page.evaluate(() => window.tierscope.stats())).framesDrawn;
  await page.waitForTimeout(300);
  assert.equal((await page.evaluate(() => window.tierscope.stats())).framesDrawn, a, 'idle: no frames');
  assert.deepEqual(errors, []);
  await page.close();
});

test('progress shows while the run computes; cancel stops it, and Run again starts it', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&view=fleet');
  await page.waitForFunction(() => { const f = window.tierscope.fleet(); return f && f.started && f.progress > 0.02 && !f.done; }, null, { timeout: 60000, polling: 20 });
  assert.equal(await page.isVisible('#fleet-progress'), true);
  assert.ok(Number(await page.getAttribute('#fleet-progress', 'value')) > 0);
  assert.match(await page.getAttribute('#fleet-progress', 'aria-valuetext'), /Simulating hour \d+ of 24/);
  assert.match(await page.textContent('#fleet-live'), /Simulating hour/);
  assert.equal(await page.isEnabled('#fleet-cancel'), true);
  await page.click('#fleet-cancel');
  const f = await page.evaluate(() => window.tierscope.fleet());
  assert.equal(f.started, false);
  assert.equal(await page.textContent('#fleet-live'), 'Fleet run cancelled.');
  assert.match(await page.textContent('#fleet-status'), /Cancelled/);
  // Nothing runs after a cancel: no slices, and the page idles.
  const n = f.slices.count;
  await page.waitForTimeout(300);
  assert.equal((await page.evaluate(() => window.tierscope.fleet())).slices.count, n);
  assert.equal(await page.evaluate(() => window.tierscope.fleetResults()), null);
  await page.click('#fleet-run');
  await page.waitForFunction(() => window.tierscope.fleet().progress > 0, null, { timeout: 30000 });
  assert.equal((await page.evaluate(() => window.tierscope.cancelFleet())).ok, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a workload no node could serve, or a setup that cannot run, is named once and nothing runs', async () => {
  for (const [link, field] of [['#preset=v41-flash-8xb200&arrivals=100000&view=fleet', 'arrivals'], ['#preset=v41-flash-8xb200&gpus=1&view=fleet', null]]) {
    const { page, errors } = await openApp(env.browser.context, env.site.url + link);
    await page.waitForFunction(() => /could not start/.test(document.getElementById('notices').textContent), null, { timeout: 30000 });
    const notice = await page.textContent('#notices');
    if (field) assert.match(notice, new RegExp(field));
    await page.waitForTimeout(300);
    const f = await page.evaluate(() => window.tierscope.fleet());
    assert.equal(f.started, false, link);
    assert.equal(f.slices.count, 0, 'no slice ran');
    assert.equal(await page.evaluate(() => window.tierscope.fleetResults()), null);
    // Tried once: the page does not retry in a loop, and it idles.
    await settled(page);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('keyboard only: the fleet view opens from the header\'s button, the canvas keys move its clock, the ledger seeks hours', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&hours=3');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  let reached = false;
  for (let i = 0; i < 60 && !reached; ++i) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement && document.activeElement.id === 'open-fleet');
  }
  assert.ok(reached, 'Tab reaches the fleet view\'s button');
  await page.keyboard.press('Enter');
  // The view opens once the app has handled the key (a call into the module's deferred part may come first).
  await page.waitForFunction(() => document.getElementById('open-fleet').getAttribute('aria-pressed') === 'true', null, { timeout: 10000 });
  assert.match(await page.evaluate(() => location.hash), /view=fleet/);
  await runDone(page);
  // The canvas: Home, → and End move the fleet clock by hours; Space plays the day.
  await page.focus('#canvas');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.tierscope.state().step === 0);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.tierscope.state().step === 1);
  assert.match(await page.textContent('#pb-pos'), /hour 2 of 3/);
  assert.match(await page.textContent('#entry-now'), /^hour 2 \(01:00–02:00\): /);
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.tierscope.state().step === 2);
  // At the last hour the clock reads that hour, counted as the ledger counts it (it said "hour 2 of 3 ·
  // 03:00 of 03:00").
  await page.waitForFunction(() => /^hour 3 of 3 · 02:00–03:00$/.test(document.getElementById('pb-pos').textContent));
  assert.match(await page.textContent('#status'), /hour 3 of 3$/);
  assert.match(await page.textContent('#fleet-for'), /hour 3 \(02:00–03:00\)/);
  assert.match(await page.textContent('#ledger-list button.entry[data-index="2"]'), /hour 3/);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.tierscope.state().playing === true);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.tierscope.state().playing === false);
  // The ledger's rows are buttons: Enter on one seeks its hour.
  const row = page.locator('#ledger-list button.entry[data-index="0"]');
  await row.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().step === 0);
  // The trace input, the sweep menu and Run again are in the tab order.
  for (const id of ['fleet-run', 'fleet-trace', 'fleet-sweep']) {
    assert.equal(await page.evaluate((x) => { const n = document.getElementById(x); return n.tabIndex >= 0 && !n.disabled && !n.hidden; }, id), true, id);
  }
  // Leaving: a path from the animations list goes back to the schematic's animations.
  await page.focus('#path-list button[data-path="decode"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().view === '');
  assert.equal(await page.isHidden('#fleet-panel'), true);
  assert.equal(await page.getAttribute('#open-fleet', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a trace file replays; a bad line is named and nothing of it is loaded', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&hours=1&view=fleet');
  await runDone(page);
  const file = path.join(FIXTURES, 'mooncake-conversation-head.jsonl');
  await page.setInputFiles('#fleet-trace', file);
  await page.waitForFunction(() => { const f = window.tierscope.fleet(); return f.mode === 'trace' && f.done; }, null, { timeout: 60000 });
  assert.match(await page.textContent('#fleet-mode'), /mooncake-conversation-head\.jsonl/);
  const hash = new URL(await page.evaluate(() => window.tierscope.link())).hash;
  const replay = await page.evaluate(() => window.tierscope.fleetResults());
  assert.deepEqual(replay, JSON.parse(cli(['fleet', '--hash', hash, '--trace', file, '--format', 'json'])));
  // A file with a bad line: a notice naming the line; the run on screen is the trace's still.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-trace-'));
  const broken = path.join(dir, 'broken.jsonl');
  fs.writeFileSync(broken, fs.readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n') + '\n{"timestamp": 1, "input_length": 512}\n');
  await page.setInputFiles('#fleet-trace', broken);
  await page.waitForFunction(() => /broken\.jsonl/.test(document.getElementById('notices').textContent));
  const notice = await page.textContent('#notices');
  assert.match(notice, /trace line 6/);
  assert.deepEqual(await page.evaluate(() => window.tierscope.fleetResults()), replay, 'nothing half-loaded');
  // From a script: the same refusal by name.
  const r = await page.evaluate(() => window.tierscope.runFleet({ trace: '{"timestamp": 0}\n', traceName: 'x.jsonl' }));
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].field, 'trace line 1');
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the canvas\'s bands fill with the run\'s occupancy at the fleet clock; no move is in flight', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&hours=4&arrivals=3&view=fleet');
  await runDone(page);
  await page.evaluate(() => window.tierscope.seek(0));
  await settled(page);
  const early = await page.evaluate(() => window.tierscope.layout());
  await page.evaluate(() => window.tierscope.seek(3));
  await settled(page);
  const late = await page.evaluate(() => window.tierscope.layout());
  const fills = (L) => Object.fromEntries(L.items.filter((i) => i.kind === 'band').map((i) => [i.id, i.fill]));
  const a = fills(early), b = fills(late);
  assert.equal(a['band:sram'], undefined, 'SRAM holds no fleet state');
  for (const id of ['band:hbm', 'band:dram', 'band:ssd']) {
    assert.ok(a[id] >= 0 && a[id] <= 1 && b[id] >= 0 && b[id] <= 1, id);
  }
  assert.ok(b['band:ssd'] > a['band:ssd'], 'the SSD keeps filling through the run');
  assert.equal(late.flight, null);
  // The fills move nothing: the same rectangles at every hour, and as in the animations' view (the fleet
  // panel sits beside the canvas, which keeps its size).
  const all = (L) => L.items.map((i) => [i.id, i.rect]);
  assert.deepEqual(all(late), all(early));
  await page.evaluate(() => window.tierscope.play('decode'));
  await page.evaluate(() => window.tierscope.pause());
  await settled(page);
  const rects = (L) => L.items.filter((i) => i.kind === 'band').map((i) => i.rect);
  const path = await page.evaluate(() => window.tierscope.layout());
  assert.deepEqual(path.viewport, late.viewport);
  assert.deepEqual(rects(path), rects(late));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Start here tells the fleet view while it is open, and Back returns to the step the reader left', async () => {
  const { FLEET_CARD, STEPS, variantFor } = await import('../../web/lib/tour.mjs');
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&hours=1&path=engram');
  const arch = await page.evaluate(() => window.tierscope.state().arch);
  const step = STEPS.findIndex((s) => s.path === 'engram');
  assert.equal(await page.textContent('#tour-title'), variantFor(STEPS[step], arch).title);
  await page.click('#open-fleet');
  // The card of the fleet view, with this scenario's numbers, and no step marked as the one on screen.
  await page.waitForFunction((t) => document.getElementById('tour-title').textContent === t, variantFor(FLEET_CARD, arch).title);
  assert.equal(await page.textContent('#tour-count'), '· the fleet view');
  const text = await page.textContent('#tour-body');
  assert.doesNotMatch(text, /[{}…]/, 'every slot filled');
  const figs = await page.evaluate(() => Object.fromEntries(window.tierscope.figures().map((f) => [f.id, f.text])));
  assert.ok(text.includes(figs['hbm.sessions_per_node']) && text.includes(figs['swa.pool_sessions']), 'the node\'s sessions and the pool\'s, as the model computes them');
  assert.equal(await page.$$eval('#tour-dots [aria-current="step"]', (d) => d.length), 0);
  assert.equal(await page.getAttribute('#tour-back', 'aria-label'), `Back to the walkthrough, step ${step + 1}`);
  // Keyboard: Back is the way out; the fleet view closes and the step the reader left is told again.
  await page.focus('#tour-back');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().view === '');
  assert.equal(await page.textContent('#tour-title'), variantFor(STEPS[step], arch).title);
  assert.equal(await page.textContent('#tour-count'), `· ${step + 1} of ${STEPS.length}`);
  assert.equal(await page.evaluate(() => window.tierscope.state().path), 'engram');
  assert.equal(await page.getAttribute('#tour-back', 'aria-label'), null);
  assert.equal(await page.isVisible('#fleet-panel'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Llama 3.1 70B node cannot keep up with its day: the fleet says so with the numbers, in hours, never in e-notation', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=llama31-70b-8xh100&view=fleet');
  await page.setViewportSize({ width: 1440, height: 900 });
  await runDone(page);
  await page.waitForSelector('#fleet-overload:not([hidden])');
  const over = await page.textContent('#fleet-overload');
  assert.match(over, /^overloaded: turns arrive at [0-9,]+\/h and the node serves [0-9,]+\/h \(offered load [0-9.]+ % of served\); the queue for HBM held [0-9,]+ turns at the end/);
  // The run's own numbers: offered (admitted + still queued) against admitted, per hour.
  const r = await page.evaluate(() => window.tierscope.fleetResults());
  const hours = r.t_s / 3600;
  const fmt = (v) => Math.round(v).toLocaleString('en-US');
  assert.ok(over.includes(`${fmt((r.total.turns + r.sessions.turns_queued) / hours)}/h and the node serves ${fmt(r.total.turns / hours)}/h`), over);
  // Times in the units a person reads, in the counters, the ledger and the totals.
  const text = await page.evaluate(() => ['fleet-panel', 'ledger-list', 'entry-now'].map((id) => document.getElementById(id).textContent).join(' '));
  assert.doesNotMatch(text, /\de[+-]\d/);
  assert.match(await page.textContent('#fleet-counters'), /TTFT p95[0-9.]+ h/);
  assert.deepEqual(errors, []);
  await page.close();
});
