// Inside the roofline room only: what its topic files (topic_*.cpp) share. Each topic holds one part of the
// model twice over — compute_<topic>() works out its values, describe_<topic>() writes their formulas —
// and the two drivers, compute_all (compute.cpp) and describe (describe.cpp), call the topics in order.
// Ctx is what one evaluation passes from topic to topic; Say is what describe() passes. The shared
// helpers (a layer range's work, the decode and prompt passes, the expert load) live in compute.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "model/engine.h"
#include "model/layers.h"
#include "model/parallel.h"
#include "roofline/figures.h"
#include "roofline/timing.h"

namespace tierscope::model::topics {

using F = FigureId;

// Activations cross the scale-up link in BF16; MoE dispatch goes in FP8 with one FP32 scale per 128
// values and the combine comes back in BF16 (FACTS-parallel §3.1, DeepSeek's production choice).
constexpr double kActBytes = 2.0;

// What a layer range holds, counted once: layers, MoE and dense-FFN layers, indexing and Engram layers.
struct RangeInfo {
  int first = 0, last = 0;
  double n = 0, n_moe = 0, n_dffn = 0, index_layers = 0, engram_layers = 0;
  double linear_layers = 0;  // linear-attention / SSM layers ('L'), which launch their own kernels
  double p_attn = 0;  // Σ attention (or linear-attention) parameters of its layers
};

// The expert-parallel constants of a scenario (independent of the token count), so a pass costs a few
// pows and two short sums for its expert load. `skew` is the floor busiest ÷ mean real routing puts on
// the hottest rank: route_skew without redundant slots, 1 + eplb_residual with them.
struct EpConst {
  double E = 0, k = 0, ep = 1, per_rank = 0, miss = 1, var = 0, c = 0, dest = 1, pair_miss = 0, skew = 1;
  double dest_nodes = 0;  // remote nodes one token is sent to (remote_dest_nodes), 0 inside one node
};

// expert_load() for `tokens`, from the constants (tested against it). Inline: the crossover search calls
// it in its inner loop.
inline ExpertLoad load_at(const EpConst& x, double tokens) {
  ExpertLoad l;
  if (x.E <= 0 || x.k <= 0 || tokens <= 0) return l;
  l.mean = tokens * x.k / x.ep;
  const double q = std::pow(x.miss, tokens);
  l.distinct_rank = x.per_rank * (1.0 - q);
  l.c = x.c;
  l.dest_ranks = x.dest;
  if (x.ep <= 1) {
    l.uniform = l.busiest = l.mean;
    l.distinct_uniform = l.distinct_busiest = l.distinct_rank;
    return l;
  }
  const int n = static_cast<int>(x.ep);
  l.sigma = std::sqrt(tokens * x.var);
  const double cap = tokens * std::min(x.k, x.per_rank);
  l.uniform = expected_max_count(l.mean, tokens * x.var, n, x.c, cap);
  l.busiest = std::min(cap, std::max(l.uniform, x.skew * l.mean));
  const double q2 = std::pow(x.pair_miss, tokens);
  const double var_d = (x.per_rank * (1.0 - q) * q + x.per_rank * (x.per_rank - 1.0) * (q2 - q * q)) * x.ep / (x.ep - 1.0);
  l.distinct_uniform = expected_max_distinct(x.per_rank, 1.0 - q, var_d, n, x.c);
  l.distinct_busiest = std::max(l.distinct_uniform, x.per_rank * (1.0 - std::pow(x.miss, x.skew * tokens)));
  return l;
}

// Everything the passes below share, worked out once per scenario (each topic fills its part in order).
struct Ctx {
  Ctx(const Scenario& scenario, Terms& terms) : s(scenario), m(scenario.model), t(terms), z(kv_sizes(scenario.model)) {}
  const Scenario& s;
  const ModelArch& m;
  Terms& t;
  KvSizes z;
  LayerPlan own;   // filled by plan_layers() unless the caller has the plan (uninitialised until then)
  const LayerPlan* plan_ptr = &own;
  const LayerPlan& plan() const { return *plan_ptr; }
  RangeInfo range[3];
  EpConst epc;
  double H = 0, E = 0, k = 0, L = 0;
  double attn_flop_dec = 0, attn_flop_pre = 0, key_flop = 0;  // per position / per key, whole model width
  double lin_flop = 0;  // one token through one linear-attention layer's state: update and read-out, every head
  double b_tok = 0, swa_session = 0;
  double chunk_session = 0;  // the chunked-local layers' KV of one session at ctx (each at most its chunk)
  double state_session = 0;  // one session's recurrent state over every linear-attention layer
  double kernel_s = 0;          // a decode kernel's launch floor (CUDA graphs or eager, model/engine.h)
  double prefill_kernel_s = 0;  // a prompt kernel's (eager)
  double ramp_s = 0;            // every kernel's fixed cost on top of its roofline time
  EngineRates er;               // the engine's rates and limits, resolved against its profile
  double peak_raw[kWorkClasses] = {};  // each class's tensor-core FLOP/s at its formats
  double peak[kWorkClasses] = {};      // the same × the class's saturated FLOP share (large M)
  double batch = 1;                // the decode batch, at least one session
  double hit = 0, rest = 0;        // prompt tokens found in the prefix cache, and those after them

