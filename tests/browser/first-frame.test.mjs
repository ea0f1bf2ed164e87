// The page's module in two parts (tools/first-frame.mjs): the first frame is drawn from tierscope.wasm
// alone, on a desktop and on a phone, and the deferred part arrives once the page is idle and is joined
// without a call waiting for it — if the first frame called into it, the list of the first frame's
// functions is stale and this test says how to refresh it. A click that needs the deferred part before it
// has arrived still works (it is loaded then); a deferred part that cannot be fetched stops the app with the
// loader's message, never a broken canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './lib/browser.mjs';

const env = useBrowser();
const DEFERRED = /\/tierscope\.deferred(?:\.[0-9a-f]{10})?\.wasm$/;
const REFRESH = 'the first frame called a function the split moved out: run `node tools/first-frame.mjs record` after tools/build-web and commit src/platform/first-frame-functions.txt';

// Wall-clock time of a performance mark, or null.
const markAt = (page, name) => page.evaluate((n) => {
  const m = performance.getEntriesByName(n)[0];
  return m ? performance.timeOrigin + m.startTime : null;
}, name);

for (const view of [{ name: 'a desktop window', viewport: { width: 1280, height: 800 } }, { name: 'a phone', viewport: { width: 390, height: 844 } }]) {
  test(`on ${view.name} the first frame needs only tierscope.wasm; the rest arrives once idle and is joined unasked`, { timeout: 90000 }, async () => {
    const asked = [];
    const seen = (r) => { if (DEFERRED.test(r.url())) asked.push(Date.now()); };
    env.browser.context.on('request', seen);
    const page = await env.browser.context.newPage();
    await page.setViewportSize(view.viewport);
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(env.site.url);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    await page.waitForFunction(() => performance.getEntriesByName('tierscope-deferred').length > 0, null, { timeout: 20000 });
    env.browser.context.off('request', seen);
    const ready = await markAt(page, 'tierscope-interactive');
    assert.equal(asked.length, 1, 'the deferred part is asked for once');
    assert.ok(asked[0] >= ready, `the deferred part was asked for ${ready - asked[0]} ms before the first frame`);
    const stats = await page.evaluate(() => window.tierscope.stats());
    assert.equal(stats.deferred.state, 'loaded');
    assert.equal(stats.deferred.by, 'idle', REFRESH);
    // The joined part answers: a step forward runs the animation's code, a chart the page module's own.
    await page.evaluate(() => window.tierscope.seek(3));
    assert.equal((await page.evaluate(() => window.tierscope.state())).step, 3);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// A stale list of the first frame's functions makes the start itself ask for the deferred part, synchronously:
// a request held here would then hold the page's thread for good. The timeout turns that into a failure.
test('a call that needs the deferred part before it has arrived loads it then and answers', { timeout: 90000 }, async () => {
  // The idle fetch is held back; the page's synchronous request (a second one) is let through.
  let held = null;
  const hold = (route) => {
    if (!held) { held = route; return; }
    route.continue();
  };
  await env.browser.context.route(DEFERRED, hold);
  try {
    const { page, errors } = await openApp(env.browser.context, env.site.url);
    for (let i = 0; i < 100 && !held; i++) await page.waitForTimeout(50);
    assert.ok(held, 'the page asked for the deferred part once idle');
    // Every figure as the CLI lists them: the export lives in the deferred part.
    const figures = await page.evaluate(() => window.tierscope.figures());
    assert.ok(Array.isArray(figures) && figures.length > 50, 'the figures are listed');
    const stats = await page.evaluate(() => window.tierscope.stats());
    assert.equal(stats.deferred.state, 'loaded');
    assert.match(stats.deferred.by, /^call /);
    await held.continue();
    await page.waitForTimeout(300);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await env.browser.context.unroute(DEFERRED, hold);
  }
});

test('a deferred part that cannot be fetched stops the app with the loader\'s message', async () => {
  const refuse = (route) => route.fulfill({ status: 404, body: 'not here' });
  await env.browser.context.route(DEFERRED, refuse);
  try {
    const { page } = await openApp(env.browser.context, env.site.url);
    await page.evaluate(() => { try { window.tierscope.figures(); } catch (e) { /* the page shows why */ } });
    await page.waitForFunction(() => !document.getElementById('fatal').hidden, null, { timeout: 10000 });
    assert.equal(await page.$eval('#fatal-title', (x) => x.textContent), 'The app could not be downloaded');
    assert.match(await page.$eval('#fatal-detail', (x) => x.textContent), /tierscope\.deferred.*HTTP 404/);
    await page.close();
  } finally {
    await env.browser.context.unroute(DEFERRED, refuse);
  }
});
