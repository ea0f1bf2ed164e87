// The page's in-place updates (web/lib/dom.mjs): a re-read of rows or a redrawn chart keeps the elements on
// screen (their focus and layout) and writes only what differs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { FakeDocument } from './fake-dom.mjs';
import { makeEl, morphChildren, setText } from '../../../web/lib/dom.mjs';

test('morphChildren keeps matching elements, rewrites changed text and attributes, drops and adds the rest', () => {
  const doc = new FakeDocument();
  const el = makeEl(doc);
  const list = el('ol', {}, [el('li', { 'data-index': 0, class: 'a' }, ['one']), el('li', { 'data-index': 1, title: 'x' }, ['two']), el('li', {}, ['three'])]);
  const [first, second] = list.children;
  const focused = second;
  morphChildren(list, el('ol', {}, [el('li', { 'data-index': 0, class: 'a' }, ['one']), el('li', { 'data-index': 7 }, ['TWO']), el('p', {}, ['new'])]));
  assert.equal(list.children.length, 3);
  assert.equal(list.children[0], first, 'an unchanged row is the same element');
  assert.equal(list.children[1], focused, 'a changed row is the same element, rewritten');
  assert.equal(focused.textContent, 'TWO');
  assert.equal(focused.dataset.index, '7');
  assert.equal(focused.getAttribute('title'), null, 'an attribute the new row lacks is removed');
  assert.equal(list.children[2].tagName, 'P', 'an element of another kind is replaced');
  morphChildren(list, el('ol', {}, [el('li', {}, ['only'])]));
  assert.equal(list.children.length, 1);
  assert.equal(list.textContent, 'only');
  assert.equal(list.children[0].getAttribute('class'), null);
});

test('setText writes only text that differs', () => {
  const doc = new FakeDocument();
  const node = makeEl(doc)('p', { text: 'same' });
  const before = node.childNodes[0];
  setText(node, 'same');
  assert.equal(node.childNodes[0], before, 'the same text leaves the text node alone');
  setText(node, 'other');
  assert.equal(node.textContent, 'other');
});

test('a property given as undefined or null makes no attribute (a table row with no class has no class="undefined")', () => {
  const doc = new FakeDocument();
  const el = makeEl(doc);
  const row = el('tr', { class: undefined, title: null, 'data-fig': 'x', hidden: false });
  assert.equal(row.getAttribute('class'), null);
  assert.equal(row.getAttribute('title'), null);
  assert.equal(row.getAttribute('hidden'), null);
  assert.equal(row.getAttribute('data-fig'), 'x');
  assert.equal(el('tr', { class: 'not-computed' }).getAttribute('class'), 'not-computed');
});
