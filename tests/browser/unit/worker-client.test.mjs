// The page's side of the worker (web/lib/worker-client.mjs) against a fake worker that answers as
// web/worker.js does: answers reach the job that asked, in the app's own {ok, errors, …} shape, a chart's
// numbers put back in place; progress reaches its caller; a cancelled job settles at once and its late answer
// is dropped; a worker that fails or cannot be made answers every job with an error naming it, and the next
// job starts a new worker; warm() starts the worker without a job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkerClient, createWork } from '../../../web/lib/worker-client.mjs';
import { readNumbers } from '../../../web/lib/bridge.mjs';

// A worker that records what it was sent; the test answers through reply().
function fakeWorkers() {
  const made = [];
  const make = () => {
    const w = {
      sent: [], terminated: false, onmessage: null, onerror: null,
      postMessage(m) { this.sent.push(m); },
      terminate() { this.terminated = true; },
      reply(data) { this.onmessage({ data }); },
    };
    made.push(w);
    return w;
  };
  return { made, make };
}

test('each answer settles the job that asked for it, in the bridge\'s shape', async () => {
  const { made, make } = fakeWorkers();
  const c = createWorkerClient(make);
  const a = c.post('config', { scenario: 'preset=x', text: '{}' });
  const b = c.post('config', { scenario: 'preset=x', text: '[]' });
  assert.equal(made.length, 1, 'one worker for both');
  assert.deepEqual(made[0].sent.map((m) => [m.id, m.kind]), [[a.id, 'config'], [b.id, 'config']]);
  made[0].reply({ id: b.id, reply: { ok: false, errors: [{ code: 'bad-syntax', field: 'config', message: 'config: not JSON' }] } });
  made[0].reply({ id: a.id, reply: { ok: true, errors: [], notes: ['n'], scenarioHash: 'preset=x&layers=2' } });
  const [ra, rb] = await Promise.all([a.done, b.done]);
  assert.equal(ra.ok, true);
  assert.equal(ra.scenarioHash, 'preset=x&layers=2');
  assert.equal(rb.ok, false);
  assert.equal(rb.errors[0].message, 'config: not JSON');
  assert.equal(c.pending(), 0);
});

test('a chart\'s numbers come back in place, non-finite as null, as the app\'s bridge gives them', async () => {
  const { made, make } = fakeWorkers();
  const work = createWork(createWorkerClient(make), readNumbers);
  const job = work.chart('preset=x', '', 'roofline', '{}');
  assert.deepEqual(made[0].sent[0].args, { scenario: 'preset=x', pinned: '', name: 'roofline', options: '{}' });
  const numbers = new Float64Array([1, 2, 3, 10, NaN, 30]);
  made[0].reply({ id: job.id, reply: { ok: true, errors: [], chart: { xs: { f64: [0, 3] }, lines: [{ id: 'l', y: { f64: [3, 3] } }] }, f64: 64, f64n: 6 }, numbers });
  const r = await job.done;
  assert.deepEqual(r, { ok: true, errors: [], chart: { xs: [1, 2, 3], lines: [{ id: 'l', y: [10, null, 30] }] } });
});

test('progress reaches the caller before the answer', async () => {
  const { made, make } = fakeWorkers();
  const c = createWorkerClient(make);
  const seen = [];
  const job = c.post('replay', {}, { onProgress: (p) => seen.push(p) });
  made[0].reply({ id: job.id, progress: 0.25 });
  made[0].reply({ id: job.id, progress: 0.75 });
  made[0].reply({ id: job.id, reply: { ok: true, errors: [] } });
  assert.equal((await job.done).ok, true);
  assert.deepEqual(seen, [0.25, 0.75]);
});

test('a cancelled job settles at once, the worker hears of it, and its late answer is dropped', async () => {
  const { made, make } = fakeWorkers();
  const work = createWork(createWorkerClient(make), readNumbers);
  const first = work.chart('preset=x', '', 'sweep', '{}');
  const second = work.chart('preset=y', '', 'sweep', '{}');
  assert.equal(work.cancel(first.id), true);
  assert.deepEqual(made[0].sent[2], { cancel: first.id });
  assert.deepEqual(await first.done, { ok: false, cancelled: true, errors: [] });
  made[0].reply({ id: first.id, reply: { ok: true, errors: [], chart: { xs: [], lines: [] } } });  // too late: dropped
  made[0].reply({ id: second.id, reply: { ok: true, errors: [], chart: { xs: [5], lines: [] } } });
  assert.deepEqual((await second.done).chart.xs, [5]);
  assert.equal(work.cancel(first.id), false, 'nothing left to cancel');
});

test('a worker that fails answers every job in flight with an error naming it; the next job starts anew', async () => {
  const { made, make } = fakeWorkers();
  const c = createWorkerClient(make);
  const a = c.post('chart', {});
  const b = c.post('config', {});
  made[0].onerror({ message: 'worker.js: 404', preventDefault() {} });
  const [ra, rb] = await Promise.all([a.done, b.done]);
  assert.equal(ra.ok, false);
  assert.equal(ra.errors[0].code, 'unavailable');
  assert.equal(ra.errors[0].field, 'chart');
  assert.match(ra.errors[0].message, /^chart: the worker did not start \(worker\.js: 404\)$/);
  assert.equal(rb.errors[0].field, 'config');
  assert.equal(made[0].terminated, true);
  c.post('chart', {});
  assert.equal(made.length, 2, 'a new worker for the next job');
});

test('a module that did not start in the worker is said in the job\'s own words', async () => {
  const { made, make } = fakeWorkers();
  const work = createWork(createWorkerClient(make), readNumbers);
  const p = work.readConfig('preset=x', '{}', 'a.json');
  made[0].reply({ id: made[0].sent[0].id, failed: 'the worker module did not start: offline' });
  const r = await p;
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].message, 'config: the worker module did not start: offline');
  assert.deepEqual(r.notes, []);
});

test('a browser that cannot make the worker gets an error, not an exception', async () => {
  const c = createWorkerClient(() => { throw new Error('no workers here'); });
  const r = await c.post('chart', {}).done;
  assert.equal(r.ok, false);
  assert.match(r.errors[0].message, /^chart: this browser cannot start the worker$/);
});

test('warm() starts the worker without a job, once', () => {
  const { made, make } = fakeWorkers();
  const c = createWorkerClient(make);
  assert.equal(c.started(), false);
  c.warm();
  c.warm();
  assert.equal(made.length, 1);
  assert.deepEqual(made[0].sent, [{ kind: 'warm' }, { kind: 'warm' }]);
  assert.equal(c.started(), true);
});
