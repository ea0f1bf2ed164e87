// The tests that hold the page to the native command line skip only outside CI: with the CLI built they run;
// without it they skip on a developer's machine and fail under CI, naming the binary they looked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI, haveCli, skipWithoutCli, underCi } from '../lib/catalog.mjs';

test('CI is the CI variable as CI services set it', () => {
  assert.equal(underCi({ CI: 'true' }), true);
  assert.equal(underCi({ CI: '1' }), true);
  assert.equal(underCi({}), false);
  assert.equal(underCi({ CI: '' }), false);
  assert.equal(underCi({ CI: 'false' }), false);
  assert.equal(underCi({ CI: '0' }), false);
});

test('a built CLI never skips, a missing one skips outside CI and fails under CI', () => {
  assert.equal(skipWithoutCli({ built: true, env: { CI: 'true' } }), false);
  assert.equal(skipWithoutCli({ built: true, env: {} }), false);
  assert.equal(skipWithoutCli({ built: false, env: {} }), 'the native CLI is not built');
  assert.throws(() => skipWithoutCli({ built: false, env: { CI: 'true' }, cli: '/nowhere/tierscope' }),
    /the native CLI is not built \(\/nowhere\/tierscope\): under CI the tests that compare the page with it must run/);
  // As the test files call it: the state of this checkout and this run.
  if (haveCli()) assert.equal(skipWithoutCli(), false);
  else if (!underCi()) assert.equal(skipWithoutCli(), 'the native CLI is not built');
  assert.ok(CLI.endsWith('tierscope'));
});
