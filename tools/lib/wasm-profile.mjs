// Reads what wasm-split needs of a module and writes the profiles it splits by: the module's function names
// (its "name" section), the hash wasm-split gives a module, and a profile that marks named functions as
// called. The page's module is split by a list of names kept in the source tree, so a build needs no
// browser: the list is turned into the profile of that build's own module (tools/first-frame.mjs).

// Reads an unsigned LEB128 at `at`; returns [value, next offset].
function leb(bytes, at) {
  let value = 0, shift = 0, b;
  do {
    if (at >= bytes.length) throw new Error('the module ends inside a number');
    b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [value, at];
}

function name(bytes, at) {
  const [n, from] = leb(bytes, at);
  return [new TextDecoder().decode(bytes.subarray(from, from + n)), from + n];
}

// The module's sections as { id, start, end, name } (name for custom sections).
function sections(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a WebAssembly module');
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const s = { id, start, end: start + size };
    if (id === 0) s.name = name(bytes, start)[0];
    out.push(s);
    at = s.end;
  }
  return out;
}

// How many functions the module imports (they come first in the function index space).
function importedFunctions(bytes, all) {
  const imports = all.find((s) => s.id === 2);
  if (!imports) return 0;
  let [count, at] = leb(bytes, imports.start);
  let functions = 0;
  for (let i = 0; i < count; i++) {
    [, at] = name(bytes, at);
    [, at] = name(bytes, at);
    const kind = bytes[at++];
    if (kind === 0) { [, at] = leb(bytes, at); functions++; }           // function: type index
    else if (kind === 1) { at++; const [flags, a] = leb(bytes, at); at = a; [, at] = leb(bytes, at); if (flags & 1) [, at] = leb(bytes, at); } // table
    else if (kind === 2) { const [flags, a] = leb(bytes, at); at = a; [, at] = leb(bytes, at); if (flags & 1) [, at] = leb(bytes, at); }      // memory
    else if (kind === 3) at += 2;                                         // global: type, mutability
    else throw new Error(`an import of unknown kind ${kind}`);
  }
  return functions;
}

// The defined functions' names in module order ('' where the name section gives none). Throws when the
// module has no name section: it must be linked with --profiling-funcs.
export function definedFunctionNames(bytes) {
  const all = sections(bytes);
  const code = all.find((s) => s.id === 10);
  const defined = code ? leb(bytes, code.start)[0] : 0;
  const first = importedFunctions(bytes, all);
  const names = all.find((s) => s.id === 0 && s.name === 'name');
  if (!names) throw new Error('the module has no name section (link it with --profiling-funcs)');
  const out = new Array(defined).fill('');
  let at = name(bytes, names.start)[1];
  while (at < names.end) {
    const kind = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    if (kind === 1) {
      let [count, p] = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        let index, text;
        [index, p] = leb(bytes, p);
        [text, p] = name(bytes, p);
        if (index >= first && index - first < defined) out[index - first] = text;
      }
    }
    at = start + size;
  }
  return out;
}

// The hash wasm-split's --instrument writes into a profile and its --profile checks: every byte of the
// module file folded in, as binaryen's 64-bit hash_combine does.
export function moduleHash(bytes) {
  const M = (1n << 64n) - 1n;
  let d = 0n;
  for (const c of bytes) {
    const v = BigInt(c > 127 ? c - 256 : c) & M;  // each byte a signed char, widened
    d ^= (v + 0x9e3779b97f4a7c15n + ((d << 12n) & M) + (d >> 4n)) & M;
  }
  return d;
}

// A profile of `bytes` in wasm-split's layout (the module's hash, then a 32-bit first-call time for each
// defined function, 0 for never called) that marks every function whose name is in `keep` as called.
export function profileFromNames(bytes, keep) {
  const names = definedFunctionNames(bytes);
  const out = Buffer.alloc(8 + 4 * names.length);
  out.writeBigUInt64LE(moduleHash(bytes), 0);
  let kept = 0;
  names.forEach((n, i) => { if (n && keep.has(n)) { out.writeUInt32LE(++kept, 8 + 4 * i); } });
  return { profile: out, kept, functions: names.length };
}

// The names of the functions a recorded profile saw called (its module is the instrumented one's input).
export function namesFromProfile(bytes, profile) {
  const names = definedFunctionNames(bytes);
  if (profile.length !== 8 + 4 * names.length) throw new Error(`the profile holds ${(profile.length - 8) / 4} functions, the module ${names.length}`);
  if (profile.readBigUInt64LE(0) !== moduleHash(bytes)) throw new Error('the profile was recorded from another build of the module');
  return names.filter((n, i) => n && profile.readUInt32LE(8 + 4 * i) !== 0);
}
