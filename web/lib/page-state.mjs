// The page's one mutable state: everything the shell's views remember between events lives here, so each
// view is a set of functions over it (and node's tests can build one and look inside).

import { bridgeFigures } from './figures.mjs';

// The page's own work, for window.tierscope.stats() and the benchmark: the last 256 durations of each kind
// (a refresh after a change, a chart's recompute and redraw), so a long session keeps no growing list.
export function createTimings(size = 256) {
  const kinds = new Map();
  return {
    add(kind, ms) {
      let k = kinds.get(kind);
      if (!k) kinds.set(kind, (k = { list: new Float64Array(size), n: 0 }));
      k.list[k.n % size] = ms;
      k.n++;
    },
    // {kind: {count, p50, p95, max}} in milliseconds over the kept durations.
    summary() {
      const out = {};
      for (const [kind, k] of kinds) {
        const xs = Array.from(k.list.subarray(0, Math.min(k.n, size))).sort((a, b) => a - b);
        const at = (f) => xs[Math.min(xs.length - 1, Math.floor(f * xs.length))];
        out[kind] = { count: k.n, p50: at(0.5), p95: at(0.95), max: xs[xs.length - 1] };
      }
      return out;
    },
    clear() { kinds.clear(); },
  };
}

export function createPageState({ embed = false, framed = false } = {}) {
  const S = {
    embed, framed,
    ready: false,          // the app has drawn its first frame
    linkApplied: false,    // the page has applied its link: window.tierscope.state() answers from then on
    failed: false,         // a start-up failure is on screen
    bridge: null,
    catalog: null,         // names and labels from the app (ui::catalog_json), for the current scenario
    catalogKey: null,      // the scenarioHash the figures were read for
    modelKey: null,        // the model the catalog's names were read for
    figures: null,         // the app's figures, read as the views need them (figures.mjs; set below)
    state: null,           // the app's state JSON, read on every refresh
    ledger: null,          // the ledger panel's rows (ui::ledger_view_json)
    ledgerKey: '',
    filter: { tier: '', object: '' },
    // The walkthrough's step is the app's (state().tour). Before the app arrives the page shows the step a
    // link names (0-based; -1: its first screen, before step 1) or one the reader chose meanwhile, which the
    // app then opens.
    earlyTour: -1,
    earlyTourChosen: false,
    lastHash: null,        // the hash this page last wrote, so its own writes are not re-applied
    pushNext: false,       // the next URL write follows a user navigation and deserves a history entry
    lastAnnounced: '',
    lastSelection: '',
    lastAdjustments: null,
    lastInfeasible: null,  // the reason last shown for a setup that cannot run
    shownOnce: false,
    quietLoss: false,      // the embed gave its WebGL context back on purpose: no notice
    refreshQueued: false,  // the app reported a change that no refresh has read yet
    timings: createTimings(),
    module: null,
    build: null,           // the page's build from the app, step by step (init.mjs: steps, next, done)
    readyPromise: null, resolveReady: null, rejectReady: null,
  };
  S.figures = bridgeFigures(S);
  return S;
}
