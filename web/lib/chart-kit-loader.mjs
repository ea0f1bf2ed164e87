// Brings in the chart drawing kit (web/lib/chart-kit.mjs) the first time a chart is drawn. `withChartKit(f,
// failed)` calls f(kit) at once when the kit has arrived, else once it has; an import that fails (offline
// before the kit was cached) goes to `failed` and is tried again on the next call.
let kit = null;
let loading = null;

export function withChartKit(f, failed) {
  if (kit) { f(kit); return; }
  if (!loading) {
    loading = import('./chart-kit.mjs').then((m) => { kit = m; return m; }, (e) => { loading = null; throw e; });
  }
  loading.then((m) => f(m), (e) => { if (failed) failed(e); });
}

// What a chart's place says when the kit did not arrive.
export const kitMissing = (e) => `The chart could not be drawn: its drawing code did not arrive (${e && e.message}).`;
