// Lays out one chart from the app's series (`tierscope chart NAME --format json`): plot area, scales, the
// ticks that fit, line paths, shaded spans, card bands, marks and a legend, all as plain numbers and strings.
// Pure: no DOM, no formatting of its own (every label and value text comes from the app), so it runs and is
// tested under node; chart-svg.mjs turns the result into SVG.

const GAP = 6;          // px between neighbouring tick labels
const MARK_R = 5;       // a mark's radius as drawn
export const HIT_R = 12;  // a mark's target for pointer and touch: 24 px across (WCAG 2.5.8)
const LINE = 1.3;       // a line of text is about 1.3 em tall as drawn (ascent and descent), for spacing

// Text width estimate when no measurer is given: proportional fonts average a bit over half an em.
export const estimate = (text, px) => String(text).length * px * 0.58;

function scale(axis, from, to) {
  const lo = axis.lo, hi = axis.hi;
  if (axis.log && lo > 0 && hi > lo) {
    const a = Math.log10(lo), b = Math.log10(hi);
    return (v) => (v > 0 ? from + ((Math.log10(v) - a) / (b - a)) * (to - from) : NaN);
  }
  const span = hi - lo || 1;
  return (v) => from + ((v - lo) / span) * (to - from);
}

// Ticks whose labels fit without touching: every level-0 tick that fits (greedy along the axis), then
// level-1 ticks in the gaps. `along(t)` is the tick's position, `size(t)` its label's extent on the axis.
export function thinTicks(ticks, along, size) {
  const placed = [];
  const clear = (p, s) => placed.every((q) => Math.abs(q.pos - p) >= (q.size + s) / 2 + GAP);
  for (const level of [0, 1]) {
    for (const t of ticks) {
      if (t.level !== level) continue;
      const p = along(t), s = size(t);
      if (!Number.isFinite(p) || !clear(p, s)) continue;
      placed.push({ ...t, pos: p, size: s });
    }
  }
  return placed.sort((a, b) => a.pos - b.pos);
}

// A line's runs of points that have values (a gap where the setup cannot run: null or non-finite).
function runsOf(xs, ys, sx, sy) {
  const runs = [];
  let run = null;
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i];
    const px = y === null || !Number.isFinite(y) ? NaN : sx(xs[i]), py = Number.isFinite(px) ? sy(y) : NaN;
    if (!Number.isFinite(px) || !Number.isFinite(py)) { run = null; continue; }
    if (!run) runs.push(run = []);
    run.push([px, py]);
  }
  return runs;
}

// A line's path: each run of two or more points a sub-path (a move, then lines), the gaps left open.
export function linePath(xs, ys, sx, sy) {
  return linePoints(xs, ys, sx, sy).d;
}

// The path of every run of two or more points, and the points that stand alone (a value between two
// gaps), which a path cannot show (a move alone draws nothing): those are drawn as dots.
export function linePoints(xs, ys, sx, sy) {
  let d = '';
  const dots = [];
  for (const run of runsOf(xs, ys, sx, sy)) {
    if (run.length === 1) { dots.push({ x: run[0][0], y: run[0][1] }); continue; }
    run.forEach(([px, py], i) => { d += (i ? 'L' : 'M') + px.toFixed(1) + ' ' + py.toFixed(1); });
  }
  return { d, dots };
}

// The longest of a label's wordings that fits `room`: the label, then the part before its colon or
// parenthesis (the app's labels put the name first).
function fitted(label, room, px, measure, ...more) {
  const s = String(label);
  const short = s.split(/[:(]/)[0].trim();
  // Then shorter sayings of the same title, so a phone's chart keeps it: "per second" as "/s", fewer
  // trailing "per …" and ", …" clauses, the word in brackets ("… per instance (batch)" → "batch").
  const compact = short.replace(/ per second/g, '/s');
  const fewer = [];
  for (let t = compact, u; (u = t.replace(/(?:,| per) [^,]*$/, '').trim()) !== t && u;) { t = u; fewer.push(t); }
  const bracket = (s.match(/\(([^)]+)\)/) || [])[1] || '';
  for (const v of [s, short, compact, ...fewer, bracket, ...more]) if (v && measure(v, px) <= room) return v;
  return '';
}

