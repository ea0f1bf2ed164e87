// Browser tests that the page does not jump as the app arrives: on a phone, a tablet and a desktop window
// the canvas and the header's buttons stay where they were drawn before the WebAssembly came, with the
// same size, whatever the status line and the subtitle then say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveSite } from './lib/browser.mjs';

const WINDOWS = [
  ['phone', { viewport: { width: 412, height: 823 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 900, height: 1000 } }],
  ['desktop', { viewport: { width: 1280, height: 800 } }],
];
const WATCHED = ['#canvas-frame', '.top .actions', '#playback', '#open-charts'];

const boxes = (page) => page.evaluate((sels) => sels.map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { s, x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
}), WATCHED);

for (const [name, contextOptions] of WINDOWS) {
  test(`on a ${name} the canvas and the header's buttons stay put as the app arrives`, async () => {
    const site = await serveSite();
    const browser = await launch({ contextOptions });
    try {
      const page = await browser.context.newPage();
      let release;
      const held = new Promise((r) => { release = r; });
      await page.route('**/tierscope.*.wasm', async (route) => { await held; await route.continue(); });
      await page.goto(site.url);
      // The page's scripts have run (the walkthrough's numbers are the build's prerendered ones).
      await page.waitForLoadState('load');
      await page.waitForSelector('#tour-body .fig');
      const before = await boxes(page);
      release();
      await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
      await page.waitForFunction(() => /Ready/.test(document.getElementById('status').textContent));
      const after = await boxes(page);
      assert.deepEqual(after, before);
      await page.close();
    } finally {
      await browser.close();
      await site.close();
    }
  });
}
