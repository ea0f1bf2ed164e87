// The Charts panel as a reader uses it: opened from the header by keyboard, tabs by arrow keys, the sweep's
// choices, text that never overlaps at a phone's width or a wide screen, a title, description and data
// table for screen readers, a comparison that the share link reopens, and a chart alone in an embed. The
// time a sweep's redraw takes is a benchmark (bench/chart-sweep-bench.mjs), not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openApp, useBrowser } from './lib/browser.mjs';
import { CLI, skipWithoutCli } from './lib/catalog.mjs';

const noCli = skipWithoutCli();
const env = useBrowser();

// Every text of the chart's SVG with its box as drawn, and the pairs that overlap.
async function overlaps(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#chart-figure svg');
    if (!svg) return { count: 0, pairs: ['no chart'] };
    const boxes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, x: r.left, y: r.top, w: r.width, h: r.height };
    });
    const frame = svg.getBoundingClientRect();
    const pairs = [];
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i];
      if (a.x < frame.left - 0.5 || a.x + a.w > frame.right + 0.5) pairs.push(`${a.text} leaves the picture`);
      for (let j = i + 1; j < boxes.length; j++) {
        const b = boxes[j];
        // A glyph box has some air above and below the letters: count overlaps beyond a pixel.
        if (a.x + 1 < b.x + b.w && b.x + 1 < a.x + a.w && a.y + 1 < b.y + b.h && b.y + 1 < a.y + a.h) pairs.push(`${a.text} / ${b.text}`);
      }
    }
    return { count: boxes.length, pairs };
  });
}

test('the panel opens from the header by keyboard, its tabs move by arrow keys, and the link names the chart', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url);
  await page.focus('#open-charts');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#chart-figure svg');
  assert.equal(await page.isVisible('#charts'), true);
  assert.match(await page.evaluate(() => location.hash), /view=chart-roofline/);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.chart), 'roofline');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /view=chart-sweep/.test(location.hash));
  assert.equal(await page.evaluate(() => document.activeElement.dataset.chart), 'sweep');
  assert.equal(await page.isVisible('#chart-sweep-form'), true);
  await page.keyboard.press('End');
  await page.waitForFunction(() => /view=chart-frontier/.test(location.hash));
  assert.equal(await page.evaluate(() => document.activeElement.dataset.chart), 'frontier');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /view=chart-breakdown/.test(location.hash));
  // The chart comes back from the worker module: wait until it is drawn, not just asked for.
  await page.waitForFunction(() => document.getElementById('chart-figure').getAttribute('aria-busy') !== 'true' &&
    document.querySelectorAll('#chart-figure svg rect.chart-seg').length > 0, null, { timeout: 15000 });
  assert.ok(await page.$$eval('#chart-figure svg rect.chart-seg', (r) => r.length) > 2, 'the stacked bar has its terms');
  // Choosing the sweep's figure and axis is a link of its own.
  await page.click('#chart-tab-sweep');
  await page.selectOption('#chart-figure-id', 'hbm.sessions');
  await page.selectOption('#chart-x', 'ctx');
  await page.waitForFunction(() => /sweep=hbm\.sessions:ctx/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  const again = await openApp(env.browser.context, env.site.url + hash);
  await again.page.waitForSelector('#chart-figure svg');
  assert.equal(await again.page.$eval('#chart-figure-id', (s) => s.value), 'hbm.sessions');
  assert.match(await again.page.$eval('#chart-figure svg title', (t) => t.textContent), /Sessions the instance runs at once/);
  // Closing returns to the animation alone.
  await page.click('#charts-close');
  assert.equal(await page.isVisible('#charts'), false);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /view=/);
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await page.close();
  await again.page.close();
});

