// The Charts panel: a tab per chart the app offers (roofline, sweep, where the time goes), the sweep's
// choices, pinning the current scenario as A to compare, and the chart drawn as SVG from the app's series
// with its data table and a readout beside the point under the pointer or the focus. Its state lives in
// the app (view, sweep, compare), so the share link reopens it; in an embed with view=chart-… the chart is
// all the frame shows.
import { kitMissing, withChartKit } from './chart-kit-loader.mjs';
import { refusalNotice } from './notices.mjs';
import { morphChildren, setText } from './dom.mjs';

const PREFIX = 'chart-';

// "FIGURE:X" or "FIGURE:X:FAMILY:V1,V2" ⇄ the chart options the app reads (charts/chart_options.h).
export function sweepOptions(text) {
  const parts = String(text || '').split(':');
  if (parts.length < 2 || !parts[0] || !parts[1]) return null;
  const o = { figure: parts[0], x: parts[1] };
  if (parts.length >= 4 && parts[2] && parts[3]) { o.family = parts[2]; o.familyValues = parts[3].split(',').filter(Boolean); }
  return o;
}
export function sweepText(o) {
  if (!o || !o.figure || !o.x) return '';
  return [o.figure, o.x].concat(o.family && o.familyValues && o.familyValues.length ? [o.family, o.familyValues.join(',')] : []).join(':');
}