  // Collective over n GPUs: the scale-up link inside its domain, the NIC beyond it.
  double allreduce(double n, double bytes) const {
    const bool far = n > link_domain(s.hw);
    return allreduce_time(static_cast<int>(n), bytes, far ? t.nic_bw : t.link_bw, far ? t.rdma_lat_ar : t.link_lat_ar);
  }
  // Its fixed latency alone: what it costs however few bytes it reduces.
  double allreduce_lat(double n) const {
    if (n <= 1) return 0.0;
    return n > link_domain(s.hw) ? t.rdma_lat_ar : t.link_lat_ar;
  }
};

// One replica's `tokens` tokens through layers [first, last) on the busiest GPU: FLOP, weight bytes,
// kernel floors and collectives. `moe_tokens` is how many tokens meet in each MoE layer (all replicas'
// under DP attention); `queries` tokens attend with per-query reads `r` (the attention core, the indexer).
struct Work {
  double flop_dense = 0, flop_experts = 0, flop_attn = 0, flop_index = 0;
  double flop_all = 0;  // every GPU of one replica's FLOP together, plus the experts' for all tokens
  double flop_experts_all = 0;
  double w_dense = 0, w_experts = 0;
  double floor_dense = 0, floor_experts = 0, floor_attn = 0, floor_index = 0;
  double small_dense = 0, small_experts = 0, small_attn = 0;  // small kernels' floors (EngineRates::small)
  double ar_attn = 0, ar_ffn = 0, a2a = 0;
  double comm_lat = 0;   // of them, the collectives' fixed latencies (what more tokens in the same step do not add)
  double a2a_bytes = 0;  // per MoE layer at the busiest rank, dispatch + combine
  double a2a_node_bytes = 0;  // of them, what normal kernels send over RDMA (once per remote node)
  bool a2a_ll = false;
  double ar_count_tp = 0, ar_count_moe = 0;  // all-reduces over tp (attention, dense FFN) and over the instance (MoE)
  double ar_bytes_tp = 0, ar_bytes_moe = 0;  // the bytes each reduces
  double layers = 0;
  double tokens = 0;       // the dense GEMMs' M
  double kernel_s = 0;     // one kernel's launch floor (graph or eager)
  double ramp_s = 0;       // one kernel's fixed cost on top of its roofline time
  double rows_expert = 1;  // the grouped expert GEMMs' M: rows per expert on the busiest rank
  ExpertLoad load;
  double flop() const { return flop_dense + flop_experts + flop_attn + flop_index; }
  double weights() const { return w_dense + w_experts; }
  double comm() const { return ar_attn + ar_ffn + a2a; }
};

// The shared helpers (compute.cpp).
ReadSums read_sums(const ModelArch& m, const LayerPlan& plan, int range, double ctx, const KvSizes& z);
EpConst ep_const(double E, double k, int ep, double skew = 1.0, int node_ranks = 0);
Work layers_work(const Ctx& c, int range, double tokens, double moe_tokens, const ReadSums& r, double queries, bool pre);
// Each class's achieved FLOP/s and B/s at a pass's M: dense GEMMs at `tokens`, grouped experts at
// `rows_expert` rows per expert, attention and indexer at their kernels' rates.
void class_rates(const Ctx& c, double tokens, double rows_expert, double* rate, double* bw);
// Closes a pass at the class rates of its M.
void close_at(const Ctx& c, Pass& p, double tokens, double rows_expert);
// Fills a pass's four classes from one work taken `times` times.
void add_work(Pass& p, const Work& w, double times);
// The decode step for `batch` sessions with `q` query tokens each, plus `extra` tokens of one session that
// ride along (a replayed window) reading `extra_kv` more bytes.
Pass decode_pass(const Ctx& c, double batch, double q, double extra, double extra_kv, Work* out_work = nullptr,
                 double* out_kv = nullptr);
// Fresh prompt of n tokens after `before` cached ones: causal average before the split, the last window
// (or last token) after it.
// `fw`, `ww`: the full pass's work per chunk and the window pass's; `proj`: the KV projections the layers
// from the split on still make for every prompt token (FLOP on one GPU).
PromptPasses prefill_of(const Ctx& c, double n, double before, double* chunk_w = nullptr, Work* fw = nullptr, Work* ww = nullptr,
                        double* proj = nullptr);
// A radix top-k select over `queries` queries' candidates at the kernel's rate (topic_sparse.cpp).
double topk_keys_per_s(GpuKind g);
double topk_rate(const Scenario& s);  // topk_gkeys when set, else topk_keys_per_s
double topk_call_s();                 // a top-k call's fixed time, one per selecting layer
double topk_select_time(const Ctx& c, double queries);
void add_infeasible(Terms& t, Infeasible kind, std::string_view field, double value, double limit, const char* unit, double setting);

// compute_all's first part, up to the decode step's rates (the serving replay's step timer stops there).
void compute_through_decode(Ctx& c, Values& v, const LayerPlan* given);

// The topics' values, in the order compute_all calls them (each reads what the ones before it filled).
void compute_params(Ctx& c, Values& v);          // topic_weights.cpp
void compute_kv_layout(Ctx& c, Values& v);       // topic_kv.cpp
void compute_kv_reads(Ctx& c, Values& v);
void compute_engram_tables(Ctx& c, Values& v);   // topic_engram.cpp
void compute_weights(Ctx& c, Values& v);         // topic_weights.cpp
void compute_hardware(Ctx& c, Values& v);        // topic_hardware.cpp
void compute_placement(Ctx& c, Values& v);       // topic_capacity.cpp
void compute_feasibility(Ctx& c, const Values& v);
void compute_decode_step(Ctx& c, Values& v);     // topic_decode.cpp
void compute_decode_terms(Ctx& c, Values& v);
void compute_engram_stall(Ctx& c, Values& v);    // topic_engram.cpp
void compute_decode_rates(Ctx& c, Values& v);    // topic_decode.cpp
void compute_crossover(Ctx& c, Values& v);
void compute_sparse_reads(Ctx& c, Values& v);    // topic_sparse.cpp
void compute_swa(Ctx& c, Values& v);             // topic_swa.cpp
void compute_prefill(Ctx& c, Values& v);         // topic_prefill.cpp
void compute_replay(Ctx& c, Values& v);          // topic_replay.cpp
void compute_turn_cost(Ctx& c, Values& v);       // topic_prefix.cpp
void compute_ssd_capacity(Ctx& c, Values& v);    // topic_serve.cpp
void compute_reload_path(Ctx& c, Values& v);     // topic_offload.cpp
void compute_prefix(Ctx& c, Values& v);          // topic_prefix.cpp
void compute_offload(Ctx& c, Values& v);         // topic_offload.cpp
void compute_offload_flips(Ctx& c, Values& v);
void compute_serving(Ctx& c, Values& v);         // topic_serve.cpp
void compute_ssd_retention(Ctx& c, Values& v);
void compute_handoff(Ctx& c, Values& v);         // topic_handoff.cpp

// A model with a sliding window, and one that replays it rather than caching it with the prefix.

// Numbers in words, by unit.
inline std::string B(double b) { return human(b, "B"); }
inline std::string S(double x) { return human(x, "s"); }
inline std::string FL(double x) { return human(x, "FLOP"); }
inline std::string P(double x) { return human(x, "params"); }
inline std::string fmt_label(NumFormat f) { return format_info(f).label; }

// The formulas' text as the topics write it: one per figure, whether the setup lets the figure show a number,
// and whether a topic has written it (the first writer keeps it, so topics written in any order agree).
struct FormulaPage {
  std::string text[kFigureCount];
  Expr expr[kFigureCount];
  bool shown[kFigureCount] = {};
  bool written[kFigureCount] = {};
};

// What describe() passes from topic to topic: the values, the page it fills, and the phrases many formulas
// quote, formatted once.
struct Say {
  Say(FormulaPage& page, const Computed& computed, const Scenario& scenario);
  const Scenario& s;
  const ModelArch& m;
  const Hardware& hw;
  const Workload& w;
  const Values& v;
  const Terms& t;
  FormulaPage& page;
  KvSizes z;                        // the entry sizes the values were computed from
  LayerCounts plan_counts;          // the layer plan's whole-model counts
  std::string why_not;              // why the setup cannot run (empty when it can)
  std::vector<std::string> said;    // each figure's value in words, formatted on first use
  std::string bw, peak;             // "8 TB/s × MBU 0.8", "4.5 PFLOP/s × MFU 0.5"
  std::string per_gpu_note;         // " (one GPU of 8)"
  std::string per_gpu;              // " / (bandwidth × MBU)"
  std::string tp, gpus;
  std::string link, share;          // over the host link; " / tp 4" when the KV is split
  std::string no_replay;            // why a figure of the window's replay does not apply
  bool win = false, replays = false;
  double hit = 0;                   // prompt tokens found in the prefix cache

