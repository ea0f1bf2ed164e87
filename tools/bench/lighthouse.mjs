// Lighthouse on the built site served as hosts serve it (gzip or brotli, tools/serve.mjs), with Debian's
// Chromium headless, offline on 127.0.0.1, in the mobile profile (simulated slow 4G, 4× CPU slowdown) and the
// desktop preset: the four category scores, the load metrics, the bytes transferred and the longest
// main-thread tasks, medians of a few runs, and every audit that did not pass. Reported by tools/bench/run,
// never asserted. Lighthouse comes from tools/setup --bench.
// usage: node tools/bench/lighthouse.mjs [--runs N] [--profile mobile|desktop|both] [--root SITE] [--json FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveSite, SITE, CHROMIUM, CHROMIUM_FLAGS } from '../../tests/browser/lib/browser.mjs';
import { precompress } from '../serve.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = {
  'first-contentful-paint': 'first contentful paint', 'largest-contentful-paint': 'largest contentful paint',
  'total-blocking-time': 'total blocking time', 'cumulative-layout-shift': 'cumulative layout shift', 'speed-index': 'speed index',
  interactive: 'time to interactive', 'total-byte-weight': 'bytes transferred',
};
export const PROFILES = ['mobile', 'desktop'];

export function lighthouseCli() {
  const deps = process.env.TIERSCOPE_DEPS || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tierscope');
  const setup = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../setup'), 'utf8');
  const version = (/LIGHTHOUSE_NPM_VERSION="([^"]+)"/.exec(setup) || [])[1];
  const cli = path.join(deps, `lighthouse-${version}`, 'node_modules/lighthouse/cli/index.js');
  return fs.existsSync(cli) ? cli : null;
}

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

function runOnce(cli, url, out, profile) {
  const flags = [...CHROMIUM_FLAGS, '--headless=new'].join(' ');
  // Lighthouse's default configuration is the mobile one (Moto G power, slow 4G, 4× CPU slowdown).
  const args = [cli, url, ...(profile === 'desktop' ? ['--preset=desktop'] : ['--form-factor=mobile']), `--only-categories=${CATEGORIES.join(',')}`, '--output=json', `--output-path=${out}`,
    '--quiet', `--chrome-flags=${flags}`, '--max-wait-for-load=30000'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 1 << 26 }, (err, _so, se) => {
      if (err) reject(new Error(`lighthouse failed: ${err.message}\n${se}`));
      else resolve(JSON.parse(fs.readFileSync(out, 'utf8')));
    });
  });
}

// The longest main-thread tasks of one run (the long-tasks audit lists those over 50 ms), with the script
// they are charged to.
function longTasks(report) {
  const items = report.audits['long-tasks']?.details?.items || [];
  return items.map((t) => ({ url: t.url ? path.basename(new URL(t.url, 'http://x/').pathname) || 'index.html' : '', ms: t.duration, start: t.startTime }))
    .sort((a, b) => b.ms - a.ms);
}

// Which element the largest paint was, and where its time went (time to first byte, load delay, load
// time, render delay), from the run's largest-contentful-paint-element audit.
function lcpElement(report) {
  const items = report.audits['largest-contentful-paint-element']?.details?.items || [];
  const seen = report.audits.metrics?.details?.items?.[0] || {};
  const node = items.find((t) => t.type === 'table' || t.items)?.items?.[0]?.node || items[0]?.node;
  const phases = items.find((t) => t.headings && t.items && t.items[0] && 'phase' in t.items[0]);
  return {
    element: node ? (node.selector || node.snippet || '') : '',
    phases: phases ? phases.items.map((x) => ({ phase: x.phase, ms: x.timing })) : [],
    // What the browser saw before the slow network and CPU were simulated over the trace.
    observed: { fcp: seen.observedFirstContentfulPaint, lcp: seen.observedLargestContentfulPaint, load: seen.observedLoad },
  };
}

// The name of a shipped file without its content hash (tierscope.1a2b3c4d5e.wasm → tierscope.wasm).
const unhashed = (name) => name.replace(/\.[0-9a-f]{10}(\.[a-z0-9]+)$/, '$1');

