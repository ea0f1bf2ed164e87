// State at a ledger step: counters, what sits in which tier, the highlight and the packet in flight.
#pragma once

#include <array>

#include "anim/ledger.h"

namespace tierscope::anim {

// One state object as the hierarchy overlay draws it.
struct ObjectState {
  ObjectKind kind = ObjectKind::Count;
  Endpoint tier = Endpoint::Hbm;
  double bytes = 0;     // resident bytes at this moment
  double tokens = 0;    // tokens those bytes cover (KV objects), 0 otherwise
  double capacity = 0;  // reserved footprint, 0 if none
  bool highlighted = false;
};

// The header counters. Global KV and SWA KV follow the objects; Engram rows count reads so far.
struct Counters {
  double global_kv_tokens = 0, global_kv_bytes = 0;
  double swa_kv_tokens = 0, swa_kv_bytes = 0;
  double engram_rows = 0;
};

// The move drawn travelling from one endpoint to the other.
struct Packet {
  bool active = false;
  Endpoint from = Endpoint::Hbm, to = Endpoint::Hbm;
  ObjectKind object = ObjectKind::Count;
  double bytes = 0;     // the entry's bytes
  double flop = 0;      // the entry's compute
  double progress = 0;  // 0 at the source, 1 at the destination
};

struct StepState {
  PathId path = PathId::Decode;
  int step = 0;          // the active entry (0 when the path is empty)
  int steps = 0;         // number of entries
  double fraction = 0;   // progress within the active entry, [0, 1]
  double t_model = 0;    // model seconds since the path began
  double total = 0;      // the path's model seconds
  const LedgerEntry* entry = nullptr;  // the active entry, or nullptr for an empty path
  Counters counters;
  std::array<ObjectState, kObjectCount> objects{};
  Highlight highlight;
  Packet packet;
};

// Closed form over the ledger (no per-token work): the changes of entries before `step` apply in full,
// the active entry's by `fraction`, so counters grow smoothly while a step plays. `step` and `fraction`
// are clamped. The returned entry pointer refers into `ledger`.
StepState state_at(const Ledger& ledger, int step, double fraction);

}  // namespace tierscope::anim
