// Canvas benchmark (reported, never asserted): plays every path for N seconds at 1280×800 and 1920×1080 in
// headless Chromium and prints CPU per drawn frame (p50/p95), frames/s while playing, frames drawn over 5 s
// idle, and the WebAssembly heap before and after.
// usage: node tests/browser/bench/canvas-bench.mjs [--seconds 10]
import { launch, serveSite } from '../lib/browser.mjs';
import { PATH_KEYS } from '../lib/catalog.mjs';

const args = process.argv.slice(2);
let seconds = 10;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--seconds' && i + 1 < args.length) seconds = Number(args[++i]);
  else { console.error('usage: canvas-bench.mjs [--seconds S]'); process.exit(2); }
}
if (!(seconds >= 1 && seconds <= 600)) { console.error('--seconds: 1 to 600'); process.exit(2); }

// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;
const SIZES = [[1280, 800], [1920, 1080]];
const stats = (page) => page.evaluate(() => window.tierscope.stats());

const site = await serveSite();
const browser = await launch({ gpuCompositing: true });
try {
  for (const [w, h] of SIZES) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(site.url);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    const heap0 = (await stats(page)).wasmHeapBytes;
    console.log(`\n${w}×${h} (canvas ${(await stats(page)).canvasCss.join('×')} CSS px)`);
    console.log('path           frames/s  CPU p50 ms  CPU p95 ms');
    for (const p of PATHS) {
      await page.evaluate((k) => window.tierscope.play(k), p);
      await page.waitForTimeout(300);  // let the ring of frame times fill with this path's frames
      const a = await stats(page);
      const t0 = Date.now();
      await page.waitForTimeout(seconds * 1000);
      const b = await stats(page);
      const fps = (b.framesDrawn - a.framesDrawn) / ((Date.now() - t0) / 1000);
      // The ring holds the last 240 drawn frames: at 60 frames/s, the last 4 s of this path.
      console.log(`${p.padEnd(14)} ${fps.toFixed(1).padStart(8)}  ${b.cpuMsP50.toFixed(2).padStart(10)}  ${b.cpuMsP95.toFixed(2).padStart(10)}`);
    }
    await page.evaluate(() => window.tierscope.pause());
    await page.waitForTimeout(1000);
    const i0 = await stats(page);
    await page.waitForTimeout(5000);
    const i1 = await stats(page);
    console.log(`idle 5 s: ${i1.framesDrawn - i0.framesDrawn} frames drawn · WASM heap ${(heap0 / 1e6).toFixed(1)} MB → ${(i1.wasmHeapBytes / 1e6).toFixed(1)} MB`);
    await page.close();
  }
} finally {
  await browser.close();
  await site.close();
}
