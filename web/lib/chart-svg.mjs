// Draws a laid-out chart (chart-layout.mjs) as SVG in the DOM: text stays selectable and crisp at every
// zoom, colours come from the page's CSS (light and dark themes), every point a reader can focus says its
// value, and a data table gives the same numbers to screen readers. Built from text only, never markup.

import { HIT_R } from './chart-layout.mjs';

const NS = 'http://www.w3.org/2000/svg';

// Puts elements into a tree in order. Given an existing tree (a chart already on screen) it reuses the
// element at each place when it has the same tag, writes only the attributes and text that changed and
// drops what is left over: a redrawn chart then makes no new elements and costs the browser only what moved.
// Without one it builds a new tree (nothing read back).
function writer(doc, reuse) {
  const at = new Map();  // element → how many children have been put into it in this pass
  function put(parent, tag, attrs = {}, text) {
    const i = at.get(parent) || 0;
    at.set(parent, i + 1);
    let n = reuse ? parent.childNodes[i] : null;
    const fresh = !n || n.nodeType !== 1 || n.localName !== tag;
    if (fresh) {
      const made = doc.createElementNS(NS, tag);
      if (n) parent.replaceChild(made, n);
      else parent.append(made);
      n = made;
    } else {
      for (const a of [...n.attributes]) if (attrs[a.name] === undefined || attrs[a.name] === null) n.removeAttribute(a.name);
    }
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null) continue;
      const val = String(v);
      if (fresh || n.getAttribute(k) !== val) n.setAttribute(k, val);
    }
    if (text !== undefined) {
      if (fresh || n.textContent !== text) n.textContent = text;
    } else if (reuse) {
      at.set(n, 0);  // its children are put below (or it has none now)
    }
    return n;
  }
  // Drops the children no put() reached (a reused tree that now shows fewer lines, ticks or marks).
  function finish() {
    if (!reuse) return;
    for (const [n, count] of at) while (n.childNodes.length > count) n.lastChild.remove();
  }
  return { put, finish };
}

const f1 = (v) => (Math.round(v * 10) / 10).toString();

