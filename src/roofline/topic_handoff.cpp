// The prefill→decode hand-off: each engine's transfer engine with its sources, HandoffModel (what a prompt's KV
// weighs as the decode side stores it, its pages and descriptors, the time over the NICs or NVLink and what a
// push during the prefill hides), and the pd.* figures with their formulas.
#include "roofline/handoff.h"

#include <memory>

#include "roofline/topics.h"

namespace tierscope::model {

namespace {

// Large one-sided RDMA transfers reach ~0.85 of a NIC's line rate: DeepEP's internode kernels 43-58 GB/s of a
// 400 Gb/s ConnectX-7's 50 (FACTS-parallel §2.3, https://github.com/deepseek-ai/DeepEP), Mooncake's transfer
// engine 87 GB/s on 4 × 200 Gb/s RoCE (https://github.com/kvcache-ai/Mooncake). Its 190 GB/s on 8 × 400 Gb/s
// (0.48) is not taken: at that width a 40 GB payload is bound by something other than the NICs.
constexpr double kRdmaEff = 0.85;

// Each engine's transfer engine. vLLM: NixlConnector, whose decode side pulls every prompt block once the
// prefill is done; SGLang: the Mooncake transfer engine, each prefill chunk's KV pushed when the chunk is done;
// TensorRT-LLM: its cache transceiver over UCX (its default backend), the whole KV after the prefill.
const TransferEngine kVllm{
    "NIXL (vLLM NixlConnector)", 16, 3e-3, 3.75e-6, PdOverlap::Off, false, false, true,
    "vLLM's default block of 16 tokens (https://docs.vllm.ai/en/stable/api/vllm/config/cache/); NixlConnector's decode side pulls "
    "every prompt block once the prefill is done, ~3 ms to launch one request's transfer "
    "(https://github.com/vllm-project/vllm/issues/23780), 6.7 ms posting 1,785 descriptors = 3.75 µs each, and the decode recomputes "
    "the first token the prefill already sampled (https://github.com/vllm-project/vllm/issues/50913 ; "
    "https://github.com/vllm-project/vllm/pull/51919)"};
const TransferEngine kSglang{
    "Mooncake transfer engine (SGLang)", 64, 1e-3, 1e-6, PdOverlap::Chunk, true, true, false,
    "SGLang's Mooncake backend pushes each prefill chunk's KV when the chunk is done, from every prefill rank, and a prefill TP ≠ "
    "decode TP moves each token's head slice as its own transfer "
    "(https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/disaggregation/mooncake/conn.py); page 64 assumed (the page "
    "its MLA backends allocate; the default page of one token is sent as contiguous runs), 1 ms per request (bootstrap and the "
    "status messages) and 1 µs per descriptor assumed; the first token streamed once the decode admits it, assumed"};
const TransferEngine kTrt{
    "cache transceiver over UCX (TensorRT-LLM)", 32, 0.42e-3, 0.5e-6, PdOverlap::Off, true, false, true,
    "TensorRT-LLM's tokens_per_block default 32 (tensorrt_llm/llmapi/llm_args.py); the whole KV sent after the prefill "
    "(https://github.com/NVIDIA/TensorRT-LLM/issues/9212); 0.42 ms preparing one transfer "
    "(https://github.com/NVIDIA/TensorRT-LLM/pull/12273); UCX its default backend (https://github.com/NVIDIA/TensorRT-LLM/pull/9352); "
    "0.5 µs per block gathered into the send buffer, assumed; the first token reaches the client from the generation worker "
    "with its first step's output (https://github.com/NVIDIA/TensorRT-LLM/pull/2986 ; "
    "https://github.com/NVIDIA/TensorRT-LLM/pull/6512: other frameworks return it via the generation worker)"};
const TransferEngine kDeepseek{
    "RDMA push (DeepSeek, as SGLang's)", 64, 1e-3, 1e-6, PdOverlap::Chunk, true, true, false,
    "assumed as SGLang's Mooncake backend: DeepSeek's own system publishes no transfer costs (https://github.com/deepseek-ai/open-infra-index)"};

// The layers a hand-off moves: every layer that keeps KV (owned, windowed or chunked) or a recurrent state.
struct Layout {
  double per_token = 0, state = 0, kv_layers = 0;
  int spans[kMaxLayers] = {};
  int n_spans = 0;
};
Layout layout_of(const ModelArch& m, const LayerCounts& n, const KvSizes& z) {
  Layout l;
  l.per_token = n.inv_ratio_main * z.main + n.inv_ratio_index * z.idx;
  l.state = n.linear_layers * z.state;
  for (int i = 0; i < m.layer_count; ++i) {
    const LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    const int span = layer_window(m, i);
    if (span > 0) l.spans[l.n_spans++] = span;
    if (owns_kv(mode) || span > 0 || mode == LayerMode::Linear) l.kv_layers += 1;
  }
  return l;
}

// The copies of a KV head a TP group keeps: one per tp ÷ kv_heads GPUs when tp is wider than the heads.
double head_copies(const ModelArch& m, int tp) { return m.kv_heads > 0 ? std::max(1.0, static_cast<double>(tp) / m.kv_heads) : 1.0; }

}  // namespace

const TransferEngine& transfer_engine(EngineKind e) {
  switch (e) {
    case EngineKind::Vllm: return kVllm;
    case EngineKind::Sglang: return kSglang;
    case EngineKind::Trtllm: return kTrt;
    case EngineKind::Deepseek:
    case EngineKind::Count: break;
  }
  return kDeepseek;
}

double default_rdma_eff() { return kRdmaEff; }

HandoffModel::HandoffModel(const Scenario& s, int prefill_tp, int pool_gpus, const LayerPlan* plan) {
  const ModelArch& m = s.model;
  std::unique_ptr<LayerPlan> own;
  if (!plan) {
    own = std::make_unique<LayerPlan>();
    plan_layers(m, *own);
    plan = own.get();
  }
  const Layout l = layout_of(m, plan->counts, kv_sizes(m));
  per_token_ = l.per_token;
  state_ = l.state;
  swa_entry_ = kv_sizes(m).swa;
  n_spans_ = l.n_spans;
  for (int i = 0; i < l.n_spans; ++i) spans_[i] = l.spans[i];
  kv_layers_ = l.kv_layers;
  const TransferEngine& te = transfer_engine(s.engine.kind);
  engine_ = te.name;
  tp_d_ = std::max(1, s.par.tp);
  tp_p_ = std::max(1, prefill_tp > 0 ? prefill_tp : s.pd.prefill_tp > 0 ? s.pd.prefill_tp : s.par.tp);
  const bool mha = m.attn == AttnKind::MHA;
  parts_per_layer_ = mha ? 2.0 : 1.0;  // K and V apart; a latent is one vector
  // What crosses: each decode rank receives what it stores. An MHA head kept on tp ÷ kv_heads ranks arrives
  // once per copy, and an engine that pushes from every prefill rank sends the prefill's copies too; an MLA
  // latent (on every rank) reaches each decode rank once, from one prefill rank.
  copies_ = mha ? std::max(head_copies(m, tp_d_), te.sends_copies ? head_copies(m, tp_p_) : 1.0) : static_cast<double>(tp_d_);
  links_ = std::min(tp_p_, tp_d_);
  const int pool = pool_gpus > 0 ? pool_gpus : tp_p_ + s.hw.gpus;
  nvlink_ = s.pd.link == PdLink::Nvlink || (s.pd.link == PdLink::Auto && pool <= link_domain(s.hw));
  // Over the NICs, a worker sends through its share of its nodes' NICs: one per GPU unless pd_nics says fewer.
  if (!nvlink_ && s.pd.nics > 0) {
    const double share = static_cast<double>(s.pd.nics) * tp_p_ / std::max(1, node_gpus(s.hw));
    links_ = std::min(links_, std::max(1.0, std::floor(share)));
  }
  link_bw_ = nvlink_ ? link_gbps(s.hw) * 1e9 * s.hw.link_eff : s.hw.nic_gbps * 1e9 * (s.pd.rdma_eff > 0 ? s.pd.rdma_eff : kRdmaEff);
  page_ = s.pd.page > 0 ? s.pd.page : te.page;
  fixed_s_ = s.pd.fixed_us > 0 ? s.pd.fixed_us * 1e-6 : te.fixed_s;
  desc_s_ = s.pd.desc_us > 0 ? s.pd.desc_us * 1e-6 : te.desc_s;
  // Resharding MHA heads between unequal TP sizes, an engine may move each token's slice on its own.
  desc_tokens_ = te.reshard_per_token && mha && tp_p_ != tp_d_ ? page_ : 1.0;
  overlap_ = s.pd.overlap == PdOverlap::Auto ? te.overlap : s.pd.overlap;
  first_from_decode_ = te.first_from_decode;
}

HandoffCost HandoffModel::cost(double tokens, double prefill_s, double chunks) const {
  HandoffCost h;
  h.tokens = std::max(0.0, tokens);
  double windowed = 0;
  for (int i = 0; i < n_spans_; ++i) windowed += std::min<double>(spans_[i], h.tokens);
  h.stored = h.tokens * per_token_ + windowed * swa_entry_ + (h.tokens > 0 ? state_ : 0.0);
  h.copies = copies_;
  h.bytes = h.stored * copies_;
  h.pages = std::ceil(h.tokens / page_);
  h.links = links_;
  h.link_bw = link_bw_;
  h.descriptors = h.pages * kv_layers_ * parts_per_layer_ * std::max(1.0, copies_ / links_) * desc_tokens_;
  h.desc_s = desc_s_;
  h.wire_s = h.link_bw > 0 ? h.descriptors * desc_s_ + h.bytes / (h.links * h.link_bw) : 0.0;
  h.parts = overlap_ == PdOverlap::Layer ? std::max(1.0, kv_layers_) : overlap_ == PdOverlap::Chunk ? std::max(1.0, chunks) : 1.0;
  // Part k of n is ready at k/n of the prefill; the link sends each in wire/n. Past the prefill's end the first
  // token waits for the last part, or for the link still busy with earlier ones when it is the slower.
  const double tail = std::max(h.wire_s / h.parts, h.wire_s - std::max(0.0, prefill_s) * (h.parts - 1) / h.parts);
  h.exposed_s = h.tokens > 0 ? fixed_s_ + tail : 0.0;
  return h;
}

namespace topics {

void compute_handoff(Ctx& c, Values& v) {
  const HandoffModel hm(c.s, 0, 0, &c.plan());
  const HandoffCost h = hm.cost(c.s.work.prompt, v[F::PrefillTime], c.t.prefill_chunks);
  v[F::PdKvBytes] = h.bytes;
  v[F::PdPages] = h.pages;
  v[F::PdWireTime] = h.wire_s;
  v[F::PdTransferTime] = h.exposed_s;
}

void describe_handoff(Say& y) {
  const HandoffModel hm(y.s);
  const HandoffCost h = hm.cost(y.w.prompt, y.v[F::PrefillTime], y.t.prefill_chunks);
  const ModelArch& m = y.m;
  if (h.tokens <= 0) {
    for (const F id : {F::PdKvBytes, F::PdPages, F::PdWireTime, F::PdTransferTime}) y.set(id, words("no prompt tokens: nothing to hand off"));
    return;
  }
  {
    Expr stored = q(h.stored, "B", "the prompt's KV once");
    stored.note(num(h.tokens) + " tokens through " + num(hm.kv_layers()) + " layers that keep KV");
    Expr copies = n(h.copies, "copies");
    if (m.attn == AttnKind::MHA) {
      copies.note(h.copies > 1 ? "TP " + num(hm.decode_tp()) + " (decode) and " + num(hm.prefill_tp()) + " (prefill) over " + num(m.kv_heads) +
                                     " KV heads: each head kept on several GPUs is sent to each"
                               : "each KV head on one GPU of each side");
    } else {
      copies.note("the latent sent once to each of the decode's " + num(hm.decode_tp()) + " attention ranks, from one prefill rank");
    }
    y.set(F::PdKvBytes, std::move(stored) * std::move(copies));
  }
  y.set(F::PdPages, ceil_of(n(h.tokens, "tokens") / n(hm.page(), "tokens per page")));
  {
    const std::string via = hm.nvlink() ? "NVLink (both pools in one domain)" : "the NICs";
    Expr desc = n(h.descriptors, "descriptors") * q(h.desc_s, "s", "each");
    desc.note("a page of one layer per descriptor, on each sending rank");
    Expr bytes = q(h.bytes, "B") / (n(h.links, "links") * q(h.link_bw, "B/s", "achieved"));
    bytes.note(std::string(hm.engine_name()) + " over " + via);
    y.set(F::PdWireTime, std::move(desc) + std::move(bytes));
  }
  {
    const Expr fixed = q(hm.fixed_seconds(), "s", "fixed per transfer");
    if (h.parts <= 1) {
      y.set(F::PdTransferTime, fixed + q(h.wire_s, "s", "the whole transfer after the prefill"));
    } else {
      const std::string what = hm.overlap() == PdOverlap::Layer ? "layers" : "chunks";
      Expr last = q(h.wire_s, "s", "transfer") / n(h.parts, what);
      Expr behind = q(h.wire_s, "s", "transfer") - q(y.v[F::PrefillTime], "s", "prefill") * (n(h.parts) - n(1)) / n(h.parts, what);
      Expr e = fixed + max_of({std::move(last), std::move(behind)});
      e.note("pushed " + std::string(hm.overlap() == PdOverlap::Layer ? "layer by layer" : "chunk by chunk") +
             " during the prefill: the last part, or what the link still owes");
      y.set(F::PdTransferTime, std::move(e));
    }
  }
}

}  // namespace topics

}  // namespace tierscope::model
