// Browser tests of share links and window.tierscope: every path round-trips through a link, back and
// forward re-apply the hash, each bad parameter gets a notice naming it and its default, nothing from a
// link is ever turned into markup, and the API refuses bad arguments with errors instead of crashing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openApp, ROOT, useBrowser } from './lib/browser.mjs';
import { PATH_KEYS } from './lib/catalog.mjs';

// Every path of the app, in its order (catalog().paths).
const PATHS = PATH_KEYS;
const env = useBrowser();

const stateOf = (page) => page.evaluate(() => window.tierscope.state());

test('a link restores the view exactly, for every path (state() equal before and after a reload)', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  for (const [i, path] of PATHS.entries()) {
    const r = await page.evaluate(([p, k]) => {
      const t = window.tierscope;
      const out = [t.play(p), t.pause(), t.setParam('ctx', k % 2 ? 65536 : 262144), t.setSpeed(k % 2 ? 2 : 0.5)];
      const steps = t.state().steps;
      out.push(t.seek(Math.min(steps - 1, k + 1)));
      return out;
    }, [path, i]);
    for (const x of r) assert.equal(x.ok, true, JSON.stringify(x.errors));
    const before = await stateOf(page);
    assert.equal(before.path, path);
    const link = await page.evaluate(() => window.tierscope.link());
    const fresh = await openApp(env.browser.context, link);
    const after = await stateOf(fresh.page);
    assert.deepEqual(after, before, `${path}: the view survives a reload`);
    assert.deepEqual(fresh.errors, []);
    assert.equal(await fresh.page.locator('#notices .notice').count(), 0, 'a good link raises no notice');
    await fresh.page.close();
  }
  // The "Copy link" button puts the same link on the clipboard (or shows it when the clipboard is refused).
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link').dataset.copied === window.tierscope.link());
  assert.equal(await page.locator('#notices .notice.info').count(), 1, 'the page says the link was copied, or shows it to copy');
  assert.deepEqual(errors, []);
  await page.close();
});

test('back and forward move between views', async () => {
  const { page } = await openApp(env.browser.context, env.site.url);
  await page.click('#path-list [data-path="engram"]');
  await page.evaluate(() => window.tierscope.pause());
  await page.click('#path-list [data-path="prefix-cache"]');
  await page.evaluate(() => window.tierscope.pause());
  assert.equal((await stateOf(page)).path, 'prefix-cache');
  await page.goBack();
  await page.waitForFunction(() => window.tierscope.state().path === 'engram');
  await page.goForward();
  await page.waitForFunction(() => window.tierscope.state().path === 'prefix-cache');
  // Typing a new hash applies it too.
  await page.evaluate(() => { location.hash = 'preset=v41-flash-8xb200&path=swa-resume&step=2'; });
  await page.waitForFunction(() => window.tierscope.state().path === 'swa-resume' && window.tierscope.state().step === 2);
  // A shared link to the hand-off opens it at its step, the NIC and the decode node's HBM on the canvas.
  await page.evaluate(() => { location.hash = 'preset=v41-flash-8xb200&pd_link=nic&path=pd-handoff&step=3'; });
  await page.waitForFunction(() => window.tierscope.state().path === 'pd-handoff' && window.tierscope.state().step === 3);
  const ids = (await page.evaluate(() => window.tierscope.layout())).items.map((it) => it.id);
  assert.ok(ids.includes('remote:nic') && ids.includes('remote:peer-hbm'), ids.join(' '));
  await page.close();
});

const BAD = [
  ['unknown path', 'path=warp', 'path', 'bad-enum'],
  ['out-of-range step', 'path=decode&step=99999', 'step', 'out-of-range'],
  ['out-of-range scenario value', 'ctx=99999999999', 'ctx', 'out-of-range'],
  ['negative value', 'batch=-3', 'batch', 'out-of-range'],
  ['non-numeric value', 'batch=lots', 'batch', null],
  ['unknown preset', 'preset=gpt-9', 'preset', 'unknown-preset'],
  ['unknown key', 'colour=red', 'colour', 'unknown-key'],
  ['script in a value', 'path=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E', 'path', 'markup'],
  ['markup in a value', 'ctx=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E', 'ctx', 'markup'],
  ['quote-breaking value', 'speed=1%22onmouseover%3D%22window.__pwned%3D1', 'speed', 'markup'],
  ['bad walkthrough step', 'tour=42', 'tour', 'out-of-range'],
  ['a 100 kB hash', 'path=' + 'x'.repeat(100 * 1024), 'hash', 'too-large'],
];

// Each refused key is an item of the link's notice: its field and code, and the notice's text around it.
const noticesOf = (page) => page.$$eval('#notices [data-field]', (n) => n.map((x) => ({
  field: x.dataset.field, code: x.dataset.code, item: x.textContent, text: x.closest('.notice').querySelector('.notice-summary').textContent + ' ' + x.textContent,
})));

