// Unit tests of the one thing the page reads from a link before the app arrives: the walkthrough step.
// Everything else in a link is read and checked by the app's view codec (native tests: test_view_codec).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { earlyTour, isAnchorHash } from '../../../web/lib/hash.mjs';

test('the walkthrough step of a link, or 0 when it names none or names it badly', () => {
  assert.equal(earlyTour('#tour=3&path=engram', 7), 3);
  assert.equal(earlyTour('#preset=x&tour=7', 7), 7);
  assert.equal(earlyTour('tour=2', 7), 2);
  for (const bad of ['#tour=0', '#tour=8', '#tour=two', '#tour=1.5', '#detour=3', '#tour=3x', '', null, undefined, 42]) assert.equal(earlyTour(bad, 7), 0, String(bad));
});

test('a hash with no key=value is an in-page anchor, not a share link', () => {
  for (const a of ['#tour', 'tour', '#chart-figure']) assert.equal(isAnchorHash(a), true, a);
  for (const l of ['', '#', '#tour=3', '#preset=x&path=decode', 'view=fleet', null, undefined, 42]) assert.equal(isAnchorHash(l), false, String(l));
});
