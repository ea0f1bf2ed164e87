// The page's side of the worker (web/worker.js): jobs posted in the link codec's words, each answer a
// promise of the same {ok, errors, …} the app's bridge gives, so callers and their messages do not change.
// The worker starts on the first job or when warm() is called (the page calls it once idle after its first
// frame); a job superseded before it runs is cancelled; a worker that cannot start answers every job with an
// error naming it, and the next job tries again.

// `makeWorker()` returns a Worker (or anything with postMessage, onmessage, onerror, terminate).
export function createWorkerClient(makeWorker) {
  let worker = null;
  let nextId = 1;
  const waiting = new Map();  // id → {kind, resolve, onProgress}

  const unavailable = (kind, why) => ({
    ok: false,
    errors: [{ code: 'unavailable', field: kind, value: '', allowed: '', message: `${kind}: ${why}` }],
  });

  function settle(id, value) {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    w.resolve(value);
  }
  // Every job in flight fails with `why`, and the next job starts a new worker.
  function failAll(why) {
    for (const [id, w] of [...waiting]) settle(id, unavailable(w.kind, why));
    if (worker) { try { worker.terminate(); } catch { /* already gone */ } }
    worker = null;
  }

  function onMessage(e) {
    const d = (e && e.data) || {};
    const w = waiting.get(d.id);
    if (!w) return;  // cancelled meanwhile
    if (d.progress !== undefined) { if (w.onProgress) w.onProgress(d.progress, d.update); return; }
    if (d.cancelled) return settle(d.id, { ok: false, cancelled: true, errors: [] });
    if (typeof d.failed === 'string') return settle(d.id, unavailable(w.kind, d.failed));
    const r = d.reply && typeof d.reply === 'object' ? d.reply : null;
    if (!r) return settle(d.id, unavailable(w.kind, 'the worker gave no answer'));
    settle(d.id, { ...r, ok: r.ok !== false, errors: Array.isArray(r.errors) ? r.errors : [], numbers: d.numbers || null });
  }

  function ensure() {
    if (worker) return worker;
    try {
      worker = makeWorker();
    } catch (e) {
      worker = null;
      return null;
    }
    worker.onmessage = onMessage;
    worker.onerror = (e) => {
      if (e && e.preventDefault) e.preventDefault();
      failAll('the worker did not start' + (e && e.message ? ` (${e.message})` : ''));
    };
    return worker;
  }

  // Posts a job; returns {id, done}: `done` resolves to the answer, {ok: false, cancelled: true} once cancelled.
  function post(kind, args, { onProgress = null } = {}) {
    const id = nextId++;
    const done = new Promise((resolve) => waiting.set(id, { kind, resolve, onProgress }));
    const w = ensure();
    if (!w) settle(id, unavailable(kind, 'this browser cannot start the worker'));
    else w.postMessage({ id, kind, args });
    return { id, done };
  }

  function cancel(id) {
    if (!waiting.has(id)) return false;
    if (worker) worker.postMessage({ cancel: id });
    settle(id, { ok: false, cancelled: true, errors: [] });
    return true;
  }

  // Starts the worker and its module without a job (fetched and compiled while the page is idle).
  function warm() {
    const w = ensure();
    if (w) w.postMessage({ kind: 'warm' });
  }

  return { post, cancel, warm, pending: () => waiting.size, started: () => worker !== null };
}

// The jobs the page gives the worker, in the link codec's words: a scenario is its link keys (state()'s
// scenarioHash), the answers are the app's own JSON.
export function createWork(client, readNumbers) {
  // A chart's answer as the app's bridge gives it: {ok, errors, chart}, the chart's numbers in place.
  const chartAnswer = (r) => {
    if (r.cancelled) return { ok: false, cancelled: true, errors: [] };
    if (!r.ok || !r.chart) return { ok: false, errors: r.errors };
    return { ok: true, errors: [], chart: r.numbers ? readNumbers(r.chart, r.numbers) : r.chart };
  };
  return {
    // The chart `name` of `scenario` (with `pinned`, A beside it); options as JSON text. {id, done}.
    chart(scenario, pinned, name, options) {
      const { id, done } = client.post('chart', { scenario, pinned: pinned || '', name, options: options || '{}' });
      return { id, done: done.then(chartAnswer) };
    },
    // A config.json's text read over `scenario`, with the hf_quant_config.json beside it when there is one:
    // {ok, errors, notes, scenarioHash} (the page applies the hash).
    readConfig(scenario, text, name, quant) {
      return client.post('config', { scenario, text, name: name || '', quant: quant || '' }).done.then((r) => (r.cancelled
        ? { ok: false, errors: [], notes: [] }
        : { ok: r.ok, errors: r.errors, notes: Array.isArray(r.notes) ? r.notes : [], scenarioHash: typeof r.scenarioHash === 'string' ? r.scenarioHash : '' }));
    },
    // A serving replay of `scenario` with the Serve panel's settings ("concurrency:64,input:1024"), run in
    // the worker's slices: {id, done}; `onProgress(share)` hears each slice. `done` resolves to the worker's
    // answer ({ok, errors, summary, chart, setup, rows, latency, steps}), or {ok: false, cancelled: true}.
    serve(scenario, settings, onProgress) {
      const { id, done } = client.post('serve', { scenario, settings: settings || '' }, { onProgress });
      return { id, done: done.then((r) => (r.cancelled ? { ok: false, cancelled: true, errors: [] } : r)) };
    },
    // A simulated day of `scenario` (synthetic traffic, or a trace's text; a sweep tier or ''), run in the
    // worker's slices: {id, done}. `onProgress(share, update)` hears each slice's update ({view, now,
    // slices}); `done` resolves to the last answer ({ok, errors, done, progress, update}) or {ok: false,
    // cancelled: true}; a refused start to {ok: false, errors} naming the line or the field.
    fleet(scenario, trace, sweep, onProgress) {
      const { id, done } = client.post('fleet', { scenario, trace: trace || '', sweep: sweep || '' }, { onProgress });
      return { id, done: done.then((r) => (r.cancelled ? { ok: false, cancelled: true, errors: [] } : r)) };
    },
    cancel: (id) => client.cancel(id),
    warm: () => client.warm(),
  };
}
