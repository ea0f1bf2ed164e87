// The words of the page's notices, without the DOM: every refused key of a link in one notice that names
// them all, a refused call, and the values an edit moved along with it. The shell renders these.

const REASONS = {
  'unknown-key': 'is not a known setting', 'wrong-type': 'has the wrong type', 'not-finite': 'is not a finite number',
  'out-of-range': 'is out of range', 'bad-enum': 'is not one of the choices', 'bad-syntax': 'cannot be read',
  'too-large': 'is too long', markup: 'contains markup or script characters', 'duplicate-key': 'appears twice',
  inconsistent: 'contradicts another setting', 'unknown-preset': 'is not a preset', unavailable: 'is not available in this build',
  'not-ready': 'is not available yet',
};

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// One refused value: { field, code, text, allowed }.
function item(e) {
  const field = String((e && e.field) || 'value');
  const value = String((e && e.value) ?? '');
  const reason = REASONS[e && e.code] || 'was refused';
  return {
    field, code: String((e && e.code) || ''), allowed: String((e && e.allowed) || ''),
    text: `“${field}” ${value ? `(“${value}”) ` : ''}${reason}.`,
  };
}

// A notice for the errors of one source: a link ("link") or a call ("call"). Keys named twice (a key both
// the page and the app refused) are listed once. Returns { kind, summary, items } or null when nothing failed.
export function refusalNotice(errors, source = 'link') {
  const items = [];
  const seen = new Set();
  for (const e of Array.isArray(errors) ? errors : []) {
    const it = item(e);
    const key = `${it.field}|${it.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(it);
  }
  if (!items.length) return null;
  const fields = [...new Set(items.map((x) => x.field))];
  const summary = source === 'link'
    ? `This link had ${plural(fields.length, 'setting', 'settings')} that could not be used, so the default is used for ${fields.length === 1 ? 'it' : 'each'}: ${fields.join(', ')}.`
    : `${plural(fields.length, 'value was', 'values were')} refused: ${fields.join(', ')}.`;
  return { kind: 'refused', summary, items };
}

// A notice for values an edit moved to keep the scenario consistent (from the app's "adjustments"):
// "prefix_hit moved from 7168 to 5000: at most the prompt." Returns null when nothing moved.
export function adjustmentNotice(adjustments) {
  const list = Array.isArray(adjustments) ? adjustments.filter((a) => a && a.field) : [];
  if (!list.length) return null;
  const items = list.map((a) => ({
    field: String(a.field), code: 'adjusted', allowed: '',
    text: `“${a.field}” moved from ${a.from} to ${a.to}${a.why ? `: ${a.why}` : ''}.`,
  }));
  return { kind: 'adjusted', summary: `To keep the scenario consistent, ${plural(items.length, 'other value', 'other values')} moved too.`, items };
}

// The one line a notice folds into after a few seconds.
export function collapsedLine(notice) {
  const fields = [...new Set(notice.items.map((x) => x.field))];
  if (notice.kind === 'adjusted') return `Also moved: ${fields.join(', ')}`;
  return `${plural(fields.length, 'setting', 'settings')} refused: ${fields.join(', ')}`;
}
