// Share links and the embed dialog: the URL hash holds the whole view, written by the app's view codec
// (link/view_codec.h) and applied by it; Back and Forward re-apply it. The embed snippet is an element
// the browser serialises, so no markup is assembled by hand here.
import { refusalNotice } from './notices.mjs';
import { isAnchorHash } from './hash.mjs';

// The embed snippet's size: the host's column wide, 8:5, at least 680 px tall.
const EMBED_STYLE = 'display:block;box-sizing:border-box;width:100%;max-width:100%;aspect-ratio:8/5;min-height:680px;border:1px solid #8896;border-radius:8px';

export function createShare({ S, $, el, win, doc, notices, refresh, walkthrough }) {
  const loc = win.location;

  // The view's hash: the app's when it runs; before that, the address bar's as it is.
  function currentHash() {
    if (S.ready) return S.bridge.viewHash() || '';
    return (loc.hash || '').replace(/^#/, '');
  }

  function linkFor(hash, { embed = false } = {}) {
    const u = new win.URL(loc.href);
    u.search = embed ? '?embed=1' : '';
    u.hash = hash;
    return u.href;
  }

  // Writing the address bar costs the browser milliseconds (more than recomputing the scenario): while a
  // reader drags a value the link is written once the value rests for 250 ms (at least every second while
  // it keeps moving), from a timer, never inside the change itself; a navigation is written at once.
  let trailing = null, pendingSince = -Infinity, writtenLoc = null;
  const now = () => (win.performance ? win.performance.now() : Date.now());
  function writeLater() {
    const t = now();
    if (!trailing) pendingSince = t;
    else win.clearTimeout(trailing);
    const wait = Math.max(0, Math.min(250, pendingSince + 1000 - t));
    trailing = win.setTimeout(() => { trailing = null; writeHash(false, true); }, wait);
  }
  function writeHash(forcePush = false, due = false) {
    if (!S.ready) return;
    // The address moved since our last write (Back, Forward, a typed link): its hashchange is on its way and
    // applies it; writing now would overwrite the entry the reader went to with the view being left.
    // (Compared as the browser reports it after our write: it may percent-encode what it was given.)
    if (S.lastHash !== null && writtenLoc !== null && loc.hash !== writtenLoc) return;
    const push = (S.pushNext || forcePush) && !S.embed && S.lastHash !== null;
    // Only a value's rewrite waits: the first write after a link (lastHash null) settles the entry at once,
    // so the next navigation is pushed as its own entry rather than folded into this one.
    // A value's change compares the hash the state read just brought (no second call into the app).
    const later = !push && !due && S.lastHash !== null;
    const hash = later && S.state && typeof S.state.viewHash === 'string' ? S.state.viewHash : currentHash();
    if (hash === S.lastHash && ('#' + hash === loc.hash || (!hash && !loc.hash))) return;
    if (later) { writeLater(); return; }
    if (trailing) { win.clearTimeout(trailing); trailing = null; }
    const url = hash ? '#' + hash : loc.pathname + loc.search;
    // Inside an embed every write replaces the entry: an iframe's history entries would hijack the host's Back.
    if ((S.pushNext || forcePush) && !S.embed && S.lastHash !== null) win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
    S.pushNext = false;
    S.lastHash = hash;
    writtenLoc = loc.hash;
    if (S.embed) $('open-full').href = linkFor(hash);
  }

  // Applies the address bar's hash through the app; all refusals of one link become one notice naming each
  // key. A link with a walkthrough step but no path opens that step's entry; a page opened with no hash
  // at all starts on the walkthrough's first screen (what the page shows, before step 1).
  function applyLocationHash() {
    // An in-page anchor ("#tour") names no view: on a page opened with one the view is the default one;
    // arriving later it changes nothing, and the next write replaces it with the view's link.
    const anchor = isAnchorHash(loc.hash);
    if (anchor && S.lastHash !== null) { writtenLoc = loc.hash; return; }
    const raw = anchor ? '' : (loc.hash || '').replace(/^#/, '');
    if (S.lastHash !== null && raw === S.lastHash) return;
    if (!S.ready) return;
    // The app opens a link's walkthrough step itself (without a path: on the entry the step talks about).
    const r = S.bridge.applyHash(raw);
    S.state = S.bridge.state();
    if (!raw) walkthrough.openStep(-1);
    S.lastHash = null;
    refresh();
    // One notice for the link's refused keys, in place of an earlier link's; it applies until the scenario changes.
    const hash = S.state && S.state.scenarioHash;
    const n = refusalNotice(r.errors, 'link', S.catalog && S.catalog.errorCodes);
    if (n) notices.show(n, { key: 'link', until: (now) => now.scenarioHash !== hash });
    else notices.clear('link');
  }

  async function copyText(text, done) {
    try {
      await win.navigator.clipboard.writeText(text);
      notices.message(done);
    } catch {
      // Clipboard refused (permissions, insecure context): put the text where it can be copied by hand.
      const area = el('textarea', { class: 'copy-fallback', readonly: true, 'aria-label': 'Link' });
      area.value = text;
      const item = notices.message('Copy this link:', { stay: true });
      item.insertBefore(area, item.lastElementChild);
      area.select();
    }
    $('copy-link').dataset.copied = text;
  }

  // The snippet for the view on screen: an <iframe> element serialised by the browser (attributes escaped).
  // It never overflows its host: as wide as the column it is put in, 8:5 where that is tall enough and never
  // under 680 px (a phone's column: the embed's canvas then keeps text of 10 px and up); its panels start closed.
  function embedSnippet() {
    const frame = doc.createElement('iframe');
    const hash = currentHash().split('&').filter((p) => p && !p.startsWith('panels=')).concat('panels=').join('&');
    frame.setAttribute('src', linkFor(hash, { embed: true }));
    frame.setAttribute('title', `tierscope: ${S.state ? S.state.pathLabel || S.state.path : 'memory tiers'}`);
    for (const [k, v] of [['loading', 'lazy'], ['allow', 'clipboard-write']]) frame.setAttribute(k, v);
    // The style goes into the text only: a style attribute set on an element, even one never attached, is an
    // inline style a strict Content-Security-Policy refuses (style-src-attr). EMBED_STYLE holds no quote or &.
    return frame.outerHTML.replace('></iframe>', ` style="${EMBED_STYLE}"></iframe>`);
  }

  // An in-page link (the skip link, "#tour") moves the focus to its target without touching the address:
  // the hash holds the view's link, and following the anchor would add a history entry and read it as one.
  function followAnchor(e) {
    const a = e.target && e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (!a || e.defaultPrevented || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const href = a.getAttribute('href');
    const target = isAnchorHash(href) ? doc.getElementById(href.slice(1)) : null;
    if (!target) return;
    e.preventDefault();
    if (!target.hasAttribute('tabindex') && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'start' });
  }

  function wire() {
    doc.addEventListener('click', followAnchor);
    win.addEventListener('hashchange', applyLocationHash);
    win.addEventListener('popstate', applyLocationHash);
    $('copy-link').addEventListener('click', () => copyText(linkFor(currentHash()), 'Link copied'));
    $('open-embed').addEventListener('click', () => {
      $('embed-code').value = embedSnippet();
      $('embed-dialog').showModal();
      $('embed-code').select();
    });
    $('embed-copy').addEventListener('click', () => copyText($('embed-code').value, 'Embed code copied'));
  }

  return { currentHash, linkFor, writeHash, applyLocationHash, copyText, embedSnippet, wire };
}
