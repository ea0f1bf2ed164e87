// The page's worker: runs the second WebAssembly module (tierscope-worker.js and .wasm, without Dear ImGui
// or SDL2) off the page's thread, so the work the first frame does not need — a chart's series, reading a
// config.json — neither weighs on the first load nor blocks a frame. web/lib/worker-client.mjs is the
// page's side. Messages in: {id, kind, args} or {cancel: id}; out: {id, reply, numbers?}, {id, progress}, or
// {id, failed: message} when the module cannot start, {id, cancelled: true}. One job runs at a time, in
// order, each in a task of its own; a job cancelled before it starts never runs. A kind that runs long (the
// serving replay, the fleet's day) runs in slices, each a task of its own: it posts {id, progress, update?}
// between them and reads its cancel there.
'use strict';
importScripts('tierscope-worker.js');

let module = null;         // the module's promise, made on the first message
const queue = [];          // jobs waiting, in order
let draining = false;

// Strings into the module's memory for one call, freed afterwards; the answer read as JSON.
function call(m, fn, ...texts) {
  const ptrs = texts.map((t) => {
    const s = String(t), size = m.lengthBytesUTF8(s) + 1, p = m._malloc(size);
    m.stringToUTF8(s, p, size);
    return p;
  });
  try {
    return JSON.parse(m.UTF8ToString(fn(...ptrs)));
  } finally {
    for (const p of ptrs) m._free(p);
  }
}

// Each kind of job: the module's export it calls, in the link codec's words (a scenario's link keys in, the
// page's JSON out). A new kind is one entry here and one export in src/worker/worker_bridge.cpp.
const JOBS = {
  // {scenario, pinned, name, options} → {ok, errors, chart, f64, f64n}; the numbers are posted beside it.
  chart(m, a) {
    const reply = call(m, m._ts_worker_chart, a.scenario, a.pinned || '', a.name, a.options || '{}');
    if (!reply.chart) return { reply };
    const at = reply.f64 / 8;
    return { reply, numbers: m.HEAPF64.slice(at, at + reply.f64n) };
  },
  // {scenario, text, name} → {ok, errors, notes, scenarioHash}
  config: (m, a) => ({ reply: call(m, m._ts_worker_load_config, a.scenario, a.text, a.name || '') }),
  // {scenario, settings} → {ok, errors, done, summary, chart, setup, rows, latency, steps}, run in slices.
  serve: {
    start: (m, a) => call(m, m._ts_worker_serve_start, a.scenario, a.settings || ''),
    slice: (m, events) => JSON.parse(m.UTF8ToString(m._ts_worker_serve_advance(events))),
    stop: (m) => m._ts_worker_serve_stop(),
  },
  // {scenario, trace, sweep} → a simulated day, shown by the page's module (app::fleet_adopt). Each update
  // carries the run's view when it has a new hour of results (else where it is: progress, now) and the
  // slices it ran, each sized by the run itself (sim::FleetRun::next_slice) from the last one's time.
  fleet: {
    start(m, a) {
      const r = call(m, m._ts_worker_fleet_start, a.scenario, a.trace || '', a.sweep || '');
      return r.ok ? { ...r, update: { view: r.view, progress: 0, now: 0, slices: [], sliceMs: r.sliceMs } } : r;
    },
    slice(m) {
      const slices = [], t0 = performance.now();
      let r;
      do {
        const asked = m._ts_worker_fleet_next_slice();
        const s0 = performance.now();
        r = JSON.parse(m.UTF8ToString(m._ts_worker_fleet_advance(asked)));
        const ms = performance.now() - s0;
        if (!r.ok) return r;
        m._ts_worker_fleet_slice_took(r.events, ms);
        if (r.events > 0) slices.push({ asked, events: r.events, ms });
      } while (!r.done && !r.view && performance.now() - t0 < SLICE_MS);
      return { ...r, update: { view: r.view || '', progress: r.progress, now: r.now, slices, sliceMs: r.sliceMs } };
    },
    stop: (m) => m._ts_worker_fleet_stop(),
  },
};

