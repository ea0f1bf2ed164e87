// Browser tests of the walkthrough and the ledger panel: readable before the app loads, every step plays
// its path and highlights its entry, keyboard paging, ledger click → seek, filters, downloads, entry links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openApp, useBrowser } from './lib/browser.mjs';
import { STEPS, variantFor } from '../../web/lib/tour.mjs';
import { figureWithScope } from '../../web/lib/figures.mjs';

const env = useBrowser({
  setup: (e) => e.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.site.url.replace(/\/$/, '') }),
});

test('before the app arrives the walkthrough is real text with placeholders, then the numbers fill in', async () => {
  const page = await env.browser.context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/tierscope.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(env.site.url);
  await page.waitForSelector('#tour-body .fig.pending');
  assert.equal(await page.locator('#tour-title').textContent(), variantFor(STEPS[0], null).title);
  assert.match(await page.locator('#tour-body').textContent(), /causal encoder/);
  assert.equal(await page.locator('#loading').isVisible(), true);
  release();
  await page.waitForFunction(() => document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.waitForFunction(() => !document.querySelector('#tour-body .fig.pending'));
  const text = await page.locator('#tour-body').textContent();
  assert.doesNotMatch(text, /[{}…]/, 'no unfilled slot left');
  const figs = await page.evaluate(() => Object.fromEntries(window.tierscope.figures().map((f) => [f.id, f])));
  const shown = await page.$$eval('#tour-body .fig', (n) => n.map((x) => [x.dataset.fig, x.textContent]));
  assert.ok(shown.length >= 4);
  // The model's figure and what it counts ("273 sessions per instance").
  // (Only the figure when the words after it say what it counts: "activates {x} per token".)
  for (const [id, t] of shown) assert.ok(t === figureWithScope(figs[id]) || t === figs[id].text, `slot ${id} shows the model's figure`);
  assert.doesNotMatch(text, /per token per token|per request per request|per GPU per GPU/, 'no scope said twice');
  await page.close();
});

test('the walkthrough end to end: each step opens its path on the entry it talks about', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const ledger = (p) => page.evaluate(() => [...document.querySelectorAll('#ledger-list .entry')].map((b) => b.classList.contains('current')));
  for (let i = 0; i < STEPS.length; i++) {
    if (i > 0) await page.click('#tour-next');
    else await page.click('#tour-dots li:first-child .dot');
    const s = await page.evaluate(() => window.tierscope.state());
    assert.equal(s.path, STEPS[i].path, `step ${i + 1} plays ${STEPS[i].path}`);
    assert.equal(s.playing, false);
    assert.equal(await page.locator('#tour-title').textContent(), variantFor(STEPS[i], s.arch).title);
    assert.equal(await page.locator('#tour-count').textContent(), `· ${i + 1} of ${STEPS.length}`);
    assert.equal(await page.getAttribute(`#tour-dots li:nth-child(${i + 1}) .dot`, 'aria-current'), 'step');
    const cur = await page.$eval('#ledger-list .entry.current', (b) => Number(b.dataset.index));
    assert.equal(cur, s.step, 'the ledger highlights the state the step talks about');
    assert.equal(await page.$eval('#ledger-list .entry.current', (b) => b.dataset.step), STEPS[i].entry.step);
    assert.equal((await ledger()).filter(Boolean).length, 1);
    assert.match(await page.locator('#announce').textContent(), /step/i);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`tour=${i + 1}`));
  }
  assert.equal(await page.locator('#tour-next').isDisabled(), true);
  // "Play" starts the step's path from its beginning.
  await page.click('#tour-play');
  assert.equal((await page.evaluate(() => window.tierscope.state())).playing, true);
  await page.evaluate(() => window.tierscope.pause());
  // Keyboard: arrows page while focus is in the walkthrough.
  await page.focus('#tour-back');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#tour-count').textContent(), `· ${STEPS.length - 1} of ${STEPS.length}`);
  await page.keyboard.press('Home');
  assert.equal(await page.locator('#tour-count').textContent(), `· 1 of ${STEPS.length}`);
  assert.equal((await page.evaluate(() => window.tierscope.state())).path, STEPS[0].path);
  // Keys outside the walkthrough do not page it.
  await page.focus('#copy-link');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#tour-count').textContent(), `· 1 of ${STEPS.length}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking a ledger entry seeks there, highlights it and shows its formula and source', async () => {
  const { page } = await openApp(env.browser.context, env.site.url + '#path=prefill');
  const n = await page.locator('#ledger-list .entry').count();
  assert.equal(n, (await page.evaluate(() => window.tierscope.state())).ledgerLength);
  await page.click('#ledger-list li:nth-child(3) .entry');
  const s = await page.evaluate(() => window.tierscope.state());
  assert.equal(s.step, 2);
  assert.equal(await page.getAttribute('#ledger-list li:nth-child(3) .entry', 'aria-current'), 'step');
  assert.ok((await page.locator('#ledger-list li:nth-child(3) .detail .formula').textContent()).length > 10);
  assert.match(await page.evaluate(() => location.hash), /step=2/);
  // Its sources are one click away (closed, they keep the ledger scannable), and stay open while values change.
  const box = '#ledger-list li:nth-child(3) .detail details.sources-box';
  assert.equal(await page.getAttribute(box, 'open'), null);
  assert.equal(await page.isVisible(`${box} .sources`), false);
  await page.click(`${box} summary`);
  assert.equal(await page.isVisible(`${box} .sources`), true);
  assert.match(await page.textContent(`${box} .sources`), /FACTS|https?:/);
  assert.equal((await page.evaluate(() => window.tierscope.setParam('batch', '4'))).ok, true);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  assert.notEqual(await page.getAttribute(box, 'open'), null, 'still open after a value changed');
  // Even when the value changes in the same task as the click, before the box's 'toggle' event arrives.
  await page.click(`${box} summary`);
  assert.equal(await page.getAttribute(box, 'open'), null);
  const openNow = await page.evaluate(async (sel) => {
    document.querySelector(`${sel} summary`).click();
    window.tierscope.setParam('batch', '8');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return document.querySelector(sel).open;
  }, box);
  assert.equal(openNow, true, 'opened in the same task as a value change, and still open');
  // Arrow keys move focus between entries, Enter seeks.
  await page.focus('#ledger-list li:nth-child(3) .entry');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal((await page.evaluate(() => window.tierscope.state())).step, 3);
  // Seeking from outside (the API) moves the highlight and keeps it inside the list's view.
  await page.evaluate(() => window.tierscope.play('csa2-modes'));
  await page.evaluate(() => { window.tierscope.pause(); window.tierscope.seek(35); });
  await page.waitForFunction(() => document.querySelector('#ledger-list .entry.current')?.dataset.index === '35');
  const inView = await page.evaluate(() => {
    const list = document.getElementById('ledger-list').getBoundingClientRect();
    const cur = document.querySelector('#ledger-list .entry.current').getBoundingClientRect();
    return cur.top >= list.top - 1 && cur.top < list.bottom;
  });
  assert.ok(inView, 'the current entry is scrolled into the list\'s view');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself did not scroll');
  await page.close();
});

