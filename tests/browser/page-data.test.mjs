// The page's data comes from the app, byte for byte what the command line prints: ledger downloads for every
// path, the figures and card check downloads and tables, the catalog of names, and the chart series; a setup
// that cannot run is named on the page; a model's config.json loads through the dialog and from scripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser, ROOT } from './lib/browser.mjs';
import { sameChart } from './lib/same-chart.mjs';
import { STEPS } from '../../web/lib/tour.mjs';
import { PATH_KEYS, CLI, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;
const CONFIGS = path.join(ROOT, 'tests/data/hf_configs');
const env = useBrowser();

// The CLI's stdout, also when it exits 3 for a setup that cannot run (it still prints what it can).
function cli(args) {
  try { return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }); } catch (e) { if (e.status === 3) return e.stdout; throw e; }
}
// The ledger's buttons sit below its list, which grows or shrinks with the path: wait until the page shows
// the path the app is on (the app publishes its state in its next frame) before clicking one.
async function settled(page) {
  await page.waitForFunction(() => document.getElementById('ledger-object').value || document.getElementById('ledger-tier').value ||
    document.querySelectorAll('#ledger-list > li').length === window.tierscope.ledger().entries.length);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
async function downloaded(page, selector) {
  await settled(page);
  // A download that never comes says what the click met: the button's state and box, the element at its
  // centre, the notices above the canvas and the app's path.
  let d;
  try {
    // One more click when the first brings nothing in 10 s: Chromium drops a download now and then in a page
    // that has made dozens (this test makes about 40); a reader's second click gets it, and the bytes are
    // held to the CLI's either way.
    try {
      [d] = await Promise.all([page.waitForEvent('download', { timeout: 10000 }), page.click(selector)]);
    } catch {
      console.warn(`page-data: no download from ${selector} after one click; clicking again`);
      [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    }
  } catch (e) {
    const seen = await page.evaluate((sel) => {
      const b = document.querySelector(sel);
      const r = b.getBoundingClientRect();
      const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return { disabled: b.disabled, box: [r.x, r.y, r.width, r.height], at: at ? at.outerHTML.slice(0, 200) : null,
        notices: document.getElementById('notices').innerText.slice(0, 400), scrollY: window.scrollY, path: window.tierscope.state().path };
    }, selector);
    throw new Error(`no download from ${selector}: ${JSON.stringify(seen)} (${e.message.split('\n')[0]})`);
  }
  return fs.readFileSync(await d.path(), 'utf8');
}

test('ledger downloads are the CLI\'s bytes for every path, default and changed scenario, filtered too', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.click('#figures-details summary');  // its download buttons are inside
  // With a filter on, the download is `tierscope ledger --object …`.
  await page.evaluate(() => { window.tierscope.play('decode'); window.tierscope.pause(); });
  await page.selectOption('#ledger-object', 'global-kv');
  assert.equal(await downloaded(page, '#ledger-csv'),
    cli(['ledger', '--path', 'decode', '--format', 'csv', '--object', 'global-kv']));
  // The share link, given to the CLI, names the same scenario and path.
  const hash = new URL(await page.evaluate(() => window.tierscope.link())).hash;
  assert.equal(await downloaded(page, '#ledger-json'), cli(['ledger', '--hash', hash, '--format', 'json', '--object', 'global-kv']));
  await page.selectOption('#ledger-object', '');
  for (const sets of [[], ['ctx=262144', 'batch=4']]) {
    for (const [k, v] of sets.map((s) => s.split('='))) assert.equal((await page.evaluate(([a, b]) => window.tierscope.setParam(a, b), [k, v])).ok, true);
    assert.equal(await page.evaluate(() => window.tierscope.state().feasible), true, 'a setup that runs, so every path has steps');
    const setArgs = sets.flatMap((s) => ['--set', s]);
    for (const p of PATHS) {
      await page.evaluate((k) => { window.tierscope.play(k); window.tierscope.pause(); }, p);
      for (const format of ['csv', 'json']) {
        assert.equal(await downloaded(page, `#ledger-${format}`), cli(['ledger', '--path', p, '--format', format, ...setArgs]), `${p} ${format} [${sets.join(' ')}]`);
      }
    }
    for (const format of ['csv', 'json']) {
      assert.equal(await downloaded(page, `#figures-${format}`), cli(['figures', '--format', format, ...setArgs]), `figures ${format}`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('figures and card check as DOM tables, from the same JSON as the CLI', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const figures = await page.evaluate(() => window.tierscope.figures());
  assert.deepEqual(figures, JSON.parse(cli(['figures', '--format', 'json'])).figures);
  await page.click('#figures-details summary');
  await page.waitForSelector('#figures-table tbody tr');  // a closed table fills when it opens (its toggle event)
  // The value as the app writes it, then what it counts (its own span: story.test.mjs checks the words).
  const rows = await page.$$eval('#figures-table tbody tr', (r) => r.map((x) => [x.dataset.fig, x.querySelector('td').textContent, x.querySelector('td .scope')?.textContent || '']));
  assert.equal(rows.length, figures.length);
  for (const [id, text, scope] of rows) assert.equal(text, figures.find((f) => f.id === id).text + scope, id);
  await page.click('#card-details summary');
  await page.waitForSelector('#card-table tbody tr');
  const card = JSON.parse(cli(['check-card', '--format', 'json']));
  const shown = await page.$$eval('#card-table tbody tr', (r) => r.map((x) => [x.dataset.claim, x.dataset.verdict]));
  assert.deepEqual(shown, card.claims.map((c) => [c.id, c.verdict]));
  assert.equal(await downloaded(page, '#card-json'), cli(['check-card', '--format', 'json']));
  // A new scenario re-fills the open tables.
  await page.evaluate(() => window.tierscope.setParam('gpu', 'h200'));
  await page.waitForFunction(() => document.querySelector('#card-table tbody tr') && document.getElementById('figures-table').dataset !== undefined);
  assert.equal(await downloaded(page, '#card-csv'), cli(['check-card', '--format', 'csv', '--set', 'gpu=h200']));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the catalog names what the page shows, for the model at hand', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  const c = await page.evaluate(() => window.tierscope.catalog());
  assert.deepEqual(c.paths.map((p) => p.key), PATHS);
  assert.equal(c.tourSteps, STEPS.length, 'one walkthrough step per path');
  assert.deepEqual(await page.$$eval('#path-list .path', (b) => b.map((x) => x.textContent)), c.paths.map((p) => p.label));
  assert.deepEqual(await page.$$eval('#pb-speed option', (o) => o.map((x) => x.textContent)), c.speeds.map((s) => s.label));
  assert.ok(c.errorCodes['out-of-range']);
  // Another model, other names: Llama has dense weights and no CSA2 layers.
  await page.evaluate(() => window.tierscope.setParam('preset', 'llama31-70b-8xh100'));
  const l = await page.evaluate(() => window.tierscope.catalog());
  assert.equal(l.objects.find((o) => o.key === 'moe-weights').label, 'Dense weights');
  assert.notEqual(l.paths.find((p) => p.key === 'csa2-modes').label, c.paths.find((p) => p.key === 'csa2-modes').label);
  await page.close();
});

test('chart(name, options) gives the CLI\'s chart series; bad names and options are refused by name', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  sameChart(await page.evaluate(() => window.tierscope.chart('roofline')), JSON.parse(cli(['chart', 'roofline', '--format', 'json'])));
  await page.evaluate(() => window.tierscope.setParam('preset', 'deepseek-v3-8xh200'));
  sameChart(await page.evaluate(() => window.tierscope.chart('roofline')), JSON.parse(cli(['chart', 'roofline', '--preset', 'deepseek-v3-8xh200', '--format', 'json'])));
  const sweep = await page.evaluate(() => window.tierscope.chart('sweep', { figure: 'hbm.sessions', x: 'ctx', values: [4096, 16384, 65536], family: 'gpus', familyValues: [4, 8] }));
  sameChart(sweep, JSON.parse(cli(['chart', 'sweep', '--preset', 'deepseek-v3-8xh200', '--figures', 'hbm.sessions', '--over', 'ctx=4096,16384,65536', '--over', 'gpus=4,8', '--format', 'json'])));
  const range = await page.evaluate(() => window.tierscope.chart('sweep', { x: 'batch', values: { from: 1, to: 64, points: 7, log: true } }));
  sameChart(range, JSON.parse(cli(['chart', 'sweep', '--preset', 'deepseek-v3-8xh200', '--over', 'batch=1,2,4,8,16,32,64', '--format', 'json'])));
  const bad = await page.evaluate(() => Promise.all([window.tierscope.chart('pie'), window.tierscope.chart('sweep', { colour: 'red' }), window.tierscope.chart('roofline', { x: 'ctx' }),
    window.tierscope.chart('sweep', { x: 'ctx', values: { from: 1 } }), window.tierscope.chart('sweep', 'x')]));
  assert.deepEqual(bad.map((r) => [r.ok, r.errors[0].field, r.errors[0].code]), [[false, 'name', 'bad-enum'], [false, 'colour', 'unknown-key'],
    [false, 'x', 'bad-syntax'], [false, 'values', 'missing-field'], [false, 'options', 'wrong-type']]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a setup that cannot run is named on the page; figures say "not computed"; the ledger shows its note', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#preset=v41-flash-8xb200&gpus=1`);
  const st = await page.evaluate(() => window.tierscope.state());
  assert.equal(st.feasible, false);
  const notice = page.locator('#notices .notice.infeasible');
  await notice.waitFor();
  const why = await page.evaluate(() => document.querySelector('#notices .notice.infeasible .notice-summary').textContent);
  assert.match(why, /cannot run/);
  assert.match(await notice.textContent(), /gpus/, 'it names the field to change');
  // In the page's flow, not over the canvas.
  const [n, c] = await Promise.all([notice.boundingBox(), page.locator('#canvas').boundingBox()]);
  assert.ok(n.y + n.height <= c.y + 1, 'the notice sits above the canvas');
  await page.click('#figures-details summary');
  await page.waitForSelector('#figures-table tbody tr');  // a closed table fills when it opens (its toggle event)
  const texts = await page.$$eval('#figures-table tbody tr td:nth-child(2)', (t) => t.map((x) => x.textContent));
  assert.ok(texts.includes('not computed'));
  const empty = page.locator('#ledger-empty');
  assert.equal(await empty.isVisible(), true);
  const note = await page.evaluate(() => window.tierscope.ledger().note);
  assert.ok(note.length > 10);
  assert.equal(await empty.textContent(), note);
  // Back to a setup that runs: the notice goes.
  await page.evaluate(() => window.tierscope.setParam('gpus', 8));
  await page.waitForFunction(() => !document.querySelector('#notices .notice.infeasible'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a model\'s config.json loads through the dialog and through loadConfig; a bad one is refused by name', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  // The dialog, by keyboard: the header button opens it with focus inside; a file is chosen.
  await page.focus('#open-config');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.getElementById('config-dialog').open), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'config-text');
  await page.setInputFiles('#config-file', path.join(CONFIGS, 'Llama-3.1-8B-Instruct.json'));
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  const s = await page.evaluate(() => window.tierscope.state());
  assert.equal(s.arch.family, 'decoder-only');
  // Named after the file's _name_or_path, else its file's name.
  assert.match(await page.locator('#subtitle').textContent(), /Llama/);
  assert.equal(await page.locator('#notices .notice.config').count(), 1, 'the notes are shown');
  // The link carries the mapped inputs: it reopens the same model without the file.
  const link = await page.evaluate(() => window.tierscope.link());
  const again = await openApp(env.browser.context, link);
  const s2 = await again.page.evaluate(() => window.tierscope.state());
  assert.deepEqual([s2.arch, s2.overrides], [s.arch, s.overrides]);
  await again.page.close();
  // Pasted into the dialog.
  await page.click('#open-config');
  await page.fill('#config-text', fs.readFileSync(path.join(CONFIGS, 'gemma-3-1b-it.json'), 'utf8'));
  await page.click('#config-load');
  await page.waitForFunction(() => window.tierscope.state().arch.window > 0);
  // From a script.
  const r = await page.evaluate((t) => window.tierscope.loadConfig(t), fs.readFileSync(path.join(CONFIGS, 'Qwen3-8B.json'), 'utf8'));
  assert.equal(r.ok, true);
  assert.ok(Array.isArray(r.notes) && r.notes.length > 0);
  const before = await page.evaluate(() => window.tierscope.state());
  const bad = await page.evaluate(() => Promise.all([window.tierscope.loadConfig('{"model_type": "mamba", "num_hidden_layers": 64}'), window.tierscope.loadConfig('{not json'), window.tierscope.loadConfig(7)]));
  for (const b of bad) assert.equal(b.ok, false);
  assert.equal(bad[2].errors[0].code, 'wrong-type');
  assert.ok(bad[0].errors[0].field.length > 0 && bad[0].errors[0].message.includes(bad[0].errors[0].field));
  assert.deepEqual(await page.evaluate(() => window.tierscope.state()), before, 'a refused file changes nothing');
  await page.click('#open-config');
  await page.fill('#config-text', '{"model_type": "mamba"}');
  await page.click('#config-load');
  // The file is read in the worker: the dialog says "Reading…", then the reader's refusal.
  await page.waitForFunction(() => document.getElementById('config-result').textContent !== 'Reading…');
  assert.match(await page.locator('#config-result').textContent(), /model_type|mamba/);
  assert.equal(await page.evaluate(() => document.getElementById('config-dialog').open), true, 'the dialog stays open to fix it');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#notices .notice.refused').count() >= 1, true);
  assert.deepEqual(errors, []);
  await page.close();
});
