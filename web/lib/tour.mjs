// The "Start here" walkthrough: a first screen (what the page shows, the four tiers) and one step per
// path, each opening on the ledger entry it talks about (which entry is the app's: app::open_tour_step).
// Each step has wordings for different kinds of model (encoder-decoder or decoder-only, CSA2, MLA or GQA,
// MoE or dense, with or without Engram and a sliding window), chosen from the app's state().arch. Numbers are
// never written here: {figure.id} slots are filled from the app's figures and {arch.field} slots from
// state().arch, so the text follows the scenario (another preset, another GPU, another context).

// Facts of the model, from state().arch; before the app has loaded, the story of the default model.
const isCed = (a) => a.family === 'encoder-decoder';
const isSparse = (a) => a.sparse === true;
// DSA (DeepSeek-V3.2, GLM-5): an indexer in every attending layer, no layer sharing another's selection.
const isDsa = (a) => isSparse(a) && a.sparse_kind === 'dsa';
const sparseName = (a) => (isDsa(a) ? 'DSA' : 'CSA2');
// A sparse model whose indexed layers each pick their own positions (none Reuse or Reindex), as app state says.
const ownSelections = (a) => isSparse(a) && a.shared_selection_layers === 0;
const isMoe = (a) => a.moe === true;
const hasEngram = (a) => a.engram === true;
const hasWindow = (a) => Number(a.window) > 0;
const any = () => true;
const hasFp4 = (a) => !a.kv_format || /fp4/i.test(String(a.kv_format));

// The terms a decode step's time splits into are the app's (catalog().decodeTerms: {key, label, words, figures}),
// the rows the breakdown chart stacks and `tierscope chart breakdown` prints: a claim about what dominates the
// step names the largest of those, in the app's words for it, so the walkthrough, the chart and the command
// line name the same term. Steps that make such a claim say `costs: true` (the page reads these figures for them).

