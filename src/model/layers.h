// What one layer reads per query token at a given context: the one per-layer rule that decode, prefill,
// replay and the animation ledger all use, so their totals cannot drift apart.
#pragma once

#include <cstdint>

#include "model/scenario.h"

namespace tierscope::model {

// Stored bytes of one entry of each cache (one layer, one token or one compressed row).
struct KvSizes {
  double main = 0;   // main (global) KV row
  double idx = 0;    // index key
  double swa = 0;    // sliding-window (or local chunk) entry
  double state = 0;  // one linear-attention layer's recurrent state with its convolution state, one session
};

struct LayerRead {
  LayerMode mode = LayerMode::SwaOnly;
  int source = -1;        // the KV-owning layer whose cache it reads (-1: none)
  int selector = -1;      // the layer whose top-k selection it uses (itself for Full/Reindex; -1: none)
  double rows = 0;        // rows in the source's cache at this context (ctx / ratio)
  double fullpool_keys = 0;  // index keys scored over the whole pool
  double pool_keys = 0;      // index keys scored inside the hierarchical candidate pool
  double gathered = 0;    // selected main rows gathered
  double dense_rows = 0;  // main rows read by dense attention
  double window_rows = 0; // sliding-window (or local chunk) rows read
  double state = 0;       // recurrent states read (1 for a linear-attention layer: fixed, whatever the context)
  bool pool_scorer = false;

  double keys_scored() const { return fullpool_keys + pool_keys; }
  double positions() const { return gathered + dense_rows + window_rows; }  // attended per query
  double fullpool_bytes(const KvSizes& z) const { return fullpool_keys * z.idx; }
  double pool_bytes(const KvSizes& z) const { return pool_keys * z.idx; }
  double gather_bytes(const KvSizes& z) const { return gathered * z.main; }
  double dense_bytes(const KvSizes& z) const { return dense_rows * z.main; }
  double window_bytes(const KvSizes& z) const { return window_rows * z.swa; }
  double state_bytes(const KvSizes& z) const { return state * z.state; }
  double bytes(const KvSizes& z) const {
    return fullpool_bytes(z) + pool_bytes(z) + gather_bytes(z) + dense_bytes(z) + window_bytes(z) + state_bytes(z);
  }
};

// What decides a layer's read, worked out once per model: its mode, the KV source and selecting layer it
// uses, and the flags the read rule branches on.
// Plain data without default member initialisers: plans live in arrays that plan_layers() fills, and
// zeroing them on every model evaluation would cost more than the evaluation.
struct LayerRole {
  LayerMode mode;
  int source, selector;  // -1: none
  double ratio;          // the source's compression ratio
  bool window;           // keeps a sliding window or a local chunk
  int win;               // its tokens (the window, or the chunk)
  bool recurrent;        // a linear-attention layer: reads its fixed recurrent state
  bool pool_scorer;      // a Reindex layer bounded by the candidate pool
  bool dense_source;     // its source is Dense (it reads every row)
  std::uint64_t key;     // equal keys read alike (see plan_layers)
};

// Layers that read alike, with how many there are: the unit read_sums() loops over, so a per-context
// sum costs a handful of groups rather than every layer.
struct LayerGroup {
  LayerRole role;
  int count;
};

// Whole-model layer counts the KV layout is built from (each an exact per-layer sum, so no grouping can
// round them).
struct LayerCounts {
  double window_layers;    // layers that keep a sliding window
  double window_tokens;    // Σ their windows (window_layers × n_win when every window is the model's)
  double chunk_layers;     // chunked-local layers (each keeps at most its chunk)
  double linear_layers;    // linear-attention / SSM layers (each keeps a fixed recurrent state)
  double owners;           // KV-owning layers
  double index_owners;     // of them, Full layers (they also own index keys)
  double inv_ratio_main;   // Σ 1/ratio over the KV owners
  double inv_ratio_index;  // the same over the index owners
  double selecting_layers; // Full and Reindex layers (each runs a top-k)
  int last_source;         // the last KV-owning layer, -1 when none
};

struct LayerPlan {
  int layer_count;
  LayerCounts counts;
  LayerRole roles[kMaxLayers];
  // Groups over [0, split) and [split, layer_count) with split = the last KV source (the prefill's two
  // passes), and over every layer.
  int split;
  LayerGroup groups[3][kMaxLayers];
  int group_count[3];
  enum Range { All = 0, BeforeSplit = 1, FromSplit = 2 };
};

// One pass over the layers (kv sources and selectors found walking forward).
void plan_layers(const ModelArch& m, LayerPlan& out);
// The whole-model counts alone (what plan_layers puts in counts).
LayerCounts count_layers(const ModelArch& m);

// The read of one layer (given its role) for one query at context `ctx` tokens (ctx may be fractional:
// prefill passes the causal average). Full layers scan their own pool and gather; Reindex layers score the
// candidate pool when one bounds them (after `cand_src`), else the whole pool; Reuse layers gather the rows
// chosen by the nearest preceding Full or Reindex layer, or read every row when their source is Dense.
LayerRead layer_read(const ModelArch& m, const LayerRole& role, double ctx);
// The same for layer `layer` of `m` (plans the one layer; for callers outside a hot loop).
LayerRead layer_read(const ModelArch& m, int layer, double ctx);

// Entry sizes from the model's formats.
KvSizes kv_sizes(const ModelArch& m);
// Values one KV-owning layer stores per token, by attention kind.
double kv_dims(const ModelArch& m);
// The same for a sliding-window or chunked layer, with the KV heads of its own where the model has them.
double window_kv_dims(const ModelArch& m);
// A linear-attention layer's state for one session: the recurrent state's values (lin_fmt) and the
// convolution's (BF16), and the bytes of both.
double linear_state_values(const ModelArch& m);
double linear_conv_values(const ModelArch& m);
double linear_state_bytes(const ModelArch& m);
// Weight matrices of one FFN or expert: gate, up and down (3), or up and down for a plain activation (2).
inline double ffn_matrices(const ModelArch& m) { return m.ffn_mats > 0 ? m.ffn_mats : 3.0; }
// Whether any layer keeps a sliding window or a local chunk.
bool any_window(const ModelArch& m);
// Stored bytes of one per-token vector in format f (RoPE dims apart in BF16 and padding where the model
// says so).
double kv_vector_bytes(const ModelArch& m, NumFormat f, double dims);
// Multiply-accumulate width per attended position and query head (score + value mix) at decode. MLA is
// absorbed (latent + RoPE for scores, latent for values); Latent attends over its one shared vector.
double decode_attn_dims(const ModelArch& m);
// The same at prefill, where engines run MLA un-absorbed (per-head keys and values).
double prefill_attn_dims(const ModelArch& m);

}  // namespace tierscope::model
