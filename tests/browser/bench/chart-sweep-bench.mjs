// Chart sweep benchmark (reported, never asserted): with the sweep chart open, recomputes a 256-point
// sweep over the context length after each batch change and prints the CPU time per recompute (median,
// p95) in headless Chromium.
// usage: node tests/browser/bench/chart-sweep-bench.mjs [--runs 21]
import { launch, serveSite } from '../lib/browser.mjs';

const args = process.argv.slice(2);
let runs = 21, runsText = '21';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs' && i + 1 < args.length) runs = Number(runsText = args[++i]);
  else { console.error('usage: chart-sweep-bench.mjs [--runs N]'); process.exit(2); }
}
if (!(Number.isInteger(runs) && runs >= 3 && runs <= 1000)) { console.error(`--runs: a whole number from 3 to 1000, not '${runsText}'`); process.exit(2); }

const site = await serveSite();
const browser = await launch({ gpuCompositing: true });
try {
  const page = await browser.context.newPage();
  await page.goto(site.url + '#view=chart-sweep');
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.waitForSelector('#chart-figure svg');
  const times = await page.evaluate(async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.tierscope.setParam('batch', String(1 + (i % 7)));
      const c = await window.tierscope.chart('sweep', { x: 'ctx', values: { from: 1024, to: 1048576, points: 256, log: true } });
      if (!c || !c.lines) return null;
      out.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(r));
    }
    return out.sort((a, b) => a - b);
  }, runs);
  if (!times) throw new Error('the sweep chart gave no lines');
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(`charts: 256-point sweep recomputed ${runs} times: median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms`);
  await page.close();
} finally {
  await browser.close();
  await site.close();
}
