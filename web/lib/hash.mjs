// Share links on the page side: reads a URL hash into the part the app applies and the page's own keys,
// refusing oversized input, markup and malformed pairs with notices that name the offending key.
// The character rules mirror the app's URL codec, so a hash that passes here is never rejected there
// for its characters (the app still checks names, types and ranges).

export const MAX_HASH_BYTES = 4096;
// Keys the page handles itself (the walkthrough step); every other key goes to the app.
export const PAGE_KEYS = Object.freeze(['tour']);
const MAX_ECHO = 60;
const MARKUP = /[<>"'`(){};\\]/;
const KEY_OK = /^[a-z0-9_]+$/;
const VALUE_OK = /^[A-Za-z0-9._\-+:,]*$/;

// Long values are cut before they reach a message, so a 100 kB hash cannot flood the page.
export function echo(value) {
  const s = String(value);
  return s.length > MAX_ECHO ? s.slice(0, MAX_ECHO) + '…' : s;
}

export function notice(code, field, value, allowed) {
  const v = echo(value);
  return { code, field, value: v, allowed, message: `${field}: '${v}' is not allowed (${code}); allowed: ${allowed}` };
}

function decode(text) {
  try { return decodeURIComponent(text); } catch { return null; }
}

// Splits a raw hash ("#a=1&b=2" or without '#'). Returns { pairs: [[key, value]], notices }.
// Nothing is applied when the whole hash is too large; otherwise each bad pair is dropped on its own.
export function splitHash(raw) {
  const notices = [];
  let text = typeof raw === 'string' ? raw : '';
  if (text.startsWith('#')) text = text.slice(1);
  if (text.length > MAX_HASH_BYTES) {
    notices.push(notice('too-large', 'hash', `${text.length} bytes`, `at most ${MAX_HASH_BYTES} bytes`));
    return { pairs: [], notices };
  }
  const pairs = [];
  const seen = new Set();
  for (const item of text.split('&')) {
    if (!item) continue;
    const eq = item.indexOf('=');
    const rawKey = eq < 0 ? item : item.slice(0, eq);
    const rawValue = eq < 0 ? '' : item.slice(eq + 1);
    const key = decode(rawKey), value = decode(rawValue);
    if (key === null || value === null) {
      notices.push(notice('bad-syntax', key || 'hash', item, 'key=value pairs with valid %-escapes'));
      continue;
    }
    if (!key) { notices.push(notice('bad-syntax', 'hash', item, 'key=value pairs joined by &')); continue; }
    if (!KEY_OK.test(key)) {
      notices.push(MARKUP.test(key)
        ? notice('markup', 'hash', key, 'no markup or script characters')
        : notice('bad-syntax', 'hash', key, 'keys of a-z, 0-9 and _'));
      continue;
    }
    if (!VALUE_OK.test(value)) {
      notices.push(MARKUP.test(value)
        ? notice('markup', key, value, 'no markup or script characters')
        : notice('bad-syntax', key, value, 'values of A-Z, a-z, 0-9 and . _ - + : ,'));
      continue;
    }
    if (seen.has(key)) { notices.push(notice('duplicate-key', key, value, 'each key once')); continue; }
    seen.add(key);
    pairs.push([key, value]);
  }
  return { pairs, notices };
}

// Splits and sorts the pairs: `appHash` is what the app applies (its own rules decide the rest), `page`
// holds the page's keys, validated here. `tourSteps` bounds the walkthrough step.
export function readHash(raw, { tourSteps = 0 } = {}) {
  const { pairs, notices } = splitHash(raw);
  const app = [];
  const page = {};
  for (const [key, value] of pairs) {
    if (key === 'tour') {
      const n = /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
      if (Number.isInteger(n) && n >= 1 && n <= tourSteps) page.tour = n;
      else notices.push(notice(Number.isNaN(n) ? 'wrong-type' : 'out-of-range', 'tour', value, `a walkthrough step from 1 to ${tourSteps}`));
    } else {
      app.push(value === '' ? key : `${key}=${value}`);
    }
  }
  return { appHash: app.join('&'), page, notices };
}

// The link for a view: the app's canonical hash plus the page's keys.
export function buildHash(appHash, page = {}) {
  const parts = appHash ? [appHash] : [];
  if (Number.isInteger(page.tour) && page.tour >= 1) parts.push('tour=' + page.tour);
  return parts.join('&');
}

// A view hash with one key replaced (e.g. the step of a ledger entry), keeping the others in place.
export function withKey(hash, key, value) {
  const items = (hash || '').replace(/^#/, '').split('&').filter(Boolean);
  const out = [];
  let done = false;
  for (const item of items) {
    const k = item.split('=')[0];
    if (k === key) { if (!done) out.push(`${key}=${value}`); done = true; } else out.push(item);
  }
  if (!done) out.push(`${key}=${value}`);
  return out.join('&');
}
