// The page's worker: runs the second WebAssembly module (tierscope-worker.js and .wasm, without Dear ImGui
// or SDL2) off the page's thread, so the work the first frame does not need — a chart's series, reading a
// config.json — neither weighs on the first load nor blocks a frame. web/lib/worker-client.mjs is the
// page's side. Messages in: {id, kind, args} or {cancel: id}; out: {id, reply, numbers?}, {id, progress}, or
// {id, failed: message} when the module cannot start, {id, cancelled: true}. One job runs at a time, in
// order, each in a task of its own; a job cancelled before it starts never runs. A kind that runs long (the
// serving replay, when it lands) may post {id, progress} between its slices and read its cancel there.
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
};

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
        else {
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
    const at = queue.findIndex((j) => j.id === d.cancel);
    if (at >= 0) { queue.splice(at, 1); postMessage({ id: d.cancel, cancelled: true }); }
    return;
  }
  if (d.kind === 'warm') { start().catch(() => {}); return; }
  queue.push(d);
  drain();
};
