// Writes the default view's text into a site's index.html before any script runs: the native prerender
// (prerender.cpp, the app's own C++) prints the JSON the page's views read at start-up, and the page's own
// view modules (web/lib/*-view.mjs) render it into the page's own markup. A visitor without a link reads the
// walkthrough, the counters, the ledger and the tables at once; the app then writes the same text again.
// usage: node tools/prerender/prerender.mjs SITE_INDEX_HTML PRERENDER_PROGRAM   (figures.html beside the page too)
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { documentFromBody } from './dom.mjs';
import { makeEl, makeById } from '../../web/lib/dom.mjs';
import { createPageState } from '../../web/lib/page-state.mjs';
import { createNotices } from '../../web/lib/notices-view.mjs';
import { createHeader } from '../../web/lib/header-view.mjs';
import { createWalkthrough } from '../../web/lib/walkthrough-view.mjs';
import { createLedgerView } from '../../web/lib/ledger-view.mjs';
import { createTables } from '../../web/lib/tables-view.mjs';

// The app's replies for the default view, as the page's bridge (web/lib/bridge.mjs) would hand them over.
export function bridgeOver(data) {
  const ok = (extra) => ({ ok: true, errors: [], ...extra });
  const figures = data.figuresView.figures || [];
  return {
    has: () => true,
    state: () => data.state,
    catalog: () => data.catalog,
    ledgerView: (tier, object) => (tier || object ? null : data.ledgerView),
    figuresView: (ids) => ({ figures: ids ? figures.filter((f) => ids.split(',').includes(f.id)) : figures }),
    exportText: (what, format) => (what === 'card' && format === 'json' ? ok({ text: data.card }) : { ok: false, errors: [] }),
    compare: () => null,
  };
}

// Renders the views a page without a link shows at first into `doc`, the page's own body.
export function renderDefaultView(doc, data) {
  const $ = makeById(doc), el = makeEl(doc);
  const win = { document: doc, performance: { now: () => 0 }, setTimeout: () => 0, clearTimeout: () => {}, console };
  const S = createPageState();
  S.bridge = bridgeOver(data);
  S.ready = true;  // the views read the app's numbers only once it is there; here they are
  S.state = data.state;
  S.catalog = data.catalog;
  S.catalogKey = S.state.scenarioHash;
  const notices = createNotices({ el, box: $('notices'), win });
  const none = () => {};
  const header = createHeader({ S, $, el, win, notices, refresh: none });
  const walkthrough = createWalkthrough({ S, $, el, refresh: none, announce: none, writeHash: none });
  const ledger = createLedgerView({ S, $, el, refresh: none, notices, download: none, copyLink: none });
  const tables = createTables({ S, $, el, win, notices, download: none });
  // In the order the page builds itself (init.mjs buildPage, then its first refresh).
  header.renderCatalog();
  walkthrough.renderPaths();
  walkthrough.render();
  ledger.sync();
  header.render();
  ledger.markCurrent();
  tables.renderFigures();
  tables.renderCard();
  // The walkthrough again, as the app's next refresh draws it: a step's words that choose their claim from
  // the numbers (the dots' names) now have every figure.
  walkthrough.render();
  settleUntilReady(doc, $);
  return S;
}

// What only the running app can do stays as the page ships it: its controls wait for the app (a click
// before then would reach no app), the status line says it is loading, nothing has been announced.
function settleUntilReady(doc, $) {
  for (const b of doc.querySelectorAll('#path-list button')) b.disabled = true;
  $('tour-play').disabled = true;
  for (const id of ['ledger-csv', 'ledger-json', 'ledger-link']) $(id).disabled = true;
  $('status').textContent = 'Loading…';
  $('announce').textContent = '';
  doc.title = '';
  // The regions holding the default scenario's values: hidden while a link is pending (style.css), until the
  // app has applied it.
  for (const id of REGIONS) $(id).classList.add('pre');
  for (const id of ['figures-table', 'card-table']) $(id).querySelector('tbody').classList.add('pre');
}

export const REGIONS = ['subtitle-model', 'subtitle-layout', 'c-global', 'c-swa', 'c-engram', 'c-policy', 'tour-count', 'tour-title',
  'tour-body', 'tour-look', 'tour-dots', 'path-list', 'pb-pos', 'entry-now', 'ledger-path', 'ledger-list', 'figures-count', 'card-count'];

const bodyOf = (html) => {
  const m = /<body([^>]*)>([\s\S]*)<\/body>/.exec(html);
  if (!m) throw new Error('the page has no <body>…</body>');
  return m;
};
const TABLES = ['figures-table', 'card-table'];
const COUNTS = ['figures-count', 'card-count'];

// The page with its body rendered, and the figures page (web/figures.html) with the two tables the views
// wrote; the heads are kept byte for byte. The tables leave index.html (the app writes them when they open,
// and 12 kB of rows a visitor rarely opens would slow every first load); their counts stay. The body says
// which scenario its text is (the page keeps it while no link names another).
export function prerenderPages(html, figuresHtml, data) {
  const m = bodyOf(html);
  const doc = documentFromBody(m[2]);
  renderDefaultView(doc, data);
  const f = bodyOf(figuresHtml);
  const figures = documentFromBody(f[2]);
  for (const id of TABLES) {
    const from = doc.getElementById(id).querySelector('tbody');
    const to = figures.getElementById(id).querySelector('tbody');
    to.replaceChildren(...from.childNodes);
    to.removeAttribute('class');
    from.replaceChildren();
  }
  for (const id of COUNTS) figures.getElementById(id).textContent = doc.getElementById(id).textContent;
  // The scenario named as the page's header names it.
  figures.getElementById('subtitle').textContent =
    `every figure of ${doc.getElementById('subtitle-model').textContent} · ${doc.getElementById('subtitle-layout').textContent}`;
  const attrs = `${m[1]} data-prerendered="${data.state.scenarioHash.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  return {
    index: html.slice(0, m.index) + `<body${attrs}>${doc.body.innerHTML}</body>` + html.slice(m.index + m[0].length),
    figures: figuresHtml.slice(0, f.index) + `<body${f[1]}>${figures.body.innerHTML}</body>` + figuresHtml.slice(f.index + f[0].length),
  };
}

function main(argv) {
  const [page, program] = argv;
  if (!page || !program) {
    console.error('prerender: usage: node tools/prerender/prerender.mjs SITE_INDEX_HTML PRERENDER_PROGRAM');
    return 2;
  }
  let data;
  try {
    data = JSON.parse(execFileSync(program, [], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (e) {
    console.error(`prerender: reading the default view from ${program} failed: ${e.message}`);
    return 1;
  }
  for (const k of ['state', 'catalog', 'ledgerView', 'figuresView', 'card']) {
    if (!data || data[k] === undefined) { console.error(`prerender: the default view lacks '${k}'; allowed: the JSON the prerender program prints`); return 1; }
  }
  const figuresPage = path.join(path.dirname(page), 'figures.html');
  const out = prerenderPages(fs.readFileSync(page, 'utf8'), fs.readFileSync(figuresPage, 'utf8'), data);
  fs.writeFileSync(page, out.index);
  fs.writeFileSync(figuresPage, out.figures);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
