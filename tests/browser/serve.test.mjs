// The served workload in the page: the frontier chart computed in the worker from the current scenario is
// the command line's `chart frontier` for the same link, number for number; its points are named for
// screen readers and listed in its data table; a point of its Pareto front opens that layout and
// concurrency as the scenario, and the link then names them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser, ROOT } from './lib/browser.mjs';
import { sameChart } from './lib/same-chart.mjs';

const CLI = process.env.TIERSCOPE_CLI || path.join(ROOT, 'build/native/src/cli/tierscope');
const noCli = !fs.existsSync(CLI) && 'the native CLI is not built';
const env = useBrowser();

// A small scenario (short requests), so each replay is quick.
const SCENARIO = 'preset=v41-flash-8xb200&prompt=2048&output=256';

// Waits until the worker's frontier is drawn (not only asked for).
async function frontierDrawn(page) {
  await page.waitForFunction(() => document.getElementById('chart-figure').getAttribute('aria-busy') !== 'true' &&
    document.querySelectorAll('#chart-figure svg .chart-point.kind-front').length > 0, null, { timeout: 15000 });
}

test('the frontier tab draws the command line\'s frontier of the same link, named and tabled', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=chart-frontier`);
  await frontierDrawn(page);
  assert.equal(await page.$eval('#chart-tab-frontier', (b) => [b.textContent, b.getAttribute('aria-selected')].join('|')), 'Frontier|true');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /view=chart-frontier/);
  const inPage = await page.evaluate(() => window.tierscope.chart('frontier'));
  const fromCli = JSON.parse(execFileSync(CLI, ['chart', 'frontier', '--hash', hash, '--concurrency', '512', '--format', 'json'], { encoding: 'utf8' }));
  sameChart(inPage, fromCli, 'frontier');
  // The page says it stopped at 512 concurrencies, and which command gives the same chart.
  assert.match(await page.$eval('#chart-frontier-desc', (d) => d.textContent), /concurrencies up to 512/);
  assert.equal(await page.$eval('#chart-command', (c) => c.textContent), 'tierscope chart frontier --concurrency 512 --format json');
  // Every point of the front is a focusable button naming its layout, concurrency and what it opens.
  const front = await page.$$eval('#chart-figure .chart-point.kind-front', (ps) => ps.map((p) => [p.getAttribute('role'), p.getAttribute('tabindex'), p.getAttribute('aria-label')]));
  assert.equal(front.length, fromCli.marks.filter((m) => m.kind === 'front').length);
  for (const [role, tab, name] of front) {
    assert.equal(role, 'button');
    assert.equal(tab, '0');
    assert.match(name, /concurrency \d+ · .* per GPU .* opens it as the scenario \(tp=\d+, dp=\d+, .*batch=\d+\)/);
  }
  // The Pareto front is a line of its own, listed in the data table beside each layout's.
  await page.click('details.chart-data summary');
  await page.waitForSelector('#chart-table table.chart-table');
  const heads = await page.$$eval('#chart-table thead th', (t) => t.map((x) => x.textContent));
  assert.equal(heads[1], 'Pareto front');
  assert.equal(await page.$$eval('#chart-table tbody tr', (r) => r.length), fromCli.xs.length);
  assert.deepEqual(errors, []);
});

test('Enter on a point of the front opens its layout and concurrency, and the link names them', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=chart-frontier`);
  await frontierDrawn(page);
  const before = await page.evaluate(() => location.hash);
  // The front's most throughput-bound point: the largest concurrency, never the preset's own batch.
  const setup = await page.$$eval('#chart-figure .chart-point.kind-front', (ps) => {
    const batch = (p) => Number(/batch=(\d+)/.exec(p.dataset.setup)[1]);
    const p = ps.reduce((a, b) => (batch(b) > batch(a) ? b : a));
    p.focus();
    return p.dataset.setup;
  });
  await page.keyboard.press('Enter');
  await page.waitForFunction((was) => location.hash !== was, before, { timeout: 5000 });
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /view=chart-frontier/);
  // Each key the point names is in the link, or left out because it is the preset's own value.
  for (const pair of setup.split('&')) {
    const [k] = pair.split('=');
    assert.ok(new RegExp(`[#&]${pair}(&|$)`).test(hash) || !new RegExp(`[#&]${k}=`).test(hash), `${pair} in ${hash}`);
  }
  const batch = Number(/batch=(\d+)/.exec(setup)[1]);
  assert.match(hash, new RegExp(`[#&]batch=${batch}(&|$)`));
  // The scenario now is that layout (the page's own state says so), and the chart follows it.
  const state = await page.evaluate(() => window.tierscope.state());
  assert.match(state.scenarioHash, new RegExp(`batch=${batch}`));
  await frontierDrawn(page);
  assert.deepEqual(errors, []);
});
