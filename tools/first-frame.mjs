// Splits the page's WebAssembly module in two: what the first frame runs (tierscope.wasm, loaded before it)
// and everything else (tierscope.deferred.wasm, which web/lib/loader.mjs fetches once the page is idle after
// its first frame, or at once if a call needs it sooner). Which functions the first frame runs is a list of
// names kept in the tree (src/platform/first-frame-functions.txt), recorded in Chromium from an instrumented
// build by `record`; a build needs no browser, and a list that misses a function costs speed, never
// correctness (the deferred module is loaded on the first call that needs it; a browser test tells).
//
//   node tools/first-frame.mjs split WEB_BUILD_DIR LIST      (the web build runs it after linking)
//   node tools/first-frame.mjs record [WEB_BUILD_DIR] [LIST]  (after a change to what the start-up runs)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesFromProfile, profileFromNames } from './lib/wasm-profile.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_LIST = path.join(ROOT, 'src/platform/first-frame-functions.txt');
const FEATURES = ['--enable-bulk-memory', '--enable-mutable-globals'];

function fail(what, todo) {
  console.error(`first-frame: ${what}\n  what to do: ${todo}`);
  process.exit(1);
}

const readList = (file) => new Set(fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')));

// emcc's -sSPLIT_MODULE leaves the linked module as tierscope.wasm.orig (with its names: --profiling-funcs)
// and an instrumented copy as tierscope.wasm. The copy becomes tierscope.profile.wasm (what `record` runs);
// the linked module is split by the list into tierscope.wasm and tierscope.deferred.wasm, neither with names.
function split(dir, list) {
  const orig = path.join(dir, 'tierscope.wasm.orig');
  if (!fs.existsSync(orig)) fail(`${orig} is missing`, 'link the web build with -sSPLIT_MODULE=1 (cmake/TierscopeWeb.cmake does)');
  if (!fs.existsSync(list)) fail(`the list of the first frame's functions (${list}) is missing`, 'run node tools/first-frame.mjs record');
  const bytes = fs.readFileSync(orig);
  const keep = readList(list);
  const { profile, kept, functions } = profileFromNames(bytes, keep);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-split-'));
  try {
    const data = path.join(tmp, 'first-frame.profile');
    fs.writeFileSync(data, profile);
    const instrumented = path.join(dir, 'tierscope.wasm');
    if (fs.existsSync(instrumented)) fs.renameSync(instrumented, path.join(dir, 'tierscope.profile.wasm'));
    const r = spawnSync('wasm-split', [...FEATURES, `--profile=${data}`, orig, '-o1', instrumented, '-o2', path.join(dir, 'tierscope.deferred.wasm')], { encoding: 'utf8' });
    if (r.error) fail(`wasm-split could not run (${r.error.message})`, 'run tools/setup (it installs binaryen)');
    if (r.status !== 0) fail(`wasm-split failed: ${r.stderr.trim()}`, 'see the message above');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const missing = keep.size - kept;
  console.log(`first-frame: ${kept} of ${functions} functions kept for the first frame` +
    (missing > 0 ? `; ${missing} listed name(s) no longer in the module (node tools/first-frame.mjs record refreshes the list)` : ''));
}

// Loads the instrumented module in Chromium as visitors first see the page (a desktop window and a phone,
// each in both colour schemes), reads which functions ran up to a second after the app was ready and as the
// tab is hidden and shown (what a reload runs while the page is dismissed, when the deferred part cannot be
// fetched), and writes their names, the union of the runs, as the list.
async function record(dir, list) {
  const { launch, serveSite } = await import('../tests/browser/lib/browser.mjs');
  const site = path.join(ROOT, 'build/web/site');
  for (const f of ['tierscope.profile.wasm', 'tierscope.wasm.orig']) {
    if (!fs.existsSync(path.join(dir, f))) fail(`${path.join(dir, f)} is missing`, 'build the site first (tools/build-web)');
  }
  if (!fs.existsSync(path.join(site, 'index.html'))) fail(`${site} holds no site`, 'build the site first (tools/build-web)');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-record-'));
  const names = new Set();
  try {
    fs.cpSync(site, copy, { recursive: true });
    // The site's page module names its hashed file; the instrumented module takes its place (same glue).
    const wasm = fs.readdirSync(copy).find((f) => /^tierscope\.[0-9a-f]{10}\.wasm$/.test(f));
    fs.copyFileSync(path.join(dir, 'tierscope.profile.wasm'), path.join(copy, wasm));
    const server = await serveSite({ root: copy });
    const orig = fs.readFileSync(path.join(dir, 'tierscope.wasm.orig'));
    const views = [
      { name: 'desktop', viewport: { width: 1280, height: 800 } },
      { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    ];
    try {
      for (const view of views) {
        for (const colorScheme of ['dark', 'light']) {
          const { context, close } = await launch({ contextOptions: { viewport: view.viewport, deviceScaleFactor: view.deviceScaleFactor || 1,
            isMobile: !!view.isMobile, hasTouch: !!view.hasTouch, colorScheme } });
          try {
            const page = await context.newPage();
            // The module object the page hands the app, kept where the recorder can read the profile.
            await page.addInitScript(() => {
              let real;
              Object.defineProperty(window, 'createTierscope', { configurable: true, set(v) { real = v; },
                get() { return real && ((m) => { window.__tierscopeRecord = m; return real(m); }); } });
            });
            // The instrumented module holds every function: the deferred part is not joined to it.
            await page.route(/tierscope\.deferred\./, (route) => route.abort());
            await page.goto(server.url);
            await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 60000 });
            await page.waitForTimeout(1000);
            // What a visitor leaving the page runs too: the tab hidden (a reload or a navigation hides it
            // first, and a page being dismissed may not load the deferred part), shown again, the window's
            // focus lost and regained, and the page left.
            await page.evaluate(() => {
              for (const hidden of [true, false]) {
                Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
                Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
                document.dispatchEvent(new Event('visibilitychange'));
              }
              delete document.hidden;
              delete document.visibilityState;
              window.dispatchEvent(new FocusEvent('blur'));
              window.dispatchEvent(new FocusEvent('focus'));
              // Last, as the page is left: the runtime's leave handler (the app is not used after it).
              window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
            });
            await page.waitForTimeout(200);
            const bytes = await page.evaluate(() => {
              const m = window.__tierscopeRecord, size = 1 << 20, at = m._malloc(size);
              const n = m.asm.__write_profile(at, size);
              return Array.from(new Uint8Array(m.asm.memory ? m.asm.memory.buffer : m.HEAPF64.buffer, at, n));
            });
            const seen = namesFromProfile(orig, Buffer.from(bytes));
            console.log(`first-frame: ${view.name}, ${colorScheme}: ${seen.length} functions ran`);
            for (const n of seen) names.add(n);
          } finally {
            await close();
          }
        }
      }
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
  const header = '# The functions the page\'s first frame runs, by name, one a line: tools/first-frame.mjs keeps them in\n' +
    '# tierscope.wasm and moves the rest to tierscope.deferred.wasm. Written by `node tools/first-frame.mjs record`.\n';
  fs.writeFileSync(list, header + [...names].sort().join('\n') + '\n');
  console.log(`first-frame: ${names.size} functions written to ${path.relative(ROOT, list)}`);
}

const [command, dirArg, listArg] = process.argv.slice(2);
const dir = path.resolve(dirArg || path.join(ROOT, 'build/web'));
const list = path.resolve(listArg || DEFAULT_LIST);
if (command === 'split') split(dir, list);
else if (command === 'record') await record(dir, list);
else fail(`unknown command '${command || ''}'`, 'use split WEB_BUILD_DIR [LIST] or record [WEB_BUILD_DIR] [LIST]');
