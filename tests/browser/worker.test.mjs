// The worker module as a reader meets it: the first frame arrives without its bytes (they come once the
// page is idle); a chart opened from the header is the worker's, with the command line's numbers; a value
// moved many times draws the chart of the last value, the requests it passed cancelled; a config.json
// chosen in the dialog is read in the worker and a refused one says the reader's own message; a worker that
// cannot start says so on the page, the page stays usable, and the next chart tries again. A fleet day is
// computed there too: the page shows each hour the worker hands back, a worker that cannot start is a
// refused run with the reason, and a chart asked for meanwhile does not wait for the day to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { openApp, useBrowser, ROOT } from './lib/browser.mjs';
import { CLI, skipWithoutCli } from './lib/catalog.mjs';
import { sameChart } from './lib/same-chart.mjs';

const noCli = skipWithoutCli();
const CONFIGS = path.join(ROOT, 'tests/data/hf_configs');
const env = useBrowser();

// The worker's files as the browser asked for them (the worker's own requests are not in the page's
// resource timing), each with the wall-clock time it was asked for.
function watchWorkerFiles(context) {
  const asked = [];
  const seen = (r) => {
    // The site names each file with a content hash (name.<10 hex>.ext); the test asks by name and type.
    const m = /\/(worker|tierscope-worker)(?:\.[0-9a-f]{10})?\.(js|wasm)$/.exec(r.url());
    if (m) asked.push({ file: `${m[1]}.${m[2]}`, at: Date.now() });
  };
  context.on('request', seen);
  asked.stop = () => context.off('request', seen);
  return asked;
}
// When the app was interactive (its first frame drawn), in wall-clock ms.
const interactiveAt = (page) => page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('tierscope-interactive')[0].startTime);
const chartShown = (page) => page.waitForFunction(() => document.querySelector('#chart-figure svg') && document.getElementById('chart-figure').getAttribute('aria-busy') !== 'true');

test('the first frame comes without the worker\'s bytes; a chart opened from the header is the worker\'s, the CLI\'s numbers', { skip: noCli }, async () => {
  const asked = watchWorkerFiles(env.browser.context);
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  // Once the page is idle the worker is fetched, never before the first frame.
  const ready = await interactiveAt(page);
  for (let i = 0; i < 150 && !asked.some((a) => a.file === 'tierscope-worker.wasm'); i++) await page.waitForTimeout(100);
  assert.deepEqual(asked.map((a) => a.file).sort(), ['tierscope-worker.js', 'tierscope-worker.wasm', 'worker.js']);
  for (const a of asked) assert.ok(a.at >= ready, `${a.file} asked for ${ready - a.at} ms before the first frame`);
  asked.stop();

  await page.click('#open-charts');
  await chartShown(page);
  assert.match(await page.$eval('#chart-figure svg title', (x) => x.textContent), /\S/);
  await page.evaluate(() => window.tierscope.setParam('ctx', 65536));
  const hash = await page.evaluate(() => '#' + window.tierscope.state().scenarioHash);
  for (const kind of ['roofline', 'sweep', 'breakdown']) {
    sameChart(await page.evaluate((k) => window.tierscope.chart(k), kind), JSON.parse(execFileSync(CLI, ['chart', kind, '--hash', hash, '--format', 'json'], { encoding: 'utf8' })), kind);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a value changed many times at once draws the chart of the last value; the requests it passed are cancelled', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#view=chart-roofline`);
  await chartShown(page);
  const first = await page.$eval('#chart-figure svg', (s) => s.textContent);
  const drawn = () => page.evaluate(() => window.tierscope.stats().page.chart.count);
  const before = await drawn();
  // As a script (or a drag faster than the worker answers) would: twenty values in one task.
  await page.evaluate(() => { for (let b = 2; b <= 40; b += 2) window.tierscope.setParam('batch', b); });
  await page.waitForFunction(() => document.getElementById('chart-figure').getAttribute('aria-busy') === 'false');
  const last = await page.$eval('#chart-figure svg', (s) => s.textContent);
  assert.notEqual(last, first, 'the chart follows the batch');
  assert.equal(await drawn(), before + 1, 'one chart drawn: the nineteen it passed were cancelled');
  // What is on screen is the chart of batch 40: drawn from a fresh page at batch 40, it is the same.
  const fresh = await openApp(env.browser.context, `${env.site.url}#batch=40&view=chart-roofline`);
  await chartShown(fresh.page);
  assert.equal(await fresh.page.$eval('#chart-figure svg', (s) => s.textContent), last);
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
  await fresh.page.close();
  await page.close();
});

test('a config.json chosen in the dialog is read in the worker; a refused one says the reader\'s own message', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.click('#open-config');
  await page.setInputFiles('#config-file', path.join(CONFIGS, 'Qwen3-30B-A3B.json'));
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  assert.match((await page.evaluate(() => window.tierscope.state())).presetLabel, /^Qwen3-30B-A3B \(config\.json\)/);
  assert.match(await page.locator('#notices .notice.config').textContent(), /ctx 131072 → 40960/);

  // A file the reader refuses: the dialog stays open with the message the command line gives for it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-config-'));
  const bad = path.join(dir, 'mamba.json');
  fs.writeFileSync(bad, '{"model_type": "mamba", "num_hidden_layers": 64}');
  await page.click('#open-config');
  await page.setInputFiles('#config-file', bad);
  await page.waitForFunction(() => /mamba/.test(document.getElementById('config-result').textContent));
  assert.equal(await page.evaluate(() => document.getElementById('config-dialog').open), true);
  const said = await page.locator('#config-result').textContent();
  const cli = spawnSync(CLI, ['figures', '--config', bad], { encoding: 'utf8' });
  assert.equal(cli.status, 3);
  assert.ok(cli.stderr.includes(said), `the page says "${said}"; the CLI: ${cli.stderr}`);
  assert.match((await page.evaluate(() => window.tierscope.state())).presetLabel, /^Qwen3-30B-A3B/, 'a refused file changes nothing');
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a worker that cannot start says so; the page stays usable and the next chart tries again', async () => {
  const context = env.browser.context;
  let block = true;
  const handler = (route) => (block ? route.abort() : route.continue());
  await context.route('**/tierscope-worker.*.wasm', handler);
  try {
    const { page } = await openApp(context, env.site.url);
    await page.click('#open-charts');
    await page.waitForFunction(() => /did not start/.test(document.getElementById('chart-figure').textContent), null, { timeout: 15000 });
    assert.match(await page.locator('#chart-figure').textContent(), /^chart: the worker module did not start/);
    // The canvas and the model still answer.
    assert.equal((await page.evaluate(() => window.tierscope.setParam('batch', 8))).ok, true);
    block = false;
    await page.click('#chart-tab-breakdown');
    await chartShown(page);
    assert.ok(await page.$$eval('#chart-figure svg rect.chart-seg', (r) => r.length) > 2);
    await page.close();
  } finally {
    await context.unroute('**/tierscope-worker.*.wasm', handler);
  }
});

