// The parameter registry's edit rules: one edit through the text setters, then what must move with it (a
// prefix hit above the prompt, tp × dp = gpus, a layout re-spread over a new GPU count), each move said
// in words; and fitting a layout to a new model.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "model/params.h"

namespace tierscope::model {

namespace {

int gcd_int(int a, int b) {
  while (b != 0) {
    const int r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// The largest divisor of n that is at most `at_most` and for which ok(d) holds (1 always qualifies).
template <class Ok>
int largest_divisor(int n, int at_most, Ok ok) {
  for (int d = std::min(n, at_most); d > 1; --d) {
    if (n % d == 0 && ok(d)) return d;
  }
  return 1;
}

void move_int(Scenario& s, const char* key, std::int32_t& field, std::int32_t to, const std::string& why, Adjustments& moved) {
  if (field == to) return;
  moved.push_back({key, std::to_string(field), std::to_string(to), why});
  field = to;
  (void)s;
}

// Spreads attention and experts over `gpus` in the style the old layout had.
void respread(Scenario& s, int old_gpus, Adjustments& moved) {
  const int n = std::max(1, s.hw.gpus);
  const ModelArch& m = s.model;
  auto tp_ok = [&](int d) { return tp_splits_heads(m, d); };
  const Parallel old = s.par;
  int tp = 1;
  if (old.tp == old_gpus) tp = largest_divisor(n, n, tp_ok);             // all tensor parallel
  else if (old.dp == old_gpus) tp = 1;                                     // all data parallel
  else tp = largest_divisor(n, std::min(n, old.tp), tp_ok);                // mixed: keep tp if it still fits
  const std::string why = "the layout is re-spread over " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
  move_int(s, "tp", s.par.tp, tp, why, moved);
  move_int(s, "dp", s.par.dp, n / tp, why, moved);
  if (m.experts > 0) {
    auto ep_ok = [&](int d) { return m.experts % d == 0; };
    const int ep = old.ep == old_gpus ? largest_divisor(n, n, ep_ok) : largest_divisor(n, std::min(n, gcd_int(n, old.ep)), ep_ok);
    move_int(s, "ep", s.par.ep, ep, why, moved);
  }
}

// True when tp, dp and ep divide what they split for this model (the layout rules of validate()).
bool layout_fits(const Scenario& s) {
  const ModelArch& m = s.model;
  const Parallel& p = s.par;
  if (p.tp < 1 || p.dp < 1 || p.ep < 1 || static_cast<long long>(p.tp) * p.dp != s.hw.gpus) return false;
  if (!tp_splits_heads(m, p.tp)) return false;
  if (s.hw.gpus % p.ep != 0) return false;
  if (m.experts == 0) return p.ep == 1 && p.redundant == 0;
  return (m.experts + p.redundant) % p.ep == 0;
}

}  // namespace

void fit_layout(Scenario& s, Adjustments& moved) {
  if (layout_fits(s)) return;
  const std::size_t first = moved.size();
  respread(s, s.hw.gpus, moved);
  const ModelArch& m = s.model;
  if (m.experts == 0) {
    move_int(s, "ep", s.par.ep, 1, "", moved);
    move_int(s, "redundant", s.par.redundant, 0, "", moved);
  } else if ((m.experts + s.par.redundant) % s.par.ep != 0) {
    move_int(s, "redundant", s.par.redundant, 0, "", moved);  // slots of the old model's experts
  }
  // Say why in the new model's terms, not the old layout's.
  const std::string gpus = std::to_string(s.hw.gpus) + (s.hw.gpus == 1 ? " GPU" : " GPUs");
  std::string heads = "tp must divide q_heads (" + std::to_string(m.q_heads) + ")";
  if (m.attn == AttnKind::MHA) heads += " and divide kv_heads (" + std::to_string(m.kv_heads) + ") or be a multiple of it";
  for (std::size_t i = first; i < moved.size(); ++i) {
    Adjustment& a = moved[i];
    if (a.field == "tp" || a.field == "dp") a.why = heads + "; tp × dp stays " + gpus;
    else if (m.experts == 0) a.why = "a model without routed experts has no expert parallel";
    else if (a.field == "ep") a.why = "ep must divide the " + std::to_string(m.experts) + " experts and the " + gpus;
    else a.why = "redundant slots must leave whole experts on each rank";
  }
}

namespace {
// The host link a GPU's usual node has (its catalog row's key), as the HostLink it names.
HostLink node_host_link(GpuKind g) {
  const std::string_view key = gpu_info(g).host_link;
  for (int i = 0; i < static_cast<int>(HostLink::Count); ++i)
    if (key == kLinks[i].key) return static_cast<HostLink>(i);
  return HostLink::Pcie5;
}
}  // namespace

bool edit_param(Scenario& s, const ParamDef& p, std::string_view text, Adjustments& moved, Error& err) {
  const std::int32_t old_gpus = s.hw.gpus;
  const GpuKind old_gpu = s.hw.gpu;
  if (p.kind == ParamKind::Text) {
    // A text key's reader may have written part of its value before refusing it: it works on a copy.
    Scenario next = s;
    if (!set_param_text(next, p, text, err)) return false;
    s = std::move(next);
  } else if (!set_param_text(s, p, text, err)) {
    // Numbers and names are written only once accepted, so no copy is needed: a sweep edits one or two
    // keys per point, and copying the scenario for each was most of a chart's redraw.
    return false;
  }
  const std::string_view key = p.key;
  Workload& w = s.work;
  if (key == "prompt" && w.prefix_hit > w.prompt) {
    move_int(s, "prefix_hit", w.prefix_hit, w.prompt, "a prefix hit is at most the prompt", moved);
  } else if (key == "prefix_hit" && w.prefix_hit > w.prompt) {
    move_int(s, "prompt", w.prompt, w.prefix_hit, "the prompt holds the prefix hit", moved);
  } else if (key == "gpus" && s.hw.gpus != old_gpus) {
    respread(s, old_gpus, moved);
  } else if (key == "tp" && s.par.tp > 0 && s.hw.gpus % s.par.tp == 0) {
    move_int(s, "dp", s.par.dp, s.hw.gpus / s.par.tp, "tp × dp = gpus", moved);
  } else if (key == "dp" && s.par.dp > 0 && s.hw.gpus % s.par.dp == 0) {
    move_int(s, "tp", s.par.tp, s.hw.gpus / s.par.dp, "tp × dp = gpus", moved);
  } else if (key == "gpu" && s.hw.host_link == node_host_link(old_gpu) && node_host_link(s.hw.gpu) != s.hw.host_link) {
    // A GPU's node brings its host link (a Grace superchip's NVLink-C2C, a PCIe 4 host): a link set by hand stays.
    const HostLink to = node_host_link(s.hw.gpu);
    moved.push_back({"host_link", kLinks[static_cast<int>(s.hw.host_link)].key, kLinks[static_cast<int>(to)].key,
                     std::string(gpu_info(s.hw.gpu).label) + " nodes reach host DRAM over " + kLinks[static_cast<int>(to)].label});
    s.hw.host_link = to;
  }
  return true;
}

}  // namespace tierscope::model
