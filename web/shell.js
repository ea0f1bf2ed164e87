// tierscope page shell: loads the WebAssembly app with visible progress and a message for every failure,
// and builds the page around the canvas: the walkthrough, the ledger, playback, share links, notices,
// the embed view and its postMessage API, and window.tierscope. Relative URLs only, no inline code.
import { makeBridge } from './lib/bridge.mjs';
import { readHash, buildHash, withKey } from './lib/hash.mjs';
import { STEPS, parseTemplate, entryIndex, variantFor, stepIndexOfPath } from './lib/tour.mjs';
import { normalizeLedger, filterOptions, filterEntries, ledgerToCsv, ledgerToJson, labeller, exportName } from './lib/ledger.mjs';
import { refusalNotice, adjustmentNotice, collapsedLine } from './lib/notices.mjs';
import { formatBytes, formatSeconds, groupInt, figureText } from './lib/format.mjs';
import { parseOrigins, senderAllowed, parseCommand, reply, event as embedEvent } from './lib/messages.mjs';
import { argError, fail, checkPath, checkStep, checkParam, checkSpeed } from './lib/api.mjs';

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const EMBED = query.get('embed') === '1';
const FRAMED = window.parent !== window;
if (EMBED) document.documentElement.classList.add('embed');

// [SECTION] small DOM helpers: text only, never markup from data.
function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of [].concat(children)) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// Path keys are the app's stable keys; the labels here show until the app sends its own.
const FALLBACK_PATHS = [
  ['prefill', 'Prefill'], ['decode', 'Decode step'], ['engram', 'Engram lookup'], ['csa2-modes', 'CSA2 layer modes'],
  ['swa-resume', 'SWA park / resume'], ['prefix-cache', 'Prefix-cache hit'], ['step-budget', 'Step budget'],
].map(([key, label]) => ({ key, label, summary: '' }));

// [SECTION] page state
let bridge = null;
let ready = false;
let paths = FALLBACK_PATHS;
let figures = new Map();
let state = null;
let ledger = normalizeLedger(null);
let ledgerKey = '';
let filter = { tier: '', object: '' };
let tourIndex = 0;
let tourTouched = false;
let lastHash = null;    // the hash this page last wrote, so its own writes are not re-applied
let pushNext = false;   // the next URL write follows a user navigation and deserves a history entry
let lastAnnounced = '';
let lastSelection = '';
let lastAdjustments = null;
let shownOnce = false;  // the first state has been shown

// [SECTION] notices: in the page's flow above the canvas (never over it), one per source that names every
// refused key, folding into one line after a few seconds; text only, never markup from data.
const noticesEl = $('notices');
const NOTICE_FOLD_MS = 6000;
function dismissButton(item) {
  return el('button', { type: 'button', class: 'btn icon small', 'aria-label': 'Dismiss', text: '✕', onclick: () => item.remove() });
}
function showNoticeGroup(n) {
  if (!n) return;
  const list = el('ul', { class: 'notice-list' }, n.items.map((x) => el('li', { 'data-field': x.field, 'data-code': x.code }, [
    el('span', { text: x.text }), x.allowed ? el('span', { class: 'muted', text: ` Allowed: ${x.allowed}.` }) : null])));
  const toggle = el('button', { type: 'button', class: 'btn small notice-toggle', 'aria-expanded': 'true', text: 'Hide' });
  const head = el('p', { class: 'notice-head' }, [el('span', { class: 'notice-summary', text: n.summary })]);
  const item = el('div', { class: `notice ${n.kind}`, 'data-kind': n.kind }, [
    el('div', { class: 'notice-body' }, [head, list]), toggle]);
  item.append(dismissButton(item));
  const fold = (folded) => {
    item.classList.toggle('folded', folded);
    head.firstChild.textContent = folded ? collapsedLine(n) : n.summary;
    toggle.textContent = folded ? 'Show' : 'Hide';
    toggle.setAttribute('aria-expanded', folded ? 'false' : 'true');
  };
  toggle.addEventListener('click', () => fold(!item.classList.contains('folded')));
  noticesEl.append(item);
  // Older notices of the same kind fold at once; this one after a few seconds (unless a pointer or focus is in it).
  for (const other of noticesEl.querySelectorAll(`.notice[data-kind="${n.kind}"]`)) if (other !== item && !other.classList.contains('folded')) other.querySelector('.notice-toggle')?.click();
  setTimeout(() => { if (!item.matches(':hover, :focus-within')) fold(true); }, NOTICE_FOLD_MS);
  while (noticesEl.children.length > 3) noticesEl.firstElementChild.remove();
}
function info(text) {
  const item = el('div', { class: 'notice info' }, [el('p', { text })]);
  item.append(dismissButton(item));
  noticesEl.append(item);
  setTimeout(() => item.remove(), 4000);
}

