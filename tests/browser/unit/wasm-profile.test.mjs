// Unit tests of how the build turns the list of the first frame's functions into a profile wasm-split
// splits by (tools/lib/wasm-profile.mjs), on a module small enough to write by hand: one imported and two
// defined functions, all named. (The build itself checks the hash against wasm-split: a wrong one fails it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definedFunctionNames, moduleHash, namesFromProfile, profileFromNames } from '../../../tools/lib/wasm-profile.mjs';

const text = (s) => [s.length, ...Buffer.from(s)];
const section = (id, bytes) => [id, bytes.length, ...bytes];
function tinyModule({ names = true } = {}) {
  const nameSub = [3, 0, ...text('imported'), 1, ...text('first'), 2, ...text('second')];
  return Uint8Array.from([
    0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 0]),                       // one type: () -> ()
    ...section(2, [1, ...text('env'), ...text('f'), 0, 0]), // one imported function
    ...section(3, [2, 0, 0]),                             // two defined functions
    ...section(10, [2, 2, 0, 0x0b, 2, 0, 0x0b]),           // their empty bodies
    ...(names ? section(0, [...text('name'), 1, nameSub.length, ...nameSub]) : []),
  ]);
}

test('the defined functions\' names in module order, past the imported ones', () => {
  assert.deepEqual(definedFunctionNames(tinyModule()), ['first', 'second']);
  assert.throws(() => definedFunctionNames(tinyModule({ names: false })), /no name section.*--profiling-funcs/);
  assert.throws(() => definedFunctionNames(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8])), /not a WebAssembly module/);
});

test('a profile marks the listed functions called, and reads back as the same names', () => {
  const mod = tinyModule();
  const { profile, kept, functions } = profileFromNames(mod, new Set(['second', 'not in the module']));
  assert.equal(kept, 1);
  assert.equal(functions, 2);
  assert.equal(profile.length, 8 + 4 * 2);
  assert.equal(profile.readBigUInt64LE(0), moduleHash(mod));
  assert.equal(profile.readUInt32LE(8), 0, 'first: never called');
  assert.notEqual(profile.readUInt32LE(12), 0, 'second: called');
  assert.deepEqual(namesFromProfile(mod, profile), ['second']);
});

test('a profile of another build or another module is refused by name', () => {
  const mod = tinyModule();
  const { profile } = profileFromNames(mod, new Set(['first']));
  const other = Buffer.from(profile);
  other.writeBigUInt64LE(moduleHash(mod) ^ 1n, 0);
  assert.throws(() => namesFromProfile(mod, other), /another build/);
  assert.throws(() => namesFromProfile(mod, profile.subarray(0, 12)), /holds 1 functions, the module 2/);
});

test('the module hash depends on every byte and their order', () => {
  const a = moduleHash(Uint8Array.from([1, 2, 3])), b = moduleHash(Uint8Array.from([3, 2, 1])), c = moduleHash(Uint8Array.from([1, 2, 3, 0]));
  assert.notEqual(a, b);
  assert.notEqual(a, c);
  assert.equal(a, moduleHash(Uint8Array.from([1, 2, 3])));
  assert.ok(a < 1n << 64n && a >= 0n);
});
