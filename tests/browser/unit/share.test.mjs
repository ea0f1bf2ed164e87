// The share link's writer: a changed value is written once it rests (from a timer, never inside the change;
// at least every second while it keeps moving), a navigation is written at once, and Back or Forward is
// never overwritten by a write that was still due.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWith, fakeWindow } from './fake-dom.mjs';
import { makeEl, makeById } from '../../../web/lib/dom.mjs';
import { createPageState } from '../../../web/lib/page-state.mjs';
import { createShare } from '../../../web/lib/share.mjs';

function setup() {
  const doc = pageWith(['open-full:a']);
  const win = fakeWindow(doc);
  let now = 1000;
  win.performance = { now: () => now };
  const writes = [];
  const entries = [''];  // the history's hashes; the last is the one shown
  const show = (url) => { win.location.hash = url.startsWith('#') ? url : ''; };
  win.history = {
    pushState: (_, __, url) => { writes.push(['push', url]); entries.push(url); show(url); },
    replaceState: (_, __, url) => { writes.push(['replace', url]); entries[entries.length - 1] = url; show(url); },
  };
  win.addEventListener = () => {};
  const S = createPageState();
  S.ready = true;
  let view = 'preset=a&batch=1';
  S.bridge = { viewHash: () => view };
  const share = createShare({ S, $: makeById(doc), el: makeEl(doc), win, doc, notices: { show() {}, message() {} }, refresh: () => {}, walkthrough: {} });
  return { S, win, share, writes, entries, setView: (v) => { view = v; }, tick: (ms) => { now += ms; } };
}

test('a moving value is written once it rests, the last value landing; a navigation is pushed at once', () => {
  const t = setup();
  t.share.writeHash();                       // the first write replaces the entry the page opened on
  assert.deepEqual(t.writes, [['replace', '#preset=a&batch=1']]);
  t.tick(300); t.setView('preset=a&batch=2'); t.share.writeHash();
  assert.equal(t.writes.length, 1, 'not written inside the change, however long since the last write');
  t.tick(16); t.setView('preset=a&batch=3'); t.share.writeHash();
  assert.equal(t.writes.length, 1, 'held back while the value moves');
  assert.equal(t.win.timers.size, 1, 'one write due, not one per change');
  t.win.runTimers();
  assert.deepEqual(t.writes.at(-1), ['replace', '#preset=a&batch=3'], 'the last value lands');
  assert.equal(t.writes.length, 2);
  t.share.writeHash();
  assert.equal(t.win.timers.size, 0, 'an unchanged view schedules nothing');
  t.S.pushNext = true; t.setView('preset=a&batch=3&path=prefill'); t.share.writeHash();
  assert.deepEqual(t.writes.at(-1), ['push', '#preset=a&batch=3&path=prefill'], 'a navigation is its own entry, at once');
});

test('Back while a change\'s write is due is not overwritten by the write that was due', () => {
  const t = setup();
  t.share.writeHash();
  t.S.pushNext = true; t.setView('preset=a&path=prefix-cache'); t.share.writeHash();
  t.tick(16); t.setView('preset=a&path=prefix-cache&step=0'); t.share.writeHash();   // paused: a trailing write is due
  // Back: the browser shows the earlier entry before its hashchange reaches the page.
  t.win.location.hash = t.entries[t.entries.length - 2];
  const before = t.writes.length;
  t.win.runTimers();
  t.share.writeHash();
  assert.equal(t.writes.length, before, 'nothing written over the entry the reader went back to');
  assert.equal(t.win.location.hash, '#preset=a&batch=1');
});

test('a link applied while a value\'s write is due is settled at once, so the next navigation is its own entry', () => {
  const t = setup();
  t.share.writeHash();
  t.tick(16); t.setView('preset=a&batch=2'); t.share.writeHash();      // a value moved: a trailing write is due
  // A link typed into the address bar: the browser adds its entry; the page applies it (lastHash null).
  t.win.history.pushState(null, '', '#tour=3'); t.writes.pop();
  t.S.lastHash = null; t.setView('preset=a&path=engram&tour=3');
  t.tick(16); t.share.writeHash();
  assert.deepEqual(t.writes.at(-1), ['replace', '#preset=a&path=engram&tour=3'], 'the link\'s entry gets the full view at once');
  t.tick(16); t.S.pushNext = true; t.setView('preset=a&path=prefix-cache'); t.share.writeHash();
  assert.deepEqual(t.writes.at(-1), ['push', '#preset=a&path=prefix-cache'], 'choosing an animation next is a new entry');
  assert.deepEqual(t.entries.slice(-2), ['#preset=a&path=engram&tour=3', '#preset=a&path=prefix-cache'], 'Back returns to the link\'s view');
});
