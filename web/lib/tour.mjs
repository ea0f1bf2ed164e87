// The "Start here" walkthrough: seven steps that tell the model's story, each tied to a path and the ledger
// entry it should open on. Numbers are never written here: {figure.id} slots are filled from the app's
// figures, so the text follows the scenario (another preset, another GPU, another context).

export const STEPS = Object.freeze([
  {
    id: 'prefill', path: 'prefill', entry: { step: 'encode' }, look: 'the causal encoder and the global KV block in HBM',
    // A causal encoder-decoder runs only the encoder on the prompt: far fewer active parameters in prefill than
    // in decode (half for V4.1 Flash), where a decoder-only model differs only by its output head.
    needs: { lacks: 'causal encoder-decoder split', when: (v) => v('model.params_active_prefill') < 0.75 * v('model.params_active_decode') },
    title: 'Prefill: the prompt runs through the encoder',
    body: [
      'A request begins with its prompt. Every prompt token streams through the causal encoder alone, so prefill activates {model.params_active_prefill} per token where a decode token needs {model.params_active_decode}. For this prompt that is {prefill.flop} of work, about {prefill.time} on this node.',
      'The encoder\'s final hidden state H[t] is projected into the global KV that the decoder reads later: {kv.global_per_token} per token, compressed and kept in HBM. The decoder stays mostly idle; only the last window of the prompt passes through it.',
    ],
  },
  {
    id: 'decode', path: 'decode', entry: { step: 'weights' }, look: 'the MoE weights streaming from HBM',
    title: 'Decode: one token, mostly weights',
    body: [
      'Each new token passes through every layer. Nearly all of the step goes to streaming the selected experts\' weights out of HBM: {decode.weight_bytes}, {decode.weight_share} of everything the step reads. That puts a floor of {decode.step_floor} under each step, about {decode.tokens_per_s} for the node.',
      'The attention reads are small beside it: CSA2 gathers only the positions its indexers selected, {gather.bytes} across the reading layers, however long the context is.',
    ],
  },
  {
    id: 'engram', path: 'engram', entry: { step: 'fetch-rows' }, look: 'the Engram tables and the rows read from them',
    needs: { lacks: 'Engram tables', when: (v) => v('engram.params') > 0 },
    title: 'Engram: weights, not activations',
    body: [
      'Engram is a memory addressed by recent token patterns: {engram.params} learned parameters in tables of {engram.table_bytes}. Like an expert\'s matrices they are trained weights. Nothing is written to them while a request runs, and nothing needs invalidating.',
      'Each token hashes its short n-grams into table rows and reads {engram.bytes_per_token}. The addresses follow from the tokens alone, so the rows can be fetched ahead of need: {engram.fetch_time} per fetch, stalling the step by {engram.stall}. A learned gate then decides how much of what was read enters the residual stream.',
    ],
  },
  {
    id: 'csa2-modes', path: 'csa2-modes', entry: { step: 'full' }, look: 'the layer modes: who owns and who shares global KV',
    needs: { lacks: 'sparse attention indexers', when: (v) => v('index.fullpool_bytes') > 0 },
    title: 'CSA2: who owns global KV, who shares it',
    body: [
      'Only a few layers own global KV. A Full layer writes its own compressed rows and index keys and scores every stored position; the Reuse layers after it take its selection as it is, and Reindex layers choose their own top-k over the same rows. SWA-only layers keep nothing but their local window.',
      'In the stored format a main row takes {kv.main_entry} and an index key {kv.index_entry}, so global KV costs {kv.global_per_token} per token. Scoring the whole pool reads {index.fullpool_bytes} per step and grows with the context; scoring inside the candidate pool reads {index.candidate_bytes} and stays flat.',
    ],
  },
  {
    id: 'swa-resume', path: 'swa-resume', entry: { step: 'restore', phase: 'hit' }, look: 'the SWA window and the session pool in host DRAM',
    needs: { lacks: 'sliding-window KV', when: (v) => v('kv.swa_per_session') > 0 },
    title: 'Session resume: a hit and a miss',
    body: [
      'Every session also keeps a short sliding window of uncompressed KV in each layer, {kv.swa_per_session} in all. When the session goes quiet its window is parked in a pool of recent sessions in host DRAM, room for about {swa.pool_sessions}.',
      'On a hit the window returns over the host link in {swa.restore_session_time}, layer by layer, behind the first layers\' compute. On a miss it was evicted, so the last tokens are replayed to rebuild it: {replay.time} of compute. Either way the window never touches the SSD.',
    ],
  },
  {
    id: 'prefix-cache', path: 'prefix-cache', entry: { step: 'promote-ssd-dram' }, look: 'the prefix cache on SSD moving up to HBM',
    title: 'The prefix cache: SSD to DRAM to HBM, before the turn',
    body: [
      'Global KV of earlier turns stays on SSD as a persistent prefix cache. When a new turn starts with a stored prefix, its {prefix.hit_bytes} of rows move from SSD into host DRAM and on into HBM before decoding begins, {prefix.ssd_hit_time} from the SSD, so no decode step waits on a drive.',
      'Recomputing the same prefix would cost {prefix.recompute_time} of compute. With the hit the turn costs {cost.turn_hit}; without it, {cost.turn_miss}.',
    ],
  },
  {
    id: 'step-budget', path: 'step-budget', entry: { step: 'weights' }, look: 'how the step\'s time divides as batch and context grow',
    title: 'The step budget',
    body: [
      'Where does a decode step\'s time go as the batch and the context grow? In this scenario the step takes at least {decode.step_floor}: the weights are {decode.weight_share} of its bytes, and the KV reads add {decode.kv_bytes}.',
      'A bigger batch shares each expert among more tokens ({decode.distinct_experts} distinct per layer here), while full-pool index scans grow with the context. With the weights resident ({hbm.weights_resident}), HBM has room for {hbm.sessions} at this context.',
    ],
  },
]);

