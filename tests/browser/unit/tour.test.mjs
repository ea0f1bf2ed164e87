// Unit tests of the walkthrough content: enough steps, every path told, every slot a real figure id, no
// number typed into the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { STEPS, INTRO, parseTemplate, slotIds, stepText, variantFor, allVariants, stepIndexOfPath,
  templatesOf, largestDecodeTerm } from '../../../web/lib/tour.mjs';
import { CATALOG, PATH_KEYS, cli, skipWithoutCli } from '../lib/catalog.mjs';

const figures = JSON.parse(fs.readFileSync(new URL('../../golden/figures.json', import.meta.url), 'utf8')).figures;
const ids = new Set(figures.map((f) => f.id));

// The decode step's terms as the app's catalog lists them (the breakdown chart's bars).
const TERMS = CATALOG.decodeTerms;

// state().arch as the app reports it for three kinds of model.
const V41 = { family: 'encoder-decoder', attention: 'csa2', layers: 43, encoder_layers: 20, moe: true, engram: true, sparse: true, window: 128 };
const LLAMA = { family: 'decoder-only', attention: 'gqa', layers: 80, kv_heads: 8, q_heads: 64, head_dim: 128, moe: false, engram: false, sparse: false, window: 0 };
const V3 = { family: 'decoder-only', attention: 'mla', layers: 61, kv_lora: 512, moe: true, engram: false, sparse: false, window: 0 };
// DeepSeek-V3.2 and GLM-5: an indexer in every layer (DSA), none sharing another's selection, no window.
const DSA = { family: 'decoder-only', attention: 'csa2', layers: 78, moe: true, engram: false, sparse: true, sparse_kind: 'dsa', full_layers: 78,
  shared_selection_layers: 0, dense_layers: 0, window_only_layers: 0, candidate_pool: false, window: 0 };
// DeepSeek-V4: indexed layers at ratio 4 between compressed dense ones at 128, two window-only layers.
const V4 = { ...DSA, layers: 43, sparse_kind: 'csa2', full_layers: 21, dense_layers: 20, window_only_layers: 2, window: 128 };

test('one step per path of the app, in its order (a path added to the app needs its words here)', () => {
  assert.deepEqual(STEPS.map((s) => s.path), PATH_KEYS, 'the walkthrough\'s steps are the catalog\'s paths (catalog().paths)');
  assert.equal(STEPS.length, CATALOG.tourSteps);
  PATH_KEYS.forEach((key, i) => assert.equal(stepIndexOfPath(key), i));
  assert.equal(stepIndexOfPath('nope'), -1);
});

// (Each {arch.field} slot is checked against the app's own state().arch in walkthrough.test.mjs.)
test('every slot names a figure the model computes', () => {
  for (const id of slotIds(undefined, TERMS)) assert.ok(ids.has(id), `unknown figure id {${id}}`);
});

test('no digits are typed into any wording: numbers come from the model', () => {
  for (const s of [INTRO, ...STEPS]) {
    for (const v of allVariants(s, TERMS)) {
      for (const p of templatesOf(v)) {
        // Names that contain digits (CSA2, FP4, H[t], V4.1) are names, not quantities.
        const prose = parseTemplate(p).filter((x) => x.text).map((x) => x.text).join('').replace(/CSA2|FP4|V4\.1/g, '');
        assert.doesNotMatch(prose, /\d/, `step ${s.id}: a number typed into “${prose.slice(0, 60)}…”`);
      }
      assert.doesNotMatch((v.title + v.look).replace(/CSA2/g, ''), /\d/);
    }
  }
});

test('units once: no figure slot is followed by the unit its text already carries', () => {
  for (const s of STEPS) for (const v of allVariants(s, TERMS)) for (const p of v.body) {
    assert.doesNotMatch(p, /\{kv\.global_per_token\} per token/, `${s.id}: "B/token per token"`);
    assert.doesNotMatch(p, /\{engram\.params\} (learned )?param/, `${s.id}: "params parameters"`);
    assert.doesNotMatch(p, /\{[a-z._]*sessions\} sessions/, `${s.id}: "sessions sessions"`);
  }
});

