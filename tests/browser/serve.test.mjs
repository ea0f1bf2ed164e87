// The served workload in the page: the frontier chart computed in the worker from the current scenario is
// the command line's `chart frontier` for the same link, number for number; its points are named for
// screen readers and listed in its data table; a point of its Pareto front opens that layout and
// concurrency as the scenario, and the link then names them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser, settled } from './lib/browser.mjs';
import { sameChart } from './lib/same-chart.mjs';
import { CATALOG, CLI, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
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
  // Its workload is on screen under it (the requests' lengths and the node), not only in the SVG's description.
  assert.equal(await page.isVisible('#chart-about'), true);
  assert.match(await page.textContent('#chart-about'), /each point a replay of 2048\/256-token requests .* on one layout of .*B200/);
  // The other charts have their axes and say nothing there.
  await page.click('#chart-tab-roofline');
  await page.waitForFunction(() => document.getElementById('chart-about').hidden);
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

// Waits until the Serve panel's replay has finished and its result is on screen.
async function served(page) {
  await page.waitForFunction(() => !document.getElementById('serve-result').hidden &&
    document.getElementById('serve-figure').getAttribute('aria-busy') !== 'true' &&
    document.querySelectorAll('#serve-figure svg').length > 0, null, { timeout: 20000 });
}

test('a view=serve link replays its settings in the worker: the command line\'s serve of the same link, as tables and a chart', { skip: noCli }, async () => {
  const SETTINGS = 'concurrency:8,requests:48,lengths:random,steps:5';
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=${SETTINGS}`);
  await served(page);
  assert.equal(await page.$eval('#open-serve', (b) => b.getAttribute('aria-pressed')), 'true');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, new RegExp(`view=serve&serve=${SETTINGS}`));
  // The form shows the link's settings.
  assert.equal(await page.$eval('#serve-concurrency', (i) => i.value), '8');
  assert.equal(await page.$eval('#serve-lengths', (s) => s.value), 'random');
  const cli = (args) => execFileSync(CLI, args, { encoding: 'utf8' });
  const summary = JSON.parse(cli(['serve', '--hash', hash, '--format', 'json']));
  assert.deepEqual((await page.evaluate(() => window.tierscope.serve())).summary, summary);
  // The rows are the command line's text, label for label and value for value.
  const text = cli(['serve', '--hash', hash]);
  const rows = await page.$$eval('#serve-rows tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent]));
  assert.ok(rows.length >= 10);
  // (the per-GPU throughput with its trust band after it)
  for (const [label, value] of rows) assert.match(text, new RegExp(`${label.replace(/[()/]/g, '\\$&')}:\\s+${value.replace('.', '\\.')}(\\n|   )`), label);
  const tpot = await page.$eval('#serve-latency-rows tr:nth-child(2)', (tr) => [...tr.children].map((c) => c.textContent));
  assert.equal(tpot[0], 'TPOT');
  assert.match(text, new RegExp(`Median TPOT \\(ms\\):\\s+${tpot[2].replace('.', '\\.')}\\n`));
  // The chart is the command line's serve-latency chart, with its text alternative and data table.
  const chart = JSON.parse(cli(['chart', 'serve-latency', '--hash', hash, '--format', 'json']));
  assert.equal(await page.$eval('#serve-chart-desc', (d) => d.textContent), chart.description);
  assert.equal(await page.$$eval('#serve-chart-table tbody tr', (r) => r.length), chart.xs.length);
  // The first scheduled steps, in words, and the command that gives the same run.
  assert.equal(await page.$$eval('#serve-steps li', (l) => l.length), 5);
  assert.match(await page.$eval('#serve-command', (c) => c.textContent), /^tierscope serve --hash '#.*view=serve&serve=.*' --format json$/);
  // A step chosen from the list fills the canvas's HBM with the KV written when it starts; no path move flies.
  await page.click('#serve-steps-box summary');
  const hbmFill = async () => (await page.evaluate(() => window.tierscope.layout())).items.find((i) => i.id === 'band:hbm').fill;
  await page.click('#serve-steps li:nth-child(4) button');
  await page.waitForFunction(() => window.tierscope.serve().step === 3);
  await settled(page);
  const share = summary.steps_trace[3].kv_written_tokens / summary.kv_tokens;
  assert.ok(share > 0, 'the fourth step has KV written');
  assert.ok(Math.abs((await hbmFill()) - share) < 1e-5, `HBM filled to ${share}`);
  assert.equal(await page.$eval('#serve-steps li:nth-child(4) button', (b) => b.getAttribute('aria-current')), 'step');
  assert.equal((await page.evaluate(() => window.tierscope.layout())).flight, null);
  // Play walks the steps on; leaving the view gives the canvas back to the path.
  await page.click('#serve-play');
  assert.equal(await page.$eval('#serve-play', (b) => b.getAttribute('aria-pressed')), 'true');
  await page.waitForFunction(() => window.tierscope.serve().step === 4, null, { timeout: 5000 });
  await page.click('#open-serve');
  await settled(page);
  assert.equal(await hbmFill(), undefined);
  assert.deepEqual(errors, []);
});

// "random" has one meaning: the form's random lengths write the link the command line reads, and the run is
// `tierscope serve --lengths random` with the same flags, byte for byte: the same spread (the app's default,
// catalog().serveSettings), never one the page adds of its own.
test('the form\'s random lengths are the command line\'s --lengths random: the same link, the same run', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:4,requests:16`);
  await served(page);
  const choices = await page.$$eval('#serve-lengths option', (o) => o.map((x) => x.value));
  assert.deepEqual(choices, CATALOG.serveSettings.find((x) => x.name === 'lengths').choices.map((c) => c.key), 'the menu is the app\'s');
  await page.selectOption('#serve-lengths', 'random');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.lengths === 'random'; }, null, { timeout: 20000 });
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /serve=concurrency:4,requests:16,lengths:random,steps:8(&|$)/, 'the link says random and nothing more');
  const flags = JSON.parse(execFileSync(CLI, ['serve', '--preset', 'v41-flash-8xb200', '--set', 'prompt=2048', '--set', 'output=256', '--concurrency', '4',
    '--requests', '16', '--lengths', 'random', '--steps', '8', '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  assert.deepEqual((await page.evaluate(() => window.tierscope.serve())).summary, flags);
  assert.deepEqual(errors, []);
});

test('a disaggregated replay (prefill:pd) in the page is the command line\'s, its prefill pool\'s GPUs a row of the table', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:8,requests:32,prefill:pd`);
  await served(page);
  assert.equal(await page.$eval('#serve-prefill', (s) => s.value), 'pd');
  const hash = await page.evaluate(() => location.hash);
  const summary = JSON.parse(execFileSync(CLI, ['serve', '--hash', hash, '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(summary.prefill, 'pd');
  assert.ok(summary.prefill_gpus > 0, 'the prefill pool has GPUs');
  assert.deepEqual((await page.evaluate(() => window.tierscope.serve())).summary, summary);
  const rows = await page.$$eval('#serve-rows tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.ok(rows.includes('Prefill pool GPUs (keeping up)'), rows.join(' | '));
  assert.deepEqual(errors, []);
});

// Llama 3.1 70B FP8 on 4 H100 under vLLM at 64 clients, 8K in and 1K out: a setup the shipped file measured.
const NEAR = 'preset=llama31-70b-8xh100&gpus=4&tp=4&dense_fmt=fp8&act_fmt=fp8';

test('beside mean TTFT, mean TPOT and output tokens/s per GPU, the command line\'s band of the nearest measured runs; a click lists them', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${NEAR}&view=serve&serve=concurrency:64,requests:64,input:8192,output:1024`);
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return s.summary && !s.running; }, null, { timeout: 60000 });
  const hash = await page.evaluate(() => location.hash);
  const summary = JSON.parse(execFileSync(CLI, ['serve', '--hash', hash, '--format', 'json'], { encoding: 'utf8' }));
  assert.deepEqual((await page.evaluate(() => window.tierscope.serve())).summary.trust, summary.trust);
  // The table: each figure's label and value as the command line prints them, and its band's words.
  const text = execFileSync(CLI, ['serve', '--hash', hash], { encoding: 'utf8' });
  const rows = await page.$$eval('#serve-trust-rows tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent, tr.querySelector('.serve-trust-band').textContent]));
  assert.equal(rows.length, 3);
  for (const [label, value, band] of rows) {
    assert.ok(text.includes(`${label}:`), label);
    assert.ok(text.includes(`${value}   ${band}\n`), `${label}: ${value}   ${band}`);
    assert.match(band, /^measured runs like this: model ÷ measured \d+\.\d\d–\d+\.\d\d \(\d+ runs of vllm on h100/);
  }
  assert.deepEqual(rows.map((r) => r[2]).sort(), Object.values(summary.trust).map((b) => b.text).sort());
  // A click lists the runs behind TPOT's band as a table: the command line's run ids, nearest first.
  await page.click('#serve-trust-rows tr:nth-child(2) button');
  assert.equal(await page.$eval('#serve-trust-rows tr:nth-child(2) button', (b) => b.getAttribute('aria-expanded')), 'true');
  const ids = await page.$$eval('#serve-trust-runs-rows tr', (trs) => trs.map((tr) => tr.cells[tr.cells.length - 1].textContent));
  assert.deepEqual(ids, summary.trust.tpot.ids);
  const listed = execFileSync(CLI, ['serve', '--hash', hash, '--trust-runs', 'tpot'], { encoding: 'utf8' });
  for (const id of ids) assert.ok(listed.includes(`${id}\n`), id);
  // Run again: until its result the bands say they are computing.
  const during = await page.evaluate(() => {
    document.getElementById('serve-run').click();
    return [...document.querySelectorAll('#serve-trust-rows .serve-trust-band')].map((c) => c.textContent);
  });
  assert.deepEqual(during, ['computing…', 'computing…', 'computing…']);
  await page.waitForFunction(() => !window.tierscope.serve().running, null, { timeout: 60000 });
  assert.deepEqual(await page.$$eval('#serve-trust-rows .serve-trust-band', (c) => c.map((x) => x.textContent)), rows.map((r) => r[2]));
  assert.deepEqual(errors, []);
});

