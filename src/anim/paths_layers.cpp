// The close-up paths: one Engram lookup, and the CSA2 mode of every layer in one decode step.
#include <algorithm>
#include <cmath>

#include "anim/builder.h"
#include "model/text.h"

namespace tierscope::anim::detail {

using model::FigureId;
using model::LayerMode;

// [SECTION] engram ------------------------------------------------------------------------------------
void build_engram(Builder& b) {
  b.base_residency(1, b.ctx);
  if (b.m.engram_count == 0) {
    b.out.note = "This model has no Engram layers: there is no hashed n-gram memory to look up.";
    return;
  }
  const double orders = std::max(0, b.m.engram_ngram - 1);
  const double rows = orders * b.m.engram_heads;
  const double row_bytes = b.t.engram_row;
  std::string grams;
  for (int n = 2; n <= b.m.engram_ngram; ++n) grams += (n > 2 ? (n == b.m.engram_ngram ? " and " : ", ") : "") + std::to_string(n);
  for (int j = 0; j < b.m.engram_count; ++j) {
    const int layer = b.m.engram_layers[static_cast<std::size_t>(j)];
    const double table_rows = b.m.engram_rows[static_cast<std::size_t>(j)];
    const Endpoint at = b.side(layer);
    {
      LedgerEntry& e = b.add("hash", Endpoint::Tokens, Endpoint::Sram, ObjectKind::WorkingSet, b.lat_sram);
      e.phase = "layer " + std::to_string(layer);
      e.layer = layer;
      e.formula = N(orders) + " n-gram orders × " + N(b.m.engram_heads) + " hash heads = " + N(rows) + " row addresses; " +
                  b.kernel_formula();
      e.figure = FigureId::EngramBytesPerToken;
      e.provenance = model::Provenance::Paper;
      e.sources = b.fig(FigureId::EngramBytesPerToken).sources;
      e.highlight.layers.add(layer);
      e.highlight.add(ObjectKind::Tokens);
      e.sentence = "Layer " + N(layer) + " takes the current " + grams + "-grams of normalised token ids; each of " +
                   N(b.m.engram_heads) + " heads hashes each n-gram into its own prime-sized table: " + N(rows) +
                   " row addresses, known before any layer runs.";
    }
    {
      const double bytes = rows * row_bytes;
      LedgerEntry& e = b.add("fetch-rows", b.engram_home(), Endpoint::Sram, ObjectKind::EngramTables, b.engram_time(bytes));
      e.phase = "layer " + std::to_string(layer);
      e.layer = layer;
      e.bytes = bytes;
      e.engram_rows = rows;
      b.cite(e, FigureId::EngramBytesPerToken,
             B(bytes) + " = " + N(orders) + " orders × " + N(b.m.engram_heads) + " heads × " + N(row_bytes) +
                 " B row (one of " + N(b.m.engram_count) + " layers of " + b.fig(FigureId::EngramBytesPerToken).formula +
                 "); " + b.engram_time_formula(bytes));
      e.highlight.layers.add(layer);
      e.sentence = N(rows) + " rows of " + N(row_bytes) + " B are read from a table of " + N(table_rows) + " rows in " +
                   endpoint_label(b.engram_home()) + ": sparse, random reads at deterministic addresses.";
    }
    {
      LedgerEntry& e = b.add("gate", Endpoint::Sram, Endpoint::Sram, ObjectKind::WorkingSet, b.lat_sram);
      e.phase = "layer " + std::to_string(layer);
      e.layer = layer;
      e.formula = b.kernel_formula();
      e.provenance = model::Provenance::Paper;
      e.sources = b.fig(FigureId::EngramParams).sources;
      e.highlight.layers.add(layer);
      e.highlight.add(ObjectKind::HiddenStream);
      e.sentence = "A learned gate compares the retrieved vectors with the current hidden state and meters how much of "
                   "them may enter, as an MoE router weighs its experts.";
    }
    {
      LedgerEntry& e = b.add("residual-add", Endpoint::Sram, at, ObjectKind::HiddenStream, b.lat_sram);
      e.phase = "layer " + std::to_string(layer);
      e.layer = layer;
      e.formula = b.kernel_formula();
      e.provenance = model::Provenance::Paper;
      e.sources = b.fig(FigureId::EngramParams).sources;
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
    case LayerMode::Count: break;
  }
  return "dense";
}

}  // namespace

void build_csa2_modes(Builder& b) {
  b.base_residency(1, b.ctx);
  const std::string bw = model::human(b.bw_total, "B/s");
  const double idx = b.val(FigureId::KvIndexEntry), main = b.val(FigureId::KvMainEntry), swa = b.val(FigureId::KvSwaEntry);
  for (int i = 0; i < b.m.layer_count; ++i) {
    const LayerRead r = b.layer_read(i);
    const double bytes = r.total();
    const bool window_only = r.mode == LayerMode::SwaOnly || r.source < 0;
    LedgerEntry& e = b.add(mode_step(r.mode), Endpoint::Hbm, Endpoint::Sram,
                           window_only ? ObjectKind::SwaWindow : ObjectKind::GlobalKv, bytes / b.bw_total);
    e.phase = b.side(i) == Endpoint::Encoder ? "encoder" : "decoder";
    e.layer = i;
    e.bytes = bytes;
    e.highlight.add(b.side(i));
    e.highlight.layers.add(i);
    if (r.source >= 0 && r.source != i) e.highlight.layers.add(r.source);
    if (r.window > 0) e.highlight.add(ObjectKind::SwaWindow);
    if (r.fullpool > 0 || r.pool > 0) e.highlight.add(ObjectKind::SparseIndex);
    std::string f = B(bytes) + " =";
    bool first = true;
    auto term = [&](double part, const std::string& text) {
      if (part <= 0) return;
      f += (first ? " " : " + ") + text;
      first = false;
    };
    term(r.fullpool, N(r.rows) + " index keys × " + N(idx) + " B");
    term(r.pool, N(r.pool / idx) + " candidate keys × " + N(idx) + " B");
    term(r.gather, N(r.gather / main) + " selected rows × " + N(main) + " B");
    term(r.dense, N(r.rows) + " rows × " + N(main) + " B");
    term(r.window, N(r.window / swa) + " window tokens × " + N(swa) + " B");
    if (first) f += " 0 B";
    b.cite(e, FigureId::DecodeKvBytes, f + "; " + S(e.duration) + " = " + B(bytes) + " / " + bw);
    const std::string L = "Layer " + N(i);
    const std::string src = N(r.source);
    switch (r.mode) {
      case LayerMode::SwaOnly:
        e.sentence = L + " keeps only its own " + N(std::min<double>(b.m.n_win, b.ctx)) + "-token window: no global KV.";
        break;
      case LayerMode::Full:
        e.sentence = L + " is Full: it owns global KV at ratio " + N(b.ratio(i)) + ", scores all " + N(r.rows) +
                     " index keys and publishes its top " + N(b.m.top_k) + " for the layers that reuse them" +
                     (i == b.m.cand_src ? ", and picks the " + N(b.m.cand_blocks) + " candidate blocks that bound later "
                                          "indexers."
                                        : ".");
        break;
      case LayerMode::Reindex:
        e.sentence = L + " is Reindex: it keeps layer " + src + "'s rows but re-selects its own top " + N(b.m.top_k) +
                     (r.pool_scorer ? ", scoring only the " + N(r.pool / idx) + " candidate positions."
                                    : ", scoring all " + N(r.rows) + " keys.");
        break;
      case LayerMode::Reuse:
        e.sentence = r.dense > 0 ? L + " reads every row of layer " + src + "'s cache (" + N(r.rows) + " rows)."
                                 : L + " reuses layer " + src + "'s selection unchanged and gathers the same " +
                                       N(r.gather / main) + " rows.";
        break;
      case LayerMode::Dense:
        e.sentence = L + " owns its KV" + (b.ratio(i) > 1 ? " at ratio " + N(b.ratio(i)) : std::string()) +
                     " and attends over all " + N(r.rows) + " rows.";
        break;
      case LayerMode::Count: break;
    }
  }
}

}  // namespace tierscope::anim::detail
