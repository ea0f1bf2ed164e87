// Unit tests of the walkthrough content: enough steps, every path told, every slot a real figure id, no
// number typed into the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { STEPS, parseTemplate, slotIds, entryIndex, stepText, missingPart } from '../../../web/lib/tour.mjs';
import { figureText } from '../../../web/lib/format.mjs';

const figures = JSON.parse(fs.readFileSync(new URL('../fixtures/figures.json', import.meta.url), 'utf8')).figures;
const ids = new Set(figures.map((f) => f.id));
const ledger = JSON.parse(fs.readFileSync(new URL('../fixtures/ledger-decode.json', import.meta.url), 'utf8'));

test('seven or more steps, one per path, in the story\'s order', () => {
  assert.ok(STEPS.length >= 7);
  assert.deepEqual(STEPS.map((s) => s.path), ['prefill', 'decode', 'engram', 'csa2-modes', 'swa-resume', 'prefix-cache', 'step-budget']);
});

test('every slot names a figure the model computes', () => {
  for (const id of slotIds()) assert.ok(ids.has(id), `unknown figure id {${id}}`);
});

test('no digits are typed into the text: numbers come from the model', () => {
  for (const s of STEPS) {
    for (const p of s.body) {
      // Names that contain digits (CSA2, H[t]) are names, not quantities.
      const prose = parseTemplate(p).filter((x) => x.text).map((x) => x.text).join('').replace(/CSA2/g, '');
      assert.doesNotMatch(prose, /\d/, `step ${s.id}: a number typed into “${prose.slice(0, 60)}…”`);
    }
    assert.doesNotMatch((s.title + s.look).replace(/CSA2/g, ''), /\d/);
  }
});

test('templates split into text and figure parts', () => {
  assert.deepEqual(parseTemplate('a {kv.main_entry} b {not a slot}'), [{ text: 'a ' }, { figure: 'kv.main_entry' }, { text: ' b {not a slot}' }]);
  const byId = new Map(figures.map((f) => [f.id, f]));
  const text = stepText(STEPS[1], (id) => figureText(byId.get(id)));
  assert.match(text, /12\.48 GB/, 'the decode step quotes the streamed weight bytes');
  assert.doesNotMatch(text, /[{}]/);
});

test('each step opens on the ledger entry it talks about', () => {
  const decode = STEPS.find((s) => s.path === 'decode');
  assert.equal(ledger.entries[entryIndex(decode, ledger.entries)].step, 'weights');
  assert.equal(entryIndex({ entry: { step: 'nope' } }, ledger.entries), 0);
});

test('steps about parts a model lacks say so: none for V4.1 Flash, Engram, CSA2, SWA and CED for Llama 3', () => {
  const valueMap = (list) => { const m = new Map(list.map((f) => [f.id, f.value])); return (id) => m.get(id); };
  const v41 = valueMap(figures);
  assert.deepEqual(STEPS.map((s) => missingPart(s, v41)).filter(Boolean), []);
  const llama = JSON.parse(fs.readFileSync(new URL('../fixtures/figures-llama3.json', import.meta.url), 'utf8')).figures;
  const missing = Object.fromEntries(STEPS.map((s) => [s.id, missingPart(s, valueMap(llama))]));
  assert.equal(missing.engram, 'Engram tables');
  assert.equal(missing['csa2-modes'], 'sparse attention indexers');
  assert.equal(missing['swa-resume'], 'sliding-window KV');
  assert.equal(missing.prefill, 'causal encoder-decoder split');
  assert.equal(missing.decode, '');
  // Before the figures arrive nothing is claimed.
  assert.deepEqual(STEPS.map((s) => missingPart(s, () => undefined)).filter(Boolean), []);
});
