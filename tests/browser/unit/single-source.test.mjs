// A check that names, keys and formats stay single-sourced: the page's scripts hold no list of the app's
// labels (paths, objects, endpoints, error reasons, panels, provenance), no script of the page or of its tests
// types a list of the app's keys (scenario parameters, link keys), figure ids or path names, and the page has
// no serialiser or number formatter of its own (CSV or JSON writers, escapers, SI formatting). The app
// supplies all of them (src/app/page_json.cpp's catalog, src/evidence/reports.cpp, src/anim/format.cpp,
// src/base/text.cpp); tests read them from the catalog (tests/browser/lib/catalog.mjs).
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
    if (e.isDirectory()) { if (e.name !== 'node_modules') out.push(...scripts(p)); }
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

// ---------------------------------------------------------------------------------------------
// Keys and ids: a list of them typed into a script is a second copy of the app's table, which drifts when a
// key is added (seven test files once each typed the seven paths). Each kind names the catalog entry a
// script reads instead.
const CATALOG = JSON.parse(read('tests/golden/catalog.json'));
function appKeys() {
  return {
    'path names': { keys: new Set(CATALOG.paths.map((p) => p.key)), read: 'catalog().paths (tests: PATH_KEYS in tests/browser/lib/catalog.mjs)' },
    'link keys': { keys: new Set(CATALOG.linkKeys), read: 'catalog().linkKeys' },
    'param keys': { keys: new Set(CATALOG.sweepKeys.map((k) => k.key)), read: 'catalog().sweepKeys' },
    'figure ids': { keys: new Set(JSON.parse(read('tests/golden/figures.json')).figures.map((f) => f.id)), read: 'window.tierscope.figures() or catalog().decodeTerms' },
  };
}

// The array and object literals of a script as a tree: each with its items in order (a string literal, or a
// nested literal), object keys left out. Comments, regular expressions and template literals with
// substitutions are skipped; it reads the scripts of this repository, not every script there could be.
export function literalTree(text) {
  const root = { open: '(', items: [] };
  const stack = [root];
  let prev = '';  // the last significant token, to tell a regular expression from a division
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); i = end < 0 ? text.length : end + 2; continue; }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1, str = '', plain = true;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') { str += text[j + 1]; j += 2; continue; }
        if (c === '`' && text[j] === '$' && text[j + 1] === '{') {
          plain = false;
          let depth = 1;
          j += 2;
          while (j < text.length && depth > 0) { if (text[j] === '{') depth++; else if (text[j] === '}') depth--; j++; }
          continue;
        }
        str += text[j++];
      }
      i = j + 1;
      // A string followed by ':' inside an object is a property name, not a value.
      let k = i;
      while (k < text.length && /\s/.test(text[k])) k++;
      const top = stack[stack.length - 1];
      if (plain && !(top.open === '{' && text[k] === ':')) top.items.push({ str });
      prev = 'str';
      continue;
    }
    if (c === '/' && (prev === '' || /^[=(,:;!&|?{}[\]+\-*%<>~^]$/.test(prev) || prev === 'return')) {
      let j = i + 1, inClass = false;
      while (j < text.length && text[j] !== '\n') {
        if (text[j] === '\\') { j += 2; continue; }
        if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        else if (text[j] === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      prev = 're';
      continue;
    }
    if (c === '[' || c === '{' || c === '(') {
      const node = { open: c, items: [], line: text.slice(0, i).split('\n').length };
      stack[stack.length - 1].items.push({ node });
      stack.push(node);
    } else if ((c === ']' || c === '}' || c === ')') && stack.length > 1) {
      stack.pop();
    }
    if (!/\s/.test(c)) prev = /[A-Za-z0-9_$]/.test(c) ? (/^[A-Za-z0-9_$]*$/.test(prev) ? prev + c : c) : c;
    i++;
  }
  return root;
}

// Arrays that list two or more keys of one kind: directly (['prefill', 'decode']), as the first member of
// tuples ([['decode.t_weights', 'words'], …]) or as records holding nothing but keys ([{key: 'ctx'}, …]).
export function keyLists(text, kinds) {
  const found = [];
  const walk = (node) => {
    for (const it of node.items) if (it.node) walk(it.node);
    if (node.open !== '[') return;
    for (const [kind, { keys }] of Object.entries(kinds)) {
      const direct = node.items.filter((it) => it.str !== undefined && keys.has(it.str)).map((it) => it.str);
      const tuples = node.items.filter((it) => it.node && it.node.open === '[' && it.node.items[0] && keys.has(it.node.items[0].str)).map((it) => it.node.items[0].str);
      // A record with anything else in it (words, nested wordings) is words keyed by a key, not a list.
      const records = node.items.filter((it) => it.node && it.node.open === '{' && it.node.items.length > 0 &&
        it.node.items.every((x) => x.str !== undefined && keys.has(x.str))).map((it) => it.node.items[0].str);
      for (const [how, hits] of [['', direct], ['tuples of ', tuples], ['records of ', records]]) {
        const distinct = [...new Set(hits)];
        if (distinct.length >= 2) found.push({ line: node.line, kind, how, hits: distinct });
      }
    }
  };
  walk(literalTree(text));
  return found;
}

test('the key check finds the lists it is meant to find (it would pass vacuously otherwise)', () => {
  const K = appKeys();
  assert.ok(K['path names'].keys.has('decode') && K['link keys'].keys.has('step') && K['param keys'].keys.has('ctx') && K['figure ids'].keys.has('decode.step_time'));
  const kinds = (...names) => Object.fromEntries(names.map((n) => [n, K[n]]));
  const lists = (src, ...names) => keyLists(src, kinds(...names)).map((f) => `${f.how}${f.kind}`);
  assert.deepEqual(lists("const P = ['prefill', 'decode'];", 'path names'), ['path names']);
  assert.deepEqual(lists("x([['decode.t_weights', 'reading'], ['decode.t_host', 'host']]);", 'figure ids'), ['tuples of figure ids']);
  assert.deepEqual(lists("const F = [{ key: 'ctx' }, { key: 'batch' }];", 'param keys'), ['records of param keys']);
  // One key quoted, words keyed by it, an object keyed by keys, a regular expression: not lists.
  assert.deepEqual(lists("f('decode'); const W = [{ path: 'decode', title: 'Decode: one token' }, { path: 'prefill', title: 'Prefill' }];", 'path names'), []);
  assert.deepEqual(lists("const M = { decode: 1, 'step-budget': 2 }; const r = /['decode', 'prefill']/;", 'path names'), []);
  assert.deepEqual(lists("const c = [['unknown path', 'path=warp', 'path'], ['bad step', 'step=x', 'step']];", 'link keys'), []);
});

test('no script of the page or its tests types a list of the app\'s keys, figure ids or path names', () => {
  const K = appKeys();
  const found = [];
  for (const file of [...scripts(WEB), ...scripts(path.join(ROOT, 'tests/browser'))]) {
    for (const f of keyLists(fs.readFileSync(file, 'utf8'), K)) {
      found.push(`${path.relative(ROOT, file)}:${f.line}: a list of ${f.how}${f.kind} ${JSON.stringify(f.hits.slice(0, 6))}: read ${K[f.kind].read}`);
    }
  }
  assert.deepEqual(found, [], 'keys, ids and paths come from the app\'s catalog, not from a list typed in a script');
});
