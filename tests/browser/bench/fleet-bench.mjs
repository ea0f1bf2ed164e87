// Fleet view benchmark (reported, never asserted): runs 24 simulated hours of one node at its session
// capacity (2.84 sessions/s on the default scenario, docs/fleet.md) in the page, N times, and prints the wall
// time from start to done, the slices (count, events, p50/p95/max milliseconds, how many ran past the 8 ms a
// slice may hold a frame up), the events per second while slicing and the WebAssembly heap after the run.
// usage: node tests/browser/bench/fleet-bench.mjs [--runs 3] [--link '#…']
import { launch, serveSite } from '../lib/browser.mjs';

const args = process.argv.slice(2);
let runs = 3;
let link = '#preset=v41-flash-8xb200&arrivals=2.84&view=fleet';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs' && i + 1 < args.length) runs = Number(args[++i]);
  else if (args[i] === '--link' && i + 1 < args.length) link = args[++i];
  else { console.error("usage: fleet-bench.mjs [--runs N] [--link '#…']"); process.exit(2); }
}
if (!(Number.isInteger(runs) && runs >= 1 && runs <= 20)) { console.error('--runs: 1 to 20'); process.exit(2); }

const q = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const site = await serveSite();
const browser = await launch({ gpuCompositing: true });
try {
  console.log(`fleet view, ${link}`);
  console.log('run  wall s  events     slices  ms p50  ms p95  ms max  >8 ms  events/s sliced  WASM heap');
  for (let r = 1; r <= runs; ++r) {
    const page = await browser.context.newPage();
    await page.goto(site.url + link);
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    await page.waitForFunction(() => { const f = window.tierscope.fleet(); return f && f.done; }, null, { timeout: 600000, polling: 100 });
    const f = await page.evaluate(() => window.tierscope.fleet());
    const heap = (await page.evaluate(() => window.tierscope.stats())).wasmHeapBytes;
    const ms = f.slices.list.map((s) => s.ms).sort((a, b) => a - b);
    const busy = ms.reduce((a, b) => a + b, 0);
    const over = ms.filter((x) => x > f.slices.budgetMs).length;
    console.log(`${String(r).padStart(3)}  ${(f.wallMs / 1000).toFixed(2).padStart(6)}  ${String(f.slices.events).padEnd(9)}  ${String(ms.length).padStart(6)}  ` +
      `${q(ms, 0.5).toFixed(1).padStart(6)}  ${q(ms, 0.95).toFixed(1).padStart(6)}  ${ms[ms.length - 1].toFixed(1).padStart(6)}  ${String(over).padStart(5)}  ` +
      `${(f.slices.events / (busy / 1000) / 1e6).toFixed(2).padStart(8)} M/s  ${(heap / 1048576).toFixed(1)} MiB`);
    await page.close();
  }
} finally {
  await browser.close();
  await site.close();
}