function summarise(reports, profile) {
  const scores = {}, metrics = {};
  for (const c of CATEGORIES) scores[c] = median(reports.map((r) => r.categories[c].score));
  for (const m of Object.keys(METRICS)) metrics[m] = median(reports.map((r) => r.audits[m].numericValue));
  // Audits that did not pass in any run, with their category.
  const failed = new Map();
  for (const r of reports) {
    for (const c of CATEGORIES) {
      for (const ref of r.categories[c].auditRefs) {
        const a = r.audits[ref.id];
        if (ref.weight > 0 && a.score !== null && a.score < 1 && !failed.has(a.id)) failed.set(a.id, { category: c, title: a.title, score: a.score, value: a.displayValue || '' });
      }
    }
  }
  // The run with the median performance score stands for the tasks and the bytes per file.
  const mid = reports.slice().sort((a, b) => a.categories.performance.score - b.categories.performance.score)[(reports.length - 1) >> 1];
  const bytes = (mid.audits['network-requests']?.details?.items || []).map((q) => ({ file: unhashed(path.basename(new URL(q.url).pathname)) || 'index.html', bytes: q.transferSize }))
    .filter((q) => q.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  const tasks = longTasks(mid).map((t) => ({ ...t, url: unhashed(t.url) }));
  return { profile, scores, metrics, failed: [...failed.values()], tasks, bytes, lcp: lcpElement(mid) };
}

// Runs Lighthouse `runs` times per profile on a fresh server (the runs of the profiles alternate, so a busy
// spell of the machine weighs on both alike); resolves to { version, runs, profiles: { mobile, desktop } }
// or null when Lighthouse is not installed.
export async function lighthouse({ runs = 3, profiles = PROFILES, root = SITE } = {}) {
  const cli = lighthouseCli();
  if (!cli) return null;
  precompress(root);
  const site = await serveSite({ root });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-lh-'));
  const reports = Object.fromEntries(profiles.map((p) => [p, []]));
  try {
    for (let i = 0; i < runs; i++) {
      for (const p of profiles) reports[p].push(await runOnce(cli, site.url, path.join(tmp, `${p}${i}.json`), p));
    }
  } finally {
    await site.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const out = {};
  for (const p of profiles) out[p] = summarise(reports[p], p);
  return { version: reports[profiles[0]][0].lighthouseVersion, runs, metricTitles: METRICS, profiles: out };
}

export function formatMetric(k, v) {
  if (k === 'cumulative-layout-shift') return v.toFixed(3);
  if (k === 'total-byte-weight') return (v / 1024).toFixed(0) + ' KiB';
  return v.toFixed(0) + ' ms';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  let runs = 3, json = '', profiles = PROFILES, root = SITE;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--json') json = argv[++i];
    else if (argv[i] === '--root') root = argv[++i];
    else if (argv[i] === '--profile') {
      const v = argv[++i];
      if (v !== 'both' && !PROFILES.includes(v)) { console.error(`--profile: '${v}' is not a profile (allowed: mobile, desktop, both)`); process.exit(2); }
      profiles = v === 'both' ? PROFILES : [v];
    } else { console.error(`unknown option '${argv[i]}' (allowed: --runs N, --profile mobile|desktop|both, --root SITE, --json FILE)`); process.exit(2); }
  }
  if (!Number.isInteger(runs) || runs < 1) { console.error(`--runs: '${runs}' is not a positive whole number`); process.exit(2); }
  const r = await lighthouse({ runs, profiles, root });
  if (!r) { console.error('Lighthouse is not installed: run tools/setup --bench'); process.exit(1); }
  if (json) fs.writeFileSync(json, JSON.stringify(r, null, 2) + '\n');
  for (const p of Object.values(r.profiles)) {
    console.log(`— ${p.profile} (Lighthouse ${r.version}, medians of ${r.runs})`);
    for (const c of CATEGORIES) console.log(`${c.padEnd(26)} ${p.scores[c].toFixed(2)}`);
    for (const [k, t] of Object.entries(METRICS)) console.log(`${t.padEnd(26)} ${formatMetric(k, p.metrics[k])}`);
    for (const t of p.tasks.slice(0, 5)) console.log(`long task                  ${t.ms.toFixed(0)} ms (${t.url || 'browser'})`);
    if (p.lcp && p.lcp.element) console.log(`largest paint              ${p.lcp.element}${p.lcp.phases.length ? " (" + p.lcp.phases.map((x) => `${x.phase} ${x.ms.toFixed(0)} ms`).join(", ") + ")" : ""}`);
    if (p.lcp && p.lcp.observed && p.lcp.observed.lcp !== undefined) console.log(`observed, unthrottled     first paint ${Math.round(p.lcp.observed.fcp)} ms, largest ${Math.round(p.lcp.observed.lcp)} ms, load ${Math.round(p.lcp.observed.load)} ms`);
    for (const b of p.bytes.slice(0, 4)) console.log(`transferred                ${(b.bytes / 1024).toFixed(0)} KiB ${b.file}`);
    for (const f of p.failed) console.log(`not passed (${f.category}): ${f.title}${f.value ? ' — ' + f.value : ''} [${f.score}]`);
  }
}
