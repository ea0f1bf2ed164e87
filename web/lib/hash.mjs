// What the page reads from the URL hash itself, before or beside the app: the walkthrough step (so the
// right step is on screen while the app downloads) and whether a hash is a share link at all. The app's
// view codec (src/link/view_codec.cpp) reads the whole link, checks every key and names each refusal
// once it has started.

// The walkthrough step (1 to `steps`) of a raw hash, or 0 when it names none, names it badly or names the
// first screen (`tour=intro`, where a page without a link starts anyway).
export function earlyTour(raw, steps) {
  const m = /(?:^#?|&)tour=([0-9]{1,3})(?:&|$)/.exec(typeof raw === 'string' ? raw : '');
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= steps ? n : 0;
}

// A hash with no `key=value` ("#tour", the skip link's target) is an in-page anchor, not a share link:
// the page leaves it alone rather than read it as a view and refuse it.
export function isAnchorHash(raw) {
  const h = (typeof raw === 'string' ? raw : '').replace(/^#/, '');
  return h !== '' && !h.includes('=');
}
