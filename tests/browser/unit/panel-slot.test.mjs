// Unit tests of the panels that arrive after the first frame (web/lib/panel-slot.mjs), with a stand-in
// document and a stand-in panels' script: nothing is imported until a panel is needed; the header button
// brings the script and then does what the panel's own button does, once; a view that opens the panel
// brings it on a refresh; an import that fails is a notice naming the panel, and the next need tries again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWith, fakeWindow } from './fake-dom.mjs';
import { makeEl, makeById } from '../../../web/lib/dom.mjs';
import { createNotices } from '../../../web/lib/notices-view.mjs';
import { createPanelLoader, createPanelSlot } from '../../../web/lib/panel-slot.mjs';

const tick = () => new Promise((r) => setTimeout(r, 0));

// A stand-in script with one panel whose button toggles it; `fails` imports that fail before one succeeds.
function setup({ fails = 0 } = {}) {
  const doc = pageWith(['notices', 'open-x:button']);
  const win = fakeWindow(doc);
  const $ = makeById(doc), el = makeEl(doc);
  const notices = createNotices({ el, box: $('notices'), win });
  const log = [];
  let view = '';
  let imports = 0;
  const load = async () => {
    imports++;
    if (fails-- > 0) throw new Error('network error');
    return {
      createX: () => ({
        wire: () => { log.push('wire'); $('open-x').addEventListener('click', () => { log.push('toggle'); view = view ? '' : 'x'; }); },
        sync: () => log.push('sync'),
        toggle: () => { log.push('toggle'); view = view ? '' : 'x'; },
      }),
    };
  };
  const slot = createPanelSlot({ $, notices, loadPanels: createPanelLoader(load), make: (m) => m.createX(), isOpen: () => view === 'x', opener: 'open-x', label: 'X' });
  slot.wire();
  return { $, slot, log, notices, box: $('notices'), imports: () => imports, setView: (v) => { view = v; }, view: () => view };
}

test('nothing is imported until a panel is needed, and a closed view needs none', async () => {
  const t = setup();
  t.slot.sync();
  await tick();
  assert.equal(t.imports(), 0);
  assert.equal(t.slot.loaded(), null);
});

test('the header button brings the panel and opens it once; later clicks are the panel\'s own', async () => {
  const t = setup();
  t.$('open-x').click();
  await tick();
  assert.equal(t.imports(), 1);
  assert.deepEqual(t.log, ['wire', 'toggle']);
  assert.equal(t.view(), 'x');
  t.$('open-x').click();
  await tick();
  assert.deepEqual(t.log, ['wire', 'toggle', 'toggle'], 'one toggle per click: the slot steps aside once the panel is there');
  assert.equal(t.view(), '');
  assert.equal(t.imports(), 1);
});

test('a refresh whose view is the panel\'s brings it and syncs it; after, every sync is the panel\'s', async () => {
  const t = setup();
  t.setView('x');
  t.slot.sync();
  t.slot.sync();  // a second refresh while the script arrives: one import, each sync passed on
  await tick();
  assert.equal(t.imports(), 1);
  assert.deepEqual(t.log, ['wire', 'sync', 'sync']);
  t.setView('');
  t.slot.sync();
  assert.deepEqual(t.log, ['wire', 'sync', 'sync', 'sync']);
});

test('an import that fails says so, naming the panel, and the next click tries again', async () => {
  const t = setup({ fails: 1 });
  t.$('open-x').click();
  await tick();
  await tick();
  assert.equal(t.slot.loaded(), null);
  assert.match(t.box.textContent, /The X panel could not open: its code did not arrive \(network error\)/);
  t.$('open-x').click();
  await tick();
  assert.equal(t.imports(), 2);
  assert.ok(t.slot.loaded());
  assert.equal(t.view(), 'x');
});
