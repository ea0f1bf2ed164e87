// The per-token paths: prefill, decode, the Engram close-up and the CSA2 layer modes.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "model/text.h"

namespace tierscope::anim::detail {

using model::FigureId;
using model::LayerMode;

namespace {

bool is_full_pool(const LayerRead& r) { return r.fullpool > 0; }
bool is_pool(const LayerRead& r) { return r.pool_scorer; }
bool is_owner(const LayerRead& r) { return r.mode == LayerMode::Full || r.mode == LayerMode::Dense; }
bool reads_dense(const LayerRead& r) { return r.dense > 0; }
bool has_win(const LayerRead& r) { return r.window > 0; }
bool selects(const LayerRead& r) { return r.mode == LayerMode::Full || r.mode == LayerMode::Reindex; }

std::string sessions_x(double batch) { return N(batch) + (batch == 1 ? " session × " : " sessions × "); }

// "Σ over layers 2, 8, 14 of 1/ratio × (288 + 68) B" for the owners in [first, last].
struct Authoring {
  double per_token = 0;  // stored bytes per token, main + index keys
  double rows = 0;       // Σ 1/ratio
  LayerSet layers;
};

Authoring authoring(const Builder& b, int first, int last) {
  Authoring a;
  const double main = b.val(FigureId::KvMainEntry), idx = b.val(FigureId::KvIndexEntry);
  for (int i = first; i <= last && i < b.m.layer_count; ++i) {
    const LayerMode mode = b.m.layers[static_cast<std::size_t>(i)].mode;
    if (mode != LayerMode::Full && mode != LayerMode::Dense) continue;
    const double inv = 1.0 / b.ratio(i);
    a.rows += inv;
    a.per_token += inv * (main + (mode == LayerMode::Full ? idx : 0.0));
    a.layers.add(i);
  }
  return a;
}

}  // namespace

// [SECTION] prefill ----------------------------------------------------------------------------------
void build_prefill(Builder& b) {
  b.base_residency(1, 0);
  const double P = b.prompt;
  if (P <= 0) {
    b.out.note = "The prompt is empty (prompt = 0): nothing to prefill.";
    return;
  }
  const double b_tok = b.val(FigureId::KvGlobalPerToken);
  const int prefill_layers = static_cast<int>(b.t.prefill_layers);
  LayerSet encoder;
  encoder.add_range(0, prefill_layers - 1);

  if (b.m.engram_count > 0) {
    const double per_tok = b.val(FigureId::EngramBytesPerToken);
    const double bytes = P * per_tok;
    LedgerEntry& e = b.add("engram-read", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables, b.engram_time(bytes));
    e.bytes = bytes;
    e.overlapped = true;
    e.engram_rows = P * b.m.engram_count * std::max(0, b.m.engram_ngram - 1) * b.m.engram_heads;
    b.cite(e, FigureId::EngramBytesPerToken,
           B(bytes) + " = " + N(P) + " prompt tokens × " + paren(b.fig(FigureId::EngramBytesPerToken).formula) + "; " +
               b.engram_time_formula(bytes));
    for (int i = 0; i < b.m.engram_count; ++i) e.highlight.layers.add(b.m.engram_layers[static_cast<std::size_t>(i)]);
    e.sentence = "Engram layers " + b.layer_list(e.highlight.layers) + " read " + N(e.engram_rows) +
                 " table rows for the prompt's n-grams; the addresses are known from the tokens alone, so the reads are "
                 "prefetched ahead of the layers that use them.";
  }

  {
    LedgerEntry& e = b.add("encode", Endpoint::Tokens, b.prefill_side(), ObjectKind::HiddenStream, b.val(FigureId::PrefillTime));
    e.flop = b.val(FigureId::PrefillFlop);
    b.cite(e, FigureId::PrefillTime, b.fig(FigureId::PrefillFlop).formula + "; " + b.fig(FigureId::PrefillTime).formula);
    e.highlight.layers = encoder;
    e.sentence = b.ced ? "The " + N(P) + " prompt tokens stream through the " + N(prefill_layers) +
                             " causal encoder layers: " + FL(e.flop) + " of compute, the bulk of prefill."
                       : "The " + N(P) + " prompt tokens run through all " + N(prefill_layers) + " layers: " + FL(e.flop) +
                             " of compute.";
  }

  // Global KV authored by the prefill-side owners (the encoder's ratio-2 caches in V4.1).
  const Authoring enc = authoring(b, 0, b.ced ? b.m.enc_layers - 1 : b.m.layer_count - 1);
  if (enc.per_token > 0) {
    const double bytes = P * enc.per_token;
    LedgerEntry& e = b.add("author-kv", b.prefill_side(), Endpoint::Sram, ObjectKind::WorkingSet, b.lat_sram);
    e.bytes = bytes;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + N(P) + " tokens × " + N(enc.per_token) + " B (layers " + b.layer_list(enc.layers) +
               ": Σ 1/ratio = " + N(enc.rows) + " rows per token × stored row + index key); " + b.kernel_formula());
    e.highlight.layers = enc.layers;
    e.highlight.add(ObjectKind::GlobalKv);
    int first = 0;
    while (first < b.m.layer_count && !enc.layers.has(first)) ++first;
    e.sentence = b.ced ? "Layers " + b.layer_list(enc.layers) + " author global KV from their own streams, one row per " +
                             N(b.ratio(first)) + " tokens at layer " + N(first) +
                             ", built in the kernel's working set (bytes counted at their stored size)."
                       : "Every KV-owning layer (" + b.layer_list(enc.layers) + ") builds its rows for the prompt in the "
                         "kernel's working set (bytes counted at their stored size).";
  }

