// The close-up paths: one Engram lookup, and the CSA2 mode of every layer in one decode step.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "base/text.h"
#include "roofline/timing.h"

namespace tierscope::anim::detail {

using model::FigureId;
using model::LayerMode;

// [SECTION] engram ------------------------------------------------------------------------------------
void build_engram(Builder& b) {
  b.base_residency(1, b.s.work.ctx);
  if (b.m.engram_count == 0) {
    b.out.note = "This model has no Engram layers: there is no hashed n-gram memory to look up.";
    return;
  }
  const model::Terms& t = b.t;
  const double kernel = t.kernel_us * 1e-6;
  const std::string kernel_text = S(kernel) + " = " + N(t.kernel_us) + " µs: one small kernel at its launch floor (" +
                                  (t.cuda_graphs ? "replayed from a CUDA graph)" : "launched eagerly)");
  const double orders = std::max(0, b.m.engram_ngram - 1);
  const double rows = orders * b.m.engram_heads;
  const double row_bytes = t.engram_row_bytes;
  std::string grams;
  for (int n = 2; n <= b.m.engram_ngram; ++n) grams += (n > 2 ? (n == b.m.engram_ngram ? " and " : ", ") : "") + std::to_string(n);
  for (int j = 0; j < b.m.engram_count; ++j) {
    const int layer = b.m.engram_layers[static_cast<std::size_t>(j)];
    const double table_rows = b.m.engram_rows[static_cast<std::size_t>(j)];
    const Endpoint at = b.side(layer);
    const std::string phase = "layer " + std::to_string(layer);
    {
      LedgerEntry& e = b.add("hash", Endpoint::Tokens, Endpoint::Sram, ObjectKind::WorkingSet, kernel);
      e.phase = phase;
      e.layer = layer;
      b.cite(e, FigureId::EngramBytesPerToken, N(orders) + " n-gram orders × " + N(b.m.engram_heads) + " hash heads = " + N(rows) + " row addresses; " + kernel_text);
      e.highlight.layers.add(layer);
      e.highlight.add(ObjectKind::Tokens);
      e.sentence = "Layer " + N(layer) + " takes the current " + grams + "-grams of normalised token ids; each of " + N(b.m.engram_heads) +
                   " heads hashes each n-gram into its own prime-sized table: " + N(rows) + " row addresses, known before any layer runs.";
    }
    {
      const double bytes = rows * row_bytes;
      LedgerEntry& e = b.add("fetch-rows", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables,
                             model::engram_fetch_time(t, b.m.engram_home, bytes));
      e.phase = phase;
      e.layer = layer;
      e.bytes = bytes;
      e.engram_rows = rows;
      b.cite(e, FigureId::EngramFetchTime, B(bytes) + " = " + N(orders) + " orders × " + N(b.m.engram_heads) + " heads × " + N(row_bytes) +
                                               " B row; " + S(e.duration) + " by the same path as " + b.fig(FigureId::EngramFetchTime).formula());
      e.highlight.layers.add(layer);
      e.sentence = N(rows) + " rows of " + N(row_bytes) + " B are read from a table of " + N(table_rows) + " rows in " +
                   (b.m.engram_home == model::EngramHome::Remote ? std::string("another node's memory over RDMA")
                                                                  : std::string(endpoint_label(b.engram_home()))) +
                   ": sparse, random reads at deterministic addresses.";
    }
    {
      LedgerEntry& e = b.add("gate", Endpoint::Sram, Endpoint::Sram, ObjectKind::WorkingSet, kernel);
      e.phase = phase;
      e.layer = layer;
      b.cite(e, FigureId::EngramParams, kernel_text);
      e.highlight.layers.add(layer);
      e.highlight.add(ObjectKind::HiddenStream);
      e.sentence = "A learned gate compares the retrieved vectors with the current hidden state and meters how much of them may enter, as an "
                   "MoE router weighs its experts.";
    }
    {
      LedgerEntry& e = b.add("residual-add", Endpoint::Sram, at, ObjectKind::HiddenStream, kernel);
      e.phase = phase;
      e.layer = layer;
      b.cite(e, FigureId::EngramParams, kernel_text);
      e.highlight.layers.add(layer);
      e.sentence = "The gated vector is added to the residual stream of layer " + N(layer) +
                   "; the table is left exactly as it was: Engram rows are weights, not activations.";
    }
  }
  b.out.note = "Nothing is written: the " + B(b.val(FigureId::EngramTableBytes)) + " of tables are trained weights, read only.";
}

// [SECTION] csa2-modes --------------------------------------------------------------------------------
namespace {

const char* mode_step(LayerMode m) {
  switch (m) {
    case LayerMode::Dense: return "dense";
    case LayerMode::Full: return "full";
    case LayerMode::Reindex: return "reindex";
    case LayerMode::Reuse: return "reuse";
    case LayerMode::SwaOnly: return "swa-only";
    case LayerMode::Linear: return "linear";
    case LayerMode::Chunked: return "chunked";
    case LayerMode::Count: break;
  }
  return "dense";
}

}  // namespace

void build_csa2_modes(Builder& b) {
  b.base_residency(1, b.s.work.ctx);
  const model::Terms& t = b.t;
  const std::string share = t.kv_share < 1 ? " × 1/" + N(t.tp) : std::string();
  const double idx = b.z.idx, main = b.z.main, swa = b.z.swa;
  for (int i = 0; i < b.m.layer_count; ++i) {
    const model::LayerRead r = b.read(i);
    // A linear layer's state splits over tp by its heads (lin_share), the KV by the KV heads (kv_share).
    const double state = r.state_bytes(b.z);
    const double bytes = (r.bytes(b.z) - state) * t.kv_share + state * t.lin_share;
    const bool window_only = r.mode == LayerMode::SwaOnly || r.source < 0;
    const ObjectKind object = r.mode == LayerMode::Linear    ? ObjectKind::RecurrentState
                              : r.mode == LayerMode::Chunked ? ObjectKind::ChunkKv
                              : window_only                  ? ObjectKind::SwaWindow
                                                             : ObjectKind::GlobalKv;
    LedgerEntry& e = b.add(mode_step(r.mode), Endpoint::Hbm, Endpoint::Sram, object, model::hbm_transfer_time(t, bytes));
    e.phase = b.side(i) == Endpoint::Encoder ? "encoder" : "decoder";
    e.layer = i;
    e.bytes = bytes;
    e.highlight.add(b.side(i));
    e.highlight.layers.add(i);
    if (r.source >= 0 && r.source != i) e.highlight.layers.add(r.source);
    if (r.selector >= 0 && r.selector != i) e.highlight.layers.add(r.selector);
    if (r.window_rows > 0 && r.mode != LayerMode::Chunked) e.highlight.add(ObjectKind::SwaWindow);
    if (r.keys_scored() > 0) {
      e.highlight.add(ObjectKind::SparseIndex);
      e.highlight.add(ObjectKind::IndexerKeys);
    }
    std::string f = B(bytes) + " =";
    bool first = true;
    auto term = [&](double part, const std::string& text) {
      if (part <= 0) return;
      f += (first ? " " : " + ") + text;
      first = false;
    };
    term(r.fullpool_keys, N(r.fullpool_keys) + " index keys × " + N(idx) + " B");
    term(r.pool_keys, N(r.pool_keys) + " candidate keys × " + N(idx) + " B");
    term(r.gathered, N(r.gathered) + " selected rows × " + N(main) + " B");
    term(r.dense_rows, N(r.dense_rows) + " rows × " + N(main) + " B");
    term(r.window_rows, N(r.window_rows) + " window tokens × " + N(swa) + " B");
    if (first && r.state > 0) {
      f += " recurrent state " + N(b.z.state) + " B" + (t.lin_share < 1 ? " × " + N(t.lin_share) + " (this GPU's heads)" : std::string());
      first = false;
    } else {
      term(r.state, "recurrent state " + N(b.z.state) + " B");
    }
    if (first) f += " 0 B";
    b.cite(e, FigureId::DecodeKvBytes, f + (r.state > 0 ? std::string() : share) + "; " + S(e.duration) + " = " + B(bytes) + " / HBM (one session, one GPU)");
    const std::string L = "Layer " + N(i);
    const std::string src = N(r.source), sel = N(r.selector);
    switch (r.mode) {
      case LayerMode::SwaOnly:
        e.sentence = L + " keeps only its own " + N(r.window_rows) + "-token window: no global KV.";
        break;
      case LayerMode::Full:
        // DeepSeek-V4's compressed sparse attention (CSA): a Full layer at a compression ratio with no candidate pool.
        if (b.m.cand_src < 0 && b.ratio(i) > 1)
          e.sentence = L + " is CSA: it keeps one compressed KV row per " + N(b.ratio(i)) + " tokens, scores all " + N(r.rows) +
                       " with the lightning indexer's keys and attends its top " + N(r.gathered) + (r.window_rows > 0 ? " and its window." : ".");
        else
          e.sentence = L + " is Full: it owns global KV at ratio " + N(b.ratio(i)) + ", scores all " + N(r.rows) + " index keys and publishes its top " +
                       N(b.m.top_k) + " for the layers that reuse them" +
                       (i == b.m.cand_src ? ", and picks the " + N(b.m.cand_blocks) + " candidate blocks that bound later indexers." : ".");
        break;
      case LayerMode::Reindex:
        e.sentence = L + " is Reindex: it keeps layer " + src + "'s rows but re-selects its own top " + N(b.m.top_k) +
                     (r.pool_scorer ? ", scoring only the " + N(r.pool_keys) + " candidate positions." : ", scoring all " + N(r.rows) + " keys.");
        break;
      case LayerMode::Reuse:
        e.sentence = r.dense_rows > 0 ? L + " reads every row of layer " + src + "'s cache (" + N(r.rows) + " rows)."
                                      : L + " reuses layer " + sel + "'s selection unchanged and gathers those " + N(r.gathered) + " rows from layer " + src +
                                            "'s cache.";
        break;
      case LayerMode::Dense:
        // A Dense layer at a high ratio is V4's heavily compressed attention (HCA): every row, few of them.
        e.sentence = b.ratio(i) > 1 && b.m.cand_src < 0
                         ? L + " is HCA: it keeps one KV row per " + N(b.ratio(i)) + " tokens and attends all " + N(r.rows) + " of them" +
                               (r.window_rows > 0 ? ", with its window." : ".")
                         : L + " owns its KV" + (b.ratio(i) > 1 ? " at ratio " + N(b.ratio(i)) : std::string()) + " and attends over all " + N(r.rows) + " rows.";
        break;
      case LayerMode::Linear:
        e.sentence = L + " is linear attention: it reads its fixed recurrent state and writes it back, " + B(b.z.state) +
                     " per session whatever the context: no KV.";
        break;
      case LayerMode::Chunked:
        e.sentence = L + " attends only within its chunk of " + N(model::layer_window(b.m, i)) + " tokens: " + N(r.window_rows) + " tokens of local KV now.";
        break;
      case LayerMode::Count: break;
    }
  }
}

}  // namespace tierscope::anim::detail
