// A panel whose script is not in the first load (web/lib/panels.mjs): a slot stands in for it from the start.
// The script is imported the first time the panel is needed — its header button, a link or a refresh that
// opens its view, a window.tierscope call — or once the page is idle after its first frame, so a click then
// finds it there. Until it has arrived the panel stays as the page's HTML has it (closed); once it has, the
// panel is made, wired and synced, and the slot passes every call on to it. An import that fails (offline
// before this release was cached) is said in a notice naming the panel, and is tried again on the next need.
// One import of the panels' script for all the slots: `load()` imports it (the tests stand one in). A
// failed import is forgotten, so the next need tries again.
export function createPanelLoader(load = () => import('./panels.mjs')) {
  let panels = null;
  let loading = null;
  return function loadPanels() {
    if (panels) return Promise.resolve(panels);
    if (!loading) loading = load().then((m) => { panels = m; return m; }, (e) => { loading = null; throw e; });
    return loading;
  };
}

// `loadPanels` is the page's createPanelLoader(); `make(module)` makes the panel (the module's create…
// function with the page's parts); `isOpen()` says whether the app's view is this panel's; `opener` is the
// id of its header button; `label` names it in a notice.
export function createPanelSlot({ $, notices, loadPanels, make, isOpen, opener, label }) {
  let part = null;

  const failed = (e) => notices.message(`The ${label} panel could not open: its code did not arrive (${e && e.message ? e.message : e}). It is tried again when the panel is next opened.`, { kind: 'warning', key: 'panels' });

  // A promise of the panel, made and wired on its script's arrival.
  function get() {
    if (part) return Promise.resolve(part);
    return loadPanels().then((m) => {
      if (!part) { part = make(m); part.wire(); }
      return part;
    });
  }

  // Each refresh: the panel's own sync once it is there; before, a view that opens it brings its script.
  function sync() {
    if (part) { part.sync(); return; }
    if (isOpen()) get().then((p) => p.sync(), failed);
  }

  // The header button, until the panel is there: it brings the script and then does what the panel's own
  // button does (the panel's wire adds that button's listener for the clicks after).
  function wire() {
    $(opener).addEventListener('click', () => { if (!part) get().then((p) => p.toggle(), failed); });
  }

  return { sync, wire, get, loaded: () => part };
}
