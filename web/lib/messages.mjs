// The embed's postMessage protocol: checks the sender (only the parent window, optionally only listed
// origins) and the shape of each command before anything runs. Data is only ever read, never evaluated.
import { argError } from './api.mjs';

export const COMMANDS = Object.freeze({
  play: { path: 'string?' },
  pause: {},
  seek: { step: 'integer' },
  step: { delta: 'integer' },
  setParam: { key: 'string', value: 'scalar' },
  setSpeed: { speed: 'number' },
  getState: {},
});
const ENVELOPE = new Set(['tierscope', 'cmd', 'id']);
const MAX_STRING = 256;

// A refusal, shaped and worded as window.tierscope's (and so as the app's own).
const err = argError;

// Origins listed in the frame's own URL (?origin=https://a.example,https://b.example). Entries that are
// not exact origins are dropped, so "*" or a path cannot widen the rule by accident.
export function parseOrigins(search) {
  let params;
  try { params = new URLSearchParams(search || ''); } catch { return []; }
  const out = [];
  for (const raw of params.getAll('origin').join(',').split(',')) {
    const s = raw.trim();
    if (!s) continue;
    try { const u = new URL(s); if (u.origin === s && (u.protocol === 'https:' || u.protocol === 'http:')) out.push(s); } catch { /* not an origin */ }
  }
  return out;
}

// True when a message event may command this frame: it comes from the parent window, and from a listed
// origin when a list was given.
export function senderAllowed(event, { parent, origins }) {
  if (!event || !parent || event.source !== parent) return false;
  return !origins || origins.length === 0 || origins.includes(event.origin);
}

// Returns null for messages that are not ours (other scripts on the host page use postMessage too),
// otherwise { ok, cmd, args, id, errors }.
export function parseCommand(data) {
  if (!data || typeof data !== 'object' || Array.isArray(data) || data.tierscope !== 'command') return null;
  const errors = [];
  const id = data.id;
  const idOk = id === undefined || (typeof id === 'string' && id.length <= 64) || (Number.isInteger(id) && Math.abs(id) < 2 ** 31);
  if (!idOk) errors.push(err('wrong-type', 'id', id, 'a string of up to 64 characters or an integer'));
  const cmd = data.cmd;
  const spec = typeof cmd === 'string' && Object.prototype.hasOwnProperty.call(COMMANDS, cmd) ? COMMANDS[cmd] : null;
  if (!spec) {
    errors.push(err('bad-enum', 'cmd', cmd, Object.keys(COMMANDS).join(', ')));
    return { ok: false, cmd: null, args: {}, id: idOk ? id : undefined, errors };
  }
  const args = {};
  for (const key of Object.keys(data)) {
    if (!ENVELOPE.has(key) && !(key in spec)) errors.push(err('unknown-key', key, data[key], `for ${cmd}: ${Object.keys(spec).join(', ') || 'no fields'}`));
  }
  for (const [field, type] of Object.entries(spec)) {
    const v = data[field];
    const optional = type.endsWith('?');
    const t = optional ? type.slice(0, -1) : type;
    if (v === undefined) { if (!optional) errors.push(err('wrong-type', field, v, `a required ${t}`)); continue; }
    let ok = false;
    if (t === 'string') ok = typeof v === 'string' && v.length > 0 && v.length <= MAX_STRING;
    else if (t === 'integer') ok = Number.isInteger(v);
    else if (t === 'number') ok = typeof v === 'number' && Number.isFinite(v);
    else if (t === 'scalar') ok = (typeof v === 'string' && v.length <= MAX_STRING) || (typeof v === 'number' && Number.isFinite(v));
    if (!ok) errors.push(err('wrong-type', field, v, t === 'scalar' ? 'a finite number or a string' : `a${t === 'integer' ? 'n' : ''} ${t}`));
    else args[field] = v;
  }
  return { ok: errors.length === 0, cmd, args, id: idOk ? id : undefined, errors };
}

export function reply(id, result) {
  const msg = { tierscope: 'reply', ok: !!(result && result.ok) };
  if (id !== undefined) msg.id = id;
  if (result && result.errors && result.errors.length) msg.errors = result.errors;
  if (result && result.adjustments && result.adjustments.length) msg.adjustments = result.adjustments;
  if (result && result.state) msg.state = result.state;
  return msg;
}

export function event(name, state) {
  return { tierscope: 'event', event: name, state };
}
