// The fleet view in the page: opens it (the header's Fleet button, or view=fleet in a link), runs the
// simulated day in the worker (web/worker.js: its slices sized by the run, which owns the slices' policy)
// and hands each new hour of results to the app (app::fleet_adopt), shows progress in a real progress bar
// with a live line, cancels, reads a recorded trace from a file or a drop, and shows the hour's counters.
// Every number and word comes from the app (state().fleet); this module keeps only what the page needs
// between updates: the run's trace, the job in the worker, and a record of the slices the run sized and timed.
import { refusalNotice } from './notices.mjs';
import { argError, fail } from './api.mjs';
import { MAX_TRACE_BYTES, fleetRecord, fleetStatus } from './panel-status.mjs';
import { fillSelect } from './dom.mjs';

export { MAX_TRACE_BYTES, sliceStats } from './panel-status.mjs';
const MAX_SLICES_KEPT = 20000;             // the slices' record for stats() and the tests (a day is a few hundred)

// A notice for a refused trace or run: the file, then the app's message for each error (it names the line).
export function traceNotice(errors, fileName, reasons) {
  const n = refusalNotice(errors, 'call', reasons);
  if (!n) return null;
  const items = n.items.map((it, i) => ({ ...it, text: errors[i] && errors[i].message ? errors[i].message : it.text }));
  const summary = fileName
    ? `The trace ${fileName} could not be loaded; nothing of it was loaded and the run on screen is unchanged.`
    : 'The fleet run could not start; the run on screen is unchanged.';
  return { kind: 'refused', summary, items };
}