test('each bad parameter shows a notice naming it, uses the default, and injects nothing', async () => {
  // A link's defaults: a link that sets nothing (a page opened with no hash at all starts the walkthrough).
  const { page: ref } = await openApp(env.browser.context, `${env.site.url}#preset=v41-flash-8xb200`);
  const defaults = await stateOf(ref);
  await ref.close();
  for (const [what, hash, field, code] of BAD) {
    const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${hash}`);
    const notices = await noticesOf(page);
    const mine = notices.find((n) => n.field === field);
    assert.ok(mine, `${what}: a notice names “${field}” (got ${JSON.stringify(notices)})`);
    if (code) assert.equal(mine.code, code, what);
    assert.match(mine.text, /default/, `${what}: the notice says the default is used`);
    assert.ok(mine.text.length < 400, `${what}: the notice stays short`);
    const s = await stateOf(page);
    assert.equal(s.preset, defaults.preset, what);
    assert.deepEqual(s.overrides, defaults.overrides, what);
    if (field !== 'step') assert.equal(s.path, defaults.path, `${what}: the default path`);
    assert.equal(s.step, 0, what);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, `${what}: nothing ran`);
    assert.equal(await page.locator('#notices img, #notices script, body > img').count(), 0, `${what}: no element injected`);
    assert.equal(await page.locator('#loading').isHidden(), true, `${what}: the app still runs`);
    assert.deepEqual(errors, [], what);
    // The notice does not block the page.
    await page.click('#path-list [data-path="engram"]');
    assert.equal((await stateOf(page)).path, 'engram');
    await page.close();
  }
});

test('good keys in a link still apply when another key is bad', async () => {
  const { page } = await openApp(env.browser.context, `${env.site.url}#path=prefill&step=2&ctx=banana&speed=2`);
  const s = await stateOf(page);
  assert.equal(s.path, 'prefill');
  assert.equal(s.step, 2);
  assert.equal(s.speed, 2);
  assert.equal(await page.locator('#notices [data-field="ctx"]').count(), 1);
  await page.close();
});

test('a 10 kB link keeps every good key and names the one long part, its size and the limit', async () => {
  const good = 'preset=v41-flash-8xh200&ctx=65536&batch=8&path=decode&step=3&speed=2';
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${good}&note=${'a'.repeat(10000)}`);
  const s = await stateOf(page);
  assert.equal(s.preset, 'v41-flash-8xh200');
  assert.deepEqual(s.overrides, { ctx: '65536', batch: '8' });
  assert.deepEqual([s.path, s.step, s.speed], ['decode', 3, 2]);
  const notices = await noticesOf(page);
  assert.deepEqual(notices.map((n) => [n.field, n.code]), [['note', 'too-large']]);
  assert.match(notices[0].item, /10005 bytes/);
  assert.match(notices[0].item, /4096 bytes/);
  assert.equal(await page.evaluate(() => location.hash.slice(1)), good, 'the address keeps the good keys alone');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an imported model\'s link with one bad key keeps the model and its other keys, names the bad key and says what followed it', async () => {
  // The link of a model loaded from its config.json (Qwen2-7B: 28 query heads, which tp=8 cannot split), on
  // 8 GPUs with dp=1 (tp × dp = gpus, so dp follows tp) and a batch of 16.
  const text = fs.readFileSync(path.join(ROOT, 'tests/data/hf_configs/Qwen2-7B-Instruct.json'), 'utf8');
  const { page: src } = await openApp(env.browser.context, `${env.site.url}#preset=v41-flash-8xh200`);
  const loaded = await src.evaluate((t) => window.tierscope.loadConfig(t, 'Qwen2-7B-Instruct.json'), text);
  assert.equal(loaded.ok, true, JSON.stringify(loaded.errors));
  const model = await stateOf(src);
  await src.close();
  const { page, errors } = await openApp(env.browser.context, `${env.site.url}#${model.scenarioHash}&gpus=8&tp=8&dp=1&batch=16&path=decode`);
  const s = await stateOf(page);
  assert.equal(s.presetLabel.split(' · ')[0], model.presetLabel.split(' · ')[0], 'the imported model stays');
  assert.equal(s.overrides.batch, '16');
  assert.equal(s.overrides.gpus, '8');
  assert.equal(s.path, 'decode');
  assert.ok(!('tp' in s.overrides), 'tp falls back to the preset\'s');
  assert.equal(s.overrides.dp, '2', 'dp is derived again: 4 × 2 = 8 GPUs');
  const refused = await page.locator('#notices .notice[data-kind="refused"] li').evaluateAll((li) => li.map((x) => x.dataset.field));
  assert.deepEqual(refused, ['tp'], 'the notice names the bad key alone');
  const moved = await page.locator('#notices .notice[data-kind="adjusted"] li[data-field="dp"]').textContent();
  assert.match(moved, /from 1 to 2/);
  assert.match(moved, /tp/, 'and says it follows tp');
  assert.deepEqual(errors, []);
  await page.close();
});

test('window.tierscope validates its arguments and never throws', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  const r = await page.evaluate(() => {
    const t = window.tierscope;
    const call = (f) => { try { return f(); } catch (e) { return { threw: String(e) }; } };
    return {
      badPath: call(() => t.play('warp')),
      numPath: call(() => t.play(3)),
      badStep: call(() => t.seek(-1)),
      bigStep: call(() => t.seek(1e12)),
      strStep: call(() => t.seek('2')),
      badKey: call(() => t.setParam('colour', 'red')),
      badValue: call(() => t.setParam('ctx', 'banana')),
      nanValue: call(() => t.setParam('ctx', NaN)),
      objValue: call(() => t.setParam('ctx', { a: 1 })),
      badSpeed: call(() => t.setSpeed(100)),
      good: call(() => t.play('engram')),
      state: call(() => t.state()),
      stats: call(() => t.stats()),
      layout: call(() => t.layout()),
      frozen: Object.isFrozen(t),
    };
  });
  const e = (x) => x.errors[0];
  assert.deepEqual([e(r.badPath).code, e(r.badPath).field, e(r.badPath).value], ['bad-enum', 'path', 'warp']);
  assert.match(e(r.badPath).allowed, /prefill.*step-budget/);
  assert.equal(e(r.numPath).code, 'wrong-type');
  assert.deepEqual([e(r.badStep).field, e(r.badStep).code], ['step', 'out-of-range']);
  assert.equal(e(r.bigStep).code, 'out-of-range');
  assert.equal(e(r.strStep).code, 'wrong-type');
  assert.equal(e(r.badKey).field, 'colour');
  assert.equal(e(r.badValue).field, 'ctx');
  assert.equal(e(r.nanValue).code, 'not-finite');
  assert.equal(e(r.objValue).value, 'an object');
  assert.equal(e(r.badSpeed).field, 'speed');
  for (const x of [r.badPath, r.badStep, r.badKey, r.badValue, r.badSpeed]) assert.equal(x.ok, false);
  assert.equal(r.good.ok, true);
  assert.equal(r.state.path, 'engram');
  assert.equal(r.state.playing, true);
  const { preset, overrides, path: shown, step, steps, counters, ledgerLength } = r.state;
  for (const v of [preset, overrides, shown, step, steps, counters, ledgerLength]) assert.notEqual(v, undefined, JSON.stringify(r.state));
  assert.ok(r.stats.framesDrawn >= 1);
  assert.ok(r.layout === null || typeof r.layout === 'object');
  assert.equal(r.frozen, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('before the app is ready, calls answer "not ready" instead of throwing', async () => {
  const page = await env.browser.context.newPage();
  await page.route('**/tierscope.*.wasm', () => {});  // never answers
  await page.goto(env.site.url);
  const r = await page.evaluate(() => [window.tierscope.play('decode'), window.tierscope.seek(1), window.tierscope.state()]);
  assert.equal(r[0].errors[0].code, 'not-ready');
  assert.equal(r[1].errors[0].code, 'not-ready');
  assert.equal(r[2], null);
  await page.close();
});

// state() before `ready` never contradicts the link being opened: it is null until the page has applied the
// link, then the link's own view (README: window.tierscope). Every task of the start is watched: a script
// polling from the page's first script on reads each answer the page could give.
test('state() before ready is null or the link\'s own view, never the app\'s first step', async () => {
  const page = await env.browser.context.newPage();
  await page.addInitScript(() => {
    const seen = (window.__earlyStates = []);
    const channel = new MessageChannel();
    let done = false;
    channel.port1.onmessage = () => {
      const t = window.tierscope;
      if (t && !done) {
        t.ready.then(() => { done = true; });
        const s = t.state();
        if (s) seen.push({ path: s.path, step: s.step, hash: s.hash });
      }
      if (!done) channel.port2.postMessage(0);
    };
    channel.port2.postMessage(0);
  });
  const link = 'preset=v41-flash-8xb200&path=decode&step=5&tour=2';
  await page.goto(`${env.site.url}#${link}`);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  await page.evaluate(() => window.tierscope.ready);
  const early = await page.evaluate(() => window.__earlyStates);
  for (const s of early) {
    assert.equal(s.path, 'decode', JSON.stringify(s));
    assert.equal(s.step, 5, JSON.stringify(s));
    assert.match(s.hash, /[&#]?step=5(&|$)/, JSON.stringify(s));
    assert.match(s.hash, /[&#]?tour=2(&|$)/, JSON.stringify(s));
  }
  const now = await stateOf(page);
  assert.equal(now.step, 5);
  assert.equal(now.path, 'decode');
  console.log(`state() answered ${early.length} times before ready, each with the link's view`);
  await page.close();
});
