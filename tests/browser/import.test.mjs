// An imported model as a newcomer meets it: a config.json chosen in the dialog lowers the context to the
// model's trained positions and says so; its share link, opened in a fresh page (and given to the CLI),
// names the imported model with the same numbers; a setup that cannot run offers one-click fixes that make
// it run; the dialog reads the same file twice, Load reads the chosen file, and an empty file says what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser, ROOT } from './lib/browser.mjs';
import { CLI, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
const CONFIGS = path.join(ROOT, 'tests/data/hf_configs');
const env = useBrowser();

const state = (page) => page.evaluate(() => window.tierscope.state());
const figureTexts = (page) => page.evaluate(() => window.tierscope.figures().map((f) => [f.id, f.text]));
const dialogOpen = (page) => page.evaluate(() => document.getElementById('config-dialog').open);

async function chooseFile(page, file) {
  await page.click('#open-config');
  await page.setInputFiles('#config-file', file);
}

test('an imported config.json lowers ctx and says so; its link names the model in a fresh page and in the CLI', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await chooseFile(page, path.join(CONFIGS, 'Qwen3-30B-A3B.json'));
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  const loaded = await state(page);
  assert.equal(loaded.overrides.ctx, '40960', 'the default 131,072 is lowered to the 40,960 trained positions');
  assert.equal(loaded.feasible, true);
  assert.match(await page.locator('#notices .notice.config').textContent(), /ctx 131072 → 40960 \(the model's 40,960 trained positions/);
  assert.match(loaded.presetLabel, /^Qwen3-30B-A3B \(config\.json\) · 8×B200/);

  // Set ctx as a reader would, then Copy link.
  assert.equal((await page.evaluate(() => window.tierscope.setParam('ctx', 32768))).ok, true);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link').dataset.copied);
  const link = await page.locator('#copy-link').getAttribute('data-copied');
  assert.match(link, /[#&]model=Qwen3-30B-A3B(&|$)/);
  const before = await state(page);
  const numbers = await figureTexts(page);

  // A fresh page on a phone: the title, the subtitle and state() name Qwen, with Qwen's numbers.
  const fresh = await openApp(env.browser.context, link);
  await fresh.page.setViewportSize({ width: 390, height: 844 });
  const s2 = await state(fresh.page);
  assert.equal(s2.presetLabel, before.presetLabel);
  assert.equal(s2.preset, before.preset);
  assert.match(await fresh.page.title(), /Qwen3-30B-A3B/);
  assert.doesNotMatch(await fresh.page.title(), /DeepSeek/);
  assert.match(await fresh.page.locator('#subtitle').textContent(), /^Qwen3-30B-A3B/);
  assert.deepEqual(await figureTexts(fresh.page), numbers);
  assert.deepEqual(fresh.errors, []);
  await fresh.page.close();

  // The CLI reads the same link the same way.
  if (!noCli) {
    const out = JSON.parse(execFileSync(CLI, ['figures', '--hash', new URL(link).hash, '--format', 'json'], { encoding: 'utf8' }));
    assert.equal(out.preset, before.preset);
    assert.equal(out.hash, before.scenarioHash);
    assert.deepEqual(out.figures.map((f) => [f.id, f.text]), numbers);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a setup that cannot run says why in one line with fix buttons; a click on one makes it run', async () => {
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#preset=v41-flash-8xb200&gpus=1`);
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    // The second time round, the reader makes it infeasible again by hand.
    if (viewport.width < 800) assert.equal((await page.evaluate(() => window.tierscope.setParam('gpus', 1))).ok, true);
    const fix = page.locator('#notices .notice.infeasible .notice-fix').first();
    await fix.waitFor();
    assert.match(await page.locator('#notices .notice.infeasible .notice-summary').textContent(), /^This setup cannot run: .*One click makes it run:$/);
    assert.match(await fix.textContent(), /^(Use|Set) /);
    // The walkthrough says the setup cannot run instead of quoting "not computed".
    const tour = await page.locator('#tour-body').textContent();
    assert.doesNotMatch(tour, /takes not computed|not computed[,.]/);
    assert.match(tour, /^This setup cannot run, .* one-click fixes\./);
    const { field, value } = await fix.evaluate((b) => ({ field: b.dataset.field, value: b.dataset.value }));
    await fix.click();
    await page.waitForFunction(() => window.tierscope.state().feasible);
    // The fixed field holds the fix's value (no override left when that is the preset's own value).
    assert.ok([value, undefined].includes((await state(page)).overrides[field]), `${field}=${value}`);
    await page.waitForFunction(() => !document.querySelector('#notices .notice.infeasible'));
  }
  // A 671B model on the default instance: the import lands on a setup that runs, or offers fixes that do.
  assert.equal((await page.evaluate(() => window.tierscope.setParam('preset', 'v41-flash-8xb200'))).ok, true);
  const r = await page.evaluate((t) => window.tierscope.loadConfig(t, 'DeepSeek-V3.json'), fs.readFileSync(path.join(CONFIGS, 'DeepSeek-V3.json'), 'utf8'));
  assert.equal(r.ok, true);
  if (!(await state(page)).feasible) {
    const fix = page.locator('#notices .notice.infeasible .notice-fix').first();
    await fix.waitFor();
    await fix.click();
    await page.waitForFunction(() => window.tierscope.state().feasible);
  }
  assert.match((await state(page)).presetLabel, /^DeepSeek-V3 /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the dialog loads the same file chosen twice, Load reads the chosen file, an empty file says what to do', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const qwen = path.join(CONFIGS, 'Qwen3-8B.json');
  const gemma = fs.readFileSync(path.join(CONFIGS, 'gemma-3-1b-it.json'), 'utf8');
  await chooseFile(page, qwen);
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  const first = await state(page);
  assert.match(first.presetLabel, /^Qwen3-8B /);
  // The input is cleared once read, so a browser reports the same file chosen again as a change.
  assert.equal(await page.$eval('#config-file', (i) => i.value), '');
  // Another model in between, then the same file again: it loads again.
  assert.equal((await page.evaluate((t) => window.tierscope.loadConfig(t), gemma)).ok, true);
  assert.notDeepEqual((await state(page)).arch, first.arch);
  await chooseFile(page, qwen);
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  assert.deepEqual((await state(page)).arch, first.arch);
  // Load with the file chosen (nothing pasted) reads that file.
  assert.equal((await page.evaluate((t) => window.tierscope.loadConfig(t), gemma)).ok, true);
  await page.click('#open-config');
  await page.click('#config-load');
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  assert.deepEqual((await state(page)).arch, first.arch);
  // An empty file: a message naming it and what to do; the dialog stays open and the model stays.
  await chooseFile(page, { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('') });
  await page.waitForFunction(() => /empty/.test(document.getElementById('config-result').textContent));
  const said = await page.locator('#config-result').textContent();
  assert.match(said, /config\.json: an empty file/);
  assert.match(said, /choose a model's config\.json .* or paste its text/);
  assert.equal(await dialogOpen(page), true);
  assert.deepEqual((await state(page)).arch, first.arch);
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

// A ModelOpt export ships hf_quant_config.json beside its config.json: chosen together, its formats are the
// model's (NVFP4 experts, an FP8 KV cache) and the share link carries them; a bad one is refused by name.
test('a config.json chosen with the hf_quant_config.json beside it takes that file\'s formats into the model and the link', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const config = { name: 'config.json', mimeType: 'application/json', buffer: fs.readFileSync(path.join(CONFIGS, 'Qwen3-30B-A3B.json')) };
  const quant = (algo) => ({
    name: 'hf_quant_config.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ producer: { name: 'modelopt' }, quantization: { quant_algo: algo, kv_cache_quant_algo: 'FP8', group_size: 16 } })),
  });
  await page.click('#open-config');
  await page.setInputFiles('#config-file', [quant('NVFP4'), config]);
  await page.waitForFunction(() => !document.getElementById('config-dialog').open);
  const s = await state(page);
  assert.equal(s.overrides.experts_fmt, 'fp4_g16');
  assert.equal(s.overrides.kv_fmt, 'fp8');
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link').dataset.copied);
  assert.match(await page.locator('#copy-link').getAttribute('data-copied'), /[#&]experts_fmt=fp4_g16(&|$)/);
  // The config.json alone keeps the checkpoint's own 16-bit weights.
  const alone = await page.evaluate(async (text) => window.tierscope.loadConfig(text, 'config.json'), config.buffer.toString());
  assert.equal(alone.ok, true);
  assert.notEqual((await state(page)).overrides.experts_fmt, 'fp4_g16');
  // A quant file the reader refuses leaves the model as it was and names its field.
  const before = await state(page);
  await page.click('#open-config');
  await page.setInputFiles('#config-file', [config, quant('INT2')]);
  await page.waitForFunction(() => /quant_algo/.test(document.getElementById('config-result').textContent));
  assert.deepEqual((await state(page)).overrides, before.overrides);
  assert.deepEqual(errors, []);
  await page.close();
});