test('no text of a chart overlaps another at a phone\'s width and at 1920 px, and each says what it shows', async () => {
  for (const [w, h] of [[360, 740], [1920, 1080]]) {
    const page = await env.browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    const errs = [];
    page.on('pageerror', (e) => errs.push(String(e)));
    for (const chart of ['roofline', 'sweep', 'breakdown', 'frontier']) {
      // The frontier of short requests keeps its replays quick.
      const extra = chart === 'frontier' ? '&prompt=2048&output=256' : '';
      await page.goto(`${env.site.url}#view=chart-${chart}&sweep=decode.step_time:ctx:gpus:4,8${extra}`);
      await page.waitForFunction((k) => document.getElementById(`chart-${k}-desc`) && document.getElementById('chart-figure').getAttribute('aria-busy') !== 'true', chart, { timeout: 30000 });
      const o = await overlaps(page);
      assert.ok(o.count >= 6, `${chart} at ${w}: ${o.count} texts`);
      assert.deepEqual(o.pairs, [], `${chart} at ${w}`);
      // A screen reader gets a title, a description and the numbers as a table (built when it is opened).
      await page.$eval('.chart-data', (d) => { d.open = true; });
      await page.waitForSelector('#chart-table tbody tr');
      const sr = await page.evaluate(() => {
        const svg = document.querySelector('#chart-figure svg');
        const ids = (svg.getAttribute('aria-labelledby') || '').split(' ');
        return { role: svg.getAttribute('role'), named: ids.every((id) => document.getElementById(id)?.textContent.length > 10),
          rows: document.querySelectorAll('#chart-table tbody tr').length, focusable: svg.querySelectorAll('[tabindex="0"][aria-label]').length };
      });
      assert.equal(sr.role, 'img');
      assert.equal(sr.named, true);
      assert.ok(sr.rows >= 2, `${chart}: ${sr.rows} table rows`);
      assert.ok(sr.focusable >= 1, `${chart}: points to focus`);
    }
    assert.deepEqual(errs, []);
    await page.close();
  }
});

