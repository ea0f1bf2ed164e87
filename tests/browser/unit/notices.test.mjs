// Unit tests of the notices' words: every refused key named once, in one notice per link; values an edit
// moved; the one line a notice folds into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalNotice, adjustmentNotice, collapsedLine, notesNotice, infeasibleNotice, shortAllowed } from '../../../web/lib/notices.mjs';
import { CATALOG } from '../lib/catalog.mjs';

// What the app's catalog says for each code (ui::catalog_json "errorCodes").
const REASONS = { 'wrong-type': 'has the wrong type', 'out-of-range': 'is out of range' };

const err = (field, code, value = 'x', allowed = '') => ({ field, code, value, allowed });

test('one notice names every refused key of a link, each once, and says the defaults apply', () => {
  // Four of the scenario's keys and four of the view's, as the app's catalog lists them.
  const keys = [...CATALOG.sweepKeys.slice(0, 4).map((k) => k.key), ...CATALOG.linkKeys.slice(0, 4)];
  const n = refusalNotice([...keys.map((k) => err(k, 'out-of-range')), err('ctx', 'out-of-range')], 'link');
  assert.deepEqual(n.items.map((x) => x.field), keys);
  assert.match(n.summary, /8 settings.*default/);
  for (const k of keys) assert.ok(n.summary.includes(k));
  assert.equal(refusalNotice([], 'link'), null);
  assert.match(refusalNotice([err('ctx', 'wrong-type', 'abc', 'integer 1 to 16777216')], 'link', REASONS).items[0].text, /“ctx” \(“abc”\) has the wrong type/);
  assert.match(refusalNotice([err('ctx', 'mystery')], 'link', REASONS).items[0].text, /was refused/, 'a code the catalog lacks still reads');
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

test('a config.json\'s notes and a setup that cannot run read as notices naming each item', () => {
  const n = notesNotice(['KV cache: stored in bf16 (assumed)', 'ignored: architectures'], 'Qwen3-8B');
  assert.equal(n.kind, 'config');
  assert.match(n.summary, /Qwen3-8B.*2 notes/);
  assert.equal(notesNotice([]), null);
  const f = infeasibleNotice('weights 510 GB per GPU need more than the 162 GB usable', [{ field: 'gpus', value: '1', allowed: 'at least 4' }]);
  assert.equal(f.kind, 'infeasible');
  assert.equal(f.sticky, true);
  assert.match(f.summary, /cannot run: weights 510 GB/);
  assert.equal(f.items[0].field, 'gpus');
  assert.equal(infeasibleNotice('', []), null);
  assert.equal(collapsedLine(f), 'Cannot run: gpus');
  assert.match(refusalNotice([err('model_type', 'bad-enum')], 'config').summary, /could not be loaded/);
});

test('a setup that cannot run lists the model\'s fixes, each a field, a value and its words', () => {
  const f = infeasibleNotice('context 131,072 tokens is beyond the 40,960 trained positions', [{ field: 'ctx', value: '131072', allowed: 'at most 40,960' }],
    [{ field: 'ctx', value: '40960', label: 'set ctx to 40,960', why: 'the model\'s 40,960 trained positions' }, { field: 'x' }]);
  assert.deepEqual(f.fixes, [{ field: 'ctx', value: '40960', label: 'Set ctx to 40,960', why: 'the model\'s 40,960 trained positions' }]);
  assert.match(f.summary, /One click makes it run:$/);
  assert.match(infeasibleNotice('weights do not fit', []).summary, /not computed until it fits/);
});

test('a long list of allowed names shows its first names and how many more, a short one whole', () => {
  const names = Array.from({ length: 20 }, (_, i) => `preset-number-${i}`);
  const long = `one of: ${names.join(', ')}`;
  const shown = shortAllowed(long);
  assert.ok(shown.length <= 180, shown);
  assert.ok(shown.startsWith('one of: preset-number-0, preset-number-1'));
  const kept = shown.slice(0, shown.indexOf(', …')).split(', ').length;
  assert.ok(shown.endsWith(`, … (${20 - kept} more)`), shown);
  assert.equal(shortAllowed('4 to 1048576'), '4 to 1048576');
  assert.equal(shortAllowed(''), '');
});
