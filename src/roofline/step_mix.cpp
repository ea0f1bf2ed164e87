// StepTimer: the decode step and a prompt chunk, each through the topic functions the figures use, memoised
// on (sessions, context bucket) and (chunk bucket, position bucket).
#include "roofline/step_mix.h"

#include "roofline/topics.h"

namespace tierscope::model {

namespace {

std::uint64_t key2(double a, double b) {
  return (static_cast<std::uint64_t>(a) << 32) ^ static_cast<std::uint64_t>(b);
}

}  // namespace

double StepTimer::bucket(double x) {
  if (x <= 64) return std::max(0.0, std::round(x));
  // frexp, not log2: exact on every platform, so the page and the command line round alike.
  int e = 0;
  std::frexp(x, &e);
  const double step = std::ldexp(1.0, e - 1) / 64.0;
  return std::round(x / step) * step;
}

StepTimer::StepTimer(const Scenario& base) : point_(base) {
  plan_layers(base.model, plan_);
  compute_values(base, plan_, base_figures_, kScopeAll);
}

DecodeCost StepTimer::decode(int decodes, double ctx) {
  const double c = std::max(1.0, bucket(ctx));
  const std::uint64_t k = key2(std::max(1, decodes), c);
  if (auto it = decodes_.find(k); it != decodes_.end()) return it->second;
  ++evaluations_;
  point_.work.batch = std::max(1, decodes);
  point_.work.ctx = static_cast<std::int32_t>(std::min(c, 2147483647.0));
  Terms t;
  Values v;
  topics::Ctx cx(point_, t);
  topics::compute_through_decode(cx, v, &plan_);
  DecodeCost d;
  d.seconds = v[FigureId::DecodeStepTime];
  d.accepted = t.accepted;
  d.bound = bound_name(t.step);
  decodes_.emplace(k, d);
  return d;
}

ChunkCost StepTimer::chunk(double tokens, double before) {
  const double n = std::max(1.0, bucket(tokens)), b = bucket(before);
  const std::uint64_t k = key2(n, b);
  if (auto it = chunks_.find(k); it != chunks_.end()) return it->second;
  ++evaluations_;
  // A prompt pass does not depend on the decode batch: the base scenario's context is enough. One pass
  // per chunk: the engine schedules at most one chunk of a prompt per step.
  point_.work.batch = 1;
  point_.work.ctx = static_cast<std::int32_t>(std::min(b + n, 2147483647.0));
  point_.work.chunk = static_cast<std::int32_t>(std::min(n, 2147483647.0));
  Terms t;
  Values v;
  topics::Ctx cx(point_, t);
  topics::compute_through_decode(cx, v, &plan_);
  const PromptPasses pp = topics::prefill_of(cx, n, b);
  ChunkCost out;
  out.alone = pp.time();
  out.compute = pp.t_riding() / std::max(1.0, t.dp);
  out.rank = pp.t_riding();
  for (const Pass* pass : {&pp.full, &pp.win}) {
    for (int i = 0; i < kWorkClasses; ++i) out.host += pass->floor_c[i] + pass->small_c[i];
  }
  out.bound = bound_name(pp.full.time() >= pp.win.time() ? pp.full : pp.win);
  chunks_.emplace(k, out);
  return out;
}

}  // namespace tierscope::model
