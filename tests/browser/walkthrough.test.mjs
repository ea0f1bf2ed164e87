// Browser tests of the walkthrough and the ledger panel: readable before the app loads, every step plays
// its path and highlights its entry, keyboard paging, ledger click → seek, filters, downloads, entry links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openApp, useBrowser } from './lib/browser.mjs';
import { CATALOG } from './lib/catalog.mjs';
import path from 'node:path';
import { ROOT } from './lib/browser.mjs';
import { STEPS, INTRO, variantFor, allVariants, templatesOf, parseTemplate } from '../../web/lib/tour.mjs';
import { figureWithScope } from '../../web/lib/figures.mjs';

// The app's figure values by id, as the walkthrough reads them to choose a claim (the decode title).
const valuesOf = (page) => page.evaluate(() => Object.fromEntries(window.tierscope.figures().map((f) => [f.id, f.feasible ? f.value : undefined])));

const env = useBrowser({
  setup: (e) => e.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.site.url.replace(/\/$/, '') }),
});

// (A page without a link shows the build's prerendered numbers at once: prerender.test.mjs. A link's view may
// be another scenario, so its numbers wait for the app.)
test('before the app arrives a link\'s walkthrough is real text with placeholders, then the numbers fill in', async () => {
  const page = await env.browser.context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/tierscope.*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(env.site.url + '#ctx=32768&tour=intro');
  await page.waitForSelector('#tour-body .fig.pending');
  assert.equal(await page.locator('#tour-title').textContent(), variantFor(INTRO, null).title);
  assert.match(await page.locator('#tour-body').textContent(), /which memory tier/);
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

// The ledger entry each step talks about (the app decides it from its path's row: anim::kPaths, app::open_tour_step).
const OPENS_ON = CATALOG.paths.map((p) => p.opensOn);

test('the walkthrough end to end: each step opens its path on the entry it talks about', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  // Every {arch.field} any wording quotes is a fact the app writes in state().arch (its text, or a name).
  const arch = (await page.evaluate(() => window.tierscope.state())).arch;
  for (const s of [INTRO, ...STEPS]) for (const v of allVariants(s, CATALOG.decodeTerms)) for (const t of templatesOf(v)) for (const part of parseTemplate(t)) {
    if (!part.figure || !part.figure.startsWith('arch.')) continue;
    const field = part.figure.slice(5);
    assert.ok(typeof arch.text[field] === 'string' || typeof arch[field] === 'string', `{${part.figure}} is a fact of state().arch`);
  }
  const ledger = (p) => page.evaluate(() => [...document.querySelectorAll('#ledger-list .entry')].map((b) => b.classList.contains('current')));
  const values = await valuesOf(page);
  for (let i = 0; i < STEPS.length; i++) {
    if (i > 0) await page.click('#tour-next');
    else await page.click('#tour-dots li:first-child .dot');
    const s = await page.evaluate(() => window.tierscope.state());
    assert.equal(s.path, STEPS[i].path, `step ${i + 1} plays ${STEPS[i].path}`);
    assert.equal(s.playing, false);
    assert.equal(await page.locator('#tour-title').textContent(), variantFor(STEPS[i], s.arch, (id) => values[id], CATALOG.decodeTerms).title);
    assert.equal(await page.locator('#tour-count').textContent(), `· ${i + 1} of ${STEPS.length}`);
    assert.equal(await page.getAttribute(`#tour-dots li:nth-child(${i + 1}) .dot`, 'aria-current'), 'step');
    const cur = await page.$eval('#ledger-list .entry.current', (b) => Number(b.dataset.index));
    assert.equal(cur, s.step, 'the ledger highlights the state the step talks about');
    assert.equal(await page.$eval('#ledger-list .entry.current', (b) => b.dataset.step), OPENS_ON[i]);
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
  // (the list scrolls in the next frame, where the page is laid out anyway)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const inView = await page.evaluate(() => {
    const list = document.getElementById('ledger-list').getBoundingClientRect();
    const cur = document.querySelector('#ledger-list .entry.current').getBoundingClientRect();
    return cur.top >= list.top - 1 && cur.top < list.bottom;
  });
  assert.ok(inView, 'the current entry is scrolled into the list\'s view');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself did not scroll');
  await page.close();
});