test('a fleet day is computed in the worker: the page asks it for the run, shows each hour it hands back, and says so when it cannot start', async () => {
  const context = env.browser.context;
  let block = true;
  const handler = (route) => (block ? route.abort() : route.continue());
  await context.route('**/tierscope-worker.*.wasm', handler);
  try {
    const { page, errors } = await openApp(context, env.site.url);
    await page.evaluate(() => window.tierscope.setParam('hours', 2));
    // No worker: the run cannot start, the notice says why, and the page stays usable.
    const refused = await page.evaluate(() => window.tierscope.runFleet());
    assert.equal(refused.ok, false);
    assert.equal(refused.errors[0].code, 'unavailable');
    assert.match(refused.errors[0].message, /^fleet: the worker module did not start/);
    assert.match(await page.locator('#notices').textContent(), /The fleet run could not start/);
    assert.equal((await page.evaluate(() => window.tierscope.fleet())).started, false);
    assert.equal((await page.evaluate(() => window.tierscope.seek(1))).ok, true);
    // With the worker: the run starts, its hours arrive one after another, and it ends with the results.
    block = false;
    const started = await page.evaluate(() => window.tierscope.runFleet());
    assert.equal(started.ok, true);
    await page.waitForFunction(() => window.tierscope.fleet().done, null, { timeout: 60000 });
    const f = await page.evaluate(() => window.tierscope.fleet());
    assert.ok(f.slices.count > 2, 'the worker ran it in slices');
    assert.equal(f.slices.targetMs, 6);
    const results = await page.evaluate(() => window.tierscope.fleetResults());
    assert.equal(results.hours.length, 2);
    assert.equal(f.slices.events, results.events, 'every event ran in a slice the page has a record of');
    assert.equal(await page.$eval('#fleet-status', (x) => x.textContent), f.statusText);
    assert.deepEqual(errors.filter((e) => !/tierscope-worker|ERR_FAILED|did not start/.test(e)), []);
    await page.close();
  } finally {
    await context.unroute('**/tierscope-worker.*.wasm', handler);
  }
});

test('a chart asked for while a fleet day computes in the worker comes before the day ends', async () => {
  // Three days at the node's session capacity: several seconds of the worker's time.
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#preset=v41-flash-8xb200&arrivals=2.84&hours=72');
  assert.equal((await page.evaluate(() => window.tierscope.runFleet())).ok, true);
  await page.waitForFunction(() => window.tierscope.fleet().progress > 0, null, { timeout: 60000 });
  const got = await page.evaluate(async () => {
    const chart = await window.tierscope.chart('roofline');
    return { kind: chart && chart.ok !== false ? chart.chart : JSON.stringify(chart), fleetDone: window.tierscope.fleet().done, progress: window.tierscope.fleet().progress };
  });
  assert.equal(got.kind, 'roofline', 'the chart arrived');
  assert.equal(got.fleetDone, false, `the chart waited for the fleet day (at ${got.progress})`);
  // And the day still ends, with every hour.
  await page.waitForFunction(() => window.tierscope.fleet().done, null, { timeout: 240000 });
  assert.equal((await page.evaluate(() => window.tierscope.fleetResults())).hours.length, 72);
  assert.deepEqual(errors, []);
  await page.close();
});
