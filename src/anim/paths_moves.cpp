// The paths of KV moving between nodes and tiers: the prefill→decode hand-off over the NICs (pd.*) and a prefix
// hit's reload from SSD through host DRAM into HBM beside the prefill of the rest (prefix.*, offload.*). Every
// duration is a figure or a stated share of one; the shares come from the same rules the figures use
// (roofline/handoff.h, roofline/offload.h), so the ledger and the figures cannot disagree.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "base/text.h"
#include "roofline/handoff.h"
#include "roofline/offload.h"

namespace tierscope::anim::detail {

using model::FigureId;

// [SECTION] pd-handoff ---------------------------------------------------------------------------------
namespace {

// What crosses, in words: the copies tensor parallelism sends, or an MLA latent sent once to each rank.
std::string copies_words(const Builder& b, const model::HandoffModel& hm) {
  if (b.m.attn != model::AttnKind::MHA)
    return "The latent is kept whole on every decode rank, so it is sent once to each of the " + N(hm.decode_tp()) + " decode ranks, from one prefill rank";
  if (hm.copies() > 1)
    return "TP " + N(hm.prefill_tp()) + " (prefill) and " + N(hm.decode_tp()) + " (decode) over " + N(b.m.kv_heads) +
           " KV heads keep each head on several GPUs, and each copy is sent: " + N(hm.copies()) + " copies";
  return "Each KV head lives on one GPU of each side, so it is sent once";
}

}  // namespace

void build_handoff(Builder& b) {
  b.base_residency(1, 0);
  const double P = b.s.work.prompt;
  if (P <= 0) {
    b.out.note = "The prompt is empty (prompt = 0): there is no KV to hand to the decode node.";
    return;
  }
  const model::Terms& t = b.t;
  // The figures' own rule at the scenario's prompt and prefill (roofline/topic_handoff.cpp computes pd.* so).
  const model::HandoffModel hm(b.s);
  const model::HandoffCost h = hm.cost(P, b.val(FigureId::PrefillTime), t.prefill_chunks);
  const double kv_gpu = P * b.val(FigureId::KvGlobalPerToken) * t.kv_share;
  const double wire = b.val(FigureId::PdWireTime), exposed = b.val(FigureId::PdTransferTime);
  const double tail = std::max(0.0, exposed - hm.fixed_seconds());  // what the link owes after the prefill
  const double hidden = std::max(0.0, wire - tail);                   // what the push sent during it
  const double desc_s = h.descriptors * h.desc_s;
  const double desc_frac = wire > 0 ? desc_s / wire : 0.0;
  const bool nic = !hm.nvlink();
  const Endpoint out_of = nic ? Endpoint::Nic : Endpoint::Hbm;  // where the wire starts: the NIC, or NVLink from HBM
  const std::string via = nic ? "over the NICs (RDMA)" : "over NVLink (both pools in one NVLink domain, no NIC crossed)";
  const double eff = b.s.pd.rdma_eff > 0 ? b.s.pd.rdma_eff : model::default_rdma_eff();
  const std::string rate = nic ? N(h.links) + " × " + model::human(h.link_bw, "B/s") + " (" + N(b.s.hw.nic_gbps) + " GB/s per NIC × " +
                                     model::num_sig(eff, 3) + " RDMA efficiency)"
                               : N(h.links) + " × " + model::human(h.link_bw, "B/s") + " (NVLink, achieved)";
  {
    LedgerEntry& e = b.add_timed("prefill", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefillTime);
    e.flop = b.val(FigureId::PrefillFlop);
    b.cite(e, FigureId::PrefillTime, b.fig(FigureId::PrefillTime).formula());
    e.highlight.layers = b.all_layers();
    e.highlight.add(Endpoint::Hbm);
    e.changes[0] = {ObjectKind::GlobalKv, kv_gpu, P};
    e.sentence = "The prefill node runs the " + N(P) + "-token prompt and writes its KV to its own HBM, " + B(kv_gpu) + " per GPU" +
                 (h.parts > 1 ? std::string("; ") + hm.engine_name() + " sends it in " + N(h.parts) +
                                    (hm.overlap() == model::PdOverlap::Layer ? " layers" : " chunks") + ", each as soon as it is done."
                              : "; " + std::string(hm.engine_name()) + " sends it only once the prefill is done.");
  }
  if (h.parts > 1 && hidden > 0 && wire > 0) {
    const double share = hidden / wire;
    LedgerEntry& e = b.add_timed("push-during-prefill", Endpoint::Hbm, Endpoint::PeerHbm, ObjectKind::GlobalKv, FigureId::PdWireTime, share);
    e.bytes = b.val(FigureId::PdKvBytes) * share;
    e.overlapped = true;
    if (nic) e.highlight.add(Endpoint::Nic);
    b.cite(e, FigureId::PdWireTime, b.share_text(FigureId::PdWireTime, share) + " sent while the prefill runs: the transfer less what " +
                                        S(tail) + " still owes after it (" + model::figure_info(FigureId::PdTransferTime).id + "); " +
                                        b.fig(FigureId::PdWireTime).formula());
    e.sentence = "While the prefill runs, the parts already done cross " + via + ": " + B(e.bytes) + " in " + S(e.duration) +
                 ", hidden behind the prefill's own time.";
  }
  if (exposed > 0) {
    const double share = hm.fixed_seconds() / exposed;
    LedgerEntry& e = b.add_timed("transfer-setup", Endpoint::Hbm, out_of, ObjectKind::GlobalKv, FigureId::PdTransferTime, share);
    b.cite(e, FigureId::PdTransferTime, b.share_text(FigureId::PdTransferTime, share) + ": " + S(hm.fixed_seconds()) +
                                            " fixed per transfer (" + hm.engine_name() + "); " + b.fig(FigureId::PdTransferTime).formula());
    e.sentence = "Each request's hand-off pays a fixed cost before its bytes move — set-up, metadata and the completion notice of " +
                 std::string(hm.engine_name()) + ": " + S(hm.fixed_seconds()) + ", whatever the prompt's length.";
  }
  if (exposed > 0 && tail > 0) {
    if (desc_s > 0) {
      const double share = tail * desc_frac / exposed;
      LedgerEntry& e = b.add_timed("post-descriptors", Endpoint::Hbm, out_of, ObjectKind::GlobalKv, FigureId::PdTransferTime, share);
      b.cite(e, FigureId::PdPages, b.share_text(FigureId::PdTransferTime, share) + ": the descriptors' part of what the link owes after the prefill, " +
                                       N(h.descriptors) + " descriptors × " + S(h.desc_s) + " = " + S(desc_s) + " of the " + S(wire) +
                                       " transfer; pages " + b.fig(FigureId::PdPages).formula());
      e.sentence = "Page by page: " + N(h.pages) + " pages of " + N(hm.page()) + " tokens through " + N(hm.kv_layers()) +
                   " layers make " + N(h.descriptors) + " descriptors on each sending rank, " + S(h.desc_s) + " each.";
    }
    const double share = tail * (1 - desc_frac) / exposed;
    LedgerEntry& e = b.add_timed("send-pages", out_of, Endpoint::PeerHbm, ObjectKind::GlobalKv, FigureId::PdTransferTime, share);
    e.bytes = b.val(FigureId::PdKvBytes) * (wire > 0 ? tail / wire : 1.0);
    if (nic) e.highlight.add(Endpoint::Hbm);
    b.cite(e, FigureId::PdKvBytes, b.share_text(FigureId::PdTransferTime, share) + ": the bytes' part of what the link owes after the prefill, " +
                                       B(e.bytes) + " of " + paren(b.fig(FigureId::PdKvBytes).formula()) + " ÷ " + rate + "; " +
                                       b.fig(FigureId::PdWireTime).formula());
    e.sentence = "The pages cross " + via + " into the decode node's HBM: " + B(e.bytes) + " at " + rate + ". " +
                 copies_words(b, hm) + ".";
  }
  {
    LedgerEntry& e = b.add("free-prefill", Endpoint::Hbm, Endpoint::Hbm, ObjectKind::GlobalKv, 0);
    e.formula = "nothing moves: the prefill node releases " + B(kv_gpu) + " per GPU once the decode node holds the " + B(b.val(FigureId::PdKvBytes)) +
                " it was sent";
    e.changes[0] = {ObjectKind::GlobalKv, -kv_gpu, -P};
    e.highlight.add(Endpoint::PeerHbm);
    e.sentence = "The decode node now holds the prompt's KV and starts decoding; the prefill node frees its pages for the next prompt. The "
                 "first token waited " + S(exposed) + " for the hand-off after the prefill.";
  }
}

// [SECTION] offload-reload ------------------------------------------------------------------------------
namespace {

// "an SSD reload helps below 3,100 hit tokens of this prompt and hurts above", from the flip figure.
std::string flip_sentence(double tokens, bool short_helps) {
  if (tokens <= 0) return std::string("at every hit length of this prompt a reload from SSD ") + (short_helps ? "helps" : "hurts");
  return std::string("a reload from SSD ") + (short_helps ? "helps" : "hurts") + " below " + N(tokens) + " hit tokens of this prompt and " +
         (short_helps ? "hurts" : "helps") + " above";
}

}  // namespace

void build_offload_reload(Builder& b) {
  b.base_residency(1, 0);
  const double hit = std::min(b.s.work.prefix_hit, b.s.work.prompt);
  if (hit <= 0) {
    b.out.note = "The scenario has no prefix hit (prefix_hit = 0): nothing to reload, the whole prompt is prefilled.";
    return;
  }
  const model::Terms& t = b.t;
  const model::ReloadPath& p = t.reload;
  const model::ReloadHops& h = t.prefix_hops;
  // The SSD arm of the offload figures: the hit staged in DRAM, then uploaded; the rest (and the window's
  // replay) prefilled beside the upload where the store loads layer by layer (roofline/offload.h).
  const double up = b.val(FigureId::PrefixUploadTime);
  const double rest = b.val(FigureId::PrefixRestTime) + b.val(FigureId::PrefixReplayTime);
  const model::HitService svc = model::hit_service(p, h, model::PrefixTier::Ssd, rest);
  const double ttft = b.val(FigureId::OffloadTtftSsd);
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  b.out.start[static_cast<int>(ObjectKind::PrefixCache)] = {Endpoint::Ssd, b.val(FigureId::PrefixHitBytes), hit, 0};
  const double waits = std::max(0.0, ttft - svc.latency);
  if (waits > 0) {
    LedgerEntry& e = b.add("queue", Endpoint::Tokens, Endpoint::Tokens, ObjectKind::Tokens, waits);
    e.phase = "ssd";
    b.cite(e, FigureId::OffloadTtftSsd, S(waits) + " = " + S(ttft) + " − " + S(svc.latency) + " (the request's own time): the queues at the GPU and the load path; " +
                                            b.fig(FigureId::OffloadTtftSsd).formula());
    e.sentence = "At load " + model::num_sig(t.prefix_load, 3) + " the request first waits " + S(waits) + " in the queues of the prefill GPU and the load path.";
  }
  {
    LedgerEntry& e = b.add_timed("stage-ssd-dram", Endpoint::Ssd, Endpoint::Dram, ObjectKind::PrefixCache, FigureId::PrefixSsdReadTime);
    e.phase = "ssd";
    e.bytes = b.val(FigureId::OffloadHitBytes);
    b.cite(e, FigureId::PrefixSsdReadTime, "read " + b.fig(FigureId::OffloadHitBytes).formula() + "; " + b.fig(FigureId::PrefixSsdReadTime).formula());
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The store reads the " + N(hit) + "-token hit from SSD into host DRAM, " + N(h.objects) + " objects of " + N(p.object_tokens) + " tokens, " +
                 B(e.bytes) + " read" + (p.read_amp > 1 ? " (read amplification included)" : "") + ", before it can go up.";
  }
  const std::string per_layer = p.layerwise ? S(up / p.layers) + " per layer over " + N(p.layers) + " layers" : std::string();
  {
    LedgerEntry& e = b.add_timed("upload", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, FigureId::PrefixUploadTime);
    e.phase = "ssd";
    e.bytes = h.gpu_bytes;
    e.overlapped = p.layerwise && up <= rest;
    b.cite(e, FigureId::PrefixUploadTime, b.fig(FigureId::PrefixUploadTime).formula() + (p.layerwise ? "; " + per_layer : std::string()));
    e.highlight.add(ObjectKind::PrefixCache);
    if (p.layerwise) e.highlight.layers = b.all_layers();  // each layer's part in turn
    e.changes[0] = {ObjectKind::GlobalKv, hit * b_tok * t.kv_share, hit};
    e.sentence = p.layerwise ? "From host DRAM the hit climbs into HBM layer by layer, " + per_layer + ", while the prefill of the rest runs: " +
                                   (e.overlapped ? "the upload is the shorter, hidden behind the prefill." : "the upload is the longer, and the prefill waits on it.")
                             : "From host DRAM the hit goes up into HBM in one piece before the rest is prefilled" +
                                   std::string(p.stalls_step ? ", holding the batch's step while it loads." : ".");
  }
  {
    const bool replay = b.val(FigureId::PrefixReplayTime) > 0;
    LedgerEntry& e = replay ? b.add("prefill-rest", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, rest)
                            : b.add_timed("prefill-rest", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefixRestTime);
    e.phase = "ssd";
    e.flop = (replay ? t.rest_replay : t.rest).flop_all();
    e.overlapped = p.layerwise && rest < up;
    b.cite(e, FigureId::PrefixRestTime,
           replay ? S(rest) + " = prefill after the hit " + paren(b.fig(FigureId::PrefixRestTime).formula()) + " + window replay " +
                        paren(b.fig(FigureId::PrefixReplayTime).formula())
                  : b.fig(FigureId::PrefixRestTime).formula());
    e.highlight.layers = b.all_layers();
    e.changes[0] = {ObjectKind::GlobalKv, (b.s.work.prompt - hit) * b_tok * t.kv_share, b.s.work.prompt - hit};
    e.sentence = "The " + N(std::max(1.0, b.s.work.prompt - hit)) + " new tokens are prefilled" + (replay ? ", with the window's replay," : "") +
                 (p.layerwise ? " each layer as soon as its part of the hit has arrived." : " over the hit now in HBM.");
  }
  if (p.layerwise) {
    const double fill = std::min(up, rest) / p.layers;
    LedgerEntry& e = b.add("pipeline-fill", Endpoint::Dram, Endpoint::Hbm, ObjectKind::GlobalKv, fill);
    e.phase = "ssd";
    b.cite(e, FigureId::PrefixUploadTime, S(fill) + " = min(upload " + S(up) + ", prefill " + S(rest) + ") / " + N(p.layers) +
                                              " layers: one layer of the shorter cannot overlap the longer");
    e.sentence = "Layer by layer, one layer of the shorter of the two runs outside the overlap: " + S(fill) + ".";
  }
  {
    // The other arm: no offload tier, the whole prompt recomputed; and where offload flips from helping to hurting.
    LedgerEntry& e = b.add_timed("recompute", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::OffloadTtftOff);
    e.phase = "recompute";
    e.flop = t.prefill.flop_all();
    const double change = b.val(FigureId::OffloadChangeSsd);
    b.cite(e, FigureId::OffloadTtftOff, b.fig(FigureId::OffloadTtftOff).formula() + "; with the SSD hit: " + b.fig(FigureId::OffloadChangeSsd).formula() +
                                            "; the flip: " + b.fig(FigureId::OffloadFlipHitSsd).formula());
    e.highlight.layers = b.all_layers();
    e.sentence = "Without the offload tier the whole prompt is recomputed: " + S(e.duration) + " to the first token against " + S(ttft) +
                 " with the SSD reload, " + model::num_sig(std::fabs(change) * 100, 3) + " % " + (change <= 0 ? "faster with offload" : "slower with offload") +
                 ". The flip: " + flip_sentence(b.val(FigureId::OffloadFlipHitSsd), t.flip_short_helps[1]) + ".";
  }
}

}  // namespace tierscope::anim::detail
