// Soak: plays every path in a loop and checks that nothing accumulates — the WASM heap and the JS heap
// stay flat and the console stays clean. TIERSCOPE_SOAK_SECONDS sets the length (the test command runs an
// 8 s soak; `TIERSCOPE_SOAK_SECONDS=600 node --test soak.test.mjs`, or TIERSCOPE_LONG_TESTS=1, is the
// ten-minute one). Prints figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, settled, useBrowser } from './lib/browser.mjs';
import { PATH_KEYS } from './lib/catalog.mjs';

const SECONDS = Number(process.env.TIERSCOPE_SOAK_SECONDS || (process.env.TIERSCOPE_LONG_TESTS === '1' ? 600 : 8));
if (!(SECONDS > 0)) throw new Error(`TIERSCOPE_SOAK_SECONDS: a number of seconds above 0, not ${process.env.TIERSCOPE_SOAK_SECONDS}`);
// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;

const env = useBrowser();

async function heaps(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const s = await page.evaluate(() => window.tierscope.stats());
  return { js: usedSize, wasm: s.wasmHeapBytes, frames: s.framesDrawn };
}

test(`soak: every path in a loop for ${SECONDS} s keeps both heaps flat and the console clean`, { timeout: (SECONDS + 120) * 1000 }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#speed=8');
  const cdp = await env.browser.context.newCDPSession(page);
  // Warm up: one pass over every path, each until it has drawn, so caches and pools reach their working size.
  for (const p of PATHS) {
    const since = await page.evaluate((k) => { const n = window.tierscope.stats().framesDrawn; window.tierscope.play(k); return n; }, p);
    await settled(page, since);
  }
  const start = await heaps(page, cdp);
  const t0 = Date.now();
  let loops = 0;
  while (Date.now() - t0 < SECONDS * 1000) {
    for (const p of PATHS) {
      await page.evaluate((k) => window.tierscope.play(k), p);
      await page.waitForTimeout(Math.max(200, (SECONDS * 1000) / (PATHS.length * 6)));
    }
    loops++;
  }
  await page.evaluate(() => window.tierscope.pause());
  const end = await heaps(page, cdp);
  const minutes = (Date.now() - t0) / 60000;
  console.log(`soak: ${loops} loops over ${PATHS.length} paths in ${(minutes * 60).toFixed(0)} s; frames drawn ${end.frames - start.frames}; ` +
    `JS heap ${(start.js / 2 ** 20).toFixed(2)} → ${(end.js / 2 ** 20).toFixed(2)} MiB; WASM heap ${(start.wasm / 2 ** 20).toFixed(1)} → ${(end.wasm / 2 ** 20).toFixed(1)} MiB`);
  assert.ok(end.frames > start.frames, 'it kept drawing while playing');
  assert.equal(end.wasm, start.wasm, 'the WASM heap did not grow');
  // The JS heap moves a little with the garbage collector; a leak grows with the run, so allow a fixed
  // margin that a per-step leak would exceed within the soak.
  assert.ok(end.js <= start.js * 1.25 + 512 * 1024, `the JS heap stayed flat (${start.js} → ${end.js} bytes)`);
  assert.deepEqual(errors, []);
  await cdp.detach();
  await page.close();
});
