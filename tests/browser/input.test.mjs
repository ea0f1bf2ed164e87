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

const SHOTS = path.join(ROOT, 'build/screenshots');
const env = useBrowser({ contextOptions: { hasTouch: true }, setup: () => fs.mkdirSync(SHOTS, { recursive: true }) });

const stateOf = (page) => page.evaluate(() => window.tierscope.state());
const layoutOf = (page) => page.evaluate(() => window.tierscope.layout());
const framesOf = async (page) => (await page.evaluate(() => window.tierscope.stats())).framesDrawn;

async function openAt(width, height, hash = '') {
  const { page, errors } = await openApp(env.browser.context, env.site.url + hash, { waitReady: false });
  await page.setViewportSize({ width, height });
  await page.reload();
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  return { page, errors };
}

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
  for (let i = 0; i < 40 && !reached; i++) {
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
