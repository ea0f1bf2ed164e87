// Losing the WebGL context mid-animation (driver reset, GPU pressure) must not end the app: it stops
// drawing, says so, rebuilds its GL objects when the context returns and carries on at the same step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './lib/browser.mjs';
import { decodePng, pixelVariety } from './lib/png.mjs';

const env = useBrowser();

test('lose and restore the WebGL context mid-animation: notice, rebuild, same step', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const steps = await page.evaluate(() => window.tierscope.state().steps);
  assert.ok(steps > 2, 'the default path has steps to play');
  await page.evaluate(() => window.tierscope.play());
  await page.waitForFunction(() => window.tierscope.state().step >= 1, null, { timeout: 20000 });
  await page.evaluate(() => window.tierscope.pause());
  const before = await page.evaluate(() => window.tierscope.state());

  await page.evaluate(() => {
    const gl = document.getElementById('canvas').getContext('webgl2');
    window.__loseContext = gl.getExtension('WEBGL_lose_context');
    window.__loseContext.loseContext();
  });
  await page.waitForFunction(() => document.getElementById('canvas').getContext('webgl2').isContextLost());
  // The page says so in its own text, above the canvas, while the context is gone.
  await page.waitForFunction(() => /graphics context was lost/i.test(document.getElementById('notices').innerText));
  assert.equal(await page.getAttribute('#notices .notice[data-key="gl"]', 'role'), 'alert');
  const lost = await page.evaluate(() => window.tierscope.stats().framesDrawn);
  await page.mouse.move(300, 300);  // input while lost must not draw or crash
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.tierscope.stats().framesDrawn), lost, 'no frames drawn while the context is gone');

  await page.evaluate(() => window.__loseContext.restoreContext());
  await page.waitForFunction((n) => window.tierscope.stats().framesDrawn > n, lost, { timeout: 10000 });
  const after = await page.evaluate(() => window.tierscope.state());
  assert.equal(after.path, before.path);
  assert.equal(after.step, before.step, 'the animation carries on at the same step');
  await page.waitForFunction(() => /graphics context is back/i.test(document.getElementById('notices').innerText));
  assert.doesNotMatch(await page.locator('#notices').innerText(), /was lost/, 'the loss notice is replaced when the context returns');
  const img = decodePng(await page.locator('#canvas').screenshot());
  assert.ok(pixelVariety(img).nonBackgroundShare > 0.02, 'the restored canvas draws again');
  assert.deepEqual(errors.filter((e) => !/context/i.test(e)), []);
  await page.close();
});
