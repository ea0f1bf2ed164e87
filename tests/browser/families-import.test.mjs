// Each 2026 family's published config.json, chosen in the page's import dialog as a reader would choose it:
// the page names the model after the file and shows its parameter count within 5 % of the publisher's own
// total (the sources are the model cards the native tests cite), the count the CLI gives for the same file.
// One page, one loop over the files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openApp, useBrowser, ROOT } from './lib/browser.mjs';
import { cli, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
const CONFIGS = path.join(ROOT, 'tests/data/hf_configs');
const env = useBrowser();

// The publishers' totals (tests/data/hf_configs/README.md names each model card). MiMo-V2-Flash has no file here.
const FILES = [
  ['deepseek-ai--DeepSeek-V4-Flash.json', 284e9],
  ['deepseek-ai--DeepSeek-V4-Pro.json', 1.6e12],
  ['deepseek-ai--DeepSeek-V3.2.json', 671e9],
  ['zai-org--GLM-5.json', 744e9],
  ['moonshotai--Kimi-K2.5.json', 1e12],
  ['MiniMaxAI--MiniMax-M2.5.json', 230e9],
  ['Qwen--Qwen3.5-397B-A17B.json', 397e9],
  ['Qwen--Qwen3.5-0.8B.json', 0.8e9],
  ['nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json', 31.6e9],
  ['moonshotai--Kimi-Linear-48B-A3B-Instruct.json', 48e9],
  ['MiniMaxAI--MiniMax-M3.json', 428e9],
  ['meta-llama--Llama-4-Scout-17B-16E-Instruct.json', 109e9],
  ['google--gemma-4-26B-A4B.json', 25.2e9],
  ['moonshotai--Kimi-K3.json', 2.8e12],
];

// "425.9 B params" → 425.9e9.
function paramsOf(text) {
  const m = /^([\d.,]+)\s*([kMBT]?)\s*params$/.exec(text);
  assert.ok(m, `a parameter count: ${text}`);
  return Number(m[1].replace(/,/g, '')) * { '': 1, k: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2]];
}

test('every 2026 family\'s published config.json imports in the page with its name and its parameter count', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [file, published] of FILES) {
    const name = file.replace(/\.json$/, '');
    await page.click('#open-config');
    await page.setInputFiles('#config-file', path.join(CONFIGS, file));
    await page.waitForFunction(() => !document.getElementById('config-dialog').open);
    await page.waitForFunction((n) => window.tierscope.state().presetLabel.startsWith(`${n} (config.json)`), name);
    assert.match(await page.locator('#subtitle').textContent(), new RegExp(`^${name.replace(/[.]/g, '\\.')}`), file);
    const shown = (await page.evaluate(() => window.tierscope.figures())).find((f) => f.id === 'model.params_total').text;
    const count = paramsOf(shown);
    assert.ok(Math.abs(count - published) <= 0.05 * published || (published < 1e9 && Math.abs(count - published) < 0.1e9),
      `${file}: ${shown} against the published ${published}`);
    if (!noCli) {
      const out = JSON.parse(cli(['figures', '--config', path.join(CONFIGS, file), '--format', 'json']));
      assert.equal(out.figures.find((f) => f.id === 'model.params_total').text, shown, file);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
