// Browser tests of the page shell and the app skeleton, in headless Chromium: loads cleanly, draws real
// pixels, does not shift its layout while loading, fits a 360 px phone, follows resizes and devicePixelRatio,
// keeps the page's keys, and shows a message for each failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, settled, useBrowser } from './lib/browser.mjs';
import { decodePng, pixelVariety } from './lib/png.mjs';

const env = useBrowser();

async function canvasPixels(page) {
  return decodePng(await page.locator('#canvas').screenshot());
}

test('the page loads without console errors and the canvas shows a rendered frame', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  assert.match(await page.locator('#status').textContent(), /^Ready/);
  const img = await canvasPixels(page);
  const v = pixelVariety(img);
  assert.ok(v.colours > 20, `expected a drawn frame with text, found ${v.colours} colours`);
  assert.ok(v.nonBackgroundShare > 0.02, `expected non-blank pixels, found ${(v.nonBackgroundShare * 100).toFixed(2)}%`);
  const stats = await page.evaluate(() => window.tierscope.stats());
  assert.ok(stats.framesDrawn >= 1, 'the app reports drawn frames');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a resize re-lays the canvas at the new CSS size × devicePixelRatio', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  const before = await page.evaluate(() => window.tierscope.stats());
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.waitForFunction((w) => window.tierscope.stats().canvasCss[0] !== w, before.canvasCss[0], { timeout: 5000 });
  const s = await page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return { stats: window.tierscope.stats(), css: [Math.floor(r.width), Math.floor(r.height)] };
  });
  assert.deepEqual(s.stats.canvasCss, s.css, 'the app knows the canvas CSS size');
  assert.equal(s.stats.canvasPx[0], Math.floor(s.css[0] * s.stats.pixelRatio));
  // The frame after the resize is drawn at the new size.
  const img = await canvasPixels(page);
  assert.ok(pixelVariety(img).nonBackgroundShare > 0.02);
  await page.close();
});

test('on a HiDPI screen the backing store has device pixels (sharp text)', async () => {
  // The shared context runs at ratio 1; emulate a ratio-2 screen for this page through CDP.
  // (Set before the page loads, so the app starts on that screen.)
  const page = await env.browser.context.newPage();
  const cdp = await env.browser.context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 900, height: 600, deviceScaleFactor: 2, mobile: false });
  await page.goto(env.site.url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.waitForFunction(() => window.tierscope.stats().pixelRatio === 2, null, { timeout: 5000 });
  const s = await page.evaluate(() => window.tierscope.stats());
  assert.equal(s.canvasPx[0], s.canvasCss[0] * 2);
  assert.equal(s.canvasPx[1], s.canvasCss[1] * 2);
  await cdp.detach();
  await page.close();
});

test('keys typed outside the canvas stay with the page', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'host-input';
    document.body.prepend(input);
  });
  await page.click('#canvas');  // the app had focus first
  await page.focus('#host-input');
  await page.keyboard.type('kv cache');
  assert.equal(await page.inputValue('#host-input'), 'kv cache');
  await page.close();
});

test('nothing is drawn while nothing changes', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await settled(page);
  const a = await page.evaluate(() => window.tierscope.stats());
  await page.waitForTimeout(1500);  // the window in which nothing may be drawn
  const b = await page.evaluate(() => window.tierscope.stats());
  assert.ok(b.ticks > a.ticks, 'the loop keeps ticking');
  assert.equal(b.framesDrawn, a.framesDrawn, 'but draws no frames while idle');
  await page.close();
});

test('without WebGL2 the page says so instead of failing silently', async () => {
  const page = await env.browser.context.newPage();
  await page.addInitScript(() => {
    const orig = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' ? null : orig.call(this, kind, ...rest);
    };
  });
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /WebGL2/);
  assert.equal(await page.locator('#loading').isHidden(), true);
  await assert.rejects(page.evaluate(() => window.tierscope.ready));
  await page.close();
});

