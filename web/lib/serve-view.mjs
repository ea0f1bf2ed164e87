// The Serve panel: a serving benchmark of the scenario on screen, replayed step by step in the worker
// (`tierscope serve` of the same link, byte for byte). It opens from the header's Serve button or view=serve
// in a link, reads its settings from a small form (kept in the link as serve=…), runs in the worker's slices
// with a progress bar and Cancel, and shows the result as the command line prints it: the throughput rows,
// each latency's mean, median, p90 and p99, the latency by percentile as a chart, and the first scheduled
// steps. Every number and word of the result comes from the replay (the worker's answer).
import { refusalNotice } from './notices.mjs';
import { kitMissing, withChartKit } from './chart-kit-loader.mjs';
import { fillSelect, setText } from './dom.mjs';
import { serveRecord, serveStatus } from './panel-status.mjs';
import { createServeTrust } from './serve-trust.mjs';

// The form's fields and the settings they write ("concurrency:64,…"); settings the form has no field for
// (budget, rate, …) stay as the link gave them.
const FIELDS = [
  { id: 'serve-concurrency', name: 'concurrency' },
  { id: 'serve-requests', name: 'requests' },
  { id: 'serve-input', name: 'input' },
  { id: 'serve-output', name: 'output' },
  // Identical instances behind one router: the node's others serve clients too (1 unless set).
  { id: 'serve-instances', name: 'instances' },
  { id: 'serve-lengths', name: 'lengths' },
  { id: 'serve-prefill', name: 'prefill' },
  // A shared prefix (a system prompt, or a conversation's history) and the tiers its cache may use: the
  // no-cache, HBM-only, +DRAM and +SSD arms of an offload comparison.
  { id: 'serve-prefix-len', name: 'prefix-len' },
  { id: 'serve-prefixes', name: 'prefixes' },
  { id: 'serve-reuse', name: 'reuse' },
  { id: 'serve-tiers', name: 'tiers' },
  // The run's step the listed steps start at: later ones show the steady state, not the clients' ramp-up.
  { id: 'serve-steps-from', name: 'steps-from' },
];
// The steps the panel lists when the link names none: enough to see prompt chunks share steps with decodes.
const DEFAULT_STEPS = 8;

// "a:1,b:2" ⇄ [[a, '1'], [b, '2']], in order.
export function readSettings(text) {
  const out = [];
  for (const pair of String(text || '').split(',')) {
    const at = pair.indexOf(':');
    if (at > 0) out.push([pair.slice(0, at), pair.slice(at + 1)]);
  }
  return out;
}
export function writeSettings(pairs) { return pairs.filter(([, v]) => v !== '' && v !== undefined).map(([k, v]) => `${k}:${v}`).join(','); }

// The settings the form asks for over those the link gave: each field's value replaces its setting (an empty
// field drops it, so the replay's default applies), the others are kept as they were.
export function mergeSettings(current, form) {
  const pairs = readSettings(current).filter(([k]) => !(k in form));
  for (const [k, v] of Object.entries(form)) if (v !== '') pairs.push([k, v]);
  return writeSettings(pairs);
}

