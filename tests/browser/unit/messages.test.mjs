// Unit tests of the embed protocol and of window.tierscope's argument checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommand, parseOrigins, senderAllowed, reply } from '../../../web/lib/messages.mjs';
import { checkPath, checkStep, checkParam, checkSpeed, argError, errorMessage, setErrorWording, builtErrorWording } from '../../../web/lib/api.mjs';
import { CATALOG, PATH_KEYS } from '../lib/catalog.mjs';

test('messages that are not ours are ignored (null), ours are checked field by field', () => {
  for (const d of [null, 'play', 42, [], { type: 'play' }, { tierscope: 'event' }]) assert.equal(parseCommand(d), null);
  assert.deepEqual(parseCommand({ tierscope: 'command', cmd: 'seek', step: 3, id: 'a' }), { ok: true, cmd: 'seek', args: { step: 3 }, id: 'a', errors: [] });
  assert.equal(parseCommand({ tierscope: 'command', cmd: 'play' }).ok, true);
  const cases = [
    [{ tierscope: 'command', cmd: 'eval', code: '1' }, 'cmd', 'bad-enum'],
    [{ tierscope: 'command', cmd: 'seek', step: '3' }, 'step', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'seek', step: 1.5 }, 'step', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'seek' }, 'step', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'pause', extra: 1 }, 'extra', 'unknown-key'],
    [{ tierscope: 'command', cmd: 'setParam', key: 'ctx', value: { toString: 1 } }, 'value', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'setParam', key: 'ctx', value: NaN }, 'value', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'play', path: 'x'.repeat(300) }, 'path', 'wrong-type'],
    [{ tierscope: 'command', cmd: 'pause', id: { a: 1 } }, 'id', 'wrong-type'],
  ];
  for (const [msg, field, code] of cases) {
    const r = parseCommand(msg);
    assert.equal(r.ok, false, JSON.stringify(msg));
    assert.ok(r.errors.some((e) => e.field === field && e.code === code), `${field}/${code}: ${JSON.stringify(r.errors)}`);
  }
});

test('origin rules: only the parent window, and only listed origins when a list is given', () => {
  const parent = {}, other = {};
  assert.equal(senderAllowed({ source: parent, origin: 'https://a.example' }, { parent, origins: [] }), true);
  assert.equal(senderAllowed({ source: other, origin: 'https://a.example' }, { parent, origins: [] }), false);
  assert.equal(senderAllowed({ source: parent, origin: 'https://b.example' }, { parent, origins: ['https://a.example'] }), false);
  assert.equal(senderAllowed({ source: parent, origin: 'https://a.example' }, { parent, origins: ['https://a.example'] }), true);
  assert.deepEqual(parseOrigins('?embed=1&origin=https://a.example,*,https://b.example/path,javascript:alert(1)&origin=http://localhost:8080'),
    ['https://a.example', 'http://localhost:8080']);
  assert.deepEqual(reply('x', { ok: false, errors: [{ code: 'c' }] }), { tierscope: 'reply', ok: false, id: 'x', errors: [{ code: 'c' }] });
});

test('window.tierscope argument checks name the argument, the value and what is allowed', () => {
  const keys = PATH_KEYS;  // the catalog's paths, as window.tierscope checks them
  assert.equal(checkPath(undefined, keys), null);
  assert.equal(checkPath(keys[1], keys), null);
  const allowed = keys.join(', ');
  assert.deepEqual(checkPath('warp', keys), { code: 'bad-enum', field: 'path', value: 'warp', allowed, message: `path: 'warp' is not allowed (bad-enum); allowed: ${allowed}` });
  assert.equal(checkPath(7, keys).code, 'wrong-type');
  assert.equal(checkStep(0, 10), null);
  assert.equal(checkStep(10, 10).allowed, '0 to 9');
  assert.equal(checkStep(-1, 10).code, 'out-of-range');
  assert.equal(checkStep('3', 10).code, 'wrong-type');
  assert.equal(checkStep(NaN, 10).code, 'wrong-type');
  assert.equal(checkStep(2.5, 10).code, 'out-of-range');
  assert.equal(checkParam('ctx', 1048576), null);
  assert.equal(checkParam('gpu', 'h200'), null);
  assert.equal(checkParam('ctx', Infinity).code, 'not-finite');
  assert.equal(checkParam('ctx', '<b>').code, 'markup');
  assert.equal(checkParam('CTX', 1).field, 'key');
  assert.equal(checkParam(undefined, 1).code, 'wrong-type');
  assert.equal(checkParam('ctx', {}).value, 'an object');
  assert.equal(checkSpeed(2), null);
  assert.equal(checkSpeed(0).code, 'out-of-range');
  assert.equal(checkSpeed('fast').code, 'wrong-type');
});

// One wording for refusals: the page's early checks write their messages from the app's pieces
// (catalog().errorWording, base/errors.h), and the pieces the page starts with are the app's too.
test('the page words a refusal as the app does, from the app\'s pieces', () => {
  assert.deepEqual(builtErrorWording(), CATALOG.errorWording, 'the pieces before the catalog arrives are the catalog\'s');
  setErrorWording(CATALOG.errorWording);
  // The app's own message for the same refusal (the CLI prints it as "tierscope: …").
  assert.equal(argError('bad-enum', 'path', 'warp', 'prefill, decode').message, "path: 'warp' is not allowed (bad-enum); allowed: prefill, decode");
  assert.equal(errorMessage({ code: 'not-ready', field: 'play', value: '', allowed: '' }), 'play: (empty) is not allowed (not-ready)');
  assert.equal(errorMessage({ code: 'markup', field: '', value: 'x', allowed: '' }), "input: 'x' is not allowed (markup)");
  // Other pieces, other words: nothing of the wording is the page's own.
  setErrorWording({ ...CATALOG.errorWording, message: '{code} {field}={value}' });
  assert.equal(errorMessage({ code: 'bad-enum', field: 'path', value: 'warp', allowed: '' }), "bad-enum path='warp'");
  setErrorWording(CATALOG.errorWording);
});
