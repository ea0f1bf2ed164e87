// The ledger panel's data side: normalises the app's ledger JSON, names tiers and objects, filters
// entries, and writes the CSV and JSON downloads. No DOM here, so node tests and the page share it.

// Names of the ends of moves and of the state objects come from the app (state JSON "names": keys to labels,
// in the app's order), so they say what this model has; a key the names lack is shown as it is.
export function labeller(names) {
  const endpoints = (names && typeof names.endpoints === 'object' && names.endpoints) || {};
  const objects = (names && typeof names.objects === 'object' && names.objects) || {};
  const pick = (map, k) => (Object.prototype.hasOwnProperty.call(map, k) && typeof map[k] === 'string' ? map[k] : String(k));
  return {
    endpointKeys: Object.keys(endpoints), objectKeys: Object.keys(objects),
    endpoint: (k) => pick(endpoints, k), object: (k) => pick(objects, k),
  };
}

function num(v) { const n = Number(v); return Number.isFinite(n) ? n : 0; }
function str(v) { return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v); }

// Accepts the app's field names (t_start_s, duration_s) and the short ones (tStart, duration).
export function normalizeLedger(json) {
  const src = json && typeof json === 'object' ? json : {};
  const list = Array.isArray(src.entries) ? src.entries : [];
  const entries = list.map((e, i) => ({
    index: Number.isInteger(e.index) ? e.index : i,
    step: str(e.step), phase: str(e.phase), layer: Number.isInteger(e.layer) ? e.layer : -1,
    tStart: num(e.t_start_s ?? e.tStart), duration: num(e.duration_s ?? e.duration),
    from: str(e.from), to: str(e.to), object: str(e.object),
    bytes: num(e.bytes), flop: num(e.flop), overlapped: e.overlapped === true,
    figure: str(e.figure), formula: str(e.formula), provenance: str(e.provenance), sources: str(e.sources),
    sentence: str(e.sentence),
  }));
  return {
    path: str(src.path), label: str(src.label || src.path), preset: str(src.preset),
    total: num(src.total_s ?? src.total), note: str(src.note), entries, raw: src,
  };
}

// The ends and objects that occur in a ledger, for the filter menus (in the app's order, then any others).
export function filterOptions(ledger, names) {
  const L = labeller(names);
  const used = new Set();
  const objects = new Set();
  for (const e of ledger.entries) { used.add(e.from); used.add(e.to); objects.add(e.object); }
  const ordered = (known, present) => known.filter((k) => present.has(k)).concat([...present].filter((k) => k && !known.includes(k)));
  return {
    tiers: ordered(L.endpointKeys, used).map((k) => ({ key: k, label: L.endpoint(k) })),
    objects: ordered(L.objectKeys, objects).map((k) => ({ key: k, label: L.object(k) })),
  };
}

// `tier` matches either end of a move; empty strings mean "any".
export function filterEntries(entries, { tier = '', object = '' } = {}) {
  return entries.filter((e) => (!tier || e.from === tier || e.to === tier) && (!object || e.object === object));
}

export const CSV_COLUMNS = Object.freeze(['index', 'phase', 'step', 't_start_s', 'duration_s', 'from', 'to', 'object',
  'bytes', 'flop', 'overlapped', 'provenance', 'figure', 'formula', 'sentence', 'sources']);

// RFC 4180 quoting; a text cell that a spreadsheet would run as a formula gets a leading apostrophe.
export function csvCell(v) {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = str(v);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function ledgerToCsv(entries) {
  const rows = [CSV_COLUMNS.join(',')];
  for (const e of entries) {
    rows.push([e.index, e.phase, e.step, e.tStart, e.duration, e.from, e.to, e.object, e.bytes, e.flop, e.overlapped,
      e.provenance, e.figure, e.formula, e.sentence, e.sources].map(csvCell).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

// The app's own JSON for the path, with the entries narrowed to `entries` when a filter is on.
export function ledgerToJson(ledger, entries, filter = {}) {
  const raw = ledger.raw && typeof ledger.raw === 'object' ? ledger.raw : {};
  const keep = new Set(entries.map((e) => e.index));
  const out = { ...raw };
  if (Array.isArray(raw.entries)) out.entries = raw.entries.filter((e, i) => keep.has(Number.isInteger(e.index) ? e.index : i));
  if (filter.tier || filter.object) out.filter = { tier: filter.tier || null, object: filter.object || null };
  return JSON.stringify(out, null, 2) + '\n';
}

// The entry active at a step (entries are in order and the step is an index into them).
export function entryAt(ledger, step) {
  return ledger.entries.find((e) => e.index === step) || null;
}

// A file name for downloads: path, preset and the filter, in safe characters only.
export function exportName(ledger, filter, ext) {
  const parts = ['tierscope', ledger.path || 'ledger', ledger.preset, filter.tier, filter.object].filter(Boolean);
  return parts.join('-').replace(/[^A-Za-z0-9._-]/g, '_') + '.' + ext;
}
