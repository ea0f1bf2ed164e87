// A small static file server for the built site, on 127.0.0.1 only, serving it as static hosts do: the right
// MIME types (wasm needs application/wasm to stream), brotli or gzip when the browser accepts it, a year's
// cache for content-hashed names and revalidation (ETag) for the rest, and an optional strict CSP.
// usage: node tools/serve.mjs [--root DIR] [--port N] [--csp] [--no-compress] [--quiet]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json',
};
// Types worth compressing (fonts and images are compressed already).
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg', '.txt', '.webmanifest']);
// name.<10 hex>.ext, as tools/hash-site.mjs names the shipped files: their bytes never change.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;
export const LONG_CACHE = 'public, max-age=31536000, immutable';

// The encoding to send for an Accept-Encoding header: brotli first, then gzip, else none. A coding the
// browser gives q=0 is refused.
export function pickEncoding(accept) {
  const offered = new Map();
  for (const part of String(accept || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    offered.set(name, q ? Number(q[1]) : 1);
  }
  const ok = (n) => (offered.has(n) ? offered.get(n) > 0 : offered.has('*') && offered.get('*') > 0);
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return '';
}

export const cacheControl = (rel) => (HASHED.test(rel) ? LONG_CACHE : 'no-cache');

const compressBytes = (raw, encoding) => (encoding === 'br'
  ? zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
  : zlib.gzipSync(raw, { level: 9 }));

// Compressed bodies, made once per file version (path, size and time) and kept while the server runs. With a
// cache folder they are also kept there under their content's hash, for the next server to read instead of
// compressing again: the browser tests start one server per test file, and brotli at its top quality takes
// seconds for the site's WebAssembly, blocking the server while a page waits.
const compressed = new Map();
function compressedBody(file, st, encoding, cacheDir = null) {
  const key = `${file}|${st.size}|${st.mtimeMs}|${encoding}`;
  if (!compressed.has(key)) {
    const raw = fs.readFileSync(file);
    if (!cacheDir) compressed.set(key, compressBytes(raw, encoding));
    else {
      const kept = path.join(cacheDir, `${crypto.createHash('sha256').update(raw).digest('hex')}.${encoding}`);
      let body;
      try { body = fs.readFileSync(kept); } catch {
        body = compressBytes(raw, encoding);
        // Written whole or not at all (a rename), so a server reading it at the same time never sees part of
        // it; a folder that cannot be written only costs the next server the compression.
        const part = `${kept}.${process.pid}.part`;
        try {
          fs.mkdirSync(cacheDir, { recursive: true });
          fs.writeFileSync(part, body);
          fs.renameSync(part, kept);
        } catch { fs.rmSync(part, { force: true }); }
      }
      compressed.set(key, body);
    }
  }
  return compressed.get(key);
}

// Compresses every compressible file under root both ways ahead of the first request, so a measurement's
// first load does not wait for the compressor.
export function precompress(root) {
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.resolve(root))) {
    if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) continue;
    const st = fs.statSync(file);
    for (const enc of ['br', 'gzip']) compressedBody(file, st, enc);
  }
}

// worker-src names what default-src allows already: the page's own worker (worker.js), nothing else.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'";

export function parseArgs(argv) {
  const opts = { root: 'build/web/site', port: 8080, csp: false, compress: true, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--root') opts.root = value();
    else if (a === '--port') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port: '${v}' is not a port number (0–65535; 0 picks a free one)`);
      opts.port = n;
    } else if (a === '--csp') opts.csp = true;
    else if (a === '--no-compress') opts.compress = false;
    else if (a === '--quiet') opts.quiet = true;
    else throw new Error(`unknown option '${a}' (allowed: --root DIR, --port N, --csp, --no-compress, --quiet)`);
  }
  return opts;
}

// `cacheDir` (optional): a folder that keeps compressed bodies across servers (see compressedBody).
export function createServer({ root, csp, compress = true, cacheDir = null }) {
  const base = path.resolve(root);
  return http.createServer((req, res) => {
    let pathname;
    try { pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname); } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    let file = path.join(base, pathname);
    if (!file.startsWith(base)) { res.writeHead(403).end('forbidden'); return; }
    if (pathname.endsWith('/')) file = path.join(file, 'index.html');
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: ' + pathname); return; }
      const ext = path.extname(file).toLowerCase();
      const encoding = compress && COMPRESSIBLE.has(ext) ? pickEncoding(req.headers['accept-encoding']) : '';
      const etag = `"${st.size.toString(16)}-${Math.trunc(st.mtimeMs).toString(16)}${encoding ? '-' + encoding : ''}"`;
      const headers = {
        'Content-Type': MIME[ext] || 'application/octet-stream',
        'Cache-Control': cacheControl(path.basename(file)),
        ETag: etag,
        'X-Content-Type-Options': 'nosniff',
      };
      if (compress && COMPRESSIBLE.has(ext)) headers.Vary = 'Accept-Encoding';
      if (csp) headers['Content-Security-Policy'] = STRICT_CSP;
      if (req.headers['if-none-match'] === etag) { res.writeHead(304, headers).end(); return; }
      if (encoding) {
        let body;
        try { body = compressedBody(file, st, encoding, cacheDir); } catch (e) { res.writeHead(500, { 'Content-Type': 'text/plain' }).end('could not read ' + pathname + ': ' + e.message); return; }
        res.writeHead(200, { ...headers, 'Content-Encoding': encoding, 'Content-Length': body.length });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Length': st.size });
      if (req.method === 'HEAD') { res.end(); return; }
      fs.createReadStream(file).pipe(res);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let opts;
  try { opts = parseArgs(process.argv.slice(2)); } catch (e) {
    console.error('serve: ' + e.message);
    process.exit(2);
  }
  if (!fs.existsSync(path.join(opts.root, 'index.html'))) {
    console.error(`serve: ${opts.root}/index.html not found; build the site first (tools/run builds and serves it)`);
    process.exit(1);
  }
  const server = createServer(opts);
  server.on('error', (e) => { console.error('serve: ' + e.message); process.exit(1); });
  server.listen(opts.port, '127.0.0.1', () => {
    const { port } = server.address();
    console.log(`tierscope is served at http://127.0.0.1:${port}/  (Ctrl+C stops it)`);
  });
}
