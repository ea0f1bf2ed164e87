// What the app lists, for tests that iterate it: the page's catalog for the default view
// (window.tierscope.catalog(), checked in as tests/golden/catalog.json by tools/regen-golden and held to the
// app's own by test_app) and the native command line. A test reads paths, link keys and decode terms here,
// never from a list of its own, so a path or key added to the app is tested without touching the tests.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const CATALOG = Object.freeze(JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/golden/catalog.json'), 'utf8')));
// The animations' keys, in the app's order (catalog().paths).
export const PATH_KEYS = Object.freeze(CATALOG.paths.map((p) => p.key));

// The native command line, and its stdout (also when it exits 3 for a setup that cannot run: it still prints).
export const CLI = process.env.TIERSCOPE_CLI || path.join(ROOT, 'build/native/src/cli/tierscope');
export const haveCli = () => fs.existsSync(CLI);
export function cli(args) {
  try {
    return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.status === 3) return e.stdout;
    throw e;
  }
}