export function createServeView({ S, $, el, doc, win, notices, refresh, writeHash, announce }) {
  const V = serveRecord();
  const trust = createServeTrust({ $, el });  // the band of the nearest measured runs beside the figures
  // How long each step stays on the canvas while the steps play.
  const STEP_MS = 900;
  let text = null;  // the text measure, made with the chart kit on the first draw
  const open = () => !!S.state && S.state.view === 'serve';
  const now = () => (win.performance ? win.performance.now() : Date.now());
  const reasons = () => S.catalog && S.catalog.errorCodes;
  // (With A pinned the result holds A's replay too: pinning or changing A reruns it.)
  const keyOf = () => (S.state ? `${S.state.scenarioHash}|${S.state.serve || ''}|${S.state.compare ? S.state.compare.hash : ''}` : '');

  function setOpen(on) {
    if (!S.ready) return { ok: false, errors: [] };
    const r = S.bridge.setView(on ? 'serve' : '', (S.state && S.state.sweep) || '');
    S.bridge.redraw();  // the canvas shows a replayed step in the Serve view, the path's out of it
    S.pushNext = true;
    refresh();
    writeHash();
    return r;
  }

  // The app's settings (catalog().serveSettings): each one's range, default and a menu's choices, the same
  // defaults the command line's `serve` takes.
  const setting = (name) => ((S.catalog && S.catalog.serveSettings) || []).find((x) => x.name === name) || null;

  // The form from the link's settings, and the scenario's own values where the settings name none. Menus
  // and ranges are the app's.
  function fillForm() {
    const set = new Map(readSettings(S.state.serve));
    const hints = S.state.serveDefaults || {};
    for (const f of FIELDS) {
      const input = $(f.id);
      const def = setting(f.name);
      if (input.localName === 'select') fillSelect(input, def && def.choices);
      else if (def && def.kind !== 'choice') { input.min = String(def.min); input.max = String(def.max); }
      if (doc.activeElement === input) continue;  // not under the reader's typing
      const v = set.has(f.name) ? set.get(f.name) : '';
      if (input.localName === 'select') input.value = v || (def ? def.default : '');
      else input.value = v;
      if (input.localName === 'input' && hints[f.name] !== undefined) input.placeholder = String(hints[f.name]);
    }
  }

  function formSettings() {
    const form = {};
    for (const f of FIELDS) {
      const v = String($(f.id).value).trim();
      // A menu left at the app's default names nothing: the link then stays as short as the app writes it.
      const def = setting(f.name);
      form[f.name] = $(f.id).localName === 'select' && def && v === def.default ? '' : v;
    }
    const kept = new Map(readSettings(S.state.serve));
    if (!kept.has('steps')) form.steps = String(DEFAULT_STEPS);
    return mergeSettings(S.state.serve, form);
  }

  // Starts a replay of the scenario on screen with the form's settings (the link then names them). A refused
  // setting is a notice naming it, and the result on screen stays.
  function start({ fromForm = true } = {}) {
    if (!S.ready) return { ok: false, errors: [] };
    if (fromForm) {
      const r = S.bridge.setServe(formSettings());
      if (!r.ok) {
        notices.show(refusalNotice(r.errors, 'call', reasons()), { key: 'serve' });
        V.heldFor = keyOf();
        return r;
      }
      // The link names the settings now; the refresh must not start a second replay of them meanwhile.
      V.starting = true;
      try { refresh(); } finally { V.starting = false; }
      writeHash();
    }
    notices.clear('serve');
    if (V.job) S.work.cancel(V.job.id);
    if (V.jobA) { S.work.cancel(V.jobA.id); V.jobA = null; }
    const key = keyOf();
    const bar = $('serve-progress');
    bar.hidden = false;
    bar.value = 0;
    V.lastTenth = -1;
    V.startedAt = now();
    $('serve-cancel').disabled = false;
    $('serve-figure').setAttribute('aria-busy', 'true');
    setText($('serve-status'), 'Replaying…');
    trust.computing();
    const { id, done } = S.work.serve(S.state.scenarioHash, S.state.serve, (share) => progress(share));
    V.job = { id, key };
    done.then((r) => finished(id, key, r));
    return { ok: true, errors: [] };
  }

  function progress(share) {
    const pct = Math.round(share * 1000) / 10;
    $('serve-progress').value = pct;
    $('serve-progress').setAttribute('aria-valuetext', `${pct} % of requests done`);
    const tenth = Math.floor(share * 10);
    if (tenth !== V.lastTenth) { V.lastTenth = tenth; setText($('serve-live'), `Replay ${tenth * 10} % done`); }
  }

  function finished(id, key, r) {
    if (!V.job || V.job.id !== id) return;  // superseded
    V.job = null;
    $('serve-cancel').disabled = true;
    $('serve-progress').hidden = true;
    $('serve-figure').setAttribute('aria-busy', 'false');
    trust.show(r.ok && !r.cancelled ? r : null);
    if (r.cancelled) {
      V.heldFor = key;
      setText($('serve-status'), 'Cancelled; the result shown is the last one finished.');
      setText($('serve-live'), 'Replay cancelled');
      return;
    }
    if (!r.ok) {
      V.heldFor = key;
      // The refusal is this scenario's: it goes once the scenario changes, with the panel open or not.
      const hash = S.state && S.state.scenarioHash;
      notices.show(refusalNotice(r.errors, 'call', reasons()), { key: 'serve', until: (state) => state.scenarioHash !== hash });
      setText($('serve-status'), (r.errors && r.errors[0] && r.errors[0].message) || 'The replay could not run.');
      return;
    }
    V.wallMs = now() - V.startedAt;
    V.computeMs = typeof r.computeMs === 'number' ? r.computeMs : V.wallMs;
    V.result = r;
    V.shownKey = key;
    render(r);
    const s = r.summary || {};
    setText($('serve-status'), `${s.completed} requests replayed in ${(V.computeMs / 1000).toFixed(2)} s of this browser's time.`);
    announce(`Serving replay done: ${(r.rows || []).find((x) => /per GPU/.test(x.label))?.value || ''} output tokens per second per GPU`);
    replayA(r);
  }

  // While a scenario is pinned (A), the same settings replayed on A too, after B: A beside B for each of the
  // result's rows and each latency's mean and p99, both named by their layout. Without A the table hides.
  function replayA(b) {
    const c = S.state && S.state.compare;
    const box = $('serve-ab');
    if (!c) { box.hidden = true; return; }
    setText($('serve-ab-caption'), `A: ${c.label} · B: ${c.now || 'now'} (replaying A…)`);
    $('serve-ab-rows').replaceChildren();
    box.hidden = false;
    const { id, done } = S.work.serve(c.hash, S.state.serve, () => {});
    V.jobA = { id };
    done.then((a) => {
      if (!V.jobA || V.jobA.id !== id) return;  // superseded
      V.jobA = null;
      if (a.cancelled) return;
      if (!a.ok) {
        setText($('serve-ab-caption'), `A: ${c.label} could not be replayed: ${(a.errors && a.errors[0] && a.errors[0].message) || 'refused'}`);
        return;
      }
      setText($('serve-ab-caption'), `A: ${c.label} · B: ${c.now || 'now'}`);
      const byLabel = new Map((a.rows || []).map((x) => [x.label, x.value]));
      const latA = new Map((a.latency || []).map((m) => [m.abbrev, m]));
      const row = (label, va, vb) => el('tr', {}, [el('th', { scope: 'row', text: label }), el('td', { text: va }), el('td', { text: vb })]);
      $('serve-ab-rows').replaceChildren(
        ...(b.rows || []).filter((x) => byLabel.has(x.label)).map((x) => row(x.label.replace(/:$/, ''), byLabel.get(x.label), x.value)),
        ...(b.latency || []).filter((m) => latA.has(m.abbrev)).flatMap((m) => [
          row(`${m.abbrev} mean (ms)`, latA.get(m.abbrev).mean, m.mean), row(`${m.abbrev} p99 (ms)`, latA.get(m.abbrev).p99, m.p99)]));
      setText($('serve-live'), 'Replay of A done');
    });
  }

  // The canvas on replayed step `i` (-1: the path again), and the list marking it.
  function showStep(i) {
    if (!S.ready || !V.steps) return;
    const r = S.bridge.serveSteps(V.steps.written, V.steps.reserved, i);
    if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', reasons()), { key: 'serve' }); return; }
    V.step = i;
    for (const b of $('serve-steps').querySelectorAll('button.serve-step')) {
      if (Number(b.dataset.step) === i) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
    S.bridge.redraw();
  }
  function stopSteps() {
    if (V.timer) win.clearInterval(V.timer);
    V.timer = 0;
    $('serve-play').setAttribute('aria-pressed', 'false');
    setText($('serve-play'), 'Play the steps');
  }
  function playSteps() {
    if (!V.steps || !V.steps.count) return;
    if (V.timer) { stopSteps(); return; }
    $('serve-play').setAttribute('aria-pressed', 'true');
    setText($('serve-play'), 'Pause');
    showStep(V.step + 1 < V.steps.count ? V.step + 1 : 0);
    V.timer = win.setInterval(() => {
      if (!open() || V.step + 1 >= V.steps.count) { stopSteps(); return; }
      showStep(V.step + 1);
    }, STEP_MS);
  }

  function cancel() {
    if (!V.job) return { ok: false, errors: [] };
    S.work.cancel(V.job.id);
    return { ok: true, errors: [] };
  }

  // The result: the set-up line, the rows, the latency table, the chart, the steps.
  function render(r) {
    setText($('serve-setup'), r.setup || '');
    $('serve-rows').replaceChildren(...(r.rows || []).map((row) => el('tr', {}, [el('th', { scope: 'row', text: row.label.replace(/:$/, '') }), el('td', { text: row.value })])));
    $('serve-latency-rows').replaceChildren(...(r.latency || []).map((m) => el('tr', {}, [
      el('th', { scope: 'row' }, [el('abbr', { title: m.name, text: m.abbrev })]),
      el('td', { text: m.mean }), el('td', { text: m.median }), el('td', { text: m.p90 }), el('td', { text: m.p99 })])));
    setText($('serve-admission'), r.admission ? `Admission: ${r.admission}.` : '');
    $('serve-refused').hidden = !r.refusedWhy;
    setText($('serve-refused'), r.refusedWhy ? `Refused: ${r.refusedWhy}.` : '');
    const steps = r.steps || [];
    $('serve-steps').replaceChildren(...steps.map((t, i) => el('li', {}, [el('button', { type: 'button', class: 'serve-step', 'data-step': String(i), text: t.text })])));
    $('serve-steps-box').hidden = !steps.length;
    setText($('serve-steps-title'), r.stepsTitle || '');
    stopSteps();
    V.steps = { written: steps.map((t) => t.kvWritten).join(','), reserved: steps.map((t) => t.kvReserved).join(','), count: steps.length };
    showStep(-1);
    setText($('serve-command'), `tierscope serve --hash '#${S.state.viewHash}' --format json`);
    drawChart();
    $('serve-result').hidden = false;
  }

  function drawChart() {
    const chart = V.result && V.result.chart;
    const box = $('serve-figure');
    if (!chart || box.closest('[hidden]')) return;
    withChartKit((kit) => { if (V.result && V.result.chart === chart) drawChartWith(kit, chart, box); },
      (e) => box.replaceChildren(el('p', { class: 'muted', text: kitMissing(e) })));
  }

  function drawChartWith({ layoutChart, chartSvg, chartTable, createMeasure }, chart, box) {
    if (!text) text = createMeasure(doc);
    text.useFontOf(box, win);
    const width = Math.max(240, Math.round(box.clientWidth || 320));
    const L = layoutChart(chart, { width, height: Math.round(Math.min(260, width * 0.7)), px: 12, measure: text.measure });
    box.replaceChildren(chartSvg(doc, chart, L, 'serve-chart'));
    $('serve-chart-table').replaceChildren(chartTable(doc, chart));
  }

  // On every refresh: shows or hides the panel and starts a replay for what is on screen when the one shown
  // is for another scenario or other settings (not again after a refusal or a cancel, until they change).
  function sync() {
    const on = open();
    $('serve-panel').hidden = !on;
    $('open-serve').setAttribute('aria-pressed', on ? 'true' : 'false');
    if (!on) {
      stopSteps();
      V.step = -1;
      if (V.job) { S.work.cancel(V.job.id); V.job = null; $('serve-cancel').disabled = true; $('serve-progress').hidden = true; trust.show(null); }
      return;
    }
    if (V.starting) return;
    fillForm();
    const key = keyOf();
    const stale = V.shownKey && V.shownKey !== key;
    // The measured runs' band beside the figures is the shown run's too: greyed with it.
    for (const id of ['serve-result', 'serve-trust']) $(id).classList.toggle('stale', !!stale && !V.job);
    if (V.job ? V.job.key !== key : V.shownKey !== key && V.heldFor !== key) start({ fromForm: !S.state.serve });
  }

  // The header's Serve button. On a phone the panel sits below the canvas: it is brought into view when the
  // button opened it there.
  function toggle() {
    setOpen(!open());
    const panel = $('serve-panel');
    if (!open() || !panel.getBoundingClientRect) return;
    const r = panel.getBoundingClientRect();
    if (r.top >= win.innerHeight || r.bottom <= 0) {
      const still = win.matchMedia && win.matchMedia('(prefers-reduced-motion: reduce)').matches;
      panel.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    }
  }

  function wire() {
    $('open-serve').addEventListener('click', () => toggle());
    $('serve-form').addEventListener('submit', (e) => { e.preventDefault(); V.heldFor = ''; start(); });
    $('serve-cancel').addEventListener('click', () => cancel());
    trust.wire();
    $('serve-play').addEventListener('click', () => playSteps());
    $('serve-steps').addEventListener('click', (e) => {
      const b = e.target && e.target.closest ? e.target.closest('button.serve-step') : null;
      if (!b) return;
      stopSteps();
      showStep(Number(b.dataset.step));
    });
    for (const f of FIELDS) if ($(f.id).localName === 'select') $(f.id).addEventListener('change', () => { V.heldFor = ''; start(); });
    if (typeof win.ResizeObserver === 'function') {
      let width = 0;
      new win.ResizeObserver((entries) => {
        const w = Math.round(entries[0].contentRect.width);
        if (w !== width) { width = w; drawChart(); }
      }).observe($('serve-figure'));
    }
  }

  const status = () => serveStatus(S, V);

  return { sync, start, cancel, setOpen, toggle, status, wire, V };
}
