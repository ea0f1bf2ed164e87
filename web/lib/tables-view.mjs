// The figures and the design card check as DOM tables (readable by screen readers and search engines,
// copyable), fed by the app's JSON — the same JSON `tierscope figures|check-card --format json` prints —
// with CSV and JSON downloads of those same bytes.
import { refusalNotice } from './notices.mjs';
import { scopeWords } from './figures.mjs';

export function createTables({ S, $, el, win, notices, download }) {
  let figuresKey = null, cardKey = null;

  const cell = (tag, text, props = {}) => el(tag, { ...props, text });

  // A value cell: the number, then what it counts in its own span ("74.64 GB" "per GPU").
  const valueCell = (f, text) => {
    const words = scopeWords(f);
    return el('td', { class: 'num' }, words ? [text, el('span', { class: 'scope', text: ' ' + words })] : [text]);
  };

  const head = (names) => el('tr', {}, names.map((n) => cell('th', n, { scope: 'col' })));

  function renderFigures() {
    const list = [...S.figures.all().values()];
    const table = $('figures-table');
    const body = table.querySelector('tbody');
    // While a scenario is pinned, each figure shows A (pinned), B (now) and B ÷ A, the app's words for each.
    const cmp = S.state && S.state.compare ? S.bridge.compare() : null;
    if (cmp && Array.isArray(cmp.figures)) {
      const byId = new Map(cmp.figures.map((f) => [f.id, f]));
      table.querySelector('thead').replaceChildren(head(['Figure', `A (pinned) · ${cmp.a ? cmp.a.label : ''}`, `B (now) · ${cmp.b ? cmp.b.label : ''}`, 'B ÷ A', 'Formula (B)']));
      body.replaceChildren(...list.map((f) => {
        const c = byId.get(f.id) || {};
        return el('tr', { 'data-fig': f.id, class: c.same ? 'same' : 'differs' }, [
          cell('th', f.label, { scope: 'row' }), c.a ? valueCell(f, c.a) : cell('td', '', { class: 'num' }), valueCell(f, c.b || f.text),
          cell('td', c.ratio || '', { class: 'num' }), cell('td', f.formula, { class: 'formula' })]);
      }));
    } else {
      table.querySelector('thead').replaceChildren(head(['Figure', 'Value', 'Formula', 'Source']));
      body.replaceChildren(...list.map((f) => el('tr', { 'data-fig': f.id, class: f.feasible === false ? 'not-computed' : undefined }, [
        cell('th', f.label, { scope: 'row' }), valueCell(f, f.text), cell('td', f.formula, { class: 'formula' }),
        cell('td', f.provenance)])));
    }
    $('figures-count').textContent = `· ${list.length}`;
  }

  // The card check costs a search per claim, so it runs when its table is open (or about to be read).
  function renderCard() {
    const r = S.bridge.exportText('card', 'json');
    if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes)); return; }
    let data;
    try { data = JSON.parse(r.text); } catch { return; }
    const claims = Array.isArray(data.claims) ? data.claims : [];
    // The model's value says what it counts, as the figure it checks does.
    const figs = S.figures.all();
    $('card-table').querySelector('tbody').replaceChildren(...claims.map((c) => el('tr', { 'data-claim': c.id, 'data-verdict': c.verdict }, [
      cell('th', c.claim, { scope: 'row' }), cell('td', c.band, { class: 'num' }),
      figs.get(c.figure) ? valueCell({ ...figs.get(c.figure), feasible: c.value_text !== 'not computed' }, c.value_text) : cell('td', c.value_text, { class: 'num' }),
      cell('td', c.card_value_text, { class: 'num' }), cell('td', c.verdict, { class: 'verdict' }),
      cell('td', [c.condition && `Only if ${c.condition}.`, c.reason, c.note].filter(Boolean).join(' '))])));
    $('card-count').textContent = `· ${claims.length} claims`;
  }

  // Follows the scenario: the figures table always, the card table while it is open.
  function sync() {
    if (!S.ready || !S.state) return;
    const key = S.state.scenarioHash + '|' + (S.state.compare ? S.state.compare.hash : '');
    // A closed table waits: 111 rows rebuilt on every dragged value would cost a frame for nothing seen.
    if (key !== figuresKey && $('figures-details').open) { figuresKey = key; renderFigures(); }
    if ($('card-details').open && key !== cardKey) { cardKey = key; renderCard(); }
  }

  function save(what, format) {
    const r = S.bridge.exportText(what, format);
    if (!r.ok) { notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes)); return r; }
    const name = `tierscope-${what === 'card' ? 'card-check' : 'figures'}-${(S.state && S.state.preset) || 'scenario'}`.replace(/[^A-Za-z0-9._-]/g, '_');
    download(`${name}.${format}`, r.text, format === 'csv' ? 'text/csv' : 'application/json');
    return r;
  }

  // Empties both tables (the build wrote the default scenario's rows; a link named another): each is
  // filled again, for the scenario on screen, when it opens.
  function clear() {
    figuresKey = null; cardKey = null;
    for (const id of ['figures-table', 'card-table']) $(id).querySelector('tbody').replaceChildren();
    for (const id of ['figures-count', 'card-count']) $(id).textContent = '';
    sync();
  }

  function enable(on) {
    for (const id of ['figures-csv', 'figures-json', 'card-csv', 'card-json']) $(id).disabled = !on;
  }

  function wire() {
    $('card-details').addEventListener('toggle', () => { if (S.ready) sync(); });
    $('figures-details').addEventListener('toggle', () => { if (S.ready) sync(); });
    $('figures-csv').addEventListener('click', () => save('figures', 'csv'));
    $('figures-json').addEventListener('click', () => save('figures', 'json'));
    $('card-csv').addEventListener('click', () => save('card', 'csv'));
    $('card-json').addEventListener('click', () => save('card', 'json'));
    enable(false);
  }

  return { sync, renderFigures, renderCard, clear, wire, enable, save, win };
}
