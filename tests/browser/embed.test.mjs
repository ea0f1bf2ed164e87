// Browser tests of embedding: the example docs page with two presets, the compact view, the embed dialog,
// the postMessage API (shapes, replies, step events, origin rules) and start-when-visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './lib/browser.mjs';
import { decodePng, pixelVariety } from './lib/png.mjs';

const env = useBrowser();

async function frameOf(page, id) {
  const f = await (await page.$('#' + id)).contentFrame();
  await f.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
  return f;
}
const stateIn = (f) => f.evaluate(() => window.tierscope.state());

test('the example docs page embeds two different presets, both running, in the compact view', async () => {
  const page = await env.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.setViewportSize({ width: 1000, height: 2400 });
  await page.goto(env.site.url + 'examples/index.html');
  const a = await frameOf(page, 'embed-flash');
  const b = await frameOf(page, 'embed-llama');
  const [sa, sb] = [await stateIn(a), await stateIn(b)];
  assert.equal(sa.preset, 'v41-flash-8xb200');
  assert.equal(sa.path, 'decode');
  assert.equal(sa.step, 1);
  assert.equal(sb.preset, 'llama31-70b-8xh100');
  assert.equal(sb.path, 'prefill');
  for (const f of [a, b]) {
    assert.equal(await f.evaluate(() => document.documentElement.classList.contains('embed')), true);
    assert.equal(await f.locator('.side.left').isVisible(), false, 'no side panels in an embed');
    assert.equal(await f.locator('#canvas').isVisible(), true);
    assert.match(await f.getAttribute('#open-full', 'href'), /#preset=/);
  }
  // The host page's buttons drive the first embed only, and its step events come back.
  await page.click('#flash-next');
  await a.waitForFunction(() => window.tierscope.state().step === 2);
  await page.waitForFunction(() => /step 2 of steps 0–/.test(document.getElementById('flash-log').textContent));
  assert.equal((await stateIn(b)).step, sb.step, 'the other embed is untouched');
  await page.click('#flash-play');
  await a.waitForFunction(() => window.tierscope.state().playing);
  await page.click('#flash-pause');
  await a.waitForFunction(() => !window.tierscope.state().playing);
  assert.deepEqual(errors, []);
  await page.close();
});

// A host page served from the same test server: one embed and a log of every message it receives.
async function hostWith(src) {
  const page = await env.browser.context.newPage();
  await page.goto(env.site.url + 'examples/index.html');
  await page.evaluate((s) => {
    document.body.replaceChildren();
    const f = document.createElement('iframe');
    f.id = 'solo';
    f.src = s;
    f.width = 700;
    f.height = 400;
    document.body.append(f);
    window.got = [];
    window.addEventListener('message', (e) => { if (e.source === f.contentWindow) window.got.push(e.data); });
  }, src);
  return page;
}
const send = (page, msg) => page.evaluate((m) => document.getElementById('solo').contentWindow.postMessage(m, '*'), msg);
const replyTo = (page, id) => page.waitForFunction((i) => window.got.find((m) => m.tierscope === 'reply' && m.id === i), id).then((h) => h.jsonValue());

test('postMessage: commands from the parent run and are answered; bad shapes are refused with errors', async () => {
  const page = await hostWith('../index.html?embed=1#path=decode');
  const f = await frameOf(page, 'solo');
  await page.waitForFunction(() => window.got.some((m) => m.tierscope === 'event' && m.event === 'ready'));
  await send(page, { tierscope: 'command', cmd: 'seek', step: 4, id: 1 });
  let r = await replyTo(page, 1);
  assert.equal(r.ok, true);
  assert.equal(r.state.step, 4);
  await send(page, { tierscope: 'command', cmd: 'play', path: 'engram', id: 2 });
  r = await replyTo(page, 2);
  assert.equal(r.state.path, 'engram');
  assert.equal(r.state.playing, true);
  await send(page, { tierscope: 'command', cmd: 'pause', id: 3 });
  assert.equal((await replyTo(page, 3)).state.playing, false);
  await send(page, { tierscope: 'command', cmd: 'setParam', key: 'batch', value: 8, id: 4 });
  assert.equal((await replyTo(page, 4)).state.overrides.batch, '8');
  await send(page, { tierscope: 'command', cmd: 'getState', id: 'q' });
  assert.equal((await replyTo(page, 'q')).state.path, 'engram');
  // Step events: every change is reported to the parent.
  const events = await page.evaluate(() => window.got.filter((m) => m.tierscope === 'event' && m.event === 'state').map((m) => m.state.step));
  assert.ok(events.includes(4), 'a state event for the seek');
  // Refusals: wrong types, unknown commands, unknown fields, a bad path, a bad parameter value.
  const bad = [
    [{ tierscope: 'command', cmd: 'seek', step: 'x', id: 10 }, 'step', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'eval', code: 'window.__pwned=1', id: 11 }, 'cmd', 'bad-enum'],
    [{ tierscope: 'command', cmd: 'pause', onload: 'x', id: 12 }, 'onload', 'unknown-key'],
    [{ tierscope: 'command', cmd: 'play', path: '<b>x</b>', id: 13 }, 'path', 'bad-enum'],
    [{ tierscope: 'command', cmd: 'setParam', key: 'ctx', value: 'lots', id: 14 }, 'ctx', null],
    [{ tierscope: 'command', cmd: 'seek', step: 999999, id: 15 }, 'step', 'out-of-range'],
  ];
  for (const [msg, field, code] of bad) {
    await send(page, msg);
    const x = await replyTo(page, msg.id);
    assert.equal(x.ok, false, JSON.stringify(msg));
    assert.ok(x.errors.some((e) => e.field === field && (!code || e.code === code)), `${JSON.stringify(msg)} → ${JSON.stringify(x.errors)}`);
  }
  assert.equal(await f.evaluate(() => window.__pwned), undefined);
  // Messages that are not ours are ignored without a reply.
  const before = await page.evaluate(() => window.got.length);
  await send(page, { type: 'resize', height: 10 });
  await send(page, 'play');
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.got.filter((m) => m.tierscope === 'reply').length), await page.evaluate((n) => window.got.slice(0, n).filter((m) => m.tierscope === 'reply').length, before));
  assert.equal((await stateIn(f)).playing, false);
  await page.close();
});