// "a {x.y} b" → [{text:'a '}, {figure:'x.y'}, {text:' b'}]. Slot ids are figure ids: lower-case words
// joined by dots and underscores; anything else in braces stays text.
export function parseTemplate(template) {
  const parts = [];
  const re = /\{([a-z0-9_]+(?:\.[a-z0-9_]+)+)\}/g;
  let at = 0, m;
  while ((m = re.exec(template))) {
    if (m.index > at) parts.push({ text: template.slice(at, m.index) });
    parts.push({ figure: m[1] });
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push({ text: template.slice(at) });
  return parts;
}

// Every figure id the walkthrough needs.
export function slotIds(steps = STEPS) {
  const ids = new Set();
  for (const s of steps) for (const p of s.body) for (const part of parseTemplate(p)) if (part.figure) ids.add(part.figure);
  return [...ids];
}

// The ledger entry a step opens on: the first whose step key (and phase, when given) matches, else 0.
export function entryIndex(step, ledgerEntries) {
  const list = Array.isArray(ledgerEntries) ? ledgerEntries : [];
  const hit = list.find((e) => e.step === step.entry.step && (!step.entry.phase || e.phase === step.entry.phase));
  return hit ? hit.index : 0;
}

// Plain text of a step with figures filled in (for the live region and for copy/paste checks).
export function stepText(step, textOf) {
  return step.body.map((p) => parseTemplate(p).map((x) => (x.figure ? textOf(x.figure) : x.text)).join('')).join(' ');
}

// The story is DeepSeek V4.1 Flash's. When the scenario's model lacks what a step is about, the page says
// so above the step (its numbers are still the scenario's). `valueOf(id)` gives a figure's value.
// Returns the missing part's name, or '' when the step applies (or the figures are not known yet).
export function missingPart(step, valueOf) {
  if (!step.needs) return '';
  const v = (id) => {
    const x = valueOf(id);
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error('unknown');
    return x;
  };
  try { return step.needs.when(v) ? '' : step.needs.lacks; } catch { return ''; }
}
