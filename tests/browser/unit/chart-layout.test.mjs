// The chart layout on the app's own series (tests/golden/chart-*.json, checked against the model by the
// native tests): at a phone's width and a wide screen no text touches other text, everything stays inside
// the picture, lines break where the setup cannot run, and the SVG says what it shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { layoutChart, linePath, linePoints, thinTicks, overlaps, estimate, HIT_R } from '../../../web/lib/chart-layout.mjs';
import { chartSvg, chartTable, markName } from '../../../web/lib/chart-svg.mjs';
import { FakeDocument } from './fake-dom.mjs';

const golden = (name) => JSON.parse(fs.readFileSync(new URL(`../../golden/chart-${name}.json`, import.meta.url), 'utf8'));
const CHARTS = ['roofline', 'sweep', 'breakdown', 'frontier'].map((n) => [n, golden(n)]);
const SIZES = [[360, 300], [360, 520], [800, 420], [1920, 600]];

// Every text box a layout draws, with what it is.
function textBoxes(L) {
  const m = (t, px) => estimate(t, px);
  const out = [];
  for (const t of L.xTicks) out.push({ what: `x tick ${t.label}`, x: t.pos - m(t.label, L.small) / 2, y: L.xLabelY ?? (L.plot.y + L.plot.h + 4), w: m(t.label, L.small), h: L.small });
  for (const t of L.yTicks) out.push({ what: `y tick ${t.label}`, x: L.plot.x - 6 - m(t.label, L.small), y: t.pos - L.small / 2, w: m(t.label, L.small), h: L.small });
  for (const t of L.y2Ticks) out.push({ what: `y2 tick ${t.label}`, x: L.plot.x + L.plot.w + 6, y: t.pos - L.small / 2, w: m(t.label, L.small), h: L.small });
  for (const e of L.legend) out.push({ what: `legend ${e.text}`, x: e.x, y: 8 + e.y, w: e.w, h: L.small });
  for (const s of L.shades) if (s.label) out.push({ what: `shade ${s.label.text}`, ...s.label });
  for (const mk of L.marks) if (mk.tag) out.push({ what: `mark ${mk.tag.text}`, ...mk.tag });
  if (L.xTitle && L.xTitle.text) out.push({ what: 'x title', x: L.xTitle.x - m(L.xTitle.text, L.px) / 2, y: L.xTitle.y - L.px, w: m(L.xTitle.text, L.px), h: L.px });
  for (const b of L.bars || []) out.push({ what: `bar ${b.caption}`, x: L.plot.x, y: b.captionY, w: m(b.caption, L.small), h: L.small });
  return out;
}

test('no text touches other text and all of it stays inside, at a phone\'s width and a wide screen', () => {
  for (const [name, chart] of CHARTS) {
    for (const [width, height] of SIZES) {
      const L = layoutChart(chart, { width, height, px: 12 });
      assert.ok(!L.tooSmall, `${name} at ${width}x${height} has room`);
      const boxes = textBoxes(L);
      assert.ok(boxes.length >= 6, `${name} at ${width}: ${boxes.length} texts`);
      for (let i = 0; i < boxes.length; i++) {
        const a = boxes[i];
        assert.ok(a.x >= -0.5 && a.x + a.w <= L.width + 0.5 && a.y >= -0.5 && a.y + a.h <= L.height + 0.5, `${name} ${width}: ${a.what} inside`);
        for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlaps(a, boxes[j]), `${name} ${width}: ${a.what} vs ${boxes[j].what}`);
      }
      // The decades always show on log axes: level-0 ticks come before 2× and 5×.
      if (chart.x.log) assert.ok(L.xTicks.some((t) => t.level === 0));
    }
  }
});

test('the roofline draws its four lines, breaks them where batches cannot run, and shades that span', () => {
  const chart = golden('roofline');
  const L = layoutChart(chart, { width: 800, height: 420 });
  assert.equal(L.paths.length, 4);
  assert.equal(L.shades.length, chart.infeasible.length);
  const shade = L.shades[0];
  // The shading starts between the last batch that fits and the first that does not.
  const lastFit = chart.xs[chart.xs.indexOf(chart.infeasible[0].from) - 1];
  assert.ok(shade.x > L.plot.x && shade.x + shade.w <= L.plot.x + L.plot.w + 0.5);
  // The crossover is marked where the chart has one (the default's compute roof stays below its memory
  // roof over the range, and then no mark is drawn).
  const crossing = L.marks.find((m) => m.kind === 'crossover');
  assert.equal(Boolean(crossing), chart.marks.some((m) => m.kind === 'crossover'), 'the crossover is marked when the roofs cross');
  assert.ok(lastFit < chart.infeasible[0].from);
});

