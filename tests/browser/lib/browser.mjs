// Launches Debian's Chromium headless through playwright-core with the flags that render WebGL2 on the
// CPU and keep it off the outside network, and serves the built site on 127.0.0.1 for the tests.
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../../../tools/serve.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SITE = process.env.TIERSCOPE_SITE || path.join(ROOT, 'build/web/site');
export const CHROMIUM = process.env.TIERSCOPE_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist', '--disable-default-apps', '--disable-extensions', '--mute-audio',
];

// The tests composite the page in software: with a software GPU, compositing through it renders every page
// frame in emulated Vulkan and reads it back, which made the browser suite about a fifth slower (the canvas
// and input files 55 → 42 s and 45 → 38 s). The canvas still draws through WebGL2 as a visitor's does.
// The benchmarks keep GPU compositing (`gpuCompositing: true`), as a visitor's browser has.
const TEST_FLAGS = [...CHROMIUM_FLAGS, '--disable-gpu-compositing'];

// The site registers a service worker for offline use; it is blocked unless a test asks for it, because
// requests a worker makes bypass page.route() (the failure tests rely on it) and its cache outlives a page.
// `contextOptions` adds to the context's settings (e.g. { hasTouch: true } for touch input).
export async function launch({ serviceWorkers = 'block', contextOptions = {}, gpuCompositing = false } = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run tools/setup (it installs Debian's chromium)`);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, args: gpuCompositing ? CHROMIUM_FLAGS : TEST_FLAGS, viewport: { width: 1280, height: 800 }, serviceWorkers,
    ...contextOptions,
  });
  const close = async () => {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, close };
}

// Where the servers of all test files keep the site's compressed files (brotli at its top quality takes the
// server seconds per file, which each test file's first page would wait for): keyed by content, so a rebuilt
// site is compressed again. The bytes served are the same either way.
export const SERVE_CACHE = path.join(ROOT, 'build/serve-cache');
// Each build of the site adds its files there: the newest few builds' worth are kept.
function pruneServeCache(keep = 160) {
  let names;
  try { names = fs.readdirSync(SERVE_CACHE); } catch { return; }
  if (names.length <= keep) return;
  const aged = names.map((n) => path.join(SERVE_CACHE, n)).map((p) => { try { return [fs.statSync(p).mtimeMs, p]; } catch { return [0, p]; } });
  for (const [, p] of aged.sort((a, b) => b[0] - a[0]).slice(keep)) fs.rmSync(p, { force: true });
}

// Starts the static server on a free loopback port; resolves to { url, close }.
export async function serveSite({ root = SITE, csp = false } = {}) {
  if (!fs.existsSync(path.join(root, 'index.html'))) throw new Error(`${root}/index.html not found: build the web app first`);
  pruneServeCache();
  const server = createServer({ root, csp, cacheDir: SERVE_CACHE });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

// Opens a page, collecting console errors and page errors, and waits for the app to be ready. `viewport`
// ({ width, height }) and `media` (page.emulateMedia's options: colorScheme, reducedMotion) are set before the
// page loads, so the app starts at that size and with those preferences (one load, not a load and a reload).
export async function openApp(context, url, { waitReady = true, viewport = null, media = null } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  if (viewport) await page.setViewportSize(viewport);
  if (media) await page.emulateMedia(media);
  await page.goto(url);
  if (waitReady) await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  return { page, errors };
}

// For a test file: hooks that start one browser and one site server before its tests and close both after.
// Read `env.browser` and `env.site` inside tests (they are set once the hooks have run); `setup(env)` runs
// once both are up (node may run separate top-level hooks out of step with each other).
export function useBrowser({ csp = false, serviceWorkers = 'block', setup = null, contextOptions = {} } = {}) {
  const env = { browser: null, site: null };
  before(async () => {
    env.site = await serveSite({ csp });
    env.browser = await launch({ serviceWorkers, contextOptions });
    if (setup) await setup(env);
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

// Waits until the app has stopped drawing: its frame count holds still over a few animation frames (the app
// draws after each input until ImGui has settled, then nothing). Given the frame count read before a change
// (`since`), it also returns once two frames have been drawn after it, so a change that starts playback,
// and so never stops drawing, settles too.
export async function settled(page, since = null) {
  await page.waitForFunction((k) => new Promise((resolve) => {
    const a = window.tierscope.stats().framesDrawn;
    let n = 0;
    const tick = () => {
      const now = window.tierscope.stats().framesDrawn;
      if (k !== null && now >= k + 2) resolve(true);
      else if (++n < 6) requestAnimationFrame(tick);
      else resolve(now === a);
    };
    requestAnimationFrame(tick);
  }), since, { timeout: 10000 });
}
