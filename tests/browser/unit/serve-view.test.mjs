// The Serve panel's settings text (web/lib/serve-view.mjs): read in order, written back without empty
// values, and the form's fields merged over what a link gave, keeping the settings the form has no field for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSettings, writeSettings, mergeSettings } from '../../../web/lib/serve-view.mjs';

test('settings read as pairs in order and write back the same', () => {
  assert.deepEqual(readSettings('concurrency:64,input:1024,range-ratio:0.2'), [['concurrency', '64'], ['input', '1024'], ['range-ratio', '0.2']]);
  assert.deepEqual(readSettings(''), []);
  assert.deepEqual(readSettings('nocolon,:1,a:'), [['a', '']]);
  assert.equal(writeSettings([['a', '1'], ['b', ''], ['c', '3']]), 'a:1,c:3');
});

test('the form\'s fields replace their settings, an empty field drops its setting, the others stay', () => {
  const link = 'concurrency:64,budget:4096,input:1024,instances:2';
  assert.equal(mergeSettings(link, { concurrency: '8', input: '', requests: '40' }), 'budget:4096,instances:2,concurrency:8,requests:40');
  assert.equal(mergeSettings('', { concurrency: '', steps: '8' }), 'steps:8');
  // The app spells the result once (its own order); this only has to lose nothing and keep no empty value.
  assert.doesNotMatch(mergeSettings(link, { concurrency: '' }), /concurrency/);
});
