// The prefill path: the prompt's passes and what they leave in each tier, each entry lasting a model figure
// (or a stated share). One decode step's path: paths_decode.cpp.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "base/text.h"
#include "roofline/timing.h"

namespace tierscope::anim::detail {

using model::FigureId;
using model::LayerMode;
using model::LayerRead;

namespace {

// The layers a decoder-only model runs every prompt token through, in its own terms: every layer, or all
// but the last few, which the next entry runs on the prompt's end only ("93 of the 94 layers" read as if a
// layer were missing).
std::string decoder_only_span(const Builder& b, const LayerSet& full, int split) {
  const int rest = b.m.layer_count - split;
  if (rest <= 0) return "all " + N(b.m.layer_count) + " layers";
  return "layers " + b.layer_list(full) + ", all but the last " + (rest == 1 ? std::string("one") : N(rest)) +
         " (which run" + (rest == 1 ? "s" : "") + " on the prompt's end only, next)";
}

// What the prompt leaves in the layers that keep no global KV: the chunk in progress in each chunked layer,
// and the recurrent state the linear layers fold the whole prompt into. Both are written inside the passes.
void prefill_local_state(Builder& b, double P) {
  const model::Terms& t = b.t;
  const std::string per_gpu = t.gpus > 1 ? " on each GPU of the replica" : "";
  if (t.chunk_layers > 0) {
    const double bytes = b.chunk_bytes(P) * t.kv_share;
    LedgerEntry& e = b.add("chunk-fill", b.prefill_side(), Endpoint::Hbm, ObjectKind::ChunkKv, model::hbm_transfer_time(t, bytes));
    e.bytes = bytes;
    e.overlapped = true;
    b.cite(e, FigureId::KvChunkPerSession, B(bytes) + " = " + N(t.chunk_layers) + " chunked layers × min(chunk, " + N(P) + " tokens) × " + N(b.z.swa) +
                                               " B" + per_gpu + "; " + S(e.duration) + " = " + B(bytes) + " / HBM, inside the passes");
    for (int i = 0; i < b.m.layer_count; ++i)
      if (b.m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) e.highlight.layers.add(i);
    e.changes[0] = {ObjectKind::ChunkKv, bytes, b.chunk_tokens(P)};
    e.sentence = "The " + N(t.chunk_layers) + " chunked layers keep only the tokens of the chunk in progress, " + N(b.chunk_tokens(P)) +
                 " of them: " + B(bytes) + ", however long the prompt.";
  }
  if (t.linear_layers > 0) {
    const double bytes = b.state_on_gpu();
    LedgerEntry& e = b.add("state-fill", b.prefill_side(), Endpoint::Hbm, ObjectKind::RecurrentState, model::hbm_transfer_time(t, bytes));
    e.bytes = bytes;
    e.overlapped = true;
    b.cite(e, FigureId::KvRecurrentPerSession, B(bytes) + " = " + paren(b.fig(FigureId::KvRecurrentPerSession).formula()) +
                                                   (t.lin_share < 1 ? " × " + N(t.lin_share) + " (this GPU's heads)" : std::string()) + "; " +
                                                   S(e.duration) + " = " + B(bytes) + " / HBM, written once per chunk inside the passes");
    e.highlight.layers = b.linear_layers();
    e.changes[0] = {ObjectKind::RecurrentState, bytes, 0};
    e.sentence = "The " + N(t.linear_layers) + " linear layers fold all " + N(P) + " prompt tokens into a fixed recurrent state per session: " + B(bytes) +
                 ", the same for any prompt length, where attention would keep " + N(P) + " tokens of KV.";
  }
}


// The Engram layers' table rows for the prompt's n-grams, prefetched ahead of the layers that use them.
void prefill_engram(Builder& b, double P) {
  if (b.m.engram_count <= 0) return;
  const double bytes = P * b.val(FigureId::EngramBytesPerToken);
  LedgerEntry& e = b.add_timed("engram-read", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables, FigureId::EngramPromptFetchTime);
  e.bytes = bytes;
  e.overlapped = true;
  e.engram_rows = P * b.m.engram_count * std::max(0, b.m.engram_ngram - 1) * b.m.engram_heads;
  b.cite(e, FigureId::EngramPromptFetchTime, B(bytes) + " = " + N(P) + " prompt tokens × " + paren(b.fig(FigureId::EngramBytesPerToken).formula()) +
                                                 "; " + b.share_text(FigureId::EngramPromptFetchTime, 1) + " = " + b.fig(FigureId::EngramPromptFetchTime).formula());
  for (int i = 0; i < b.m.engram_count; ++i) e.highlight.layers.add(b.m.engram_layers[static_cast<std::size_t>(i)]);
  e.sentence = "Engram layers " + b.layer_list(e.highlight.layers) + " read " + N(e.engram_rows) +
               " table rows for the prompt's n-grams; the addresses follow from the tokens alone, so the reads are prefetched "
               "ahead of the layers that use them.";
}

// The pass over the layers before the last KV source (the causal encoder, or a decoder-only model's layers
// but the last few).
void prefill_encode(Builder& b, double P, int split, const LayerSet& full_layers) {
  const model::Terms& t = b.t;
  LedgerEntry& e = b.add_timed("encode", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, FigureId::PrefillFullTime);
  e.flop = t.prefill.full.flop_all;
  b.cite(e, FigureId::PrefillFullTime, b.fig(FigureId::PrefillFullTime).formula());
  e.highlight.layers = full_layers;
  // The prompt's FLOP (prefill.flop, the walkthrough's number) is this pass and the window's together:
  // the sentence says which part this is, so the two numbers never read as one that disagrees.
  const std::string of_prompt = t.prefill.win.flop_all > 0
                                    ? " over the instance (of the prompt's " + FL(b.val(FigureId::PrefillFlop)) + "; the last window's layers do the rest), "
                                    : " over the instance, ";
  e.sentence = b.ced ? "The " + N(P) + " prompt tokens stream through the " + N(split) + " layers before the last KV source (the causal encoder): " +
                           FL(e.flop) + of_prompt + model::bound_name(t.prefill.full) + "."
                     : "The " + N(P) + " prompt tokens run through " + decoder_only_span(b, full_layers, split) + ": " + FL(e.flop) +
                           of_prompt + model::bound_name(t.prefill.full) + ".";
}

// Global KV, written where it is owned.
void prefill_global_kv(Builder& b, double P) {
  const model::Terms& t = b.t;
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  const std::string per_gpu = t.gpus > 1 ? " on each GPU of the replica" : "";
  // The encoder's caches from their own streams, the decoder's projected from the encoder's final stream.
  const Authoring enc = authoring(b, 0, b.ced ? b.m.enc_layers - 1 : b.m.layer_count - 1);
  const Authoring dec = b.ced ? authoring(b, b.m.enc_layers, b.m.layer_count - 1) : Authoring{};
  if (enc.per_token > 0) {
    const double bytes = P * enc.per_token * t.kv_share;
    LedgerEntry& e = b.add("author-kv", b.prefill_side(), Endpoint::Hbm, ObjectKind::GlobalKv, model::hbm_transfer_time(t, bytes));
    e.bytes = bytes;
    e.overlapped = true;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + N(P) + " tokens × " + N(enc.per_token) + " B (layers " + b.layer_list(enc.layers) + ": Σ 1/ratio = " + N(enc.rows) +
               " rows per token × (row + index key))" + per_gpu + "; written inside the encode pass: " + S(e.duration) + " = " + B(bytes) +
               " / HBM (counted in its roofline)");
    e.highlight.layers = enc.layers;
    if (enc.idx_per_token > 0) e.highlight.add(ObjectKind::IndexerKeys);
    if (dec.per_token <= 0) {
      e.changes[0] = {ObjectKind::GlobalKv, bytes, P};
      if (b.val(FigureId::KvIndexerPerToken) > 0) e.changes[1] = {ObjectKind::IndexerKeys, P * b.val(FigureId::KvIndexerPerToken) * t.kv_share, P};
    }
    int first = 0;
    while (first < b.m.layer_count && !enc.layers.has(first)) ++first;
    e.sentence = (b.ced ? "Layers " + b.layer_list(enc.layers) + " author global KV from their own streams, one row per " + N(b.ratio(first)) +
                              " tokens at layer " + N(first)
                        : "Every KV-owning layer writes its rows for the prompt") +
                 ", stored as " + fmt_label(b.m.kv_fmt) + (b.t.index_owners > 0 ? " with index keys as " + fmt_label(b.m.idx_fmt) : std::string()) + ".";
  }
  if (dec.per_token > 0) {
    const double bytes = P * dec.per_token * t.kv_share;
    LedgerEntry& e = b.add("project-kv", Endpoint::Stream, Endpoint::Hbm, ObjectKind::GlobalKv, model::hbm_transfer_time(t, bytes));
    e.bytes = bytes;
    e.overlapped = true;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + N(P) + " tokens × " + N(dec.per_token) + " B (layer " + b.layer_list(dec.layers) + ")" + per_gpu + "; " + S(e.duration) +
               " = " + B(bytes) + " / HBM, inside the passes");
    e.highlight.layers = dec.layers;
    e.changes[0] = {ObjectKind::GlobalKv, P * b_tok * t.kv_share, P};
    if (b.val(FigureId::KvIndexerPerToken) > 0) e.changes[1] = {ObjectKind::IndexerKeys, P * b.val(FigureId::KvIndexerPerToken) * t.kv_share, P};
    if (dec.idx_per_token > 0) e.highlight.add(ObjectKind::IndexerKeys);
    e.sentence = "Layer " + b.layer_list(dec.layers) + " projects every prompt token's final encoder state H[t] into one decoder KV row and index "
                 "key: a plain per-token projection, run for all " + N(P) + " tokens: " + N(b_tok) + " B/token of global KV in all.";
  }

}