// A and B are named by their model and layout as they are now: pinning 8×B200 and moving B to H200 with one
// TP8 instance, every A/B label (the chart's line, the figures' columns, the ledger's timelines) says
// B200 for A and H200 TP8 for B — none keeps the name B had when A was pinned.
test('compare: the A and B labels name each layout and follow B\'s edits', async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#view=chart-roofline');
  await page.waitForSelector('#chart-figure svg');
  await page.click('#chart-pin');
  await page.waitForFunction(() => /^A: .* · B: /.test(document.getElementById('chart-compare').textContent));
  const before = await page.textContent('#chart-compare');
  assert.match(before, /^A: DeepSeek V4\.1 Flash · 8×B200 · two TP4 instances · B: DeepSeek V4\.1 Flash · 8×B200 · two TP4 instances$/, before);
  // (One instance of eight H200s at TP8.)
  assert.equal(await page.evaluate(() => window.tierscope.setParam('gpu', 'h200').ok), true);
  assert.equal(await page.evaluate(() => window.tierscope.setParam('gpus', '8').ok), true);
  assert.equal(await page.evaluate(() => window.tierscope.setParam('tp', '8').ok), true);
  await page.waitForFunction(() => /B: .*H200/.test(document.getElementById('chart-compare').textContent));
  const after = await page.textContent('#chart-compare');
  assert.match(after, /^A: DeepSeek V4\.1 Flash · 8×B200 · two TP4 instances · B: DeepSeek V4\.1 Flash · 8×H200 · one TP8 instance$/, after);
  await page.click('#figures-details summary');
  await page.waitForFunction(() => /H200/.test(document.querySelector('#figures-table thead th:nth-child(3)')?.textContent || ''));
  const heads = await page.$$eval('#figures-table thead th', (t) => t.map((x) => x.textContent));
  assert.match(heads[1], /^A \(pinned\) · .*8×B200 · two TP4 instances$/);
  assert.match(heads[2], /^B \(now\) · .*8×H200 · one TP8 instance$/);
  const ledger = await page.textContent('#ledger-compare p');
  assert.match(ledger, /A DeepSeek V4\.1 Flash · 8×B200 · two TP4 instances · B DeepSeek V4\.1 Flash · 8×H200 · one TP8 instance/, ledger);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare: pin A, change B; the figures get A, B and B ÷ A, the ledger both timelines, the charts both, and the link reopens it', { skip: noCli }, async () => {
  const { page, errors } = await openApp(env.browser.context, env.site.url + '#view=chart-roofline');
  await page.waitForSelector('#chart-figure svg');
  await page.click('#chart-pin');
  assert.equal(await page.evaluate(() => window.tierscope.setParam('gpus', '8').ok), true);
  await page.waitForFunction(() => /cmp=v41-flash-8xb200/.test(location.hash));
  await page.waitForFunction(() => document.querySelectorAll('#chart-figure svg path.series-b').length > 0);
  assert.ok(await page.$$eval('#chart-figure svg path.chart-line', (p) => p.length) >= 8, 'A and B lines');
  await page.click('#figures-details summary');
  await page.waitForFunction(() => document.querySelector('#figures-table thead th:nth-child(2)')?.textContent.startsWith('A (pinned)'));
  const heads = await page.$$eval('#figures-table thead th', (t) => t.map((x) => x.textContent.split(' · ')[0]));
  assert.deepEqual(heads.slice(0, 4), ['Figure', 'A (pinned)', 'B (now)', 'B ÷ A']);
  const weights = await page.$eval('#figures-table tr[data-fig="hbm.weights_per_gpu"]', (r) => [...r.children].map((c) => c.textContent));
  assert.match(weights[3], /^0\.5/);
  assert.equal(await page.isVisible('#ledger-compare'), true);
  assert.equal(await page.$$eval('#ledger-compare .timeline', (t) => t.length), 2);
  // The chart in the page is the CLI's chart for the same link (the address is written once a value rests).
  await page.waitForFunction(() => /[#&]gpus=8(&|$)/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  const inPage = await page.evaluate(() => window.tierscope.chart('roofline'));
  const fromCli = JSON.parse(execFileSync(CLI, ['chart', 'roofline', '--hash', hash, '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(inPage.lines.length, fromCli.lines.length);
  assert.deepEqual(inPage.lines.map((l) => l.id), fromCli.lines.map((l) => l.id));
  for (let i = 0; i < inPage.lines.length; i++) {
    inPage.lines[i].y.forEach((y, k) => {
      const c = fromCli.lines[i].y[k];
      assert.ok((y === null && c === null) || Math.abs(y - c) <= 1e-12 * Math.abs(c), `${inPage.lines[i].id}[${k}]: ${y} vs ${c}`);
    });
  }
  // Reopened from the link: the same comparison.
  const again = await openApp(env.browser.context, env.site.url + hash);
  await again.page.waitForSelector('#chart-figure svg path.series-b');
  assert.equal(await again.page.$eval('#chart-pin', (b) => b.getAttribute('aria-pressed')), 'true');
  assert.equal(await again.page.evaluate(() => location.hash), hash);
  // Ending the comparison drops it from the link and the tables.
  await page.click('#chart-pin');
  await page.waitForFunction(() => !/cmp=/.test(location.hash));
  assert.equal(await page.isVisible('#ledger-compare'), false);
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await page.close();
  await again.page.close();
});

test('an embed with view=chart-roofline shows the chart alone, sized to its frame', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 640, height: 420 });
  await page.goto(`${env.site.url}?embed=1#view=chart-roofline`);
  await page.waitForFunction(() => document.querySelector('#chart-figure svg'), null, { timeout: 30000 });
  assert.equal(await page.isVisible('#canvas-frame'), false);
  const box = await page.$eval('#chart-figure svg', (s) => { const r = s.getBoundingClientRect(); return { w: r.width, bottom: r.bottom }; });
  assert.ok(box.w > 560 && box.w <= 640, `width ${box.w}`);
  assert.ok(box.bottom <= 420 + 1, `bottom ${box.bottom}`);
  await page.close();
});

// Each sub-path of a line's `d`: a move followed by at least one line-to (a move alone draws nothing).
function subpaths(d) {
  return (d.match(/M[^M]*/g) || []).map((p) => ({ text: p, lines: (p.match(/L/g) || []).length }));
}

test('compare at ctx 1,048,576: each line is one stroke where it has values, and each scenario\'s "cannot run" is one band', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const errs = [];
  page.on('pageerror', (e) => errs.push(String(e)));
  await page.goto(`${env.site.url}#view=chart-roofline`);
  await page.waitForFunction(() => document.querySelector('#chart-figure svg'), null, { timeout: 30000 });
  await page.click('#chart-pin');
  assert.equal(await page.evaluate(() => window.tierscope.setParam('ctx', '1048576').ok), true);
  await page.waitForFunction(() => document.querySelectorAll('#chart-figure svg path.series-b').length > 0);
  const drawn = await page.evaluate(() => ({
    paths: [...document.querySelectorAll('#chart-figure svg path.chart-line')].map((p) => ({ d: p.getAttribute('d'), b: p.classList.contains('series-b'), label: p.querySelector('title')?.textContent })),
    bands: [...document.querySelectorAll('#chart-figure svg .chart-under rect.chart-infeasible')].map((r) => ({ cls: r.getAttribute('class'), x: +r.getAttribute('x'), w: +r.getAttribute('width') })),
    legend: [...document.querySelectorAll('#chart-figure svg .chart-legend-text')].map((t) => t.textContent),
  }));
  const chart = await page.evaluate(() => window.tierscope.chart('roofline'));
  for (const p of drawn.paths) {
    const subs = subpaths(p.d);
    assert.ok(subs.every((s) => s.lines >= 1), `${p.label}: a move with no line after it in ${p.d.slice(0, 120)}`);
  }
  // A's lines have a value at every x up to A's capacity: one stroke each.
  for (const p of drawn.paths.filter((q) => !q.b)) assert.equal(subpaths(p.d).length, 1, `${p.label}: ${subpaths(p.d).length} strokes`);
  for (const l of chart.lines) {
    const at = l.y.map((y, i) => (y === null ? -1 : i)).filter((i) => i >= 0);
    assert.ok(at.length > 1, l.id);
    assert.equal(at[at.length - 1] - at[0] + 1, at.length, `${l.id}: gaps inside its values`);
  }
  const bBands = drawn.bands.filter((b) => /series-b/.test(b.cls));
  assert.equal(bBands.length, 1, `B's cannot-run area in ${bBands.length} pieces`);
  assert.ok(bBands[0].w > 100, `B's band is ${bBands[0].w} px wide`);
  assert.ok(drawn.legend.includes('B cannot run'), drawn.legend.join(' | '));
  assert.deepEqual(errs, []);
  await page.close();
});

