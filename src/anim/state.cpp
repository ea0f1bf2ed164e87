// state_at(): applies the ledger's residency changes up to a step, in closed form over its entries.
#include "anim/state.h"

#include <algorithm>
#include <cmath>

namespace tierscope::anim {

StepState state_at(const Ledger& ledger, int step, double fraction) {
  StepState st;
  st.path = ledger.path;
  st.steps = static_cast<int>(ledger.entries.size());
  st.total = ledger.total;
  for (int i = 0; i < kObjectCount; ++i) {
    const Resident& r = ledger.start[static_cast<std::size_t>(i)];
    st.objects[static_cast<std::size_t>(i)] = {static_cast<ObjectKind>(i), r.tier, r.bytes, r.tokens, r.capacity, false};
  }
  if (st.steps > 0) {
    st.step = std::clamp(step, 0, st.steps - 1);
    st.fraction = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
    for (int i = 0; i <= st.step; ++i) {
      const LedgerEntry& e = ledger.entries[static_cast<std::size_t>(i)];
      const double w = i < st.step ? 1.0 : st.fraction;
      for (const Change& c : e.changes) {
        if (c.object == ObjectKind::Count) continue;
        ObjectState& o = st.objects[static_cast<std::size_t>(c.object)];
        // Clamp at zero: a partly applied removal never shows negative sizes.
        o.bytes = std::max(0.0, o.bytes + w * c.bytes);
        o.tokens = std::max(0.0, o.tokens + w * c.tokens);
      }
      st.counters.engram_rows += w * e.engram_rows;
    }
    const LedgerEntry& e = ledger.entries[static_cast<std::size_t>(st.step)];
    st.entry = &e;
    st.t_model = e.t_start + st.fraction * e.duration;
    st.highlight = e.highlight;
    // The kernel working set exists only while a kernel runs: the active entry's bytes pass through it, but
    // a stream larger than the on-chip memory passes in tiles, so at most its capacity sits there at once.
    if (e.object == ObjectKind::WorkingSet || e.to == Endpoint::Sram) {
      ObjectState& ws = st.objects[static_cast<std::size_t>(ObjectKind::WorkingSet)];
      ws.bytes = ws.capacity > 0 ? std::min(e.bytes, ws.capacity) : e.bytes;
    }
    st.packet = {true, e.from, e.to, e.object, e.bytes, e.flop, st.fraction};
  }
  for (ObjectState& o : st.objects) o.highlighted = st.highlight.has(o.kind);
  const ObjectState& kv = st.objects[static_cast<std::size_t>(ObjectKind::GlobalKv)];
  const ObjectState& swa = st.objects[static_cast<std::size_t>(ObjectKind::SwaWindow)];
  st.counters.global_kv_tokens = kv.tokens;
  st.counters.global_kv_bytes = kv.bytes;
  st.counters.swa_kv_tokens = swa.tokens;
  st.counters.swa_kv_bytes = swa.bytes;
  return st;
}

}  // namespace tierscope::anim