  // The decoder's global KV, projected per token from the encoder's final stream H[t].
  const Authoring dec = b.ced ? authoring(b, b.m.enc_layers, b.m.layer_count - 1) : Authoring{};
  if (dec.per_token > 0) {
    const double bytes = P * dec.per_token;
    LedgerEntry& e = b.add("project-kv", Endpoint::Stream, Endpoint::Sram, ObjectKind::WorkingSet, b.lat_sram);
    e.bytes = bytes;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + N(P) + " tokens × " + N(dec.per_token) + " B (layer " + b.layer_list(dec.layers) +
               ", ratio " + N(b.ratio(model::kv_source_of(b.m, b.m.layer_count - 1))) + "); " + b.kernel_formula());
    e.highlight.layers = dec.layers;
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "Layer " + b.layer_list(dec.layers) + " projects every prompt token's final encoder state H[t] into one "
                 "decoder KV row and index key: a plain per-token projection, run for all " + N(P) + " tokens.";
  }

  {
    const double bytes = P * b_tok;
    LedgerEntry& e = b.add("quantise-store", Endpoint::Sram, Endpoint::Hbm, ObjectKind::GlobalKv, bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + N(P) + " tokens × " + paren(b.fig(FigureId::KvGlobalPerToken).formula) + "; main row " +
               b.fig(FigureId::KvMainEntry).formula + "; index key " + b.fig(FigureId::KvIndexEntry).formula + "; " +
               S(e.duration) + " = " + B(bytes) + " / " + model::human(b.bw_total, "B/s"));
    e.highlight.layers = enc.layers;
    for (int i = 0; i < model::kMaxLayers; ++i) {
      if (dec.layers.has(i)) e.highlight.layers.add(i);
    }
    e.changes[0] = {ObjectKind::GlobalKv, bytes, P};
    e.sentence = std::string("Rows are stored as ") + model::format_info(b.m.kv_fmt).label + " and index keys as " +
                 model::format_info(b.m.idx_fmt).label + ": " + N(b_tok) + " B per token, " + B(bytes) +
                 " of global KV for the prompt in HBM.";
    if (b.t.index_owners == 0) {
      e.sentence = std::string("Rows are stored as ") + model::format_info(b.m.kv_fmt).label + ": " + N(b_tok) +
                   " B per token, " + B(bytes) + " of KV for the prompt in HBM.";
    }
  }

  const double win = std::min<double>(b.m.n_win, P);
  if (b.ced && b.m.n_win > 0) {
    // Decoder layers after the last KV source own only window KV: they run on the last window only.
    int last_src = -1;
    for (int i = 0; i < b.m.layer_count; ++i) {
      if (model::owns_kv(b.m.layers[static_cast<std::size_t>(i)].mode)) last_src = i;
    }
    const double share = b.t.layers > 0 ? (b.t.layers - b.t.prefill_layers) / b.t.layers : 0.0;
    const double params = share * (b.t.p_routed_active + b.t.p_shared + b.t.p_attn + b.t.p_router + b.t.p_dense_ffn);
    const double flop = 2.0 * params * win;
    LedgerEntry& e = b.add("decoder-replay", Endpoint::Stream, Endpoint::Decoder, ObjectKind::HiddenStream, flop / b.pflops);
    e.flop = flop;
    b.cite(e, FigureId::ReplayFlop,
           FL(flop) + " = 2 × " + model::human(params, "params") + " decoder-side active (" + N(b.t.layers - b.t.prefill_layers) +
               "/" + N(b.t.layers) + " of the per-layer total) × " + N(win) + " window tokens; " + S(e.duration) + " = " +
               FL(flop) + " / " + model::human(b.pflops, "FLOP") + "/s");
    e.highlight.layers.add_range(std::max(last_src + 1, b.m.enc_layers), b.m.layer_count - 1);
    e.sentence = "The decoder is skipped for the prompt except its last " + N(win) + " tokens: layers " +
                 b.layer_list(e.highlight.layers) + " own only window KV, so they run on that window alone.";
  }

  if (b.m.n_win > 0) {
    const double bytes = b.t.window_layers * win * b.val(FigureId::KvSwaEntry);
    LedgerEntry& e = b.add("swa-fill", b.ced ? Endpoint::Decoder : b.prefill_side(), Endpoint::Hbm, ObjectKind::SwaWindow,
                           bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, FigureId::KvSwaPerSession,
           B(bytes) + " = " + N(b.t.window_layers) + " layers × " + N(win) + " tokens × " + N(b.val(FigureId::KvSwaEntry)) +
               " B; " + S(e.duration) + " = " + B(bytes) + " / " + model::human(b.bw_total, "B/s"));
    e.highlight.layers = b.layers_where(has_win);
    if (!b.m.swa_all) e.highlight.layers = b.layers_where([](const LayerRead& r) { return r.mode == LayerMode::SwaOnly; });
    e.changes[0] = {ObjectKind::SwaWindow, bytes, win};
    e.sentence = "The SWA ring keeps only the last " + N(win) + " tokens in each of " + N(b.t.window_layers) +
                 " layers, " + std::string(model::format_info(b.m.swa_fmt).label) + ": " + B(bytes) +
                 " that stays the same size however long the prompt.";
  }

  // Persist whole storage units of the prompt's global KV: HBM → host DRAM → SSD, off the critical path.
  const double units = std::floor(P / kPrefixUnitTokens);
  if (units > 0) {
    const double tokens = units * kPrefixUnitTokens;
    const double bytes = tokens * b_tok;
    LedgerEntry& h = b.add("persist-offload", Endpoint::Hbm, Endpoint::Dram, ObjectKind::GlobalKv, b.host_lat + bytes / b.host_bw);
    h.bytes = bytes;
    h.overlapped = true;
    b.cite(h, FigureId::PrefixHitBytes,
           B(bytes) + " = " + N(units) + " units × " + N(kPrefixUnitTokens) + " tokens × " + N(b_tok) + " B; " + S(h.duration) +
               " = " + S(b.host_lat) + " DMA latency + " + B(bytes) + " / " + model::human(b.host_bw, "B/s"));
    h.sources = kPrefixUnitSource;
    h.highlight.add(ObjectKind::PrefixCache);
    h.sentence = "The prompt's global KV is copied to host DRAM in " + N(units) + " storage units of " +
                 N(kPrefixUnitTokens) + " tokens; the SWA window is not persisted, it can always be replayed.";
    LedgerEntry& w = b.add("persist-ssd", Endpoint::Dram, Endpoint::Ssd, ObjectKind::PrefixCache, b.lat_ssd + bytes / b.ssd_bw);
    w.bytes = bytes;
    w.overlapped = true;
    b.cite(w, FigureId::PrefixHitBytes,
           B(bytes) + " = " + N(tokens) + " tokens × " + N(b_tok) + " B; " + S(w.duration) + " = " + N(b.s.hw.lat_ssd_us) +
               " µs + " + B(bytes) + " / (" + N(b.s.hw.ssd_count) + " × " + N(b.s.hw.ssd_gbps) +
               " GB/s), writes taken at the read rate");
    w.changes[0] = {ObjectKind::PrefixCache, bytes, tokens};
    w.sentence = "The units land in the persistent prefix cache on SSD, kept for about " + N(b.s.hw.retention_h) +
                 " h (best effort), ready for the next turn that starts with the same prefix.";
  }
  if (b.m.engram_count == 0) b.out.note = "This model has no Engram layers, so prefill reads no table rows.";
}

