// Argument checks for window.tierscope and the embed commands: each error names the argument, the value
// and what is allowed, in the same shape as the app's own errors, so callers branch on `code`.

function show(v) {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return v.length > 60 ? v.slice(0, 60) + '…' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'an array';
  return 'a' + (typeof v === 'object' ? 'n object' : ' ' + typeof v);
}

// How a refusal's message reads, in the app's pieces (catalog().errorWording, base/errors.h's kErrorWording),
// so the page's own early refusals read as the app's. Until the catalog arrives (a call before the app is
// ready) the same pieces as the build's catalog had them (the unit test holds the two equal).
const BUILT_WORDING = Object.freeze({ message: '{field}: {value} is not allowed ({code})', allowed: '; allowed: {allowed}', value: "'{value}'", emptyValue: '(empty)', emptyField: 'input' });
let wording = BUILT_WORDING;
export function setErrorWording(w) { wording = w && typeof w.message === 'string' ? w : BUILT_WORDING; }
export const builtErrorWording = () => BUILT_WORDING;

// The message of a refusal {code, field, value, allowed}, as the app's Error::message() writes it.
export function errorMessage({ code, field, value, allowed }) {
  const fill = (words, slots) => words.replace(/\{(\w+)\}/g, (m, name) => (name in slots ? slots[name] : m));
  const shown = value === '' ? wording.emptyValue : fill(wording.value, { value });
  const m = fill(wording.message, { field: field || wording.emptyField, value: shown, code });
  return allowed ? m + fill(wording.allowed, { allowed }) : m;
}

export function argError(code, argument, value, allowed) {
  const v = show(value);
  return { code, field: argument, value: v, allowed, message: errorMessage({ code, field: argument, value: v, allowed }) };
}

export const fail = (...e) => ({ ok: false, errors: e });

// path: undefined (keep the current one) or one of the known path keys.
export function checkPath(path, keys) {
  if (path === undefined) return null;
  if (typeof path !== 'string') return argError('wrong-type', 'path', path, 'a path key: ' + keys.join(', '));
  if (!keys.includes(path)) return argError('bad-enum', 'path', path, keys.join(', '));
  return null;
}

// step: an integer from 0 to steps − 1.
export function checkStep(step, steps) {
  if (typeof step !== 'number' || !Number.isFinite(step)) return argError('wrong-type', 'step', step, 'an integer');
  if (!Number.isInteger(step)) return argError('out-of-range', 'step', step, 'an integer');
  const hi = Math.max(0, steps - 1);
  if (step < 0 || step > hi) return argError('out-of-range', 'step', step, `0 to ${hi}`);
  return null;
}

// key: a parameter name (the app checks it is one); value: a finite number or a short string.
export function checkParam(key, value) {
  if (typeof key !== 'string' || !/^[a-z][a-z0-9_]{0,31}$/.test(key)) return argError(typeof key === 'string' ? 'unknown-key' : 'wrong-type', 'key', key, 'a parameter name such as ctx, batch or gpu');
  if (typeof value === 'number') return Number.isFinite(value) ? null : argError('not-finite', 'value', value, 'a finite number');
  if (typeof value !== 'string') return argError('wrong-type', 'value', value, 'a number or a string');
  if (value.length === 0 || value.length > 256) return argError('out-of-range', 'value', value, '1 to 256 characters');
  if (/[<>"'`(){};\\]/.test(value)) return argError('markup', 'value', value, 'no markup or script characters');
  return null;
}

// speed: a positive finite number (the app states its own range when it refuses one).
export function checkSpeed(speed) {
  if (typeof speed !== 'number' || !Number.isFinite(speed)) return argError('wrong-type', 'speed', speed, 'a positive number');
  if (speed <= 0) return argError('out-of-range', 'speed', speed, 'a positive number');
  return null;
}

// config.json text for loadConfig (or, as `quant`, the hf_quant_config.json beside it): a string the app's
// reader accepts by size (it checks the rest).
export function checkConfigText(text, max, field = 'config') {
  const what = field === 'config' ? 'config.json' : 'hf_quant_config.json';
  if (typeof text !== 'string') return argError('wrong-type', field, text, `${what} text (a string)`);
  if (text.length === 0) return argError('out-of-range', field, '(empty)', `the text of a ${what}`);
  if (text.length > max) return argError('too-large', field, `${text.length} characters`, `at most ${max} bytes`);
  return null;
}

// The file name loadConfig may be given: a string of at most 256 characters ('' for none).
export function checkConfigName(name) {
  if (typeof name !== 'string') return argError('wrong-type', 'name', name, "a file name (a string), or '' for none");
  if (name.length > 256) return argError('out-of-range', 'name', `${name.length} characters`, 'a file name of at most 256 characters');
  return null;
}

// chart(name, options): a chart key of the catalog and, optionally, a plain object of options.
export function checkChart(name, options, keys) {
  if (typeof name !== 'string') return argError('wrong-type', 'name', name, 'a chart name: ' + keys.join(', '));
  if (!keys.includes(name)) return argError('bad-enum', 'name', name, keys.join(', '));
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    return argError('wrong-type', 'options', options, 'an object such as {x, values, family, familyValues, figure}');
  }
  return null;
}

// runFleet(options): optionally {trace: text of a Mooncake-format trace, traceName: a name for notices,
// sweep: one of `sweeps`, the app's (catalog().fleetSweeps keys; '' for none)}. The app checks the trace
// line by line.
export function checkFleetOptions(options, maxTraceChars, sweeps = []) {
  if (options === undefined) return null;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return argError('wrong-type', 'options', options, 'an object such as {trace, traceName, sweep}');
  for (const k of Object.keys(options)) {
    if (!['trace', 'traceName', 'sweep'].includes(k)) return argError('unknown-key', k, options[k], 'trace, traceName, sweep');
  }
  const { trace, traceName, sweep } = options;
  if (trace !== undefined && typeof trace !== 'string') return argError('wrong-type', 'trace', trace, 'the text of a trace (JSON lines)');
  if (typeof trace === 'string' && trace.length > maxTraceChars) return argError('too-large', 'trace', `${trace.length} characters`, `at most ${maxTraceChars} characters`);
  if (traceName !== undefined && (typeof traceName !== 'string' || traceName.length > 200 || /[<>"'`]/.test(traceName))) return argError('wrong-type', 'traceName', traceName, 'a file name of at most 200 characters without markup');
  if (sweep !== undefined && !sweeps.includes(sweep)) {
    const names = sweeps.map((k) => (k === '' ? "''" : k));
    return argError('bad-enum', 'sweep', sweep, names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join(''));
  }
  return null;
}