export function createFleetView({ S, $, el, win, notices, refresh, announce }) {
  const F = fleetRecord();
  const fleetState = () => (S.state && S.state.fleet) || null;
  const now = () => (win.performance ? win.performance.now() : Date.now());
  const open = () => !!S.state && S.state.view === 'fleet';

  function reasons() { return S.catalog && S.catalog.errorCodes; }

  // Starts a run of the current scenario in the worker (web/worker.js), which checks the trace and the
  // workload: a refusal keeps the run on screen. A promise of {ok, errors}, settled once the run has
  // started or was refused. A run in progress is dropped for the new one.
  function start({ trace = F.trace, sweep = F.sweep } = {}) {
    if (!S.ready) return Promise.resolve(fail(argError('not-ready', 'runFleet', '', 'after window.tierscope.ready resolves')));
    if (F.job) S.work.cancel(F.job.id);
    const job = { id: 0, scenario: S.state ? S.state.scenarioHash : '', trace, sweep, adopted: false, startedAt: now() };
    let answer;
    const started = new Promise((resolve) => { answer = resolve; });
    // The run's first view is on screen: the page's record starts afresh.
    job.onStarted = () => {
      notices.clear('fleet');
      Object.assign(F, { trace, sweep, slices: [], startedAt: job.startedAt, wallMs: 0, heldFor: null, lastTenth: -1 });
      answer({ ok: true, errors: [] });
    };
    const w = S.work.fleet(job.scenario, trace ? trace.text : '', sweep, (share, update) => { if (F.job === job) take(job, update); });
    job.id = w.id;
    F.job = job;
    w.done.then((r) => {
      if (F.job !== job) { answer({ ok: false, cancelled: true, errors: [] }); return; }  // dropped for another, or cancelled
      F.job = null;
      if (r.ok) {
        take(job, r.update);
        F.wallMs = now() - F.startedAt;
        refresh();
        return;
      }
      // Refused (or the worker could not run it): said once, and nothing restarts for this scenario until asked.
      F.heldFor = job.scenario;
      notices.show(traceNotice(r.errors, trace ? trace.name : '', reasons()), { key: 'fleet' });
      refresh();
      answer({ ok: false, errors: r.errors });
    });
    return started;
  }

  // One of the worker's updates: the slices it ran, and the run's view (a new hour of results) or where it is.
  function take(job, update) {
    if (!update) return;
    let r = null;
    if (update.view) {
      r = S.bridge.fleetAdopt(update.view, job.sweep, !job.adopted);
      if (r.ok && !job.adopted) { job.adopted = true; job.onStarted(); }
    } else if (job.adopted) {
      r = S.bridge.fleetProgress(update.progress, update.now);
    }
    if (update.sliceMs) F.sliceMs = update.sliceMs;
    for (const sl of update.slices || []) if (F.slices.length < MAX_SLICES_KEPT) F.slices.push(sl);
    if (r && r.fleet) showProgress(r.fleet);
  }

  function cancel() {
    if (!S.ready) return fail(argError('not-ready', 'cancelFleet', '', 'after window.tierscope.ready resolves'));
    if (F.job) { S.work.cancel(F.job.id); F.job = null; }
    S.bridge.fleetCancel();
    F.heldFor = S.state ? S.state.scenarioHash : null;
    say('Fleet run cancelled.');
    refresh();
    return { ok: true, errors: [] };
  }

  // The live region speaks at each tenth of the run and at its end, not every frame.
  function say(text) {
    if (!text || text === F.lastLive) return;
    F.lastLive = text;
    $('fleet-live').textContent = text;
  }

  function showProgress(f) {
    const bar = $('fleet-progress');
    bar.value = Math.round(f.progress * 1000) / 10;
    bar.setAttribute('aria-valuetext', f.statusText);
    $('fleet-status').textContent = f.statusText;
    bar.hidden = !f.started;
    $('fleet-cancel').disabled = !f.running;
    const tenth = Math.floor(f.progress * 10);
    if (f.running && tenth !== F.lastTenth) { F.lastTenth = tenth; say(f.statusText); }
    if (f.done) say(f.statusText);
  }

  function renderCounters(f) {
    const dl = $('fleet-counters');
    const key = f.counters.map((c) => c.text).join('|') + f.countersFor;
    if (dl.dataset.key === key) return;
    dl.dataset.key = key;
    dl.replaceChildren(...f.counters.map((c) => el('div', { class: 'counter' }, [el('dt', { text: c.label }), el('dd', { text: c.text })])));
    $('fleet-for').textContent = `· ${f.countersFor}`;
  }

  // Called on every refresh: shows or hides the panel, keeps its words current, and starts a run for the
  // scenario on screen when there is none (or the scenario moved on since it started).
  function sync() {
    const on = open();
    // A run for a scenario no longer on screen is dropped in the worker (the view starts a new one when it opens).
    if (F.job && S.state && F.job.scenario !== S.state.scenarioHash && !on) { S.work.cancel(F.job.id); F.job = null; }
    $('fleet-panel').hidden = !on;
    $('open-fleet').setAttribute('aria-pressed', on ? 'true' : 'false');
    if (!on) return;
    const f = fleetState();
    if (!f) return;
    showProgress(f);
    renderCounters(f);
    $('fleet-total').textContent = f.totalText;
    // A node that cannot keep up says so in one line with the simulator's numbers.
    $('fleet-overload').textContent = f.overloadText || '';
    $('fleet-overload').hidden = !f.overloadText;
    $('fleet-mode').textContent = f.mode === 'trace' && F.trace ? `Replaying ${F.trace.name}.` : f.mode === 'synthetic' ? 'Synthetic traffic from the scenario\'s workload keys.' : '';
    $('fleet-synthetic').hidden = f.mode !== 'trace';
    fillSelect($('fleet-sweep'), S.catalog && S.catalog.fleetSweeps);  // the app's sweeps (catalog().fleetSweeps)
    $('fleet-sweep').value = F.sweep;
    // A run for the scenario on screen, unless the last one for it was refused or cancelled.
    const hash = S.state.scenarioHash;
    if (F.heldFor === hash) return;
    if (F.job ? F.job.scenario !== hash : !f.started || f.scenario !== hash) start();
  }

  // Reads a trace file: too large, unreadable or refused by the app is a notice; nothing half-loaded.
  async function loadTrace(file) {
    if (!file) return null;
    if (file.size > MAX_TRACE_BYTES) {
      const r = fail(argError('too-large', 'trace', `${file.name}: ${file.size} bytes`, `a trace of at most ${MAX_TRACE_BYTES} bytes in the page (the command line reads larger ones)`));
      notices.show(traceNotice(r.errors, file.name, reasons()), { key: 'fleet' });
      return r;
    }
    let text;
    try { text = await file.text(); } catch (e) {
      const r = fail(argError('wrong-type', 'trace', file.name, `a readable text file (${e.message})`));
      notices.show(traceNotice(r.errors, file.name, reasons()), { key: 'fleet' });
      return r;
    }
    if (!text.trim()) {
      const r = fail(argError('out-of-range', 'trace', `${file.name}: empty`, 'JSON lines of timestamp, input_length, output_length, hash_ids'));
      notices.show(traceNotice(r.errors, file.name, reasons()), { key: 'fleet' });
      return r;
    }
    const r = await start({ trace: { name: file.name, text } });
    if (r.ok) announce(`Replaying the trace ${file.name}`);
    return r;
  }

  function setOpen(on) {
    if (!S.ready) return fail(argError('not-ready', 'view', on ? 'fleet' : '', 'after window.tierscope.ready resolves'));
    S.pushNext = true;
    const r = S.bridge.setView(on ? 'fleet' : '', (S.state && S.state.sweep) || '');  // the sweep chart's choice stays
    S.bridge.redraw();  // the canvas shows the run's occupancy in the fleet view, the path's out of it
    refresh();
    return r;
  }

  // The header's Fleet button.
  const toggle = () => setOpen(!open());

  function wire() {
    $('open-fleet').addEventListener('click', () => toggle());
    $('fleet-cancel').addEventListener('click', () => cancel());
    $('fleet-run').addEventListener('click', () => start());
    $('fleet-synthetic').addEventListener('click', () => start({ trace: null }));
    $('fleet-sweep').addEventListener('change', (e) => start({ sweep: e.target.value }));
    $('fleet-trace').addEventListener('change', async (e) => {
      const file = e.target.files && e.target.files[0];
      if (file) await loadTrace(file);
      e.target.value = '';
    });
    // A file dropped on the fleet panel is a trace (elsewhere on the page it is a config.json).
    const panel = $('fleet-panel');
    panel.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) { e.preventDefault(); panel.classList.add('drop'); }
    });
    panel.addEventListener('dragleave', () => panel.classList.remove('drop'));
    panel.addEventListener('drop', (e) => {
      panel.classList.remove('drop');
      const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (!file) return;
      e.preventDefault();
      e.stopPropagation();
      loadTrace(file);
    });
  }

  const status = () => fleetStatus(S, F);

  return { sync, start, cancel, loadTrace, setOpen, toggle, status, wire, F };
}
