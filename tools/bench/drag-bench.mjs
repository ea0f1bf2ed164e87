// What a dragged value costs with a chart open (reported by tools/bench/run, never asserted): each change
// goes through window.tierscope.setParam, which recomputes the scenario and refreshes every view on the page
// (chart, ledger, figures, header, link); timed from the call to the page's layout being up to date.
// usage: node tools/bench/drag-bench.mjs [--changes N] [--profile FILE.cpuprofile]
import fs from 'node:fs';
import { launch, serveSite, openApp } from '../../tests/browser/lib/browser.mjs';

export async function dragBench(context, url, { changes = 120, view = 'chart-sweep', profile = '', css = '' } = {}) {
  const { page } = await openApp(context, `${url}#view=${view}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForSelector('#chart-figure svg');
  if (css) await page.addStyleTag({ content: css });
  const cdp = profile ? await context.newCDPSession(page) : null;
  if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start'); }
  const times = await page.evaluate(async (n) => {
    const out = [];
    const box = document.getElementById('chart-figure');
    // A drag: batch walks 1…64 and back, one value per frame, as a slider under a pointer would.
    for (let i = 0; i < n; i++) {
      const v = 1 + Math.round(31.5 * (1 - Math.cos((Math.PI * i) / 30)));
      const t0 = performance.now();
      const r = window.tierscope.setParam('batch', String(v));
      box.getBoundingClientRect();  // the style and layout the change caused, as the next frame would pay
      out.push(performance.now() - t0);
      if (!r.ok) return null;
      await new Promise((res) => requestAnimationFrame(res));
    }
    return { out, page: window.tierscope.stats().page };
  }, changes);
  if (cdp) { const { profile: p } = await cdp.send('Profiler.stop'); fs.writeFileSync(profile, JSON.stringify(p)); }
  await page.close();
  if (!times) throw new Error('setParam refused a batch value');
  const { page: own } = times;
  const s = times.out.slice(5).sort((a, b) => a - b);  // the first changes compile code paths lazily
  const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  // The page's own timings (window.tierscope.stats().page): its refresh after each change, and the chart's
  // recompute and redraw within it.
  return { changes: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1], refresh: own.refresh, chart: own.chart };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const get = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
  const browser = await launch();
  const site = await serveSite();
  try {
    for (const view of ['chart-sweep', 'chart-roofline', 'chart-breakdown']) {
      const r = await dragBench(browser.context, site.url, { changes: Number(get('--changes', 120)), view, profile: view === 'chart-sweep' ? get('--profile', '') : '', css: get('--css', '') });
      const f = (x) => `p50 ${x.p50.toFixed(2)} ms, p95 ${x.p95.toFixed(2)} ms`;
      console.log(`${view}: ${r.changes} changes; whole change with layout ${f(r)}, max ${r.max.toFixed(2)} ms; page refresh ${f(r.refresh)}; chart ${f(r.chart)}`);
    }
  } finally { await site.close(); await browser.close(); }
}