// Draws `chart` (the app's series) laid out as `L` into `svg` (an <svg> already on screen, updated in
// place), or into a new <svg> when none is given; returns it. `id` names the title and description.
export function chartSvg(doc, chart, L, id, svg = null) {
  const w = writer(doc, !!svg);
  const root = svg || doc.createElementNS(NS, 'svg');
  const rootAttrs = {
    class: 'chart', viewBox: `0 0 ${L.width} ${L.height}`, width: L.width, height: L.height, role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`,
  };
  for (const [k, v] of Object.entries(rootAttrs)) if (!svg || root.getAttribute(k) !== String(v)) root.setAttribute(k, String(v));
  draw(w.put, root, chart, L, id);
  w.finish();
  return root;
}

// The chart's elements, in drawing order, each put by E(parent, tag, attributes, text).
function draw(E, svg, chart, L, id) {
  E(svg, 'title', { id: `${id}-title` }, chart.title);
  E(svg, 'desc', { id: `${id}-desc` }, chart.description);
  if (L.tooSmall) {
    E(svg, 'text', { x: 8, y: 20, class: 'chart-note' }, chart.title);
    return;
  }
  const { plot } = L;
  const g = (cls) => E(svg, 'g', { class: cls });

  // Shading and bands first, under the grid and lines.
  const under = g('chart-under');
  for (const s of L.shades) {
    const r = E(under, 'rect', { class: `chart-infeasible${s.series ? ` series-${s.series.toLowerCase()}` : ''}`, x: f1(s.x), y: f1(s.y), width: f1(s.w), height: f1(s.h) });
    E(r, 'title', {}, s.why);
    if (s.label) E(under, 'text', { class: `chart-infeasible-text${s.series ? ` series-${s.series.toLowerCase()}` : ''}`, x: f1(s.label.x), y: f1(s.label.y + L.small * 1.0) }, s.label.text);
  }
  for (const b of L.bands) {
    const r = E(under, 'rect', { class: 'chart-band', x: f1(b.x), y: f1(b.y), width: f1(b.w), height: f1(b.h) });
    E(r, 'title', {}, b.label);
  }

  // Grid and axes.
  const axes = g('chart-axes');
  for (const t of L.yTicks) {
    E(axes, 'line', { class: t.level ? 'chart-grid minor' : 'chart-grid', x1: f1(plot.x), x2: f1(plot.x + plot.w), y1: f1(t.pos), y2: f1(t.pos) });
    E(axes, 'text', { class: 'chart-tick', x: f1(plot.x - 6), y: f1(t.pos + L.small * 0.35), 'text-anchor': 'end' }, t.label);
  }
  for (const t of L.y2Ticks) {
    E(axes, 'text', { class: 'chart-tick y2', x: f1(plot.x + plot.w + 6), y: f1(t.pos + L.small * 0.35) }, t.label);
  }
  const bottom = plot.y + plot.h;
  for (const t of L.xTicks) {
    E(axes, 'line', { class: t.level ? 'chart-grid minor' : 'chart-grid', x1: f1(t.pos), x2: f1(t.pos), y1: f1(plot.y), y2: f1(bottom) });
    E(axes, 'text', { class: 'chart-tick', x: f1(t.pos), y: f1(L.xLabelY + L.small * 0.85), 'text-anchor': 'middle' }, t.label);
  }
  E(axes, 'rect', { class: 'chart-frame', x: f1(plot.x), y: f1(plot.y), width: f1(plot.w), height: f1(plot.h) });
  if (L.xTitle && L.xTitle.text) E(axes, 'text', { class: 'chart-axis-title', x: f1(L.xTitle.x), y: f1(L.xTitle.y), 'text-anchor': 'middle' }, L.xTitle.text);
  for (const [t, angle] of [[L.yTitle, -90], [L.y2Title, 90]]) {
    if (!t || !t.text) continue;
    E(axes, 'text', { class: 'chart-axis-title', x: f1(t.x), y: f1(t.y), 'text-anchor': 'middle', transform: `rotate(${angle} ${f1(t.x)} ${f1(t.y)})` }, t.text);
  }

  // Lines: each role its own colour class; B of a comparison dashed. A Pareto front leads the legend but is
  // drawn last, over the layouts' lines it runs along.
  const lines = g('chart-lines');
  const drawn = [...L.paths.filter((p) => p.role !== 'front'), ...L.paths.filter((p) => p.role === 'front')];
  for (const p of drawn) {
    const cls = `chart-line role-${p.role} n${p.index % 6}${p.series === 'B' ? ' series-b' : ''}`;
    if (p.d) {
      const path = E(lines, 'path', { class: cls, d: p.d });
      E(path, 'title', {}, p.label);
    }
    // A value between two gaps: a dot in the line's colour (a path of one point draws nothing).
    for (const d of p.dots || []) {
      const dot = E(lines, 'circle', { class: `${cls} chart-dot`, cx: f1(d.x), cy: f1(d.y), r: 1.5 });
      E(dot, 'title', {}, p.label);
    }
  }

  // Bars (the breakdown): segments by term, the measured step as a tick across its bar.
  if (L.bars) {
    const bars = g('chart-bars');
    for (const b of L.bars) {
      E(bars, 'text', { class: 'chart-bar-caption', x: f1(plot.x), y: f1(b.captionY + L.small) }, b.caption);
      for (const s of b.segs) {
        const r = E(bars, 'rect', { class: `chart-seg n${s.index % 8}${b.series === 'B' ? ' series-b' : ''}`, x: f1(s.x), y: f1(s.y), width: f1(Math.max(0.5, s.w)), height: f1(s.h), tabindex: 0, 'aria-label': `${b.captionFull}: ${s.label} ${s.text}` });
        E(r, 'title', {}, `${s.label}: ${s.text}`);
      }
      if (b.measured) {
        const m = E(bars, 'line', { class: 'chart-measured', x1: f1(b.measured.x), x2: f1(b.measured.x), y1: f1(b.measured.y), y2: f1(b.measured.y + b.measured.h) });
        E(m, 'title', {}, `measured ${b.measured.text}`);
      }
    }
  }

  // Marks: focusable, each named in the app's words (what the point is, then its value), with a target
  // 24 px across around the dot; a point measured on other hardware or another layout is a hollow diamond.
  const marks = g('chart-marks');
  for (const m of L.marks) {
    if (!Number.isFinite(m.x)) continue;
    const name = markName(m);
    const cls = `kind-${m.kind}${m.series === 'B' ? ' series-b' : ''}${m.elsewhere ? ' elsewhere' : ''}`;
    // A point of the frontier's Pareto front is a button: it opens its layout and concurrency as the scenario.
    const opens = m.kind === 'front' && typeof m.setup === 'string' && m.setup ? m.setup : null;
    const point = E(marks, 'g', {
      class: `chart-point ${cls}`, tabindex: 0, role: opens ? 'button' : 'img',
      'aria-label': opens ? `${name} · opens it as the scenario (${opens.replaceAll('&', ', ')})` : name, 'data-tip': name, 'data-setup': opens,
    });
    E(point, 'circle', { class: 'chart-hit', cx: f1(m.x), cy: f1(m.y), r: HIT_R });
    if (m.elsewhere) E(point, 'path', { class: `chart-mark ${cls}`, d: `M${f1(m.x)} ${f1(m.y - 6)}L${f1(m.x + 6)} ${f1(m.y)}L${f1(m.x)} ${f1(m.y + 6)}L${f1(m.x - 6)} ${f1(m.y)}Z` });
    else E(point, 'circle', { class: `chart-mark ${cls}`, cx: f1(m.x), cy: f1(m.y), r: 5 });
    if (m.tag && m.tag.text) E(marks, 'text', { class: 'chart-mark-text', x: f1(m.tag.x), y: f1(m.tag.y + L.small * 1.0) }, m.tag.text);
  }

  // Legend.
  const legend = g('chart-legend');
  for (const e of L.legend) {
    const y = 8 + e.y;
    const cls = e.role === 'infeasible' ? `chart-infeasible${e.series ? ` series-${e.series.toLowerCase()}` : ''}` : e.role === 'band' ? 'chart-band' : e.role === 'term' ? `chart-seg n${e.index % 8}` : `chart-line role-${e.role} n${e.index % 6}${e.series === 'B' ? ' series-b' : ''}`;
    if (e.role === 'infeasible' || e.role === 'band' || e.role === 'term') E(legend, 'rect', { class: cls, x: f1(e.x), y: f1(y + 1), width: e.swatch, height: L.small - 2 });
    else E(legend, 'line', { class: cls, x1: f1(e.x), x2: f1(e.x + e.swatch), y1: f1(y + L.small / 2), y2: f1(y + L.small / 2) });
    E(legend, 'text', { class: 'chart-legend-text', x: f1(e.x + e.swatch + 4), y: f1(y + L.small * 0.85) }, e.text);
  }
}

// A mark's accessible name and readout: what the point is, then its value with units, in the app's words
// ("B: This scenario · batch 64: 12.3 ms per decode step, …").
export function markName(m) {
  return [m.label, m.text].filter((t) => typeof t === 'string' && t).join(' · ');
}

// The same numbers as a table (the chart's text alternative): one row per x, one column per line; for the
// breakdown one row per bar and term.
export function chartTable(doc, chart) {
  const t = doc.createElement('table');
  t.className = 'chart-table';
  const cap = doc.createElement('caption');
  cap.textContent = chart.title;
  t.append(cap);
  const row = (cells, head) => {
    const tr = doc.createElement('tr');
    cells.forEach((c, i) => {
      const td = doc.createElement(head || i === 0 ? 'th' : 'td');
      if (head) td.setAttribute('scope', 'col');
      else if (i === 0) td.setAttribute('scope', 'row');
      td.textContent = c;
      tr.append(td);
    });
    return tr;
  };
  const thead = doc.createElement('thead'), tbody = doc.createElement('tbody');
  if (chart.chart === 'breakdown') {
    thead.append(row([chart.x.label, ...chart.bars.map((b) => b.label)], true));
    const terms = [];
    for (const b of chart.bars) for (const x of b.terms) if (!terms.includes(x.label)) terms.push(x.label);
    for (const term of terms) tbody.append(row([term, ...chart.bars.map((b) => (b.terms.find((x) => x.label === term) || {}).text || '')]));
    tbody.append(row([chart.y.label, ...chart.bars.map((b) => b.total_text)]));
  } else {
    thead.append(row([chart.x.label, ...chart.lines.map((l) => l.label)], true));
    chart.xs.forEach((_, i) => tbody.append(row([chart.x_text[i], ...chart.lines.map((l) => l.y_text[i] || chart.infeasible_label)])));
  }
  t.append(thead, tbody);
  return t;
}