test('templates split into text and slots; the decode step quotes the streamed weight bytes', () => {
  assert.deepEqual(parseTemplate('a {kv.main_entry} b {not a slot}'), [{ text: 'a ' }, { figure: 'kv.main_entry' }, { text: ' b {not a slot}' }]);
  assert.deepEqual(parseTemplate('{arch.kv_heads} heads'), [{ figure: 'arch.kv_heads' }, { text: ' heads' }]);
  const byId = new Map(figures.map((f) => [f.id, f]));
  const text = stepText(variantFor(STEPS[1], V41), (id) => byId.get(id).text);
  assert.match(text, /12\.48 GB/);
  assert.doesNotMatch(text, /[{}]/);
});

test('the wording follows the model: encoder-decoder CSA2, decoder-only GQA, MLA with experts', () => {
  const words = (arch) => Object.fromEntries(STEPS.map((s) => [s.id, variantFor(s, arch)]));
  const v41 = words(V41), llama = words(LLAMA), v3 = words(V3);
  assert.match(v41.prefill.title, /encoder/);
  assert.match(v41.decode.look, /MoE weights/);
  assert.match(v41['csa2-modes'].title, /CSA2/);
  // Llama: no encoder, dense weights, no Engram, no CSA2, no sliding window; its own KV layout.
  assert.doesNotMatch(llama.prefill.body.join(' ') + llama.prefill.title, /encoder/i);
  assert.match(llama.prefill.body.join(' '), /\{arch\.kv_heads\} KV heads/);
  assert.match(llama.decode.look, /dense weights/);
  assert.doesNotMatch(llama.decode.body.join(' '), /expert|CSA2/);
  assert.match(llama.engram.title, /not part of this model/);
  assert.doesNotMatch(llama['csa2-modes'].title, /CSA2/);
  assert.match(llama['swa-resume'].title, /no sliding window/);
  assert.doesNotMatch(llama['step-budget'].body.join(' '), /expert/);
  // DeepSeek-V3: MLA latents, experts, attention reads that grow with the context (no sparse gather).
  assert.match(v3.prefill.body.join(' '), /latent/);
  assert.match(v3.decode.look, /MoE/);
  assert.doesNotMatch(v3.decode.body.join(' '), /CSA2/);
  // Before the app has loaded, the story of the default model.
  assert.deepEqual(variantFor(STEPS[0], null), v41.prefill);
});

// The figures of the golden scenario by id, as value(id) for the wordings that choose a claim from them.
const golden = new Map(figures.map((f) => [f.id, f]));
const goldenValue = (id) => golden.get(id) && golden.get(id).value;

test('the first screen: what the page shows, the four tiers with capacity and latency figures, then prefill', () => {
  const w = variantFor(INTRO, V41, goldenValue);
  assert.equal(w.title, 'What this page shows');
  assert.match(w.body[0], /which bytes .* live in which memory tier .* what it costs to move them/);
  assert.equal(w.list.length, 4);
  // Top to bottom, each tier's line quotes the model's capacity (bytes) and latency (seconds) of that tier.
  const names = ['GPU SRAM', 'GPU HBM', 'host DRAM', 'NVMe SSD'];
  names.forEach((name, k) => {
    assert.ok(w.list[k].toLowerCase().startsWith(name.toLowerCase() + ':'), `tier ${k + 1} is ${name}`);
    const slots = parseTemplate(w.list[k]).filter((p) => p.figure).map((p) => golden.get(p.figure));
    assert.ok(slots.every(Boolean), `every slot of ${name} is a figure the model computes`);
    for (const unit of ['B', 's']) assert.ok(slots.some((f) => f.tier === name && f.unit === unit), `${name} quotes its own ${unit === 'B' ? 'capacity' : 'latency'}`);
  });
  assert.match(w.after[w.after.length - 1], /^Next: prefill/);
  assert.equal(INTRO.next, 'Next: prefill');
  assert.equal(INTRO.path, STEPS[0].path, 'the first screen sits on step one\'s path');
  assert.equal(STEPS.length, CATALOG.tourSteps, 'the numbered steps keep their numbers');
  // The jargon on the page, in plain words, for the model at hand only.
  const words = w.after.join(' ');
  for (const term of ['KV,', 'MoE,', 'CSA2,', 'SWA,', 'Engram,', 'FP4,']) assert.ok(words.includes(term), `explains ${term}`);
  const llama = variantFor(INTRO, LLAMA).after.join(' ');
  assert.doesNotMatch(llama, /CSA2|Engram|SWA|MoE/);
  const text = stepText(w, (id) => golden.get(id).text);
  assert.match(text, /30\.72 TB per node/);
  assert.doesNotMatch(text, /[{}]/);
});