export function createCharts({ S, $, el, doc, win, notices, refresh, writeHash }) {
  let drawnKey = '';
  let asked = null;  // the chart request in the worker: {id, key}
  const fleetKeys = () => ((S.catalog && S.catalog.fleetChartLabels) || []).map((c) => c.key);
  // The room the chart has, from the ResizeObserver (reading it from the layout in every redraw would force
  // the browser to lay the page out mid-update); read once from the layout until the observer reports.
  let room = null;
  let formKey = '';
  const DEFAULT_SWEEP = { figure: 'decode.step_time', x: 'batch' };

  // The text measure, made with the chart kit on the first draw.
  let text = null;

  const kind = () => (S.state && S.state.view && S.state.view.startsWith(PREFIX) ? S.state.view.slice(PREFIX.length) : '');
  const open = () => !!kind();
  const sweep = () => sweepOptions(S.state && S.state.sweep) || DEFAULT_SWEEP;

  function setView(view, sweepChoice) {
    const r = S.bridge.setView(view, sweepChoice === undefined ? (S.state && S.state.sweep) || '' : sweepChoice);
    if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes)); return false; }
    S.pushNext = true;
    refresh();
    writeHash();
    return true;
  }

  // The tab buttons are made once per list of charts and then only marked: a refresh while a tab has the
  // keyboard's focus must not replace the element that holds it.
  let tabsKey = '';
  function tabs() {
    const list = (S.catalog && S.catalog.chartLabels) || [];
    const box = $('chart-tabs');
    const key = list.map((c) => `${c.key}=${c.label}`).join('|');
    if (key !== tabsKey) {
      tabsKey = key;
      box.replaceChildren(...list.map((c) => el('button', {
        type: 'button', role: 'tab', id: `chart-tab-${c.key}`, class: 'tab', 'data-chart': c.key,
        'aria-controls': 'chart-figure', text: c.label,
        onclick: () => setView(PREFIX + c.key),
      })));
    }
    for (const b of box.querySelectorAll('[role="tab"]')) {
      const on = b.dataset.chart === kind();
      b.setAttribute('aria-selected', on ? 'true' : 'false');
      b.setAttribute('tabindex', on ? '0' : '-1');
    }
  }

  // The sweep's choices: a figure, a numeric input for x, optionally a second input and its values.
  function sweepForm() {
    const form = $('chart-sweep-form');
    form.hidden = kind() !== 'sweep';
    if (form.hidden) { formKey = ''; return; }
    const o = sweep();
    // The menus change with the model (its figures and their labels), not with every value.
    const menus = `${S.modelKey}|${((S.catalog && S.catalog.sweepKeys) || []).length}`;
    if (formKey !== menus) {
      formKey = menus;
      const figs = [...S.figures.all().values()];
      const keys = (S.catalog && S.catalog.sweepKeys) || [];
      const fill = (id, items, none) => {
        $(id).replaceChildren(...(none ? [el('option', { value: '', text: none })] : []), ...items.map((i) => el('option', { value: i.key, text: i.label })));
      };
      fill('chart-figure-id', figs.map((f) => ({ key: f.id, label: `${f.label} (${f.id})` })));
      fill('chart-x', keys.filter((k) => k.numeric).map((k) => ({ key: k.key, label: `${k.key}: ${k.label}` })));
      fill('chart-family', keys.map((k) => ({ key: k.key, label: `${k.key}: ${k.label}` })), '—');
    }
    $('chart-figure-id').value = o.figure || '';
    $('chart-x').value = o.x || '';
    $('chart-family').value = o.family || '';
    const vals = o.familyValues ? o.familyValues.join(',') : '';
    if ($('chart-family-values').value !== vals) $('chart-family-values').value = vals;
  }

  function readSweepForm() {
    const o = { figure: $('chart-figure-id').value, x: $('chart-x').value };
    const fam = $('chart-family').value, vals = $('chart-family-values').value.split(',').map((v) => v.trim()).filter(Boolean);
    if (fam && vals.length) { o.family = fam; o.familyValues = vals; }
    return o;
  }

  function compareBar() {
    const c = S.state && S.state.compare;
    $('chart-pin').textContent = c ? 'Stop comparing' : 'Pin as A';
    $('chart-pin').setAttribute('aria-pressed', c ? 'true' : 'false');
    // Both named by what they are now (the model, the node and its layout), so B's name follows every edit.
    $('chart-compare').textContent = c ? `A: ${c.label} · B: ${c.now || 'the scenario as it is now'}` : '';
  }

  // Draws the chart when what it shows changed: the scenario, the chart, its choices, A, or the room.
  function render(force = false) {
    const k = kind();
    if (!k || !S.ready) return;
    const box = $('chart-figure');
    if (!room) room = { width: box.clientWidth, top: box.getBoundingClientRect().top };
    const width = Math.max(280, Math.floor(room.width || 640));
    const height = S.embed ? Math.max(220, Math.floor(win.innerHeight - room.top - 8)) : Math.max(260, Math.min(420, Math.round(width * 0.55)));
    const options = k === 'sweep' ? sweep() : {};
    const key = [k, S.state.scenarioHash, JSON.stringify(options), S.state.compare ? S.state.compare.hash : '', width, height].join('|');
    if (!force && key === drawnKey) return;
    drawnKey = key;
    const perf = win.performance;
    const t0 = perf.now();
    // A span on the browser's timeline (DevTools' Performance panel; tools/bench reads the main thread's CPU
    // time between the two marks from a trace). Cleared at once, so nothing piles up while a value is dragged.
    if (perf.mark) perf.mark('tierscope-chart-begin');
    // A fleet run's chart comes from the app, which holds the run; the scenario's from the worker, off the
    // page's thread: a newer request cancels one not yet started (a value dragged asks for many).
    if (fleetKeys().includes(k)) { draw(k, { width, height }, S.bridge.chart(k, JSON.stringify(options)), t0, perf.now()); return; }
    if (asked) S.work.cancel(asked.id);
    const job = S.work.chart(S.state.scenarioHash, S.state.compare ? S.state.compare.hash : '', k, JSON.stringify(options));
    asked = { id: job.id, key };
    busy(true);
    job.done.then((r) => {
      if (!asked || asked.id !== job.id) return;  // superseded: a newer request draws
      asked = null;
      busy(false);
      if (r.cancelled) return;
      // The panel closed or moved on meanwhile: what it shows now is drawn by its own request.
      if (drawnKey !== key || !open()) return;
      draw(k, { width, height }, r, t0, perf.now());
    });
  }

  // Says, on the figure, that a chart is being computed (the last one stays until the new one is drawn).
  function busy(on) { $('chart-figure').setAttribute('aria-busy', on ? 'true' : 'false'); }

  // Draws once the chart kit is here (at once after the first chart); a kit that cannot be fetched says so.
  function draw(k, size, r, t0, t1) {
    withChartKit((kit) => drawWith(kit, k, size, r, t0, t1), (e) => {
      busy(false);
      drawnKey = '';
      notices.show({ kind: 'refused', summary: kitMissing(e), items: [] }, { key: 'chart' });
    });
  }

  function drawWith(kit, k, { width, height }, r, t0, t1) {
    const { layoutChart, chartSvg } = kit;
    if (!text) text = kit.createMeasure(doc);
    const measure = text.measure;
    const perf = win.performance;
    const box = $('chart-figure');
    if (!r.ok || !r.chart) {
      if (perf.clearMarks) perf.clearMarks('tierscope-chart-begin');
      notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes), { key: 'chart' });
      box.replaceChildren(el('p', { class: 'muted', text: (r.errors && r.errors[0] && r.errors[0].message) || '' }));
      return;
    }
    const chart = r.chart;
    text.useFontOf($('charts'), win);
    const L = layoutChart(chart, { width, height, px: 12, measure });
    const t2 = perf.now();
    // In place: a dragged value moves lines and rewrites a few labels; the rest of the chart stays as drawn.
    const shown = box.firstElementChild && box.firstElementChild.localName === 'svg' ? box.firstElementChild : null;
    if (shown) chartSvg(doc, chart, L, `chart-${k}`, shown);
    else box.replaceChildren(chartSvg(doc, chart, L, `chart-${k}`), tipElement());
    if (tipFor) showTip(tipFor.isConnected ? tipFor : null);
    shownChart = chart;
    tableOf = null;
    renderTable();
    setText($('chart-command'), chart.command || '');
    // The frontier's points are replays of one workload (the requests' lengths, the node): its description
    // says which, under the chart, where the other charts' axes say what they show.
    const about = $('chart-about');
    about.hidden = k !== 'frontier' || !chart.description;
    setText(about, about.hidden ? '' : chart.description);
    const t3 = perf.now();
    if (perf.mark) {
      perf.mark('tierscope-chart-end');
      perf.clearMarks('tierscope-chart-begin');
      perf.clearMarks('tierscope-chart-end');
    }
    // The redraw, and its parts: the series (from the worker: the wait for it), the layout, the SVG in place.
    S.timings.add('chart', t3 - t0);
    S.timings.add('chart.series', t1 - t0);
    S.timings.add('chart.layout', t2 - t1);
    S.timings.add('chart.svg', t3 - t2);
  }

  // The readout of the point under the pointer or with the focus: its name and value, beside it. (Visual
  // only: the point's accessible name says the same.)
  let tip = null, tipFor = null;
  function tipElement() {
    if (!tip) tip = el('div', { class: 'chart-tip', id: 'chart-tip', 'aria-hidden': 'true', hidden: true });
    return tip;
  }
  function showTip(point) {
    const t = tipElement();
    tipFor = point;
    if (!point || !point.dataset.tip) { t.hidden = true; return; }
    setText(t, point.dataset.tip);
    t.hidden = false;
    const box = $('chart-figure').getBoundingClientRect(), r = point.getBoundingClientRect();
    const x = r.left + r.width / 2 - box.left, y = r.top - box.top;
    const w = t.offsetWidth;
    t.style.left = `${Math.round(Math.max(0, Math.min(box.width - w, x - w / 2)))}px`;
    // Above the point when there is room, else below it.
    const h = t.offsetHeight;
    t.style.top = `${Math.round(y - h - 6 >= 0 ? y - h - 6 : y + r.height + 6)}px`;
  }
  const pointOf = (e) => (e.target && e.target.closest ? e.target.closest('.chart-point') : null);

  // The data table is built while it is open (a closed one is rebuilt when it opens).
  let shownChart = null, tableOf = null;
  function renderTable() {
    if (!shownChart || tableOf === shownChart || !$('chart-table').parentElement.open) return;
    tableOf = shownChart;
    // (a chart is shown only once the kit has drawn it, so the kit is here)
    withChartKit((kit) => morphChildren($('chart-table'), el('div', {}, kit.chartTable(doc, shownChart))));
  }

  // Opens a point of the frontier's front as the scenario: each link key it names ("tp=1&dp=4&…&batch=64")
  // set as an edit would set it, the chart staying open, so the share link names that layout and concurrency.
  // A key the app refuses says so and stops there (the keys set before it stay, as edits by hand would).
  function openSetup(setup) {
    if (!S.ready) return;
    for (const pair of String(setup).split('&')) {
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const r = S.bridge.setParam(pair.slice(0, at), pair.slice(at + 1));
      if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes)); break; }
    }
    S.pushNext = true;
    refresh();
    writeHash();
  }

  function sync() {
    const show = open();
    $('charts').hidden = !show;
    $('open-charts').setAttribute('aria-expanded', show ? 'true' : 'false');
    doc.documentElement.classList.toggle('chart-only', S.embed && show);
    if (!show) {
      drawnKey = ''; room = null; shownChart = tableOf = null;
      if (asked) { S.work.cancel(asked.id); asked = null; busy(false); }
      return;
    }
    tabs();
    sweepForm();
    compareBar();
    render();
  }

  // The header's Charts button: opens the first chart with its tab focused, or closes the panel.
  function toggle() {
    if (!S.ready) return;
    if (open()) setView('');
    else if (setView(PREFIX + ((S.catalog && S.catalog.chartLabels && S.catalog.chartLabels[0].key) || 'roofline'))) $('chart-tabs').querySelector('[aria-selected="true"]')?.focus();
  }

  function wire() {
    $('open-charts').addEventListener('click', () => toggle());
    $('charts-close').addEventListener('click', () => { setView(''); $('open-charts').focus(); });
    // Arrow keys move between the tabs (the tab pattern): the chosen one opens at once.
    $('chart-tabs').addEventListener('keydown', (e) => {
      if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
      const list = [...$('chart-tabs').querySelectorAll('[role="tab"]')];
      const at = list.findIndex((b) => b.getAttribute('aria-selected') === 'true');
      const next = e.key === 'Home' ? 0 : e.key === 'End' ? list.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : list.length - 1)) % list.length;
      e.preventDefault();
      if (setView(PREFIX + list[next].dataset.chart)) $('chart-tabs').querySelectorAll('[role="tab"]')[next]?.focus();
    });
    $('chart-sweep-form').addEventListener('change', () => {
      const text = sweepText(readSweepForm());
      if (text) setView(PREFIX + 'sweep', text);
    });
    $('chart-sweep-form').addEventListener('submit', (e) => e.preventDefault());
    $('chart-table').parentElement.addEventListener('toggle', renderTable);
    const fig = $('chart-figure');
    fig.addEventListener('pointerover', (e) => { const p = pointOf(e); if (p) showTip(p); });
    fig.addEventListener('pointerout', (e) => { if (pointOf(e) && !pointOf({ target: e.relatedTarget }) && doc.activeElement !== tipFor) showTip(null); });
    fig.addEventListener('focusin', (e) => showTip(pointOf(e)));
    fig.addEventListener('focusout', (e) => { if (!pointOf({ target: e.relatedTarget })) showTip(null); });
    fig.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && tipFor && tip && !tip.hidden) { showTip(null); e.stopPropagation(); }
      if ((e.key === 'Enter' || e.key === ' ') && pointOf(e) && pointOf(e).dataset.setup) { e.preventDefault(); openSetup(pointOf(e).dataset.setup); }
    });
    fig.addEventListener('click', (e) => { const p = pointOf(e); if (p && p.dataset.setup) openSetup(p.dataset.setup); });
    $('chart-pin').addEventListener('click', () => {
      if (!S.ready) return;
      S.bridge.setCompare(!(S.state && S.state.compare));
      S.pushNext = true;
      refresh();
      writeHash();
    });
    // The chart follows the room it has (a window or frame resized, a side panel opened).
    if (typeof win.ResizeObserver === 'function') {
      let queued = false;
      new win.ResizeObserver((entries) => {
        const r = entries[entries.length - 1];
        if (r && r.contentRect) room = { width: r.contentRect.width, top: r.target.getBoundingClientRect().top };
        if (queued || !open()) return;
        queued = true;
        win.requestAnimationFrame(() => { queued = false; render(); });
      }).observe($('chart-figure'));
    }
  }

  return { sync, render, toggle, wire };
}
