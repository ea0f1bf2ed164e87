// The Serve panel's trust band (web/lib/serve-trust.mjs) under node, with a stand-in document: "computing…"
// while a replay runs (a line before the first result, the band cells after it), each figure's label, value
// and band as the worker's answer gives them, a button per figure that lists the runs behind the band as a
// table (one list at a time, the button saying whether it is open), none where no run is near, and the last
// finished bands back after a cancel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWith } from './fake-dom.mjs';
import { makeEl, makeById } from '../../../web/lib/dom.mjs';
import { createServeTrust, trustRunRows, COMPUTING } from '../../../web/lib/serve-trust.mjs';

const IDS = ['serve-trust', 'serve-trust-status:p', 'serve-trust-table:table', 'serve-trust-rows:tbody', 'serve-trust-runs',
  'serve-trust-runs-caption:caption', 'serve-trust-runs-rows:tbody'];

// An answer in the worker's shape (src/worker/worker_bridge.cpp: trustRows, trustRuns).
function answer({ near = true } = {}) {
  const figures = (k) => ({ measured: `${k}-m`, model: `${k}-p`, ratio: '0.90' });
  const band = (k) => (near ? `measured runs like this: model ÷ measured 0.80–1.10 (2 runs of vllm on h100) [${k}]` : 'no measured runs near this setup');
  return {
    ok: true,
    trustRows: [{ key: 'ttft', label: 'Mean TTFT (ms)', value: '120.50', text: band('ttft'), near },
      { key: 'tpot', label: 'Mean TPOT (ms)', value: '12.25', text: band('tpot'), near },
      { key: 'output_tokens_per_s_gpu', label: 'Output token throughput per GPU (tok/s)', value: '900.00', text: band('tps'), near }],
    trustRuns: near ? ['a', 'b'].map((id) => ({ id, model: 'm', gpu: 'h100', engine: 'vllm', isl: 1024, osl: 128, concurrency: 8, layout: '1 GPUs, TP 1', distance: 0.5,
      figures: { ttft: figures('ttft'), tpot: figures('tpot'), output_tokens_per_s_gpu: figures('tps') } })) : [],
  };
}

function setup() {
  const doc = pageWith(IDS);
  const $ = makeById(doc), el = makeEl(doc);
  for (const id of ['serve-trust', 'serve-trust-table', 'serve-trust-runs']) $(id).hidden = true;
  const trust = createServeTrust({ $, el });
  trust.wire();
  const rows = () => $('serve-trust-rows').querySelectorAll('tr').map((tr) => [tr.children[0].textContent, tr.children[1].textContent, tr.querySelector('span.serve-trust-band').textContent]);
  const buttons = () => $('serve-trust-rows').querySelectorAll('button.serve-trust-list');
  return { $, trust, rows, buttons };
}

test('before the first result the panel says the band is computing; after it, each figure with its value and band', () => {
  const t = setup();
  t.trust.computing();
  assert.equal(t.$('serve-trust').hidden, false);
  assert.equal(t.$('serve-trust-status').textContent, `Measured runs like this: ${COMPUTING}`);
  assert.equal(t.$('serve-trust-table').hidden, true);
  const a = answer();
  t.trust.show(a);
  assert.equal(t.$('serve-trust-status').textContent, '');
  assert.equal(t.$('serve-trust-table').hidden, false);
  assert.deepEqual(t.rows().map((r) => r.slice(0, 3)), a.trustRows.map((r) => [r.label, r.value, r.text]));
  assert.equal(t.buttons().length, 3);
  // A second run: its bands are computing, the buttons wait; a cancel brings the last finished ones back.
  t.trust.computing();
  assert.deepEqual(t.rows().map((r) => r[2]), [COMPUTING, COMPUTING, COMPUTING]);
  assert.ok(t.buttons().every((b) => b.disabled));
  t.trust.show(null);
  assert.deepEqual(t.rows().map((r) => r[2]), a.trustRows.map((r) => r.text));
  assert.ok(t.buttons().every((b) => !b.disabled));
});

test('a figure\'s button lists the runs behind its band as a table, one list at a time, and closes it again', () => {
  const t = setup();
  const a = answer();
  t.trust.show(a);
  assert.equal(t.$('serve-trust-runs').hidden, true);
  t.buttons()[1].click();
  assert.equal(t.$('serve-trust-runs').hidden, false);
  assert.equal(t.buttons()[1].getAttribute('aria-expanded'), 'true');
  assert.equal(t.buttons()[1].textContent, 'Hide the runs');
  assert.equal(t.buttons()[0].getAttribute('aria-expanded'), 'false');
  assert.match(t.$('serve-trust-runs-caption').textContent, /^Measured runs like this, for Mean TPOT \(ms\): .*\[tpot\]$/);
  const listed = t.$('serve-trust-runs-rows').querySelectorAll('tr').map((tr) => tr.children.map((c) => c.textContent));
  assert.deepEqual(listed, trustRunRows(a, 'tpot'));
  assert.deepEqual(listed[0], ['m', 'h100', 'vllm', '1024/128', '8', '1 GPUs, TP 1', 'tpot-m', 'tpot-p', '0.90', 'a']);
  // The focus stays on the button pressed (it was rebuilt).
  assert.equal(t.$('serve-trust-rows').ownerDocument.activeElement, t.buttons()[1]);
  t.buttons()[2].click();
  assert.match(t.$('serve-trust-runs-caption').textContent, /for Output token throughput per GPU \(tok\/s\)/);
  t.buttons()[2].click();
  assert.equal(t.$('serve-trust-runs').hidden, true);
  assert.ok(t.buttons().every((b) => b.getAttribute('aria-expanded') === 'false'));
});

test('where no measured run is near, the band says so and no button offers runs', () => {
  const t = setup();
  t.trust.show(answer({ near: false }));
  assert.deepEqual(t.rows().map((r) => r[2]), ['no measured runs near this setup', 'no measured runs near this setup', 'no measured runs near this setup']);
  assert.equal(t.buttons().length, 0);
  assert.equal(t.$('serve-trust-runs').hidden, true);
});
