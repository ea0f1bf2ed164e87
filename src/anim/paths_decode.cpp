// One decode step's path: the Engram prefetch, the weights, the indexer, the gather, the fixed terms and the
// caches' append, each entry lasting a model figure (or a stated share). The prefill path: paths_token.cpp.
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

bool is_full_pool(const LayerRead& r) { return r.fullpool_keys > 0; }
bool is_pool(const LayerRead& r) { return r.pool_scorer; }
bool reads_dense(const LayerRead& r) { return r.dense_rows > 0; }
bool selects(const LayerRead& r) { return r.mode == LayerMode::Full || r.mode == LayerMode::Reindex; }

}  // namespace

namespace {

// What every part of the decode step's ledger reads the same way: this replica's sessions ("× 8 sessions"),
// their KV share on this GPU (its heads under TP), and that share in words.
struct DecodeShare {
  std::string per;    // Builder::sessions_x(batch per replica)
  double kvs = 0;     // sessions × the GPU's share of each session's KV
  std::string share;  // " × 1/TP (its share of the heads)", or empty
};

// The Engram rows of the new tokens, prefetched behind the first layers.
void decode_engram(Builder& b) {
  const model::Terms& t = b.t;
  const double bytes = t.tokens_replica * b.val(FigureId::EngramBytesPerToken);
  LedgerEntry& e = b.add_timed("engram-prefetch", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables, FigureId::EngramStepFetchTime);
  e.bytes = bytes;
  e.overlapped = true;
  e.engram_rows = t.tokens_replica * b.m.engram_count * std::max(0, b.m.engram_ngram - 1) * b.m.engram_heads;
  b.cite(e, FigureId::EngramStepFetchTime, B(bytes) + " = " + N(t.tokens_replica) + " tokens × " + paren(b.fig(FigureId::EngramBytesPerToken).formula()) +
                                               "; " + b.fig(FigureId::EngramStepFetchTime).formula() + "; stall " + b.fig(FigureId::EngramStall).formula());
  for (int i = 0; i < b.m.engram_count; ++i) e.highlight.layers.add(b.m.engram_layers[static_cast<std::size_t>(i)]);
  e.sentence = "Engram rows for the new tokens' n-grams are fetched from " + std::string(endpoint_label(b.engram_home())) + " (" + N(e.engram_rows) +
               " rows); the fetch hides behind the layers before layer " + N(b.m.engram_layers[0]) + ", stalling " + S(b.val(FigureId::EngramStall)) + ".";
}

// The weights this GPU streams from HBM each step.
void decode_weights(Builder& b) {
  LedgerEntry& e = b.add_timed("weights", Endpoint::Hbm, Endpoint::Sram, ObjectKind::MoeWeights, FigureId::DecodeTWeights);
  e.bytes = b.val(FigureId::DecodeWeightBytes);
  b.cite(e, FigureId::DecodeWeightBytes, b.fig(FigureId::DecodeWeightBytes).formula() + "; " + b.fig(FigureId::DecodeTWeights).formula());
  e.highlight.layers = b.all_layers();
  const std::string which = b.m.experts > 0 ? "This GPU's share of the " + N(b.val(FigureId::DecodeExpertsPerRank)) +
                                                  " experts touched on its rank per layer, plus its slice of the attention and shared weights,"
                                            : std::string("This GPU's slice of every layer's weights (a dense model reads all of them each step)");
  e.sentence = which + " streams from HBM: " + B(e.bytes) + ", " + model::human(b.val(FigureId::DecodeWeightShare), "fraction") +
               " of the step's bytes.";
}

// The sparse indexers' reads (full pool and candidate pool) and the top-k selection.
void decode_index(Builder& b, const DecodeShare& d) {
  const model::Terms& t = b.t;
  const std::string& per = d.per;
  const double kvs = d.kvs;
  const std::string& share = d.share;
  const double fullpool = t.dec.fullpool, pool = t.dec.pool;
  // One indexer read: its share of the index time, its bytes per GPU and where they come from.
  const auto index_read = [&](const char* key, double bytes_per_session, FigureId bytes_fig, const char* what) -> LedgerEntry& {
    LedgerEntry& e = b.add_timed(key, Endpoint::Hbm, Endpoint::Sram, ObjectKind::IndexerKeys, FigureId::DecodeTIndex, bytes_per_session / (fullpool + pool));
    e.highlight.add(ObjectKind::SparseIndex);
    e.bytes = kvs * bytes_per_session;
    b.cite(e, bytes_fig, B(e.bytes) + " = " + per + paren(b.fig(bytes_fig).formula()) + share + "; " + b.share_text(FigureId::DecodeTIndex, e.time_share) + what);
    return e;
  };
  if (fullpool > 0) {
    LedgerEntry& e = index_read("fullpool-index", fullpool, FigureId::IndexFullpoolBytes, ", the full-pool share of the index reads");
    e.highlight.layers = b.layers_where(is_full_pool);
    e.highlight.add(ObjectKind::GlobalKv);
    e.sentence = "The full-pool indexers (layers " + b.layer_list(e.highlight.layers) + ") score every stored position: " + N(t.fullpool_rows_idx) +
                 " index keys per session, a read that grows with the context.";
  }
  if (pool > 0) {
    LedgerEntry& e = index_read("candidate-pool", pool, FigureId::IndexCandidateBytes, ", the candidate-pool share");
    e.highlight.layers = b.layers_where(is_pool);
    e.highlight.layers.add(b.m.cand_src);
    e.sentence = "Layer " + N(b.m.cand_src) + " has picked " + N(b.m.cand_blocks) + " candidate blocks of " + N(b.m.cand_block) +
                 " positions; the later indexers (layers " + b.layer_list(b.layers_where(is_pool)) + ") score only those " + N(t.pool_positions) +
                 ", the same at any context length.";
  }
  if (b.val(FigureId::DecodeTTopk) > 0) {
    LedgerEntry& e = b.add_timed("top-k", Endpoint::Sram, Endpoint::Sram, ObjectKind::SparseIndex, FigureId::DecodeTTopk);
    e.bytes = t.tokens_replica * t.dec.select_keys * 4.0;
    b.cite(e, FigureId::TopkSelectTime, b.fig(FigureId::DecodeTTopk).formula());
    e.highlight.layers = b.layers_where(selects);
    e.highlight.add(ObjectKind::WorkingSet);
    e.sentence = "Each selecting layer sorts its " + N(t.dec.select_keys / std::max(1.0, t.selecting_layers)) +
                 " scores per query in the kernel's working set and keeps the top " + N(b.m.top_k) + " positions, published for the layers that reuse them.";
  }

}

// The KV gather (encoder and decoder sides), the dense reads and the SWA window.
void decode_gather(Builder& b, const DecodeShare& d) {
  const model::Terms& t = b.t;
  const std::string& per = d.per;
  const double kvs = d.kvs;
  const std::string& share = d.share;
  // Split into the encoder side and the decoder side (layer 20's projected cache in V4.1) so
  // the decoder's read stands on its own; with the dense reads they are decode.t_gather.
  double gather_enc = 0, gather_dec = 0;
  LayerSet enc_readers, dec_readers;
  for (int i = 0; i < b.m.layer_count; ++i) {
    const LayerRead r = b.read(i);
    if (r.gathered <= 0) continue;
    (b.side(i) == Endpoint::Decoder && b.ced ? gather_dec : gather_enc) += r.gather_bytes(b.z);
    (b.side(i) == Endpoint::Decoder && b.ced ? dec_readers : enc_readers).add(i);
  }
  const double gather_q = std::min(t.dec.gather * t.q, t.dec.rows_all * b.z.main);
  const double scale = t.dec.gather > 0 ? gather_q / t.dec.gather : 0.0;  // several queries per session with drafts
  const double gather_total = gather_q + t.dec.dense;
  auto gather_entry = [&](std::string_view step, double bytes, const LayerSet& layers, const std::string& what, const std::string& sentence) {
    if (bytes <= 0 || gather_total <= 0) return;
    LedgerEntry& e = b.add_timed(step, Endpoint::Hbm, Endpoint::Sram, ObjectKind::GlobalKv, FigureId::DecodeTGather, bytes / gather_total);
    e.bytes = kvs * bytes;
    b.cite(e, FigureId::GatherBytes, B(e.bytes) + " = " + per + what + share + "; " + b.share_text(FigureId::DecodeTGather, e.time_share));
    e.highlight.layers = layers;
    e.sentence = sentence;
  };
  if (gather_enc > 0) {
    gather_entry(b.ced ? "gather-encoder" : "gather", gather_enc * scale, enc_readers,
                 N(enc_readers.count()) + " layers × their selected rows × " + N(b.z.main) + " B" + (t.q > 1 ? " × " + N(t.q) + " queries" : std::string()),
                 std::string(b.ced ? "Encoder layers " : "Layers ") + b.layer_list(enc_readers) + " gather their selected rows, " + fmt_label(b.m.kv_fmt) +
                     ", instead of the whole cache.");
  }
  if (t.dec.dense > 0) {
    gather_entry("dense-read", t.dec.dense, b.layers_where(reads_dense),
                 "every row of each cache (" + N(t.dense_readers) + " layers × " + N(b.s.work.ctx) + " tokens / ratio × " + N(b.z.main) + " B)",
                 "Layers " + b.layer_list(b.layers_where(reads_dense)) + " attend over every stored row of their cache: a read that grows with the context.");
  }
  // The local reads: sliding windows and, apart, the chunked layers' chunk in progress (both decode.t_window).
  const double chunk_read = b.chunk_bytes(b.s.work.ctx);
  const double window_read = t.dec.window - chunk_read;
  if (b.val(FigureId::DecodeTWindow) > 0 && window_read > 0) {
    const double share_of = window_read / t.dec.window;
    LedgerEntry& e = b.add_timed("swa-window", Endpoint::Hbm, Endpoint::Sram, ObjectKind::SwaWindow, FigureId::DecodeTWindow, share_of);
    e.bytes = kvs * window_read;
    b.cite(e, FigureId::SwaWindowBytes,
           B(e.bytes) + " = " + per + (chunk_read > 0 ? B(window_read) + " of the windows" : paren(b.fig(FigureId::SwaWindowBytes).formula())) + share +
               "; " + (share_of == 1.0 ? b.fig(FigureId::DecodeTWindow).formula() : b.share_text(FigureId::DecodeTWindow, share_of)));
    e.highlight.layers = b.layers_where(has_win);
    if (chunk_read > 0) {
      LayerSet sliding;
      for (int i = 0; i < b.m.layer_count; ++i)
        if (b.m.layers[static_cast<std::size_t>(i)].mode != LayerMode::Chunked && b.read(i).window_rows > 0) sliding.add(i);
      e.highlight.layers = sliding;
    }
    e.sentence = "Every window layer reads its last " + N(std::min<double>(b.m.n_win, b.s.work.ctx)) + " tokens of SWA KV, independent of the context length.";
  }
  if (b.val(FigureId::DecodeTWindow) > 0 && chunk_read > 0) {
    const double share_of = chunk_read / t.dec.window;
    LedgerEntry& e = b.add_timed("chunk-read", Endpoint::Hbm, Endpoint::Sram, ObjectKind::ChunkKv, FigureId::DecodeTWindow, share_of);
    e.bytes = kvs * chunk_read;
    b.cite(e, FigureId::KvChunkPerSession, B(e.bytes) + " = " + per + paren(b.fig(FigureId::KvChunkPerSession).formula()) + share + "; " +
                                               b.share_text(FigureId::DecodeTWindow, share_of));
    for (int i = 0; i < b.m.layer_count; ++i)
      if (b.m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) e.highlight.layers.add(i);
    e.sentence = "Each chunked layer attends only the tokens of its current chunk, " + N(b.chunk_tokens(b.s.work.ctx)) +
                 " at most: a read that stops growing once the chunk is full.";
  }
  if (gather_dec > 0) {
    LedgerEntry* before = b.out.entries.empty() ? nullptr : &b.out.entries.back();
    (void)before;
    gather_entry("decoder-gather", gather_dec * scale, dec_readers,
                 N(dec_readers.count()) + " decoder layers × their selected rows × " + N(b.z.main) + " B",
                 "Decoder layers " + b.layer_list(dec_readers) + " read the global KV projected from the encoder's final stream: the selected rows of "
                 "layer " + N(b.m.enc_layers) + "'s cache.");
    b.out.entries.back().highlight.add(Endpoint::Decoder);
  }
  if (b.val(FigureId::DecodeTState) > 0) {
    // Linear layers read their whole state and write it back, whatever the context (decode.t_state).
    LedgerEntry& e = b.add_timed("recurrent-state", Endpoint::Hbm, Endpoint::Sram, ObjectKind::RecurrentState, FigureId::DecodeTState);
    e.bytes = 2.0 * t.batch_replica * t.lin_share * t.dec.state;
    b.cite(e, FigureId::KvRecurrentPerSession, B(e.bytes) + " = 2 (read and written back) × " + per + paren(b.fig(FigureId::KvRecurrentPerSession).formula()) +
                                                   (t.lin_share < 1 ? " × " + N(t.lin_share) + " (this GPU's heads)" : std::string()) + "; " +
                                                   b.fig(FigureId::DecodeTState).formula());
    e.highlight.layers = b.linear_layers();
    e.sentence = "The " + N(t.linear_layers) + " linear layers read their recurrent state and write it back updated: " + B(b.state_on_gpu()) +
                 " per session on this GPU, the same at any context length.";
  }
}

// What the reads do not cover: compute above them, the collectives, kernel floors, host time, drafts, stalls.
void decode_fixed(Builder& b) {
  const model::Terms& t = b.t;
  auto fixed = [&](std::string_view step, FigureId id, Endpoint from, Endpoint to, ObjectKind obj, const std::string& sentence) {
    if (b.val(id) <= 0) return;
    LedgerEntry& e = b.add_timed(step, from, to, obj, id);
    b.cite(e, id, b.fig(id).formula());
    e.highlight.layers = b.all_layers();
    e.sentence = sentence;
  };
  fixed("compute", FigureId::DecodeTCompute, Endpoint::Sram, b.prefill_side(), ObjectKind::HiddenStream,
        "Where a kernel class needs more tensor-core time than its reads take, the step waits on compute: " + S(b.val(FigureId::DecodeTCompute)) +
            " above the memory roof.");
  fixed("all-reduce", FigureId::DecodeTAllreduce, b.prefill_side(), Endpoint::Decoder, ObjectKind::HiddenStream,
        "Attention split over " + N(t.tp) + " GPUs sums its partial outputs after every layer: all-reduces over the scale-up link.");
  fixed("all-to-all", FigureId::DecodeTA2a, b.prefill_side(), Endpoint::Decoder, ObjectKind::HiddenStream,
        "Each token travels to the GPUs holding its experts and back (dispatch and combine): " + N(b.val(FigureId::DecodeDestRanks)) +
            " ranks per token on average, the busiest rank " + model::human(b.val(FigureId::DecodeImbalance), "fraction") + " above the mean.");
  fixed("kernel-floors", FigureId::DecodeTOverhead, Endpoint::Sram, Endpoint::Sram, ObjectKind::WorkingSet,
        "Small kernels take their launch floor however little they do: " + N(t.kernels_per_step) + " kernels this step, " +
            S(b.val(FigureId::DecodeTOverhead)) + " above both roofs.");
  fixed("host", FigureId::DecodeTHost, Endpoint::Decoder, Endpoint::Decoder, ObjectKind::WorkingSet,
        "The host schedules the next step, prepares its inputs and samples the tokens: " + S(b.val(FigureId::DecodeTHost)) +
            " of it shows past what the overlap scheduler hides behind the GPU.");
  fixed("drafts", FigureId::DecodeTDraft, b.prefill_side(), Endpoint::Decoder, ObjectKind::HiddenStream,
        "The draft module proposes " + N(b.s.work.spec_tokens) + " tokens per session for the next step to verify.");
  fixed("engram-stall", FigureId::DecodeTStall, b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables,
        "The Engram rows arrived after the layer that needed them: the step waits.");

}

// The token comes out and the caches grow where their owners are; the last entry says the step's time.
void decode_append(Builder& b, const DecodeShare& d, const std::string& on_gpu) {
  const model::Terms& t = b.t;
  const std::string& share = d.share;
  const double app = t.tokens_replica * t.kv_share;
  const double append_global = b.val(FigureId::KvGlobalPerToken), append_win = t.window_layers * b.z.swa;
  const double append_chunk = t.chunk_layers * b.z.swa;
  const double append_all = append_global + append_win + append_chunk;
  const Authoring enc = authoring(b, 0, b.ced ? b.m.enc_layers - 1 : b.m.layer_count - 1);
  const Authoring dec = b.ced ? authoring(b, b.m.enc_layers, b.m.layer_count - 1) : Authoring{};
  auto append = [&](std::string_view step, Endpoint from, ObjectKind obj, double per_token, const LayerSet& layers, const std::string& sentence) {
    if (per_token <= 0) return;
    LedgerEntry& e = b.add_timed(step, from, Endpoint::Hbm, obj, FigureId::DecodeTAppend, per_token / append_all);
    e.bytes = app * per_token;
    b.cite(e, obj == ObjectKind::SwaWindow || obj == ObjectKind::ChunkKv ? FigureId::KvSwaEntry : FigureId::KvGlobalPerToken,
           B(e.bytes) + " = " + N(t.tokens_replica) + (t.tokens_replica == 1 ? " token × " : " tokens × ") + N(per_token) + " B" + share + "; " +
               b.share_text(FigureId::DecodeTAppend, e.time_share));
    e.highlight.layers = layers;
    e.sentence = sentence;
  };
  append(b.ced ? "kv-append-encoder" : "kv-append", b.prefill_side(), ObjectKind::GlobalKv, enc.per_token, enc.layers,
         "The new token's global KV is written by the layers that own it (" + b.layer_list(enc.layers) + "): owners at ratio r add a row every r tokens, " +
             N(enc.per_token) + " B per token on average.");
  if (!b.out.entries.empty() && b.out.entries.back().step.substr(0, 9) == "kv-append") {
    b.out.entries.back().changes[0] = {ObjectKind::GlobalKv, app * append_global, t.tokens_replica};
    b.out.entries.back().highlight.add(Endpoint::Tokens);
    b.out.entries.back().highlight.add(ObjectKind::Tokens);
    const double idx = b.val(FigureId::KvIndexerPerToken);
    if (idx > 0) {
      b.out.entries.back().changes[1] = {ObjectKind::IndexerKeys, app * idx, t.tokens_replica};
      b.out.entries.back().highlight.add(ObjectKind::IndexerKeys);
    }
  }
  append("kv-append-decoder", Endpoint::Stream, ObjectKind::GlobalKv, dec.per_token, dec.layers,
         "Layer " + b.layer_list(dec.layers) + " projects the new token's final encoder state into the decoder's cache: " + N(dec.per_token) + " B.");
  if (b.m.n_win > 0) {
    const bool grows = b.s.work.ctx < b.m.n_win;
    append("swa-append", Endpoint::Decoder, ObjectKind::SwaWindow, append_win, b.layers_where(has_win),
           grows ? "The SWA ring takes the new token in every window layer; it is not full yet, so it grows."
                 : "The SWA ring takes the new token in every window layer and drops its oldest: its size stays put.");
    if (grows) b.out.entries.back().changes[0] = {ObjectKind::SwaWindow, app * append_win, t.tokens_replica};
  }
  if (append_chunk > 0) {
    const bool grows = b.chunk_tokens(b.s.work.ctx + 1) > b.chunk_tokens(b.s.work.ctx);
    LayerSet chunked;
    for (int i = 0; i < b.m.layer_count; ++i)
      if (b.m.layers[static_cast<std::size_t>(i)].mode == LayerMode::Chunked) chunked.add(i);
    append("chunk-append", Endpoint::Decoder, ObjectKind::ChunkKv, append_chunk, chunked,
           grows ? "Each chunked layer adds the new token to its chunk in progress, which is not full yet."
                 : "Each chunked layer adds the new token to its chunk in progress; a full chunk starts over, so its size stays bounded.");
    if (grows) b.out.entries.back().changes[0] = {ObjectKind::ChunkKv, app * append_chunk, t.tokens_replica};
  }
  if (!b.out.entries.empty()) {
    std::string& s = b.out.entries.back().sentence;
    s += " Step: " + S(b.val(FigureId::DecodeStepTime)) + on_gpu + ", " + model::bound_name(t.step) + ".";
  }
  if (b.m.engram_count == 0) b.out.note = "This model has no Engram layers.";
}

}  // namespace

void build_decode(Builder& b) {
  const model::Terms& t = b.t;
  const double Br = t.batch_replica;
  b.base_residency(Br, b.s.work.ctx);
  b.out.total_figure = FigureId::DecodeStepTime;
  const std::string on_gpu = t.gpus > 1 ? " (one GPU of " + N(t.gpus) + ": the busiest replica's " + N(Br) + (Br == 1 ? " session)" : " sessions)") : "";
  const DecodeShare d{Builder::sessions_x(Br), Br * t.kv_share, t.kv_share < 1 ? " × 1/" + N(t.tp) + " (its share of the heads)" : std::string()};
  if (b.m.engram_count > 0) decode_engram(b);
  decode_weights(b);
  decode_index(b, d);
  decode_gather(b, d);
  decode_fixed(b);
  decode_append(b, d, on_gpu);
}

}  // namespace tierscope::anim::detail
