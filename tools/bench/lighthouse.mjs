// Lighthouse on the built site (desktop preset, Debian's Chromium headless, offline on 127.0.0.1): the four
// category scores and the load metrics, medians of a few runs, and every audit that did not pass. Reported
// by tools/bench/run, never asserted. Lighthouse comes from tools/setup --bench.
// usage: node tools/bench/lighthouse.mjs [--runs N] [--json FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveSite, CHROMIUM, CHROMIUM_FLAGS } from '../../tests/browser/lib/browser.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = {
  'first-contentful-paint': 'first contentful paint', 'largest-contentful-paint': 'largest contentful paint',
  'total-blocking-time': 'total blocking time', 'cumulative-layout-shift': 'cumulative layout shift', 'speed-index': 'speed index',
};

export function lighthouseCli() {
  const deps = process.env.TIERSCOPE_DEPS || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tierscope');
  const setup = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../setup'), 'utf8');
  const version = (/LIGHTHOUSE_NPM_VERSION="([^"]+)"/.exec(setup) || [])[1];
  const cli = path.join(deps, `lighthouse-${version}`, 'node_modules/lighthouse/cli/index.js');
  return fs.existsSync(cli) ? cli : null;
}

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

function runOnce(cli, url, out) {
  const flags = [...CHROMIUM_FLAGS, '--headless=new'].join(' ');
  const args = [cli, url, '--preset=desktop', `--only-categories=${CATEGORIES.join(',')}`, '--output=json', `--output-path=${out}`,
    '--quiet', `--chrome-flags=${flags}`, '--max-wait-for-load=30000'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 1 << 26 }, (err, _so, se) => {
      if (err) reject(new Error(`lighthouse failed: ${err.message}\n${se}`));
      else resolve(JSON.parse(fs.readFileSync(out, 'utf8')));
    });
  });
}

// Runs Lighthouse `runs` times on a fresh server; resolves to { scores, metrics, failed, version } or null
// when Lighthouse is not installed.
export async function lighthouse({ runs = 3 } = {}) {
  const cli = lighthouseCli();
  if (!cli) return null;
  const site = await serveSite();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-lh-'));
  const reports = [];
  try {
    for (let i = 0; i < runs; i++) reports.push(await runOnce(cli, site.url, path.join(tmp, `run${i}.json`)));
  } finally {
    await site.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
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
  return { version: reports[0].lighthouseVersion, runs, scores, metrics, metricTitles: METRICS, failed: [...failed.values()] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  let runs = 3, json = '';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--json') json = argv[++i];
    else { console.error(`unknown option '${argv[i]}' (allowed: --runs N, --json FILE)`); process.exit(2); }
  }
  const r = await lighthouse({ runs });
  if (!r) { console.error('Lighthouse is not installed: run tools/setup --bench'); process.exit(1); }
  if (json) fs.writeFileSync(json, JSON.stringify(r, null, 2) + '\n');
  for (const c of CATEGORIES) console.log(`${c.padEnd(16)} ${r.scores[c].toFixed(2)}`);
  for (const [k, t] of Object.entries(METRICS)) console.log(`${t.padEnd(26)} ${k === 'cumulative-layout-shift' ? r.metrics[k].toFixed(3) : r.metrics[k].toFixed(0) + ' ms'}`);
  for (const f of r.failed) console.log(`not passed (${f.category}): ${f.title}${f.value ? ' — ' + f.value : ''} [${f.score}]`);
}