test('the Serve button opens the panel on the scenario\'s own batch; a new setting reruns it, and the link names it', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&batch=4`);
  await page.click('#open-serve');
  await served(page);
  assert.match(await page.evaluate(() => location.hash), /view=serve/);
  assert.equal((await page.evaluate(() => window.tierscope.serve())).summary.concurrency, 4);
  assert.equal(await page.$eval('#serve-concurrency', (i) => i.placeholder), '4');
  await page.fill('#serve-concurrency', '6');
  await page.fill('#serve-requests', '30');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.concurrency === 6; }, null, { timeout: 20000 });
  assert.match(await page.evaluate(() => location.hash), /serve=concurrency:6,requests:30/);
  assert.equal((await page.evaluate(() => window.tierscope.serve())).summary.requests, 30);
  assert.equal(await page.$eval('#serve-steps-title', (t) => t.textContent), 'The first scheduled steps');
  // Steps shown from a later step: the steady state's, numbered as in the run, and the link names it.
  await page.fill('#serve-steps-from', '20');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.steps_trace.length && s.summary.steps_trace[0].index === 20; }, null, { timeout: 20000 });
  assert.match(await page.evaluate(() => location.hash), /serve=concurrency:6,requests:30,steps:8,steps-from:20/);
  assert.equal(await page.$eval('#serve-steps-title', (t) => t.textContent), 'Scheduled steps from step 20');
  assert.match(await page.$eval('#serve-steps li:first-child button', (b) => b.textContent), /^step 20 at /);
  // Closing the panel leaves the link's settings for next time, and the view.
  await page.click('#open-serve');
  assert.equal(await page.$eval('#serve-panel', (p) => p.hidden), true);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /view=serve/);
  assert.deepEqual(errors, []);
});

test('a shared prefix set in the form: the HBM arm finds it where the no-cache arm recomputes it, and the link names them', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:8,requests:40`);
  await served(page);
  await page.fill('#serve-prefix-len', '4096');
  await page.fill('#serve-prefixes', '2');
  await page.selectOption('#serve-tiers', 'off');
  await page.click('#serve-run');
  const summary = () => page.evaluate(() => window.tierscope.serve().summary);
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.prefix_cache && s.summary.prefix_cache.tiers === 'off'; }, null, { timeout: 30000 });
  const off = await summary();
  assert.equal(off.prefix_cache.hit_rate_hbm, 0);
  assert.match(await page.evaluate(() => location.hash), /prefix-len:4096,prefixes:2,tiers:off/);
  await page.selectOption('#serve-tiers', 'hbm');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.prefix_cache && s.summary.prefix_cache.tiers === 'hbm'; }, null, { timeout: 30000 });
  const hbm = await summary();
  assert.ok(hbm.prefix_cache.hit_rate_hbm > 0.5, `HBM serves most of the prompt (${hbm.prefix_cache.hit_rate_hbm})`);
  assert.ok(hbm.ttft.mean_s < off.ttft.mean_s, 'the prefix found in HBM is not prefilled again');
  // The engines' default arm is left out of the link, as every menu at its default is.
  assert.doesNotMatch(await page.evaluate(() => location.hash), /tiers:/);
  assert.deepEqual(errors, []);
});

