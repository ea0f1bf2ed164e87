// Wires the page shell from one page state: the loader, the walkthrough, the ledger, the header and
// playback, the figures and card tables, share links and the embed view, config.json import, notices and
// window.tierscope. Each part is a module of its own (lib/*-view.mjs, …) over the state made here.
import { makeBridge, readNumbers } from './bridge.mjs';
import { createWorkerClient, createWork } from './worker-client.mjs';
import { makeEl, makeById } from './dom.mjs';
import { createPageState } from './page-state.mjs';
import { earlyTour } from './hash.mjs';
import { STEPS } from './tour.mjs';
import { createNotices } from './notices-view.mjs';
import { createLoader } from './loader.mjs';
import { createWalkthrough } from './walkthrough-view.mjs';
import { createLedgerView } from './ledger-view.mjs';
import { createHeader } from './header-view.mjs';
import { createTables } from './tables-view.mjs';
import { createShare } from './share.mjs';
import { createEmbed } from './embed.mjs';
import { createConfigImport } from './config-import.mjs';
import { createApi } from './public-api.mjs';
import { setErrorWording } from './api.mjs';
import { createPanelLoader, createPanelSlot } from './panel-slot.mjs';
import { createCanvasTools } from './canvas-tools.mjs';

export function init(win) {
  const doc = win.document;
  const $ = makeById(doc);
  const el = makeEl(doc);
  // The scenario whose text the build wrote into the page (none when served from the source), and whether
  // a link names a view that text may not be (early.js marks it before the first paint).
  const prerendered = (doc.body && doc.body.getAttribute('data-prerendered')) || '';
  const linkPending = doc.documentElement.classList.contains('link-pending');
  const S = createPageState({ embed: new win.URLSearchParams(win.location.search).get('embed') === '1', framed: win.parent !== win });
  if (S.embed) doc.documentElement.classList.add('embed');
  S.readyPromise = new Promise((resolve, reject) => { S.resolveReady = resolve; S.rejectReady = reject; });
  S.readyPromise.catch(() => {});  // failures are shown on the page; callers may still await and catch
  // The worker module (web/worker.js): the charts' series and the config.json reader, off the page's thread
  // and out of the first load. It starts on first use, or once the page is idle after its first frame.
  S.work = createWork(createWorkerClient(() => new win.Worker(new win.URL('worker.js', doc.baseURI))), readNumbers);

  // Every part refreshes through here: the app's state once, then each view in turn.
  const parts = {};
  function refresh() {
    // Not between the build's steps: a refresh then would write the half-built page's hash over the link's.
    if (!S.ready || (S.build && S.build.next < S.build.steps.length)) return;
    const t0 = win.performance.now();
    S.refreshQueued = false;  // this read covers any change the app reported before it
    S.state = S.bridge.state();
    syncScenario();
    parts.walkthrough.syncToState();
    parts.ledger.sync();
    parts.header.render();
    parts.ledger.markCurrent();
    parts.tables.sync();
    parts.charts.sync();
    parts.fleet.sync();
    parts.serve.sync();
    parts.share.writeHash();
    parts.embed.postEvent('state');
    S.timings.add('refresh', win.performance.now() - t0);
  }
  // Names, labels and figures change with the scenario (another model is named otherwise).
  // draw = false reads the names only (the build's first step: the walkthrough is drawn once the link applies).
  function syncScenario(draw = true) {
    if (!S.state || S.state.scenarioHash === S.catalogKey) return;
    S.catalogKey = S.state.scenarioHash;
    // The names follow the model (its kind, its parts); a new batch or context keeps them.
    const modelKey = `${S.state.presetLabel}|${JSON.stringify(S.state.arch || null)}`;
    const renamed = modelKey !== S.modelKey;
    if (renamed) { S.modelKey = modelKey; S.catalog = S.bridge.catalog(); setErrorWording(S.catalog && S.catalog.errorWording); }
    // The figures are read again as the views ask for them (no sources: the downloads carry those).
    S.figures.invalidate();
    if (renamed) {
      parts.header.renderCatalog();
      parts.walkthrough.renderPaths();
    }
    if (draw) parts.walkthrough.render();
  }

  function download(name, text, type) {
    const url = win.URL.createObjectURL(new win.Blob([text], { type }));
    const a = el('a', { href: url, download: name });
    doc.body.append(a);
    a.click();
    a.remove();
    // The browser reads the blob after this click returns, later still on a busy machine: a second was too
    // short (the download then failed without a word), so the URL is let go after a minute.
    win.setTimeout(() => win.URL.revokeObjectURL(url), 60000);
  }

  const notices = createNotices({ el, box: $('notices'), win });
  parts.header = createHeader({ S, $, el, win, notices, refresh });
  const announce = parts.header.announce;
  const writeHash = () => parts.share.writeHash(true);
  parts.walkthrough = createWalkthrough({ S, $, el, refresh, announce, writeHash });
  parts.share = createShare({ S, $, el, win, doc, notices, refresh, walkthrough: parts.walkthrough });
  const link = () => parts.share.linkFor(parts.share.currentHash());
  parts.ledger = createLedgerView({ S, $, el, win, refresh, notices, download, copyLink: (done) => parts.share.copyText(link(), done) });
  parts.tables = createTables({ S, $, el, win, notices, download });
  // The Charts, Serve and Fleet panels arrive after the first frame (lib/panel-slot.mjs).
  const view = () => String((S.state && S.state.view) || '');
  const loadPanels = createPanelLoader();
  parts.fleet = createPanelSlot({ $, notices, loadPanels, label: 'Fleet', opener: 'open-fleet', isOpen: () => view() === 'fleet',
    make: (m) => m.createFleetView({ S, $, el, win, notices, refresh, announce }) });
  parts.charts = createPanelSlot({ $, notices, loadPanels, label: 'Charts', opener: 'open-charts', isOpen: () => view().startsWith('chart-'),
    make: (m) => m.createCharts({ S, $, el, doc, win, notices, refresh, writeHash }) });
  parts.serve = createPanelSlot({ $, notices, loadPanels, label: 'Serve', opener: 'open-serve', isOpen: () => view() === 'serve',
    make: (m) => m.createServeView({ S, $, el, doc, win, notices, refresh, writeHash, announce }) });
  const api = createApi({ S, win, refresh, link, fleet: parts.fleet, serve: parts.serve });
  parts.config = createConfigImport({ S, $, doc, notices, api });
  parts.tools = createCanvasTools({ S, $, refresh });

  // The app's own notices: a lost graphics context is said on the page (not only in the console), until
  // the context is back. An embed that gave its context back on purpose says nothing.
  function onNotice(kind, text) {
    if (kind === 'webgl-context-lost') {
      if (!S.quietLoss) notices.message(text, { kind: 'warning', key: 'gl', stay: true, role: 'alert' });
    } else if (kind === 'webgl-context-restored') {
      if (!S.quietLoss) notices.message(text, { kind: 'info', key: 'gl' });
      S.quietLoss = false;
    } else {
      notices.message(text, { key: kind });
    }
  }

  function onAppState() {
    // The app may report from inside a call the page made; one refresh after that call returns is enough,
    // and none when the caller refreshed already (window.tierscope's commands do).
    if (S.refreshQueued) return;
    S.refreshQueued = true;
    win.queueMicrotask(() => { if (S.refreshQueued) refresh(); });
  }

  // The app's model is ready for calls, before its first frame (which waits for the GPU's shaders and for
  // the page): the page reads its names and numbers, fills its views and applies the link in short tasks of
  // their own (each a step below), then lets the app draw. Returns true: the app waits for pageBuilt (at
  // most a second).
  function appLoaded(m) {
    startBuild(m);
    return true;
  }

  // The page's build, step by step, a task each, so no one of them holds the page's thread for long.
  function buildSteps(m) {
    return [
      () => {
        S.bridge = makeBridge(m);
        S.ready = true;
        // The page has its own playback bar; the full page also shows the counters (the embed hides them).
        S.bridge.hostControls(true, !S.embed);
        S.state = S.bridge.state();
        syncScenario(false);
      },
      () => {
        for (const id of ['copy-link', 'open-charts', 'open-embed', 'open-config', 'open-fleet', 'open-serve', 'pb-prev', 'pb-play', 'pb-next', 'pb-scrub', 'pb-speed']) $(id).disabled = false;
        parts.tables.enable(true);
      },
      () => {
        // The walkthrough is drawn with the link applied, in the same task: drawn before, it would show the
        // app's own step for a frame and move the text below it twice.
        const movedEarly = S.earlyTourChosen && S.earlyTour + 1 !== earlyTour(win.location.hash, STEPS.length);
        S.lastHash = null;
        // From here on state() answers: the link is applied in this task, before any answer is read.
        S.linkApplied = true;
        parts.share.applyLocationHash();
        parts.walkthrough.render();
        // The build's text is the default scenario's: tables of another (a link's) are read afresh, and the
        // parts hidden while the link was pending now show the link's values.
        if (prerendered && S.state && prerendered !== S.state.scenarioHash) parts.tables.clear();
        doc.documentElement.classList.remove('link-pending');
        // A walkthrough step chosen while the app was downloading opens now.
        if (movedEarly) { parts.walkthrough.openStep(S.earlyTour); refresh(); }
        if (win.performance && win.performance.mark) win.performance.mark('tierscope-page-built');
      },
    ];
  }

  function startBuild(m) {
    if (S.build) return;
    S.build = { steps: buildSteps(m), next: 0, done: false };
    const step = () => {
      if (S.build.done) return;
      try { runBuildStep(); } finally { if (!S.build.done) win.setTimeout(step, 0); }
    };
    win.setTimeout(step, 0);
  }

  function runBuildStep() {
    const b = S.build;
    const t0 = win.performance.now();
    const at = b.next;
    try { b.steps[b.next++](); } finally {
      S.timings.add(`build.${at + 1}`, win.performance.now() - t0);  // stats().page: each step's milliseconds
      if (b.next >= b.steps.length && !b.done) {
        b.done = true;
        if (S.bridge) S.bridge.pageBuilt();
      }
    }
  }

  // Whatever of the build is left, at once (an app that drew before the page had built its views).
  function finishBuild(m) {
    startBuild(m);
    while (!S.build.done) runBuildStep();
  }

  // The first frame is drawn: the page says so and window.tierscope.ready resolves.
  function appReady(m) {
    finishBuild(m);  // (an app that drew before the page had built its views)
    $('loading').hidden = true;
    announce('tierscope is ready');
    if (win.performance && win.performance.mark) win.performance.mark('tierscope-interactive');
    if (S.resolveReady) S.resolveReady(api);
    parts.embed.postEvent('ready');
    registerServiceWorker();
    whenIdle(() => loader.warmDeferred(), 3000, 500);
    warmWorker();
    // The panels' script, so that a first click on Charts, Serve or Fleet opens at once (a failure here
    // says nothing: the panel's own opening tries again and says so).
    whenIdle(() => loadPanels().catch(() => {}), 5000, 1000);
  }

  // Runs f once the page is idle (at the latest after `timeout` ms), or after `fallback` ms in a browser
  // without idle callbacks.
  function whenIdle(f, timeout, fallback) {
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(f, { timeout });
    else win.setTimeout(f, fallback);
  }

  // Once the page is idle after the first frame, the worker module is fetched and compiled, so the first chart
  // or import does not wait for its download.
  function warmWorker() {
    if (typeof win.Worker === 'function') whenIdle(() => S.work.warm(), 5000, 1000);
  }

  // Offline: a versioned service worker caches the site after the first visit.
  function registerServiceWorker() {
    const nav = win.navigator;
    if (!('serviceWorker' in nav) || !/^https?:$/.test(win.location.protocol)) return;
    nav.serviceWorker.register(new win.URL('sw.js', doc.baseURI), { scope: './' }).catch((e) => win.console.warn('offline cache unavailable: ' + e.message));
  }

  const loader = createLoader({ S, $, win, doc, hooks: { loaded: appLoaded, ready: appReady, state: onAppState, notice: onNotice } });
  parts.embed = createEmbed({ S, $, win, api, refresh, start: loader.start });
  win.Object.defineProperty(win, 'tierscope', { value: Object.freeze(api), configurable: false, writable: false });

  // Keyboard and pointer around the canvas. A tap gives the canvas the keys (SDL cancels touch defaults, so
  // the browser would not), without the ring that marks keyboard focus and without scrolling the page.
  const canvas = $('canvas');
  canvas.addEventListener('pointerdown', () => canvas.focus({ preventScroll: true, focusVisible: false }));
  // Tab always leaves the canvas: the app's own keyboard handling would otherwise keep focus inside it (a
  // keyboard trap). The capture phase on the frame runs before the app's listeners and stops only Tab.
  $('canvas-frame').addEventListener('keydown', (e) => {
    if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey) e.stopPropagation();
  }, true);

  for (const p of [parts.header, parts.walkthrough, parts.ledger, parts.tables, parts.share, parts.embed, parts.config, parts.charts, parts.fleet, parts.serve, parts.tools]) p.wire();

  // Start-up: the walkthrough is readable before the app arrives, on the step a link names.
  if (S.embed) { $('open-full').hidden = false; $('open-full').href = link(); }
  const tour = earlyTour(win.location.hash, STEPS.length);
  if (tour) S.earlyTour = tour - 1;
  // A page the build prerendered (tools/prerender) already shows the default view's text, the app's own:
  // it stays until the app writes the same again. A link's walkthrough step is drawn now (its numbers
  // pending), in place of the prerendered step it hid.
  if (!prerendered || linkPending) {
    parts.walkthrough.render();
    parts.walkthrough.renderPaths();
    for (const id of ['tour-count', 'tour-title', 'tour-body', 'tour-look', 'tour-dots', 'path-list']) $(id).classList.remove('pre');
  }
  parts.embed.startWhenVisible();
  return { S, parts, api };
}
