// Serving as hosts do: the encoding a browser's Accept-Encoding gets, the caching header a file's name gets,
// a real request round trip (compressed bytes decode to the file, a revalidation answers 304), the compressed
// bodies a cache folder keeps for the next server, and the content-hashed names the site assembly gives its
// files with every reference to them rewritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pickEncoding, cacheControl, createServer, LONG_CACHE } from '../../../tools/serve.mjs';
import { hashSite, rewriteReferences, HASHED } from '../../../tools/hash-site.mjs';

test('brotli is preferred, then gzip; a coding refused with q=0 is never sent', () => {
  assert.equal(pickEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(pickEncoding('gzip, deflate'), 'gzip');
  assert.equal(pickEncoding('br;q=0, gzip;q=0.8'), 'gzip');
  assert.equal(pickEncoding('identity'), '');
  assert.equal(pickEncoding(undefined), '');
  assert.equal(pickEncoding('*'), 'br');
  assert.equal(pickEncoding('*;q=0'), '');
});

test('hashed names are cached for a year, the page and the service worker are revalidated', () => {
  assert.equal(cacheControl('tierscope.0123456789.wasm'), LONG_CACHE);
  assert.equal(cacheControl('index.html'), 'no-cache');
  assert.equal(cacheControl('sw.js'), 'no-cache');
  assert.equal(cacheControl('tierscope.wasm'), 'no-cache');
});

function tmpSite(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-serve-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function withServer(root, fn, options = {}) {
  const server = createServer({ root, ...options });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try { return await fn(`http://127.0.0.1:${server.address().port}`); } finally { await new Promise((r) => server.close(r)); }
}

test('a compressed answer decodes to the file, says its type and encoding, and revalidates with 304', async () => {
  const body = 'export const x = 1;\n'.repeat(200);
  const root = tmpSite({ 'index.html': '<!doctype html><p>hi</p>', 'app.0123456789.js': body });
  try {
    await withServer(root, async (base) => {
      for (const enc of ['br', 'gzip']) {
        const res = await fetch(base + '/app.0123456789.js', { headers: { 'Accept-Encoding': enc } });
        assert.equal(res.headers.get('content-encoding'), enc);
        assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
        assert.equal(res.headers.get('cache-control'), LONG_CACHE);
        assert.equal(res.headers.get('vary'), 'Accept-Encoding');
        assert.equal(await res.text(), body);  // fetch decodes what the header names
      }
      const raw = await new Promise((resolve, reject) => {
        import('node:http').then(({ get }) => get(base + '/index.html', { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ res, bytes: Buffer.concat(chunks) }));
        }).on('error', reject));
      });
      assert.equal(raw.res.headers['cache-control'], 'no-cache');
      assert.equal(Number(raw.res.headers['content-length']), raw.bytes.length);
      assert.equal(zlib.gunzipSync(raw.bytes).toString(), '<!doctype html><p>hi</p>');
      const again = await fetch(base + '/index.html', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': raw.res.headers.etag } });
      assert.equal(again.status, 304);
      const plain = await fetch(base + '/index.html', { headers: { 'Accept-Encoding': 'identity' } });
      assert.equal(plain.headers.get('content-encoding'), null);
      assert.equal(await plain.text(), '<!doctype html><p>hi</p>');
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('with a cache folder, a compressed file is kept by its content and the next server reads it; changed bytes are compressed anew', async () => {
  const body = 'export const y = 2;\n'.repeat(300);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierscope-serve-cache-'));
  // Two sites holding the same file: the second server is a new file to this process, as each test file's is.
  const first = tmpSite({ 'index.html': '<p>a</p>', 'app.0123456789.js': body });
  const second = tmpSite({ 'index.html': '<p>b</p>', 'app.0123456789.js': body, 'other.0123456789.js': body + '// changed\n' });
  const get = (base, name, enc) => fetch(`${base}/${name}`, { headers: { 'Accept-Encoding': enc } }).then(async (r) => [r.headers.get('content-encoding'), await r.text()]);
  try {
    await withServer(first, async (base) => {
      for (const enc of ['br', 'gzip']) assert.deepEqual(await get(base, 'app.0123456789.js', enc), [enc, body]);
    }, { cacheDir });
    const kept = fs.readdirSync(cacheDir).sort();
    assert.equal(kept.length, 2, kept.join(' '));
    assert.deepEqual(kept.map((n) => n.replace(/^[0-9a-f]{64}\./, '')), ['br', 'gzip'], 'one file per encoding, named by the content\'s hash');
    // The kept body is what the next server sends: replaced here by another text's brotli, it is served as is.
    const br = path.join(cacheDir, kept[0]);
    fs.writeFileSync(br, zlib.brotliCompressSync('kept'));
    await withServer(second, async (base) => {
      assert.deepEqual(await get(base, 'app.0123456789.js', 'br'), ['br', 'kept']);
      assert.deepEqual(await get(base, 'other.0123456789.js', 'br'), ['br', body + '// changed\n']);
    }, { cacheDir });
    assert.equal(fs.readdirSync(cacheDir).filter((n) => n.endsWith('.br')).length, 2, 'other bytes, another kept file');
  } finally {
    for (const dir of [cacheDir, first, second]) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('quoted references are rewritten with their folder prefix; words in prose are left alone', () => {
  const renames = [['app.wasm', 'app.0123456789.wasm']];
  assert.equal(rewriteReferences(`fetch('app.wasm'); import("./lib/app.wasm"); url(app.wasm)`, renames),
    `fetch('app.0123456789.wasm'); import("./lib/app.0123456789.wasm"); url(app.0123456789.wasm)`);
  assert.equal(rewriteReferences(`'app.wasm could not be fetched.' "myapp.wasm" 'app.wasm.map'`, renames),
    `'app.wasm could not be fetched.' "myapp.wasm" 'app.wasm.map'`);
});

test('the site assembly hashes every file but the page and the worker, and a referenced file\'s change renames its referrer', () => {
  const make = (wasm) => tmpSite({
    'index.html': '<link rel="stylesheet" href="style.css"><script type="module" src="shell.js"></script>',
    'sw.js': 'const FILES = [];', 'shell.js': "load('tierscope.js'); compile('tierscope.wasm'); new Worker('extra-worker.js');",
    'tierscope.js': 'var f = "tierscope.wasm";', 'tierscope.wasm': wasm, 'style.css': 'body{}', 'extra-worker.js': 'self.x = 1;',
    'examples/a.json': '{}', 'fonts/LICENSE.txt': 'text',
  });
  const a = make('one'), b = make('two');
  try {
    const ra = hashSite(a), rb = hashSite(b);
    for (const name of ['shell.js', 'tierscope.js', 'tierscope.wasm', 'style.css', 'extra-worker.js']) {
      assert.match(ra.get(name), HASHED, name);
      assert.ok(fs.existsSync(path.join(a, ra.get(name))), name);
      assert.ok(!fs.existsSync(path.join(a, name)), name + ' keeps no unhashed copy');
    }
    for (const kept of ['index.html', 'sw.js', 'examples/a.json', 'fonts/LICENSE.txt']) assert.ok(fs.existsSync(path.join(a, kept)), kept);
    const html = fs.readFileSync(path.join(a, 'index.html'), 'utf8');
    assert.ok(html.includes(`href="${ra.get('style.css')}"`) && html.includes(`src="${ra.get('shell.js')}"`));
    const shell = fs.readFileSync(path.join(a, ra.get('shell.js')), 'utf8');
    assert.ok(shell.includes(ra.get('tierscope.wasm')) && shell.includes(ra.get('tierscope.js')) && shell.includes(ra.get('extra-worker.js')));
    // Another wasm renames the wasm, the script naming it and the shell naming both; the style sheet stays.
    for (const name of ['tierscope.wasm', 'tierscope.js', 'shell.js']) assert.notEqual(ra.get(name), rb.get(name), name);
    assert.equal(ra.get('style.css'), rb.get('style.css'));
  } finally {
    fs.rmSync(a, { recursive: true, force: true });
    fs.rmSync(b, { recursive: true, force: true });
  }
});
