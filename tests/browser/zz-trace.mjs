import { launch, serveSite } from './lib/browser.mjs';
const root = process.argv[2];
const site = await serveSite({ root });
const b = await launch();
for (let r = 0; r < 3; r++) {
  const page = await b.context.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute', transferMode: 'ReportEvents' });
  await page.goto(site.url);
  await page.waitForFunction(() => window.tierscope && document.getElementById('loading').hidden, null, { timeout: 60000 });
  await page.waitForTimeout(1000);
  await cdp.send('Tracing.end'); await done;
  // renderer main thread: the thread with the most FunctionCall events
  const count = {};
  for (const e of events) if (e.name === 'FunctionCall') count[e.pid + ':' + e.tid] = (count[e.pid + ':' + e.tid] || 0) + 1;
  const main = Object.entries(count).sort((a, b) => b[1] - a[1])[0][0];
  const mine = events.filter((e) => e.pid + ':' + e.tid === main && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > 50000 * 1).sort((a, b) => a.ts - b.ts);
  const t0 = Math.min(...mine.map((e) => e.ts));
  console.log('--- run', r);
  for (const t of tasks) {
    const kids = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 8000 && e.name !== 'RunTask');
    console.log(`task @${((t.ts - t0) / 1000) | 0} ${(t.dur / 1000) | 0} ms: ` + kids.map((k) => `${k.name}${k.args && k.args.data && k.args.data.functionName ? '(' + k.args.data.functionName + ' ' + (k.args.data.url || '').split('/').pop() + ':' + k.args.data.lineNumber + ')' : ''} ${(k.dur / 1000) | 0}`).join(' | '));
  }
  await page.close();
}
await b.close(); await site.close();
process.exit(0);
