// Browser tests of the page's polish: offline after the first visit (a versioned service worker), no
// layout shift while loading, visible focus and a sensible tab order, and both colour schemes.
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

test('loading the page does not shift its layout', async () => {
  const page = await env.browser.context.newPage();
  await page.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(env.site.url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => window.__shift);
  assert.ok(cls < 0.05, `cumulative layout shift ${cls.toFixed(4)} (at most 0.05)`);
  await page.close();
});

test('tab order: skip link, header actions, walkthrough, animations, canvas, playback, ledger; focus is visible', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  const order = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const a = document.activeElement;
      const style = getComputedStyle(a);
      return { id: a.id || a.className || a.tagName, area: a.closest('header, aside, main, footer')?.className || '', outline: style.outlineStyle !== 'none' || style.boxShadow !== 'none' };
    });
    order.push(f);
  }
  assert.equal(order[0].id, 'skip');
  const areas = order.map((o) => o.area.split(' ')[0] + (o.area.includes('right') ? '-right' : o.area.includes('left') ? '-left' : ''));
  const firstOf = (a) => areas.indexOf(a);
  assert.ok(firstOf('top') < firstOf('side-left'), 'header before the walkthrough');
  assert.ok(firstOf('side-left') < firstOf('stage'), 'walkthrough before the canvas');
  assert.ok(firstOf('stage') < firstOf('side-right'), 'canvas before the ledger');
  assert.ok(firstOf('side-right') > 0, 'the ledger is reachable');
  for (const o of order.filter((x) => x.id !== 'BODY')) assert.ok(o.outline, `${o.id} shows focus`);
  await page.close();
});

test('light and dark schemes both apply, with readable contrast', async () => {
  const page = await env.browser.context.newPage();
  const colours = {};
  for (const scheme of ['dark', 'light']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(env.site.url);
    colours[scheme] = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.backgroundColor, s.color];
    });
  }
  assert.notDeepEqual(colours.dark, colours.light);
  const lum = (c) => {
    const [r, g, b] = c.match(/\d+/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  for (const [bg, fg] of Object.values(colours)) {
    const [a, b] = [lum(bg), lum(fg)].sort((x, y) => y - x);
    assert.ok((a + 0.05) / (b + 0.05) > 7, `contrast of ${fg} on ${bg}`);
  }
  await page.close();
});

test('phones: nothing is wider than a 360 px screen', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(env.site.url + '#path=csa2-modes');
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `page is ${wide}px wide`);
  await page.close();
});