// [SECTION] figures in text: slots that show "…" until the app has computed the number.
function figureTextOf(id) { const f = figures.get(id); return f ? figureText(f) : '…'; }
function figureSlot(id) {
  const f = figures.get(id);
  return el('button', { type: 'button', class: f ? 'fig' : 'fig pending', 'data-fig': id,
    'aria-label': f ? undefined : 'computing', text: figureTextOf(id), onclick: () => showFigure(id) });
}
function showFigure(id) {
  const box = $('tour-look');
  const f = figures.get(id);
  box.replaceChildren();
  if (!f) { box.textContent = 'This number appears once the model has loaded.'; return; }
  box.append(el('strong', { text: `${f.label || id}: ` }), el('span', { text: f.formula || figureText(f) }), ' ',
    el('span', { class: 'badge', text: f.provenance || 'derived' }));
  if (f.sources) box.append(el('span', { class: 'sources', text: ' ' + f.sources }));
}

// [SECTION] walkthrough: it always tells the path the canvas shows (one story on screen), in the wording for
// this model (state().arch), with this scenario's numbers.
function slotText(id) {
  if (id.startsWith('arch.')) {
    const v = state && state.arch ? state.arch[id.slice(5)] : undefined;
    return typeof v === 'number' ? groupInt(v) : typeof v === 'string' && v ? v : '…';
  }
  return figureTextOf(id);
}
function slot(id) {
  if (id.startsWith('arch.')) {
    const t = slotText(id);
    return el('span', { class: t === '…' ? 'fig pending' : 'fig arch', text: t });
  }
  return figureSlot(id);
}
function renderTour() {
  const step = STEPS[tourIndex];
  const words = variantFor(step, state && state.arch);
  $('tour-count').textContent = `· ${tourIndex + 1} of ${STEPS.length}`;
  $('tour-title').textContent = words.title;
  const body = $('tour-body');
  body.replaceChildren(...words.body.map((tpl) => el('p', {}, parseTemplate(tpl).map((part) => (part.figure ? slot(part.figure) : part.text)))));
  $('tour-look').textContent = `Look at ${words.look}.`;
  const dots = $('tour-dots');
  if (dots.children.length !== STEPS.length) {
    dots.replaceChildren(...STEPS.map((s, i) => el('li', {}, el('button', { type: 'button', class: 'dot', onclick: () => goTour(i) }))));
  }
  [...dots.querySelectorAll('.dot')].forEach((d, i) => {
    d.setAttribute('aria-current', i === tourIndex ? 'step' : 'false');
    d.setAttribute('aria-label', `Step ${i + 1}: ${variantFor(STEPS[i], state && state.arch).title}`);
  });
  $('tour-back').disabled = tourIndex === 0;
  $('tour-next').disabled = tourIndex === STEPS.length - 1;
  $('tour-play').disabled = !ready;
}

// Puts the view on a walkthrough step: its path, paused on the ledger entry it talks about.
function openTourStep(i) {
  tourIndex = Math.max(0, Math.min(STEPS.length - 1, i));
  tourTouched = true;
  const step = STEPS[tourIndex];
  if (!state || state.path !== step.path) bridge.setPath(step.path);
  bridge.pause();
  syncLedger(true);
  bridge.seek(entryIndex(step, ledger.entries));
}

// Shows a walkthrough step: its text, its path, and the ledger entry it talks about (highlighted).
function goTour(i, { play = false } = {}) {
  tourIndex = Math.max(0, Math.min(STEPS.length - 1, i));
  tourTouched = true;
  renderTour();
  announce(`Walkthrough step ${tourIndex + 1} of ${STEPS.length}: ${variantFor(STEPS[tourIndex], state && state.arch).title}`);
  if (!ready) { writeHash(true); return; }
  pushNext = true;
  if (play) {
    if (!state || state.path !== STEPS[tourIndex].path) bridge.setPath(STEPS[tourIndex].path);
    bridge.seek(0);
    bridge.play();
  } else {
    openTourStep(tourIndex);
  }
  refresh();
}

// The walkthrough follows the view: whatever changed the path (the list, a link, Back, the API, the canvas),
// the walkthrough shows the step that tells it.
function syncTourToState() {
  if (!state) return;
  const i = stepIndexOfPath(state.path);
  if (i >= 0 && i !== tourIndex) {
    tourIndex = i;
    renderTour();
  }
}

