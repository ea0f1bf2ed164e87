// The skip link as a keyboard user meets it: the first Tab stop, Enter (or a click) moves the focus to the
// walkthrough and nothing else — the address, the history, the view and the notices stay as they were —
// and a page opened at a bare anchor ("#tour") reads it as no link at all.
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
