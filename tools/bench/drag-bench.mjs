// What a dragged value costs with a chart open (reported by tools/bench/run, never asserted): each change
// goes through window.tierscope.setParam, which recomputes the scenario and refreshes every view on the page
// (chart, ledger, figures, header, link); timed from the call to the page's layout being up to date.
// usage: node tools/bench/drag-bench.mjs [--changes N] [--profile FILE.cpuprofile]
import fs from 'node:fs';
import { launch, serveSite, openApp } from '../../tests/browser/lib/browser.mjs';

// The charts a value is dragged under: the sweep as it opens (48 points), a family of five lines over the
// context length (240 points, each recomputed on every change), the roofline and the breakdown.
export const DRAG_VIEWS = ['chart-sweep', 'chart-sweep&sweep=decode.step_time:ctx:gpus:2,4,8,16,32', 'chart-roofline', 'chart-breakdown'];
export const dragViewName = (view) => view.replace('chart-', '').replace(/&sweep=.*:(\w+):(\w+):([\d,]+)$/, (m, x, fam, vals) => ` ${vals.split(',').length} lines over ${x} (${fam})`);

// The main thread's CPU time of each chart redraw, from the thread timestamps of its begin and end marks
// (the first few skipped, as for the wall times): {count, p50, p95, max} in ms, or null without marks.
export function chartCpu(events) {
  const marks = events.filter((e) => e.name === 'tierscope-chart-begin' || e.name === 'tierscope-chart-end').sort((a, b) => a.ts - b.ts);
  const ms = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    const a = marks[i], b = marks[i + 1];
    if (a.name === 'tierscope-chart-begin' && b.name === 'tierscope-chart-end' && a.tid === b.tid && a.tts !== undefined && b.tts !== undefined) ms.push((b.tts - a.tts) / 1000);
  }
  const s = ms.slice(5).sort((x, y) => x - y);
  if (!s.length) return null;
  const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return { count: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

export async function dragBench(context, url, { changes = 120, view = 'chart-sweep', profile = '', css = '' } = {}) {
  const { page } = await openApp(context, `${url}#view=${view}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForSelector('#chart-figure svg');
  if (css) await page.addStyleTag({ content: css });
  const cdp = await context.newCDPSession(page);
  if (profile) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start'); }
  // The chart's redraw is marked on the page's timeline (tierscope-chart-begin/-end); a trace of those marks
  // gives the main thread's CPU time between them (their thread timestamps), apart from the time the thread
  // waited for a core: on two cores the GPU process's raster of each frame competes with the page.
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  if (!profile) await cdp.send('Tracing.start', { categories: 'blink.user_timing', transferMode: 'ReportEvents' });
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
  if (profile) { const { profile: p } = await cdp.send('Profiler.stop'); fs.writeFileSync(profile, JSON.stringify(p)); }
  let cpu = null;
  if (!profile) {
    await cdp.send('Tracing.end');
    await traced;
    cpu = chartCpu(events);
  }
  await page.close();
  if (!times) throw new Error('setParam refused a batch value');
  const { page: own } = times;
  const s = times.out.slice(5).sort((a, b) => a - b);  // the first changes compile code paths lazily
  const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  // The page's own timings (window.tierscope.stats().page): its refresh after each change, and the chart's
  // recompute and redraw within it.
  return { changes: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1], refresh: own.refresh, chart: own.chart, cpu, parts: { series: own['chart.series'], layout: own['chart.layout'], svg: own['chart.svg'] } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const get = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
  const browser = await launch({ gpuCompositing: true });
  const site = await serveSite();
  try {
    for (const view of DRAG_VIEWS) {
      const r = await dragBench(browser.context, site.url, { changes: Number(get('--changes', 120)), view, profile: view === get('--profile-view', 'chart-sweep') ? get('--profile', '') : '', css: get('--css', '') });
      const f = (x) => `p50 ${x.p50.toFixed(2)} ms, p95 ${x.p95.toFixed(2)} ms`;
      console.log(`${view}: ${r.changes} changes; whole change with layout ${f(r)}, max ${r.max.toFixed(2)} ms; page refresh ${f(r.refresh)}; chart ${f(r.chart)} (series ${f(r.parts.series)}; layout ${f(r.parts.layout)}; svg ${f(r.parts.svg)})${r.cpu ? `; chart CPU time ${f(r.cpu)}` : ''}`);
    }
  } finally { await site.close(); await browser.close(); }
}
