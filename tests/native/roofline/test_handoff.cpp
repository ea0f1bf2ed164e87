// The prefill→decode hand-off (roofline/handoff.h): pd.kv_bytes against the KV's own arithmetic, with the
// copies tensor parallelism keeps (a KV head on several GPUs sent from each, an MLA latent sent once to each
// decode rank), and pd.transfer_time's parts: pages at a fixed size, the NICs' rate and efficiency, the NICs
// a node has, the fixed cost per transfer and a push that overlaps the prefill.
#include <catch2/catch.hpp>

#include "roofline/handoff.h"
#include "scenario_helpers.h"

using namespace tierscope::model;
using namespace tierscope::test;
using F = FigureId;

namespace {

// Llama 3.1 70B keeps 80 layers × K and V × 8 heads × 128 dims × 2 B of BF16 per token.
constexpr double kLlama70bKvPerToken = 80.0 * 2 * 8 * 128 * 2;
// DeepSeek-V3 keeps a 576-value BF16 latent per layer, 61 layers.
constexpr double kV3LatentPerToken = 61.0 * 576 * 2;

Scenario llama70b(const char* engine, const char* tp, const char* gpus) {
  Scenario s = preset("llama31-70b-8xh100");
  edit(s, "engine", engine);
  edit(s, "gpus", gpus);
  edit(s, "tp", tp);
  edit(s, "prompt", "4096");
  edit(s, "prefix_hit", "0");
  return s;
}

}  // namespace

TEST_CASE("hand-off: a GQA prompt's KV is sent once per copy — TP wider than the KV heads doubles the bytes") {
  const Scenario tp8 = llama70b("vllm", "8", "8");
  const Scenario tp16 = llama70b("vllm", "16", "16");
  CHECK(values(tp8)[F::PdKvBytes] == Approx(4096 * kLlama70bKvPerToken));
  // At TP 16 each of the 8 KV heads lives on two GPUs, and each of them receives it.
  CHECK(values(tp16)[F::PdKvBytes] == Approx(2 * 4096 * kLlama70bKvPerToken));
  CHECK(values(tp16)[F::PdKvBytes] / values(tp8)[F::PdKvBytes] == Approx(2.0));
}

TEST_CASE("hand-off: prefill TP ≠ decode TP — a pushing engine sends the prefill's copies too, a pulling one what the decode stores") {
  // Decode at TP 8 (one head per GPU), prefill at TP 16 (each head on two GPUs).
  Scenario push = llama70b("sglang", "8", "8");
  edit(push, "pd_tp", "16");
  Scenario pull = llama70b("vllm", "8", "8");
  edit(pull, "pd_tp", "16");
  CHECK(values(push)[F::PdKvBytes] == Approx(2 * 4096 * kLlama70bKvPerToken));
  CHECK(values(pull)[F::PdKvBytes] == Approx(4096 * kLlama70bKvPerToken));
  // SGLang reshards MHA heads token by token between unequal TPs: more descriptors than at equal TP.
  Scenario same = llama70b("sglang", "8", "8");
  edit(same, "pd_link", "nic");
  edit(push, "pd_link", "nic");
  const HandoffCost a = HandoffModel(same).cost(4096, 0, 1), b = HandoffModel(push).cost(4096, 0, 1);
  CHECK(b.descriptors > a.descriptors);
}

TEST_CASE("hand-off: an MLA latent on every rank reaches each decode rank once, whatever the prefill's TP") {
  Scenario s = preset("deepseek-v3-8xh200");
  edit(s, "prompt", "4096");
  edit(s, "prefix_hit", "0");
  const double tp = s.par.tp;
  CHECK(values(s)[F::PdKvBytes] == Approx(4096 * kV3LatentPerToken * tp));
  for (const char* ptp : {"4", "16"}) {
    Scenario p = s;
    edit(p, "pd_tp", ptp);
    edit(p, "engine", "sglang");
    INFO("pd_tp=" << ptp);
    CHECK(values(p)[F::PdKvBytes] == Approx(4096 * kV3LatentPerToken * tp));
  }
}

