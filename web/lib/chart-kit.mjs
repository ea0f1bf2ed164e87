// The chart drawing kit — layout, SVG, data table, text measure — as the one module the page imports on
// first use (web/lib/chart-kit-loader.mjs): no chart is on screen in the first frame, so none of this code
// is in the first load.
export { layoutChart } from './chart-layout.mjs';
export { chartSvg, chartTable } from './chart-svg.mjs';
export { createMeasure } from './chart-measure.mjs';
