// The ways out of a setup that cannot run: each candidate edit is tried as edit_param would make it and
// judged by compute_values, so every fix offered is one the model itself says runs.
#include "roofline/fixes.h"

#include <algorithm>
#include <functional>

#include "base/text.h"
#include "model/params.h"
#include "roofline/figures.h"

namespace tierscope::model {

namespace {

// More GPUs than this are never proposed: a fix should stay within a few racks.
constexpr int kMaxFixGpus = 1024;

// How far a scenario is from running: its number of reasons (0: it runs).
int reasons(const Scenario& s) {
  Computed c;
  compute_values(s, c);
  return c.terms.infeasible_count;
}

// `s` with `key` set to `value` as a person's edit sets it (dependents follow), or false when the edit or
// the cross-field check refuses it.
bool edited(const Scenario& s, std::string_view key, long long value, Scenario& out) {
  const ParamDef* def = find_param(key);
  if (!def) return false;
  out = s;
  Adjustments moved;
  Error err;
  if (!edit_param(out, *def, std::to_string(value), moved, err)) return false;
  return validate(out).empty();
}

using Goal = std::function<bool(const Scenario&)>;

bool reaches(const Scenario& s, std::string_view key, long long value, const Goal& goal) {
  Scenario next;
  return edited(s, key, value, next) && goal(next);
}

// The largest value in [lo, hi] that reaches the goal, assuming a smaller value never does worse (less
// context, fewer sessions); 0 when none does.
long long largest(const Scenario& s, std::string_view key, long long lo, long long hi, const Goal& goal) {
  if (hi < lo) return 0;
  if (reaches(s, key, hi, goal)) return hi;
  if (!reaches(s, key, lo, goal)) return 0;
  while (hi - lo > 1) {  // lo reaches, hi does not
    const long long mid = lo + (hi - lo) / 2;
    (reaches(s, key, mid, goal) ? lo : hi) = mid;
  }
  return lo;
}

// The first of `candidates` (ascending) that reaches the goal; 0 when none does.
long long first(const Scenario& s, std::string_view key, const std::vector<long long>& candidates, const Goal& goal) {
  for (long long v : candidates)
    if (reaches(s, key, v, goal)) return v;
  return 0;
}

// GPU counts above `gpus`: every power of two and every whole number of nodes, up to kMaxFixGpus.
std::vector<long long> more_gpus(const Scenario& s) {
  std::vector<long long> out;
  const int node = std::max(1, node_gpus(s.hw));
  for (long long g = s.hw.gpus + 1; g <= kMaxFixGpus; ++g) {
    if ((g & (g - 1)) == 0 || g % node == 0) out.push_back(g);
  }
  return out;
}

// Divisors of the GPU count above `now` (tensor or expert parallel over more of the same GPUs).
std::vector<long long> wider(const Scenario& s, int now) {
  std::vector<long long> out;
  for (int d = now + 1; d <= s.hw.gpus; ++d)
    if (s.hw.gpus % d == 0) out.push_back(d);
  return out;
}

void add(std::vector<SetupFix>& out, std::string field, long long value, std::string label, std::string why) {
  out.push_back(SetupFix{std::move(field), std::to_string(value), std::move(label), std::move(why)});
}

void find_fixes(const Scenario& s, const Terms& t, const Goal& goal, std::vector<SetupFix>& out) {
  bool ctx = false, prompt = false, room = false, batch = false;
  for (int i = 0; i < t.infeasible_count; ++i) {
    switch (t.infeasible[i].kind) {
      case Infeasible::CtxOverMaxPos: ctx = true; break;
      case Infeasible::PromptOverMaxPos: prompt = true; break;
      case Infeasible::KvDoesNotFit: ctx = room = true; break;
      case Infeasible::BatchOverCapacity: batch = room = true; break;
      case Infeasible::WeightsDoNotFit: room = true; break;
      case Infeasible::Count: break;
    }
  }
  const Workload& w = s.work;
  const int max_pos = s.model.max_pos;
  if (ctx || batch) {
    const long long hi = max_pos > 0 && w.ctx > max_pos ? max_pos : w.ctx - 1;
    if (const long long v = largest(s, "ctx", 1, hi, goal); v > 0) {
      add(out, "ctx", v, "set ctx to " + num(static_cast<double>(v)),
          v == max_pos ? "the model's " + num(max_pos) + " trained positions" : "the largest context that fits HBM");
    }
  }
  if (prompt) {
    const long long hi = std::min<long long>(w.prompt - 1, max_pos);
    if (const long long v = largest(s, "prompt", 0, hi, goal); v > 0)
      add(out, "prompt", v, "set prompt to " + num(static_cast<double>(v)), "the model's " + num(max_pos) + " trained positions");
  }
  if (batch) {
    if (const long long v = largest(s, "batch", 1, w.batch - 1, goal); v > 0)
      add(out, "batch", v, "set batch to " + num(static_cast<double>(v)), "the most sessions HBM holds at this context");
  }
  if (room) {
    if (const long long v = first(s, "tp", wider(s, s.par.tp), goal); v > 0) {
      add(out, "tp", v, "use tp " + std::to_string(v) + (v == s.hw.gpus ? " (one instance of " : " (instances of ") + std::to_string(v) + " GPUs)",
          "tensor parallel over more GPUs holds more of the weights");
    }
    if (s.model.experts > 0) {
      if (const long long v = first(s, "ep", wider(s, s.par.ep), goal); v > 0)
        add(out, "ep", v, "use ep " + std::to_string(v), "the experts spread over more GPUs");
    }
    if (const long long v = first(s, "gpus", more_gpus(s), goal); v > 0)
      add(out, "gpus", v, "use " + std::to_string(v) + " GPUs", "the fewest GPUs (a power of two or whole nodes) that hold it");
  }
}

}  // namespace

bool setup_runs(const Scenario& s) { return reasons(s) == 0; }

std::vector<SetupFix> setup_fixes(const Scenario& s) {
  std::vector<SetupFix> out;
  Computed c;
  compute_values(s, c);
  const Terms& t = c.terms;
  if (t.feasible()) return out;
  // A fix that makes the setup run; failing that, one that takes away at least one of its reasons.
  find_fixes(s, t, [](const Scenario& next) { return setup_runs(next); }, out);
  if (out.empty()) {
    const int now = t.infeasible_count;
    find_fixes(s, t, [now](const Scenario& next) { return reasons(next) < now; }, out);
  }
  return out;
}

}  // namespace tierscope::model