TEST_CASE("hand-off: at a fixed page size the time grows with the pages — smaller pages cost more at the same bytes") {
  Scenario s = llama70b("trtllm", "8", "8");
  edit(s, "pd_link", "nic");
  edit(s, "kv_page", "64");
  const Values big = values(s);
  edit(s, "kv_page", "16");
  const Values small = values(s);
  CHECK(small[F::PdKvBytes] == big[F::PdKvBytes]);
  CHECK(small[F::PdPages] == 4 * big[F::PdPages]);
  CHECK(small[F::PdWireTime] > big[F::PdWireTime]);
  // And at one page size, a longer prompt has more pages and takes longer.
  edit(s, "prompt", "8192");
  const Values longer = values(s);
  CHECK(longer[F::PdPages] == 2 * small[F::PdPages]);
  CHECK(longer[F::PdWireTime] > small[F::PdWireTime]);
}

TEST_CASE("hand-off: the bytes' time is bytes ÷ (links × NIC rate × RDMA efficiency), with the node's NICs as links") {
  Scenario s = llama70b("trtllm", "8", "8");
  edit(s, "pd_link", "nic");
  edit(s, "pd_desc_us", "0.001");
  const auto bytes_time = [](const Scenario& x) {
    const HandoffCost h = HandoffModel(x).cost(4096, 0, 1);
    return h.wire_s - h.descriptors * h.desc_s;
  };
  const double bytes = 4096 * kLlama70bKvPerToken;
  // One NIC per GPU: eight links at 50 GB/s × 0.85 (the default efficiency).
  CHECK(bytes_time(s) == Approx(bytes / (8 * s.hw.nic_gbps * 1e9 * default_rdma_eff())));
  edit(s, "rdma_eff", "0.5");
  CHECK(bytes_time(s) == Approx(bytes / (8 * s.hw.nic_gbps * 1e9 * 0.5)));
  // Two NICs for the node's eight GPUs: the worker sends through two.
  edit(s, "pd_nics", "2");
  CHECK(bytes_time(s) == Approx(bytes / (2 * s.hw.nic_gbps * 1e9 * 0.5)));
  // NVLink when both pools sit in one domain is far faster than the NICs.
  Scenario nv = s;
  edit(nv, "pd_link", "nvlink");
  CHECK(bytes_time(nv) < bytes_time(s) / 10);
}

TEST_CASE("hand-off: the first token waits for the fixed cost and what a push during the prefill leaves") {
  Scenario s = llama70b("trtllm", "8", "8");
  edit(s, "pd_link", "nic");
  edit(s, "pd_overlap", "off");
  edit(s, "pd_fixed_us", "2000");
  const Values off = values(s);
  CHECK(off[F::PdTransferTime] == Approx(2e-3 + off[F::PdWireTime]));
  // Layer by layer: each layer's KV leaves as the prefill finishes it; only the last layer's (or what the
  // link still owes) is left when the prefill ends.
  edit(s, "pd_overlap", "layer");
  const Values layer = values(s);
  CHECK(layer[F::PdWireTime] == Approx(off[F::PdWireTime]));
  CHECK(layer[F::PdTransferTime] < off[F::PdTransferTime]);
  CHECK(layer[F::PdTransferTime] >= 2e-3 + off[F::PdWireTime] / 80 - 1e-12);
  // A link slower than the prefill keeps the first token waiting for the rest: a slow NIC shows through.
  edit(s, "rdma_eff", "0.01");
  const Values slow = values(s);
  CHECK(slow[F::PdTransferTime] == Approx(2e-3 + slow[F::PdWireTime] - slow[F::PrefillTime] * 79.0 / 80.0));
}

TEST_CASE("hand-off: a prefill TP that cannot shard the model is refused, naming pd_tp") {
  Scenario s = preset("llama31-70b-8xh100");
  set(s, "pd_tp", "3");
  const Errors e = validate(s);
  CHECK(has_error(e, "pd_tp"));
}
