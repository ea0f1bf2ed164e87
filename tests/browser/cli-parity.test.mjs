// The browser and the command line run the same model: for every path, the ledger the page holds equals
// the one `tierscope ledger --format json` prints, and so do the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser } from './lib/browser.mjs';
import { CLI, PATH_KEYS, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;
const env = useBrowser();

// The CLI's stdout, also when it exits 3 for a setup that cannot run (it still prints the ledger's note).
function cli(args) {
  try { return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }); } catch (e) { if (e.status === 3) return e.stdout; throw e; }
}

test('every path: the page\'s ledger equals the CLI\'s, for the default and a changed scenario', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  for (const sets of [[], ['ctx=1048576', 'batch=8', 'gpus=8', 'gpu=h200']]) {
    for (const [k, v] of sets.map((s) => s.split('='))) assert.equal((await page.evaluate(([a, b]) => window.tierscope.setParam(a, b), [k, v])).ok, true);
    for (const p of PATHS) {
      await page.evaluate((k) => { window.tierscope.play(k); window.tierscope.pause(); }, p);
      const inPage = await page.evaluate(() => window.tierscope.ledger());
      const args = ['ledger', '--path', p, '--format', 'json', ...sets.flatMap((s) => ['--set', s])];
      const fromCli = JSON.parse(cli(args));
      assert.deepEqual(inPage, fromCli, `${p} with [${sets.join(' ')}]`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page\'s figures equal the CLI\'s, each with what it counts', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const inPage = await page.evaluate(() => window.tierscope.figures());
  const fromCli = JSON.parse(cli(['figures', '--format', 'json'])).figures;
  assert.deepEqual(inPage, fromCli);
  for (const f of inPage) assert.ok(typeof f.scope === 'string' && f.scope.length > 0, `${f.id} says what it counts`);
  // The table's view of them (read over the bridge for the figures table and the walkthrough) carries the same scope.
  const view = await page.evaluate(() => window.tierscope.figures().map((f) => [f.id, f.scope]));
  assert.equal(new Map(view).get('hbm.sessions_per_node'), 'per node');
  assert.deepEqual(errors, []);
  await page.close();
});
