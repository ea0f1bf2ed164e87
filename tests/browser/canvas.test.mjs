// Visual tests of the canvas in headless Chromium: for every path at a few steps, the pixels inside the
// rectangles window.tierscope.layout() reports have the colour of their role, highlighted or not; the
// layout follows the state; click inspects, keys drive playback; screenshots of each path are written to
// build/screenshots/ for review.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openApp, ROOT, settled, useBrowser } from './lib/browser.mjs';
import { decodePng } from './lib/png.mjs';
import { PATH_KEYS } from './lib/catalog.mjs';

const SHOTS = path.join(ROOT, 'build/screenshots');
// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;
const FILLED = new Set(['token', 'encoder-layer', 'decoder-layer', 'stream', 'block']);

const env = useBrowser({ setup: () => fs.mkdirSync(SHOTS, { recursive: true }) });

// Waits until the app has drawn two frames after a change, or has stopped drawing (a change that draws
// nothing new, such as seeking to the step already shown, then settles at once instead of waiting out a
// timeout).
async function settle(page) {
  await settled(page, await page.evaluate(() => window.tierscope.stats().framesDrawn));
}

async function show(page, pathKey, step) {
  await page.evaluate(([p, s]) => { window.tierscope.play(p); window.tierscope.pause(); window.tierscope.seek(s); }, [pathKey, step]);
  await settle(page);
}

