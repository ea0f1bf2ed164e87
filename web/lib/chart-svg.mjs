// Draws a laid-out chart (chart-layout.mjs) as SVG in the DOM: text stays selectable and crisp at every
// zoom, colours come from the page's CSS (light and dark themes), every point a reader can focus says its
// value, and a data table gives the same numbers to screen readers. Built from text only, never markup.

const NS = 'http://www.w3.org/2000/svg';

function svgEl(doc, tag, attrs = {}, text) {
  const n = doc.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

const f1 = (v) => (Math.round(v * 10) / 10).toString();

// The SVG element for `L` (a layout) of `chart` (the app's series). `id` names the title and description.
export function chartSvg(doc, chart, L, id) {
  const svg = svgEl(doc, 'svg', {
    class: 'chart', viewBox: `0 0 ${L.width} ${L.height}`, width: L.width, height: L.height, role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`,
  });
  svg.append(svgEl(doc, 'title', { id: `${id}-title` }, chart.title), svgEl(doc, 'desc', { id: `${id}-desc` }, chart.description));
  if (L.tooSmall) {
    svg.append(svgEl(doc, 'text', { x: 8, y: 20, class: 'chart-note' }, chart.title));
    return svg;
  }
  const { plot } = L;
  const g = (cls) => svgEl(doc, 'g', { class: cls });

  // Shading and bands first, under the grid and lines.
  const under = g('chart-under');
  for (const s of L.shades) {
    const r = svgEl(doc, 'rect', { class: 'chart-infeasible', x: f1(s.x), y: f1(s.y), width: f1(s.w), height: f1(s.h) });
    r.append(svgEl(doc, 'title', {}, s.why));
    under.append(r);
    if (s.label) under.append(svgEl(doc, 'text', { class: 'chart-infeasible-text', x: f1(s.label.x), y: f1(s.label.y + L.small * 1.0) }, s.label.text));
  }
  for (const b of L.bands) {
    const r = svgEl(doc, 'rect', { class: 'chart-band', x: f1(b.x), y: f1(b.y), width: f1(b.w), height: f1(b.h) });
    r.append(svgEl(doc, 'title', {}, b.label));
    under.append(r);
  }
  svg.append(under);

  // Grid and axes.
  const axes = g('chart-axes');
  for (const t of L.yTicks) {
    axes.append(svgEl(doc, 'line', { class: t.level ? 'chart-grid minor' : 'chart-grid', x1: f1(plot.x), x2: f1(plot.x + plot.w), y1: f1(t.pos), y2: f1(t.pos) }));
    axes.append(svgEl(doc, 'text', { class: 'chart-tick', x: f1(plot.x - 6), y: f1(t.pos + L.small * 0.35), 'text-anchor': 'end' }, t.label));
  }
  for (const t of L.y2Ticks) {
    axes.append(svgEl(doc, 'text', { class: 'chart-tick y2', x: f1(plot.x + plot.w + 6), y: f1(t.pos + L.small * 0.35) }, t.label));
  }
  const bottom = plot.y + plot.h;
  for (const t of L.xTicks) {
    axes.append(svgEl(doc, 'line', { class: t.level ? 'chart-grid minor' : 'chart-grid', x1: f1(t.pos), x2: f1(t.pos), y1: f1(plot.y), y2: f1(bottom) }));
    axes.append(svgEl(doc, 'text', { class: 'chart-tick', x: f1(t.pos), y: f1(L.xLabelY + L.small * 0.85), 'text-anchor': 'middle' }, t.label));
  }
  axes.append(svgEl(doc, 'rect', { class: 'chart-frame', x: f1(plot.x), y: f1(plot.y), width: f1(plot.w), height: f1(plot.h) }));
  if (L.xTitle && L.xTitle.text) axes.append(svgEl(doc, 'text', { class: 'chart-axis-title', x: f1(L.xTitle.x), y: f1(L.xTitle.y), 'text-anchor': 'middle' }, L.xTitle.text));
  for (const [t, angle] of [[L.yTitle, -90], [L.y2Title, 90]]) {
    if (!t || !t.text) continue;
    axes.append(svgEl(doc, 'text', { class: 'chart-axis-title', x: f1(t.x), y: f1(t.y), 'text-anchor': 'middle', transform: `rotate(${angle} ${f1(t.x)} ${f1(t.y)})` }, t.text));
  }
  svg.append(axes);

  // Lines: each role its own colour class; B of a comparison dashed.
  const lines = g('chart-lines');
  for (const p of L.paths) {
    const path = svgEl(doc, 'path', { class: `chart-line role-${p.role} n${p.index % 6}${p.series === 'B' ? ' series-b' : ''}`, d: p.d });
    path.append(svgEl(doc, 'title', {}, p.label));
    lines.append(path);
  }
  svg.append(lines);

  // Bars (the breakdown): segments by term, the measured step as a tick across its bar.
  if (L.bars) {
    const bars = g('chart-bars');
    for (const b of L.bars) {
      bars.append(svgEl(doc, 'text', { class: 'chart-bar-caption', x: f1(plot.x), y: f1(b.captionY + L.small) }, b.caption));
      for (const s of b.segs) {
        const r = svgEl(doc, 'rect', { class: `chart-seg n${s.index % 8}${b.series === 'B' ? ' series-b' : ''}`, x: f1(s.x), y: f1(s.y), width: f1(Math.max(0.5, s.w)), height: f1(s.h), tabindex: 0, 'aria-label': `${b.captionFull}: ${s.label} ${s.text}` });
        r.append(svgEl(doc, 'title', {}, `${s.label}: ${s.text}`));
        bars.append(r);
      }
      if (b.measured) {
        const m = svgEl(doc, 'line', { class: 'chart-measured', x1: f1(b.measured.x), x2: f1(b.measured.x), y1: f1(b.measured.y), y2: f1(b.measured.y + b.measured.h) });
        m.append(svgEl(doc, 'title', {}, `measured ${b.measured.text}`));
        bars.append(m);
      }
    }
    svg.append(bars);
  }

  // Marks: focusable, each saying what it is in the app's words.
  const marks = g('chart-marks');
  for (const m of L.marks) {
    if (!Number.isFinite(m.x)) continue;
    const dot = svgEl(doc, 'circle', { class: `chart-mark kind-${m.kind}${m.series === 'B' ? ' series-b' : ''}`, cx: f1(m.x), cy: f1(m.y), r: 4, tabindex: 0, 'aria-label': `${m.label}: ${m.text}` });
    dot.append(svgEl(doc, 'title', {}, `${m.label}: ${m.text}`));
    marks.append(dot);
    if (m.label && m.label.text) marks.append(svgEl(doc, 'text', { class: 'chart-mark-text', x: f1(m.label.x), y: f1(m.label.y + L.small * 1.0) }, m.label.text));
  }
  svg.append(marks);

  // Legend.
  const legend = g('chart-legend');
  for (const e of L.legend) {
    const y = 8 + e.y;
    const cls = e.role === 'infeasible' ? 'chart-infeasible' : e.role === 'band' ? 'chart-band' : e.role === 'term' ? `chart-seg n${e.index % 8}` : `chart-line role-${e.role} n${e.index % 6}${e.series === 'B' ? ' series-b' : ''}`;
    if (e.role === 'infeasible' || e.role === 'band' || e.role === 'term') legend.append(svgEl(doc, 'rect', { class: cls, x: f1(e.x), y: f1(y + 1), width: e.swatch, height: L.small - 2 }));
    else legend.append(svgEl(doc, 'line', { class: cls, x1: f1(e.x), x2: f1(e.x + e.swatch), y1: f1(y + L.small / 2), y2: f1(y + L.small / 2) }));
    legend.append(svgEl(doc, 'text', { class: 'chart-legend-text', x: f1(e.x + e.swatch + 4), y: f1(y + L.small * 0.85) }, e.text));
  }
  svg.append(legend);
  return svg;
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
