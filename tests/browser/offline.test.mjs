// Browser tests of the page offline: after the first visit it works without the network (a versioned service
// worker), and a new release replaces the old cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { serveSite, openApp, SITE, useBrowser } from './lib/browser.mjs';

const env = useBrowser({ serviceWorkers: 'allow' });

test('the assembled service worker carries a build version and the shipped file list', () => {
  const sw = fs.readFileSync(path.join(SITE, 'sw.js'), 'utf8');
  const version = /const VERSION ?= ?["']([0-9a-f]{16})["']/.exec(sw);
  assert.ok(version, 'a 16-hex-digit version derived from the shipped files');
  const files = JSON.parse(/FILES ?= ?(\[[^\]]*\])/.exec(sw)[1]);
  for (const f of ['index.html', 'shell.js', 'style.css', 'tierscope.js', 'tierscope.wasm']) assert.ok(files.includes(f), f);
  for (const f of files) assert.ok(fs.existsSync(path.join(SITE, f)), `${f} is shipped`);
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
