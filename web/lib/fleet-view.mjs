// The fleet view in the page: opens it (the header's Fleet button, or view=fleet in a link), runs the
// simulated day in slices, each a task of its own sized by the app's run (it owns the slices' policy), shows progress
// in a real progress bar with a live line, cancels, reads a recorded trace from a file or a drop, and shows
// the hour's counters. Every number and word comes from the app (state().fleet); this module keeps only
// what the page needs between frames: the run's trace, and a record of the slices the run sized and timed.
import { refusalNotice } from './notices.mjs';
import { argError, fail } from './api.mjs';
import { MAX_TRACE_BYTES, fleetRecord, fleetStatus } from './panel-status.mjs';

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

  // Starts a run of the current scenario (the app checks the trace and the workload; a refusal keeps the
  // run on screen). Returns {ok, errors}.
  function start({ trace = F.trace, sweep = F.sweep } = {}) {
    if (!S.ready) return fail(argError('not-ready', 'runFleet', '', 'after window.tierscope.ready resolves'));
    const r = S.bridge.fleetStart(trace ? trace.text : '', sweep);
    if (!r.ok) {
      F.heldFor = S.state ? S.state.scenarioHash : null;
      notices.show(traceNotice(r.errors, trace ? trace.name : '', reasons()), { key: 'fleet' });
      refresh();
      return { ok: false, errors: r.errors };
    }
    notices.clear('fleet');
    F.trace = trace;
    F.sweep = sweep;
    F.slices = [];
    F.startedAt = now();
    F.wallMs = 0;
    F.heldFor = null;
    F.lastTenth = -1;
    pump();
    refresh();
    return { ok: true, errors: [] };
  }

  function cancel() {
    if (!S.ready) return fail(argError('not-ready', 'cancelFleet', '', 'after window.tierscope.ready resolves'));
    S.bridge.fleetCancel();
    F.pumping = false;
    F.heldFor = S.state ? S.state.scenarioHash : null;
    say('Fleet run cancelled.');
    refresh();
    return { ok: true, errors: [] };
  }

  // The next slice runs as a task of its own, posted through a message channel: the browser renders frames
  // and handles input between any two slices, so no slice holds a frame up by more than its budget, and
  // the run uses the time the page leaves idle (one slice per animation frame would use half of it at
  // most). Where there is no message channel, one slice per animation frame.
  let channel = null;
  function later(fn) {
    if (typeof win.MessageChannel === 'function') {
      if (!channel) channel = new win.MessageChannel();
      channel.port1.onmessage = () => fn();
      channel.port2.postMessage(0);
    } else {
      win.requestAnimationFrame(fn);
    }
  }

  // Slices, each sized by the app's run from the last one's measured time, until the run is done or cancelled:
  // the page only asks for the next one.
  function pump() {
    if (F.pumping) return;
    F.pumping = true;
    const slice = () => {
      if (!F.pumping) return;
      // Nothing computes outside the fleet view; the run goes on when the view opens again.
      if (!open()) { F.pumping = false; return; }
      const r = S.bridge.fleetAdvance();
      if (!r.ok || !r.fleet) { F.pumping = false; return; }
      F.sliceMs = { targetMs: r.targetMs, budgetMs: r.budgetMs };
      if (F.slices.length < MAX_SLICES_KEPT && r.events > 0) F.slices.push({ asked: r.asked, events: r.events, ms: r.ms });
      showProgress(r.fleet);
      if (!r.fleet.running) {
        F.pumping = false;
        F.wallMs = now() - F.startedAt;
        refresh();
        return;
      }
      later(slice);
    };
    later(slice);
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
    $('fleet-sweep').value = F.sweep;
    const stale = f.started && f.scenario !== S.state.scenarioHash;
    if ((!f.started || stale) && F.heldFor !== S.state.scenarioHash) start();
    else if (f.running && !F.pumping) pump();
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
    const r = start({ trace: { name: file.name, text } });
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
