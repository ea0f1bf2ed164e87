// The app's figures for the scenario on screen (ui::figures_view_json), read when a view needs them: the
// walkthrough's few on every change, all 111 only while the figures table or the sweep's menu shows them,
// so a dragged value does not carry every figure across the bridge and through JSON.parse for nothing.

// `read(ids)` returns the app's figures named in `ids` (an array; empty for all), as a list.
export function createFigures(read) {
  let all = null;          // every figure, once something asked for them all
  const some = new Map();  // figures read by id since the scenario changed

  return {
    // The scenario changed: what was read is stale.
    invalidate() { all = null; some.clear(); },
    // Every figure, in the app's order.
    all() {
      if (!all) all = new Map(read([]).map((f) => [f.id, f]));
      return all;
    },
    // The figures named in `ids`, reading only those not read yet.
    pick(ids) {
      if (!all) {
        const missing = [...new Set(ids)].filter((id) => !some.has(id));
        if (missing.length) {
          for (const id of missing) some.set(id, null);  // an id the app does not know is asked once
          for (const f of read(missing)) some.set(f.id, f);
        }
      }
      return this;
    },
    // A figure already read (by all() or pick()), or undefined.
    get(id) { return (all ? all.get(id) : some.get(id)) || undefined; },
  };
}

// The reader over the app's bridge.
export function bridgeFigures(S) {
  return createFigures((ids) => {
    const b = S.bridge;
    if (!b) return [];
    const view = b.figuresView(ids.join(','));
    return view && Array.isArray(view.figures) ? view.figures : [];
  });
}

// What a figure counts, as the page writes it beside the value: "per GPU", "(whole model)"; nothing for
// a figure not computed, one without a scope, or one whose unit says it already ("890 B/token").
export function scopeWords(f) {
  const scope = f && typeof f.scope === 'string' ? f.scope : '';
  if (!scope || f.feasible === false) return '';
  if (scope.startsWith('per ') && typeof f.unit === 'string' && f.unit.endsWith('/' + scope.slice(4))) return '';
  return scope.startsWith('per ') ? scope : `(${scope})`;
}

// The value with what it counts: "74.64 GB per GPU", "202.8 GB (whole model)".
export function figureWithScope(f) {
  const words = scopeWords(f);
  return words ? `${f.text} ${words}` : f.text;
}

// A number inside a sentence: the value with what it counts, less each "per X" the words right after it say
// already ("{x} on each GPU per step" shows "69.99 GB", "the {t} step" shows "46.97 ms", "{kv} per step at
// this context" shows "44.16 GB per GPU"), so no scope is said twice. `after` is the sentence's text after
// the number, up to the next number.
export function chipText(f, after = '') {
  const words = scopeWords(f);
  if (!words || !words.startsWith('per ')) return words ? `${f.text} ${words}` : f.text;
  // The words after the number up to the end of its clause.
  const near = String(after).split(/[.;:,(]/)[0].split(/\s+/);
  const kept = words.split(/ (?=per )/).filter((part) => !near.includes(part.slice(4)));
  return kept.length ? `${f.text} ${kept.join(' ')}` : f.text;
}
