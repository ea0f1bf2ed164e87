// Number formatting for the page: SI bytes and seconds with four significant digits, grouped integers,
// and a figure's display text (the app's own text when it sends one), each unit once, counts singular or plural.

const SI = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

// Four significant digits without trailing zeros, so "12.48", "890", "0.5".
export function sig4(v) {
  if (!Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  const s = Math.abs(v) >= 1e4 ? String(Math.round(v)) : Number(v.toPrecision(4)).toString();
  return s;
}

export function groupInt(v) {
  if (!Number.isFinite(v)) return '—';
  return Math.round(v).toLocaleString('en-US');
}

export function formatBytes(v) {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  for (const [scale, prefix] of SI) if (a >= scale) return sig4(v / scale) + ' ' + prefix + 'B';
  return sig4(v) + ' B';
}

export function formatSeconds(v) {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a === 0) return '0 s';
  if (a >= 1) return sig4(v) + ' s';
  if (a >= 1e-3) return sig4(v * 1e3) + ' ms';
  if (a >= 1e-6) return sig4(v * 1e6) + ' µs';
  return sig4(v * 1e9) + ' ns';
}

function formatScaled(v, unit) {
  const a = Math.abs(v);
  for (const [scale, prefix] of SI) if (a >= scale) return sig4(v / scale) + ' ' + prefix + (unit === 'params' ? ' params' : unit);
  return sig4(v) + ' ' + unit;
}

// A figure as a reader sees it. The app formats its own figures (`text`); this covers figures that come
// without one (the native CLI's JSON, used by the unit tests) with the same conventions.
export function figureText(f) {
  if (!f || typeof f !== 'object') return '—';
  if (typeof f.text === 'string' && f.text) return f.text;
  const v = Number(f.value);
  if (!Number.isFinite(v)) return '—';
  switch (f.unit) {
    case 'B': return formatBytes(v);
    case 'B/token': return formatBytes(v) + '/token';
    case 'B/s': return formatBytes(v) + '/s';
    case 's': return formatSeconds(v);
    case 'fraction': return sig4(v * 100) + ' %';
    case 'params': return v >= 1e9 ? sig4(v / 1e9) + ' B params' : formatScaled(v, 'params');
    case 'FLOP': return formatScaled(v, 'FLOP');
    case 'USD': return '$' + sig4(v);
    // Whole sessions (a fraction of one does not fit), and one session, one expert.
    case 'sessions': { const n = Math.max(0, Math.floor(v)); return groupInt(n) + (n === 1 ? ' session' : ' sessions'); }
    case 'experts': return sig4(v) + (v === 1 ? ' expert' : ' experts');
    case 'tokens/s': return groupInt(v) + ' ' + f.unit;
    default: return sig4(v) + (f.unit ? ' ' + f.unit : '');
  }
}
