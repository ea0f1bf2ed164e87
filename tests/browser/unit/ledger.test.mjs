// Unit tests of the ledger panel's data side against a real ledger from the native tool.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { normalizeLedger, filterOptions, filterEntries, ledgerToCsv, ledgerToJson, csvCell, exportName, labeller, CSV_COLUMNS } from '../../../web/lib/ledger.mjs';

const raw = JSON.parse(fs.readFileSync(new URL('../../golden/decode.json', import.meta.url), 'utf8'));
const ledger = normalizeLedger(raw);

test('the app\'s field names are read, entries keep their order and index', () => {
  assert.equal(ledger.path, 'decode');
  assert.equal(ledger.entries.length, raw.entries.length);
  ledger.entries.forEach((e, i) => assert.equal(e.index, i));
  const w = ledger.entries.find((e) => e.step === 'weights');
  assert.equal(w.bytes, raw.entries[w.index].bytes);
  assert.equal(w.tStart, raw.entries[w.index].t_start_s);
  assert.equal(w.duration, raw.entries[w.index].duration_s);
  assert.ok(normalizeLedger(null).entries.length === 0, 'nothing in, an empty ledger out');
});

// Names as the app's state JSON gives them (its order, its words).
const names = {
  objects: { 'working-set': 'Kernel working set', 'moe-weights': 'Dense weights', 'global-kv': 'Global KV', engram: 'Engram tables' },
  endpoints: { sram: 'GPU SRAM', hbm: 'GPU HBM', dram: 'host DRAM', ssd: 'NVMe SSD' },
};

test('labels come from the app\'s names, in its order; a key without a name shows as itself', () => {
  const L = labeller(names);
  assert.equal(L.object('moe-weights'), 'Dense weights');
  assert.equal(L.endpoint('hbm'), 'GPU HBM');
  assert.equal(L.object('unknown-thing'), 'unknown-thing');
  assert.equal(labeller(null).object('global-kv'), 'global-kv');
  assert.equal(L.object('constructor'), 'constructor', 'no inherited property is taken for a name');
  const opts = filterOptions(ledger, names);
  const known = opts.tiers.map((t) => t.key).filter((k) => k in names.endpoints);
  assert.ok(known.length >= 2);
  assert.deepEqual(known, Object.keys(names.endpoints).filter((k) => known.includes(k)), 'in the app\'s order');
  const weights = opts.objects.find((o) => o.key === 'moe-weights');
  assert.equal(weights.label, 'Dense weights');
});

test('filters by tier (either end of a move) and by object', () => {
  const opts = filterOptions(ledger, names);
  assert.ok(opts.tiers.some((t) => t.key === 'hbm'));
  const sram = filterEntries(ledger.entries, { tier: 'sram' });
  assert.ok(sram.length > 0 && sram.every((e) => e.from === 'sram' || e.to === 'sram'));
  const kv = filterEntries(ledger.entries, { object: 'global-kv' });
  assert.ok(kv.length > 0 && kv.every((e) => e.object === 'global-kv'));
  assert.equal(filterEntries(ledger.entries, {}).length, ledger.entries.length);
});

test('CSV: a header, one row per entry, RFC 4180 quoting, formula cells defused', () => {
  const csv = ledgerToCsv(ledger.entries);
  const lines = csv.trimEnd().split('\r\n');
  assert.equal(lines[0], CSV_COLUMNS.join(','));
  assert.equal(lines.length, ledger.entries.length + 1);
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell(1e-7), '1e-7');
  assert.ok(lines[1].startsWith('0,,'));
});

test('JSON export is the app\'s JSON, narrowed to the filtered entries', () => {
  const all = JSON.parse(ledgerToJson(ledger, ledger.entries));
  assert.deepEqual(all, raw);
  const some = filterEntries(ledger.entries, { object: 'global-kv' });
  const narrowed = JSON.parse(ledgerToJson(ledger, some, { object: 'global-kv' }));
  assert.deepEqual(narrowed.entries.map((e) => e.index), some.map((e) => e.index));
  assert.deepEqual(narrowed.filter, { tier: null, object: 'global-kv' });
  assert.equal(exportName(ledger, { tier: 'hbm', object: '' }, 'csv'), 'tierscope-decode-v41-flash-8xb200-hbm.csv');
});
