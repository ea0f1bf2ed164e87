// The Charts, Serve and Fleet panels' scripts, in one file of their own: none of them draws in the first
// frame, so the page imports this once a panel is needed (web/lib/panel-slot.mjs), or once it is idle.
export { createCharts } from './charts-view.mjs';
export { createServeView } from './serve-view.mjs';
export { createFleetView } from './fleet-view.mjs';
