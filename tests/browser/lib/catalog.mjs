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
// Whether this run is CI's: the CI variable CI services set (GitHub Actions: CI=true).
export const underCi = (env = process.env) => Boolean(env.CI) && !['false', '0'].includes(String(env.CI).toLowerCase());
// What a test that holds the page to the native command line passes as its `skip`: false when the CLI is
// built; outside CI, why it skips; under CI it throws, failing the test file and naming the binary it looked
// for, so a CLI that did not build can never pass as skipped tests.
export function skipWithoutCli({ built = haveCli(), env = process.env, cli = CLI } = {}) {
  if (built) return false;
  if (underCi(env)) throw new Error(`the native CLI is not built (${cli}): under CI the tests that compare the page with it must run, so it must be built first`);
  return 'the native CLI is not built';
}
export function cli(args) {
  try {
    return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.status === 3) return e.stdout;
    throw e;
  }
}
