// Gives the assembled site's files content-hashed names (tierscope.wasm → tierscope.1a2b3c4d5e.wasm) and
// rewrites every quoted reference to them, so a host can cache them for a year while index.html and sw.js,
// which keep their names, are checked on every visit. Any file the site holds is picked up: a new script or
// module needs no change here. usage: node tools/hash-site.mjs SITE_DIR
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Files that keep their names: the entry page, the figures page and the service worker (their URLs are the site's address and
// the worker's identity), the examples and licences people link to, and anything already hashed.
const KEEP = new Set(['index.html', 'figures.html', 'sw.js']);
const KEEP_UNDER = ['examples/', 'fonts/'];
// Files whose text may name other files (and so get their references rewritten).
const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg']);
// A name with a content hash in it: name.<10 hex>.ext. Hosts and tools/serve.mjs give these a long cache.
export const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

export function hashedName(rel, bytes) {
  const ext = path.extname(rel);
  const digest = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  return rel.slice(0, rel.length - ext.length) + '.' + digest + ext;
}

function listFiles(dir, base = dir) {
  const out = [];
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) out.push(...listFiles(p, base));
    else if (ent.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Rewrites quoted references ('x', "x", `x`, url(x), with any ./ or dir/ prefix) from old to new base names.
export function rewriteReferences(text, renames) {
  let out = text;
  for (const [from, to] of renames) {
    const re = new RegExp(`(['"\`(])((?:[\\w.-]*/)*)${escapeRe(from)}(?=['"\`)?#])`, 'g');
    out = out.replace(re, (_m, open, prefix) => open + prefix + to);
  }
  return out;
}

// Renames in dependency order: a file's hash is taken after its own references were rewritten, so a change
// in tierscope.wasm also changes the name of any script that names it.
export function hashSite(site) {
  const files = listFiles(site);
  const movable = files.filter((f) => !KEEP.has(f) && !KEEP_UNDER.some((d) => f.startsWith(d)) && !HASHED.test(f) && !f.endsWith('.txt'));
  const byBase = new Map();
  for (const f of movable) {
    const b = path.posix.basename(f);
    if (byBase.has(b)) throw new Error(`two shipped files are both named ${b} (${byBase.get(b)} and ${f}): references to them would be ambiguous`);
    byBase.set(b, f);
  }
  const read = (f) => fs.readFileSync(path.join(site, f));
  const names = (f) => {
    if (!TEXT.has(path.extname(f))) return [];
    const text = read(f).toString('utf8');
    return [...byBase.keys()].filter((b) => b !== path.posix.basename(f) && rewriteReferences(text, [[b, '\0']]) !== text);
  };
  const deps = new Map(movable.map((f) => [f, names(f)]));
  const renames = new Map();
  const done = new Set();
  const visit = (f, seen = new Set()) => {
    if (done.has(f)) return;
    if (seen.has(f)) throw new Error(`${f} and the files it names refer to each other; their hashes cannot be made in order`);
    seen.add(f);
    for (const b of deps.get(f)) visit(byBase.get(b), seen);
    let bytes = read(f);
    if (deps.get(f).length) {
      bytes = Buffer.from(rewriteReferences(bytes.toString('utf8'), [...renames].filter(([b]) => deps.get(f).includes(b))));
    }
    const to = hashedName(f, bytes);
    fs.writeFileSync(path.join(site, to), bytes);
    fs.rmSync(path.join(site, f));
    renames.set(path.posix.basename(f), path.posix.basename(to));
    done.add(f);
  };
  for (const f of movable) visit(f);
  // The files that keep their names get every reference rewritten.
  for (const f of files.filter((x) => !movable.includes(x) && TEXT.has(path.extname(x)))) {
    const p = path.join(site, f);
    const text = fs.readFileSync(p, 'utf8');
    const next = rewriteReferences(text, renames);
    if (next !== text) fs.writeFileSync(p, next);
  }
  return renames;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = process.argv[2];
  if (!site || !fs.existsSync(path.join(site, 'index.html'))) {
    console.error('hash-site: usage: node tools/hash-site.mjs SITE_DIR (a folder holding index.html)');
    process.exit(2);
  }
  try {
    for (const [from, to] of hashSite(site)) console.log(`${from} → ${to}`);
  } catch (e) {
    console.error('hash-site: ' + e.message);
    process.exit(1);
  }
}
