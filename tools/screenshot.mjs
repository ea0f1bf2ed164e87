// Screenshot tool: opens a URL (or serves build/web/site when none is given) in headless Chromium and
// writes a PNG, waiting for the app to be ready when the page is tierscope.
import fs from 'node:fs';
import { launch, serveSite } from '../tests/browser/lib/browser.mjs';

function usage(msg) {
  if (msg) console.error('screenshot: ' + msg);
  console.error('usage: tools/screenshot [URL] OUT.png [--size WxH] [--dpr N] [--wait MS] [--theme dark|light]');
  process.exit(2);
}

const args = process.argv.slice(2);
const opts = { size: [1440, 900], dpr: 1, wait: 300, theme: 'dark' };
const positional = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const next = () => (i + 1 < args.length ? args[++i] : usage(`${a} needs a value`));
  if (a === '--size') {
    const v = next(), m = /^(\d{2,5})x(\d{2,5})$/.exec(v);
    if (!m) usage(`--size: '${v}' is not WIDTHxHEIGHT (e.g. 1440x900)`);
    opts.size = [Number(m[1]), Number(m[2])];
  } else if (a === '--dpr') {
    const v = next(), n = Number(v);
    if (!(n >= 1 && n <= 4)) usage(`--dpr: '${v}' is not a pixel ratio between 1 and 4`);
    opts.dpr = n;
  } else if (a === '--wait') {
    const v = next(), n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 60000) usage(`--wait: '${v}' is not milliseconds between 0 and 60000`);
    opts.wait = n;
  } else if (a === '--theme') {
    const v = next();
    if (v !== 'dark' && v !== 'light') usage(`--theme: '${v}' is not one of dark, light`);
    opts.theme = v;
  } else if (a.startsWith('--')) usage(`unknown option '${a}'`);
  else positional.push(a);
}
if (positional.length < 1 || positional.length > 2) usage('give an output file, and optionally a URL before it');
const out = positional[positional.length - 1];
if (!out.endsWith('.png')) usage(`output '${out}' must end in .png`);
let url = positional.length === 2 ? positional[0] : null;
if (url && !/^https?:\/\//.test(url)) usage(`'${url}' is not an http(s) URL`);

const site = url ? null : await serveSite();
url = url || site.url;
const browser = await launch();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: opts.size[0], height: opts.size[1] });
  await page.emulateMedia({ colorScheme: opts.theme });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: opts.size[0], height: opts.size[1], deviceScaleFactor: opts.dpr, mobile: false });
  await page.goto(url);
  await page.waitForFunction(() => !window.tierscope || (window.tierscope && document.getElementById('loading')?.hidden !== false), null, { timeout: 30000 }).catch(() => {});
  await page.waitForTimeout(opts.wait);
  fs.writeFileSync(out, await page.screenshot());
  console.log(`wrote ${out} (${opts.size[0]}x${opts.size[1]} at ratio ${opts.dpr})`);
} finally {
  await browser.close();
  await site?.close();
}