test('a refused serve setting names itself and runs nothing; Cancel stops a long replay and keeps the last result', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:4,requests:20`);
  await served(page);
  const before = (await page.evaluate(() => window.tierscope.serve())).summary;
  await page.fill('#serve-concurrency', '0');
  await page.click('#serve-run');
  await page.waitForSelector('#notices li');
  assert.match(await page.$eval('#notices', (n) => n.textContent), /serve\.concurrency/);
  assert.match(await page.evaluate(() => location.hash), /serve=concurrency:4,requests:20/);
  // A long replay, cancelled while it runs.
  await page.fill('#serve-concurrency', '64');
  await page.fill('#serve-requests', '200000');
  await page.click('#serve-run');
  await page.waitForFunction(() => !document.getElementById('serve-progress').hidden && document.getElementById('serve-progress').value > 0, null, { timeout: 20000 });
  await page.click('#serve-cancel');
  await page.waitForFunction(() => !window.tierscope.serve().running, null, { timeout: 5000 });
  assert.match(await page.$eval('#serve-status', (s) => s.textContent), /Cancelled/);
  assert.deepEqual((await page.evaluate(() => window.tierscope.serve())).summary, before);
  // The worker is free again: the next run finishes.
  await page.fill('#serve-requests', '40');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.requests === 40; }, null, { timeout: 20000 });
  assert.deepEqual(errors.filter((e) => !/serve\.concurrency/.test(e)), []);
});

test('a setup that cannot run greys the last run and its measured-runs band, and its refusal leaves once the setup changes', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve`);
  await served(page);
  await page.waitForFunction(() => !document.getElementById('serve-trust-table').hidden);
  // One GPU cannot hold the weights: the replay is refused, and what stays on screen is the last setup's.
  assert.equal((await page.evaluate(() => window.tierscope.setParam('gpus', 1))).ok, true);
  await page.waitForFunction(() => /not allowed/.test(document.getElementById('serve-status').textContent), null, { timeout: 20000 });
  await page.waitForSelector('#notices .notice[data-key="serve"]');
  assert.deepEqual(await page.evaluate(() => ['serve-result', 'serve-trust'].map((id) => document.getElementById(id).classList.contains('stale'))),
    [true, true], 'the run shown and its band are both marked as another setup\'s');
  // The panel closed, the reader fixes the setup: the refusal no longer applies and goes.
  await page.click('#open-serve');
  assert.equal((await page.evaluate(() => window.tierscope.setParam('gpus', 8))).ok, true);
  await page.waitForFunction(() => !document.querySelector('#notices .notice[data-key="serve"]'), null, { timeout: 5000 });
  assert.deepEqual(errors.filter((e) => !/scenario/.test(e)), []);
  await page.close();
});

