// The app runs when served with a strict Content-Security-Policy: no eval, no inline script or style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './lib/browser.mjs';
import { STRICT_CSP } from '../../tools/serve.mjs';

const env = useBrowser({ csp: true });

test('under a strict CSP the app loads, draws and plays with no policy violation', async () => {
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
  const response = await page.goto(env.site.url);
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  const stats = await page.evaluate(() => window.tierscope.stats());
  assert.ok(stats.framesDrawn >= 1, 'a frame was drawn');
  // Interact so lazily-run code paths execute too.
  await page.click('#canvas');
  await page.keyboard.press('Space');
  await page.waitForTimeout(500);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(errors, []);
  await page.close();
});
