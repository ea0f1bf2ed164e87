// tierscope's benchmark suite (reported, never asserted): bundle bytes, time to first drawn frame and to
// interactive, CPU per frame and frames/s while playing, idle frames, heaps, and model figures per second,
// each next to a baseline measured in the same run (one WebGL2 canvas cleared every frame).
// usage: node tools/bench/browser-bench.mjs [--out docs/BENCHMARKS.md] [--runs 5] [--play-seconds 5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveSite, ROOT, SITE, CHROMIUM } from '../../tests/browser/lib/browser.mjs';
import { lighthouse, formatMetric } from './lighthouse.mjs';
import { dragBench, DRAG_VIEWS, dragViewName } from './drag-bench.mjs';

function parseArgs(argv) {
  const o = { out: path.join(ROOT, 'docs/BENCHMARKS.md'), runs: 5, playSeconds: 5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    if (a === '--out') o.out = v();
    else if (a === '--runs') { o.runs = Number(v()); if (!Number.isInteger(o.runs) || o.runs < 1 || o.runs > 50) throw new Error('--runs: a whole number from 1 to 50'); }
    else if (a === '--play-seconds') { o.playSeconds = Number(v()); if (!(o.playSeconds >= 1 && o.playSeconds <= 600)) throw new Error('--play-seconds: 1 to 600'); }
    else throw new Error(`unknown option '${a}' (allowed: --out FILE, --runs N, --play-seconds S)`);
  }
  return o;
}

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const kb = (b) => (b / 1000).toFixed(1);

async function coldPage(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return page;
}

// Navigation → first drawn frame (the 'tierscope-first-frame' mark both pages set) and → interactive.
async function startup(context, url, isApp) {
  const page = await coldPage(context);
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('tierscope-first-frame').length > 0, null, { timeout: 30000 });
  const first = await page.evaluate(() => performance.getEntriesByName('tierscope-first-frame')[0].startTime);
  let interactive = first;
  let phases = null;
  if (isApp) {
    // The page's and the app's marks (web/lib/loader.mjs, src/platform/main.cpp) split the wait into phases.
    phases = await page.evaluate(() => {
      const at = (name) => { const e = performance.getEntriesByName(`tierscope-${name}`)[0]; return e ? e.startTime : NaN; };
      const res = performance.getEntriesByType('resource').find((e) => /\/tierscope(\.[0-9a-f]{10})?\.wasm$/.test(e.name));
      const paint = performance.getEntriesByName('first-paint')[0];
      return { firstPaint: paint ? paint.startTime : NaN, wasmRequested: res ? res.startTime : NaN, wasmReceived: res ? res.responseEnd : NaN,
        context: at('context'), compiled: at('compiled'), main: at('main'), window: at('window'), ui: at('ui'), canvas: at('canvas'), gl: at('gl'), figures: at('figures'), model: at('model'), pageBuilt: at('page-built'), shaders: at('shaders'), frameStart: at('frame-start'), first: at('first-frame') };
    });
    interactive = await page.evaluate(async () => {
      await window.tierscope.ready;
      const mark = performance.getEntriesByName('tierscope-interactive')[0];
      return mark ? mark.startTime : performance.now();
    });
  }
  await page.close();
  return { first, interactive, phases };
}

async function framesWhile(page, seconds, read) {
  const a = await page.evaluate(read);
  const t0 = Date.now();
  await page.waitForTimeout(seconds * 1000);
  const b = await page.evaluate(read);
  const dt = (Date.now() - t0) / 1000;
  return { fps: (b.framesDrawn - a.framesDrawn) / dt, p50: b.cpuMsP50, p95: b.cpuMsP95, end: b };
}