  // A figure's value in words, formatted once: formulas quote other figures' values often.
  const std::string& H(F id) {
    std::string& h = said[static_cast<std::size_t>(id)];
    if (h.empty()) h = id == F::DecodeCrossoverBatch && v[id] == 0 ? std::string("never") : human(v[id], figure_info(id).unit);
    return h;
  }
  // "value = expression": the text rendered from the terms the value used (formula.h), or why the
  // figure is not computed.
  void set(F id, Expr e) {
    const int i = static_cast<int>(id);
    if (page.written[i]) return;
    page.written[i] = true;
    if (!page.shown[i]) {
      page.expr[i] = words("not computed: this setup cannot run (" + why_not + ")");
      page.text[i] = page.expr[i].render();
      return;
    }
    std::string& text = page.text[i];
    text = H(id);
    text += " = ";
    e.render_to(text);
    page.expr[i] = std::move(e);
  }
  // The same for a text not yet written as an expression (the formula test lists these).
  void set(F id, std::string text) { set(id, words(std::move(text))); }
  void set(F id, const char* text) { set(id, words(text)); }
  // A GPU's share of a session's attention KV: / tp where tp splits the heads, / kv_heads where each head is
  // copied on several GPUs (tp wider than the KV heads), whole where one latent is copied to every GPU.
  Expr kv_split(Expr bytes) const {
    if (t.kv_share >= 1) return bytes;
    if (t.kv_share * t.tp == 1) return std::move(bytes) / n(t.tp).named("tp");
    return std::move(bytes) / n(m.kv_heads).named("kv_heads");
  }
  // Σ over the classes with work of max(FLOP / rate, bytes / bandwidth,
  // kernels × launch floor), each class named; it evaluates to p.core() exactly.
  Expr classes_expr(const Pass& p) const;
};

// The topics' formulas (any order: each writes its own figures).
void describe_params(Say& y);          // topic_weights.cpp
void describe_kv(Say& y);              // topic_kv.cpp
void describe_placement(Say& y);       // topic_capacity.cpp
void describe_decode_experts(Say& y);  // topic_decode.cpp
void describe_decode_bytes(Say& y);
void describe_decode_terms(Say& y);
void describe_decode_rates(Say& y);
void describe_engram(Say& y);          // topic_engram.cpp
void describe_sparse_reads(Say& y);    // topic_sparse.cpp
void describe_swa(Say& y);             // topic_swa.cpp
void describe_replay(Say& y);          // topic_replay.cpp
void describe_prefill(Say& y);         // topic_prefill.cpp
void describe_prefix(Say& y);          // topic_prefix.cpp
void describe_turn_cost(Say& y);
void describe_serving(Say& y);         // topic_serve.cpp
void describe_ssd(Say& y);
void describe_hardware(Say& y);        // topic_hardware.cpp
void describe_offload(Say& y);         // topic_offload.cpp
void describe_handoff(Say& y);         // topic_handoff.cpp

}  // namespace tierscope::model::topics
