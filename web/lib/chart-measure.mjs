// Text widths in the page's own font, so a chart's labels are placed as they will be drawn: one measurer per
// view that draws charts (the Charts panel, the Serve panel). The font is read once per drawing (reading
// styles per label would make the browser recompute them each time), and widths are kept per font.
import { estimate } from './chart-layout.mjs';

export function createMeasure(doc) {
  let ctx = null;
  let family = '';
  const widths = new Map();
  function measure(text, px) {
    if (!ctx) {
      const c = doc.createElement('canvas');
      ctx = c.getContext ? c.getContext('2d') : null;
    }
    if (!ctx) return estimate(text, px);
    const font = `${px}px ${family || 'sans-serif'}`;
    // A dragged value redraws the same tick labels and titles again and again: their widths are kept
    // (for this font; a bounded list, started afresh when full).
    const key = `${font}|${text}`;
    const known = widths.get(key);
    if (known !== undefined) return known;
    if (ctx.font !== font) ctx.font = font;
    const w = ctx.measureText(String(text)).width;
    if (widths.size >= 4096) widths.clear();
    widths.set(key, w);
    return w;
  }
  return {
    measure,
    // The font family the labels are drawn in, read from the element the chart sits in (once is enough).
    useFontOf(element, win) {
      if (!family && element && win.getComputedStyle) family = win.getComputedStyle(element).fontFamily;
    },
  };
}