async function playing(context, url, size, seconds) {
  const page = await context.newPage();
  await page.setViewportSize({ width: size[0], height: size[1] });
  await page.goto(url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  const paths = await page.evaluate(() => (window.tierscope.paths ? window.tierscope.paths() : ['decode']).map((p) => p.key || p));
  const per = [];
  for (const p of paths) {
    await page.evaluate((k) => window.tierscope.play(k), p);
    per.push(await framesWhile(page, seconds / paths.length, () => window.tierscope.stats()));
  }
  await page.evaluate(() => window.tierscope.pause());
  await page.waitForTimeout(1000);
  const idleA = await page.evaluate(() => window.tierscope.stats());
  await page.waitForTimeout(5000);
  const idleB = await page.evaluate(() => window.tierscope.stats());
  await page.close();
  return {
    fps: median(per.map((r) => r.fps)), p50: median(per.map((r) => r.p50)), p95: Math.max(...per.map((r) => r.p95)),
    idleFrames: idleB.framesDrawn - idleA.framesDrawn, wasmHeap: idleB.wasmHeapBytes, jsHeap: idleB.jsHeapBytes,
  };
}

async function baselinePlaying(context, url, size, seconds) {
  const page = await context.newPage();
  await page.setViewportSize({ width: size[0], height: size[1] });
  await page.goto(url);
  await page.waitForFunction(() => window.baseline && window.baseline.stats().framesDrawn > 2);
  const r = await framesWhile(page, seconds, () => window.baseline.stats());
  const jsHeap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : NaN));
  await page.close();
  return { ...r, jsHeap };
}

function modelBench() {
  const out = {};
  const parse = (text) => {
    const get = (re) => { const m = re.exec(text); return m ? Number(m[1]) : NaN; };
    return { describeUs: get(/all figures with formulas, default scenario \(median\)\s+([\d.]+) us/),
      writtenUs: get(/the same with every formula read \(written\)\s+([\d.]+) us/), oneUs: get(/the same with one formula read[^\n]*?\s([\d.]+) us/),
      sweepPerS: get(/sweep of the decode step[^\n]*?\s(\d+) \/s/),
      sweepAllPerS: get(/sweep of every figure[^\n]*?\s(\d+) \/s/) };
  };
  const native = path.join(ROOT, 'build/native/tools/bench/model_bench');
  const wasm = path.join(ROOT, 'build/web/tools/bench/model_bench.js');
  try { out.native = parse(execFileSync(native, { encoding: 'utf8' })); } catch { out.native = null; }
  try { out.wasm = parse(execFileSync('node', ['--no-experimental-fetch', wasm], { encoding: 'utf8' })); } catch { out.wasm = null; }
  return out;
}

function bundle() {
  const tmp = path.join(os.tmpdir(), `tierscope-bundle-${process.pid}.json`);
  execFileSync(path.join(ROOT, 'tools/bundle-sizes'), [SITE, '--json', tmp], { stdio: ['ignore', 'ignore', 'ignore'] });
  const b = JSON.parse(fs.readFileSync(tmp, 'utf8'));
  fs.rmSync(tmp);
  return b;
}

function machine() {
  const cpu = (os.cpus()[0] || {}).model || 'unknown CPU';
  let chromium = 'unknown';
  try { chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim(); } catch { /* reported as unknown */ }
  return { cpu, cores: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), chromium, node: process.version };
}

const opts = parseArgs(process.argv.slice(2));
const site = await serveSite();
const base = await serveSite({ root: path.join(ROOT, 'tools/bench/baseline') });
const browser = await launch({ gpuCompositing: true });
const r = { date: new Date().toISOString().slice(0, 10), machine: machine(), bundle: bundle() };
try {
  const app = [], bl = [], bs = [];
  for (let i = 0; i < opts.runs; i++) {
    bl.push(await startup(browser.context, base.url, false));
    bs.push(await startup(browser.context, base.url + '?shader=1', false));
    app.push(await startup(browser.context, site.url, true));
  }
  r.startup = {
    appFirst: median(app.map((x) => x.first)), appInteractive: median(app.map((x) => x.interactive)),
    baseFirst: median(bl.map((x) => x.first)), baseShaderFirst: median(bs.map((x) => x.first)),
    phases: Object.fromEntries(Object.keys(app[0].phases).map((k) => [k, median(app.map((x) => x.phases[k]))])),
  };
  // A value dragged with each chart open (tools/bench/drag-bench.mjs).
  r.drag = {};
  for (const view of DRAG_VIEWS) r.drag[view] = await dragBench(browser.context, site.url, { view });
  r.frames = {};
  for (const size of [[1280, 800], [1920, 1080]]) {
    const key = size.join('x');
    r.frames[key] = { app: await playing(browser.context, site.url, size, opts.playSeconds),
      base: await baselinePlaying(browser.context, base.url, size, Math.min(opts.playSeconds, 5)) };
  }
} finally {
  await browser.close();
  await site.close();
  await base.close();
}
r.model = modelBench();
// Lighthouse on its own fresh browser after the timings above (it loads the machine while it runs).
try { r.lighthouse = await lighthouse({ runs: 3 }); } catch (e) { r.lighthouse = { error: String(e.message || e).split('\n')[0] }; }
// What each step of making the page lean saved, measured when the step was made (tools/bench/bundle-steps.json).
const steps = JSON.parse(fs.readFileSync(path.join(ROOT, 'tools/bench/bundle-steps.json'), 'utf8'));
// What each step of making the first load fast moved, measured when the step was made (tools/bench/load-steps.json).
const loadSteps = JSON.parse(fs.readFileSync(path.join(ROOT, 'tools/bench/load-steps.json'), 'utf8'));

