// A check that names and formats stay single-sourced: the page's scripts hold no list of the app's labels
// (paths, objects, endpoints, error reasons, panels, provenance) and no serialiser or number formatter of
// their own (CSV or JSON writers, escapers, SI formatting). The app supplies all of them (src/app/page_json.cpp,
// src/evidence/reports.cpp, src/anim/format.cpp, src/base/text.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WEB = path.join(ROOT, 'web');
const read = (p) => fs.readFileSync(path.join(ROOT, p), 'utf8');

function scripts(dir = WEB) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...scripts(p));
    else if (/\.(m?js)$/.test(e.name)) out.push(p);
  }
  return out;
}

// String literals of a script, exactly as written between quotes.
function literals(text) {
  const out = new Set();
  for (const m of text.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`$\\]*)`/g)) out.add(m[1] ?? m[2] ?? m[3]);
  return out;
}

// The labels the app shows, read from its own sources and golden files.
function appLabels() {
  const golden = JSON.parse(read('tests/golden/decode.json'));
  const labelsOf = (file, fn) => [...read(file).matchAll(/\{"([^"]+)", "([^"]+)"/g)].map(fn);
  // Each error code's reason, from the one table of codes (src/base/errors.cpp: {code, name, reason}).
  const reasons = [...read('src/base/errors.cpp').matchAll(/\{ErrorCode::\w+, "[a-z-]+", "((?:is|has|appears|contradicts|asks|was) [^"]+)"\}/g)].map((m) => m[1]);
  const figures = JSON.parse(read('tests/golden/figures.json')).figures;
  return {
    paths: [...read('src/anim/ledger.cpp').matchAll(/^\s+\{"([A-Z][^"]+)",\s*$/gm)].map((m) => m[1]).concat(golden.label),
    objects: golden.start.map((s) => s.label),
    endpoints: labelsOf('src/anim/ledger.cpp', (m) => m[2]).filter((l) => /^(GPU|host|NVMe)/.test(l)),
    reasons,
    provenance: [...new Set(figures.map((f) => f.provenance))],
    units: [...new Set(figures.map((f) => f.unit))].filter((u) => u.length > 2),
  };
}

test('the check knows the app\'s labels (it would pass vacuously otherwise)', () => {
  const L = appLabels();
  assert.ok(L.paths.includes('Decode step'), JSON.stringify(L.paths));
  assert.ok(L.objects.length >= 8);
  assert.ok(L.endpoints.includes('GPU HBM'));
  assert.ok(L.reasons.includes('is out of range'));
  assert.ok(L.provenance.length >= 3);
});

test('no script of the page types a list of the app\'s labels', () => {
  const L = appLabels();
  const found = [];
  for (const file of scripts()) {
    const lits = literals(fs.readFileSync(file, 'utf8'));
    for (const [kind, labels] of Object.entries(L)) {
      const hits = labels.filter((l) => lits.has(l));
      // One label may be quoted in prose or a test of wording; two or more of a kind is a list.
      if (hits.length >= 2) found.push(`${path.relative(ROOT, file)}: ${kind} ${JSON.stringify(hits)}`);
    }
  }
  assert.deepEqual(found, [], 'labels come from the app\'s catalog (window.tierscope.catalog()), not from the page');
});

// Code that writes a format or a number the app already writes.
const SERIALISERS = [
  [/replace\(\s*\/"\/g\s*,\s*'""'\s*\)/, 'a CSV quote escaper'],
  [/\[",\\r\\n\]|\[",\\n\\r\]|\[",\\n\]/, 'a CSV quoting rule'],
  [/rows\.join\(\s*'\\r\\n'\s*\)|\.join\(','\)\s*\+\s*'\\r\\n'/, 'a CSV writer'],
  [/JSON\.stringify\([^)]*,\s*null\s*,\s*\d\s*\)/, 'a pretty JSON writer (downloads come from the app)'],
  [/&amp;|&quot;|&lt;/, 'an HTML escaper'],
  [/\\u00[0-9a-f]{2}|\\\\u/i, 'a JSON string escaper'],
  [/toPrecision\(|toLocaleString\(|\[1e12,\s*'T'\]|'µs'|' GB'|'ms'\]/, 'a number or unit formatter'],
];

test('no script of the page carries a CSV, JSON or HTML serialiser or a number formatter', () => {
  const found = [];
  for (const file of scripts()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [re, what] of SERIALISERS) if (re.test(text)) found.push(`${path.relative(ROOT, file)}: ${what}`);
  }
  assert.deepEqual(found, [], 'the app writes these (src/base/text.cpp, src/evidence/reports.cpp, src/anim/format.cpp)');
});