// [SECTION] decode ------------------------------------------------------------------------------------
void build_decode(Builder& b) {
  const double Bt = b.batch;
  b.base_residency(Bt, b.ctx);
  const std::string per = sessions_x(Bt);
  const std::string bw = model::human(b.bw_total, "B/s");
  auto hbm_read = [&](std::string_view step, ObjectKind obj, double bytes, FigureId fid, const std::string& what) -> LedgerEntry& {
    LedgerEntry& e = b.add(step, Endpoint::Hbm, Endpoint::Sram, obj, bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, fid, B(bytes) + " = " + per + what + "; " + S(e.duration) + " = " + B(bytes) + " / " + bw);
    return e;
  };

  if (b.m.engram_count > 0) {
    const double bytes = Bt * b.val(FigureId::EngramBytesPerToken);
    LedgerEntry& e = b.add("engram-prefetch", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables, b.engram_time(bytes));
    e.bytes = bytes;
    e.overlapped = true;
    e.engram_rows = Bt * b.m.engram_count * std::max(0, b.m.engram_ngram - 1) * b.m.engram_heads;
    b.cite(e, FigureId::EngramBytesPerToken,
           B(bytes) + " = " + per + paren(b.fig(FigureId::EngramBytesPerToken).formula) + "; " + b.engram_time_formula(bytes) +
               "; stall " + b.fig(FigureId::EngramStall).formula);
    for (int i = 0; i < b.m.engram_count; ++i) e.highlight.layers.add(b.m.engram_layers[static_cast<std::size_t>(i)]);
    e.sentence = "Engram rows for the new token's n-grams are fetched from " + std::string(endpoint_label(b.engram_home())) +
                 " (" + N(e.engram_rows) + " rows); the fetch hides behind the layers before layer " +
                 N(b.m.engram_layers[0]) + ", stalling " + S(b.val(FigureId::EngramStall)) + ".";
  }

  {
    const double bytes = b.val(FigureId::DecodeWeightBytes);
    LedgerEntry& e = b.add("weights", Endpoint::Hbm, Endpoint::Sram, ObjectKind::MoeWeights, b.lat_hbm + bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, FigureId::DecodeWeightBytes,
           b.fig(FigureId::DecodeWeightBytes).formula + "; " + S(e.duration) + " = " + N(b.s.hw.lat_hbm_us) +
               " µs HBM latency + " + B(bytes) + " / " + bw);
    e.highlight.layers = b.all_layers();
    const std::string which = b.m.experts > 0
                                  ? "The weights of the " + N(b.val(FigureId::DecodeDistinctExperts)) +
                                        " experts picked per layer, plus the shared and attention weights,"
                                  : std::string("Every layer's weights (a dense model reads all of them for each token)");
    e.sentence = which + " stream from HBM: " + B(bytes) + ", " +
                 model::human(b.val(FigureId::DecodeWeightShare), "fraction") + " of the step's bytes.";
  }

  const LayerSet fullpool = b.layers_where(is_full_pool);
  if (b.val(FigureId::IndexFullpoolBytes) > 0) {
    LedgerEntry& e = hbm_read("fullpool-index", ObjectKind::SparseIndex, Bt * b.val(FigureId::IndexFullpoolBytes),
                              FigureId::IndexFullpoolBytes, paren(b.fig(FigureId::IndexFullpoolBytes).formula));
    e.highlight.layers = fullpool;
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The full-pool indexers (layers " + b.layer_list(fullpool) + ") score every stored position: " +
                 N(b.t.fullpool_rows_idx) + " index keys, a read that grows with the context.";
  }
  if (b.val(FigureId::IndexCandidateBytes) > 0) {
    LedgerEntry& e = hbm_read("candidate-pool", ObjectKind::SparseIndex, Bt * b.val(FigureId::IndexCandidateBytes),
                              FigureId::IndexCandidateBytes, paren(b.fig(FigureId::IndexCandidateBytes).formula));
    e.highlight.layers = b.layers_where(is_pool);
    e.highlight.layers.add(b.m.cand_src);
    e.sentence = "Layer " + N(b.m.cand_src) + " has picked " + N(b.m.cand_blocks) + " candidate blocks of " +
                 N(b.m.cand_block) + " positions; the later indexers (layers " + b.layer_list(b.layers_where(is_pool)) +
                 ") score only those " + N(b.t.pool_positions) + ", the same at any context length.";
  }
  const int sel = b.selecting_layers();
  if (sel > 0 && b.m.top_k > 0) {
    const double bytes = Bt * sel * b.m.top_k * kPositionBytes;
    LedgerEntry& e = b.add("top-k", Endpoint::Sram, Endpoint::Hbm, ObjectKind::SparseIndex, b.lat_sram + bytes / b.bw_total);
    e.bytes = bytes;
    e.formula = B(bytes) + " = " + per + N(sel) + " selecting layers × top-" + N(b.m.top_k) + " × " + N(kPositionBytes) +
                " B position ids (our assumption); " + S(e.duration) + " = " + S(b.lat_sram) + " in-kernel sort + " +
                B(bytes) + " / " + bw;
    e.figure = FigureId::TopkSliceBytes;
    e.provenance = model::Provenance::Derived;
    e.sources = b.fig(FigureId::TopkSliceBytes).sources;
    e.highlight.layers = b.layers_where(selects);
    e.highlight.add(ObjectKind::WorkingSet);
    e.sentence = "Scores are sorted in the kernel's working set and each selecting layer keeps the top " + N(b.m.top_k) +
                 " positions, published for the layers that reuse them.";
  }

  // The sparse gather, split into the encoder side (ratio-2 caches) and the decoder side (layer 20's
  // projected cache) so the decoder's read stands on its own; together they are gather.bytes.
  double gather_enc = 0, gather_dec = 0;
  LayerSet enc_readers, dec_readers;
  for (int i = 0; i < b.m.layer_count; ++i) {
    const LayerRead r = b.layer_read(i);
    if (r.gather <= 0) continue;
    if (b.side(i) == Endpoint::Decoder && b.ced) {
      gather_dec += r.gather;
      dec_readers.add(i);
    } else {
      gather_enc += r.gather;
      enc_readers.add(i);
    }
  }
  const double main = b.val(FigureId::KvMainEntry);
  if (gather_enc > 0) {
    LedgerEntry& e = hbm_read(b.ced ? "gather-encoder" : "gather", ObjectKind::GlobalKv, Bt * gather_enc, FigureId::GatherBytes,
                              N(enc_readers.count()) + " reading layers × " + N(gather_enc / enc_readers.count() / main) +
                                  " rows × " + N(main) + " B (part of " + b.fig(FigureId::GatherBytes).formula + ")");
    e.highlight.layers = enc_readers;
    e.sentence = std::string(b.ced ? "Encoder layers " : "Layers ") + b.layer_list(enc_readers) +
                 " gather their selected rows, " + model::format_info(b.m.kv_fmt).label + ": " + B(Bt * gather_enc) +
                 " instead of the whole cache.";
  }
  if (b.t.read_dense > 0) {
    LedgerEntry& e = hbm_read("dense-read", ObjectKind::GlobalKv, Bt * b.t.read_dense, FigureId::DecodeKvBytes,
                              "dense reads " + B(b.t.read_dense) + " (every row of each cache, " + N(b.t.dense_readers) +
                                  " layers; part of " + b.fig(FigureId::DecodeKvBytes).formula + ")");
    e.highlight.layers = b.layers_where(reads_dense);
    e.sentence = "Layers " + b.layer_list(e.highlight.layers) + " attend over every stored row of their cache: " +
                 B(Bt * b.t.read_dense) + ", growing with the context.";
  }
  if (b.val(FigureId::SwaWindowBytes) > 0) {
    LedgerEntry& e = hbm_read("swa-window", ObjectKind::SwaWindow, Bt * b.val(FigureId::SwaWindowBytes),
                              FigureId::SwaWindowBytes, paren(b.fig(FigureId::SwaWindowBytes).formula));
    e.highlight.layers = b.layers_where(has_win);
    e.sentence = "Every window layer reads its last " + N(std::min<double>(b.m.n_win, b.ctx)) + " tokens of SWA KV: " +
                 B(Bt * b.val(FigureId::SwaWindowBytes)) + ", independent of the context length.";
  }
  if (gather_dec > 0) {
    LedgerEntry& e = hbm_read("decoder-gather", ObjectKind::GlobalKv, Bt * gather_dec, FigureId::GatherBytes,
                              N(dec_readers.count()) + " decoder layers × " + N(gather_dec / dec_readers.count() / main) +
                                  " rows × " + N(main) + " B (part of " + b.fig(FigureId::GatherBytes).formula + ")");
    e.highlight.layers = dec_readers;
    e.highlight.add(Endpoint::Decoder);
    e.sentence = "Decoder layers " + b.layer_list(dec_readers) + " read the global KV projected from the encoder's final "
                 "stream: the selected rows of layer " + N(b.m.enc_layers) + "'s cache.";
  }

  {
    const double bytes = Bt * b.val(FigureId::KvGlobalPerToken);
    LedgerEntry& e = b.add("kv-append", Endpoint::Decoder, Endpoint::Hbm, ObjectKind::GlobalKv, bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, FigureId::KvGlobalPerToken,
           B(bytes) + " = " + per + paren(b.fig(FigureId::KvGlobalPerToken).formula) + "; " + S(e.duration) + " = " + B(bytes) +
               " / " + bw);
    e.highlight.layers = b.layers_where(is_owner);
    e.highlight.add(Endpoint::Tokens);
    e.highlight.add(ObjectKind::Tokens);
    e.changes[0] = {ObjectKind::GlobalKv, bytes, Bt};
    e.sentence = "The token comes out and the global KV grows by " + N(b.val(FigureId::KvGlobalPerToken)) +
                 " B per session (owners at ratio r add a row every r tokens; this is the average).";
  }
  if (b.m.n_win > 0) {
    const double bytes = Bt * b.t.window_layers * b.val(FigureId::KvSwaEntry);
    LedgerEntry& e = b.add("swa-append", Endpoint::Decoder, Endpoint::Hbm, ObjectKind::SwaWindow, bytes / b.bw_total);
    e.bytes = bytes;
    b.cite(e, FigureId::KvSwaEntry,
           B(bytes) + " = " + per + N(b.t.window_layers) + " layers × " + N(b.val(FigureId::KvSwaEntry)) + " B; " +
               S(e.duration) + " = " + B(bytes) + " / " + bw);
    e.highlight.layers = b.layers_where(has_win);
    const bool grows = b.ctx < b.m.n_win;
    if (grows) e.changes[0] = {ObjectKind::SwaWindow, bytes, Bt};
    e.sentence = grows ? "The SWA ring takes the new token in every window layer; it is not full yet, so it grows."
                       : "The SWA ring takes the new token in every window layer and drops its oldest: its size stays put.";
  }
  if (b.m.engram_count == 0) b.out.note = "This model has no Engram layers.";
}

}  // namespace tierscope::anim::detail