test('the decode title names the step\'s largest term, from the figures, not fixed words', () => {
  // The golden scenario (8×B200, batch 1) spends most of its step at the kernels' launch floor.
  assert.ok(goldenValue('decode.t_overhead') > goldenValue('decode.t_weights'));
  assert.equal(largestDecodeTerm(goldenValue, TERMS).key, 'launch-floors');
  const launch = variantFor(STEPS[1], V41, goldenValue, TERMS);
  assert.match(launch.title, /launch floor/);
  assert.doesNotMatch(launch.title, /weight/);
  assert.match(launch.body[0], /The largest part of the \{decode\.step_time\} step is kernels waiting at their launch floor: \{decode\.t_overhead\}\./);
  // A scenario whose kernels launch for free: at TP4 the all-reduces come next.
  const noLaunch = (id) => (id === 'decode.t_overhead' ? 0 : goldenValue(id));
  assert.equal(largestDecodeTerm(noLaunch, TERMS).key, 'all-reduce');
  // And with free collectives too, the weights' reads are the largest term.
  const noFloor = (id) => (id === 'decode.t_overhead' || id === 'decode.t_allreduce' ? 0 : goldenValue(id));
  assert.equal(largestDecodeTerm(noFloor, TERMS).key, 'weights');
  assert.match(variantFor(STEPS[1], V41, noFloor, TERMS).title, /mostly reading weights/);
  assert.match(variantFor(STEPS[1], LLAMA, noFloor, TERMS).title, /mostly reading weights/);
  // A term of several figures is their sum, and the sentence names each part that takes time.
  const kvHeavy = (id) => ({ 'decode.t_gather': 3e-3, 'decode.t_window': 2e-3, 'decode.t_weights': 4e-3 }[id] ?? 0);
  const kv = largestDecodeTerm(kvHeavy, TERMS);
  assert.equal(kv.key, 'kv-reads', 'gathers and window reads together outweigh the weights, as the chart stacks them');
  assert.match(variantFor(STEPS[1], V41, kvHeavy, TERMS).body[0], /step is reading KV and index keys: \{decode\.t_gather\} \+ \{decode\.t_window\}\./);
  // The host's share is a term like the others.
  assert.equal(largestDecodeTerm((id) => (id === 'decode.t_host' ? 1 : 0), TERMS).key, 'host');
  // Before the numbers (or the catalog) are known the title claims nothing about the cost.
  assert.doesNotMatch(variantFor(STEPS[1], V41).title, /mostly/);
  assert.doesNotMatch(variantFor(STEPS[1], V41, goldenValue).title, /mostly/);
  assert.equal(largestDecodeTerm(() => undefined, TERMS), null);
  for (const t of TERMS) for (const id of t.figures) assert.ok(ids.has(id), `{${id}} is a figure`);
  const budget = variantFor(STEPS[6], V41, goldenValue, TERMS);
  assert.match(budget.body[0], /\{decode\.t_overhead\}/);
});