$('tour-back').addEventListener('click', () => goTour(tourIndex - 1));
$('tour-next').addEventListener('click', () => goTour(tourIndex + 1));
$('tour-play').addEventListener('click', () => goTour(tourIndex, { play: true }));
// Arrow keys page through the walkthrough only while focus is inside it: keys are never taken page-wide.
$('tour').addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest('input, select, textarea')) return;
  const to = { ArrowLeft: tourIndex - 1, ArrowRight: tourIndex + 1, Home: 0, End: STEPS.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTour(to);
  const focusNow = document.activeElement;
  if (focusNow && focusNow.disabled) $('tour').focus();
});

// [SECTION] animation list
function renderPaths() {
  const list = $('path-list');
  list.replaceChildren(...paths.map((p) => el('li', {}, el('button', {
    type: 'button', class: 'path', 'data-path': p.key, disabled: !ready, 'aria-pressed': state && state.path === p.key ? 'true' : 'false',
    title: p.summary || undefined, onclick: () => { pushNext = true; bridge.setPath(p.key); bridge.seek(0); bridge.play(); refresh(); },
  }, [el('span', { text: p.label })]))));
}

// [SECTION] ledger panel
function syncLedger(force = false) {
  if (!ready || !state) return;
  const key = `${state.path}|${state.scenarioHash}`;
  if (!force && key === ledgerKey) return;
  ledgerKey = key;
  ledger = normalizeLedger(bridge.ledger());
  const opts = filterOptions(ledger, state.names);
  for (const [id, list, cur] of [['ledger-tier', opts.tiers, 'tier'], ['ledger-object', opts.objects, 'object']]) {
    const sel = $(id);
    if (!list.some((o) => o.key === filter[cur])) filter[cur] = '';
    sel.replaceChildren(el('option', { value: '', text: 'any' }), ...list.map((o) => el('option', { value: o.key, text: o.label })));
    sel.value = filter[cur];
  }
  renderLedger();
}

function ledgerRow(e, names) {
  // Screen readers hear what each number is; sighted readers get the same from the column positions.
  const sr = (t) => el('span', { class: 'sr-only', text: t });
  const head = el('span', { class: 'row-head' }, [
    el('span', { class: 't', title: 'starts at (model time)' }, [sr('at '), formatSeconds(e.tStart)]),
    el('span', { class: 'move', text: `${names.endpoint(e.from)} → ${names.endpoint(e.to)}` }),
    el('span', { class: 'bytes', title: 'bytes moved' }, [sr(', '), e.bytes ? formatBytes(e.bytes) : '—']),
  ]);
  const what = el('span', { class: 'row-what' }, [
    el('span', { class: 'obj', text: names.object(e.object) + (e.phase ? ` · ${e.phase}` : '') }),
    el('span', { class: 'dur', title: 'duration' }, [sr(', takes '), formatSeconds(e.duration)]),
    el('span', { class: 'badge', title: 'where the number comes from' }, [sr(', source: '), e.provenance || 'derived']),
  ]);
  return el('li', { 'data-index': e.index }, el('button', {
    type: 'button', class: 'entry', tabindex: '-1', 'data-index': e.index, 'data-step': e.step,
    onclick: () => { pushNext = true; bridge.pause(); bridge.seek(e.index); refresh(); },
  }, [head, what, el('span', { class: 'sentence', text: e.sentence })]));
}

function renderLedger() {
  const list = $('ledger-list');
  const shown = filterEntries(ledger.entries, filter);
  $('ledger-path').textContent = ledger.label ? `· ${ledger.label}` : '';
  const names = labeller(state && state.names);
  list.replaceChildren(...shown.map((e) => ledgerRow(e, names)));
  const empty = $('ledger-empty');
  empty.hidden = shown.length > 0;
  empty.textContent = ledger.entries.length === 0 ? (ledger.note || 'Choose an animation to list what moves where, step by step.') : 'No entry matches the filter.';
  for (const id of ['ledger-csv', 'ledger-json', 'ledger-link']) $(id).disabled = !ready || ledger.entries.length === 0;
  markCurrent();
}

