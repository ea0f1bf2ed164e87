// Unit tests of the notices' words: every refused key named once, in one notice per link; values an edit
// moved; the one line a notice folds into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalNotice, adjustmentNotice, collapsedLine } from '../../../web/lib/notices.mjs';

const err = (field, code, value = 'x', allowed = '') => ({ field, code, value, allowed });

test('one notice names every refused key of a link, each once, and says the defaults apply', () => {
  const keys = ['ctx', 'batch', 'prompt', 'gpu', 'path', 'step', 'speed', 'tour'];
  const n = refusalNotice([...keys.map((k) => err(k, 'out-of-range')), err('ctx', 'out-of-range')], 'link');
  assert.deepEqual(n.items.map((x) => x.field), keys);
  assert.match(n.summary, /8 settings.*default/);
  for (const k of keys) assert.ok(n.summary.includes(k));
  assert.equal(refusalNotice([], 'link'), null);
  assert.match(refusalNotice([err('ctx', 'wrong-type', 'abc', 'integer 1 to 16777216')]).items[0].text, /“ctx” \(“abc”\) has the wrong type/);
  assert.match(refusalNotice([err('ctx', 'out-of-range')]).summary, /1 setting that/);
});

test('values an edit moved read as a notice naming each, with why', () => {
  const n = adjustmentNotice([{ field: 'prefix_hit', from: '7168', to: '5000', why: 'at most the prompt' }]);
  assert.equal(n.kind, 'adjusted');
  assert.equal(n.items[0].text, '“prefix_hit” moved from 7168 to 5000: at most the prompt.');
  assert.match(n.summary, /1 other value moved/);
  assert.equal(adjustmentNotice([]), null);
  assert.equal(adjustmentNotice(null), null);
});

test('a folded notice is one line that still names the keys', () => {
  const n = refusalNotice([err('ctx', 'out-of-range'), err('tour', 'out-of-range')]);
  assert.equal(collapsedLine(n), '2 settings refused: ctx, tour');
  assert.equal(collapsedLine(adjustmentNotice([{ field: 'prefix_hit', from: '1', to: '0' }])), 'Also moved: prefix_hit');
});
