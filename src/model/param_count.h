// The model's parameters by part, counted from its architecture alone (no hardware, formats or workload):
// what the weights' figures build on (roofline/topic_weights.cpp), and the size that names an imported model.
#pragma once

#include "model/scenario.h"

namespace tierscope::model {

// The parameters of one layer's attention projections (query, key/value, output), by the attention's kind.
double attention_params_per_layer(const ModelArch& m);

struct ParamCount {
  double layers = 0, moe_layers = 0, ffn_dense_layers = 0;  // layers, those with routed experts, the rest
  double expert = 0;         // one routed expert (gate, up and down projections)
  double attn_layer = 0;     // one layer's attention projections
  double attn = 0;           // every layer's
  double routed_active = 0;  // the routed experts a token activates, over the MoE layers
  double routed_all = 0;     // every routed expert
  double shared = 0, router = 0, dense_ffn = 0;
  double head = 0;           // the LM head
  double emb = 0;            // the embedding: 0 for a tied model (its LM head's matrix, counted once)
  // Every backbone parameter (Engram tables are counted apart), and those one decode token activates.
  double total() const { return routed_all + shared + attn + router + dense_ffn + head + emb; }
  double active_decode() const { return routed_active + shared + attn + router + dense_ffn + head + emb; }
};

ParamCount count_params(const ModelArch& m);

}  // namespace tierscope::model
