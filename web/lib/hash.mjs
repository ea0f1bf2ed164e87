// What the page reads from a share link before the app arrives: only the walkthrough step, so the right
// step is on screen while the app downloads. The app's view codec (src/model/view_codec.cpp) reads the
// whole link, checks every key and names each refusal once it has started.

// The walkthrough step (1 to `steps`) of a raw hash, or 0 when it names none, names it badly or names the
// first screen (`tour=intro`, where a page without a link starts anyway).
export function earlyTour(raw, steps) {
  const m = /(?:^#?|&)tour=([0-9]{1,3})(?:&|$)/.exec(typeof raw === 'string' ? raw : '');
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= steps ? n : 0;
}
