// Where the page's main thread goes from navigation to interactive: loads the built site a few times under a
// CPU slowdown (Lighthouse's mobile profile uses 4×), traces the renderer's main thread, and reports each
// run's tasks over 50 ms with what runs inside them, the app's start-up marks, the blocking time those tasks
// add (the part of each over 50 ms), and how much of it is the WebAssembly's functions compiled on their
// first call. Medians over the runs. Reported, never asserted.
// usage: node tools/bench/startup-trace.mjs [--runs N] [--slowdown X] [--root SITE] [--json FILE]
import fs from 'node:fs';
import { launch, serveSite, SITE } from '../../tests/browser/lib/browser.mjs';

const LONG_MS = 50;
const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };

function parseArgs(argv) {
  const o = { runs: 5, slowdown: 4, root: SITE, json: '' };
  const limits = { runs: [1, 50], slowdown: [1, 20] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const key = flag.replace(/^--/, '');
    if (!['--runs', '--slowdown', '--root', '--json'].includes(flag)) throw new Error(`unknown flag ${flag}: allowed are --runs N, --slowdown X, --root SITE, --json FILE`);
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (key in limits) {
      const n = Number(value);
      const [lo, hi] = limits[key];
      if (!Number.isFinite(n) || n < lo || n > hi || (key === 'runs' && !Number.isInteger(n))) throw new Error(`${flag} ${value}: allowed is ${key === 'runs' ? 'a whole number' : 'a number'} from ${lo} to ${hi}`);
      o[key] = n;
    } else o[key] = value;
  }
  if (!fs.existsSync(`${o.root}/index.html`)) throw new Error(`--root ${o.root}: no index.html there (build the site with tools/build-web)`);
  return o;
}

// One load, traced: the main thread's tasks and the wasm compile events inside them, and the app's marks.
async function traceOnce(context, url, slowdown) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => { for (const e of d.value) events.push(e); });
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.wasm,disabled-by-default-v8.wasm.detailed,blink.user_timing', transferMode: 'ReportEvents' });
  await page.goto(url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('tierscope-'))
    .map((m) => [m.name.slice('tierscope-'.length), Math.round(m.startTime)]));
  await cdp.send('Tracing.end');
  await complete;
  await page.close();
  // The renderer's main thread is the one that ran the page's scripts.
  const calls = {};
  for (const e of events) if (e.name === 'FunctionCall' || e.name === 'EvaluateScript') calls[`${e.pid}:${e.tid}`] = (calls[`${e.pid}:${e.tid}`] || 0) + 1;
  const main = Object.entries(calls).sort((a, b) => b[1] - a[1])[0];
  if (!main) throw new Error('the trace holds no script on any thread');
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main[0] && e.ph === 'X');
  const nav = onMain.find((e) => e.name === 'ParseHTML') || onMain[0];
  const t0 = nav.ts;
  const interactive = (marks.find(([n]) => n === 'interactive') || [null, Infinity])[1];
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur / 1000 > LONG_MS && (e.ts - t0) / 1000 <= interactive + 100);
  const lazy = onMain.filter((e) => e.name === 'wasm.CompileLazy');
  const inTask = (t, e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur;
  const long = tasks.map((t) => {
    const kids = onMain.filter((e) => e !== t && inTask(t, e) && e.dur > 8000 && e.name !== 'RunTask' && !e.name.startsWith('ThreadController') && !e.name.startsWith('wasm.'));
    const lazyMs = lazy.filter((e) => inTask(t, e)).reduce((a, e) => a + e.dur / 1000, 0);
    return { at: Math.round((t.ts - t0) / 1000), ms: Math.round(t.dur / 1000), lazyMs: Math.round(lazyMs),
      inside: kids.slice(0, 4).map((k) => `${k.name} ${Math.round(k.dur / 1000)}`) };
  });
  return {
    marks, long,
    blockingMs: long.reduce((a, t) => a + Math.max(0, t.ms - LONG_MS), 0),
    lazyCompiled: lazy.length,
    lazyMs: Math.round(lazy.reduce((a, e) => a + e.dur / 1000, 0)),
  };
}

async function main() {
  let o;
  try { o = parseArgs(process.argv.slice(2)); } catch (e) { console.error(`startup-trace: ${e.message}`); process.exit(2); }
  const site = await serveSite({ root: o.root });
  const browser = await launch();
  const runs = [];
  try {
    for (let i = 0; i < o.runs; i++) runs.push(await traceOnce(browser.context, site.url, o.slowdown));
  } finally {
    await browser.close();
    await site.close();
  }
  console.log(`start-up on the main thread, CPU slowed ${o.slowdown}×, ${o.runs} runs (ms after navigation)`);
  runs.forEach((r, i) => {
    console.log(`run ${i + 1}: blocking ${r.blockingMs} ms in ${r.long.length} tasks over ${LONG_MS} ms; ${r.lazyCompiled} functions compiled on first call, ${r.lazyMs} ms`);
    for (const t of r.long) console.log(`  task at ${t.at}: ${t.ms} ms (first-call compiles ${t.lazyMs} ms) ${t.inside.join(' | ')}`);
    console.log(`  marks ${r.marks.map(([n, t]) => `${n} ${t}`).join(', ')}`);
  });
  const summary = {
    blockingMs: median(runs.map((r) => r.blockingMs)), longTasks: median(runs.map((r) => r.long.length)),
    longestMs: median(runs.map((r) => Math.max(0, ...r.long.map((t) => t.ms)))),
    lazyCompiled: median(runs.map((r) => r.lazyCompiled)), lazyMs: median(runs.map((r) => r.lazyMs)),
    interactiveMs: median(runs.map((r) => (r.marks.find(([n]) => n === 'interactive') || [0, NaN])[1])),
  };
  console.log(`median: blocking ${summary.blockingMs} ms, ${summary.longTasks} tasks over ${LONG_MS} ms, longest ${summary.longestMs} ms, ` +
    `first-call compiles ${summary.lazyCompiled} functions in ${summary.lazyMs} ms, interactive at ${summary.interactiveMs} ms`);
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ slowdown: o.slowdown, runs, summary }, null, 1));
}

main().catch((e) => { console.error(`startup-trace: ${e.message}`); process.exit(1); });
