// The words of the page's notices, without the DOM: every refused key of a link in one notice that names
// them all, a refused call, a config.json's notes and errors, a setup that cannot run, and the values an
// edit moved along with it. What each error code means comes from the app's catalog (`reasons`: code →
// words), so no list of them is kept here. The notices view renders these.

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// One refused value: { field, code, text, allowed }.
function item(e, reasons) {
  const field = String((e && e.field) || 'value');
  const value = String((e && e.value) ?? '');
  const code = e && typeof e.code === 'string' ? e.code : '';
  const reason = reasons && Object.prototype.hasOwnProperty.call(reasons, code) && typeof reasons[code] === 'string' ? reasons[code] : 'was refused';
  return {
    field, code: String((e && e.code) || ''), allowed: String((e && e.allowed) || ''),
    text: `“${field}” ${value ? `(“${value}”) ` : ''}${reason}.`,
  };
}

// A notice for the errors of one source: a link ("link") or a call ("call"). Keys named twice (a key both
// the page and the app refused) are listed once. Returns { kind, summary, items } or null when nothing failed.
export function refusalNotice(errors, source = 'link', reasons = null) {
  const items = [];
  const seen = new Set();
  for (const e of Array.isArray(errors) ? errors : []) {
    const it = item(e, reasons);
    const key = `${it.field}|${it.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(it);
  }
  if (!items.length) return null;
  const fields = [...new Set(items.map((x) => x.field))];
  const summary = source === 'link'
    ? `This link had ${plural(fields.length, 'setting', 'settings')} that could not be used, so the default is used for ${fields.length === 1 ? 'it' : 'each'}: ${fields.join(', ')}.`
    : source === 'config'
      ? `This config.json could not be loaded, so the model is unchanged: ${fields.join(', ')}.`
      : `${plural(fields.length, 'value was', 'values were')} refused: ${fields.join(', ')}.`;
  return { kind: 'refused', summary, items };
}

// An "allowed" text kept short enough for a notice: a long list of names (every preset) shows its first names
// up to `max` characters and how many more there are; the whole text stays in the item's tooltip.
export function shortAllowed(allowed, max = 160) {
  const s = String(allowed || '');
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(', ', max);
  if (cut <= 0) return `${s.slice(0, max)}…`;
  const more = s.slice(cut + 2).split(', ').filter(Boolean).length;
  return `${s.slice(0, cut)}, … (${more} more)`;
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
  if (notice.kind === 'config') return `Loaded from config.json: ${plural(notice.items.length, 'note', 'notes')}`;
  if (notice.kind === 'infeasible') return `Cannot run: ${fields.join(', ')}`;
  return `${plural(fields.length, 'setting', 'settings')} refused: ${fields.join(', ')}`;
}

// The notes of a loaded config.json (what was assumed, ignored, moved): one item each.
export function notesNotice(notes, model = '') {
  const list = Array.isArray(notes) ? notes.filter((n) => typeof n === 'string' && n) : [];
  if (!list.length) return null;
  const items = list.map((text) => ({ field: text.split(':')[0].slice(0, 40), code: 'note', allowed: '', text }));
  return { kind: 'config', summary: `Loaded ${model || 'the model'} from its config.json; ${plural(items.length, 'note', 'notes')}:`, items };
}

// A setup that cannot run (the app's state "infeasible", "infeasibleErrors" and "fixes"): why in one line,
// the one-edit ways out the model found (each {field, value, label, why}, shown as buttons), then each
// reason with the field to change and what fits.
export function infeasibleNotice(why, errors, fixes = []) {
  if (!why) return null;
  const items = (Array.isArray(errors) ? errors : []).map((e) => ({
    field: String(e.field || 'setup'), code: 'infeasible', allowed: String(e.allowed || ''),
    text: `“${e.field}” (“${e.value}”): ${e.allowed ? `fits: ${e.allowed}` : 'cannot run'}.`,
  }));
  const ways = (Array.isArray(fixes) ? fixes : []).filter((f) => f && typeof f.field === 'string' && typeof f.label === 'string')
    .map((f) => ({ field: f.field, value: String(f.value ?? ''), label: f.label.charAt(0).toUpperCase() + f.label.slice(1), why: String(f.why || '') }));
  const summary = `This setup cannot run: ${why}.` + (ways.length ? ' One click makes it run:' : ' Its times are not computed until it fits.');
  return { kind: 'infeasible', summary, items, fixes: ways, sticky: true };
}
