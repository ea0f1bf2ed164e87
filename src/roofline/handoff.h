// The prefill→decode hand-off of a disaggregated deployment: the prompt's KV as the decode instance stores
// it (with the copies tensor parallelism keeps, an MLA latent sent once to each rank that holds it, prefill TP
// ≠ decode TP resharded), its pages and descriptors, and the time it takes over the NICs (or NVLink inside one
// domain): a fixed cost per transfer + a cost per descriptor + bytes ÷ (links × rate × efficiency), of which
// a layer-wise or chunk-wise push hides what the prefill's own time covers. The figures (pd.*) and the
// serving replay's prefill pool (serve/serve_pd.cpp) both time a hand-off through HandoffModel, so the two
// can never disagree.
#pragma once

#include <cstdint>
#include <string>

#include "model/layers.h"
#include "model/scenario.h"

namespace tierscope::model {

// A transfer engine: what an engine moves the KV with, and the costs it adds to the bytes' own time.
struct TransferEngine {
  const char* name;      // "NIXL (vLLM NixlConnector)"
  int page;              // tokens per KV page the engine allocates and the transfer moves
  double fixed_s;        // one request's transfer: set-up, metadata and the completion notice
  double desc_s;         // one descriptor (one page of one layer, K and V apart where they are stored apart)
  PdOverlap overlap;     // what of the transfer overlaps the prefill by default
  bool sends_copies;     // every prefill rank sends the KV heads it holds (push), copies included; else each
                         // decode rank reads what it stores (pull)
  bool reshard_per_token;  // prefill TP ≠ decode TP moves each token's head slice as its own descriptor
  bool first_from_decode;  // the decode instance computes the first token again (a step) before it streams
  const char* source;
};
const TransferEngine& transfer_engine(EngineKind e);

// Achieved share of a NIC's line rate for large one-sided RDMA transfers (0.85, sourced in topic_handoff.cpp).
double default_rdma_eff();

// One request's hand-off, at its prompt length.
struct HandoffCost {
  double tokens = 0;         // prompt tokens whose KV moves
  double bytes = 0;          // every byte that crosses (pd.kv_bytes)
  double stored = 0;         // the prompt's KV once, as one copy of the model's layers stores it
  double copies = 1;         // bytes ÷ stored: the copies tensor parallelism sends
  double pages = 0;          // pages of the prompt (pd.pages)
  double descriptors = 0;    // descriptors one sending rank posts
  double desc_s = 0;         // the cost of one
  double links = 1;          // links carrying it at once (one per sending GPU, at most one per receiving GPU)
  double link_bw = 0;        // achieved bytes/s per link
  double wire_s = 0;         // descriptors' cost + bytes ÷ (links × link_bw): the transfer on its own (pd.wire_time)
  double parts = 1;          // the pieces the push sends as the prefill goes (1: all at its end)
  double exposed_s = 0;      // what the first token waits for after the prefill, fixed cost included (pd.transfer_time)
};

// Everything a hand-off's time depends on but the prompt, worked out once per scenario (the decode side)
// and prefill layout. `prefill_tp` 0: the scenario's own pd.prefill_tp (else its tp). `pool_gpus`: every GPU of
// both pools (0: one prefill worker of that TP beside the scenario's instance), which decides whether they
// share one NVLink domain. `plan`: the model's layer plan when the caller has it.
class HandoffModel {
 public:
  HandoffModel() = default;
  HandoffModel(const Scenario& decode, int prefill_tp = 0, int pool_gpus = 0, const LayerPlan* plan = nullptr);
  // The hand-off of a prompt of `tokens` whose prefill took `prefill_s` in `chunks` passes.
  HandoffCost cost(double tokens, double prefill_s, double chunks) const;
  // The same without the overlap (what the link carries, for a link shared by several requests).
  double wire_seconds(double tokens) const { return cost(tokens, 0, 1).wire_s; }
  double fixed_seconds() const { return fixed_s_; }
  bool nvlink() const { return nvlink_; }
  PdOverlap overlap() const { return overlap_; }
  double kv_layers() const { return kv_layers_; }
  bool first_from_decode() const { return first_from_decode_; }
  int prefill_tp() const { return tp_p_; }
  int decode_tp() const { return tp_d_; }
  double copies() const { return copies_; }
  double page() const { return page_; }
  const char* engine_name() const { return engine_; }

 private:
  double per_token_ = 0;   // bytes per prompt token of the layers that keep every token (global KV, index keys)
  double state_ = 0;       // a session's recurrent state (linear layers), whatever the length
  double swa_entry_ = 0;   // one windowed layer's entry per token
  int spans_[kMaxLayers] = {};  // each windowed or chunked layer's span (tokens it keeps)
  int n_spans_ = 0;
  double kv_layers_ = 0;   // layers whose KV moves (descriptors per page)
  double parts_per_layer_ = 1;  // K and V apart (MHA) or one latent
  double copies_ = 1, links_ = 1, link_bw_ = 0, page_ = 16, fixed_s_ = 0, desc_s_ = 0, desc_tokens_ = 1;
  int tp_p_ = 1, tp_d_ = 1;
  bool nvlink_ = false, first_from_decode_ = false;
  PdOverlap overlap_ = PdOverlap::Off;
  const char* engine_ = "";
};

}  // namespace tierscope::model
