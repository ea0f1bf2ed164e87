// Steady serving and the SSD retention it drives: each decode step also carries the prefill of arriving
// prompts, and the node persists every session's KV at that rate, with their formulas.
#include "roofline/topics.h"

namespace tierscope::model::topics {

void compute_ssd_capacity(Ctx& c, Values& v) {
  const Hardware& hw = c.s.hw;
  v[F::SsdCapacity] = hw.ssd_count * hw.ssd_tb * 1e12;
}

// After the prefix cache (the rest of the prompt is what a step's prefill carries).
void compute_serving(Ctx& c, Values& v) {
  const Workload& w = c.s.work;
  const Terms& t = c.t;
  const double batch = c.batch;
  if (w.output > 0) {
    const double new_tokens = batch * t.accepted * c.rest / w.output;
    // Mixed into decode steps, a prompt's weights are already streamed: it costs its compute, spread over
    // the data-parallel replicas.
    v[F::ServePrefillShare] = w.prompt > 0 ? new_tokens * t.prefill.t_compute() / (t.dp * w.prompt) : 0.0;
  }
  v[F::ServeTpot] = (v[F::DecodeStepTime] + v[F::ServePrefillShare]) / t.accepted;
  v[F::ServeTokensPerSGpu] = batch * t.accepted / (v[F::DecodeStepTime] + v[F::ServePrefillShare]) / t.gpus;
}

// SSD retention at the node's serving rate.
void compute_ssd_retention(Ctx& c, Values& v) {
  const Hardware& hw = c.s.hw;
  const Workload& w = c.s.work;
  Terms& t = c.t;
  if (w.output > 0) {
    t.persist_tokens_s = v[F::ServeTokensPerSGpu] * t.node_gpus * (c.rest + w.output) / w.output;
    v[F::SsdWriteRate] = t.persist_tokens_s * c.b_tok;
  }
  v[F::SsdRetentionBytes] = v[F::SsdWriteRate] * hw.retention_h * 3600.0;
  v[F::SsdDwpdNeeded] = v[F::SsdCapacity] > 0 ? v[F::SsdWriteRate] * 86400.0 / v[F::SsdCapacity] : 0.0;
  v[F::SsdRetentionHours] = v[F::SsdWriteRate] > 0 ? v[F::SsdCapacity] / v[F::SsdWriteRate] / 3600.0 : 0.0;
}

void describe_serving(Say& y) {
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  {
    const double rest = std::max(0, w.prompt - std::min(w.prefix_hit, w.prompt));
    y.set(F::ServePrefillShare, w.output > 0 ? num(w.batch) + " sessions × " + num_sig(t.accepted, 4) + " tokens × " + num(rest) + "/" + num(w.output) +
                                                   " new prompt tokens per output token × " + FL(w.prompt > 0 ? v[F::PrefillFlop] / w.prompt : 0) +
                                                   " per token / (" + y.gpus + " GPUs × " + y.peak + ")"
                                             : std::string("no output tokens"));
  }
  y.set(F::ServeTpot, "(" + y.H(F::DecodeStepTime) + " + " + y.H(F::ServePrefillShare) + ") / " + num_sig(t.accepted, 4) + " tokens per step");
  y.set(F::ServeTokensPerSGpu, num(w.batch) + " × " + num_sig(t.accepted, 4) + " / (" + y.H(F::DecodeStepTime) + " + " + y.H(F::ServePrefillShare) +
                                   ") / " + y.gpus + " GPUs");
}

void describe_ssd(Say& y) {
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  y.set(F::SsdCapacity, num(hw.ssd_count) + " × " + num(hw.ssd_tb) + " TB");
  y.set(F::SsdWriteRate, w.output > 0 ? human(v[F::ServeTokensPerSGpu], "tokens/s") + " per GPU × " + num(t.node_gpus) + " GPUs × (" +
                                            num(w.prompt - y.hit) + " new prompt + " + num(w.output) + " output tokens) / " + num(w.output) +
                                            " output × " + num(v[F::KvGlobalPerToken]) + " B/token (no sharing between sessions)"
                                      : std::string("no output tokens"));
  y.set(F::SsdRetentionBytes, y.H(F::SsdWriteRate) + " × " + num(hw.retention_h) + " h");
  y.set(F::SsdDwpdNeeded, y.H(F::SsdWriteRate) + " × 86,400 s / " + y.H(F::SsdCapacity) + " (drives rated " + num(hw.ssd_dwpd) + " per day)");
  y.set(F::SsdRetentionHours, y.H(F::SsdCapacity) + " / " + y.H(F::SsdWriteRate) + " / 3,600 s");
}

}  // namespace tierscope::model::topics