// The last window's layers, run on the prompt's end only, and the SWA ring they fill.
void prefill_window(Builder& b, double P, const LayerSet& win_layers) {
  const model::Terms& t = b.t;
  const std::string per_gpu = t.gpus > 1 ? " on each GPU of the replica" : "";
  {
    const double win = b.m.n_win > 0 ? std::min<double>(b.m.n_win, P) : 1.0;
    LedgerEntry& e = b.add_timed(b.ced ? "decoder-window" : "last-window", b.ced ? Endpoint::Stream : b.prefill_side(), Endpoint::Decoder,
                                 ObjectKind::HiddenStream, FigureId::PrefillWindowTime);
    e.flop = t.prefill.win.flop_all;
    b.cite(e, FigureId::PrefillWindowTime, b.fig(FigureId::PrefillWindowTime).formula());
    e.highlight.layers = win_layers;
    e.sentence = "Layers " + b.layer_list(win_layers) + " own no KV beyond " + (b.m.n_win > 0 ? "their window" : "what the prompt needs") +
                 ", so they run only on the last " + N(win) + (win == 1 ? " token" : " tokens") + " of the prompt" +
                 (b.ced ? ": the decoder is skipped for the rest" : "") + " (" + FL(e.flop) + " over the instance).";
  }

  if (b.m.n_win > 0) {
    const double win = std::min<double>(b.m.n_win, P);
    const double bytes = t.window_layers * win * b.z.swa * t.kv_share;
    LedgerEntry& e = b.add("swa-fill", b.ced ? Endpoint::Decoder : b.prefill_side(), Endpoint::Hbm, ObjectKind::SwaWindow,
                           model::hbm_transfer_time(t, bytes));
    e.bytes = bytes;
    e.overlapped = true;
    b.cite(e, FigureId::KvSwaPerSession, B(bytes) + " = " + N(t.window_layers) + " layers × " + N(win) + " tokens × " + N(b.z.swa) + " B" + per_gpu +
                                             "; " + S(e.duration) + " = " + B(bytes) + " / HBM, inside the passes");
    e.highlight.layers = b.layers_where(has_win);
    e.changes[0] = {ObjectKind::SwaWindow, bytes, win};
    e.sentence = "The SWA ring keeps only the last " + N(win) + " tokens in each of " + N(t.window_layers) + " layers, " +
                 fmt_label(b.m.swa_fmt) + ": " + B(bytes) + " that stays the same size however long the prompt.";
  }

}