test('postMessage origin rules: only the parent window, and only listed origins when ?origin= is given', async () => {
  // Listed origin that is not the host's: the host's commands are ignored.
  const page = await hostWith('../index.html?embed=1&origin=https://docs.example.org#path=decode');
  const f = await frameOf(page, 'solo');
  await send(page, { tierscope: 'command', cmd: 'seek', step: 3, id: 1 });
  await page.waitForTimeout(300);
  assert.equal((await stateIn(f)).step, 0);
  assert.equal(await page.evaluate(() => window.got.filter((m) => m.tierscope === 'reply').length), 0);
  await page.close();
  // A sibling frame (not the parent) is ignored even without a list.
  const host = await hostWith('../index.html?embed=1#path=decode');
  const g = await frameOf(host, 'solo');
  await host.evaluate(() => {
    const sib = document.createElement('iframe');
    sib.id = 'sibling';
    document.body.append(sib);
  });
  // The sibling's own realm posts, so the message's source is the sibling, not the host.
  await host.evaluate(() => {
    const sib = document.getElementById('sibling').contentWindow;
    sib.eval('parent.frames[0].postMessage({ tierscope: "command", cmd: "seek", step: 5, id: 9 }, "*")');
  });
  await host.waitForTimeout(300);
  assert.equal((await stateIn(g)).step, 0, 'a sibling frame cannot drive the embed');
  // The listed host origin works.
  await host.close();
  const origin = env.site.url.replace(/\/$/, '');
  const ok = await hostWith(`../index.html?embed=1&origin=${encodeURIComponent(origin)}#path=decode`);
  await frameOf(ok, 'solo');
  await send(ok, { tierscope: 'command', cmd: 'seek', step: 2, id: 7 });
  assert.equal((await replyTo(ok, 7)).state.step, 2);
  await ok.close();
});

test('keys pressed inside an embed stay inside it', async () => {
  const page = await hostWith('../index.html?embed=1#path=decode');
  const f = await frameOf(page, 'solo');
  await page.evaluate(() => { window.keys = 0; window.addEventListener('keydown', () => window.keys++); });
  await f.click('#canvas');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await page.keyboard.type('abc');
  assert.equal(await page.evaluate(() => window.keys), 0);
  await page.close();
});

test('an embed below the fold waits until it is scrolled into view before loading the app', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 900, height: 500 });
  const wasm = [];
  page.on('request', (r) => { if (/\/tierscope\.[0-9a-f]{10}\.wasm$/.test(r.url())) wasm.push(r.frame().url()); });
  await page.goto(env.site.url + 'examples/index.html');
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '3000px';
    document.getElementById('embed-llama').before(spacer);
    document.getElementById('embed-llama').loading = 'eager';
  });
  await frameOf(page, 'embed-flash');
  const b = await (await page.$('#embed-llama')).contentFrame();
  await b.waitForSelector('#loading-title');
  await page.waitForTimeout(500);
  assert.equal(await b.locator('#loading-title').textContent(), 'Loads when visible…');
  assert.equal(wasm.filter((u) => /llama/.test(u)).length, 0, 'no download for the hidden embed');
  await page.locator('#embed-llama').scrollIntoViewIfNeeded();
  await frameOf(page, 'embed-llama');
  assert.equal(wasm.filter((u) => /llama/.test(u)).length, 1);
  await page.close();
});

