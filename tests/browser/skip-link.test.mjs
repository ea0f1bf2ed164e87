// The skip link as a keyboard user meets it: the first Tab stop, Enter (or a click) moves the focus to the
// walkthrough and nothing else — the address, the history, the view and the notices stay as they were —
// and a page opened at a bare anchor ("#tour") reads it as no link at all. After it, Tab walks the page in
// reading order — header, walkthrough, canvas, ledger — and every stop shows its focus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser, settled } from './lib/browser.mjs';

const env = useBrowser();

async function snapshot(page) {
  return page.evaluate(() => ({
    hash: location.hash, history: history.length, path: window.tierscope.ledger().path,
    notices: document.querySelectorAll('#notices .notice').length, status: document.getElementById('status').textContent,
  }));
}

test('the skip link moves the focus to the walkthrough without touching the link, the history or the view', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForFunction(() => location.hash.length > 1);
  await settled(page);
  const before = await snapshot(page);
  // Enter on the first Tab stop.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tour');
  assert.deepEqual(await snapshot(page), before);
  // A click does the same.
  await page.keyboard.press('Shift+Tab');
  await page.focus('a.skip');
  await page.click('a.skip');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tour');
  assert.deepEqual(await snapshot(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a page opened at "#tour" (an anchor, not a share link) shows the default view with no notice', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#tour');
  await settled(page);
  assert.equal(await page.locator('#notices .notice').count(), 0);
  const plain = await openApp(env.browser.context, env.site.url);
  await settled(plain.page);
  assert.equal(await page.evaluate(() => window.tierscope.ledger().path), await plain.page.evaluate(() => window.tierscope.ledger().path));
  assert.deepEqual(errors, []);
  await page.close();
  await plain.page.close();
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