test('chart points: each is named with what it is and its value, shows a readout on focus and hover, and is a 24 px target', async () => {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const errs = [];
  page.on('pageerror', (e) => errs.push(String(e)));
  await page.goto(`${env.site.url}#view=chart-roofline`);
  await page.waitForFunction(() => document.querySelector('#chart-figure svg .chart-point'), null, { timeout: 30000 });
  const points = await page.$$eval('#chart-figure svg [tabindex="0"]', (ps) => ps.map((p) => {
    const r = p.getBoundingClientRect();
    return { name: p.getAttribute('aria-label'), w: r.width, h: r.height, cls: p.getAttribute('class') };
  }));
  assert.ok(points.length >= 3, `${points.length} points`);
  for (const p of points) {
    assert.doesNotMatch(p.name, /\[object Object\]|^null|undefined/, p.name);
    assert.ok(p.w >= 24 && p.h >= 24, `${p.name}: ${p.w}×${p.h} px`);
  }
  const now = points.find((p) => /This scenario/.test(p.name));
  assert.match(now.name, /batch 1: .*(ms|µs) per decode step/);
  // The keyboard: Tab reaches a point and its readout shows the value.
  await page.focus('#chart-figure svg .chart-point.kind-now');
  await page.waitForSelector('#chart-tip:not([hidden])');
  const tip = await page.$eval('#chart-tip', (t) => { const r = t.getBoundingClientRect(); return { text: t.textContent, w: r.width, h: r.height }; });
  assert.match(tip.text, /per decode step/);
  assert.ok(tip.w > 40 && tip.h > 10);
  // The pointer: a measured point from other hardware says where it was measured and model ÷ measured.
  const other = page.locator('#chart-figure svg .chart-point.kind-measured.elsewhere').first();
  assert.ok(await other.count() === 1, 'a point measured on 4×GB300 is marked as from elsewhere');
  const box = await other.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => /measured on 4×GB300, TP4/.test(document.querySelector('#chart-tip').textContent));
  const measured = await page.$eval('#chart-tip', (t) => t.textContent);
  assert.match(measured, /this chart: [0-9]+×B200, TP[0-9]+\)/);
  assert.match(measured, /model ÷ measured [0-9.]+×/);
  assert.match(await other.getAttribute('aria-label'), /measured on 4×GB300, TP4/);
  // The axes say what they count.
  const titles = await page.$$eval('#chart-figure svg .chart-axis-title', (t) => t.map((x) => x.textContent));
  assert.ok(titles.some((t) => /per instance/.test(t)), titles.join(' | '));
  // Leaving the point hides its readout.
  await page.mouse.move(5, 5);
  await page.focus('#chart-pin');
  await page.waitForSelector('#chart-tip[hidden]', { state: 'attached' });
  assert.deepEqual(errs, []);
  await page.close();
});