// The walkthrough's claim "mostly X" is the breakdown chart's tallest term, which `tierscope chart breakdown`
// prints: for every preset, at batch 1 and at the batch its HBM holds, the same term (or none in either).
test('the walkthrough names the term the breakdown chart and the CLI show as largest, for every preset at batch 1 and at capacity',
  { skip: skipWithoutCli() }, () => {
    const labelOf = new Map(TERMS.map((t) => [t.key, t.label]));
    const termIds = TERMS.flatMap((t) => t.figures);
    const presets = JSON.parse(cli(['presets', '--format', 'json'])).map((p) => p.name);
    assert.ok(presets.length >= 8);
    let compared = 0;
    for (const preset of presets) {
      const capacity = JSON.parse(cli(['figures', '--preset', preset, '--figures', 'hbm.sessions', '--format', 'json'])).figures[0];
      const batches = [1, ...(capacity.feasible !== false && capacity.value >= 2 ? [Math.floor(capacity.value)] : [])];
      // And one step the host's scheduling dominates (a term the walkthrough once left out).
      const runs = batches.map((b) => ['--set', `batch=${b}`]);
      if (preset === presets[0]) runs.push(['--set', 'batch=1', '--set', 'host_us=20000']);
      for (const run of runs) {
        const set = ['--preset', preset, ...run];
        // The page reads a figure's value only where the setup runs (walkthrough-view.mjs figureValue).
        const figs = new Map(JSON.parse(cli(['figures', ...set, '--figures', termIds.join(','), '--format', 'json'])).figures
          .map((f) => [f.id, f.feasible !== false ? f.value : undefined]));
        const bar = JSON.parse(cli(['chart', 'breakdown', ...set, '--format', 'json'])).bars.find((b) => b.id === 'now');
        let tallest = null;
        for (const t of bar.terms) if (t.seconds > 0 && (!tallest || t.seconds > tallest.seconds)) tallest = t;
        const named = largestDecodeTerm((id) => figs.get(id), TERMS);
        assert.equal(named ? labelOf.get(named.key) : null, tallest ? tallest.label : null, `${preset} ${run.join(' ')}`);
        compared += 1;
      }
    }
    assert.ok(compared >= presets.length + 5, `${compared} scenarios compared`);
  });

test('a model with no Engram and no window: those steps say so in one line', () => {
  const QWEN = { family: 'decoder-only', attention: 'gqa', layers: 48, kv_heads: 4, moe: true, engram: false, sparse: false, window: 0 };
  const engram = variantFor(STEPS[2], QWEN);
  const swa = variantFor(STEPS[4], QWEN);
  assert.equal(engram.body.length, 1);
  assert.match(engram.body[0], /has no Engram tables.*would/);
  assert.equal(swa.body.length, 1);
  assert.match(swa.body[0], /keeps no sliding window.*would/);
});

// Prefill runs the prompt and decode runs at the scenario's context: the token row and the counters jump
// from one length to the other, and the decode step says why, for every kind of model.
test('the decode step explains the jump from the prompt\'s length to the context', () => {
  const decode = STEPS[stepIndexOfPath('decode')];
  for (const arch of [V41, LLAMA, V3]) {
    const text = templatesOf(variantFor(decode, arch, () => undefined, TERMS)).join(' ');
    assert.match(text, /runs at the scenario's context .* not at the end of the prompt prefill just ran/, arch.family + ' ' + arch.attention);
  }
});

test('a sparse model whose layers each pick their own positions is told so, without CSA2\'s shared selections', () => {
  const step = STEPS.find((s) => s.id === 'csa2-modes');
  const dsa = variantFor(step, DSA), v4 = variantFor(step, V4), v41 = variantFor(step, V41);
  const text = (w) => w.title + ' ' + w.body.join(' ');
  assert.match(dsa.title, /^DSA:/);
  assert.match(text(dsa), /All \{arch\.layers\} layers own global KV/);
  assert.match(text(v4), /\{arch\.full_layers\} of the \{arch\.layers\} layers own global KV/);
  for (const w of [dsa, v4]) assert.doesNotMatch(text(w), /Reuse|Reindex|Only a few layers/);
  // No candidate pool, no window-only or dense layers: neither is claimed.
  assert.doesNotMatch(text(dsa), /candidate pool|window|without an indexer/);
  assert.match(text(v4), /\{arch\.dense_layers\} more keep their own compressed KV/);
  assert.match(text(v4), /\{arch\.window_only_layers\} keep nothing but their local window/);
  assert.match(v4.title, /^CSA2:/);
  // The product's own model keeps its story of owners and sharers.
  assert.match(text(v41), /Only a few layers own global KV/);
  // The glossary and the decode step name DSA where the model has it.
  assert.match(variantFor(INTRO, DSA).after.join(' '), /DSA, sparse attention/);
  assert.match(variantFor(STEPS.find((s) => s.id === 'decode'), DSA).body.join(' '), /DSA, the sparse attention/);
});