// Legend entries in rows across the top; `entries` are {key, label, style}.
function legendRows(entries, x0, width, px, measure) {
  const out = [];
  let x = x0, y = 0, rows = entries.length ? 1 : 0;
  const swatch = 16;
  for (const e of entries) {
    const text = fitted(e.label, width - swatch - GAP, px, measure);
    if (!text) continue;
    const w = swatch + 4 + measure(text, px);
    if (x > x0 && x + w > x0 + width) { x = x0; y += px + 6; rows++; }
    out.push({ ...e, text, x, y, w, swatch });
    x += w + 14;
  }
  return { entries: out, height: rows ? rows * (px + 6) : 0 };
}

// `chart`: the app's series (one scenario, or A and B compared: lines, marks and bars then carry `series`).
// `opts`: {width, height, px (font size), measure(text, px)}. Returns everything chart-svg.mjs draws.
export function layoutChart(chart, opts = {}) {
  const width = Math.max(200, opts.width || 640), height = Math.max(160, opts.height || 360);
  const px = opts.px || 12, measure = opts.measure || estimate;
  const small = Math.round(px * 0.92);
  if (chart.chart === 'breakdown') return layoutBars(chart, { width, height, px, small, measure });

  const y2 = chart.y2 && chart.y2.ticks ? chart.y2 : null;
  // Legend: the lines, the shading and the card's band.
  const entries = chart.lines.map((l, i) => ({ key: l.id, label: l.label, role: l.role, index: i, series: l.series || '' }));
  // The shading's entries: one, or of two scenarios compared one for each that cannot run somewhere.
  const spanLabel = (s) => s.label || chart.infeasible_label;
  for (const s of chart.infeasible || []) {
    const key = `infeasible:${s.series || ''}`;
    if (!entries.some((e) => e.key === key)) entries.push({ key, label: spanLabel(s), role: 'infeasible', series: s.series || '' });
  }
  for (const b of chart.bands || []) entries.push({ key: `band:${b.id}`, label: b.label, role: 'band' });
  const legend = legendRows(entries, 8, width - 16, small, measure);

  // Room for tick labels: the widest y label on the left (and y2 on the right), one line under the x axis,
  // then the axis titles.
  const yw = Math.max(0, ...chart.y.ticks.map((t) => measure(t.label, small)));
  const y2w = y2 ? Math.max(0, ...y2.ticks.map((t) => measure(t.label, small))) : 0;
  const top = 8 + legend.height + 6;
  const plot = { x: 8 + px + 6 + yw + 6, y: top, w: 0, h: 0 };
  plot.w = width - plot.x - (y2 ? y2w + 6 + px + 6 + 8 : 14);
  // Under the plot: x tick labels start below the half-height of the lowest y tick label, then the title.
  plot.h = height - top - (small * 1.5 + 8) - (px + 10);
  if (plot.w < 60 || plot.h < 40) return { width, height, tooSmall: true, title: chart.title };

  const sx = scale(chart.x, plot.x, plot.x + plot.w);
  const sy = scale(chart.y, plot.y + plot.h, plot.y);
  const sy2 = y2 ? scale(y2, plot.y + plot.h, plot.y) : null;
  // An x label may reach past the plot's ends only as far as the margins hold nothing beside it.
  const xRoom = { lo: plot.x - Math.min(plot.x - 8, 6), hi: plot.x + plot.w + (y2 ? 0 : 10) };
  const xTicks = thinTicks(chart.x.ticks.filter((t) => {
    const p = sx(t.v), w = measure(t.label, small);
    return p - w / 2 >= xRoom.lo && p + w / 2 <= xRoom.hi;
  }), (t) => sx(t.v), (t) => measure(t.label, small));
  const yTicks = thinTicks(chart.y.ticks, (t) => sy(t.v), () => small);
  const y2Ticks = y2 ? thinTicks(y2.ticks, (t) => sy2(t.v), () => small) : [];

  const paths = [];
  // The frontier's x values are every layout's replays together: a line's gap there is another layout's
  // point, not a span where it cannot run, so each line joins its own points.
  const joined = chart.chart === 'frontier';
  chart.lines.forEach((l, i) => {
    const own = joined ? chart.xs.map((_, k) => k).filter((k) => l.y[k] !== null && Number.isFinite(l.y[k])) : null;
    const xs = own ? own.map((k) => chart.xs[k]) : chart.xs, ys = own ? own.map((k) => l.y[k]) : l.y;
    const { d, dots } = linePoints(xs, ys, sx, l.role === 'secondary' && sy2 ? sy2 : sy);
    if (d || dots.length) paths.push({ key: l.id, id: l.id, label: l.label, role: l.role, index: i, series: l.series || '', d, dots });
  });

  // Where the setup cannot run: from halfway after the last point that runs to halfway before the next.
  // Of two scenarios, each has its own shading; A's labels sit a line below B's, so both can be read.
  const xs = chart.xs;
  const shades = (chart.infeasible || []).map((s) => {
    const i0 = xs.indexOf(s.from), i1 = xs.indexOf(s.to);
    const left = i0 > 0 ? (sx(xs[i0 - 1]) + sx(xs[i0])) / 2 : plot.x;
    const right = i1 >= 0 && i1 < xs.length - 1 ? (sx(xs[i1]) + sx(xs[i1 + 1])) / 2 : plot.x + plot.w;
    const w = Math.max(2, right - left);
    const text = fitted(s.why, w - 8, small, measure, spanLabel(s));
    const row = s.series === 'A' ? 1 : 0;
    const label = text ? { text, x: left + 4, y: plot.y + 3 + row * small * LINE, w: measure(text, small), h: small * LINE } : null;
    return { x: left, y: plot.y, w, h: plot.h, why: s.why, series: s.series || '', label };
  });

  const clampY = (v) => Math.min(plot.y + plot.h, Math.max(plot.y, v));
  const bands = (chart.bands || []).map((b) => {
    const yHi = b.hi === null || !Number.isFinite(b.hi) ? plot.y : clampY(sy(b.hi));
    const yLo = clampY(sy(b.lo));
    return { id: b.id, label: b.label, x: plot.x, y: Math.min(yHi, yLo), w: plot.w, h: Math.max(1, Math.abs(yLo - yHi)) };
  });

  // Marks, each with its brief label where it covers no other mark's label nor any mark's dot and stays in
  // the plot; a crowded mark goes without (its accessible name and the data table still say it).
  const marks = [];
  const taken = shades.filter((s) => s.label).map((s) => s.label);
  for (const m of chart.marks || []) {
    const x = sx(m.x), y = m.y === null || !Number.isFinite(m.y) ? NaN : sy(m.y);
    if (Number.isFinite(x) && Number.isFinite(y)) taken.push({ x: x - MARK_R - 1, y: y - MARK_R - 1, w: 2 * MARK_R + 2, h: 2 * MARK_R + 2 });
  }
  // Each keeps the app's `label` (what the point is) and `text` (its value); `tag` is the brief label placed.
  for (const m of chart.marks || []) {
    const x = sx(m.x), y = m.y === null || !Number.isFinite(m.y) ? NaN : sy(m.y);
    if (!Number.isFinite(x) || !Number.isFinite(y)) { marks.push({ ...m, x: NaN, y: NaN, tag: null }); continue; }
    const text = m.brief, w = measure(text, small), h = small * LINE;
    const tries = [[x + MARK_R + 4, y - h - 2], [x - MARK_R - 4 - w, y - h - 2], [x + MARK_R + 4, y + 4], [x - MARK_R - 4 - w, y + 4]];
    let label = null;
    for (const [lx, ly] of tries) {
      const box = { x: lx, y: ly, w, h };
      const inside = lx >= plot.x && lx + w <= plot.x + plot.w && ly >= plot.y && ly + h <= plot.y + plot.h;
      if (inside && taken.every((t) => !overlaps(t, box))) { label = { ...box, text }; taken.push(box); break; }
    }
    marks.push({ ...m, x, y, tag: label });
  }

  return {
    width, height, px, small, plot, legend: legend.entries, xTicks, yTicks, y2Ticks, paths, shades, bands, marks,
    xLabelY: plot.y + plot.h + small * 0.5 + 4,
    xTitle: { text: fitted(chart.x.label, plot.w, px, measure), x: plot.x + plot.w / 2, y: height - 4 },
    yTitle: { text: fitted(chart.y.label, plot.h, px, measure), x: 8 + px, y: plot.y + plot.h / 2 },
    // Turned a quarter clockwise, the title's letters stand to the right of its baseline: leave them room.
    y2Title: y2 ? { text: fitted(y2.label, plot.h, px, measure), x: width - px - 2, y: plot.y + plot.h / 2 } : null,
    log: { x: !!chart.x.log, y: !!chart.y.log },
  };
}

