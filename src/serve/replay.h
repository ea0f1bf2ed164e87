// The serving replay's state inside the serve room: a request, an instance and the Replay that runs them
// (its event loop and admission: serve_sim.cpp; its set-up, lengths and result: replay_setup.cpp; a request's
// arrival, routing, first token, preemption and completion:
// replay_requests.cpp). Not for other rooms: serve.h is the room's face.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "model/engine.h"
#include "roofline/handoff.h"
#include "roofline/step_mix.h"
#include "serve/prefill_pool.h"
#include "serve/serve.h"
#include "serve/serve_prefix.h"
#include "sim/rng.h"

namespace tierscope::serve::replay {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct Request {
  std::uint32_t id = 0;
  double arrival = 0, first = -1, last = 0;
  int prompt = 0, output = 0, prefilled = 0, generated = 0;
  int chunk = 0;  // tokens of its prompt in the step running now
  // TTFT's parts: when the scheduler saw it, when the step in flight then ended, when it was admitted.
  double ready = 0, inflight_end = 0, admitted = 0;
  // KV the instance holds for it, in tokens (its reservation under Reserve), and, after a preemption, its
  // tokens out that must be recomputed with its prompt before it decodes again.
  double held = 0;
  int recompute = 0;
  bool requeued = false;  // preempted once: its admission queue was counted at its first admission
  PrefillPass pd;   // disaggregated: its prefill pass and the KV's hand-off to the decode pool
  double intake = 0;  // disaggregated: the decode worker's own front end for its decode request
  PrefixPart pfx;   // a shared-prefix workload: its shared parts, its hit and its reload
  double ttft = 0;  // its TTFT, held against the objective when it completes
};

// The tokens a request's prompt pass covers: its prompt, and after a preemption its tokens out as well.
inline int fill_of(const Request& q) { return q.prompt + q.recompute; }

struct Instance {
  std::deque<std::uint32_t> waiting;   // slots, first come first served
  std::vector<std::uint32_t> running;  // admitted, in admission order
  double kv_used = 0;
  double ratio = 0;  // Estimated admission: the share of their remaining outputs the running requests will write
  bool busy = false;
  double end = kInf;
  std::vector<std::uint32_t> dec, pre;  // the step in flight
  std::int64_t record = -1;             // its record in the kept steps, or -1
};

class Replay {
 public:
  Replay(const model::Scenario& s, const ServeSpec& spec, ServeResult& r, const model::Scenario* prefill = nullptr)
      : s_(s), spec_(spec), r_(r), timer_(s), prefill_scenario_(prefill) {}
  bool setup(model::Errors& errors);
  void begin();
  // Runs up to `events` events (a step's end or an arrival); true once nothing is left (the result is final).
  bool advance(std::uint64_t events);
  double progress() const;
  std::uint64_t total() const { return total_; }

 private:
  void issue(double t);
  void route(std::uint32_t slot, double t);
  void add_ttft(Request& q, double t, StepRecord* step = nullptr);
  void first_from_pool(Request& q, double t, StepRecord* step);
  double front_end(double t, int prompt);
  // The step loop's own: defined in serve_sim.cpp and called only there, always inlined into the loop as the
  // compiler did when the Replay was one file's (left out of line, validate ran 5-6 % slower; inlined, the same).
  [[gnu::always_inline]] inline void start_step(int i, double t);
  [[gnu::always_inline]] inline void admit(Instance& in, double t);
  [[gnu::always_inline]] inline bool make_room(Instance& in);
  [[gnu::always_inline]] inline void finish_step(int i, double t);
  [[gnu::always_inline]] inline std::uint64_t coast(Instance& in, std::uint64_t most);
  void preempt(Instance& in, std::size_t k);
  void complete(Instance& in, Request& q, double t);
  // Tokens one decoding session takes in a step: 1 + its drafts accepted in a row. Here, not in a .cpp: the
  // step's loop calls it once per session, and inlined it keeps the replay as fast as in one file.
  int draw_accepted() {
    int k = 1;
    for (int i = 0; i < drafts_ && accept_.uniform() < p_accept_; ++i) ++k;
    return k;
  }
  void draw_lengths(std::uint32_t id, int& prompt, int& output);
  void finish();