// Highlights the active entry, shows its formula and source, and scrolls only the list (never the page,
// which matters inside an embed).
function markCurrent() {
  const list = $('ledger-list');
  const step = state ? state.step : -1;
  let current = null;
  for (const li of list.children) {
    const on = Number(li.dataset.index) === step;
    const btn = li.firstElementChild;
    btn.classList.toggle('current', on);
    btn.setAttribute('aria-current', on ? 'step' : 'false');
    btn.tabIndex = on ? 0 : -1;
    const detail = li.querySelector('.detail');
    if (on && !detail) {
      const e = ledger.entries.find((x) => x.index === step);
      if (e) li.append(el('div', { class: 'detail' }, [el('p', { class: 'formula', text: e.formula }), e.sources ? el('p', { class: 'sources', text: e.sources }) : null]));
    } else if (!on && detail) detail.remove();
    if (on) current = li;
  }
  if (!current && list.firstElementChild) list.firstElementChild.firstElementChild.tabIndex = 0;
  if (current) {
    const top = current.offsetTop - list.offsetTop, bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
}

// Arrow keys move between entries (one tab stop for the whole list); Enter or a click seeks.
$('ledger-list').addEventListener('keydown', (e) => {
  const buttons = [...$('ledger-list').querySelectorAll('button.entry')];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const b = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
  buttons.forEach((x) => { x.tabIndex = x === b ? 0 : -1; });
  b.focus();
});
$('ledger-tier').addEventListener('change', (e) => { filter.tier = e.target.value; renderLedger(); });
$('ledger-object').addEventListener('change', (e) => { filter.object = e.target.value; renderLedger(); });

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
$('ledger-csv').addEventListener('click', () => download(exportName(ledger, filter, 'csv'), ledgerToCsv(filterEntries(ledger.entries, filter)), 'text/csv'));
$('ledger-json').addEventListener('click', () => download(exportName(ledger, filter, 'json'), ledgerToJson(ledger, filterEntries(ledger.entries, filter), filter), 'application/json'));
$('ledger-link').addEventListener('click', () => copyText(linkFor(withKey(currentHash(), 'step', state ? state.step : 0)), 'Link to this entry copied'));

// [SECTION] header, playback and the live region
function announce(text) {
  if (!text || text === lastAnnounced) return;
  lastAnnounced = text;
  $('announce').textContent = text;
}

// A counter: tokens in bold, their bytes beside them.
function counter(id, main, bytes) {
  const dd = $(id);
  dd.replaceChildren(el('span', { text: main }), el('span', { class: 'unit', text: ' ' + bytes }));
  dd.parentElement.title = `${main} tokens · ${bytes}`;
}

function renderState() {
  if (!state) return;
  syncFigures();
  const c = state.counters || {};
  counter('c-global', groupInt(c.globalKvTokens), formatBytes(c.globalKvBytes));
  counter('c-swa', groupInt(c.swaKvTokens), formatBytes(c.swaKvBytes));
  $('c-engram').textContent = groupInt(c.engramRows);
  $('c-policy').textContent = state.policy || '—';
  // The page is written around V4.1 Flash; another preset is named so the header never claims the wrong model.
  // The model's name (a preset label is "model · hardware"), so the header keeps one row on wide screens.
  $('subtitle').textContent = `${(state.presetLabel || state.preset || '').split(' · ')[0]} · memory tiers`;
  const label = state.pathLabel || state.path || '';
  const pos = state.steps > 0 ? `step ${state.step + 1} of ${state.steps}` : 'no steps';
  $('status').textContent = state.playing ? `Playing ${label} · ${pos}` : `Ready · ${label} · ${pos}`;
  $('status').classList.toggle('playing', !!state.playing);
  const play = $('pb-play');
  play.classList.toggle('is-playing', !!state.playing);
  play.setAttribute('aria-label', state.playing ? 'Pause' : 'Play');
  const scrub = $('pb-scrub');
  scrub.max = String(Math.max(0, state.steps - 1));
  scrub.value = String(state.step);
  scrub.setAttribute('aria-valuetext', pos);
  $('pb-pos').textContent = `${pos} · ${formatSeconds(state.tModel)} of ${formatSeconds(state.total)}`;
  const speed = $('pb-speed');
  const sv = String(state.speed);
  if (![...speed.options].some((o) => o.value === sv)) speed.append(el('option', { value: sv, text: `${sv}×` }));
  speed.value = sv;
  for (const b of document.querySelectorAll('#path-list .path')) b.setAttribute('aria-pressed', b.dataset.path === state.path ? 'true' : 'false');
  const entry = ledger.entries.find((e) => e.index === state.step);
  $('entry-now').textContent = entry ? entry.sentence : (state.note || '');
  markCurrent();
  if (entry) announce(`${label}, ${pos}: ${entry.sentence}`);
  // The canvas's selection, by pointer or by keys, is said aloud: its name and its leading figure.
  const sel = state.selection;
  const selKey = sel ? `${sel.id}|${sel.detail}` : '';
  if (sel && selKey !== lastSelection) announce(`Selected ${sel.name}: ${sel.detail}`);
  lastSelection = selKey;
  // Values an edit moved along with the edited one (in the page or in the canvas's scenario panel).
  if (state.adjustmentsSeq !== lastAdjustments) {
    if (lastAdjustments !== null) showNoticeGroup(adjustmentNotice(state.adjustments));
    lastAdjustments = state.adjustmentsSeq;
  }
  // On phones a panel opens below the schematic inside a taller canvas, brought into view when it opens.
  const frame = $('canvas-frame');
  const panelOpen = !!state.panelOpen;
  if (panelOpen !== frame.classList.contains('panel-open')) {
    frame.classList.toggle('panel-open', panelOpen);
    // Only when the reader opened it here: a link that opens with a panel leaves the page where it starts.
    if (panelOpen && shownOnce && !EMBED && matchMedia('(max-width: 760px)').matches) requestAnimationFrame(() => frame.scrollIntoView({ block: 'nearest' }));
  }
  shownOnce = true;
}

function refresh() {
  if (!ready) return;
  state = bridge.state();
  syncTourToState();
  syncLedger();
  renderState();
  writeHash();
  postEvent('state');
}

$('pb-play').addEventListener('click', () => { if (state && state.playing) bridge.pause(); else bridge.play(); refresh(); });
$('pb-prev').addEventListener('click', () => { bridge.step(-1); refresh(); });
$('pb-next').addEventListener('click', () => { bridge.step(1); refresh(); });
$('pb-scrub').addEventListener('input', (e) => { bridge.seek(Number(e.target.value)); refresh(); });
$('pb-speed').addEventListener('change', (e) => { const r = bridge.setSpeed(Number(e.target.value)); showNoticeGroup(refusalNotice(r.errors, 'call')); refresh(); });

// [SECTION] share links: the URL hash holds the whole view; back and forward re-apply it.
function currentHash() {
  const appHash = ready && bridge.has('view_hash') ? bridge.viewHash() : (location.hash || '').replace(/^#/, '').split('&').filter((x) => !x.startsWith('tour=')).join('&');
  return buildHash(appHash || '', tourTouched ? { tour: tourIndex + 1 } : {});
}
function linkFor(hash) {
  const u = new URL(location.href);
  u.search = '';
  u.hash = hash;
  return u.href;
}
function writeHash(forcePush = false) {
  const hash = currentHash();
  if (hash === lastHash && ('#' + hash === location.hash || (!hash && !location.hash))) return;
  const url = hash ? '#' + hash : location.pathname + location.search;
  // Inside an embed every write replaces the entry: an iframe's history entries would hijack the host's Back.
  if ((pushNext || forcePush) && !EMBED && lastHash !== null) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
  pushNext = false;
  lastHash = hash;
  if (EMBED) $('open-full').href = linkFor(hash);
}

// Applies a hash from the address bar: page keys here, the rest in the app; all refusals of one link become
// one notice naming each key. The walkthrough and the view then agree: a link with a walkthrough step but no
// path opens that step's path and entry; with both, the path wins and the walkthrough follows it. A page
// opened with no hash at all starts at the beginning of the walkthrough.
function applyLocationHash() {
  const raw = location.hash || '';
  if (lastHash !== null && raw.replace(/^#/, '') === lastHash) return;
  const { appHash, page, notices } = readHash(raw, { tourSteps: STEPS.length });
  const refused = [...notices];
  if (page.tour) { tourIndex = page.tour - 1; tourTouched = true; renderTour(); }
  if (ready) {
    const r = bridge.applyHash(appHash);
    refused.push(...(r.errors || []));
    const linkPath = /(^|&)path=/.test(appHash);
    state = bridge.state();
    if (page.tour && !linkPath) openTourStep(page.tour - 1);
    else if (page.tour && state && STEPS[page.tour - 1].path !== state.path) {
      refused.push({ code: 'inconsistent', field: 'tour', value: String(page.tour), allowed: `the walkthrough step of path ${state.path} (${stepIndexOfPath(state.path) + 1})` });
    } else if (!raw.replace(/^#/, '') && !page.tour) openTourStep(0);
    lastHash = null;
    refresh();
  }
  showNoticeGroup(refusalNotice(refused, 'link'));
}
window.addEventListener('hashchange', applyLocationHash);
window.addEventListener('popstate', applyLocationHash);

async function copyText(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    info(done);
  } catch {
    // Clipboard refused (permissions, insecure context): put the text where it can be copied by hand.
    const area = el('textarea', { class: 'copy-fallback', readonly: true, 'aria-label': 'Link' });
    area.value = text;
    const item = el('div', { class: 'notice info' }, [el('p', { text: 'Copy this link:' }), area,
      el('button', { type: 'button', class: 'btn icon small', 'aria-label': 'Dismiss', text: '✕', onclick: () => item.remove() })]);
    noticesEl.append(item);
    area.select();
  }
  $('copy-link').dataset.copied = text;
}
$('copy-link').addEventListener('click', () => copyText(linkFor(currentHash()), 'Link copied'));

// [SECTION] embed dialog
function embedSnippet() {
  const u = new URL(location.href);
  u.search = '?embed=1';
  u.hash = currentHash();
  const title = `tierscope: ${state ? state.pathLabel || state.path : 'memory tiers'}`;
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${attr(u.href)}" title="${attr(title)}" width="800" height="500" loading="lazy" allow="clipboard-write"></iframe>`;
}
$('open-embed').addEventListener('click', () => {
  $('embed-code').value = embedSnippet();
  $('embed-dialog').showModal();
  $('embed-code').select();
});
$('embed-copy').addEventListener('click', () => copyText($('embed-code').value, 'Embed code copied'));

// [SECTION] postMessage API for embeds (see docs/embedding.md): commands from the parent window only.
const ORIGINS = parseOrigins(location.search);
function postEvent(name) {
  if (!FRAMED || !ready) return;
  const msg = embedEvent(name, publicState());
  for (const target of ORIGINS.length ? ORIGINS : ['*']) window.parent.postMessage(msg, target);
}
window.addEventListener('message', (ev) => {
  if (!FRAMED || !senderAllowed(ev, { parent: window.parent, origins: ORIGINS })) return;
  const cmd = parseCommand(ev.data);
  if (!cmd) return;
  const answer = (r) => ev.source.postMessage(reply(cmd.id, r), ev.origin === 'null' ? '*' : ev.origin);
  if (!cmd.ok) { answer({ ok: false, errors: cmd.errors }); return; }
  const a = cmd.args;
  let r;
  switch (cmd.cmd) {
    case 'play': r = api.play(a.path); break;
    case 'pause': r = api.pause(); break;
    case 'seek': r = api.seek(a.step); break;
    case 'step': r = ready ? bridge.step(a.delta) : notReady('step'); if (ready) refresh(); break;
    case 'setParam': r = api.setParam(a.key, a.value); break;
    case 'setSpeed': r = api.setSpeed(a.speed); break;
    default: r = ready ? { ok: true, errors: [] } : notReady('getState');
  }
  answer({ ...r, state: publicState() || undefined });
});

// [SECTION] window.tierscope
const notReady = (what) => fail(argError('not-ready', what, '', 'after window.tierscope.ready resolves'));
function overridesOf(scenarioHash) {
  const out = {};
  for (const item of String(scenarioHash || '').split('&')) {
    const [k, v = ''] = item.split('=');
    if (k && k !== 'preset') out[k] = v;
  }
  return out;
}
function publicState() {
  if (!ready) return null;
  const s = bridge.state();
  if (!s) return null;
  return {
    preset: s.preset, presetLabel: s.presetLabel, overrides: overridesOf(s.scenarioHash), scenarioHash: s.scenarioHash, path: s.path, step: s.step,
    steps: s.steps, playing: !!s.playing, speed: s.speed, tModel: s.tModel, total: s.total, counters: s.counters,
    ledgerLength: s.ledgerLength, panels: s.panels, arch: s.arch, hash: currentHash(),
  };
}
const pathKeys = () => paths.map((p) => p.key);
function done(r) {
  refresh();
  const out = { ok: r.ok, errors: r.errors || [] };
  if (r.adjustments) out.adjustments = r.adjustments;
  return out;
}

let resolveReady = null, rejectReady = null;
const readyPromise = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
readyPromise.catch(() => {});  // failures are shown on the page; callers may still await and catch

const api = {
  ready: readyPromise,
  version: '0.2.0',
  // Plays `path` from its start, or resumes the current path when no path is given.
  play(path) {
    if (!ready) return notReady('play');
    const bad = checkPath(path, pathKeys());
    if (bad) return fail(bad);
    if (path !== undefined) {
      const r = bridge.setPath(path);
      if (!r.ok) return done(r);
      bridge.seek(0);
    }
    return done(bridge.play());
  },
  pause() { return ready ? done(bridge.pause()) : notReady('pause'); },
  seek(step) {
    if (!ready) return notReady('seek');
    const s = bridge.state();
    const bad = checkStep(step, s ? s.steps : 0);
    return bad ? fail(bad) : done(bridge.seek(step));
  },
  setParam(key, value) {
    if (!ready) return notReady('setParam');
    const bad = checkParam(key, value);
    return bad ? fail(bad) : done(bridge.setParam(key, String(value)));
  },
  setSpeed(speed) {
    if (!ready) return notReady('setSpeed');
    const bad = checkSpeed(speed);
    return bad ? fail(bad) : done(bridge.setSpeed(speed));
  },
  state: () => publicState(),
  stats() {
    if (!ready) return null;
    const s = bridge.stats();
    if (s && performance.memory) s.jsHeapBytes = performance.memory.usedJSHeapSize;
    return s;
  },
  layout: () => (ready ? bridge.layout() : null),
  link: () => linkFor(currentHash()),
  figures: () => (ready ? bridge.figures() : null),
  // The current path's ledger exactly as the app serialises it (the CLI's `ledger --format json`).
  ledger: () => (ready ? bridge.ledger() : null),
};
Object.defineProperty(window, 'tierscope', { value: Object.freeze(api), configurable: false, writable: false });

// [SECTION] loader
const canvas = $('canvas');
const statusEl = $('status');
const loading = $('loading');
const progress = $('progress');
const progressText = $('progress-text');
const FAILURES = {
  'no-webgl2': ['This browser cannot draw WebGL2',
    'tierscope draws its schematic with WebGL2. Use a current Chrome, Edge, Firefox or Safari, and check that hardware acceleration is on.'],
  fetch: ['The app could not be downloaded', ''],
  script: ['The app could not be loaded', ''],
  abort: ['The app stopped unexpectedly', ''],
  webgl2: ['A WebGL2 context could not be created', ''],
};
let failed = false;
function failLoad(code, detail) {
  if (failed) return;
  failed = true;
  const known = FAILURES[code] || ['Something went wrong', ''];
  $('fatal-title').textContent = known[0];
  $('fatal-detail').textContent = [known[1], detail].filter(Boolean).join(' ');
  $('fatal').hidden = false;
  loading.hidden = true;
  statusEl.textContent = 'Error: ' + known[0];
  resolveReady = null;
  if (rejectReady) rejectReady(new Error(code + (detail ? ': ' + detail : '')));
}

// A browser without WebGL2 at all is told before anything downloads. Whether a context can really be made
// (blocklisted GPU, lost device) shows when the app makes its own: a throwaway test context here would cost
// a whole second GPU context at start-up (hundreds of milliseconds with software rendering).
function hasWebGL2() {
  return typeof window.WebGL2RenderingContext === 'function';
}

function showProgress(loaded, total) {
  if (total > 0) {
    progress.value = Math.min(1, loaded / total);
    progressText.textContent = (loaded / 1e6).toFixed(1) + ' of ' + (total / 1e6).toFixed(1) + ' MB';
  } else {
    progress.removeAttribute('value');
    progressText.textContent = (loaded / 1e6).toFixed(1) + ' MB';
  }
}

// Downloads and compiles the .wasm at once: one copy of the body streams into the compiler while the other
// is counted for the progress bar. Browsers without streaming compile get the bytes-then-compile path.
async function compileWasm(url) {
  let response;
  try { response = await fetch(url, { credentials: 'same-origin' }); } catch (e) { throw new Error(url + ': ' + e.message); }
  if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
  const total = Number(response.headers.get('Content-Length')) || 0;
  if (!response.body || typeof response.body.tee !== 'function' || typeof WebAssembly.compileStreaming !== 'function') {
    return WebAssembly.compile(await fetchWasmBytes(response, total));
  }
  const [forCompiler, forProgress] = response.body.tee();
  const compiled = WebAssembly.compileStreaming(new Response(forCompiler, { headers: { 'Content-Type': 'application/wasm' } }));
  (async () => {
    const reader = forProgress.getReader();
    let loaded = 0;
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      loaded += value.length;
      showProgress(loaded, total);
    }
  })().catch(() => {});  // progress is cosmetic; the compiler reports real failures
  return compiled;
}

// Reads a response body chunk by chunk (for the progress bar) into one byte array.
async function fetchWasmBytes(response, total) {
  if (!response.body || !response.body.getReader) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) break;
    chunks.push(value);
    loaded += value.length;
    showProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

let onStateQueued = false;
function onAppState() {
  // The app may report from inside a call the page made; one refresh after that call returns is enough.
  if (onStateQueued) return;
  onStateQueued = true;
  queueMicrotask(() => { onStateQueued = false; refresh(); });
}

function appReady(m) {
  bridge = makeBridge(m);
  ready = true;
  // The page has its own playback bar; the full page also shows the counters (the embed hides them).
  bridge.hostControls(true, !EMBED);
  const p = bridge.paths();
  if (Array.isArray(p) && p.length) paths = p.map((x) => ({ key: String(x.key), label: String(x.label || x.key), summary: String(x.summary || '') }));
  const list = bridge.figures();
  figures = new Map(Array.isArray(list) ? list.map((f) => [f.id, f]) : []);
  loading.hidden = true;
  statusEl.textContent = 'Ready';
  for (const id of ['copy-link', 'open-embed', 'pb-prev', 'pb-play', 'pb-next', 'pb-scrub', 'pb-speed']) $(id).disabled = false;
  renderTour();
  renderPaths();
  lastHash = null;
  applyLocationHash();
  if (!location.hash) refresh();
  announce('tierscope is ready');
  if (resolveReady) resolveReady(api);
  postEvent('ready');
  registerServiceWorker();
}

// Figures change with the scenario: re-read them and refresh the walkthrough text when it changes.
let figuresKey = '';
function syncFigures() {
  if (!ready || !state || state.scenarioHash === figuresKey) return;
  figuresKey = state.scenarioHash;
  const list = bridge.figures();
  figures = new Map(Array.isArray(list) ? list.map((f) => [f.id, f]) : []);
  renderTour();
}

let module = null;
function start() {
  if (!hasWebGL2()) { failLoad('no-webgl2'); return; }
  statusEl.textContent = 'Loading…';
  // The WebAssembly downloads and compiles while tierscope.js loads, not after it.
  const wasm = compileWasm('tierscope.wasm');
  wasm.catch((e) => failLoad('fetch', e.message));
  const script = document.createElement('script');
  script.src = 'tierscope.js';
  script.onload = () => {
    if (typeof createTierscope !== 'function') { failLoad('script', 'tierscope.js defines no app.'); return; }
    createTierscope({
      canvas,
      locateFile: (path) => path,  // next to this page, whatever the base path
      instantiateWasm(imports, receive) {
        wasm
          .then((mod) => WebAssembly.instantiate(mod, imports).then((instance) => receive(instance, mod)))
          .catch((e) => failLoad('fetch', e.message));
        return {};
      },
      onFatal: (code, detail) => failLoad(code, detail),
      onAbort: (what) => failLoad('abort', String(what || '')),
      onReady() {
        // onReady can come before the factory's promise resolves; wait for the module object.
        const go = () => (module ? appReady(module) : setTimeout(go, 0));
        go();
      },
      onState: onAppState,
      print: (t) => console.log(t),
      printErr: (t) => console.warn(t),
    }).then((m) => { module = m; }, (e) => failLoad('abort', e && e.message));
  };
  script.onerror = () => failLoad('script', 'tierscope.js could not be fetched.');
  document.head.appendChild(script);
}
// A tap gives the canvas the keys (SDL cancels touch defaults, so the browser would not), without the ring
// that marks keyboard focus and without scrolling the page.
canvas.addEventListener('pointerdown', () => canvas.focus({ preventScroll: true, focusVisible: false }));
// Tab always leaves the canvas: the app's own keyboard handling would otherwise keep focus inside it (a
// keyboard trap). The capture phase on the frame runs before the app's listeners and stops only Tab.
$('canvas-frame').addEventListener('keydown', (e) => {
  if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey) e.stopPropagation();
}, true);

// [SECTION] embeds start when visible and pause when far off-screen (a docs page may hold many).
function startWhenVisible() {
  if (!EMBED || typeof IntersectionObserver !== 'function') { start(); return; }
  $('loading-title').textContent = 'Loads when visible…';
  let started = false, resumeOnShow = false;
  new IntersectionObserver((entries) => {
    const visible = entries.some((e) => e.isIntersecting);
    if (visible && !started) { started = true; $('loading-title').textContent = 'Loading the model…'; start(); }
    if (!ready) return;
    if (!visible && state && state.playing) { resumeOnShow = true; bridge.pause(); refresh(); }
    if (visible && resumeOnShow) { resumeOnShow = false; bridge.play(); refresh(); }
  }, { rootMargin: '200px' }).observe($('canvas-frame'));
  // Far off-screen (beyond about two screens) the frame gives its WebGL context back, so a long docs page
  // stays under the browser's limit of live contexts; the app rebuilds its GL objects on return.
  let lose = null;
  new IntersectionObserver((entries) => {
    const near = entries.some((e) => e.isIntersecting);
    if (!ready) return;
    if (!near && !lose) {
      const gl = canvas.getContext('webgl2');
      const ext = gl && gl.getExtension('WEBGL_lose_context');
      if (ext && !gl.isContextLost()) { lose = ext; ext.loseContext(); }
    } else if (near && lose) {
      const ext = lose;
      lose = null;
      ext.restoreContext();
    }
  }, { rootMargin: '200% 0px' }).observe($('canvas-frame'));
}

// [SECTION] offline: a versioned service worker caches the site after the first visit.
function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { scope: './' }).catch((e) => console.warn('offline cache unavailable: ' + e.message));
}

// [SECTION] start-up: the walkthrough and the list are readable before the app arrives.
if (EMBED) {
  $('open-full').hidden = false;
  $('open-full').href = linkFor(currentHash());
}
{
  const { page } = readHash(location.hash || '', { tourSteps: STEPS.length });
  if (page.tour) { tourIndex = page.tour - 1; tourTouched = true; }
}
renderTour();
renderPaths();
startWhenVisible();
