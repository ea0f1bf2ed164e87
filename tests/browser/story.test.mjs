// Browser tests of "one story on screen": the walkthrough, the canvas, the ledger and the status show the same
// path and step on load, after a link and after Back; the walkthrough's wording and the ledger's labels follow
// the model; a link's bad keys are all named in one notice that folds away and never covers the canvas;
// a change of the system colour scheme restyles the canvas, and both schemes read with high contrast; no panel
// text is cut at any tested size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, openApp, settled, useBrowser } from './lib/browser.mjs';
import { CATALOG } from './lib/catalog.mjs';
import { decodePng } from './lib/png.mjs';
import { STEPS, variantFor, stepIndexOfPath } from '../../web/lib/tour.mjs';
import { scopeWords } from '../../web/lib/figures.mjs';
import fs from 'node:fs';
import path from 'node:path';

const env = useBrowser();

// Opens the page at a size (set before loading: the page rewrites its hash once loaded, so a reload would
// not see the link as given).
async function openAt(hash, { width = 1440, height = 900 } = {}) {
  const page = await env.browser.context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width, height });
  await page.goto(env.site.url + hash);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  return { page, errors };
}

// Everything on screen that says where the view is, read from the page and the app.
async function story(page) {
  await page.waitForFunction(() => {
    const L = window.tierscope.layout(), s = window.tierscope.state();
    return L && s && L.path === s.path && L.step === s.step;
  }, null, { timeout: 5000 });
  return page.evaluate(() => {
    const s = window.tierscope.state();
    const L = window.tierscope.layout();
    const cur = document.querySelector('#ledger-list .entry.current');
    return {
      path: s.path, step: s.step, steps: s.steps, arch: s.arch,
      values: Object.fromEntries(window.tierscope.figures().map((f) => [f.id, f.feasible ? f.value : undefined])),
      canvasPath: L.path, canvasStep: L.step,
      ledgerPath: window.tierscope.ledger().path, ledgerCurrent: cur ? Number(cur.dataset.index) : -1,
      ledgerLabel: document.getElementById('ledger-path').textContent,
      status: document.getElementById('status').textContent,
      tourCount: document.getElementById('tour-count').textContent,
      tourTitle: document.getElementById('tour-title').textContent,
      tourText: document.getElementById('tour-body').textContent,
    };
  });
}

function agrees(v, what) {
  const i = stepIndexOfPath(v.path);
  assert.ok(i >= 0, `${what}: the path has a walkthrough step`);
  assert.equal(v.canvasPath, v.path, `${what}: the canvas shows the path`);
  assert.equal(v.canvasStep, v.step, `${what}: the canvas shows the step`);
  assert.equal(v.ledgerPath, v.path, `${what}: the ledger lists the path`);
  assert.equal(v.ledgerCurrent, v.step, `${what}: the ledger marks the step`);
  // The number the link, seek() and state().step use (from 0), with the range it runs over.
  assert.match(v.status, new RegExp(`step ${v.step} of steps 0–${v.steps - 1}`), `${what}: the status says the step`);
  assert.equal(v.tourCount, `· ${i + 1} of ${STEPS.length}`, `${what}: the walkthrough is on the path's step`);
  assert.equal(v.tourTitle, variantFor(STEPS[i], v.arch, (id) => v.values[id], CATALOG.decodeTerms).title, `${what}: the walkthrough tells the path`);
  assert.doesNotMatch(v.tourText, /[{}]/, `${what}: every slot is filled`);
}

