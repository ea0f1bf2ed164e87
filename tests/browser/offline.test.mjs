// Browser tests of the page offline: after the first visit it works without the network (a versioned service
// worker), a new release replaces the old cache, and offline reloads keep working across that release.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { serveSite, openApp, SITE, useBrowser } from './lib/browser.mjs';
import { hashedName, rewriteReferences } from '../../tools/hash-site.mjs';

const env = useBrowser({ serviceWorkers: 'allow' });

test('the assembled service worker carries a build version and the shipped file list', () => {
  const sw = fs.readFileSync(path.join(SITE, 'sw.js'), 'utf8');
  const version = /const VERSION ?= ?["']([0-9a-f]{16})["']/.exec(sw);
  assert.ok(version, 'a 16-hex-digit version derived from the shipped files');
  const files = JSON.parse(/FILES ?= ?(\[[^\]]*\])/.exec(sw)[1]);
  assert.ok(files.includes('index.html'));
  for (const f of ['shell', 'style', 'tierscope']) assert.ok(files.some((x) => new RegExp(`^${f}\\.[0-9a-f]{10}\\.`).test(x)), `${f} ships under a hashed name`);
  for (const f of files) assert.ok(fs.existsSync(path.join(SITE, f)), `${f} is shipped`);
  // Every file the site holds is listed (a file added to the site needs no change to the worker).
  const shipped = fs.readdirSync(SITE, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(SITE, f)).isFile())
    .filter((f) => f !== 'sw.js' && !f.startsWith('examples') && !/LICENSE/.test(f));
  assert.deepEqual(files.slice().sort(), shipped.sort());
});

test('after the first visit the page works offline, and a new release replaces the cache', async () => {
  const { page } = await openApp(env.browser.context, env.site.url + '#path=engram');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null || caches.keys().then((k) => k.length > 0), null, { timeout: 15000 });
  const cacheNames = await page.evaluate(() => caches.keys());
  assert.equal(cacheNames.filter((k) => k.startsWith('tierscope-')).length, 1);
  await env.browser.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    const s = await page.evaluate(() => window.tierscope.state());
    assert.equal(s.path, 'engram');
    assert.equal(await page.locator('#fatal').isHidden(), true);
  } finally {
    await env.browser.context.setOffline(false);
  }
  await page.close();
});

test('a new release (another worker version) replaces the old cache', async () => {
  // A private copy of the site on its own origin, so the release can be changed in place.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-release-'));
  fs.cpSync(SITE, dir, { recursive: true });
  const own = await serveSite({ root: dir });
  try {
    const { page } = await openApp(env.browser.context, own.url);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => caches.keys().then((k) => k.some((n) => n.startsWith('tierscope-'))));
    const first = await page.evaluate(() => caches.keys());
    const swFile = path.join(dir, 'sw.js');
    fs.writeFileSync(swFile, fs.readFileSync(swFile, 'utf8').replace(/const VERSION ?= ?["'][^"']*["']/, "const VERSION = 'feedfacefeedface'"));
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.waitForFunction(() => caches.keys().then((k) => k.includes('tierscope-feedfacefeedface') && k.length === 1), null, { timeout: 15000 });
    assert.notDeepEqual(await page.evaluate(() => caches.keys()), first);
    await page.close();
  } finally {
    await own.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// A second release made from the first, as a new build would make it: the style sheet's bytes change, so
// its hashed name changes, the page names the new file, and the worker carries a new version.
function shipRelease(dir, tag) {
  const style = fs.readdirSync(dir).find((f) => /^style\.[0-9a-f]{10}\.css$/.test(f));
  const bytes = fs.readFileSync(path.join(dir, style), 'utf8') + `\n/* release ${tag} */\n`;
  const next = hashedName('style.css', Buffer.from(bytes));
  fs.writeFileSync(path.join(dir, next), bytes);
  fs.rmSync(path.join(dir, style));
  const rename = [[style, next]];
  const html = path.join(dir, 'index.html');
  fs.writeFileSync(html, rewriteReferences(fs.readFileSync(html, 'utf8'), rename).replace('<head>', `<head>\n<meta name="release" content="${tag}">`));
  const sw = path.join(dir, 'sw.js');
  fs.writeFileSync(sw, rewriteReferences(fs.readFileSync(sw, 'utf8'), rename).replace(/(const VERSION ?= ?["'])[^"']*(["'])/, `$1${tag.padEnd(16, '0')}$2`));
  return next;
}

const ready = (page) => page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
const release = (page) => page.evaluate(() => document.querySelector('meta[name=release]')?.content || 'v1');

test('offline reloads keep working across a new release: load v1, ship v2, reload offline and online', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-release-'));
  fs.cpSync(SITE, dir, { recursive: true });
  const own = await serveSite({ root: dir });
  const context = env.browser.context;
  try {
    const { page, errors } = await openApp(context, own.url + '#path=engram');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
    const v2style = shipRelease(dir, 'aa22');
    // Offline while v2 is out: the reader still gets v1 whole, from its cache.
    await context.setOffline(true);
    try {
      await page.reload();
      await ready(page);
      assert.equal(await release(page), 'v1');
      assert.equal(await page.locator('#fatal').isHidden(), true);
    } finally { await context.setOffline(false); }
    // Online: v2 at once (the page is network first), and its worker takes over with v2's files only.
    await page.reload();
    await ready(page);
    assert.equal(await release(page), 'aa22');
    await page.waitForFunction(() => caches.keys().then((k) => k.length === 1 && k[0] === 'tierscope-aa22000000000000'), null, { timeout: 15000 });
    // Offline again: v2 whole, its new style sheet included, the link's hash applied.
    await context.setOffline(true);
    try {
      await page.reload();
      await ready(page);
      assert.equal(await release(page), 'aa22');
      assert.ok(await page.evaluate((f) => [...document.styleSheets].some((s) => s.href && s.href.endsWith(f) && s.cssRules.length > 0), v2style));
      assert.equal((await page.evaluate(() => window.tierscope.state())).path, 'engram');
      assert.equal(await page.locator('#fatal').isHidden(), true);
    } finally { await context.setOffline(false); }
    await page.reload();
    await ready(page);
    assert.equal(await release(page), 'aa22');
    assert.deepEqual(errors.filter((e) => !/offline cache/.test(e)), []);
    await page.close();
  } finally {
    await own.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
