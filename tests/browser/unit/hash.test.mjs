// Unit tests of the page's share-link reader: size limit, markup, syntax, duplicates, the page's own keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitHash, readHash, buildHash, withKey, MAX_HASH_BYTES } from '../../../web/lib/hash.mjs';

test('a clean hash splits into pairs and goes to the app unchanged', () => {
  const r = readHash('#preset=v41-flash-8xb200&ctx=1048576&path=decode&step=3', { tourSteps: 7 });
  assert.deepEqual(r.notices, []);
  assert.equal(r.appHash, 'preset=v41-flash-8xb200&ctx=1048576&path=decode&step=3');
  assert.deepEqual(r.page, {});
});

test('a hash over the limit is refused whole, with a notice that names it and its size, not its content', () => {
  const big = '#path=' + 'a'.repeat(100 * 1024);
  const r = readHash(big, { tourSteps: 7 });
  assert.equal(r.appHash, '');
  assert.equal(r.notices.length, 1);
  assert.equal(r.notices[0].code, 'too-large');
  assert.equal(r.notices[0].field, 'hash');
  assert.ok(r.notices[0].message.length < 200);
  assert.equal(splitHash('#' + 'x'.repeat(MAX_HASH_BYTES)).notices.length, 0, 'exactly the limit is fine');
});

test('markup or script in a value is refused by name and the other pairs still apply', () => {
  for (const bad of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', '<img src=x onerror=alert(1)>', '%22onmouseover%3D', 'a;b', "x'y"]) {
    const r = readHash(`#path=${bad}&step=2`, { tourSteps: 7 });
    assert.equal(r.notices.length, 1, bad);
    assert.equal(r.notices[0].code, 'markup', bad);
    assert.equal(r.notices[0].field, 'path');
    assert.equal(r.appHash, 'step=2');
  }
});

test('malformed pairs, bad keys, broken escapes and repeated keys each get their own notice', () => {
  const r = readHash('#=1&Step=2&ctx=%E0%A4%A&step=1&step=2&ok=a b', { tourSteps: 7 });
  const codes = r.notices.map((n) => `${n.field}:${n.code}`);
  assert.deepEqual(codes, ['hash:bad-syntax', 'hash:bad-syntax', 'ctx:bad-syntax', 'step:duplicate-key', 'ok:bad-syntax']);
  assert.equal(r.appHash, 'step=1');
});

test('the walkthrough step is the page\'s key: kept out of the app hash and range-checked', () => {
  assert.deepEqual(readHash('#tour=3&path=engram', { tourSteps: 7 }).page, { tour: 3 });
  assert.equal(readHash('#tour=3&path=engram', { tourSteps: 7 }).appHash, 'path=engram');
  for (const [v, code] of [['0', 'out-of-range'], ['8', 'out-of-range'], ['two', 'wrong-type'], ['1.5', 'wrong-type']]) {
    const r = readHash('#tour=' + v, { tourSteps: 7 });
    assert.deepEqual(r.page, {});
    assert.equal(r.notices[0].code, code, v);
    assert.equal(r.notices[0].field, 'tour');
  }
});

test('building and editing a view hash', () => {
  assert.equal(buildHash('preset=a&path=decode', { tour: 2 }), 'preset=a&path=decode&tour=2');
  assert.equal(buildHash('preset=a', {}), 'preset=a');
  assert.equal(withKey('preset=a&step=3&speed=2', 'step', 7), 'preset=a&step=7&speed=2');
  assert.equal(withKey('#preset=a', 'step', 0), 'preset=a&step=0');
});