test('a browser with no WebGL2 at all is told so before anything large downloads', async () => {
  const page = await env.browser.context.newPage();
  await page.addInitScript(() => { delete window.WebGL2RenderingContext; });
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /WebGL2/);
  assert.ok(!fetched.some((u) => u.endsWith('.wasm')), 'the WebAssembly was not downloaded');
  await page.close();
});

test('a browser whose WebAssembly lacks bulk memory is told so before anything large downloads', async () => {
  const page = await env.browser.context.newPage();
  // As a browser from before bulk memory would answer: the probe module does not validate.
  await page.addInitScript(() => { const validate = WebAssembly.validate; WebAssembly.validate = (bytes) => bytes.byteLength > 64 && validate(bytes); });
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /WebAssembly is too old/);
  assert.match(await page.locator('#fatal').textContent(), /Safari 15/);
  assert.ok(!fetched.some((u) => u.endsWith('.wasm')), 'the WebAssembly was not downloaded');
  await page.close();
});

test('an app file that is not valid WebAssembly is said to have failed to compile, not to download', async () => {
  const page = await env.browser.context.newPage();
  await page.route('**/tierscope.*.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x7f]) }));
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /could not be compiled/);
  await page.close();
});

test('a failed download of the app shows which file and why', async () => {
  const page = await env.browser.context.newPage();
  await page.route('**/tierscope.*.wasm', (route) => route.fulfill({ status: 404, body: 'missing' }));
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /could not be downloaded/);
  assert.match(await page.locator('#fatal-detail').textContent(), /tierscope\.[0-9a-f]{10}\.wasm: HTTP 404/);
  await page.close();
});

test('a missing app script is reported too', async () => {
  const page = await env.browser.context.newPage();
  await page.route('**/tierscope.*.js', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(env.site.url);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.locator('#fatal-title').textContent(), /could not be loaded/);
  await page.close();
});

