// The "Start here" walkthrough and the list of animations. The walkthrough always tells what the canvas
// shows (one story on screen): the path on screen, or the fleet view's day of traffic while that is open,
// in the wording for this model (state().arch), with this scenario's numbers from the app's figures; the
// list's names come from the app's catalog.
import { STEPS, INTRO, FLEET_CARD, parseTemplate, variantFor, stepIndexOfPath, templatesOf } from './tour.mjs';

// The walkthrough's first screen (before step 1) as a step index, and the app's walkthrough step for it
// (`tour=intro`).
export const INTRO_INDEX = -1;
export const APP_TOUR_INTRO = -1;
import { morphChildren, setAttr, setText } from './dom.mjs';
import { chipText } from './figures.mjs';

export function createWalkthrough({ S, $, el, refresh, announce, writeHash }) {
  const arch = () => (S.state && S.state.arch) || null;
  const inFleet = () => !!(S.state && S.state.view === 'fleet');
  // A number chip: the value as the app writes it, then what it counts ("273 sessions per instance"), less
  // what the words after the chip say already ("activates {x} per token", "{x} on each GPU per step"). A figure of a setup that
  // cannot run says so and points at the ways out (the notice above the canvas).
  const figureText = (id, after = '') => {
    const f = S.figures.get(id);
    if (!f) return '…';
    if (f.feasible === false) return '— (cannot run)';
    return chipText(f, after);
  };
  const cannotRun = () => !!(S.state && S.state.feasible === false);
  // A figure's value for wordings that choose their claim from the numbers (undefined until read, or where
  // the setup cannot run).
  const figureValue = (id) => { const f = S.figures.get(id); return f && f.feasible !== false && typeof f.value === 'number' ? f.value : undefined; };
  // The decode step's terms as the app splits it (the breakdown chart's bars); none before the app arrives.
  const terms = () => (S.catalog && S.catalog.decodeTerms) || [];
  const stepAt = (i) => (i === INTRO_INDEX ? INTRO : STEPS[i]);
  const wordsAt = (i) => variantFor(stepAt(i), arch(), figureValue, terms());
  const countText = (i) => (i === INTRO_INDEX ? '· before step 1' : `· ${i + 1} of ${STEPS.length}`);
  // The step on screen is the app's (state().tour, which the app keeps with the path on screen): its first
  // screen, or the step that tells the path on screen. Before the app arrives: the step a link names, or the
  // one the reader chose meanwhile (the app opens it when it arrives).
  function current() {
    const st = S.ready ? S.state : null;
    if (!st) return S.earlyTour;
    if (st.tour === APP_TOUR_INTRO) return INTRO_INDEX;
    const i = stepIndexOfPath(st.path);
    return i >= 0 ? i : INTRO_INDEX;
  }

  // The figure a reader clicked in the text: its formula and source below the text, kept (with this
  // scenario's numbers) while the step stays, until another step is shown.
  let shown = { step: -1, id: '' };
  let shownBody = '';  // the step and words the text shows (its numbers aside)
  function showFigure(id) {
    const box = $('tour-look');
    const f = S.ready ? S.figures.pick([id]).get(id) : undefined;
    shown = { step: inFleet() ? -2 : current(), id };
    if (!f) { setText(box, 'This number appears once the model has loaded.'); return; }
    morphChildren(box, el('p', {}, [el('strong', { text: `${f.label || id}: ` }), el('span', { text: f.formula || f.text }), ' ',
      el('span', { class: 'badge', text: f.provenance || 'derived' }), f.sources ? el('span', { class: 'sources', text: ' ' + f.sources }) : null]));
  }

  // A slot shows "…" until the app has computed its number. arch.* slots quote the model's facts; the
  // app writes numbers there already grouped (state().arch holds plain integers, shown as the app's text).
  function slot(id, after = '') {
    if (id.startsWith('arch.')) {
      const a = arch();
      const v = a ? a[id.slice(5)] : undefined;
      const text = a && a.text && typeof a.text[id.slice(5)] === 'string' ? a.text[id.slice(5)] : typeof v === 'string' && v ? v : '…';
      return el('span', { class: text === '…' ? 'fig pending' : 'fig arch', text });
    }
    const f = S.figures.get(id);
    return el('button', { type: 'button', class: f ? 'fig' : 'fig pending', 'data-fig': id,
      'aria-label': f ? undefined : 'computing', text: figureText(id, after) });
  }

  // Rewrites only what changed: a dragged value changes a few numbers in the text, not the step.
  // In the fleet view the text is the fleet card, the dots mark no step, Back returns to the step the reader
  // left and Play plays the day on the fleet clock.
  let shownFleet = false;
  let shownIndex = null;
  function render() {
    const i = current();
    const fleet = inFleet();
    shownFleet = fleet;
    shownIndex = i;
    const step = fleet ? FLEET_CARD : stepAt(i);
    const slotsOf = (w) => templatesOf(w).map(parseTemplate).flat().filter((p) => p.figure && !p.figure.startsWith('arch.')).map((p) => p.figure);
    // Only this step's numbers are read from the app (and the one a reader opened), in one read; the decode
    // step's terms are read too, whichever step shows: the step that names its largest cost chooses its
    // words from them, and the dots name every step.
    if (S.ready) {
      S.figures.pick(slotsOf(variantFor(step, arch(), figureValue, terms())).concat(terms().flatMap((t) => t.figures), shown.id ? [shown.id] : []));
    }
    const words = variantFor(step, arch(), figureValue, terms());
    setText($('tour-count'), fleet ? '· the fleet view' : countText(i));
    setText($('tour-title'), words.title);
    const templates = templatesOf(words);
    // The same words with new numbers are updated in place; other words (another step, this model's
    // wording, the numbers arriving) are new text, drawn afresh. The first screen's tiers are a list. A chip
    // is given the words after it, so it does not say twice what it counts.
    const filled = (t) => { const parts = parseTemplate(t); return parts.map((part, k) => (part.figure ? slot(part.figure, (parts[k + 1] && parts[k + 1].text) || '') : part.text)); };
    const blocks = [...words.body.map((t) => el('p', {}, filled(t))),
      ...(words.list.length ? [el('ul', { class: 'tour-tiers', 'aria-label': 'The four memory tiers' }, words.list.map((t) => el('li', {}, filled(t))))] : []),
      ...words.after.map((t) => el('p', {}, filled(t)))];
    // A setup that cannot run says so first, and where the ways out are.
    const stuck = !fleet && cannotRun();
    if (stuck) blocks.unshift(el('p', { class: 'tour-cannot-run', text: 'This setup cannot run, so its times are not computed: the notice above the canvas says why, with one-click fixes.' }));
    const fresh = el('div', {}, blocks);
    const bodyKey = `${fleet ? 'fleet' : i}|${stuck}|${templates.join('|')}|${fresh.querySelectorAll('.pending').length}`;
    if (bodyKey === shownBody) morphChildren($('tour-body'), fresh);
    else { shownBody = bodyKey; $('tour-body').replaceChildren(...fresh.children); }
    if (shown.step === (fleet ? -2 : i) && shown.id) showFigure(shown.id);
    else { shown = { step: -1, id: '' }; setText($('tour-look'), `Look at ${words.look}.`); }
    const dots = $('tour-dots');
    if (dots.children.length !== STEPS.length) {
      dots.replaceChildren(...STEPS.map(() => el('li', {}, el('button', { type: 'button', class: 'dot' }))));
    }
    [...dots.querySelectorAll('.dot')].forEach((d, k) => {
      setAttr(d, 'aria-current', k === i && !fleet ? 'step' : 'false');
      setAttr(d, 'aria-label', `Step ${k + 1}: ${wordsAt(k).title}`);
    });
    $('tour-back').disabled = i === INTRO_INDEX && !fleet;
    $('tour-next').disabled = i === STEPS.length - 1;
    // The first screen hands over to step one by name.
    setText($('tour-next'), i === INTRO_INDEX && !fleet ? `${INTRO.next} ▶` : 'Next ▶');
    $('tour-play').disabled = !S.ready;
    setText($('tour-back'), fleet ? '◀ Walkthrough' : '◀ Back');
    if (fleet) setAttr($('tour-back'), 'aria-label', i === INTRO_INDEX ? 'Back to the walkthrough' : `Back to the walkthrough, step ${i + 1}`);
    else $('tour-back').removeAttribute('aria-label');
    setAttr($('tour-play'), 'aria-label', fleet ? 'Play the day' : 'Play this step');
  }

  const clamp = (i) => Math.max(INTRO_INDEX, Math.min(STEPS.length - 1, i));
  const appTour = (i) => (i === INTRO_INDEX ? APP_TOUR_INTRO : i + 1);

  // Puts the view on a walkthrough step, in one app operation (app::open_tour_step): the fleet view closes
  // (the sweep chart's choice stays), the step's path opens paused on the ledger entry it talks about (the
  // first screen: its path's first entry), or with `play` plays from its start.
  function openStep(i, { play = false } = {}) {
    S.bridge.openTourStep(appTour(clamp(i)), play);
    S.state = S.bridge.state();
  }

  // Shows a walkthrough step: its text, its path, and the ledger entry it talks about (highlighted).
  function go(i, { play = false } = {}) {
    const to = clamp(i);
    if (S.ready) {
      S.pushNext = true;
      openStep(to, { play });
    } else {
      S.earlyTour = to;
      S.earlyTourChosen = true;
    }
    render();
    const at = current();
    announce(at === INTRO_INDEX ? `Walkthrough, before step 1: ${wordsAt(INTRO_INDEX).title}`
      : `Walkthrough step ${at + 1} of ${STEPS.length}: ${wordsAt(at).title}`);
    if (!S.ready) return;  // the app opens this step when it arrives
    refresh();
    writeHash();
  }

  // The walkthrough follows the view: whatever changed the path (the list, a link, Back, the API, the
  // canvas), the walkthrough shows the step that tells it.
  function syncToState() {
    if (!S.state) return;
    if (current() !== shownIndex || inFleet() !== shownFleet) render();
  }

  // Play in the fleet view plays the day from its first hour on the fleet clock (as the playback bar does).
  function playDay() {
    if (!S.ready) return;
    S.pushNext = true;
    S.bridge.seek(0);
    S.bridge.play();
    announce('Playing the day of traffic from its first hour');
    refresh();
  }

  // The animations, named by the app for this model. Before the app arrives the list says it is coming.
  function renderPaths() {
    const list = $('path-list');
    const paths = S.catalog ? S.catalog.paths : [];
    if (!paths.length) {
      // One waiting row per path (the walkthrough tells one path per step), so nothing moves when the names come.
      list.replaceChildren(...STEPS.map((s) => el('li', {}, el('button', { type: 'button', class: 'path pending', 'data-path': s.path, disabled: true,
        'aria-label': 'The animations appear when the model has loaded' }, [el('span', { text: '…' })]))));
      return;
    }
    // A path with nothing to play for this model (no Engram, no sliding window: the app's catalog says which)
    // stays in the list and says so; choosing it shows the walkthrough's line on what the model would do with one.
    list.replaceChildren(...paths.map((p) => {
      const applies = p.applies !== false;
      return el('li', {}, el('button', {
        type: 'button', class: applies ? 'path' : 'path none', 'data-path': p.key, disabled: !S.ready,
        'aria-pressed': S.state && S.state.path === p.key ? 'true' : 'false',
        title: p.summary || undefined, onclick: () => { S.pushNext = true; S.bridge.setPath(p.key); S.bridge.seek(0); S.bridge.play(); refresh(); },
      }, [el('span', { text: p.label }), applies ? null : el('span', { class: 'muted path-none', text: ' · none in this model' })]));
    }));
  }

  function wire() {
    // A number in the text shows its formula and source (one listener: the text is updated in place).
    $('tour-body').addEventListener('click', (e) => {
      const b = e.target && e.target.closest ? e.target.closest('button.fig[data-fig]') : null;
      if (!b) return;
      showFigure(b.dataset.fig);
      // The formula is written under the step's text, which may be a screen below the number: it is brought
      // into view (the least scroll, so a number near it stays where it is).
      const box = $('tour-look');
      if (box.scrollIntoView) box.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    });
    // A dot opens its step (one listener on the list: the dots may be the build's, written before any script).
    $('tour-dots').addEventListener('click', (e) => {
      const b = e.target && e.target.closest ? e.target.closest('button.dot') : null;
      const k = b ? [...$('tour-dots').querySelectorAll('button.dot')].indexOf(b) : -1;
      if (k >= 0) go(k);
    });
    $('tour-back').addEventListener('click', () => go(inFleet() ? current() : current() - 1));
    $('tour-next').addEventListener('click', () => go(current() + 1));
    $('tour-play').addEventListener('click', () => (inFleet() ? playDay() : go(current(), { play: true })));
    // Arrow keys page through the walkthrough only while focus is inside it: keys are never taken page-wide.
    $('tour').addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || (e.target && e.target.closest && e.target.closest('input, select, textarea'))) return;
      const at = current();
      const to = { ArrowLeft: inFleet() ? at : at - 1, ArrowRight: at + 1, Home: 0, End: STEPS.length - 1 }[e.key];
      if (to === INTRO_INDEX - 1) return;  // nothing before the first screen
      if (to === undefined) return;
      e.preventDefault();
      go(to);
      const active = $('tour').ownerDocument.activeElement;
      if (active && active.disabled) $('tour').focus();
    });
  }

  return { render, go, openStep, current, syncToState, renderPaths, wire, showFigure, steps: STEPS.length };
}