// Persist whole storage units of the prompt's global KV: HBM → host DRAM → SSD, off the critical path
// (one copy: every GPU of the replica holds the same rows, so one writes them back). A model with linear
// layers persists its recurrent state's last checkpoint with them: a later hit restores it, not token rows.
void prefill_persist(Builder& b, double P) {
  const model::Terms& t = b.t;
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  const double units = std::floor(P / kPrefixUnitTokens);
  if (units > 0) {
    const double tokens = units * kPrefixUnitTokens;
    const bool window_too = b.m.n_win > 0 && !b.m.bounded_replay;
    const double interval = b.val(FigureId::KvRecurrentCkptInterval);
    const double ckpt = interval > 0 && P >= interval ? b.val(FigureId::KvRecurrentPerSession) : 0.0;
    const double bytes = tokens * b_tok + (window_too ? b.val(FigureId::KvSwaPerSession) : 0.0) + ckpt;
    LedgerEntry& h = b.add("persist-offload", Endpoint::Hbm, Endpoint::Dram, ObjectKind::GlobalKv, model::host_transfer_time(t, bytes));
    h.bytes = bytes;
    h.overlapped = true;
    b.cite(h, FigureId::PrefixHitBytes, B(bytes) + " = " + N(units) + " units × " + N(kPrefixUnitTokens) + " tokens × " + N(b_tok) + " B/token" +
                                            (window_too ? " + the window" : "") + (ckpt > 0 ? " + " + B(ckpt) + " recurrent-state checkpoint" : std::string()) +
                                            "; " + S(h.duration) + " = " + S(t.host_lat) + " DMA latency + " +
                                            B(bytes) + " / " + model::human(t.host_bw, "B/s") + " host link");
    h.sources = std::string(kPrefixUnitSource) + "\n" + h.sources;
    h.highlight.add(ObjectKind::PrefixCache);
    if (ckpt > 0) h.highlight.add(ObjectKind::RecurrentState);
    h.sentence = "The prompt's global KV is copied to host DRAM in " + N(units) + " storage units of " + N(kPrefixUnitTokens) + " tokens" +
                 (b.m.bounded_replay ? "; the SWA window is not persisted, it can always be replayed." : ", with its window.") +
                 (ckpt > 0 ? " The linear layers' recurrent state goes with it as one checkpoint (" + B(ckpt) + ", taken every " + N(interval) +
                                 " tokens): a returning prompt restores that, not token rows."
                           : std::string());
    LedgerEntry& w = b.add("persist-ssd", Endpoint::Dram, Endpoint::Ssd, ObjectKind::PrefixCache, model::ssd_write_time(t, bytes));
    w.bytes = bytes;
    w.overlapped = true;
    b.cite(w, FigureId::PrefixHitBytes, B(bytes) + "; " + S(w.duration) + " = " + N(b.s.hw.lat_ssd_us) + " µs + " + B(bytes) + " / (" +
                                            N(b.s.hw.ssd_count) + " × " + N(b.s.hw.ssd_gbps) + " GB/s × " + N(model::kSsdWriteShare) +
                                            ", drives write at about 0.7 of their read rate)");
    w.changes[0] = {ObjectKind::PrefixCache, bytes - ckpt, tokens};
    if (ckpt > 0) {
      w.changes[1] = {ObjectKind::StateCheckpoints, ckpt, 0};
      w.highlight.add(ObjectKind::StateCheckpoints);
    }
    w.sentence = "The units land in the persistent prefix cache on SSD, kept " + N(b.s.hw.retention_h) +
                 " h by the design card's assumption (DeepSeek documents hours to days, best effort), ready for a turn that starts with the "
                 "same prefix.";
  }
}

}  // namespace

void build_prefill(Builder& b) {
  b.base_residency(1, 0);
  b.out.total_figure = FigureId::PrefillTime;
  const double P = b.s.work.prompt;
  if (P <= 0) {
    b.out.note = "The prompt is empty (prompt = 0): nothing to prefill.";
    return;
  }
  const int split = b.t.last_source >= 0 ? b.t.last_source : b.m.layer_count;
  LayerSet full_layers, win_layers;
  if (split > 0) full_layers.add_range(0, split - 1);
  win_layers.add_range(split, b.m.layer_count - 1);
  prefill_engram(b, P);
  prefill_encode(b, P, split, full_layers);
  prefill_global_kv(b, P);
  prefill_window(b, P, win_layers);
  prefill_local_state(b, P);
  prefill_persist(b, P);
  if (b.m.engram_count == 0) b.out.note = "This model has no Engram layers, so prefill reads no table rows.";
}

}  // namespace tierscope::anim::detail
