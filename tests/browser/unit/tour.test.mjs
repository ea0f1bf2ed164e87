// Unit tests of the walkthrough content: enough steps, every path told, every slot a real figure id, no
// number typed into the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { STEPS, ARCH_SLOTS, parseTemplate, slotIds, entryIndex, stepText, variantFor, allVariants, stepIndexOfPath } from '../../../web/lib/tour.mjs';

const figures = JSON.parse(fs.readFileSync(new URL('../../golden/figures.json', import.meta.url), 'utf8')).figures;
const ids = new Set(figures.map((f) => f.id));
const ledger = JSON.parse(fs.readFileSync(new URL('../../golden/decode.json', import.meta.url), 'utf8'));

// state().arch as the app reports it for three kinds of model.
const V41 = { family: 'encoder-decoder', attention: 'csa2', layers: 43, encoder_layers: 20, moe: true, engram: true, sparse: true, window: 128 };
const LLAMA = { family: 'decoder-only', attention: 'gqa', layers: 80, kv_heads: 8, q_heads: 64, head_dim: 128, moe: false, engram: false, sparse: false, window: 0 };
const V3 = { family: 'decoder-only', attention: 'mla', layers: 61, kv_lora: 512, moe: true, engram: false, sparse: false, window: 0 };

test('seven or more steps, one per path, in the story\'s order', () => {
  assert.ok(STEPS.length >= 7);
  assert.deepEqual(STEPS.map((s) => s.path), ['prefill', 'decode', 'engram', 'csa2-modes', 'swa-resume', 'prefix-cache', 'step-budget']);
  assert.equal(stepIndexOfPath('engram'), 2);
  assert.equal(stepIndexOfPath('nope'), -1);
});

test('every slot names a figure the model computes or a fact of state().arch', () => {
  for (const id of slotIds()) assert.ok(ids.has(id), `unknown figure id {${id}}`);
  for (const s of STEPS) for (const v of allVariants(s)) for (const p of v.body) for (const part of parseTemplate(p)) {
    if (part.figure && part.figure.startsWith('arch.')) assert.ok(ARCH_SLOTS.includes(part.figure.slice(5)), `unknown arch slot {${part.figure}}`);
  }
});

test('no digits are typed into any wording: numbers come from the model', () => {
  for (const s of STEPS) {
    for (const v of allVariants(s)) {
      for (const p of v.body) {
        // Names that contain digits (CSA2, H[t], V4.1) are names, not quantities.
        const prose = parseTemplate(p).filter((x) => x.text).map((x) => x.text).join('').replace(/CSA2|V4\.1/g, '');
        assert.doesNotMatch(prose, /\d/, `step ${s.id}: a number typed into “${prose.slice(0, 60)}…”`);
      }
      assert.doesNotMatch((v.title + v.look).replace(/CSA2/g, ''), /\d/);
    }
  }
});

test('units once: no figure slot is followed by the unit its text already carries', () => {
  for (const s of STEPS) for (const v of allVariants(s)) for (const p of v.body) {
    assert.doesNotMatch(p, /\{kv\.global_per_token\} per token/, `${s.id}: "B/token per token"`);
    assert.doesNotMatch(p, /\{engram\.params\} (learned )?param/, `${s.id}: "params parameters"`);
    assert.doesNotMatch(p, /\{[a-z._]*sessions\} sessions/, `${s.id}: "sessions sessions"`);
  }
});

test('templates split into text and slots; the decode step quotes the streamed weight bytes', () => {
  assert.deepEqual(parseTemplate('a {kv.main_entry} b {not a slot}'), [{ text: 'a ' }, { figure: 'kv.main_entry' }, { text: ' b {not a slot}' }]);
  assert.deepEqual(parseTemplate('{arch.kv_heads} heads'), [{ figure: 'arch.kv_heads' }, { text: ' heads' }]);
  const byId = new Map(figures.map((f) => [f.id, f]));
  const text = stepText(variantFor(STEPS[1], V41), (id) => byId.get(id).text);
  assert.match(text, /12\.48 GB/);
  assert.doesNotMatch(text, /[{}]/);
});

test('each step opens on the ledger entry it talks about', () => {
  const decode = STEPS.find((s) => s.path === 'decode');
  assert.equal(ledger.entries[entryIndex(decode, ledger.entries)].step, 'weights');
  assert.equal(entryIndex({ entry: { step: 'nope' } }, ledger.entries), 0);
});

test('the wording follows the model: encoder-decoder CSA2, decoder-only GQA, MLA with experts', () => {
  const words = (arch) => Object.fromEntries(STEPS.map((s) => [s.id, variantFor(s, arch)]));
  const v41 = words(V41), llama = words(LLAMA), v3 = words(V3);
  assert.match(v41.prefill.title, /encoder/);
  assert.match(v41.decode.look, /MoE weights/);
  assert.match(v41['csa2-modes'].title, /CSA2/);
  // Llama: no encoder, dense weights, no Engram, no CSA2, no sliding window; its own KV layout.
  assert.doesNotMatch(llama.prefill.body.join(' ') + llama.prefill.title, /encoder/i);
  assert.match(llama.prefill.body.join(' '), /\{arch\.kv_heads\} KV heads/);
  assert.match(llama.decode.look, /dense weights/);
  assert.doesNotMatch(llama.decode.body.join(' '), /expert|CSA2/);
  assert.match(llama.engram.title, /not part of this model/);
  assert.doesNotMatch(llama['csa2-modes'].title, /CSA2/);
  assert.match(llama['swa-resume'].title, /no sliding window/);
  assert.doesNotMatch(llama['step-budget'].body.join(' '), /expert/);
  // DeepSeek-V3: MLA latents, experts, attention reads that grow with the context (no sparse gather).
  assert.match(v3.prefill.body.join(' '), /latent/);
  assert.match(v3.decode.look, /MoE/);
  assert.doesNotMatch(v3.decode.body.join(' '), /CSA2/);
  // Before the app has loaded, the story of the default model.
  assert.deepEqual(variantFor(STEPS[0], null), v41.prefill);
});
