// The page's worker: runs the second WebAssembly module (tierscope-worker.js and .wasm, without Dear ImGui
// or SDL2) off the page's thread, so the work the first frame does not need — a chart's series, reading a
// config.json — neither weighs on the first load nor blocks a frame. web/lib/worker-client.mjs is the
// page's side. Messages in: {id, kind, args} or {cancel: id}; out: {id, reply, numbers?}, {id, progress}, or
// {id, failed: message} when the module cannot start, {id, cancelled: true}. Each task runs one thing: a
// short job (a chart, a config.json), the start of a long one, or a slice of a long one. A kind that runs
// long (the serving replay, the fleet's day) runs in slices: it posts {id, progress, update?} between them
// and reads its cancel there. Short jobs go first, in order, so a chart never waits for a day of traffic;
// long jobs of different kinds take turns, slice by slice; a job cancelled before it starts never runs.
'use strict';
importScripts('tierscope-worker.js');

let module = null;         // the module's promise, made on the first message
const queue = [];          // jobs waiting, in order
let scheduled = false;     // a task is posted to run the next thing

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
  config: (m, a) => ({ reply: call(m, m._ts_worker_load_config, a.scenario, a.text, a.name || '', a.quant || '') }),
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
const running = [];  // the long jobs started, each {id, kind, events, cancelled, ms (its slices' time so far)}
let turn = 0;

const stopped = (e) => 'the worker module stopped: ' + (e && e.message ? e.message : String(e));

// Ends a long job: its state in the module is freed, and its answer (or its cancel) posted.
function finish(m, job, message) {
  running.splice(running.indexOf(job), 1);
  try { JOBS[job.kind].stop(m); } catch { /* the module stopped: nothing to free */ }
  if (message) postMessage(message);
}

// Runs one slice of a long job, sizes its next from this one's time, and posts progress or the answer.
function runSlice(m, job) {
  const run = JOBS[job.kind];
  if (job.cancelled) return finish(m, job, { id: job.id, cancelled: true });
  let r;
  const t0 = performance.now();
  try {
    r = run.slice(m, job.events);
  } catch (e) {
    module = null;
    return finish(m, job, { id: job.id, failed: stopped(e) });
  }
  const ms = performance.now() - t0;
  job.ms += ms;
  job.events = Math.max(64, Math.min(1e6, Math.round(job.events * SLICE_MS / Math.max(1, ms))));
  if (!r.ok || r.done) return finish(m, job, { id: job.id, reply: { ...r, computeMs: job.ms } });
  postMessage(r.update ? { id: job.id, progress: r.progress, update: r.update } : { id: job.id, progress: r.progress });
}

// A short job, answered at once.
function runShort(m, job, run) {
  try {
    const { reply, numbers } = run(m, job.args || {});
    if (numbers) postMessage({ id: job.id, reply, numbers }, [numbers.buffer]);
    else postMessage({ id: job.id, reply });
  } catch (e) {
    // The module stopped (it aborted): say so, and start it afresh for the next job.
    postMessage({ id: job.id, failed: stopped(e) });
    module = null;
  }
}

// A long job's start: a refusal is its answer; else it runs in slices from the next task. A job of the same
// kind still running shares the module's state with it, so that one ends first (the page asks for a new
// run when it no longer wants the old one).
function startLong(m, job, run) {
  const same = running.find((j) => j.kind === job.kind);
  if (same) finish(m, same, { id: same.id, cancelled: true });
  let r;
  try { r = run.start(m, job.args || {}); } catch (e) {
    module = null;
    postMessage({ id: job.id, failed: stopped(e) });
    return;
  }
  if (!r.ok) { postMessage({ id: job.id, reply: r }); return; }
  if (r.update) postMessage({ id: job.id, progress: 0, update: r.update });
  running.push({ id: job.id, kind: job.kind, events: 2000, cancelled: false, ms: 0 });
}

// One thing per task: the first short job waiting, else the next long one's start, else a slice of the
// long jobs in turn.
function step(m) {
  const short = queue.findIndex((j) => !(JOBS[j.kind] && JOBS[j.kind].slice));
  if (short >= 0) {
    const job = queue.splice(short, 1)[0], run = JOBS[job.kind];
    if (!run) postMessage({ id: job.id, failed: 'the worker does no such job' });
    else runShort(m, job, run);
  } else if (queue.length) {
    const job = queue.shift();
    startLong(m, job, JOBS[job.kind]);
  } else if (running.length) {
    runSlice(m, running[turn++ % running.length]);
  }
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

// Runs the next thing in a task of its own, so a cancel posted meanwhile is read before it.
function drain() {
  if (scheduled || (!queue.length && !running.length)) return;
  scheduled = true;
  start().then((m) => {
    setTimeout(() => {
      scheduled = false;
      step(m);
      drain();
    }, 0);
  }, (e) => {
    scheduled = false;
    const why = 'the worker module did not start: ' + (e && e.message ? e.message : String(e));
    for (const job of queue.splice(0)) postMessage({ id: job.id, failed: why });
    module = null;  // the next job tries again (a network that came back)
  });
}

self.onmessage = (e) => {
  const d = e.data || {};
  if (d.cancel !== undefined) {
    const live = running.find((j) => j.id === d.cancel);
    if (live) { live.cancelled = true; drain(); return; }  // read before its next slice
    const at = queue.findIndex((j) => j.id === d.cancel);
    if (at >= 0) { queue.splice(at, 1); postMessage({ id: d.cancel, cancelled: true }); }
    return;
  }
  if (d.kind === 'warm') { start().catch(() => {}); return; }
  queue.push(d);
  drain();
};