function phaseRows(p) {
  const rows = [
    ['firstPaint', 'the page\'s first paint', 'HTML and the style sheet arrive; the page\'s own layout and paint (no app yet)'],
    ['wasmRequested', 'the page asks for tierscope.wasm', 'after the first paint, so the download does not take the network from the style sheet'],
    ['wasmReceived', 'its last byte arrives', 'download (compiling as it streams)'],
    ['context', 'the page\'s WebGL2 context', 'during the download, a throwaway context in a worker starts the GPU\'s side and links the shaders (gl-warm.js); then the page\'s own'],
    ['compiled', 'the module is compiled', 'what is left of the compile'],
    ['main', 'main() starts', 'instantiate and the runtime\'s start'],
    ['window', 'the window and its GL context', 'SDL2 window on the context the page made (main(), a task of its own)'],
    ['ui', 'Dear ImGui', 'the next task: Dear ImGui\'s context, theme and input, its shaders sent to compile'],
    ['canvas', 'the canvas\'s shaders sent', 'the next task: the canvas\'s programs sent to compile'],
    ['gl', 'the font atlas', 'the next task: the font atlas built and uploaded, a fence set for the first frame to poll'],
    ['figures', 'the figures', 'the next task: the default scenario\'s figures (first calls compile lazily)'],
    ['model', 'the ledger', 'the next task: the path\'s ledger, the page\'s calls attached'],
    ['pageBuilt', 'the page\'s views built', 'walkthrough, ledger rows, names and the link applied, while the GPU process works'],
    ['shaders', 'shaders linked', 'the next frame after the start-up\'s fence has passed (polled, never waited on); the links come from the GPU\'s program cache'],
    ['frameStart', 'the first frame starts', 'the next animation frame'],
    ['first', 'the first frame is drawn', 'UI, layout and the draw calls'],
  ];
  return rows.filter(([k]) => p && Number.isFinite(p[k])).map(([k, mark, phase]) => `| ${mark} | ${fmt(p[k], 0)} | ${phase} |`);
}

function lighthouseLines(l) {
  if (!l) return ['Not run: Lighthouse is not installed (`tools/setup --bench` installs it).'];
  if (l.error) return [`Not run: ${l.error}`];
  const ps = Object.values(l.profiles);
  const cell = (p, k) => formatMetric(k, p.metrics[k]);
  return [
    `Lighthouse ${l.version}, medians of ${l.runs} runs per profile, the profiles alternating, on the site served ` +
      'compressed (tools/serve.mjs: brotli or gzip, a year\'s cache for hashed names). Mobile is Lighthouse\'s default ' +
      'profile (simulated slow 4G, 4× CPU slowdown). Aims: mobile performance ≥ 0.90 (LCP ≤ 2.5 s, TBT ≤ 200 ms, ' +
      'CLS ≤ 0.02), desktop ≥ 0.98; accessibility, best practices and SEO 1.00 on both.',
    '',
    `| category | ${ps.map((p) => p.profile).join(' | ')} |`,
    `| --- |${ps.map(() => ' ---: |').join('')}`,
    ...Object.keys(ps[0].scores).map((c) => `| ${c} | ${ps.map((p) => p.scores[c].toFixed(2)).join(' | ')} |`),
    ...Object.entries(l.metricTitles).map(([k, t]) => `| ${t} | ${ps.map((p) => cell(p, k)).join(' | ')} |`),
    `| longest main-thread tasks | ${ps.map((p) => p.tasks.slice(0, 3).map((t) => `${t.ms.toFixed(0)} ms (${t.url || 'browser'})`).join(', ') || 'none over 50 ms').join(' | ')} |`,
    `| largest transfers | ${ps.map((p) => p.bytes.slice(0, 3).map((b) => `${b.file} ${(b.bytes / 1024).toFixed(0)} KiB`).join(', ')).join(' | ')} |`,
    '',
    ...ps.map((p) => `${p.profile}: ` + (p.failed.length ? 'audits not passed in some run: ' + p.failed.map((f) => `${f.title} (${f.category}${f.value ? ', ' + f.value : ''})`).join('; ') + '.' : 'every weighted audit passed in every run.')),
  ];
}

