// Unit tests of number formatting: SI bytes and seconds with four significant digits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatSeconds, groupInt, figureText } from '../../../web/lib/format.mjs';

test('bytes, seconds and counts read like the app\'s own text', () => {
  assert.equal(formatBytes(890), '890 B');
  assert.equal(formatBytes(12479795200), '12.48 GB');
  assert.equal(formatBytes(2703360), '2.703 MB');
  assert.equal(formatSeconds(0), '0 s');
  assert.equal(formatSeconds(0.00027906685714285714), '279.1 µs');
  assert.equal(formatSeconds(5.7e-8), '57 ns');
  assert.equal(formatSeconds(0.003313), '3.313 ms');
  assert.equal(groupInt(131072), '131,072');
  assert.equal(formatBytes(NaN), '—');
  assert.equal(figureText({ text: '890 B/token', value: 890, unit: 'B/token' }), '890 B/token');
  assert.equal(figureText({ value: 0.9972, unit: 'fraction' }), '99.72 %');
  assert.equal(figureText(null), '—');
});

test('counts: whole sessions, singular and plural, each unit once', () => {
  assert.equal(figureText({ value: 1, unit: 'sessions' }), '1 session');
  assert.equal(figureText({ value: 282.4, unit: 'sessions' }), '282 sessions');
  assert.equal(figureText({ value: 0.6, unit: 'sessions' }), '0 sessions');
  assert.equal(figureText({ value: 1, unit: 'experts' }), '1 expert');
  assert.equal(figureText({ value: 7.6, unit: 'experts' }), '7.6 experts');
  assert.equal(figureText({ value: 890, unit: 'B/token' }), '890 B/token');
});
