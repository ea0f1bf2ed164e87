// Browser tests of first contact, as a new user meets the page: touch on a phone-sized page (one tap selects
// what it lands on, one tap on a toolbar button opens its panel), a typed value that applies on Enter with
// no other input, and the keyboard alone (every panel from its key, walking the canvas objects with the
// selection announced, a visible focus ring, Tab leaving the canvas). Runs in a touch-capable context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openApp, ROOT, settled, useBrowser } from './lib/browser.mjs';
import { decodePng } from './lib/png.mjs';
import { CATALOG } from './lib/catalog.mjs';

const SHOTS = path.join(ROOT, 'build/screenshots');
const env = useBrowser({ contextOptions: { hasTouch: true }, setup: () => fs.mkdirSync(SHOTS, { recursive: true }) });

const stateOf = (page) => page.evaluate(() => window.tierscope.state());
const layoutOf = (page) => page.evaluate(() => window.tierscope.layout());
const framesOf = async (page) => (await page.evaluate(() => window.tierscope.stats())).framesDrawn;

// Opens the page at a size (set before it loads: the app starts at that size).
const openAt = (width, height, hash = '') => openApp(env.browser.context, env.site.url + hash, { viewport: { width, height } });

// Taps the centre of a canvas-relative rectangle [x, y, w, h] (the canvas may have moved: measured now).
async function tapRect(page, rect) {
  const box = await page.locator('#canvas').boundingBox();
  await page.touchscreen.tap(box.x + rect[0] + rect[2] / 2, box.y + rect[1] + rect[3] / 2);
}

test('touch on a phone: one tap selects the object it lands on, every time, and leaves no hover behind', async () => {
  const { page, errors } = await openAt(390, 844, '#path=decode');
  await settled(page);
  const L = await layoutOf(page);
  const blocks = L.items.filter((i) => i.kind === 'block' && i.rect[2] > 24 && i.rect[3] > 12).slice(0, 5);
  assert.ok(blocks.length >= 4, 'several blocks to tap');
  for (const b of blocks) {
    // Tap a corner away from the packet and its label, which sit over some blocks.
    const now = (await layoutOf(page)).items.find((i) => i.id === b.id);
    const before = await framesOf(page);
    await tapRect(page, [now.rect[0] + 3, now.rect[1] + 3, 10, 6]);
    await settled(page);
    assert.equal((await layoutOf(page)).selected, b.id, `one tap on ${b.id} selects it (not the block tapped before)`);
    const s = await stateOf(page);
    assert.ok((await framesOf(page)) - before < 40, 'a tap costs a handful of frames, then none');
    assert.ok(s.panels.includes('inspector'));
  }
  // The selection is announced in the page's live region.
  assert.match(await page.locator('#announce').textContent(), /^Selected /);
  fs.writeFileSync(path.join(SHOTS, 'phone-tap-selected.png'), await page.screenshot());
  assert.deepEqual(errors, []);
  await page.close();
});

test('touch: one tap on a toolbar button opens its panel beside or below the schematic, never over it', async () => {
  const { page } = await openAt(390, 844, '#path=decode');
  await settled(page);
  for (const [key, panel] of [['button:scenario', 'scenario'], ['button:card', 'card'], ['button:figures', 'figures']]) {
    const L = await layoutOf(page);
    await tapRect(page, L.controls[key]);
    await page.waitForFunction((p) => window.tierscope.state().panels.includes(p), panel, { timeout: 5000 });
    await settled(page);
    const after = await layoutOf(page);
    assert.notEqual(after.dockSide, 'none', `${panel}: the panels have their own area`);
    for (const it of after.items) {
      const [x, y, w, h] = it.rect, [dx, dy, dw, dh] = after.dock;
      assert.ok(!(x < dx + dw && dx < x + w && y < dy + dh && dy < y + h), `${panel}: ${it.id} is not under the panel`);
    }
    assert.equal(after.panelTextCut, 0, `${panel}: no text in the panels runs past its room`);
    // Tap it again: it closes.
    await tapRect(page, after.controls[key]);
    await page.waitForFunction((p) => !window.tierscope.state().panels.includes(p), panel, { timeout: 5000 });
  }
  await page.close();
});

