// The page reads before the WebAssembly arrives: the build writes the default view's text (the walkthrough,
// the counters, the ledger with its current formula) into index.html, and its figures and card tables into
// figures.html, a page of their own, from the app's own C++; the app then writes the same text again, and a
// share link never shows the default's numbers as its own while the app is still on its way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './lib/browser.mjs';

const env = useBrowser();
const WASM = '**/tierscope.*.wasm';

// The app's file held back until `release()` is called, as a slow network would.
async function holdApp(page) {
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route(WASM, async (route) => { await gate; await route.continue(); });
  return () => release();
}
const whenReady = (page) => page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 60000 });

// What a reader sees of each region (innerText: visible text only) and what the closed tables hold.
const REGIONS = ['subtitle', 'counters', 'tour-count', 'tour-title', 'tour-body', 'tour-look', 'path-list', 'pb-pos', 'entry-now', 'ledger-path', 'ledger-list'];
function readRegions(page) {
  return page.evaluate((ids) => {
    const out = {};
    for (const id of ids) out[id] = document.getElementById(id).innerText;
    out.dots = [...document.querySelectorAll('#tour-dots .dot')].map((d) => d.getAttribute('aria-label'));
    return out;
  }, REGIONS);
}
const tableText = (page, id) => page.evaluate((t) => document.querySelector(`#${t} tbody`).textContent, id);

test('with the WebAssembly blocked the default page still shows the walkthrough, the ledger\'s current formula and the figures', async () => {
  const page = await env.browser.context.newPage();
  await page.route(WASM, (route) => route.abort());
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.equal(await page.locator('#tour-title').innerText(), 'What this page shows');
  // The walkthrough's numbers are the app's, each one a button that names its figure, none still pending.
  const chips = page.locator('#tour-body button.fig');
  assert.ok(await chips.count() >= 4, 'the first screen quotes the tiers\' figures');
  assert.equal(await page.locator('#tour-body .pending').count(), 0);
  assert.match(await chips.first().innerText(), /\d/);
  // The ledger lists its entries, the current one with its formula, in view.
  assert.ok(await page.locator('#ledger-list li').count() >= 2);
  const formula = page.locator('#ledger-list .entry.current + .detail .formula');
  assert.ok(await formula.isVisible(), 'the current entry\'s formula shows');
  assert.match(await formula.innerText(), /=/);
  assert.match(await page.locator('#c-policy').innerText(), /\S/);
  assert.notEqual(await page.locator('#c-policy').innerText(), '—');
  // The figures section names the page that holds the default's figures, readable without the app.
  await page.click('#figures-details summary');
  const figuresLink = page.locator('#figures-details a[href="figures.html"]');
  assert.ok(await figuresLink.isVisible());
  await figuresLink.click();
  await page.waitForURL(/figures\.html$/);
  assert.ok(await page.locator('#figures-table tbody tr').count() > 50);
  assert.ok(await page.locator('#figures-table tbody tr').first().isVisible());
  assert.ok(await page.locator('#card-table tbody tr').count() > 0);
  assert.match(await page.locator('#figures-table tbody td.formula').first().innerText(), /=/);
  await page.goBack();
  // Nothing that needs the app offers itself: the animations wait for it.
  assert.equal(await page.locator('#path-list button:not([disabled])').count(), 0);
  await page.close();
});

test('the prerendered text is the text the app writes once it has started', async () => {
  const page = await env.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The figures page's tables, as the build wrote them.
  await page.goto(env.site.url + 'figures.html');
  const figuresBefore = await tableText(page, 'figures-table');
  const cardBefore = await tableText(page, 'card-table');
  assert.ok(figuresBefore.length > 1000 && cardBefore.length > 100, 'the figures page holds both tables');
  const release = await holdApp(page);
  await page.goto(env.site.url);
  await page.waitForLoadState('domcontentloaded');
  const before = await readRegions(page);
  assert.equal(await tableText(page, 'figures-table'), '', 'the page itself leaves its tables to the app');
  assert.match(before['ledger-list'], /=/, 'the ledger was prerendered');
  release();
  await whenReady(page);
  const after = await readRegions(page);
  for (const k of Object.keys(before)) assert.deepEqual(after[k], before[k], `${k} reads the same once the app runs`);
  // The tables are written by the app when they open: the same rows as the figures page's.
  await page.click('#figures-details summary');
  await page.waitForFunction(() => document.querySelector('#figures-table tbody').rows.length > 50);
  await page.click('#card-details summary');
  await page.waitForFunction(() => document.querySelector('#card-table tbody').rows.length > 0);
  assert.equal(await tableText(page, 'figures-table'), figuresBefore);
  assert.equal(await tableText(page, 'card-table'), cardBefore);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dot of the prerendered walkthrough opens its step before the app arrives', async () => {
  const page = await env.browser.context.newPage();
  const release = await holdApp(page);
  await page.goto(env.site.url);
  await page.waitForLoadState('load');
  await page.click('#tour-dots li:nth-child(2) .dot');
  assert.match(await page.locator('#tour-count').innerText(), /2 of/);
  release();
  await whenReady(page);
  assert.equal((await page.evaluate(() => window.tierscope.state())).path, 'decode');
  await page.close();
});

test('a link shows a placeholder, never the default scenario\'s values, until the app has applied it', async () => {
  const page = await env.browser.context.newPage();
  // The default's texts, to look for where they must not be.
  const plain = await page.context().newPage();
  await plain.route(WASM, (route) => route.abort());
  await plain.goto(env.site.url);
  const defaults = await readRegions(plain);
  await plain.goto(env.site.url + 'figures.html');
  const defaultFigures = await tableText(plain, 'figures-table');
  await plain.close();

  const release = await holdApp(page);
  await page.goto(env.site.url + '#ctx=32768&path=decode&step=1');
  await page.waitForLoadState('load');
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains('link-pending')));
  const shown = await page.evaluate(() => document.body.innerText);
  // The default's own sentences: its current entry's formula, its entry sentence and its playback position.
  const theirs = [...defaults['ledger-list'].split('\n').filter((l) => l.includes(' = ')), defaults['entry-now'], defaults['pb-pos']];
  assert.ok(theirs.length >= 3);
  for (const line of theirs) assert.ok(!shown.includes(line), `the default's "${line}" is not shown for the link`);
  for (const id of ['c-global', 'subtitle-layout', 'ledger-list', 'entry-now']) {
    assert.equal(await page.locator('#' + id).evaluate((n) => getComputedStyle(n).visibility), 'hidden', `#${id} waits for the link`);
  }
  release();
  await whenReady(page);
  assert.ok(!(await page.evaluate(() => document.documentElement.classList.contains('link-pending'))));
  const st = await page.evaluate(() => window.tierscope.state());
  assert.equal(st.path, 'decode');
  assert.match(st.scenarioHash, /ctx=32768/);
  assert.equal(await page.locator('#subtitle-layout').innerText(), st.layoutText);
  assert.notEqual(await page.locator('#entry-now').innerText(), defaults['entry-now'], 'the entry is the link\'s');
  assert.equal(await page.locator('#ledger-list').evaluate((n) => getComputedStyle(n).visibility), 'visible');
  await page.click('#figures-details summary');
  await page.waitForFunction(() => document.querySelector('#figures-table tbody').rows.length > 50);
  assert.notEqual(await tableText(page, 'figures-table'), defaultFigures, 'the figures are the link\'s, not the default\'s');
  await page.close();
});
