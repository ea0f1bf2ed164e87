// The animation ledger panel: the app's rows for the current path (ui::ledger_view_json, numbers already
// as text), the tier and object filters, click or Enter to seek, and the CSV and JSON downloads, which are
// the app's own bytes (the same as `tierscope ledger --format csv|json --tier … --object …`).

// A download's file name: path, preset and the filter, in safe characters only.
export function exportName(ledger, filter, ext) {
  const parts = ['tierscope', (ledger && ledger.path) || 'ledger', ledger && ledger.preset, filter.tier, filter.object].filter(Boolean);
  return parts.join('-').replace(/[^A-Za-z0-9._-]/g, '_') + '.' + ext;
}

import { refusalNotice } from './notices.mjs';
import { morphChildren, setText } from './dom.mjs';

const EMPTY = { path: '', label: '', preset: '', note: '', steps: 0, options: { tiers: [], objects: [] }, entries: [] };

export function createLedgerView({ S, $, el, refresh, notices, download, copyLink, win }) {
  let scrolledTo = -1;  // the entry the list was last scrolled to
  let scrollQueued = false;
  const ledger = () => S.ledger || EMPTY;

  // Re-reads the rows when the path, the scenario or the filter changed (or when asked).
  function sync(force = false) {
    if (!S.ready || !S.state) return;
    // The fleet view lists the run's hours: they change as the run crosses an hour (its version).
    const fleet = S.state.view === 'fleet' && S.state.fleet ? `fleet:${S.state.fleet.version}` : '';
    const key = `${S.state.path}|${S.state.scenarioHash}|${S.filter.tier}|${S.filter.object}|${S.state.compare ? S.state.compare.hash : ''}|${fleet}`;
    if (!force && key === S.ledgerKey) return;
    S.ledgerKey = key;
    let view = S.bridge.ledgerView(S.filter.tier, S.filter.object);
    if (!view || view.ok === false) {  // a filter this path does not have: back to all entries
      S.filter = { tier: '', object: '' };
      view = S.bridge.ledgerView('', '');
    }
    if (!S.ledger || !view || S.ledger.path !== view.path) scrolledTo = -1;  // another path: scroll afresh
    S.ledger = view && Array.isArray(view.entries) ? view : EMPTY;
    const opts = ledger().options || EMPTY.options;
    // The fleet view's hours have no tiers or objects to filter by.
    $('ledger-tier').parentElement.hidden = !opts.tiers.length && !opts.objects.length;
    $('ledger-object').parentElement.hidden = !opts.tiers.length && !opts.objects.length;
    for (const [id, list, cur] of [['ledger-tier', opts.tiers, 'tier'], ['ledger-object', opts.objects, 'object']]) {
      const sel = $(id);
      if (!list.some((o) => o.key === S.filter[cur])) S.filter[cur] = '';
      // The menus change with the path, not with a value: rebuilt only when their choices differ.
      const choices = list.map((o) => `${o.key}=${o.label}`).join('|');
      if (sel.dataset.choices !== choices) {
        sel.dataset.choices = choices;
        sel.replaceChildren(el('option', { value: '', text: 'any' }), ...list.map((o) => el('option', { value: o.key, text: o.label })));
      }
      if (sel.value !== S.filter[cur]) sel.value = S.filter[cur];
    }
    render();
  }

  // The text an entry's row shows, field by field, in the order row() places it.
  // Both times say what they are: when the entry starts on the path's clock, and how long it takes.
  const fieldsOf = (e) => [`at ${e.at}`, e.move, e.bytes, e.object + (e.phase ? ` · ${e.phase}` : ''), `takes ${e.duration}`,
    e.provenance || 'derived', e.sentence];
  const textNodes = new WeakMap();  // row → the text nodes its fields are written into

  // One entry's row; the current one (at `step`) is marked and carries its formula and sources, and the
  // list's one tab stop is on it (or on the first row), as markCurrent() would leave them.
  function row(e, step, tabStop) {
    const doc = $('ledger-list').ownerDocument;
    const texts = fieldsOf(e).map((t) => doc.createTextNode(t));
    const [at, move, bytes, obj, dur, badge, sentence] = texts;
    // Screen readers hear what each number is; sighted readers get the same from the column positions.
    const sr = (t) => el('span', { class: 'sr-only', text: t });
    const head = el('span', { class: 'row-head' }, [
      el('span', { class: 't', title: 'starts at (model time)' }, [at]),
      el('span', { class: 'move' }, move),
      el('span', { class: 'bytes', title: 'bytes moved' }, [sr(', '), bytes]),
    ]);
    const what = el('span', { class: 'row-what' }, [
      el('span', { class: 'obj' }, obj),
      el('span', { class: 'dur', title: 'duration' }, [sr(', '), dur]),
      el('span', { class: 'badge', title: 'where the number comes from' }, [sr(', source: '), badge]),
    ]);
    const on = e.index === step;
    const li = el('li', { 'data-index': e.index }, [el('button', {
      type: 'button', class: on ? 'entry current' : 'entry', tabindex: tabStop ? '0' : '-1', 'aria-current': on ? 'step' : 'false',
      'data-index': e.index, 'data-step': e.step,
    }, [head, what, el('span', { class: 'sentence' }, sentence)]), on ? detail(e) : null]);
    textNodes.set(li, texts);
    return li;
  }
  // The current entry shows its formula, and where its inputs come from one click away: a list of keys and
  // links that can run to a page of text, which would push the rest of the ledger out of view. A reader who
  // opens it keeps it open while values change and the entry stays current.
  // The box on screen is the truth: its 'toggle' event arrives a task after the click, so a value that
  // changes in between would otherwise rebuild it from a stale record and shut it under the reader.
  let sourcesOpen = -1;
  function noteSources(index, open) {
    if (open) sourcesOpen = index;
    else if (sourcesOpen === index) sourcesOpen = -1;
  }
  function sourcesShown(index) {
    const list = $('ledger-list'), live = list && list.querySelector(`details.sources-box[data-index="${index}"]`);
    if (live) noteSources(index, live.open);
    return sourcesOpen === index;
  }
  const detail = (e) => el('div', { class: 'detail' }, [
    el('p', { class: 'formula', text: e.formula }),
    e.sources ? el('details', { class: 'sources-box', 'data-index': e.index, open: sourcesShown(e.index) }, [
      el('summary', { text: 'Sources' }), el('p', { class: 'sources', text: e.sources })]) : null]);

  // The rows on screen are these entries' (same steps in the same places): a changed value then rewrites
  // only the fields whose text changed, in place, so the browser lays out those words and nothing else.
  // A row the build prerendered (row()'s own markup, parsed by the browser) is adopted rather than rebuilt:
  // its fields' text nodes are found where row() puts them, so the app's first sync rewrites words, not the
  // list (rebuilding it was the longest part of the page's start on a phone).
  const FIELD_SELECTORS = ['.t', '.move', '.bytes', '.obj', '.dur', '.badge', '.sentence'];
  function adopt(li) {
    const button = li.firstElementChild;
    if (!button) return false;
    const texts = FIELD_SELECTORS.map((sel) => {
      const box = button.querySelector(sel);
      if (!box) return null;
      const t = box.lastChild;
      if (t && t.nodeType === 3) return t;
      // An empty field was written as no text at all: its (empty) node goes back where row() keeps it.
      const empty = box.ownerDocument.createTextNode('');
      box.append(empty);
      return empty;
    });
    if (texts.some((t) => !t)) return false;
    textNodes.set(li, texts);
    return true;
  }
  function patchRows(list, entries) {
    const rows = list.children;
    if (rows.length !== entries.length) return false;
    for (let i = 0; i < rows.length; i++) {
      const li = rows[i], e = entries[i];
      if (!li.firstElementChild || li.dataset.index !== String(e.index) || li.firstElementChild.dataset.step !== String(e.step)) return false;
      if (!textNodes.has(li) && !adopt(li)) return false;
    }
    for (let i = 0; i < rows.length; i++) {
      const texts = textNodes.get(rows[i]);
      fieldsOf(entries[i]).forEach((t, k) => { if (texts[k].data !== t) texts[k].data = t; });
      const shown = rows[i].querySelector('.detail');
      if (shown) morphChildren(shown, detail(entries[i]));
    }
    return true;
  }

  // While a scenario is pinned: the path's timeline in A and in B, one bar each, entries end to end at the
  // same scale, so where B gains or loses time shows at a glance (each entry says its step and duration).
  function renderTimelines() {
    const box = $('ledger-compare');
    const cmp = S.state && S.state.compare ? S.bridge.compare() : null;
    box.hidden = !cmp || !cmp.timelines;
    if (box.hidden) { box.replaceChildren(); return; }
    const t = cmp.timelines;
    const longest = Math.max(t.a.total, t.b.total) || 1;
    const bar = (name, line) => el('div', { class: 'timeline' }, [
      el('span', { class: 'timeline-name', text: `${name} · ${line.total_text}` }),
      el('div', { class: 'timeline-track', role: 'list', 'aria-label': `${name}: ${line.total_text}` },
        line.entries.filter((e) => !e.overlapped && e.seconds > 0).map((e, i) => {
          const seg = el('span', {
            class: `timeline-seg n${i % 6}`, role: 'listitem', title: `${e.step}${e.phase ? ' · ' + e.phase : ''}: ${e.text}`,
            'aria-label': `${e.step}: ${e.text}`,
          });
          seg.style.width = `${(100 * e.seconds / longest).toFixed(3)}%`;  // through the CSSOM: allowed under a strict CSP
          return seg;
        })),
    ]);
    box.replaceChildren(el('p', { class: 'muted', text: `${cmp.pathLabel}: A ${cmp.a.label} · B ${cmp.b.label}` }), bar('A', t.a), bar('B', t.b));
  }

  function render() {
    renderTimelines();
    const l = ledger();
    setText($('ledger-path'), l.label ? `· ${l.label}` : '');
    const step = S.state ? S.state.step : -1;
    const at = l.entries.findIndex((e) => e.index === step);
    const list = $('ledger-list');
    if (!patchRows(list, l.entries)) list.replaceChildren(...l.entries.map((e, i) => row(e, step, i === Math.max(0, at))));
    const empty = $('ledger-empty');
    empty.hidden = l.entries.length > 0;
    // An empty path says why (the app's note: a setup that cannot run, a model without this part).
    setText(empty, l.steps === 0 ? (l.note || 'Choose an animation to list what moves where, step by step.') : 'No entry matches the filter.');
    for (const id of ['ledger-csv', 'ledger-json', 'ledger-link']) $(id).disabled = !S.ready || l.entries.length === 0;
    markCurrent();
  }

  // Highlights the active entry, shows its formula and source, and scrolls only the list (never the page,
  // which matters inside an embed).
  function markCurrent() {
    const list = $('ledger-list');
    const step = S.state ? S.state.step : -1;
    const rows = [...list.children];
    const current = rows.find((li) => Number(li.dataset.index) === step) || null;
    // The list is one tab stop: the current entry, or the first when none is current.
    const tabStop = current || rows[0];
    for (const li of rows) {
      const on = li === current;
      const btn = li.firstElementChild;
      // Written only when it changes: each write makes the browser restyle the row.
      if (btn.classList.contains('current') !== on) {
        btn.classList.toggle('current', on);
        btn.setAttribute('aria-current', on ? 'step' : 'false');
      }
      const tab = li === tabStop ? 0 : -1;
      if (btn.tabIndex !== tab) btn.tabIndex = tab;
      const shown = li.querySelector('.detail');
      if (on && !shown) {
        const e = ledger().entries.find((x) => x.index === step);
        if (e) li.append(detail(e));
      } else if (!on && shown) shown.remove();
    }
    // Scrolling reads the layout, so it happens when the current entry changed (a seek, a step), not on
    // every update of the rows (a dragged value keeps the entry and the list's scroll); and in the next
    // frame, once, where the browser lays the page out anyway: read in the middle of the page's start (or of
    // a refresh that goes on to change the tables), it would lay the whole page out an extra time.
    if (current && step !== scrolledTo && !scrollQueued) {
      scrollQueued = true;
      const frame = win && typeof win.requestAnimationFrame === 'function' ? (fn) => win.requestAnimationFrame(fn) : (fn) => fn();
      frame(scrollToCurrent);
    }
  }

  let waitingToShow = null;  // the observer that scrolls once the list is laid out again
  function scrollToCurrent() {
    scrollQueued = false;
    const list = $('ledger-list');
    const step = S.state ? S.state.step : -1;
    const current = [...list.children].find((li) => Number(li.dataset.index) === step);
    if (!current || step === scrolledTo) return;
    // A list the browser is not laying out (off screen on a phone, content-visibility: auto) is scrolled
    // when it nears the screen: measuring it now would lay out what the page chose to skip.
    if (typeof list.checkVisibility === 'function' && !list.checkVisibility({ contentVisibilityAuto: true }) &&
        win && typeof win.IntersectionObserver === 'function') {
      if (!waitingToShow) {
        waitingToShow = new win.IntersectionObserver((seen) => {
          if (!seen.some((e) => e.isIntersecting)) return;
          waitingToShow.disconnect();
          waitingToShow = null;
          scrollToCurrent();
        });
        waitingToShow.observe(list);
      }
      return;
    }
    scrolledTo = step;
    // Positions from the boxes as drawn, so no offsetParent assumption can put them off.
    const top = current.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    const bottom = top + current.offsetHeight;
    // An entry taller than the list (a long formula and sources) shows from its start.
    if (top < list.scrollTop || bottom - top > list.clientHeight) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  const entryAt = (step) => ledger().entries.find((e) => e.index === step) || null;

  // The app's bytes for this path and filter, as the command line writes them.
  function save(format) {
    const r = S.bridge.exportText('ledger', format, S.filter.tier, S.filter.object);
    if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes)); return r; }
    download(exportName(ledger(), S.filter, format), r.text, format === 'csv' ? 'text/csv' : 'application/json');
    return r;
  }

  function wire() {
    // 'toggle' does not bubble: the list hears it on its way down.
    $('ledger-list').addEventListener('toggle', (e) => {
      const box = e.target;
      if (!box || !box.classList || !box.classList.contains('sources-box')) return;
      noteSources(Number(box.dataset.index), box.open);
    }, true);
    // A click or Enter on an entry seeks to it (one listener for the list: its rows are updated in place).
    $('ledger-list').addEventListener('click', (e) => {
      const b = e.target && e.target.closest ? e.target.closest('button.entry') : null;
      if (!b || !S.ready) return;
      S.pushNext = true;
      S.bridge.pause();
      S.bridge.seek(Number(b.dataset.index));
      refresh();
    });
    // Arrow keys move between entries (one tab stop for the whole list); Enter or a click seeks.
    $('ledger-list').addEventListener('keydown', (e) => {
      const buttons = [...$('ledger-list').querySelectorAll('button.entry')];
      const at = buttons.indexOf($('ledger-list').ownerDocument.activeElement);
      if (at < 0) return;
      const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const b = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
      buttons.forEach((x) => { x.tabIndex = x === b ? 0 : -1; });
      b.focus();
    });
    $('ledger-tier').addEventListener('change', (e) => { S.filter.tier = e.target.value; sync(true); });
    $('ledger-object').addEventListener('change', (e) => { S.filter.object = e.target.value; sync(true); });
    $('ledger-csv').addEventListener('click', () => save('csv'));
    $('ledger-json').addEventListener('click', () => save('json'));
    $('ledger-link').addEventListener('click', () => copyLink('Link to this entry copied'));
  }

  return { sync, render, markCurrent, entryAt, save, wire };
}