test('walkthrough, canvas, ledger and status tell one story: on load, after a link, after Back', async () => {
  // A page opened with no hash starts on the walkthrough's first screen, over step one's path; Next opens
  // step one on the entry it talks about.
  const { page, errors } = await openAt('');
  const intro = await story(page);
  assert.equal(intro.path, STEPS[0].path);
  assert.equal(intro.tourCount, '· before step 1');
  await page.click('#tour-next');
  const first = await story(page);
  agrees(first, 'on load');
  assert.equal(first.path, STEPS[0].path);
  assert.equal(first.tourCount, `· 1 of ${STEPS.length}`);
  // A link to a path and step: the walkthrough follows the path, the canvas and ledger the step.
  await page.evaluate(() => { location.hash = 'preset=v41-flash-8xb200&path=swa-resume&step=2'; });
  await page.waitForFunction(() => window.tierscope.state().path === 'swa-resume');
  agrees(await story(page), 'after a link');
  // A link with only a walkthrough step opens that step's path on its entry.
  await page.evaluate(() => { location.hash = 'tour=3'; });
  await page.waitForFunction(() => window.tierscope.state().path === 'engram');
  const engram = await story(page);
  agrees(engram, 'after a walkthrough link');
  assert.equal(engram.tourCount, `· 3 of ${STEPS.length}`);
  // Choosing an animation from the list moves the walkthrough too.
  await page.click('#path-list [data-path="prefix-cache"]');
  await page.evaluate(() => window.tierscope.pause());
  agrees(await story(page), 'after choosing an animation');
  // Back returns to the earlier view, and everything follows it.
  await page.goBack();
  await page.waitForFunction(() => window.tierscope.state().path === 'engram');
  agrees(await story(page), 'after Back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link opened fresh agrees too, including one whose walkthrough step contradicts its path', async () => {
  const { page } = await openAt('#preset=v41-flash-8xb200&path=csa2-modes&step=7');
  agrees(await story(page), 'fresh link');
  await page.close();
  const { page: p2 } = await openAt('#path=decode&step=1&tour=1');
  const v = await story(p2);
  agrees(v, 'contradicting link');
  assert.equal(v.path, 'decode', 'the path wins');
  assert.equal(await p2.locator('#notices [data-field="tour"]').count(), 1, 'and the walkthrough step is named as refused');
  await p2.close();
});

test('the walkthrough and the ledger follow the model: decoder-only, GQA and dense weights for Llama', async () => {
  const { page, errors } = await openAt('#preset=llama31-70b-8xh100&path=prefill');
  const v = await story(page);
  agrees(v, 'Llama prefill');
  assert.equal(v.arch.family, 'decoder-only');
  assert.equal(v.arch.attention, 'gqa');
  assert.doesNotMatch(v.tourText, /encoder/i, 'no encoder is narrated for a decoder-only model');
  assert.match(v.tourTitle, /every layer/);
  // The numbers come from the app: the layer and head counts as state().arch gives them.
  assert.ok(v.tourText.includes(String(v.arch.layers)), 'the layer count is quoted');
  assert.ok(v.tourText.includes(String(v.arch.kv_heads)), 'the KV head count is quoted');
  // Decode: the weights are dense, and the ledger says so with the app's own names.
  await page.click('#path-list [data-path="decode"]');
  await page.evaluate(() => window.tierscope.pause());
  const d = await story(page);
  agrees(d, 'Llama decode');
  assert.match(d.tourTitle, /all of the weights/);
  const objects = await page.$$eval('#ledger-list .obj', (n) => n.map((x) => x.textContent));
  assert.ok(objects.some((t) => /Dense weights/.test(t)), `the ledger names dense weights (${objects.join(' | ')})`);
  assert.ok(!objects.some((t) => /MoE/.test(t)), 'and never MoE weights');
  const options = await page.$$eval('#ledger-object option', (n) => n.map((x) => x.textContent));
  assert.ok(options.includes('Dense weights'));
  // Engram and the sliding window: the walkthrough says this model has none.
  await page.click('#path-list [data-path="engram"]');
  await page.evaluate(() => window.tierscope.pause());
  assert.match((await story(page)).tourTitle, /not part of this model/);
  await page.click('#path-list [data-path="swa-resume"]');
  await page.evaluate(() => window.tierscope.pause());
  assert.match((await story(page)).tourTitle, /no sliding window/);
  // DeepSeek-V3 reads as MLA with experts.
  await page.evaluate(() => { location.hash = 'preset=deepseek-v3-8xh200&path=prefill'; });
  await page.waitForFunction(() => window.tierscope.state().preset === 'deepseek-v3-8xh200');
  const v3 = await story(page);
  assert.equal(v3.arch.attention, 'mla');
  assert.match(v3.tourText, /latent/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link with eight bad keys names all eight in one notice, which folds to one line and never covers the canvas', async () => {
  const bad = { ctx: 'abc', batch: '-3', prompt: 'lots', gpu: 'zz9', path: 'warp', step: 'q', speed: '99', tour: '42' };
  const hash = Object.entries(bad).map(([k, v]) => `${k}=${v}`).join('&');
  const { page } = await openAt('#' + hash);
  const fields = await page.$$eval('#notices [data-field]', (n) => n.map((x) => x.dataset.field));
  assert.deepEqual([...new Set(fields)].sort(), Object.keys(bad).sort(), 'every bad key is named');
  assert.equal(await page.locator('#notices .notice').count(), 1, 'in one notice');
  assert.match(await page.locator('#notices .notice-summary').textContent(), /8 settings.*default/);
  // The notice sits above the canvas, not over it.
  const [n, c] = await Promise.all([page.locator('#notices').boundingBox(), page.locator('#canvas').boundingBox()]);
  assert.ok(n.y + n.height <= c.y + 0.5, 'the notices end above the canvas');
  // After a few seconds it folds into one line, still naming the keys, and can be opened again or dismissed.
  await page.waitForSelector('#notices .notice.folded', { timeout: 15000 });
  const line = await page.locator('#notices .notice-summary').textContent();
  for (const k of Object.keys(bad)) assert.ok(line.includes(k), `the folded line names ${k}`);
  const folded = await page.locator('#notices .notice').boundingBox();
  assert.ok(folded.height < 48, `one line (${folded.height} px)`);
  await page.click('#notices .notice-toggle');
  assert.equal(await page.locator('#notices .notice-list').isVisible(), true);
  await page.click('#notices [aria-label="Dismiss"]');
  assert.equal(await page.locator('#notices .notice').count(), 0);
  await page.close();
});

test('a live change of the system colour scheme restyles the canvas', async () => {
  const { page } = await openApp(env.browser.context, env.site.url + '#path=decode', { media: { colorScheme: 'dark' } });
  assert.equal((await page.evaluate(() => window.tierscope.layout())).theme, 'dark');
  const mean = async () => {
    const img = decodePng(await page.locator('#canvas').screenshot());
    let sum = 0;
    for (let i = 0; i < img.data.length; i += 4) sum += img.data[i] + img.data[i + 1] + img.data[i + 2];
    return sum / (img.data.length / 4) / 3;
  };
  const dark = await mean();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => window.tierscope.layout().theme === 'light', null, { timeout: 5000 });
  await page.waitForTimeout(200);
  const light = await mean();
  assert.ok(light > dark + 80, `the canvas turns light (mean ${dark.toFixed(0)} → ${light.toFixed(0)})`);
  await page.close();
});

test('light and dark schemes both apply, with readable contrast', async () => {
  const page = await env.browser.context.newPage();
  const colours = {};
  for (const scheme of ['dark', 'light']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(env.site.url);
    colours[scheme] = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.backgroundColor, s.color];
    });
  }
  assert.notDeepEqual(colours.dark, colours.light);
  const lum = (c) => {
    const [r, g, b] = c.match(/\d+/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  for (const [bg, fg] of Object.values(colours)) {
    const [a, b] = [lum(bg), lum(fg)].sort((x, y) => y - x);
    assert.ok((a + 0.05) / (b + 0.05) > 7, `contrast of ${fg} on ${bg}`);
  }
  await page.close();
});

test('no text is cut, in the canvas or its panels, from 360×640 to 3840×2160 with every panel open', async () => {
  const sizes = [[360, 640], [390, 844], [768, 1024], [1280, 800], [1440, 900], [1920, 1080], [2560, 1440], [3840, 2160]];
  const page = await env.browser.context.newPage();
  for (const [w, h] of sizes) {
    for (const preset of ['v41-flash-8xb200', 'llama31-70b-8xh100']) {
      for (const panels of ['scenario,inspector', 'modes,card', 'figures']) {
        await page.setViewportSize({ width: w, height: h });
        await page.goto(`${env.site.url}#preset=${preset}&path=decode&panels=${panels}`);
        await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
        await page.waitForFunction((n) => window.tierscope.layout().sections.length >= n, panels.split(',').length - 1, { timeout: 5000 });
        await settled(page);
        const L = await page.evaluate(() => window.tierscope.layout());
        const what = `${w}×${h} ${preset} ${panels}`;
        assert.equal(L.panelTextCut, 0, `${what}: panel text fits its room`);
        for (const l of L.labels) assert.ok(l.width <= l.box[2] + 0.5, `${what}: “${l.text}” fits`);
        // Whole words: the only ellipsis is the token row's own "…" cell between the first and last tokens.
        for (const l of L.labels) assert.ok(l.text === '…' || !l.text.endsWith('…'), `${what}: “${l.text}” is whole`);
        if (L.dock[2] > 0) {
          for (const it of L.items.filter((x) => x.highlighted)) {
            const [x, y, iw, ih] = it.rect, [dx, dy, dw, dh] = L.dock;
            assert.ok(!(x < dx + dw && dx < x + iw && y < dy + dh && dy < y + ih), `${what}: ${it.id} is not under the panels`);
          }
        }
      }
    }
  }
  await page.close();
});

// Item 9: every number says what it counts, wherever the page shows it.
test('every number says what it counts: figures table, walkthrough chips, header and canvas, with the layout in the header', async () => {
  const { page, errors } = await openAt('#preset=v41-flash-8xb200&path=decode&step=0');
  const figs = await page.evaluate(() => window.tierscope.figures());
  assert.ok(figs.length > 100);
  for (const f of figs) assert.ok(typeof f.scope === 'string' && f.scope.length > 0, `${f.id} has a scope`);
  const byId = new Map(figs.map((f) => [f.id, f]));
  // The figures table: the scope beside each value.
  await page.evaluate(() => { document.getElementById('figures-details').open = true; });
  await page.waitForFunction(() => document.querySelectorAll('#figures-table tbody tr').length > 100);
  const rows = await page.evaluate(() => [...document.querySelectorAll('#figures-table tbody tr')].map((tr) => ({
    id: tr.dataset.fig, value: tr.querySelector('td.num').textContent, scope: tr.querySelector('td.num .scope')?.textContent || '' })));
  for (const r of rows) {
    const want = scopeWords(byId.get(r.id));
    assert.equal(r.scope.trim(), want, `${r.id}: the table says what “${r.value}” counts`);
  }
  assert.ok(rows.find((r) => r.id === 'hbm.sessions_per_node').value.endsWith('sessions per node'));
  assert.ok(rows.find((r) => r.id === 'hbm.weights_per_gpu').value.endsWith(' per GPU'));
  assert.ok(rows.find((r) => r.id === 'engram.table_bytes').value.endsWith('GB (whole model)'));
  // The walkthrough's number chips: each ends with what its figure counts ("273 sessions per instance").
  for (const tour of [1, 2, 3, 4, 5, 6]) {
    await page.evaluate((t) => { location.hash = `preset=v41-flash-8xb200&tour=${t}`; }, tour);
    await page.waitForFunction((t) => window.tierscope.state().tour === t - 1 || document.getElementById('tour-count').textContent.includes(`${t} of`), tour);
    await page.waitForFunction(() => !document.querySelector('#tour-body .fig.pending:not(.arch)'));
    const chips = await page.evaluate(() => [...document.querySelectorAll('#tour-body button.fig[data-fig]')].map((b) => ({ id: b.dataset.fig, text: b.textContent,
      after: (b.nextSibling && b.nextSibling.textContent) || '' })));
    for (const c of chips) {
      const f = byId.get(c.id);
      assert.ok(f, `${c.id} is a figure`);
      const want = scopeWords(f);
      if (!want) continue;
      // Each "per X" of it is said by the chip or by the words right after it ("69.99 GB on each GPU per step").
      const clause = c.after.split(/[.;:,(]/)[0].split(/\s+/);
      const parts = want.startsWith('per ') ? want.split(/ (?=per )/) : [want];
      for (const part of parts) {
        assert.ok(c.text.includes(' ' + part) || (part.startsWith('per ') && clause.includes(part.slice(4))) || c.after.startsWith(' ' + part),
          `walkthrough ${tour}: “${c.text}${c.after.slice(0, 30)}” says what it counts (${part} of ${want})`);
      }
    }
  }
  const sessions = await page.evaluate(() => document.querySelector('#tour-body button.fig[data-fig="hbm.sessions"]')?.textContent || '');
  if (sessions) assert.match(sessions, /sessions per instance$/);
  // The header: the counters' bytes are one GPU's; the node and its instances stand beside the model's name.
  const header = await page.evaluate(() => ({ global: document.getElementById('c-global').textContent, layout: document.getElementById('subtitle-layout').textContent,
    state: window.tierscope.state().layoutText, name: document.getElementById('subtitle-model').textContent }));
  assert.match(header.global, / per GPU$/);
  assert.equal(header.layout, '8×B200 · two TP4 instances');
  assert.equal(header.state, header.layout);
  assert.equal(header.name, 'DeepSeek V4.1 Flash');
  // Computed from the scenario: another layout reads otherwise.
  const r = await page.evaluate(() => window.tierscope.setParam('gpus', 8));
  assert.ok(r.ok, JSON.stringify(r.errors));
  await page.waitForFunction(() => document.getElementById('subtitle-layout').textContent !== '8×B200 · two TP4 instances');
  const eight = await page.evaluate(() => [document.getElementById('subtitle-layout').textContent, window.tierscope.state().layoutText]);
  assert.equal(eight[0], eight[1]);
  assert.match(eight[0], /^8×B200 · one .*TP\d+ instance/);
  // The canvas: tier bands and blocks say per GPU or per node.
  await settled(page);
  const labels = (await page.evaluate(() => window.tierscope.layout().labels)).map((l) => l.text);
  assert.ok(labels.some((t) => /^MoE weights · .*B per GPU$/.test(t) || /^\d.*B per GPU$/.test(t)), `a block says per GPU: ${labels.join(' | ')}`);
  assert.ok(labels.some((t) => /B per GPU · .*s$/.test(t)), `the HBM band says per GPU: ${labels.join(' | ')}`);
  assert.ok(labels.some((t) => /B per node · .*s$/.test(t)), `a host band says per node: ${labels.join(' | ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// Item 11: both times of a ledger row are labelled, and a link's step is the step the page names.
test('ledger rows label their start and duration; step=1 in a link reads step 1 everywhere', async () => {
  const { page, errors } = await openAt('#preset=v41-flash-8xb200&path=decode&step=1');
  await page.waitForFunction(() => document.querySelector('#ledger-list .entry.current'));
  const v = await page.evaluate(() => {
    // The words a sighted reader sees (screen-reader-only text aside).
    const seen = (n) => { const c = n.cloneNode(true); for (const x of c.querySelectorAll('.sr-only')) x.remove(); return c.textContent; };
    const cur = document.querySelector('#ledger-list .entry.current');
    return { step: window.tierscope.state().step, steps: window.tierscope.state().steps, index: Number(cur.dataset.index),
      at: seen(cur.querySelector('.t')), dur: seen(cur.querySelector('.dur')), bytes: seen(cur.querySelector('.bytes')),
      status: document.getElementById('status').textContent, pos: document.getElementById('pb-pos').textContent,
      scrub: document.getElementById('pb-scrub').getAttribute('aria-valuetext') };
  });
  assert.equal(v.step, 1);
  assert.equal(v.index, 1);
  assert.match(v.at, /^at \d/);
  assert.match(v.dur, /^takes \d/);
  assert.ok(v.bytes === '—' || / per GPU$/.test(v.bytes), v.bytes);
  for (const t of [v.status, v.pos, v.scrub]) assert.match(t, new RegExp(`step 1 of steps 0–${v.steps - 1}`));
  // Every row, not only the current one.
  const rows = await page.evaluate(() => {
    const seen = (n) => { const c = n.cloneNode(true); for (const x of c.querySelectorAll('.sr-only')) x.remove(); return c.textContent; };
    return [...document.querySelectorAll('#ledger-list .entry')].map((b) => [seen(b.querySelector('.t')), seen(b.querySelector('.dur'))]);
  });
  for (const [at, dur] of rows) { assert.match(at, /^at /); assert.match(dur, /^takes /); }
  assert.deepEqual(errors, []);
  await page.close();
});

// Item 11: an imported model without a sliding window or Engram has no such counters, and the header keeps one row.
test('after importing Qwen3-30B-A3B the header has no SWA or Engram counters and fits one row at 1440×900', async () => {
  const { page, errors } = await openAt('');
  const text = fs.readFileSync(path.join(ROOT, 'tests/data/hf_configs/Qwen3-30B-A3B.json'), 'utf8');
  const r = await page.evaluate((t) => window.tierscope.loadConfig(t), text);
  assert.ok(r.ok, JSON.stringify(r.errors));
  await page.waitForFunction(() => window.tierscope.state().preset.startsWith('config:'), null, { timeout: 5000 });
  // At a context the model was trained for, so every number is computed.
  assert.ok((await page.evaluate(() => window.tierscope.setParam('ctx', 32768))).ok);
  await page.waitForFunction(() => window.tierscope.state().feasible && document.getElementById('c-global').textContent !== '—', null, { timeout: 5000 });
  const h = await page.evaluate(() => {
    const shown = (id) => { const b = document.getElementById(id).parentElement; return !b.hidden && b.getBoundingClientRect().width > 0; };
    const kids = [...document.querySelector('header.top').children].filter((c) => c.getBoundingClientRect().width > 0);
    const rects = kids.map((c) => c.getBoundingClientRect());
    return { swa: shown('c-swa'), engram: shown('c-engram'), global: shown('c-global'), header: document.querySelector('header.top').textContent,
      tops: rects.map((x) => x.top), bottoms: rects.map((x) => x.bottom), layout: document.getElementById('subtitle-layout').textContent };
  });
  assert.equal(h.swa, false, 'no SWA counter for a model without a sliding window');
  assert.equal(h.engram, false, 'no Engram counter for a model without Engram');
  assert.equal(h.global, true);
  assert.doesNotMatch(h.header, /\(none\)/);
  assert.ok(h.layout.length > 0);
  // One row: every item starts above the bottom of every other.
  assert.ok(Math.max(...h.tops) < Math.min(...h.bottoms), `one row: tops ${h.tops.join(', ')} bottoms ${h.bottoms.join(', ')}`);
  // The KV block on the canvas is one GPU's; the walkthrough's session figure says per session.
  await settled(page);
  const labels = (await page.evaluate(() => window.tierscope.layout().labels)).map((l) => l.text);
  assert.ok(labels.some((t) => /KV cache.* per GPU$/.test(t) || /B per GPU$/.test(t)), labels.join(' | '));
  assert.deepEqual(errors, []);
  await page.close();
});
