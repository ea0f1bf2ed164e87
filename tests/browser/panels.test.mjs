// The Charts, Serve and Fleet panels' script (web/lib/panels.mjs) is not in the first load: it is asked for
// only after the first frame (once idle), and a panel then opens at once. A script that cannot be fetched
// leaves the page working: the panel's button says why in a notice, window.tierscope.runFleet answers an
// error naming itself, and the next click, once the script can be fetched, opens the panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './lib/browser.mjs';

const env = useBrowser();
const PANELS = /\/panels(?:\.[0-9a-f]{10})?\.m?js$/;

test('the panels\' script is asked for after the first frame, once, and a panel then opens from its button', async () => {
  const asked = [];
  const seen = (r) => { if (PANELS.test(r.url())) asked.push(Date.now()); };
  env.browser.context.on('request', seen);
  try {
    const { page, errors } = await openApp(env.browser.context, env.site.url);
    const ready = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('tierscope-interactive')[0].startTime);
    for (let i = 0; i < 100 && !asked.length; i++) await page.waitForTimeout(50);
    assert.equal(asked.length, 1, 'the panels\' script is asked for once the page is idle');
    assert.ok(asked[0] >= ready, `the panels' script was asked for ${ready - asked[0]} ms before the first frame`);
    await page.click('#open-charts');
    await page.waitForSelector('#charts:not([hidden]) svg', { timeout: 20000 });
    await page.click('#open-charts');
    assert.equal(await page.$eval('#charts', (x) => x.hidden), true, 'the second click closes it: one toggle per click');
    assert.equal(asked.length, 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    env.browser.context.off('request', seen);
  }
});

test('a panels\' script that cannot be fetched is a notice and an error, and the next click opens the panel', async () => {
  let refusing = true;
  const refuse = (route) => (refusing ? route.abort('internetdisconnected') : route.continue());
  await env.browser.context.route(PANELS, refuse);
  try {
    const { page } = await openApp(env.browser.context, env.site.url);
    await page.click('#open-fleet');
    await page.waitForFunction(() => /The Fleet panel could not open: its code did not arrive/.test(document.getElementById('notices').textContent), null, { timeout: 10000 });
    assert.equal(await page.$eval('#fleet-panel', (x) => x.hidden), true, 'the panel stays closed');
    const r = await page.evaluate(() => window.tierscope.runFleet());
    assert.equal(r.ok, false);
    assert.equal(r.errors[0].code, 'unavailable');
    assert.equal(r.errors[0].field, 'runFleet');
    // Before the panel has arrived, its status answers as it would before a first run.
    const st = await page.evaluate(() => window.tierscope.fleet());
    assert.equal(st.started, false);
    assert.equal(st.slices.count, 0);
    assert.equal((await page.evaluate(() => window.tierscope.serve())).running, false);
    // The page itself goes on working.
    assert.equal((await page.evaluate(() => window.tierscope.seek(2))).ok, true);
    refusing = false;
    await page.click('#open-fleet');
    await page.waitForSelector('#fleet-panel:not([hidden])', { timeout: 20000 });
    assert.equal(await page.$eval('#open-fleet', (x) => x.getAttribute('aria-pressed')), 'true');
    await page.close();
  } finally {
    await env.browser.context.unroute(PANELS, refuse);
  }
});