test('a line has a gap, not a drop, where a point cannot run; a point between two gaps is a dot, never a bare move', () => {
  const d = linePath([1, 2, 3, 4], [1, null, 3, 4], (x) => x * 10, (y) => y);
  assert.equal(d, 'M30.0 3.0L40.0 4.0');
  assert.deepEqual(linePoints([1, 2, 3, 4], [1, null, 3, 4], (x) => x * 10, (y) => y).dots, [{ x: 10, y: 1 }]);
  assert.equal(linePath([1], [NaN], (x) => x, (y) => y), '');
  // Every move is followed by a line.
  const alternating = linePoints([1, 2, 3, 4, 5, 6], [1, null, 3, null, 5, 6], (x) => x, (y) => y);
  assert.equal(alternating.d, 'M5.0 5.0L6.0 6.0');
  assert.equal(alternating.dots.length, 2);
});

test('marks keep the app\'s name and value: each focusable point is named "what · value", never [object Object] or null', () => {
  const doc = fakeDoc();
  const chart = golden('roofline');
  const L = layoutChart(chart, { width: 800, height: 420 });
  for (const m of L.marks) assert.equal(typeof m.label, 'string');
  const nodes = all(chartSvg(doc, chart, L, 'chart-roofline'));
  const points = nodes.filter((n) => n.attrs.tabindex === '0');
  assert.equal(points.length, L.marks.filter((m) => Number.isFinite(m.x)).length);
  for (const p of points) {
    assert.doesNotMatch(p.attrs['aria-label'], /\[object Object\]|^null|undefined/);
    assert.equal(p.attrs['data-tip'], p.attrs['aria-label']);
    // A target 24 px across around the dot.
    assert.ok(p.children.some((c) => c.tag === 'circle' && Number(c.attrs.r) * 2 >= 24));
  }
  assert.ok(HIT_R * 2 >= 24);
  assert.equal(markName({ label: 'B: This scenario', text: 'batch 64: 12.3 ms per decode step' }), 'B: This scenario · batch 64: 12.3 ms per decode step');
});

test('ticks: decades first, then 2× and 5× only where their labels fit', () => {
  const ticks = [1, 2, 5, 10, 20, 50, 100].map((v, i) => ({ v, label: String(v), level: [0, 3].includes(i) || i === 6 ? 0 : 1 }));
  const wide = thinTicks(ticks, (t) => Math.log10(t.v) * 300, () => 20);
  assert.equal(wide.length, 7);
  const narrow = thinTicks(ticks, (t) => Math.log10(t.v) * 40, () => 20);
  assert.deepEqual(narrow.map((t) => t.v), [1, 10, 100]);
});

// A stand-in document: enough DOM for the SVG and table builders.
function fakeDoc() {
  const make = (tag) => {
    const n = { tag, attrs: {}, children: [], textContent: '', className: '' };
    n.setAttribute = (k, v) => { n.attrs[k] = v; };
    n.append = (...c) => n.children.push(...c);
    return n;
  };
  return { createElementNS: (_, tag) => make(tag), createElement: make };
}
const all = (n) => [n, ...n.children.flatMap(all)];

test('the SVG names itself, and every mark and bar segment can be focused and says its value', () => {
  const doc = fakeDoc();
  for (const [name, chart] of CHARTS) {
    const svg = chartSvg(doc, chart, layoutChart(chart, { width: 800, height: 420 }), `chart-${name}`);
    const nodes = all(svg);
    assert.equal(nodes.find((n) => n.tag === 'title').textContent, chart.title);
    assert.equal(nodes.find((n) => n.tag === 'desc').textContent, chart.description);
    const focusable = nodes.filter((n) => n.attrs.tabindex === '0');
    assert.ok(focusable.length > 0, name);
    for (const f of focusable) assert.ok(f.attrs['aria-label'] && !/undefined|NaN/.test(f.attrs['aria-label']), f.attrs['aria-label']);
    // The data table has a row per point (or per term) and no empty cells.
    const table = chartTable(doc, chart);
    const cells = all(table).filter((n) => n.tag === 'td');
    assert.ok(cells.length > 0);
    for (const c of cells) assert.ok(c.textContent !== undefined);
  }
});

test('the sweep chart\'s choice reads and writes the link\'s sweep= text', async () => {
  const { sweepOptions, sweepText } = await import('../../../web/lib/charts-view.mjs');
  assert.deepEqual(sweepOptions('decode.step_time:ctx'), { figure: 'decode.step_time', x: 'ctx' });
  assert.deepEqual(sweepOptions('hbm.sessions:ctx:gpus:4,8'), { figure: 'hbm.sessions', x: 'ctx', family: 'gpus', familyValues: ['4', '8'] });
  assert.equal(sweepOptions('nothing'), null);
  assert.equal(sweepText({ figure: 'hbm.sessions', x: 'ctx', family: 'gpus', familyValues: ['4', '8'] }), 'hbm.sessions:ctx:gpus:4,8');
  assert.equal(sweepText({ figure: 'hbm.sessions', x: 'ctx', family: 'gpus', familyValues: [] }), 'hbm.sessions:ctx');
  for (const t of ['decode.step_time:batch', 'kv.per_session:ctx:tp:1,2,4']) assert.equal(sweepText(sweepOptions(t)), t);
});