test('on a phone a link to a late step scrolls the ledger to it once the reader reaches the list', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${env.site.url}#path=csa2-modes&step=35`);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('#ledger-list .entry.current')?.dataset.index === '35');
  await page.evaluate(() => document.getElementById('ledger-list').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => {
    const list = document.getElementById('ledger-list').getBoundingClientRect();
    const cur = document.querySelector('#ledger-list .entry.current').getBoundingClientRect();
    return list.height > 0 && cur.top >= list.top - 1 && cur.top < list.bottom;
  }, null, { timeout: 5000 });
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

test('a page with no link opens on a plain first screen: the four tiers with the model\'s numbers, then Next hands over to prefill', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.waitForFunction(() => !document.querySelector('#tour-body .fig.pending'));
  assert.equal(await page.textContent('#tour-title'), 'What this page shows');
  assert.equal(await page.textContent('#tour-count'), '· before step 1');
  assert.match(await page.textContent('#tour-body'), /which bytes .* live in which memory tier .* what it costs to move them/);
  // One line per tier, each quoting its capacity and latency as the model computes them.
  const tiers = await page.$$eval('#tour-body .tour-tiers li', (items) => items.map((li) => ({
    text: li.textContent, figs: [...li.querySelectorAll('.fig')].map((b) => [b.dataset.fig, b.textContent]) })));
  assert.deepEqual(tiers.map((t) => t.text.split(':')[0]), ['GPU SRAM', 'GPU HBM', 'Host DRAM', 'NVMe SSD']);
  const figs = await page.evaluate(() => Object.fromEntries(window.tierscope.figures().map((f) => [f.id, f])));
  tiers.forEach((t) => {
    // Its own tier's capacity (bytes) and latency (seconds), as the model's figures say which tier they are of.
    const name = t.text.split(':')[0].toLowerCase();
    for (const unit of ['B', 's']) {
      assert.ok(t.figs.some(([fid]) => figs[fid].unit === unit && figs[fid].tier.toLowerCase() === name), `${name} quotes its own ${unit === 'B' ? 'capacity' : 'latency'}`);
    }
    // The model's figure, with what it counts unless the words after the chip say it already.
    for (const [id, text] of t.figs) assert.ok([figs[id].text, figureWithScope(figs[id])].includes(text), `${id} shows the model's figure: ${text}`);
  });
  // The words on the page's counters and legend, explained before step one uses them.
  const body = await page.textContent('#tour-body');
  for (const term of ['MoE, a mixture of experts', 'CSA2, sparse attention', 'SWA, a sliding window', 'Engram, learned memory', 'FP4, numbers stored in four bits']) {
    assert.ok(body.includes(term), `explains ${term}`);
  }
  // A number opens its formula, as in every step.
  await page.click('#tour-body .tour-tiers li:nth-child(2) .fig[data-fig="hw.hbm_latency"]');
  assert.match(await page.textContent('#tour-look'), /HBM access latency/);
  const s0 = await page.evaluate(() => window.tierscope.state());
  assert.equal(s0.path, 'prefill', 'the canvas shows the first step\'s path');
  assert.match(await page.evaluate(() => location.hash), /tour=intro/);
  assert.equal(await page.isDisabled('#tour-back'), true);
  // Next hands over to prefill, by name.
  assert.equal(await page.textContent('#tour-next'), 'Next: prefill ▶');
  await page.click('#tour-next');
  const values = await valuesOf(page);
  assert.equal(await page.textContent('#tour-title'), variantFor(STEPS[0], s0.arch, (id) => values[id], CATALOG.decodeTerms).title);
  assert.equal(await page.textContent('#tour-count'), `· 1 of ${STEPS.length}`);
  assert.equal(await page.textContent('#tour-next'), 'Next ▶');
  assert.match(await page.evaluate(() => location.hash), /tour=1(&|$)/);
  // Back returns to the first screen; its link reopens it.
  await page.click('#tour-back');
  assert.equal(await page.textContent('#tour-title'), 'What this page shows');
  const link = await page.evaluate(() => window.tierscope.link());
  assert.match(link, /tour=intro/);
  // tour=N links open the same steps as before the first screen existed.
  for (let n = 1; n <= STEPS.length; n++) {
    await page.evaluate((k) => { location.hash = `tour=${k}`; }, n);
    await page.waitForFunction((k) => document.getElementById('tour-count').textContent.startsWith(`· ${k} of`), n);
    assert.equal((await page.evaluate(() => window.tierscope.state())).path, STEPS[n - 1].path, `tour=${n} opens ${STEPS[n - 1].path}`);
  }
  await page.evaluate((l) => { location.hash = new URL(l).hash; }, link);
  await page.waitForFunction(() => document.getElementById('tour-title').textContent === 'What this page shows');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the decode title names the step\'s largest cost: the launch floor at batch 1, the weights once kernels and all-reduces start for free', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#tour=2');
  await page.waitForFunction(() => !document.querySelector('#tour-body .fig.pending'));
  let v = await valuesOf(page);
  assert.ok(v['decode.t_overhead'] > v['decode.t_weights'], 'this scenario spends most of its step at the launch floor');
  assert.equal(await page.textContent('#tour-title'), 'Decode: one token, mostly kernels waiting at their launch floor');
  assert.match(await page.textContent('#tour-body'), /The largest part of the .* step is kernels waiting at their launch floor/);
  // kernel_us 0 is the engine's own floor; a thousandth of a microsecond makes launches all but free, and the
  // same for each kernel's ramp on top of its roofline time.
  assert.equal((await page.evaluate(() => window.tierscope.setParam('kernel_us', 0.001))).ok, true);
  assert.equal((await page.evaluate(() => window.tierscope.setParam('kernel_ramp_us', 0.001))).ok, true);
  // At TP8 the all-reduces' fixed latency then comes next (two per layer); made all but free too, the weights lead.
  await page.waitForFunction(() => /mostly .*all-reduce/.test(document.getElementById('tour-title').textContent));
  assert.equal((await page.evaluate(() => window.tierscope.setParam('ar_lat_us', 0.001))).ok, true);
  await page.waitForFunction(() => /mostly reading weights/.test(document.getElementById('tour-title').textContent));
  v = await valuesOf(page);
  assert.ok(v['decode.t_weights'] > v['decode.t_overhead']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an imported model with no Engram and no window: those steps say so in one line, and their animations are marked', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#tour=1');
  const text = fs.readFileSync(path.join(ROOT, 'tests/data/hf_configs/Qwen3-30B-A3B.json'), 'utf8');
  assert.equal((await page.evaluate((t) => window.tierscope.loadConfig(t), text)).ok, true);
  await page.waitForFunction(() => document.querySelector('#path-list [data-path="engram"] .path-none'));
  // The paths the app says this model has nothing for (its catalog's `applies`): Engram and the window's resume.
  const none = await page.evaluate(() => window.tierscope.catalog().paths.filter((p) => !p.applies).map((p) => p.key));
  assert.equal(none.length, 2, JSON.stringify(none));
  assert.ok(none.includes('engram') && none.includes('swa-resume'), JSON.stringify(none));
  for (const key of none) {
    assert.match(await page.textContent(`#path-list [data-path="${key}"]`), /none in this model/, `${key} is marked as having nothing to play`);
  }
  assert.doesNotMatch(await page.textContent('#path-list [data-path="decode"]'), /none in this model/);
  // Choosing a marked animation shows the walkthrough's one line about it.
  await page.click('#path-list [data-path="engram"]');
  await page.waitForFunction(() => document.getElementById('tour-title').textContent === 'Engram: not part of this model');
  await page.click('#tour-dots li:nth-child(3) .dot');
  assert.equal(await page.textContent('#tour-title'), 'Engram: not part of this model');
  assert.equal(await page.locator('#tour-body p').count(), 1);
  assert.match(await page.textContent('#tour-body'), /has no Engram tables.* would /);
  await page.click('#tour-dots li:nth-child(5) .dot');
  assert.equal(await page.textContent('#tour-title'), 'Session resume: no sliding window to park');
  assert.equal(await page.locator('#tour-body p').count(), 1);
  assert.match(await page.textContent('#tour-body'), /keeps no sliding window.* would /);
  assert.deepEqual(errors, []);
  await page.close();
});