// The most frequent colour inside a rectangle (inset, and above a block's fill bar), ignoring text pixels.
function dominant(img, rect) {
  const [x, y, w, h] = rect;
  const x0 = Math.ceil(x + 3), x1 = Math.floor(x + w - 3), y0 = Math.ceil(y + 3), y1 = Math.floor(y + h - 5);
  const counts = new Map();
  let total = 0;
  for (let py = y0; py < y1; py++) {
    for (let px = x0; px < x1; px++) {
      if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
      const i = (py * img.width + px) * 4;
      const key = (img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
      total++;
    }
  }
  let best = 0, n = 0;
  for (const [k, c] of counts) if (c > n) { best = k; n = c; }
  return { rgb: [best >> 16, (best >> 8) & 255, best & 255], share: total ? n / total : 0 };
}

const near = (a, b, tol = 6) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const overlaps = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

for (const theme of ['dark', 'light']) {
  test(`every path, a few steps (${theme}): pixels in each rectangle match its role and highlight`, async () => {
    const { page, errors } = await openApp(env.browser.context, env.site.url, { viewport: { width: 1440, height: 900 }, media: { colorScheme: theme } });
    let checked = 0, lit = 0;
    for (const p of PATHS) {
      const steps = (await page.evaluate((k) => { window.tierscope.play(k); window.tierscope.pause(); return window.tierscope.state(); }, p)).steps;
      for (const step of [...new Set([0, Math.floor(steps / 2), Math.max(0, steps - 1)])]) {
        await show(page, p, step);
        const L = await page.evaluate(() => window.tierscope.layout());
        assert.equal(L.theme, theme);
        assert.equal(L.path, p);
        assert.equal(L.step, step);
        const png = await page.locator('#canvas').screenshot();
        if (step === 0) fs.writeFileSync(path.join(SHOTS, `canvas-${p}-${theme}.png`), png);
        const img = decodePng(png);
        // The packet, its label and the arrow are drawn over other items: leave those items out.
        const packet = L.items.find((i) => i.kind === 'packet');
        const avoid = packet ? [packet.rect[0] - 90, packet.rect[1] - 6, packet.rect[2] + 180, packet.rect[3] + 12] : null;
        for (const it of L.items) {
          if (!FILLED.has(it.kind) || (avoid && overlaps(it.rect, avoid))) continue;
          if (it.rect[2] < 12 || it.rect[3] < 12) continue;
          const want = L.colours[it.role][it.highlighted ? 'highlighted' : 'plain'];
          const got = dominant(img, it.rect);
          assert.ok(near(got.rgb, want), `${p} step ${step}: ${it.id} (${it.role}, ${it.highlighted ? 'highlighted' : 'plain'}) is rgb(${got.rgb}) where rgb(${want}) was expected`);
          assert.ok(got.share > 0.4, `${p} step ${step}: ${it.id} is mostly its fill (${(got.share * 100).toFixed(0)} %)`);
          checked++;
          if (it.highlighted) lit++;
        }
      }
    }
    assert.ok(checked > 200, `checked ${checked} rectangles`);
    assert.ok(lit > 20, `saw ${lit} highlighted rectangles`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the layout follows the state: highlights and the packet move with the step, rectangles do not', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await show(page, 'prefill', 0);
  const a = await page.evaluate(() => window.tierscope.layout());
  await show(page, 'prefill', 3);
  const b = await page.evaluate(() => window.tierscope.layout());
  const fixed = (L) => L.items.filter((i) => i.kind !== 'packet').map((i) => `${i.id}:${i.rect.join(',')}`);
  assert.deepEqual(fixed(b), fixed(a));
  const lit = (L) => L.items.filter((i) => i.highlighted && i.kind !== 'packet').map((i) => i.id).join(' ');
  assert.notEqual(lit(a), lit(b), 'a different step lights different items');
  assert.ok(a.flight && b.flight, 'a packet is in flight at each step');
  // Bands order by capacity and the schematic stays inside the canvas.
  const bands = a.items.filter((i) => i.kind === 'band');
  assert.equal(bands.length, 4);
  for (const x of bands) for (const y of bands) if (x.capacity < y.capacity) assert.ok(x.rect[2] <= y.rect[2]);
  for (const it of a.items) {
    assert.ok(it.rect[0] >= 0 && it.rect[1] >= 0, it.id);
    assert.ok(it.rect[0] + it.rect[2] <= a.viewport[0] + 0.5 && it.rect[1] + it.rect[3] <= a.viewport[1] + 0.5, it.id);
  }
  await page.close();
});

test('clicking a block inspects it; keys play, step and jump', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await show(page, 'decode', 0);
  const L = await page.evaluate(() => window.tierscope.layout());
  const kv = L.items.find((i) => i.id === 'block:global-kv');
  assert.ok(kv, 'the Global KV block is laid out');
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.click(box.x + kv.rect[0] + kv.rect[2] - 6, box.y + kv.rect[1] + 4);
  await settle(page);
  assert.equal((await page.evaluate(() => window.tierscope.layout())).selected, 'block:global-kv');
  await page.keyboard.press('End');
  await settle(page);
  const last = await page.evaluate(() => window.tierscope.state());
  assert.equal(last.step, last.steps - 1);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.equal((await page.evaluate(() => window.tierscope.state())).step, 1);
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  assert.equal((await page.evaluate(() => window.tierscope.state())).step, 0);
  await page.keyboard.press(' ');
  await settle(page);
  assert.equal((await page.evaluate(() => window.tierscope.state())).playing, true);
  await page.keyboard.press(' ');
  await settle(page);
  assert.equal((await page.evaluate(() => window.tierscope.state())).playing, false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sideways drag on the canvas scrubs through the path', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await show(page, 'prefill', 0);
  const L = await page.evaluate(() => window.tierscope.layout());
  const box = await page.locator('#canvas').boundingBox();
  const y = box.y + L.schematic[1] + 6;
  await page.mouse.move(box.x + 40, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 40 + i * 50, y);
  await page.mouse.up();
  await settle(page);
  assert.ok((await page.evaluate(() => window.tierscope.state())).step > 0, 'the drag moved the position forward');
  await page.close();
});

test('on a phone the schematic fits the canvas and panels do not cover it', async () => {
  const { page } = await openApp(env.browser.context, env.site.url, { viewport: { width: 390, height: 844 } });
  await show(page, 'decode', 2);
  const L = await page.evaluate(() => window.tierscope.layout());
  assert.equal(L.dock[2], 0, 'no docked column on a phone');
  for (const it of L.items) assert.ok(it.rect[0] + it.rect[2] <= L.viewport[0] + 0.5, it.id);
  assert.ok(L.textScale >= 0.6);
  fs.writeFileSync(path.join(SHOTS, 'canvas-phone.png'), await page.screenshot());
  await page.close();
});

test('reduced motion: the packet sits at its destination instead of gliding', async () => {
  const { page } = await openApp(env.browser.context, env.site.url, { media: { reducedMotion: 'reduce' } });
  await show(page, 'decode', 1);
  const L = await page.evaluate(() => window.tierscope.layout());
  const p = L.items.find((i) => i.kind === 'packet');
  assert.ok(p && L.flight);
  assert.ok(Math.abs(p.rect[0] + p.rect[2] / 2 - L.flight.end[0]) < 1 && Math.abs(p.rect[1] + p.rect[3] / 2 - L.flight.end[1]) < 1);
  await page.close();
});

test('idle: no frames are drawn while nothing plays and nothing is touched', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await show(page, 'decode', 0);
  await settled(page);
  const a = await page.evaluate(() => window.tierscope.stats());
  await page.waitForTimeout(2000);  // the window in which nothing may be drawn
  const b = await page.evaluate(() => window.tierscope.stats());
  assert.equal(b.framesDrawn, a.framesDrawn);
  await page.close();
});
