// What window.tierscope.fleet() and .serve() answer: each a pure function of the page state and the panel's
// record (what the panel keeps between frames). The panels' own scripts (web/lib/panels.mjs) arrive after
// the first frame; these stay in the first load, so a status read before a panel has arrived answers from a
// fresh record, as the panel would before its first run.

export const MAX_TRACE_BYTES = 32 << 20;   // a trace the page reads (the command line reads up to 256 MiB)

// Slice statistics for a record of [events, ms] pairs: count, events, the 95th percentile and the largest
// time. Numbers stay numbers: the page shows none of them (the benchmark and the tests read them).
export function sliceStats(slices) {
  const ms = slices.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] : 0);
  return { count: slices.length, events: slices.reduce((a, s) => a + s.events, 0), p95Ms: at(0.95), maxMs: ms.length ? ms[ms.length - 1] : 0 };
}

// The fleet panel's record: the run's trace, and the slices the run sized and timed.
export function fleetRecord() {
  return {
    trace: null,        // {name, text} of the recorded trace the run replays, or null (synthetic traffic)
    sweep: '',          // '', 'pool', 'dram' or 'ssd'
    slices: [],         // {asked, events, ms} of the current run, in order
    sliceMs: { targetMs: 0, budgetMs: 0 },  // what the app's run sizes its slices for and lets them take
    startedAt: 0,       // performance.now() at the start, for the run's wall time
    wallMs: 0,          // the run's wall time once done
    job: null,          // the run in the worker: {id, scenario, trace, sweep, adopted, startedAt}
    heldFor: null,      // the scenario a refused or cancelled run was for: no automatic start until it changes
    lastLive: '',       // the last words the live region said
    lastTenth: -1,
  };
}

// For window.tierscope.fleet(): the app's words and numbers, and the slices the page ran.
export function fleetStatus(S, F) {
  const live = () => { const s = S.ready ? S.bridge.state() : null; return s ? s.fleet : null; };
  const f = (S.state && S.state.fleet) || live();
  const st = S.ready ? S.bridge.fleetStatus() : null;
  return {
    view: !!S.state && S.state.view === 'fleet', started: !!(st && st.started), done: !!(st && st.done), progress: st ? st.progress : 0, tS: st ? st.t_s : 0,
    horizonS: st ? st.horizon_s : 0, mode: f ? f.mode : '', sweep: f ? f.sweep : '', statusText: f ? f.statusText : '',
    trace: F.trace ? F.trace.name : null, wallMs: F.wallMs, slices: { ...sliceStats(F.slices), ...F.sliceMs, list: F.slices.slice() },
  };
}

// The Serve panel's record.
export function serveRecord() {
  return {
    job: null,        // the replay in the worker: {id, key}
    jobA: null,       // while comparing, A's replay after it: {id}
    shownKey: '',     // the scenario and settings whose result is on screen
    heldFor: '',      // a refused or cancelled run's key: no automatic start until it changes
    startedAt: 0,
    wallMs: 0,        // from asking to the answer (with the worker's start on a first run)
    computeMs: 0,     // the replay's own slices in the worker
    result: null,     // the worker's last answer
    lastTenth: -1,
    starting: false,  // start() is refreshing the page with the settings it just set
    step: -1,         // the replayed step the canvas shows (-1: none)
    timer: 0,         // the steps' playback
  };
}

// For window.tierscope.serve(): what is on screen and how long the last replay took in this browser.
export function serveStatus(S, V) {
  return {
    view: !!S.state && S.state.view === 'serve', running: !!V.job, settings: (S.state && S.state.serve) || '', wallMs: V.wallMs,
    computeMs: V.computeMs, step: V.step, summary: V.result ? V.result.summary : null,
  };
}