test('on a phone the Serve button brings its panel, below the canvas, into view', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&batch=2`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('#open-serve');
  await page.waitForFunction(() => { const r = document.getElementById('serve-panel').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }, null, { timeout: 5000 });
  await served(page);
  assert.deepEqual(errors, []);
});

// The latency table keeps all its columns inside the panel: at 1440 px the Serve panel's column cut p99 off.
for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`the latency table shows its p99 column whole at ${viewport.width}×${viewport.height}`, async () => {
    const page = await env.browser.context.newPage();
    await page.setViewportSize(viewport);
    await page.goto(`${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:4,requests:12`);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    // (On a phone the panel is below the canvas, laid out once it nears the screen.)
    await page.$eval('#serve-panel', (p) => p.scrollIntoView());
    await served(page);
    const cut = await page.evaluate(() => {
      const panel = document.getElementById('serve-panel').getBoundingClientRect();
      const out = [];
      for (const c of document.querySelectorAll('.serve-latency th, .serve-latency td')) {
        // Inside the panel, and inside every box around it that clips (the side column scrolls).
        const r = c.getBoundingClientRect();
        if (r.right > panel.right + 0.5 || r.left < panel.left - 0.5) out.push(`${c.textContent} ${Math.round(r.left)}–${Math.round(r.right)} beyond ${Math.round(panel.left)}–${Math.round(panel.right)}`);
        for (let p = c.parentElement; p && p !== document.body; p = p.parentElement) {
          if (getComputedStyle(p).overflowX === 'visible') continue;
          const b = p.getBoundingClientRect();
          if (r.right > b.right + 0.5) out.push(`${c.textContent} cut by ${p.className || p.tagName}`);
        }
      }
      return out;
    });
    assert.deepEqual(cut, []);
    const p99 = await page.$eval('.serve-latency thead th:last-child', (t) => t.textContent);
    assert.equal(p99, 'p99');
    await page.close();
  });
}

// With A pinned the frontier is A's and B's on the same axes (it showed B alone), each replaying its own
// requests, and it is the command line's chart of the same link; its workload line names both.
test('the frontier honours the pinned A: both fronts, as the command line draws them for the link', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=chart-frontier`);
  await frontierDrawn(page);
  await page.click('#chart-pin');
  assert.equal(await page.evaluate(() => window.tierscope.setParam('output', '128').ok), true);
  await page.waitForFunction(() => /[#&]output=128(&|$)/.test(location.hash) && /cmp=/.test(location.hash));
  await page.waitForFunction(() => document.querySelectorAll('#chart-figure svg path.series-b').length > 0 &&
    document.getElementById('chart-figure').getAttribute('aria-busy') !== 'true', null, { timeout: 30000 });
  const hash = await page.evaluate(() => location.hash);
  const inPage = await page.evaluate(() => window.tierscope.chart('frontier'));
  const labels = inPage.lines.map((l) => l.label);
  assert.ok(labels.includes('A: Pareto front') && labels.includes('B: Pareto front'), labels.join(' | '));
  const fromCli = JSON.parse(execFileSync(CLI, ['chart', 'frontier', '--hash', hash, '--concurrency', '512', '--format', 'json'], { encoding: 'utf8' }));
  sameChart(inPage, fromCli, 'frontier A and B');
  const about = await page.textContent('#chart-about');
  assert.match(about, /^A \(pinned\): .* 2048\/256-token requests .* B \(current\): .* 2048\/128-token requests/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The node of the default preset holds two TP4 instances: the form has an instances field, whose hint says
// so, and a value there replays that many instances behind the router (the link names it, the result says it).
test('the Serve panel has an instances field: its hint names the node\'s instances, and a value replays them', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:8,requests:24`);
  await served(page);
  assert.equal(await page.$eval('label[for="serve-instances"]', (l) => l.textContent), 'Instances');
  assert.equal(await page.$eval('#serve-instances', (i) => i.placeholder), '1 (the node holds 2)');
  assert.equal((await page.evaluate(() => window.tierscope.serve())).summary.instances, 1);
  await page.fill('#serve-instances', '2');
  await page.click('#serve-run');
  await page.waitForFunction(() => { const s = window.tierscope.serve(); return !s.running && s.summary && s.summary.instances === 2; }, null, { timeout: 20000 });
  assert.match(await page.evaluate(() => location.hash), /serve=concurrency:8,requests:24,instances:2|serve=.*instances:2/);
  // A refused count names the field and what is allowed.
  await page.fill('#serve-instances', '0');
  await page.click('#serve-run');
  await page.waitForFunction(() => /instances/.test(document.getElementById('notices')?.textContent || ''));
  assert.deepEqual(errors, []);
  await page.close();
});

// With A pinned, Serve replays A with the same settings too and shows A beside B, both named by their
// layout (it showed B alone); without A there is no such table.
test('with A pinned the Serve panel shows A beside B, each replayed with the same settings', async () => {
  const link = `${env.site.url}#preset=v41-flash-8xb200&prompt=2048&output=128&cmp=v41-flash-8xb200&cmp_prompt=2048&cmp_output=256&view=serve&serve=concurrency:4,requests:12`;
  const { page, errors } = await openApp(env.browser.context, link);
  await served(page);
  await page.waitForFunction(() => document.querySelectorAll('#serve-ab-rows tr').length > 0, null, { timeout: 20000 });
  assert.equal(await page.isVisible('#serve-ab'), true);
  assert.equal(await page.textContent('#serve-ab-caption'), 'A: DeepSeek V4.1 Flash · 8×B200 · two TP4 instances · B: DeepSeek V4.1 Flash · 8×B200 · two TP4 instances');
  const rows = await page.$$eval('#serve-ab-rows tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
  assert.ok(rows.length >= 4, JSON.stringify(rows));
  assert.ok(rows.some(([m]) => /p99/.test(m)));
  // A's requests are twice as long: its end-to-end latency is not B's.
  assert.ok(rows.some(([m, a, b]) => /E2E/.test(m) && a !== b), JSON.stringify(rows));
  // B's own result is the replay of B (its setup line), as without A.
  assert.match(await page.textContent('#serve-setup'), /./);
  assert.deepEqual(errors, []);
  await page.close();
  // Without A: no A/B table.
  const plain = await openApp(env.browser.context, `${env.site.url}#${SCENARIO}&view=serve&serve=concurrency:4,requests:12`);
  await served(plain.page);
  assert.equal(await plain.page.isVisible('#serve-ab'), false);
  await plain.page.close();
});
