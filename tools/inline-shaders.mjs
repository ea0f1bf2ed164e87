// Writes the canvas's shader sources (shaders/NAME.vert + NAME.frag, byte for byte as the app embeds them)
// into the assembled site's gl-warm.js, which links them in a worker before the app starts so the app's own
// links are program-cache hits. usage: node tools/inline-shaders.mjs SHADER_DIR GL_WARM_JS
import fs from 'node:fs';
import path from 'node:path';

const [dir, target] = process.argv.slice(2);
if (!dir || !target) {
  console.error('usage: node tools/inline-shaders.mjs SHADER_DIR GL_WARM_JS');
  process.exit(2);
}
const names = fs.readdirSync(dir).filter((f) => f.endsWith('.vert')).map((f) => f.slice(0, -5)).sort();
const pairs = names.map((n) => {
  const frag = path.join(dir, n + '.frag');
  if (!fs.existsSync(frag)) { console.error(`${frag} is missing: every shader has a .vert and a .frag`); process.exit(1); }
  return [fs.readFileSync(path.join(dir, n + '.vert'), 'utf8'), fs.readFileSync(frag, 'utf8')];
});
const PLACEHOLDER = '[/*__TS_SHADERS__*/]';
const text = fs.readFileSync(target, 'utf8');
if (!text.includes(PLACEHOLDER)) { console.error(`${target} has no ${PLACEHOLDER} to fill`); process.exit(1); }
fs.writeFileSync(target, text.replace(PLACEHOLDER, () => JSON.stringify(pairs)));
console.log(`${pairs.length} shader programs written into ${path.basename(target)}`);
