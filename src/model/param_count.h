// The model's parameters by part, counted from its architecture alone (no hardware, formats or workload):
// what the weights' figures build on (roofline/topic_weights.cpp), and the size that names an imported model.
#pragma once

#include "model/scenario.h"

namespace tierscope::model {

// The parameters of one layer's attention projections (query, key/value, output), by the attention's kind.
double attention_params_per_layer(const ModelArch& m);
// One layer's attention parameters by its kind: a full layer's (attention_params_per_layer), a sliding or
// chunked layer's with the KV heads of its own, a linear-attention layer's projections and convolution.
double layer_attention_params(const ModelArch& m, int layer);
// A linear-attention layer's parameters: q, k, v and the output gate from the hidden state, one row per
// value head (decay, β or Δt), the short convolution over q, k and v, and the output projection.
double linear_attention_params(const ModelArch& m);
// A model whose layers differ by kind: a per-layer FFN list, linear-attention layers, or local layers with KV
// heads of their own. Layers of one kind are counted by rule (n × one layer); mixed ones by sum_layers().
bool mixed_layers(const ModelArch& m);
// Layers [first, last) summed one by one: MoE and dense-FFN layers, attention parameters (n × one full layer's
// when all are full ones) and the K and V projections. Out of line: a model of one kind never runs it.
struct LayerSums {
  double moe = 0, dense_ffn = 0, p_attn = 0, p_kv_proj = 0;
};
LayerSums sum_layers(const ModelArch& m, int first, int last);

struct ParamCount {
  double layers = 0, moe_layers = 0, ffn_dense_layers = 0;  // layers, those with routed experts, the rest
  double expert = 0;         // one routed expert (gate, up and down projections), at the experts' width (a latent's)
  double shared_expert = 0;  // one shared expert: as a routed one, but always at the hidden width
  double latent_layer = 0;   // one MoE layer's latent down- and up-projections (0 without a latent)
  double latent_proj = 0;    // every MoE layer's: shared by the layer's routed experts, so every token runs them
  double attn_layer = 0;     // one layer's attention projections
  double attn = 0;           // every layer's
  double kv_proj = 0;        // the K and V projections (GQA/MHA), which a tensor parallel wider than the KV heads copies
  double routed_active = 0;  // the routed experts a token activates, over the MoE layers
  double routed_all = 0;     // every routed expert
  double shared = 0, router = 0, dense_ffn = 0;
  double head = 0;           // the LM head
  double emb = 0;            // the embedding: 0 for a tied model (its LM head's matrix, counted once)
  // Every backbone parameter (Engram tables are counted apart), and those one decode token activates.
  double total() const { return routed_all + shared + latent_proj + attn + router + dense_ffn + head + emb; }
  double active_decode() const { return routed_active + shared + latent_proj + attn + router + dense_ffn + head + emb; }
};

ParamCount count_params(const ModelArch& m);
// One MoE layer's latent projections: hidden → expert_latent before the routed experts, back after (0 without).
double latent_projection_params(const ModelArch& m);

}  // namespace tierscope::model
