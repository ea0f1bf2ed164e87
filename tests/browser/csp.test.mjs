// The app runs when served with a strict Content-Security-Policy: no eval, no inline script or style. One
// page load walks the lazily-run code paths too (canvas input, playback, the walkthrough, the embed code)
// and must raise no policy violation and no console error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, useBrowser } from './lib/browser.mjs';
import { STRICT_CSP } from '../../tools/serve.mjs';

const env = useBrowser({ csp: true });

test('under a strict CSP the app loads, draws, plays, walks the walkthrough, draws a chart in its worker and shows the embed code with no policy violation', async () => {
  const page = await env.browser.context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const response = await page.goto(env.site.url + '#path=engram&tour=3');
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  const stats = await page.evaluate(() => window.tierscope.stats());
  assert.ok(stats.framesDrawn >= 1, 'a frame was drawn');
  assert.equal((await page.evaluate(() => window.tierscope.state())).path, 'engram');
  // Interact so lazily-run code paths execute too: input on the canvas, then playback until it has drawn.
  await page.click('#canvas');
  const since = await page.evaluate(() => window.tierscope.stats().framesDrawn);
  await page.keyboard.press('Space');
  await settled(page, since);
  await page.click('#tour-next');
  assert.equal((await page.evaluate(() => window.tierscope.state())).path, 'csa2-modes');
  // A chart comes from the worker: its script and its WebAssembly run under the same policy.
  await page.click('#open-charts');
  await page.waitForSelector('#chart-figure svg', { timeout: 15000 });
  await page.click('#charts-close');
  await page.click('#open-embed');
  assert.match(await page.inputValue('#embed-code'), /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#[^"]*path=csa2-modes/);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(errors.filter((x) => /Content Security Policy|Refused/.test(x)), []);
  assert.deepEqual(errors, []);
  await page.close();
});