  const model::Scenario& s_;
  const ServeSpec& spec_;
  ServeResult& r_;
  model::StepTimer timer_;
  const model::Scenario* prefill_scenario_;          // pd: the prefill workers' layout (null: the instance's)
  std::unique_ptr<model::StepTimer> prefill_timer_;  // its step model
  double pass_seconds(int prompt) { return (prefill_timer_ ? *prefill_timer_ : timer_).chunk(prompt, 0).alone; }
  double prefill_replica_gpus_ = 1;                  // GPUs of one prefill worker
  std::vector<Request> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<Instance> inst_;
  sim::Rng arrivals_, accept_;
  double p_accept_ = 0;
  bool first_ = false;  // prefill-first steps
  bool none_ = false;   // prompts arrive cached (a decode pool)
  bool pd_ = false;     // prompts run in a prefill pool of their own, then join the decode pool
  Admission admission_ = Admission::Reserve;
  TokenRatio ratio_;
  PrefillPool pool_;
  model::HandoffModel handoff_;
  bool first_from_decode_ = false;  // pd: the decode instance's first step yields the first token
  double intake_s_ = 0;             // pd: the decode worker's front end on the first token's path
  // Prompts in the prefill pool: (when the first token is out, slot), the earliest first.
  std::priority_queue<std::pair<double, std::uint32_t>, std::vector<std::pair<double, std::uint32_t>>, std::greater<>> handoffs_;
  double prefill_gpu_s_ = 0;  // the prefill pool's GPU-seconds for the requests completed
  double overhead_s_ = 0, overhead_token_s_ = 0, front_free_ = 0;  // the engine's front end per request
  int drafts_ = 0, q_ = 1, input_ = 0, output_ = 0, max_pos_ = 0;
  // A session's own state whatever its length (a hybrid model's recurrent state, a chunked model's chunks),
  // in tokens of KV at the per-GPU rate: each request reserves it beside its prompt + output.
  double state_tokens_ = 0;
  double reserve(const Request& q) const { return static_cast<double>(q.prompt) + q.output + state_tokens_; }
  std::uint64_t total_ = 0, issued_ = 0;
  double next_arrival_ = kInf, in_flight_ = 0, area_ = 0, t_ = 0;
  Histogram ttft_, tpot_, itl_, e2e_, queue_;
  Histogram part_overhead_, part_wait_, part_queue_, part_prefill_, part_transfer_, part_admission_;
  std::uint64_t slo_met_ = 0;
  ServePrefix prefix_;  // the shared-prefix workload and the prefix cache (serve_prefix.h)
  int index_of(const Instance& in) const { return static_cast<int>(&in - inst_.data()); }
  // Data-parallel attention: each request runs on one attention replica (rank), taken in turn as the requests
  // reach the engine; each rank fills its own token budget, and a step lasts as long as its busiest rank, as
  // every rank's forward pass is aligned with the others' at the experts (vLLM: each DP rank its own engine core
  // and scheduler, https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/; SGLang's data-parallel
  // controller hands each request to one rank, load_balance_method "round_robin" by default in its
  // python/sglang/srt/server_args.py; TensorRT-LLM's attention-DP ranks each hold their own requests and KV cache).
  int ranks_ = 1;
  std::vector<double> rank_left_, rank_busy_;  // a step's budget left and prompt compute, per rank (scratch)
  std::size_t rank_of(const Request& q) const { return q.id % static_cast<std::uint32_t>(ranks_); }
};

// The step model at the run's own lengths: batch 1 (the replay sets each step's), the mean context of a
// request's decode.
void at_run_lengths(const model::Scenario& s, const ServeSpec& spec, model::Scenario& base);
// False with errors when the spec cannot run at all; else `base` is the scenario at the run's lengths.
bool check_spec(const model::Scenario& s, const ServeSpec& spec, model::Scenario& base, model::Errors& errors);

}  // namespace tierscope::serve::replay
