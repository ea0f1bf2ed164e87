// The header and the playback bar: the model's name, the counters, the status line, play/pause, step,
// scrub and speed, the live region, and the notices that follow the state (values an edit moved, a setup
// that cannot run). Every number and name here is the app's text.
import { adjustmentNotice, infeasibleNotice, refusalNotice } from './notices.mjs';
import { morphChildren, setAttr, setText } from './dom.mjs';

export function createHeader({ S, $, el, win, notices, refresh }) {
  function announce(text) {
    if (!text || text === S.lastAnnounced) return;
    S.lastAnnounced = text;
    $('announce').textContent = text;
  }

  // What each counter's number counts ("per GPU"), from the app's catalog.
  const scopeOf = (key) => ((S.catalog && S.catalog.counters) || []).find((k) => k.key === key)?.scope || '';

  // A counter: tokens in bold, their bytes beside them, and what the bytes count (one GPU's share).
  function counter(id, key, main, bytes) {
    const dd = $(id);
    const scope = bytes ? scopeOf(key) : '';
    morphChildren(dd, el('dd', {}, [el('span', { text: main }), el('span', { class: 'unit', text: ' ' + bytes }),
      el('span', { class: 'scope', text: scope ? ' ' + scope : '' })]));
    const title = `${main} tokens · ${bytes}${scope ? ' ' + scope : ''}`;
    if (dd.parentElement.title !== title) dd.parentElement.title = title;
  }

  // Labels and menus from the app's catalog: the counters' names for this model, the legend, the speeds.
  // A counter for a part the model lacks (no sliding window, no Engram tables) is hidden, not shown as 0.
  function renderCatalog() {
    const c = S.catalog;
    if (!c) return;
    const dt = { global: 'c-global', swa: 'c-swa', engram: 'c-engram', policy: 'c-policy' };
    for (const k of c.counters || []) {
      if (!dt[k.key]) continue;
      const box = $(dt[k.key]).parentElement;
      box.querySelector('dt').textContent = k.label;
      box.hidden = k.applies === false;
    }
    const speed = $('pb-speed');
    speed.replaceChildren(...(c.speeds || []).map((x) => el('option', { value: String(x.value), text: x.label })));
    if (S.state) speed.value = String(S.state.speed);
  }

  function render() {
    const st = S.state;
    if (!st) return;
    const t = st.counterText || {};
    counter('c-global', 'global', t.globalKvTokens || '—', t.globalKvBytes || '');
    counter('c-swa', 'swa', t.swaKvTokens || '—', t.swaKvBytes || '');
    const rows = scopeOf('engram');
    setText($('c-engram'), t.engramRows ? `${t.engramRows}${rows ? ' ' + rows : ''}` : '—');
    setText($('c-policy'), st.policy || '—');
    // The model's name (a preset label is "model · hardware"), then the node and its instances computed
    // from the scenario's layout ("8×B200 · two TP4 instances"): what the per-GPU and per-node numbers mean.
    const modelName = (st.presetLabel || st.preset || '').split(' · ')[0];
    setText($('subtitle-model'), modelName);
    setText($('subtitle-layout'), st.layoutText || '');
    // The tab names the model on screen too (a loaded config.json's name, not the preset it replaced).
    const title = `tierscope · ${modelName} · where LLM inference state lives`;
    if (win.document && win.document.title !== title) win.document.title = title;
    // The fleet view's clock runs over the run's hours: its words are the app's.
    const fleet = st.view === 'fleet' && st.fleet ? st.fleet : null;
    const label = fleet ? fleet.label : st.pathLabel || st.path || '';
    // The step as the link, seek() and state().step count it (from 0): step=1 reads "step 1 of steps 0–7" ("step 0 of 0–7" read as if there were none).
    const pos = fleet ? fleet.posText : st.steps > 0 ? `step ${st.step} of steps 0–${st.steps - 1}` : 'no steps';
    setText($('status'), st.playing ? `Playing ${label} · ${pos}` : `Ready · ${label} · ${pos}`);
    $('status').classList.toggle('playing', !!st.playing);
    const play = $('pb-play');
    play.classList.toggle('is-playing', !!st.playing);
    setAttr(play, 'aria-label', st.playing ? 'Pause' : 'Play');
    const scrub = $('pb-scrub');
    if (scrub.max !== String(Math.max(0, st.steps - 1))) scrub.max = String(Math.max(0, st.steps - 1));
    if (scrub.value !== String(st.step)) scrub.value = String(st.step);
    setAttr(scrub, 'aria-valuetext', pos);
    // The fleet's hour is a span of its clock ("hour 24 of 24 · 23:00–24:00"), the app's words.
    setText($('pb-pos'), fleet ? `${pos} · ${fleet.clockText || ''}` : `${pos} · ${st.tModelText || ''} of ${st.totalText || ''}`);
    const speed = $('pb-speed');
    const sv = String(st.speed);
    if (![...speed.options].some((o) => o.value === sv)) speed.append(el('option', { value: sv, text: `${sv}×` }));
    if (speed.value !== sv) speed.value = sv;
    for (const b of $('path-list').querySelectorAll('.path')) setAttr(b, 'aria-pressed', !fleet && b.dataset.path === st.path ? 'true' : 'false');
    setText($('entry-now'), st.entrySentence || st.note || '');
    if (st.entrySentence) announce(`${label}, ${pos}: ${st.entrySentence}`);
    // The selection on the canvas, by pointer or by keys, is said aloud: its name and its leading figure.
    const sel = st.selection;
    const selKey = sel ? `${sel.id}|${sel.detail}` : '';
    if (sel && selKey !== S.lastSelection) announce(`Selected ${sel.name}: ${sel.detail}`);
    S.lastSelection = selKey;
    // Values an edit moved along with the edited one (in the page or in the canvas's scenario panel).
    // (A link's own, on the first state too.) It applies until the scenario changes again.
    if (st.adjustmentsSeq !== S.lastAdjustments) {
      const hash = st.scenarioHash;
      if (S.lastAdjustments !== null || st.adjustmentsSeq > 0) notices.show(adjustmentNotice(st.adjustments), { until: (now) => now.scenarioHash !== hash });
      S.lastAdjustments = st.adjustmentsSeq;
    }
    notices.prune(st);
    // A setup that cannot run says why, in the page's flow, for as long as it lasts.
    const why = st.feasible === false ? st.infeasible || 'the setup does not fit' : '';
    const whyKey = why && `${why}|${(st.fixes || []).map((f) => f.label).join('|')}`;
    if (whyKey !== S.lastInfeasible) {
      S.lastInfeasible = whyKey;
      // Each fix applies through setParam, as the reader typing the value would.
      const onFix = (f) => {
        const r = S.bridge.setParam(f.field, f.value);
        if (!r.ok) notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes));
        refresh();
      };
      if (why) notices.show(infeasibleNotice(why, st.infeasibleErrors, st.fixes), { key: 'infeasible', onFix });
      else notices.clear('infeasible');
    }
    // A panel opens inside the canvas (a sheet below the schematic on phones): the canvas keeps its size and
    // the page stays where the reader put it.
    $('canvas-frame').classList.toggle('panel-open', !!st.panelOpen);
    S.shownOnce = true;
  }

  function wire() {
    $('pb-play').addEventListener('click', () => { if (S.state && S.state.playing) S.bridge.pause(); else S.bridge.play(); refresh(); });
    $('pb-prev').addEventListener('click', () => { S.bridge.step(-1); refresh(); });
    $('pb-next').addEventListener('click', () => { S.bridge.step(1); refresh(); });
    $('pb-scrub').addEventListener('input', (e) => { S.bridge.seek(Number(e.target.value)); refresh(); });
    $('pb-speed').addEventListener('change', (e) => {
      const r = S.bridge.setSpeed(Number(e.target.value));
      notices.show(refusalNotice(r.errors, 'call', S.catalog && S.catalog.errorCodes));
      refresh();
    });
  }

  return { announce, render, renderCatalog, wire };
}
