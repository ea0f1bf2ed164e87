// A small static file server for the built site, on 127.0.0.1 only, with the right MIME types (wasm
// needs application/wasm to stream) and an optional strict Content-Security-Policy.
// usage: node tools/serve.mjs [--root DIR] [--port N] [--csp] [--quiet]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json',
};
// worker-src names what default-src allows already: the page's own worker (worker.js), nothing else.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'";

export function parseArgs(argv) {
  const opts = { root: 'build/web/site', port: 8080, csp: false, quiet: false };
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
    else if (a === '--quiet') opts.quiet = true;
    else throw new Error(`unknown option '${a}' (allowed: --root DIR, --port N, --csp, --quiet)`);
  }
  return opts;
}

export function createServer({ root, csp }) {
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
      const headers = {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Content-Length': st.size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      };
      if (csp) headers['Content-Security-Policy'] = STRICT_CSP;
      res.writeHead(200, headers);
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
