// The notices in the page's flow above the canvas (never over it): one per source, naming every item,
// folding into one line after a few seconds; short confirmations; and the app's own notices (a lost
// graphics context). A notice about the scenario goes once it no longer applies (`until`, asked on every
// refresh through prune), a newer one of the same source replaces it, and at most three show at once.
// Text only, never markup from data.
import { collapsedLine, shortAllowed } from './notices.mjs';

const FOLD_MS = 6000;
const INFO_MS = 4000;
const MAX_SHOWN = 3;

export function createNotices({ el, box, win }) {
  const dismiss = (item) => el('button', { type: 'button', class: 'btn icon small', 'aria-label': 'Dismiss', text: '✕', onclick: () => item.remove() });
  const trim = () => { while (box.children.length > MAX_SHOWN) box.firstElementChild.remove(); };

  // The ways out of a notice ({field, value, label, why} each): one button per fix, applied by `onFix`.
  const fixButtons = (n, onFix) => (n.fixes && n.fixes.length && onFix
    ? el('p', { class: 'notice-fixes' }, n.fixes.map((f) => el('button', {
      type: 'button', class: 'btn small primary notice-fix', 'data-field': f.field, 'data-value': f.value,
      title: f.why || undefined, text: f.label, onclick: () => onFix(f) })))
    : null);

  // A notice group from notices.mjs: { kind, summary, items, sticky, fixes }. A sticky one (a setup that
  // cannot run) stays open while its cause lasts; `key` replaces an earlier notice of the same key (by default
  // its kind: a second refused call replaces the first); `onFix` applies one of its fixes; `until(state)`
  // says when it stops applying (prune then removes it).
  function show(n, { key = '', onFix = null, until = null } = {}) {
    if (!n) return null;
    key = key || n.kind;
    if (key) for (const old of box.querySelectorAll(`.notice[data-key="${key}"]`)) old.remove();
    const list = el('ul', { class: 'notice-list' }, n.items.map((x) => el('li', { 'data-field': x.field, 'data-code': x.code }, [
      el('span', { text: x.text }), x.allowed && x.code !== 'infeasible'
        ? el('span', { class: 'muted', title: x.allowed, text: ` Allowed: ${shortAllowed(x.allowed)}.` }) : null])));
    const summary = el('span', { class: 'notice-summary', text: n.summary });
    const toggle = el('button', { type: 'button', class: 'btn small notice-toggle', 'aria-expanded': 'true', text: 'Hide' });
    const item = el('div', { class: `notice ${n.kind}`, 'data-kind': n.kind, 'data-key': key || undefined }, [
      el('div', { class: 'notice-body' }, [el('p', { class: 'notice-head' }, [summary]), fixButtons(n, onFix), list]), toggle]);
    item.append(dismiss(item));
    if (until) stale.set(item, until);
    const fold = (folded) => {
      item.classList.toggle('folded', folded);
      summary.textContent = folded ? collapsedLine(n) : n.summary;
      toggle.textContent = folded ? 'Show' : 'Hide';
      toggle.setAttribute('aria-expanded', folded ? 'false' : 'true');
    };
    toggle.addEventListener('click', () => fold(!item.classList.contains('folded')));
    box.append(item);
    // Older notices of the same kind fold at once; this one after a few seconds (unless a pointer or focus
    // is in it, or it is sticky).
    for (const other of box.querySelectorAll(`.notice[data-kind="${n.kind}"]`)) {
      if (other !== item && !other.classList.contains('folded')) other.querySelector('.notice-toggle')?.click();
    }
    if (!n.sticky) win.setTimeout(() => { if (!item.matches(':hover, :focus-within')) fold(true); }, FOLD_MS);
    trim();
    return item;
  }

  // A one-line message; `stay` keeps it until dismissed or replaced (same `key`).
  function message(text, { kind = 'info', key = '', stay = false, role } = {}) {
    if (key) for (const old of box.querySelectorAll(`.notice[data-key="${key}"]`)) old.remove();
    const item = el('div', { class: `notice ${kind}`, 'data-kind': kind, 'data-key': key || undefined, role }, [el('p', { text })]);
    item.append(dismiss(item));
    box.append(item);
    if (!stay) win.setTimeout(() => item.remove(), INFO_MS);
    trim();
    return item;
  }

  const clear = (key) => { for (const old of box.querySelectorAll(`.notice[data-key="${key}"]`)) old.remove(); };

  // Notices whose `until` says they no longer apply to the state on screen leave.
  const stale = new WeakMap();
  function prune(state) {
    if (!state) return;
    for (const item of [...box.children]) {
      const until = stale.get(item);
      if (until && until(state)) item.remove();
    }
  }

  return { show, message, clear, dismiss, prune };
}