test('a typed value applies on Enter with no other input, then the page idles again', async () => {
  const { page } = await openAt(1440, 900, '#path=decode&panels=scenario');
  await settled(page);
  const L = await layoutOf(page);
  assert.ok(L.controls['param:prompt'], 'the prompt field is drawn');
  await tapRect(page, L.controls['param:prompt']);
  await settled(page);
  // After a tap the field hands typing to a real text input, so a phone shows its keyboard.
  assert.equal(await page.evaluate(() => document.activeElement.className), 'ts-text-proxy', 'a text input has the focus');
  await page.keyboard.type('200000');
  await page.keyboard.press('Enter');
  // Nothing else happens: no pointer move, no other key.
  await page.waitForFunction(() => window.tierscope.state().overrides.prompt === '200000', null, { timeout: 5000 });
  await page.waitForFunction(() => document.activeElement === document.getElementById('canvas'), null, { timeout: 5000 });
  const figures = await page.evaluate(() => window.tierscope.figures());
  assert.ok(figures.length > 0);
  await settled(page);
  const a = await framesOf(page);
  await page.waitForTimeout(600);
  assert.equal(await framesOf(page), a, 'no frames while idle after the edit');
  // Typing fast into another field: every character lands, in order.
  await tapRect(page, (await layoutOf(page)).controls['param:batch']);
  await settled(page);
  await page.keyboard.type('64', { delay: 0 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().overrides.batch === '64', null, { timeout: 5000 });
  await page.close();
});

test('keyboard only: Tab reaches the canvas with a visible ring, keys open every panel, arrows walk the objects', async () => {
  const { page, errors } = await openAt(1440, 900, '#path=decode');
  await settled(page);
  const frame = page.locator('#canvas-frame');
  const plain = decodePng(await frame.screenshot());
  // Tab from the top of the page until the canvas has focus.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement === document.getElementById('canvas'));
  }
  assert.ok(reached, 'Tab reaches the canvas');
  await settled(page);
  const ringed = decodePng(await frame.screenshot());
  // The ring: pixels along the canvas's edge change colour when it has keyboard focus.
  let changed = 0, total = 0;
  for (let y = 0; y < plain.height; y++) {
    for (let x = 0; x < plain.width; x++) {
      const edge = x < 6 || y < 6 || x >= plain.width - 6 || y >= plain.height - 6;
      if (!edge) continue;
      const i = (y * plain.width + x) * 4;
      total++;
      if (Math.abs(plain.data[i] - ringed.data[i]) + Math.abs(plain.data[i + 1] - ringed.data[i + 1]) + Math.abs(plain.data[i + 2] - ringed.data[i + 2]) > 60) changed++;
    }
  }
  assert.ok(changed > total * 0.3, `the focus ring shows (${changed} of ${total} edge pixels changed)`);
  assert.match(await page.getAttribute('#canvas', 'aria-keyshortcuts'), /ArrowDown.*S M C F/);

  // Each panel opens from its key, with keyboard focus inside it; Esc comes back to the schematic.
  for (const [key, panel] of [['s', 'scenario'], ['m', 'modes'], ['c', 'card'], ['f', 'figures']]) {
    await page.keyboard.press(key);
    await page.waitForFunction((p) => window.tierscope.state().panels.includes(p), panel, { timeout: 5000 });
    await page.keyboard.press('Escape');
  }
  await settled(page);
  assert.equal((await layoutOf(page)).panelTextCut, 0);
  // ? shows the keys; Esc hides them.
  await page.keyboard.press('?');
  await page.waitForFunction(() => window.tierscope.layout().sections[0] === 'help', null, { timeout: 5000 });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.tierscope.layout().sections.includes('help'), null, { timeout: 5000 });

  // ↓ walks the objects: each is selected and announced by name.
  const seen = new Set();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((n) => {
      const s = window.tierscope.layout().selected;
      return s && !n.includes(s);
    }, [...seen], { timeout: 5000 });
    const sel = (await layoutOf(page)).selected;
    seen.add(sel);
    await page.waitForFunction(() => /^Selected /.test(document.getElementById('announce').textContent), null, { timeout: 5000 });
  }
  assert.equal(seen.size, 6, 'six different objects in turn');
  // I (or Enter) moves into the inspector; the step keys still step from the schematic after Esc.
  await page.keyboard.press('i');
  await page.keyboard.press('Escape');
  const step0 = (await stateOf(page)).step;
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((s) => window.tierscope.state().step === s + 1, step0, { timeout: 5000 });
  // No trap: Tab leaves the canvas.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement === document.getElementById('canvas')), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a value typed with the keyboard alone applies on Enter', async () => {
  const { page } = await openAt(1440, 900, '#path=decode');
  await settled(page);
  await page.focus('#canvas');
  await page.keyboard.press('s');
  await page.waitForFunction(() => window.tierscope.state().panels.includes('scenario'), null, { timeout: 5000 });
  // From the Scenario header: down to the preset, the Workload group, then ctx, batch, prompt fields.
  const L = await layoutOf(page);
  const fields = Object.entries(L.controls).filter(([k]) => k.startsWith('param:')).sort((a, b) => a[1][1] - b[1][1]);
  const promptRow = fields.findIndex(([k]) => k === 'param:prompt');
  assert.ok(promptRow >= 0);
  // Header → preset → Workload node → the first field, then one row per field.
  for (let i = 0; i < 3 + promptRow; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');  // starts editing the field under the keyboard focus
  await page.keyboard.type('9000');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().overrides.prompt === '9000', null, { timeout: 5000 });
  await page.close();
});