test('a chart redrawn in place is the chart drawn afresh, keeping the elements that stay', () => {
  const doc = new FakeDocument();
  // A tree as text: tags, attributes and text, depth first.
  const dump = (n) => (n.nodeType === 3 ? n.data : `<${n.localName} ${n.attributes.map((a) => `${a.name}=${a.value}`).sort().join(' ')}>${n.childNodes.map(dump).join('')}</>`);
  const [, roofline] = CHARTS[0], [, sweep] = CHARTS[1], [, breakdown] = CHARTS[2];
  const svg = chartSvg(doc, roofline, layoutChart(roofline, { width: 800, height: 420 }), 'chart-roofline');
  const title = svg.childNodes[0];
  // Another size, then other charts (more, fewer and other elements), then back: each as if drawn afresh.
  for (const [chart, w, id] of [[roofline, 640, 'chart-roofline'], [sweep, 800, 'chart-sweep'], [breakdown, 360, 'chart-breakdown'], [roofline, 800, 'chart-roofline']]) {
    const L = layoutChart(chart, { width: w, height: 420 });
    assert.equal(chartSvg(doc, chart, L, id, svg), svg, 'the same element');
    assert.equal(dump(svg), dump(chartSvg(doc, chart, L, id)), `${id} at ${w}`);
  }
  assert.equal(svg.childNodes[0], title, 'the title element stays');
});

test('the frontier joins each layout\'s own points across the other layouts\' x values; other charts break there', () => {
  const axis = (key) => ({ key, label: key, unit: 'tokens/s', log: true, lo: 1, hi: 1000, ticks: [{ v: 1, label: '1', level: 0 }, { v: 1000, label: '1000', level: 0 }] });
  const chart = {
    chart: 'frontier', title: 't', description: 'd', x: axis('x'), y: axis('y'), xs: [2, 4, 8, 16], x_text: ['2', '4', '8', '16'],
    lines: [
      { id: 'a', label: 'A', role: 'family', y: [500, null, 100, null], y_text: [] },
      { id: 'b', label: 'B', role: 'family', y: [null, 300, null, 50], y_text: [] },
    ],
    marks: [], infeasible: [],
  };
  const measure = (t, px) => estimate(t, px);
  for (const p of layoutChart(chart, { width: 640, height: 360, px: 12, measure }).paths) {
    assert.match(p.d, /^M[\d.]+ [\d.]+L[\d.]+ [\d.]+$/, `${p.id} is one stroke through its two points`);
    assert.equal(p.dots.length, 0);
  }
  const broken = layoutChart({ ...chart, chart: 'sweep' }, { width: 640, height: 360, px: 12, measure }).paths;
  assert.ok(broken.every((p) => p.d === '' && p.dots.length === 2), 'a sweep leaves the gaps open');
});

test('a mark\'s label covers no mark\'s dot: a crowded front labels what has room and leaves the rest to its names', () => {
  const chart = golden('frontier');
  for (const [width, height] of SIZES) {
    const L = layoutChart(chart, { width, height, px: 12 });
    const dots = L.marks.filter((m) => Number.isFinite(m.x)).map((m) => ({ id: m.id, x: m.x - 5, y: m.y - 5, w: 10, h: 10 }));
    const tagged = L.marks.filter((m) => m.tag);
    for (const m of tagged) for (const d of dots) assert.ok(!overlaps(m.tag, d), `${width}: ${m.tag.text} over the dot of ${d.id}`);
    // Wide, every front point has room for its label; at a phone's width some go without, never all.
    const front = L.marks.filter((m) => m.kind === 'front');
    assert.ok(front.length >= 5);
    if (width >= 800) assert.ok(tagged.length >= front.length / 2, `${width}: ${tagged.length} of ${front.length} labelled`);
    else assert.ok(tagged.length >= 1, `${width}: some labelled`);
  }
});

// A phone's chart keeps its axis titles: a title too long for its side ("output tokens per second per GPU"
// beside a 300 px tall chart) is said shorter, never dropped.
test('every chart keeps both axis titles at a phone\'s size', () => {
  for (const [name, chart] of CHARTS) {
    for (const [width, height] of [[360, 300], [340, 240]]) {
      const L = layoutChart(chart, { width, height, px: 12 });
      assert.ok(L.xTitle && L.xTitle.text, `${name} at ${width}x${height}: x title`);
      if (name !== 'breakdown') assert.ok(L.yTitle && L.yTitle.text, `${name} at ${width}x${height}: y title (${chart.y.label})`);
    }
  }
});
