import { launch, serveSite } from './lib/browser.mjs';
const root = process.argv[2];
const site = await serveSite({ root });
const b = await launch();
const res = [];
for (let r = 0; r < 5; r++) {
  const page = await b.context.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    window.__lt = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(site.url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const out = await page.evaluate(() => ({ lt: window.__lt, marks: performance.getEntriesByType('mark').map((m) => [m.name.replace('tierscope-', ''), Math.round(m.startTime)]) }));
  res.push(out);
  await page.close();
}
for (const o of res) {
  console.log('tasks', o.lt.filter(([s, d]) => d > 50).map(([s, d]) => `${s}+${d}`).join(' '));
  console.log('marks', o.marks.map(([n, t]) => `${n}@${t}`).join(' '));
}
await b.close(); await site.close();
process.exit(0);
