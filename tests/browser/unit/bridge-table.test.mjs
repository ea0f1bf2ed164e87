// The exports of both modules against the scripts that call them: each row of the page's table
// (web/lib/bridge.mjs EXPORTS) names an export of src/platform/web_bridge.cpp with as many arguments, of the
// kinds it says, and an answer of the kind it says; every export is called, by the table or by the module's
// own script (web_bridge.js); and the worker's script (web/worker.js) calls exactly the worker's exports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EXPORTS } from '../../../web/lib/bridge.mjs';

const root = new URL('../../../', import.meta.url);
const read = (p) => readFileSync(new URL(p, root), 'utf8');

// The TS_EXPORT functions of a bridge file: name → {ret, params: [type]}.
function exportsOf(text, prefix) {
  const out = new Map();
  const re = new RegExp(`^TS_EXPORT\\s+(.+?)\\s*\\b${prefix}(\\w+)\\(([^)]*)\\)`, 'gm');
  let m;
  while ((m = re.exec(text))) {
    const params = m[3].trim() ? m[3].split(',').map((p) => p.trim().replace(/\s*\w+$/, '')) : [];
    out.set(m[2], { ret: m[1].trim(), params });
  }
  return out;
}
const called = (text, prefix) => new Set([...text.matchAll(new RegExp(`_${prefix}(\\w+)`, 'g'))].map((m) => m[1]));

const page = exportsOf(read('src/platform/web_bridge.cpp'), 'ts_bridge_');
const TYPES = { s: 'const char*', o: 'const char*', i: ['int', 'double'], f: 'double', b: 'int' };

test('the page bridge has its exports, each a row of the table or a hook of the module\'s own script', () => {
  assert.ok(page.size >= 30, `read ${page.size} exports`);
  const rows = new Set(Object.values(EXPORTS).map(([name]) => name));
  const hooks = called(read('src/platform/web_bridge.js'), 'ts_bridge_');
  for (const name of hooks) assert.ok(page.has(name), `web_bridge.js calls _ts_bridge_${name}, which web_bridge.cpp does not export`);
  for (const name of page.keys()) assert.ok(rows.has(name) || hooks.has(name), `ts_bridge_${name} is exported but neither bridge.mjs's table nor web_bridge.js calls it`);
});

test('each row of the table matches its export: arguments in number and kind, and the answer', () => {
  for (const [method, [name, kinds, answer]] of Object.entries(EXPORTS)) {
    const e = page.get(name);
    assert.ok(e, `${method}: web_bridge.cpp exports no ts_bridge_${name}`);
    assert.equal(e.params.length, kinds.length, `${method}: ts_bridge_${name} takes ${e.params.length} arguments, the table gives ${kinds.length}`);
    [...kinds].forEach((k, i) => {
      const want = [TYPES[k]].flat();
      assert.ok(want.includes(e.params[i]), `${method}: argument ${i + 1} is ${e.params[i]}, kind '${k}' crosses as ${want.join(' or ')}`);
    });
    const voidAnswer = answer === 'done' || answer === 'none';
    assert.equal(e.ret === 'void', voidAnswer, `${method}: ts_bridge_${name} returns ${e.ret}, the table reads '${answer}'`);
  }
});

test('the worker\'s script calls exactly the worker module\'s exports', () => {
  const worker = exportsOf(read('src/worker/worker_bridge.cpp'), 'ts_worker_');
  const calls = called(read('web/worker.js'), 'ts_worker_');
  assert.ok(worker.size >= 5, `read ${worker.size} exports`);
  assert.deepEqual([...calls].sort(), [...worker.keys()].sort());
});