const app1280 = r.frames['1280x800'].app, base1280 = r.frames['1280x800'].base;
const lines = [
  '# Benchmarks',
  '',
  `Measured ${r.date} by \`tools/bench/run\` on ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.memGiB} GiB, ` +
    `${r.machine.chromium} headless with SwiftShader (WebGL on the CPU), node ${r.machine.node}. Figures are noisy on a shared ` +
    'machine: startup times are medians of ' + opts.runs + ' cold loads; ratios compare with a baseline measured in the same run ' +
    '(one WebGL2 canvas cleared every frame, `tools/bench/baseline/`). Nothing here is asserted by the tests.',
  '',
  '## Bundle (what a visitor downloads)',
  '',
  '| file | raw bytes | gzip -9 |',
  '| --- | ---: | ---: |',
  ...r.bundle.files.map((f) => `| ${f.file} | ${f.raw} | ${f.gzip9} |`),
  `| **total** | **${r.bundle.totalRaw}** | **${r.bundle.totalGzip9}** |`,
  '',
  `Aim (issue 23): ≤ 350 kB gzip before the first frame; the total shipped may grow. Measured: ${r.bundle.firstFrameGzip9 === undefined ? '—' : kb(r.bundle.firstFrameGzip9)} kB before the first frame, ${kb(r.bundle.totalGzip9)} kB in all (the worker module comes after the first frame).`,
  '',
  '### What each step saved',
  '',
  steps.note,
  '',
  '| step | part | before (kB gzip) | after (kB gzip) | saved |',
  '| --- | --- | ---: | ---: | ---: |',
  ...steps.steps.map((x) => `| ${x.step} | ${x.part} | ${x.before.toFixed(1)} | ${x.after.toFixed(1)} | ${(x.before - x.after).toFixed(1)} |`),
  '',
  '## Startup (127.0.0.1, cache disabled)',
  '',
  '| measure | tierscope | baseline | ratio |',
  '| --- | ---: | ---: | ---: |',
  `| navigation → first drawn frame | ${fmt(r.startup.appFirst, 0)} ms | ${fmt(r.startup.baseFirst, 0)} ms | ${fmt(r.startup.appFirst / r.startup.baseFirst)}× |`,
  `| the same, against a baseline that also draws with one shader program | ${fmt(r.startup.appFirst, 0)} ms | ${fmt(r.startup.baseShaderFirst, 0)} ms | ${fmt(r.startup.appFirst / r.startup.baseShaderFirst)}× |`,
  `| navigation → interactive (window.tierscope.ready) | ${fmt(r.startup.appInteractive, 0)} ms | — | ${fmt(r.startup.appInteractive / r.startup.appFirst)}× the first frame |`,
  '',
  'Aims: first drawn frame ≤ 1.5× the baseline (must: ≤ 2.0×); interactive ≤ 1.2× the first frame.',
  '',
  'Where the wait goes (medians of the marks, ms after navigation; each phase ends at its mark):',
  '',
  '| mark | at | phase |',
  '| --- | ---: | --- |',
  ...phaseRows(r.startup.phases),
  '',
  '## Lighthouse (mobile profile and desktop preset, compressed serving, offline on 127.0.0.1)',
  '',
  ...lighthouseLines(r.lighthouse),
  '',
  '### What each load step moved',
  '',
  loadSteps.note,
  '',
  '| step | figure | before | after |',
  '| --- | --- | ---: | ---: |',
  ...loadSteps.steps.map((x) => `| ${x.step} | ${x.figure} | ${x.before} | ${x.after} |`),
  '',
  '## Frames while playing every path, and idle',
  '',
  '| viewport | CPU/frame p50 | CPU/frame p95 | frames/s | baseline frames/s | baseline CPU p95 | idle frames in 5 s | WASM heap | JS heap |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...Object.entries(r.frames).map(([k, v]) => `| ${k} | ${fmt(v.app.p50)} ms | ${fmt(v.app.p95)} ms | ${fmt(v.app.fps, 1)} | ${fmt(v.base.fps, 1)} | ${fmt(v.base.p95)} ms | ${v.app.idleFrames} | ${(v.app.wasmHeap / 2 ** 20).toFixed(1)} MiB | ${(v.app.jsHeap / 2 ** 20).toFixed(1)} MiB |`),
  '',
  `Aims: p95 CPU per frame ≤ 4 ms and ≥ 55 frames/s at 1280×800 (measured ${fmt(app1280.p95)} ms, ${fmt(app1280.fps, 1)} frames/s; ` +
    `${fmt(app1280.fps / base1280.fps)}× the baseline's rate); 0 frames drawn while idle; JS heap ≤ 5 MB; WASM memory ≤ 32 MB. ` +
    'CPU per frame is what the app spends in its frame function (input, UI, animation, layout, draw calls), read from `window.tierscope.stats()`.',
  '',
  '## Dragging a value with a chart open',
  '',
  'Batch walks 1 → 64 → 1, one value per frame, through `window.tierscope.setParam` (the scenario recomputed, then every view ' +
    'on the page refreshed: chart, ledger rows, walkthrough numbers, header), 1280×800, medians over the changes after the first five.',
  '',
  '| chart open | whole change + style and layout p50 | p95 | page refresh p50 | p95 | chart recompute + redraw p50 | p95 | its CPU time p50 | p95 |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...Object.entries(r.drag).map(([k, v]) => `| ${dragViewName(k)} | ${fmt(v.p50)} ms | ${fmt(v.p95)} ms | ${fmt(v.refresh?.p50)} ms | ${fmt(v.refresh?.p95)} ms | ${fmt(v.chart?.p50)} ms | ${fmt(v.chart?.p95)} ms | ${fmt(v.cpu?.p50)} ms | ${fmt(v.cpu?.p95)} ms |`),
  '',
  'Aim (charts): recompute and redraw within one frame, ≤ 4 ms CPU p95. The chart\'s times are wall-clock (`performance.now()` ' +
    'around the redraw); its CPU time is the main thread\'s own, read from a trace of the marks the redraw leaves on the page\'s ' +
    'timeline (their thread timestamps): the difference is time the thread waited for a core while the GPU process rastered ' +
    'the previous frame in software on the same two cores. "Whole change" also holds the app\'s own recompute ' +
    '(describe and the path\'s ledger) and the browser\'s style and layout; the page\'s address is rewritten once the value rests, ' +
    'outside the change.',
  '',
  '## Model',
  '',
  '| measure | native | WebAssembly (node) |',
  '| --- | ---: | ---: |',
  `| all figures with formulas, one scenario | ${fmt(r.model.native?.describeUs)} µs | ${fmt(r.model.wasm?.describeUs)} µs |`,
  `| the same with every formula read (each written on first read) | ${fmt(r.model.native?.writtenUs)} µs | ${fmt(r.model.wasm?.writtenUs)} µs |`,
  `| the same with one formula read (decode.step_time) | ${fmt(r.model.native?.oneUs)} µs | ${fmt(r.model.wasm?.oneUs)} µs |`,
  `| figures per second (all figures of a scenario) | ${fmt(1e6 / r.model.native?.describeUs, 0)} | ${fmt(1e6 / r.model.wasm?.describeUs, 0)} |`,
  `| sweep of the decode step (ctx × batch), scenarios/s | ${fmt(r.model.native?.sweepPerS, 0)} | ${fmt(r.model.wasm?.sweepPerS, 0)} |`,
  `| sweep of every figure's value, scenarios/s | ${fmt(r.model.native?.sweepAllPerS, 0)} | ${fmt(r.model.wasm?.sweepAllPerS, 0)} |`,
  '',
  'Aims (Model v2): all figures with formulas ≤ 20 µs natively; sweeps ≥ 1 M scenarios/s natively.',
  '',
];
fs.mkdirSync(path.dirname(opts.out), { recursive: true });
fs.writeFileSync(opts.out, lines.join('\n'));
fs.writeFileSync(opts.out.replace(/\.md$/, '.json'), JSON.stringify(r, null, 2) + '\n');
console.log(lines.join('\n'));
