// The page's one mutable state: everything the shell's views remember between events lives here, so each
// view is a set of functions over it (and node's tests can build one and look inside).

export function createPageState({ embed = false, framed = false } = {}) {
  return {
    embed, framed,
    ready: false,          // the app has drawn its first frame
    failed: false,         // a start-up failure is on screen
    bridge: null,
    catalog: null,         // names and labels from the app (ui::catalog_json), for the current scenario
    catalogKey: null,      // the scenarioHash the figures were read for
    modelKey: null,        // the model the catalog's names were read for
    figures: new Map(),    // id → figure (the app's figures JSON)
    state: null,           // the app's state JSON, read on every refresh
    ledger: null,          // the ledger panel's rows (ui::ledger_view_json)
    ledgerKey: '',
    filter: { tier: '', object: '' },
    tourIndex: 0,
    tourTouched: false,    // the reader used the walkthrough: the link carries its step
    lastHash: null,        // the hash this page last wrote, so its own writes are not re-applied
    pushNext: false,       // the next URL write follows a user navigation and deserves a history entry
    lastAnnounced: '',
    lastSelection: '',
    lastAdjustments: null,
    lastInfeasible: null,  // the reason last shown for a setup that cannot run
    shownOnce: false,
    quietLoss: false,      // the embed gave its WebGL context back on purpose: no notice
    refreshQueued: false,
    module: null,
    readyPromise: null, resolveReady: null, rejectReady: null,
  };
}