// The page's scroll offset once a fling has come to rest (unchanged over ten animation frames).
function scrollAtRest(page) {
  return page.evaluate(() => new Promise((resolve) => {
    let last = window.scrollY, still = 0;
    const tick = () => {
      if (window.scrollY === last) still += 1; else { last = window.scrollY; still = 0; }
      if (still >= 10) resolve(last); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

// A finger on the touch screen through the browser's own input pipeline (so the page can scroll under it).
async function swipe(page, from, to, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  const point = (p) => [{ x: p[0], y: p[1], id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
  for (let i = 1; i <= steps; i++) {
    const p = [from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(p) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('touch on a phone: a vertical swipe over the canvas scrolls the page and selects nothing; a sideways drag scrubs', async () => {
  const { page, errors } = await openAt(390, 844, '#path=decode');
  await settled(page);
  const box = await page.locator('#canvas').boundingBox();
  const mid = [box.x + box.width / 2, box.y + box.height * 0.6];
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await swipe(page, mid, [mid[0], mid[1] - 300]);
  await page.waitForFunction(() => window.scrollY > 100, null, { timeout: 5000 });
  await settled(page);
  assert.equal((await layoutOf(page)).selected, null, 'a swipe that scrolled the page is no tap');
  assert.deepEqual((await stateOf(page)).panels, ['inspector'], 'and opens nothing');
  // Sideways: the page stays, the path scrubs. (First the swipe's fling comes to rest.)
  const y0 = await scrollAtRest(page);
  const step0 = (await stateOf(page)).step;
  const b = await page.locator('#canvas').boundingBox();
  // Halfway down the part of the canvas on screen (the fling scrolled the page by a varying amount).
  const top = Math.max(b.y, 0), bottom = Math.min(b.y + b.height, 844);
  const at = [b.x + 30, (top + bottom) / 2];
  await swipe(page, at, [b.x + b.width - 30, at[1] + 4], 12);
  await settled(page);
  assert.notEqual((await stateOf(page)).step, step0, 'a sideways drag scrubs through the path');
  assert.equal(await page.evaluate(() => window.scrollY), y0, 'and leaves the page where it was');
  assert.deepEqual(errors, []);
  await page.close();
});

test('touch on a phone: a swipe inside each docked panel scrolls that panel to its last line, then the page — and opens nothing it starts on', async () => {
  for (const { key: panel } of CATALOG.panels) {
    const { page, errors } = await openAt(390, 844, '#path=decode&step=3');
    await settled(page);
    // The panel alone: its toolbar button (the inspector: a tap on a block it then explains).
    let L = await layoutOf(page);
    if (panel === 'inspector') {
      const block = L.items.find((i) => i.id === 'block:global-kv');
      await tapRect(page, [block.rect[0] + 2, block.rect[1] + 2, 8, 8]);
    } else {
      await tapRect(page, L.controls[`button:${panel}`]);
    }
    await page.waitForFunction((p) => window.tierscope.state().panels.includes(p), panel, { timeout: 5000 });
    await settled(page);
    L = await layoutOf(page);
    assert.equal(L.dockSide, 'bottom', `${panel}: a sheet below the schematic`);
    assert.ok(L.panelScroll[1] > 40, `${panel}: more than the sheet holds (${L.panelScroll})`);
    // The sheet on screen, then swipes from its lower part to its upper part until the panel is at its end.
    const canvasTop = await page.evaluate(() => document.getElementById('canvas').getBoundingClientRect().top + scrollY);
    await page.evaluate((y) => window.scrollTo(0, y), Math.max(0, canvasTop + L.dock[1] - 60));
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const y0 = await page.evaluate(() => window.scrollY);
    let swipes = 0;
    while (L.panelScroll[0] < L.panelScroll[1] - 1 && swipes < 60) {
      const box = await page.locator('#canvas').boundingBox();
      // Starting on a scenario field: a swipe is no tap, and opens no field.
      const field = panel === 'scenario' && Object.entries(L.controls).find(([k, r]) => k.startsWith('param:') && r[1] > L.dock[1] + L.dock[3] * 0.6 && r[1] < L.dock[1] + L.dock[3] * 0.9);
      const x = field ? box.x + field[1][0] + 6 : box.x + L.dock[0] + L.dock[2] / 2;
      const from = [x, box.y + (field ? field[1][1] + field[1][3] / 2 : L.dock[1] + L.dock[3] * 0.85)];
      await swipe(page, from, [x, box.y + L.dock[1] + L.dock[3] * 0.2]);
      await settled(page);
      const now = await layoutOf(page);
      assert.ok(now.panelScroll[0] > L.panelScroll[0], `${panel}: swipe ${swipes + 1} scrolled the panel (${L.panelScroll[0]} → ${now.panelScroll[0]} of ${now.panelScroll[1]})`);
      // The page stays while the panel scrolls (the swipe that takes the panel to its end moves the page by the rest).
      const atEnd = now.panelScroll[0] >= now.panelScroll[1] - 1;
      if (!atEnd) assert.equal(await page.evaluate(() => window.scrollY), y0, `${panel}: the page stays while the panel scrolls (swipe ${swipes + 1})`);
      assert.notEqual(await page.evaluate(() => document.activeElement.className), 'ts-text-proxy', `${panel}: a swipe raises no keyboard`);
      const step = now.panelScroll[0] - L.panelScroll[0];
      L = now;
      swipes += 1;
      // Three swipes show the panel follows the finger; the wheel then brings a long panel to within two
      // swipes of its end (a swipe costs the test ~0.8 s and the figures run to 4,000 px), and swipes finish it.
      if (swipes === 3) {
        while (L.panelScroll[1] - L.panelScroll[0] > 2.5 * step) {
          await page.mouse.move(box.x + L.dock[0] + L.dock[2] / 2, box.y + L.dock[1] + L.dock[3] / 2);
          await page.mouse.wheel(0, L.panelScroll[1] - L.panelScroll[0] - 2 * step);
          await settled(page);
          const wheeled = await layoutOf(page);
          assert.ok(wheeled.panelScroll[0] > L.panelScroll[0], `${panel}: the wheel scrolled the panel (${wheeled.panelScroll})`);
          L = wheeled;
        }
        await page.evaluate((y) => window.scrollTo(0, y), y0);
        await page.waitForFunction((y) => window.scrollY === y, y0);
      }
    }
    assert.ok(L.panelScroll[0] >= L.panelScroll[1] - 1, `${panel}: the last line was reached (${L.panelScroll})`);
    // At its end the panel lets the page scroll.
    const y1 = await scrollAtRest(page);
    const box = await page.locator('#canvas').boundingBox();
    const mid = [box.x + L.dock[0] + L.dock[2] / 2, Math.min(box.y + L.dock[1] + L.dock[3] * 0.8, 800)];
    await swipe(page, mid, [mid[0], mid[1] - 200]);
    await page.waitForFunction((y) => window.scrollY > y + 50, y1, { timeout: 5000 });
    assert.deepEqual((await stateOf(page)).overrides, {}, `${panel}: the swipes changed nothing`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('phone: the walkthrough sits next to the canvas it drives, and taps on the canvas or the playback move nothing', async () => {
  const { page, errors } = await openAt(390, 844, '#path=decode');
  await settled(page);
  const rects = () => page.evaluate(() => {
    const r = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return { top: b.top + scrollY, bottom: b.bottom + scrollY, height: b.height }; };
    return { frame: r('canvas-frame'), tour: r('tour'), play: r('tour-play'), y: scrollY };
  });
  const r0 = await rects();
  assert.ok(r0.tour.top - r0.frame.bottom < 200, `"Start here" begins ${Math.round(r0.tour.top - r0.frame.bottom)} px below the canvas`);
  // With the walkthrough's Play button on screen, part of the canvas it animates is on screen too.
  await page.evaluate(() => window.scrollTo(0, document.getElementById('tour-play').getBoundingClientRect().bottom + scrollY - innerHeight + 8));
  const r1 = await rects();
  const canvasShown = Math.min(r1.frame.bottom, r1.y + 844) - Math.max(r1.frame.top, r1.y);
  assert.ok(canvasShown >= 160, `with Play on screen ${Math.round(canvasShown)} px of the canvas show`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => window.scrollY === 0);
  // A tap that opens the inspector: the canvas keeps its size and the page does not move.
  const L = await layoutOf(page);
  const block = L.items.find((i) => i.kind === 'block' && i.rect[3] >= 24);
  await tapRect(page, [block.rect[0] + 2, block.rect[1] + 2, 8, 8]);
  await page.waitForFunction((id) => window.tierscope.layout().selected === id, block.id, { timeout: 5000 });
  await settled(page);
  await page.waitForTimeout(100);
  const r2 = await rects();
  assert.equal(r2.y, 0, 'the page did not scroll');
  assert.equal(r2.frame.height, r0.frame.height, 'the canvas kept its height');
  assert.notEqual((await layoutOf(page)).dockSide, 'none', 'the inspector opened inside the canvas');
  // Stepping by tap, with the walkthrough in view: nothing on screen moves.
  await page.evaluate(() => window.scrollTo(0, document.getElementById('tour').getBoundingClientRect().top + scrollY - 200));
  const before = await rects();
  for (let i = 0; i < 4; i++) {
    const nb = await page.locator('#pb-next').boundingBox();
    await page.touchscreen.tap(nb.x + nb.width / 2, nb.y + nb.height / 2);
    await settled(page);
    const now = await rects();
    assert.equal(now.y, before.y, `tap ${i + 1} on Next: the page did not scroll`);
    assert.equal(now.tour.top, before.tour.top, `tap ${i + 1} on Next: the walkthrough did not move`);
  }
  const sb = await page.locator('#pb-scrub').boundingBox();
  assert.ok(sb.height >= 24, `the step slider is ${sb.height} px tall`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone: the walkthrough\'s number chips and the playback controls are at least 24 px tall', async () => {
  const { page } = await openAt(390, 844, '#path=decode');
  await settled(page);
  await page.click('#tour-next');
  await page.waitForSelector('#tour-body .fig');
  const small = await page.evaluate(() => [...document.querySelectorAll('#tour-body .fig, #tour-dots .dot, .playback .btn, #pb-scrub')]
    .map((e) => ({ what: e.className || e.id, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width }))
    .filter((r) => r.h > 0 && (r.h < 24 || r.w < 24)));
  assert.deepEqual(small, []);
  await page.close();
});

test('keyboard: Tab reaches the canvas toolbar\'s buttons one by one; each opens its panel with the keys in it; Esc closes the panels', async () => {
  const { page, errors } = await openAt(1440, 900, '#path=decode');
  await settled(page);
  await page.focus('#canvas');
  // Back from the canvas: its toolbar's buttons, shown while one has focus.
  const names = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    const f = await page.evaluate(() => {
      const a = document.activeElement, r = a.getBoundingClientRect(), c = document.getElementById('canvas').getBoundingClientRect();
      return { panel: a.dataset.panel, w: r.width, h: r.height, inside: r.top >= c.top && r.bottom <= c.bottom, outline: getComputedStyle(a).outlineStyle };
    });
    assert.ok(f.w >= 24 && f.h >= 24 && f.inside, `${f.panel} shows over the canvas (${f.w}×${f.h})`);
    assert.notEqual(f.outline, 'none', `${f.panel} shows its focus`);
    names.push(f.panel);
  }
  assert.deepEqual(names, ['help', 'figures', 'card', 'modes', 'scenario']);
  // Scenario: Enter opens the panel and hands the keys to it (the canvas has focus again).
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tierscope.state().panels.includes('scenario'), null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas');
  assert.match(await page.locator('#announce').textContent(), /Scenario panel open/);
  // Esc leaves the panel, Esc again closes the docked panels.
  await settled(page);
  await page.keyboard.press('Escape');
  await settled(page);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.tierscope.state().panels.includes('scenario'), null, { timeout: 5000 });
  await settled(page);
  assert.equal((await layoutOf(page)).dockSide, 'none', 'no panel area left beside the schematic');
  assert.deepEqual(errors, []);
  await page.close();
});