test('an embed far off-screen gives back its WebGL context and takes it again when it returns', async () => {
  const page = await env.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 900, height: 600 });
  await page.goto(env.site.url + 'examples/index.html');
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.id = 'spacer';
    spacer.style.height = '6000px';
    document.getElementById('embed-llama').before(spacer);
  });
  const a = await frameOf(page, 'embed-flash');
  const before = await stateIn(a);
  const lost = () => a.evaluate(() => document.getElementById('canvas').getContext('webgl2').isContextLost());
  assert.equal(await lost(), false);
  await page.evaluate(() => window.scrollTo(0, 4000));
  await a.waitForFunction(() => document.getElementById('canvas').getContext('webgl2').isContextLost(), null, { timeout: 10000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await a.waitForFunction(() => !document.getElementById('canvas').getContext('webgl2').isContextLost(), null, { timeout: 10000 });
  // A picture again: the canvas has drawn pixels after the context came back.
  await page.waitForTimeout(300);
  const v = pixelVariety(decodePng(await a.locator('#canvas').screenshot()));
  assert.ok(v.colours > 20 && v.nonBackgroundShare > 0.02, `the embed's canvas draws again (${v.colours} colours)`);
  assert.deepEqual(await stateIn(a), before, 'the same view after the context returns');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Embed dialog gives an iframe snippet for the current view', async () => {
  const { page } = await openApp(env.browser.context, env.site.url + '#path=swa-resume&step=3');
  await page.click('#open-embed');
  assert.equal(await page.locator('#embed-dialog').isVisible(), true);
  const code = await page.inputValue('#embed-code');
  const m = /^<iframe src="([^"]+)" title="([^"]+)"/.exec(code);
  assert.ok(m, code);
  const src = m[1].replace(/&amp;/g, '&');
  assert.match(src, /\?embed=1#/);
  assert.match(src, /path=swa-resume/);
  assert.match(src, /step=3/);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#embed-dialog').isVisible(), false);
  // The snippet opens the same view in the compact layout.
  const { page: e } = await openApp(env.browser.context, src);
  const s = await e.evaluate(() => window.tierscope.state());
  assert.equal(s.path, 'swa-resume');
  assert.equal(s.step, 3);
  await e.close();
  await page.close();
});

test('the wheel over an embed\'s canvas scrolls the host page; the one-line caption keeps its numbers', async () => {
  const page = await hostWith('../index.html?embed=1#path=decode&step=1');
  await page.setViewportSize({ width: 900, height: 600 });
  await page.evaluate(() => { const s = document.createElement('div'); s.style.height = '2000px'; document.body.append(s); });
  const f = await frameOf(page, 'solo');
  const box = await page.locator('#solo').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 300);
  await page.waitForFunction(() => window.scrollY > 100, null, { timeout: 5000 });
  // The caption is shown whole (wrapped when long), not cut before its figures.
  const cap = await f.evaluate(() => {
    const e = document.getElementById('entry-now');
    return { text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 };
  });
  assert.ok(cap.text.length > 40, cap.text);
  assert.equal(cap.cut, false, `the caption is cut: ${cap.text}`);
  await page.close();
});

test('the Embed dialog\'s snippet fits a phone\'s docs page: no sideways scroll, panels closed, canvas text of 10 px and up at 360 px', async () => {
  // The snippet of a view with a panel open, on a desktop.
  const { page: full } = await openApp(env.browser.context, env.site.url + '#path=decode&step=3&panels=scenario,inspector');
  await full.click('#open-embed');
  const snippet = await full.inputValue('#embed-code');
  await full.close();
  assert.doesNotMatch(snippet, /\swidth="\d+"/, 'no fixed width');
  // Pasted into a docs page 360 px wide (the frame as wide as the page), then one 390 px wide with margins.
  for (const [width, pad] of [[360, 0], [390, 16]]) {
    const page = await env.browser.context.newPage();
    await page.setViewportSize({ width, height: 800 });
    const docs = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
      <title>docs</title><style>body{margin:0;padding:0 ${pad}px;font:16px/1.5 sans-serif}</style></head>
      <body><h1>Where the KV cache lives</h1>${snippet}<p>More prose.</p></body></html>`;
    await page.route(env.site.url + 'examples/phone-docs.html', (r) => r.fulfill({ contentType: 'text/html', body: docs }));
    await page.goto(env.site.url + 'examples/phone-docs.html');
    const frame = await (await page.$('iframe')).contentFrame();
    await frame.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 30000 });
    await frame.waitForFunction(() => window.tierscope.layout() && window.tierscope.layout().labels.length > 10);
    const host = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, inner: innerWidth, frame: document.querySelector('iframe').getBoundingClientRect().width }));
    assert.ok(host.scroll <= host.inner, `${width} px page: no sideways scroll (content ${host.scroll} px)`);
    assert.equal(Math.round(host.frame), width - 2 * pad, `${width} px page: the frame is the column's width`);
    const L = await frame.evaluate(() => window.tierscope.layout());
    const small = L.labels.filter((l) => l.px < 10);
    assert.deepEqual(small.map((l) => `${l.text} (${l.px} px)`), [], `${width} px page: every canvas text is 10 px or more`);
    assert.equal(L.dockSide, 'none', 'the panels start closed');
    assert.deepEqual((await frame.evaluate(() => window.tierscope.state())).panels, []);
    await page.close();
  }
});
