// The trust band in the Serve panel: beside mean TTFT, mean TPOT and output tokens/s per GPU, how the model
// fared on the measured runs nearest to this setup (model ÷ measured; the worker's answer, `tierscope serve`'s
// words and numbers for the same link), with a button per figure that lists those runs as a table. It says
// "computing…" while the replay that yields the band runs, and why where no measured run is near.
import { setText } from './dom.mjs';

export const COMPUTING = 'computing…';

// The rows of the band's table and of the runs' table from the worker's answer ({trustRows, trustRuns}):
// plain data, so node's tests read them as they are.
export function trustTable(answer) {
  return ((answer && answer.trustRows) || []).map((r) => ({ key: r.key, label: r.label, value: r.value, text: r.text, near: !!r.near }));
}
export function trustRunRows(answer, key) {
  return ((answer && answer.trustRuns) || []).map((run) => {
    const f = (run.figures && run.figures[key]) || {};
    return [run.model, run.gpu, run.engine, `${run.isl}/${run.osl}`, String(run.concurrency), run.layout, f.measured, f.model, f.ratio, run.id];
  });
}

export function createServeTrust({ $, el }) {
  let answer = null;  // the last finished replay's answer
  let shown = '';     // the figure whose runs are listed ('' for none)
  let busy = false;   // a replay runs: the bands on screen are not its own yet

  function button(row) {
    if (!row.near) return null;
    const open = shown === row.key;
    return el('button', { type: 'button', class: 'btn serve-trust-list', 'data-key': row.key, 'aria-controls': 'serve-trust-runs',
      'aria-expanded': open ? 'true' : 'false', text: open ? 'Hide the runs' : 'List the runs' });
  }

  function renderRuns() {
    const row = trustTable(answer).find((r) => r.key === shown);
    $('serve-trust-runs').hidden = !row;
    if (!row) return;
    setText($('serve-trust-runs-caption'), `Measured runs like this, for ${row.label}: ${row.text}`);
    $('serve-trust-runs-rows').replaceChildren(...trustRunRows(answer, shown).map((cells) =>
      el('tr', {}, cells.map((c, i) => (i === cells.length - 1 ? el('td', { class: 'serve-trust-id' }, [el('code', { text: c })]) : el('td', { text: c }))))));
  }

  // The band's table: each figure's label and value, its band (or "computing…" while a replay runs, the
  // figure's own value then being the last run's), and its button.
  function render() {
    const rows = trustTable(answer);
    $('serve-trust').hidden = !rows.length && !busy;
    setText($('serve-trust-status'), busy && !rows.length ? `Measured runs like this: ${COMPUTING}` : '');
    $('serve-trust-table').hidden = !rows.length;
    $('serve-trust-rows').replaceChildren(...rows.map((r) => {
      const b = button(r);
      if (b && busy) b.disabled = true;
      return el('tr', {}, [el('th', { scope: 'row', text: r.label }), el('td', { text: busy ? '' : r.value }),
        el('td', {}, [el('span', { class: 'serve-trust-band', text: busy ? COMPUTING : r.text }), b])]);
    }));
    if (busy) shown = '';
    renderRuns();
  }

  // A replay has started: its bands come with its result.
  function computing() {
    busy = true;
    render();
  }

  // A replay has ended: its bands, or (cancelled, refused: no answer) the last finished one's again.
  function show(r) {
    busy = false;
    if (r) answer = r;
    if (shown && !trustTable(answer).some((x) => x.key === shown && x.near)) shown = '';
    render();
  }

  function wire() {
    $('serve-trust-rows').addEventListener('click', (e) => {
      const b = e.target && e.target.closest ? e.target.closest('button.serve-trust-list') : null;
      if (!b || b.disabled) return;
      shown = shown === b.dataset.key ? '' : b.dataset.key;
      render();
      const again = $('serve-trust-rows').querySelector(`button.serve-trust-list[data-key="${shown || b.dataset.key}"]`);
      if (again) again.focus();
    });
  }

  return { computing, show, wire, status: () => ({ busy, shown, rows: trustTable(answer) }) };
}