export function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

// The breakdown: one stacked horizontal bar per row (the scenario, then each measured point of the same
// model), the measured step as a tick across its bar, a shared time axis.
function layoutBars(chart, { width, height, px, small, measure }) {
  const rows = chart.bars;
  const terms = [];
  for (const b of rows) for (const t of b.terms) if (t.seconds > 0 && !terms.includes(t.label)) terms.push(t.label);
  const legend = legendRows(terms.map((t, i) => ({ key: `term:${i}`, label: t, role: 'term', index: i })), 8, width - 16, small, measure);
  const top = 8 + legend.height + 6;
  const rowH = Math.max(px * 2 + 14, 34);
  const plot = { x: 10, y: top, w: width - 24, h: rows.length * rowH };
  const need = top + plot.h + small + 6 + px + 10;
  const axis = chart.y;
  const sx = scale(axis, plot.x, plot.x + plot.w);
  const xTicks = thinTicks(axis.ticks.filter((t) => {
    const p = sx(t.v), w = measure(t.label, small);
    return p - w / 2 >= 4 && p + w / 2 <= width - 4;
  }), (t) => sx(t.v), (t) => measure(t.label, small));
  const bars = rows.map((b, r) => {
    const y = plot.y + r * rowH;
    let x = plot.x;
    const segs = [];
    for (const t of b.terms) {
      if (!(t.seconds > 0)) continue;
      const w = sx(axis.lo + t.seconds) - sx(axis.lo);
      segs.push({ label: t.label, text: t.text, index: terms.indexOf(t.label), x, y: y + px + 6, w, h: rowH - px - 12 });
      x += w;
    }
    const caption = b.label + (b.total_text ? ` · ${b.total_text}` : '') +
      (b.measured_text ? ` · measured ${b.measured_text}` : '') + (b.bound ? ` · ${b.bound}` : '');
    return {
      id: b.id, series: b.series, segs, caption: fitted(caption, plot.w, small, measure) || fitted(b.label, plot.w, small, measure),
      captionFull: caption, captionY: y + 2,
      measured: b.measured > 0 ? { x: sx(axis.lo + b.measured), y: y + px + 2, h: rowH - px - 4, text: b.measured_text } : null,
    };
  });
  // The bars take the height they need: a row per scenario or measured point, then the time axis.
  return {
    width, height: need, px, small, plot, xLabelY: plot.y + plot.h + 4, legend: legend.entries, xTicks, yTicks: [], y2Ticks: [], paths: [],
    shades: [], bands: [], marks: [], bars,
    xTitle: { text: fitted(axis.label, plot.w, px, measure), x: plot.x + plot.w / 2, y: need - 4 },
    yTitle: null, y2Title: null, log: { x: false, y: false },
  };
}