// A slice aims at this long: short enough that a cancel is read within a blink, long enough that posting
// progress costs nothing next to the work.
const SLICE_MS = 30;
let sliced = null;  // the sliced job running now: {id, kind, events, cancelled, ms (its slices' time so far)}

// Runs one slice of the sliced job, sizes the next from its time, and posts progress or the answer.
function runSlice(m) {
  const job = sliced, run = JOBS[job.kind];
  const finish = (message) => {
    sliced = null;
    draining = false;
    try { run.stop(m); } catch { /* the module stopped: nothing to free */ }
    if (message) postMessage(message);
    drain();
  };
  if (job.cancelled) return finish({ id: job.id, cancelled: true });
  let r;
  const t0 = performance.now();
  try {
    r = run.slice(m, job.events);
  } catch (e) {
    module = null;
    return finish({ id: job.id, failed: 'the worker module stopped: ' + (e && e.message ? e.message : String(e)) });
  }
  const ms = performance.now() - t0;
  job.ms += ms;
  job.events = Math.max(64, Math.min(1e6, Math.round(job.events * SLICE_MS / Math.max(1, ms))));
  if (!r.ok || r.done) return finish({ id: job.id, reply: { ...r, computeMs: job.ms } });
  postMessage(r.update ? { id: job.id, progress: r.progress, update: r.update } : { id: job.id, progress: r.progress });
  setTimeout(() => runSlice(m), 0);
}

function start() {
  if (!module) {
    module = createTierscopeWorker({
      locateFile: (f) => f,
      printErr: (t) => console.warn(t),
      onAbort: (why) => console.error('tierscope worker: ' + why),
    });
  }
  return module;
}

// Runs the next job in a task of its own, so a cancel posted meanwhile is read before it.
function drain() {
  if (draining || !queue.length) return;
  draining = true;
  start().then((m) => {
    setTimeout(() => {
      draining = false;
      const job = queue.shift();
      if (job) {
        const run = JOBS[job.kind];
        if (!run) postMessage({ id: job.id, failed: 'the worker does no such job' });
        else if (run.slice) {
          // Started here; its slices then run one task each, and the queue waits for it to finish.
          let r;
          try { r = run.start(m, job.args || {}); } catch (e) {
            module = null;
            postMessage({ id: job.id, failed: 'the worker module stopped: ' + (e && e.message ? e.message : String(e)) });
            drain();
            return;
          }
          if (!r.ok) postMessage({ id: job.id, reply: r });
          else {
            if (r.update) postMessage({ id: job.id, progress: 0, update: r.update });
            draining = true;
            sliced = { id: job.id, kind: job.kind, events: 2000, cancelled: false, ms: 0 };
            setTimeout(() => runSlice(m), 0);
            return;
          }
        } else {
          try {
            const { reply, numbers } = run(m, job.args || {});
            if (numbers) postMessage({ id: job.id, reply, numbers }, [numbers.buffer]);
            else postMessage({ id: job.id, reply });
          } catch (e) {
            // The module stopped (it aborted): say so, and start it afresh for the next job.
            postMessage({ id: job.id, failed: 'the worker module stopped: ' + (e && e.message ? e.message : String(e)) });
            module = null;
          }
        }
      }
      drain();
    }, 0);
  }, (e) => {
    draining = false;
    const why = 'the worker module did not start: ' + (e && e.message ? e.message : String(e));
    for (const job of queue.splice(0)) postMessage({ id: job.id, failed: why });
    module = null;  // the next job tries again (a network that came back)
  });
}

self.onmessage = (e) => {
  const d = e.data || {};
  if (d.cancel !== undefined) {
    if (sliced && sliced.id === d.cancel) { sliced.cancelled = true; return; }  // read before its next slice
    const at = queue.findIndex((j) => j.id === d.cancel);
    if (at >= 0) { queue.splice(at, 1); postMessage({ id: d.cancel, cancelled: true }); }
    return;
  }
  if (d.kind === 'warm') { start().catch(() => {}); return; }
  queue.push(d);
  drain();
};