test('the page paints its text before the app downloads, and its GL context comes after the worker that warms the GPU', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const t = await page.evaluate(() => {
    const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    const res = (re) => performance.getEntriesByType('resource').find((e) => re.test(e.name));
    const mark = (n) => performance.getEntriesByName(`tierscope-${n}`)[0];
    return { fcp: fcp && fcp.startTime, wasm: res(/tierscope\.[0-9a-f]{10}\.wasm$/)?.startTime, warm: res(/gl-warm\.[0-9a-f]{10}\.js$/)?.startTime,
      context: mark('context')?.startTime, main: mark('main')?.startTime };
  });
  for (const [k, v] of Object.entries(t)) assert.ok(Number.isFinite(v), `${k} is on the page's timeline (${JSON.stringify(t)})`);
  assert.ok(t.wasm >= t.fcp, `the app's download starts after the first paint (${JSON.stringify(t)})`);
  assert.ok(t.warm <= t.context && t.context <= t.main, `the worker's context, then the page's, then main() (${JSON.stringify(t)})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('without the GPU warm-up (its worker refused, or no OffscreenCanvas) the app still starts', async () => {
  for (const how of ['refused', 'no OffscreenCanvas']) {
    const page = await env.browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    if (how === 'refused') await page.route('**/gl-warm.*.js', (route) => route.fulfill({ status: 404, body: '' }));
    else await page.addInitScript(() => { delete window.OffscreenCanvas; });
    await page.goto(env.site.url);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    assert.match(await page.locator('#status').textContent(), /^Ready/, how);
    assert.equal(await page.locator('#fatal').isHidden(), true, how);
    assert.deepEqual(errors, [], how);
    await page.close();
  }
});

test('the mouse wheel over the canvas scrolls the page; over a panel that can scroll, the panel takes it', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#path=decode');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => { document.getElementById('figures-details').open = true; });
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.6);
  await page.mouse.wheel(0, 300);
  await page.waitForFunction(() => window.scrollY > 100, null, { timeout: 5000 });
  // A panel with more than it shows keeps the wheel (and scrolls), the page stays.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.focus('#canvas');
  await page.keyboard.press('f');
  await page.waitForFunction(() => window.tierscope.state().panels.includes('figures'), null, { timeout: 5000 });
  await page.waitForFunction(() => window.tierscope.layout().dock[2] > 0);
  const L = await page.evaluate(() => window.tierscope.layout());
  const b = await page.locator('#canvas').boundingBox();
  await page.mouse.move(b.x + L.dock[0] + L.dock[2] / 2, b.y + L.dock[1] + L.dock[3] / 2);
  await page.waitForTimeout(100);
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page stays while the panel scrolls');
  assert.deepEqual(errors, []);
  await page.close();
});

test('charts and the tables open below the canvas without shrinking it; the legend stays at the foot; Esc closes the charts', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#path=decode');
  await page.setViewportSize({ width: 1440, height: 900 });
  const rect = (sel) => page.evaluate((s) => { const r = document.querySelector(s).getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY, height: r.height }; }, sel);
  await page.waitForFunction(() => window.tierscope.stats().canvasCss[0] > 0);
  const before = await rect('#canvas-frame');
  assert.ok(before.height >= 520, `the canvas is ${before.height} px tall at 1440×900`);
  await page.click('#open-charts');
  await page.waitForSelector('#charts:not([hidden]) svg');
  await page.evaluate(() => { document.getElementById('figures-details').open = true; });
  await page.waitForTimeout(200);
  const frame = await rect('#canvas-frame'), charts = await rect('#charts'), foot = await rect('.bottom'), tables = await rect('.tables');
  assert.equal(frame.height, before.height, 'the canvas keeps its height with the charts and all figures open');
  assert.ok(charts.top >= frame.bottom, 'the charts sit below the canvas');
  assert.ok(foot.top >= Math.max(charts.bottom, tables.bottom), 'the legend stays below everything, at the foot');
  const clipped = await page.evaluate(() => { const n = document.querySelector('.foot-note'); return n.scrollWidth > n.clientWidth + 1 || n.getBoundingClientRect().width < 50; });
  assert.equal(clipped, false, 'the legend\'s note is whole');
  await page.waitForFunction(() => window.tierscope.stats().canvasCss[1] >= 520);
  // Esc from inside the charts closes them; focus goes back to the button that opened them.
  await page.focus('#chart-tabs [aria-selected="true"]');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('charts').hidden, null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'open-charts');
  assert.deepEqual(errors, []);
  await page.close();
});

test('loading the page does not shift its layout', async () => {
  const page = await env.browser.context.newPage();
  await page.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(env.site.url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await settled(page);
  await page.evaluate(() => document.fonts.ready.then(() => true));
  const cls = await page.evaluate(() => window.__shift);
  assert.ok(cls < 0.05, `cumulative layout shift ${cls.toFixed(4)} (at most 0.05)`);
  await page.close();
});

test('phones: nothing is wider than a 360 px screen', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(env.site.url + '#path=csa2-modes');
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `page is ${wide}px wide`);
  await page.close();
});

// The side columns stay in view as the page scrolls; scrolled to the foot of the page, none of them covers the
// footer's colour legend (at 1440 px the walkthrough's column slid over its first entries), on a desktop, a
// narrower window where the ledger moves under the canvas, and a phone.
for (const viewport of [{ width: 1440, height: 900 }, { width: 1100, height: 800 }, { width: 390, height: 844 }]) {
  test(`the footer's legend is never behind a side column at ${viewport.width}×${viewport.height}`, async () => {
    const page = await env.browser.context.newPage();
    await page.setViewportSize(viewport);
    await page.goto(env.site.url);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(200);
    const hidden = await page.evaluate(() => [...document.querySelectorAll('.legend > li')].flatMap((li) => {
      li.scrollIntoView({ block: 'nearest' });
      const out = [];
      // Each entry's first and last few pixels, and its middle: the top element there is the entry.
      const r = li.getBoundingClientRect();
      for (const x of [r.left + 3, (r.left + r.right) / 2, r.right - 3]) {
        const at = document.elementFromPoint(x, (r.top + r.bottom) / 2);
        if (!at || !li.contains(at)) out.push(`${li.textContent.trim().slice(0, 24)} at x=${Math.round(x)}: ${at ? at.className || at.tagName : 'nothing'}`);
      }
      return out;
    }));
    assert.deepEqual(hidden, []);
    await page.close();
  });
}