// The largest term of the decode step, {key, words, figures} (figures: its parts that take any time), from
// `value(id)` (a number, or undefined before the figures are read or when the setup cannot run) and the
// catalog's `terms`; null when no term is known. A term's seconds are its figures summed in order, as the app
// sums them; the first of equal terms wins, as in the app's order.
export function largestDecodeTerm(value, terms) {
  const read = (id) => (typeof value === 'function' ? value(id) : undefined);
  let best = null;
  for (const t of Array.isArray(terms) ? terms : []) {
    const parts = t.figures.map(read);
    if (!parts.length || !parts.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    const seconds = parts.reduce((sum, v) => sum + v, 0);
    if (seconds > 0 && (!best || seconds > best.seconds)) best = { key: t.key, words: t.words, figures: t.figures.filter((id, k) => parts[k] > 0), seconds };
  }
  return best ? { key: best.key, words: best.words, figures: best.figures } : null;
}

// "Decode: one token, mostly kernel launch floor" — or a title that claims nothing before the numbers are known.
const decodeTitle = (lead) => (a, value, terms) => {
  const top = largestDecodeTerm(value, terms);
  return top ? `Decode: ${lead}, mostly ${top.words}` : `Decode: ${lead}, and where its time goes`;
};
// The sentence naming the step's largest term, with its figures (a term of several parts names each).
const decodeLargest = (a, value, terms) => {
  const top = largestDecodeTerm(value, terms);
  return top ? ` The largest part of the {decode.step_time} step is ${top.words}: ${top.figures.map((id) => `{${id}}`).join(' + ')}.` : '';
};

// Plain words for the terms this model's text and canvas use, each said once on the first screen.
const GLOSSARY = [
  [any, 'KV, the keys and values each layer keeps for every earlier token'],
  [isMoe, 'MoE, a mixture of experts: each token uses only a few of many expert networks'],
  [isSparse, (a) => `${sparseName(a)}, sparse attention that reads only the earlier positions its indexers pick`],
  [hasWindow, 'SWA, a sliding window of recent tokens kept in full'],
  [hasEngram, 'Engram, learned memory tables looked up by the last few tokens'],
  [hasFp4, 'FP4, numbers stored in four bits'],
];
const glossary = (a) => 'Words you will meet: ' + GLOSSARY.filter(([when]) => when(a)).map(([, words]) => (typeof words === 'function' ? words(a) : words)).join('; ') + '.';

// The walkthrough's first screen: what the page is for and the four tiers with this scenario's capacities and
// latencies, then the hand-over to step one. A page opened without a link starts here (`tour=intro`); it is
// not one of the numbered steps, so `tour=N` links keep their steps.
export const INTRO = Object.freeze({
  id: 'intro', path: 'prefill', next: 'Next: prefill',
  variants: [
    {
      when: any,
      title: 'What this page shows', look: 'the four tier bands on the canvas and the blocks each one holds',
      body: [
        (a) => 'This page shows which bytes of a model\'s inference live in which memory tier (its weights, the KV cache each request builds' +
          (hasEngram(a) ? ', its Engram tables' : '') + ') and what it costs to move them while a prompt is read in (prefill) and while each new token is made (decode). Every number comes from the model and opens its formula when clicked.',
      ],
      list: [
        'GPU SRAM: the chip\'s own cache, {hw.sram_per_gpu} per GPU, {hw.sram_latency} away. Only what a kernel works on right now.',
        'GPU HBM: the GPU\'s main memory, {hw.hbm_per_gpu} per GPU, {hw.hbm_latency} away, read at {hw.hbm_bw_per_gpu}. The weights and the KV every step reads.',
        'Host DRAM: the server\'s memory, {hw.host_dram} per node, {hw.host_latency} away over the host link at {hw.host_link_bw}. What is needed again soon, not every step.',
        'NVMe SSD: the node\'s drives, {ssd.capacity} per node, {hw.ssd_latency} per read at {hw.ssd_bw_per_drive} per drive. Earlier conversations\' KV, kept for when they return.',
      ],
      after: [
        (a) => glossary(a),
        'Next: prefill. The walkthrough follows one request from its prompt to its tokens, one step at a time.',
      ],
    },
  ],
});

// The second paragraph of prefill for a decoder-only model: how its layers store KV.
const KV_WRITE = {
  mla: 'Each layer stores one compressed latent of {arch.kv_lora} values per token instead of full keys and values, so the cache grows by {kv.global_per_token} across all layers. It stays in HBM for the decode steps that follow.',
  gqa: 'Each layer writes the token\'s keys and values into the KV cache: {arch.kv_heads} KV heads of {arch.head_dim} values each, shared by {arch.q_heads} query heads. Across all layers the cache grows by {kv.global_per_token} and stays in HBM for the decode steps that follow.',
  mha: 'Each layer writes the token\'s keys and values into the KV cache, one pair per head ({arch.kv_heads} heads of {arch.head_dim} values). Across all layers the cache grows by {kv.global_per_token} and stays in HBM for the decode steps that follow.',
  other: 'The layers write the token\'s KV into HBM, {kv.global_per_token} across all of them, for the decode steps that follow.',
};
const kvWrite = (a) => KV_WRITE[a.attention === 'mqa' ? 'gqa' : a.attention] || KV_WRITE.other;

// Prefill runs the scenario's prompt, while decode is shown at the scenario's context (ctx): the token row
// and the KV counters jump from one length to the other between the two steps, which this line explains.
const DECODE_AT_CONTEXT = 'This step is a token late in a long conversation: it runs at the scenario\'s context (ctx in the scenario), not at the end of the prompt prefill just ran, so the token row and the KV counters jump from the prompt\'s length to the context\'s.';

export const STEPS = Object.freeze([
  {
    id: 'prefill', path: 'prefill',
    variants: [
      {
        when: isCed,
        title: 'Prefill: the prompt runs through the encoder', look: 'the causal encoder and the global KV block in HBM',
        body: [
          'A request begins with its prompt. Every prompt token streams through the causal encoder alone (a first stack of layers in which each token sees only the tokens before it), so prefill activates {model.params_active_prefill} per token where a decode token needs {model.params_active_decode}. For this prompt that is {prefill.flop} of work, about {prefill.time} on this node.',
          'The encoder\'s final hidden state H[t] is projected into the global KV that the decoder reads later: {kv.global_per_token}, compressed and kept in HBM. The decoder stays mostly idle; only the last window of the prompt passes through it.',
        ],
      },
      {
        when: any,
        title: 'Prefill: the prompt runs through every layer', look: 'the layer rows and the KV block in HBM',
        body: [
          'A request begins with its prompt. Every prompt token runs through all {arch.layers} layers of this decoder-only model, activating {model.params_active_prefill} per token, as a decode token does. For this prompt that is {prefill.flop} of work, about {prefill.time} on this node.',
          (a) => kvWrite(a),
        ],
      },
    ],
  },
  {
    id: 'decode', path: 'decode', costs: true,
    variants: [
      {
        when: isMoe,
        title: decodeTitle('one token'), look: 'the MoE weights streaming from HBM',
        body: [
          (a, value, terms) => 'Each new token passes through every layer, and most of the bytes it reads are the selected experts\' weights (in a mixture of experts each token uses only a few of each layer\'s expert networks): {model.weights_per_token} per token for the whole model, {decode.weight_bytes} on each GPU per step, {decode.weight_share} of everything the step reads. Reading them takes {decode.t_weights} of the {decode.step_time} step; kernels held at their launch floor add {decode.t_overhead} and the all-reduce {decode.t_allreduce}.' + decodeLargest(a, value, terms) + ' That is about {decode.tokens_per_s} for the instance.',
          (a) => (isSparse(a)
            ? `The attention reads are small beside it: ${sparseName(a)}, the sparse attention, gathers only the positions its indexers selected, {gather.bytes} across the reading layers, however long the context is.`
            : 'The attention reads the KV of every earlier token, {decode.kv_bytes} per step at this context; unlike the weights, that grows with the context.'),
          DECODE_AT_CONTEXT,
        ],
      },
      {
        when: any,
        title: decodeTitle('one token through all of the weights'), look: 'the dense weights streaming from HBM',
        body: [
          (a, value, terms) => 'Each new token passes through all {arch.layers} layers, and a dense model uses every weight for every token: each GPU streams {decode.weight_bytes} out of HBM per step, {decode.weight_share} of everything it reads. Reading them takes {decode.t_weights} of the {decode.step_time} step; kernels held at their launch floor add {decode.t_overhead}.' + decodeLargest(a, value, terms) + ' That is about {decode.tokens_per_s} for the instance.',
          'Reading the KV cache of every earlier token adds {decode.kv_bytes} per step at this context, and grows with it.',
          DECODE_AT_CONTEXT,
        ],
      },
    ],
  },
  {
    id: 'engram', path: 'engram',
    variants: [
      {
        when: hasEngram,
        title: 'Engram: weights, not activations', look: 'the Engram tables and the rows read from them',
        body: [
          'Engram is a memory addressed by recent token patterns: {engram.params} in tables of {engram.table_bytes}. Like an expert\'s matrices they are trained weights. Nothing is written to them while a request runs, and nothing needs invalidating.',
          'Each token hashes its short n-grams into table rows and reads {engram.bytes_per_token}. The addresses follow from the tokens alone, so the rows can be fetched ahead of need: {engram.fetch_time} per fetch, stalling the step by {engram.stall}. A learned gate then decides how much of what was read enters the residual stream.',
        ],
      },
      {
        when: any,
        title: 'Engram: not part of this model', look: 'the memory tiers: no Engram block is drawn',
        body: [
          'This model has no Engram tables, so this step has nothing to play; in a model with them (DeepSeek V4.1 Flash) each token would read a few rows of learned memory picked by its last few tokens, never writing to them.',
        ],
      },
    ],
  },
  {
    id: 'csa2-modes', path: 'csa2-modes',
    variants: [
      {
        when: ownSelections,
        title: (a) => `${sparseName(a)}: each indexed layer picks its own positions`, look: 'the layer modes: every indexed layer owns its KV and keys',
        body: [
          (a) => (Number(a.full_layers) === Number(a.layers) ? 'All {arch.layers} layers own' : '{arch.full_layers} of the {arch.layers} layers own') +
            ' global KV with index keys: each writes its own rows and keys, scores every stored position and attends only to the top-k it picks; no layer takes another\'s selection.' +
            (Number(a.dense_layers) > 0 ? ' {arch.dense_layers} more keep their own compressed KV without an indexer and attend over all of it.' : '') +
            (Number(a.window_only_layers) > 0 ? ' {arch.window_only_layers} keep nothing but their local window.' : ''),
          (a) => 'In the stored format a row takes {kv.main_entry} and an index key {kv.index_entry}, so global KV costs {kv.global_per_token}. Scoring the whole pool reads {index.fullpool_bytes} per step and grows with the context' +
            (a.candidate_pool === true ? '; scoring inside the candidate pool reads {index.candidate_bytes} and stays flat.' : '.'),
        ],
      },
      {
        when: isSparse,
        title: 'CSA2: who owns global KV, who shares it', look: 'the layer modes: who owns and who shares global KV',
        body: [
          'Only a few layers own global KV. A Full layer writes its own compressed rows and index keys and scores every stored position; the Reuse layers after it take its selection as it is, and Reindex layers choose their own top-k over the same rows. SWA-only layers keep nothing but their local window.',
          'In the stored format a main row takes {kv.main_entry} and an index key {kv.index_entry}, so global KV costs {kv.global_per_token}. Scoring the whole pool reads {index.fullpool_bytes} per step and grows with the context; scoring inside the candidate pool reads {index.candidate_bytes} and stays flat.',
        ],
      },
      {
        when: any,
        title: 'Layer by layer: every layer keeps its own KV', look: 'the layer rows, one by one',
        body: [
          'This model has no sparse indexers: each of its {arch.layers} layers owns its KV and attends over all of it, so the animation walks the layers one by one, each reading its own cache.',
          'One layer\'s entry for one token takes {kv.main_entry}, {kv.global_per_token} over all layers. At this context a decode step reads {decode.kv_bytes} of KV in all: nothing is shared between layers and nothing is skipped.',
        ],
      },
    ],
  },
  {
    id: 'swa-resume', path: 'swa-resume',
    variants: [
      {
        when: hasWindow,
        title: 'Session resume: a hit and a miss', look: 'the SWA window and the session pool in host DRAM',
        body: [
          'Every session also keeps a short sliding window of uncompressed KV in each layer, {kv.swa_per_session} in all. When the session goes quiet its window is parked in a pool of recent sessions in host DRAM, with room for {swa.pool_sessions}.',
          'On a hit the window returns over the host link in {swa.restore_session_time}, layer by layer, behind the first layers\' compute. On a miss it was evicted, so the last tokens are replayed to rebuild it: {replay.time} of compute. Either way the window never touches the SSD.',
        ],
      },
      {
        when: any,
        title: 'Session resume: no sliding window to park', look: 'the memory tiers: no SWA blocks are drawn',
        body: [
          'This model keeps no sliding window, so this step has nothing to play; with one, a quiet session\'s window of recent tokens would be parked in host DRAM and brought back when the session returns (here its KV comes back through the prefix cache, the next step).',
        ],
      },
    ],
  },
  {
    id: 'prefix-cache', path: 'prefix-cache',
    variants: [
      {
        when: any,
        title: 'The prefix cache: the hit comes up from the tier that holds it', look: 'the prefix\'s KV reaching HBM before the turn',
        body: [
          // The tier the figures read the hit from: nothing to read (HBM), the upload alone (DRAM), or both hops (SSD).
          (a, value) => {
            const read = value('prefix.hit_time'), up = value('prefix.upload_time');
            if (read === 0) return 'The KV of earlier turns stays cached. When a new turn starts with a stored prefix, its {prefix.hit_bytes} of rows are still in HBM beside the running batch here, so nothing moves before decoding begins.';
            if (typeof read === 'number' && read === up) return 'The KV of earlier turns stays cached. When a new turn starts with a stored prefix, its {prefix.hit_bytes} of rows are held in host DRAM here and go up into HBM ({prefix.upload_time}) before decoding begins; nothing is read from SSD.';
            return 'The KV of earlier turns stays on SSD as a persistent prefix cache. When a new turn starts with a stored prefix, its {prefix.hit_bytes} of rows move from SSD into host DRAM ({prefix.ssd_read_time}) and on into HBM ({prefix.upload_time}) before decoding begins, so no decode step waits on a drive.';
          },
          'Recomputing the same prefix would cost {prefix.recompute_time} of compute. With the hit the turn costs {cost.turn_hit}; without it, {cost.turn_miss}.',
        ],
      },
    ],
  },
  {
    id: 'step-budget', path: 'step-budget', costs: true,
    variants: [
      {
        when: isMoe,
        title: 'The step budget', look: 'how the step\'s time divides as batch and context grow',
        body: [
          (a, value, terms) => 'Where does a decode step\'s time go as the batch and the context grow? In this scenario the step takes {decode.step_time}: the weights are {decode.weight_share} of its bytes, and the KV reads add {decode.kv_bytes}.' + decodeLargest(a, value, terms),
          (a) => 'A bigger batch shares each expert among more tokens ({decode.distinct_experts} per layer here)' +
            (isSparse(a) ? ', while full-pool index scans grow with the context.' : ', while the KV reads grow with every session\'s context.') +
            ' With the weights resident ({hbm.weights_resident}), HBM has room for {hbm.sessions} at this context.',
        ],
      },
      {
        when: any,
        title: 'The step budget', look: 'how the step\'s time divides as batch and context grow',
        body: [
          (a, value, terms) => 'Where does a decode step\'s time go as the batch and the context grow? In this scenario the step takes {decode.step_time}: the weights are {decode.weight_share} of its bytes, and the KV reads add {decode.kv_bytes}.' + decodeLargest(a, value, terms),
          'A bigger batch reads the same dense weights once for more tokens, while the KV reads grow with every session\'s context. With the weights resident ({hbm.weights_resident}), HBM has room for {hbm.sessions} at this context.',
        ],
      },
    ],
  },
  {
    id: 'pd-handoff', path: 'pd-handoff',
    variants: [
      {
        when: any,
        title: 'The hand-off: from the prefill node to the decode node', look: 'the NIC and the decode node\'s HBM beside the tiers',
        body: [
          'Disaggregated serving prefills on some GPUs and decodes on others. Once the prompt\'s KV sits in the prefill node\'s HBM it has to reach the decode node: {pd.kv_bytes} in {pd.pages}, sent by RDMA over the NICs (or over NVLink when both sides share one NVLink domain).',
          'On the wire that takes {pd.wire_time}: a cost for each page descriptor, plus the bytes over the NICs at their achieved rate. The first token still waits {pd.transfer_time} after the {prefill.time} prefill, a fixed cost per transfer included; an engine that pushes the KV layer by layer or chunk by chunk hides the rest behind the prefill.',
        ],
      },
    ],
  },
  {
    id: 'offload-reload', path: 'offload-reload',
    variants: [
      {
        when: any,
        title: 'Offload or recompute: a hit climbing from SSD', look: 'the prefix cache on SSD climbing through host DRAM into HBM',
        body: [
          'A prefix hit kept on SSD is read into host DRAM ({prefix.ssd_read_time}) and uploaded into HBM ({prefix.upload_time}), layer by layer where the store loads that way, while the rest of the prompt is prefilled ({prefix.rest_time}).',
          (a, value) => 'With the queues at this load the first token comes after {offload.ttft_ssd}; recomputing the whole prompt instead takes {offload.ttft_off}, a change of {offload.change_ssd} with offload.' +
            (value('offload.flip_hit_tokens_ssd') > 0 ? ' The sign flips at a hit of {offload.flip_hit_tokens_ssd} for this prompt.' : ''),
        ],
      },
    ],
  },
]);

// What "Start here" says while the fleet view is open: the canvas then shows a day of traffic through the
// tiers, not one request's path, so the walkthrough tells that (and offers the way back to its steps).
export const FLEET_CARD = Object.freeze({
  id: 'fleet',
  variants: [
    {
      when: any,
      title: 'A day of traffic through the tiers', look: 'the tiers filling hour by hour, and the hit rates in the fleet panel',
      body: [
        'The canvas now follows one serving node through simulated hours of sessions, not one request: each tier\'s band fills to its occupancy at the hour on the playback bar, and the ledger lists each hour\'s turns, prefix hits and time to first token.',
        // A model with a sliding window also keeps each idle session's window, in the SWA pool.
        (a) => `HBM holds the KV of the turns being served, {hbm.sessions_per_node} per node at this context. Between turns ${hasWindow(a) ? 'a session\'s window waits in the SWA pool in host DRAM, which holds {swa.pool_sessions}, and its history stays' : 'a session\'s history stays'} in the DRAM prefix cache and then on SSD until it is evicted. A returning turn takes what it finds there instead of prefilling it again: a hit of {prefix.hit_bytes} reaches HBM in {prefix.hit_time}, where recomputing it would take {prefix.recompute_time}.`,
      ],
    },
  ],
});

// One wording with its model-dependent parts chosen: titles and paragraphs may be functions of the model
// (`a`), of the scenario's figure values (`value(id)`, a number or undefined) and of the catalog's decode
// terms (`terms`).
function resolve(v, a, value, terms) {
  const pick = (p) => (typeof p === 'function' ? p(a, value, terms) : p);
  return { title: pick(v.title), look: pick(v.look), body: v.body.map(pick), list: (v.list || []).map(pick), after: (v.after || []).map(pick) };
}

// Every template of a wording, in the order the page shows them (paragraphs, list items, closing paragraphs).
export const templatesOf = (w) => [...w.body, ...w.list, ...w.after];

// The wording of a step for a model (`arch` from state().arch; null before the app has loaded: the story of
// the default model), its figures' values (`value(id)`; omitted: no claim that needs them) and the catalog's
// decode terms (`terms`, catalog().decodeTerms; omitted: no claim about the largest).
// Returns { title, look, body: [template, …], list: [template, …], after: [template, …] }.
export function variantFor(step, arch, value, terms = []) {
  const a = arch && typeof arch === 'object' ? arch : { family: 'encoder-decoder', attention: 'csa2', moe: true, engram: true, sparse: true, window: 1 };
  const v = step.variants.find((x) => x.when(a)) || step.variants[step.variants.length - 1];
  return resolve(v, a, typeof value === 'function' ? value : () => undefined, terms);
}

// Every wording of a step, for checks over all of them (each function tried with each model kind and with
// figures that make each of the catalog's decode terms, `terms`, the largest).
export function allVariants(step, terms = []) {
  const kinds = [];
  for (const family of ['encoder-decoder', 'decoder-only'])
    for (const attention of ['csa2', 'mla', 'gqa', 'mha', 'mqa', 'latent'])
      for (const moe of [true, false]) kinds.push({ family, attention, moe, sparse: attention === 'csa2', engram: moe, window: moe ? 1 : 0 });
  // Sparse models whose indexed layers each pick their own positions: DSA's, and one with compressed dense
  // layers, window-only layers and a candidate pool beside them.
  kinds.push({ family: 'decoder-only', attention: 'csa2', moe: true, sparse: true, sparse_kind: 'dsa', shared_selection_layers: 0, dense_layers: 0, window_only_layers: 0, window: 0 });
  kinds.push({ family: 'decoder-only', attention: 'csa2', moe: true, sparse: true, sparse_kind: 'csa2', shared_selection_layers: 0, dense_layers: 1, window_only_layers: 1, candidate_pool: true, window: 1 });
  const values = [() => undefined, ...terms.map((t) => (x) => (t.figures.includes(x) ? 100 : 1))];
  const seen = new Map();
  for (const a of kinds) for (const value of values) for (const v of step.variants) {
    const w = resolve(v, a, value, terms);
    seen.set(JSON.stringify(w), w);
  }
  return [...seen.values()];
}

// The walkthrough step that tells a path, or -1.
export function stepIndexOfPath(path) {
  return STEPS.findIndex((s) => s.path === path);
}

// "a {x.y} b" → [{text:'a '}, {figure:'x.y'}, {text:' b'}]. Slot ids are figure ids or arch.<field>: lower-case
// words joined by dots and underscores; anything else in braces stays text.
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

// Every figure id (not arch slots) the walkthrough's wordings use, with the catalog's decode terms `terms`.
export function slotIds(steps = [INTRO, ...STEPS, FLEET_CARD], terms = []) {
  const ids = new Set();
  for (const s of steps) for (const v of allVariants(s, terms)) for (const p of templatesOf(v)) {
    for (const part of parseTemplate(p)) if (part.figure && !part.figure.startsWith('arch.')) ids.add(part.figure);
  }
  return [...ids];
}

// Plain text of a wording with its slots filled (for the live region and for copy/paste checks).
export function stepText(variant, textOf) {
  return templatesOf({ list: [], after: [], ...variant }).map((p) => parseTemplate(p).map((x) => (x.figure ? textOf(x.figure) : x.text)).join('')).join(' ');
}