test('filters narrow the ledger; CSV and JSON downloads hold what is shown; an entry link reopens it', async () => {
  const { page } = await openApp(env.browser.context, env.site.url + '#path=decode');
  const all = await page.locator('#ledger-list .entry').count();
  await page.selectOption('#ledger-object', 'global-kv');
  const kv = await page.locator('#ledger-list .entry').count();
  assert.ok(kv > 0 && kv < all);
  for (const t of await page.$$eval('#ledger-list .obj', (n) => n.map((x) => x.textContent))) assert.match(t, /global KV/i);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#ledger-csv')]);
  assert.match(csv.suggestedFilename(), /^tierscope-decode-.*global-kv\.csv$/);
  const rows = fs.readFileSync(await csv.path(), 'utf8').trimEnd().split('\r\n');
  assert.equal(rows.length, kv + 1);
  assert.match(rows[0], /^index,step,phase,layer,t_start_s,duration_s,from,to,object,bytes/);
  await page.selectOption('#ledger-object', '');
  await page.selectOption('#ledger-tier', 'sram');
  const sram = await page.locator('#ledger-list .entry').count();
  assert.ok(sram > 0 && sram <= all);
  for (const t of await page.$$eval('#ledger-list .move', (n) => n.map((x) => x.textContent))) assert.match(t, /GPU SRAM/);
  await page.selectOption('#ledger-tier', '');
  const [json] = await Promise.all([page.waitForEvent('download'), page.click('#ledger-json')]);
  const data = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  assert.equal(data.path, 'decode');
  assert.equal(data.entries.length, all);
  // Link to entry: the current entry's step in the copied link.
  await page.click('#ledger-list li:nth-child(4) .entry');
  await page.click('#ledger-link');
  await page.waitForSelector('#notices .notice.info');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /#.*path=decode.*step=3/);
  const p2 = await openApp(env.browser.context, link);
  assert.equal((await p2.page.evaluate(() => window.tierscope.state())).step, 3);
  assert.equal(await p2.page.$eval('#ledger-list .entry.current', (b) => b.dataset.index), '3');
  await p2.page.close();
  await page.close();
});
