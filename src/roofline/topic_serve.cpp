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
    // Mixed into decode steps, a prompt's weights are already streamed and the collectives' latencies paid:
    // it costs its compute and its tokens' share of the collectives' bytes, spread over the replicas.
    v[F::ServePrefillShare] = w.prompt > 0 ? new_tokens * t.prefill.t_riding() / (t.dp * w.prompt) : 0.0;
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
  const double rest = std::max(0, w.prompt - std::min(w.prefix_hit, w.prompt));
  const Expr accepted = sig(t.accepted, 4, "tokens per step");
  if (w.output <= 0) {
    y.set(F::ServePrefillShare, words("no output tokens"));
  } else if (w.prompt <= 0) {
    y.set(F::ServePrefillShare, words("no prompt tokens"));
  } else {
    // The prompt's compute on the busiest GPU, class by class at the rate each class reaches in each of the
    // prompt's passes (its formats', at the pass's rows).
    std::vector<Expr> parts;
    const Pass* passes[] = {&t.prefill.full, &t.prefill.win};
    for (const Pass* pass : passes) {
      for (int i = 0; i < kWorkClasses; ++i) {
        const double f = pass->flop_c[i];
        if (f > 0 && pass->rate_c[i] > 0) parts.push_back((q(f, "FLOP") / q(pass->rate_c[i], "FLOP/s")).named(work_class_name(static_cast<WorkClass>(i))));
      }
    }
    const double bytes_s = t.prefill.t_riding() - t.prefill.t_compute();
    if (bytes_s > 0) parts.push_back(q(bytes_s, "s", "collectives beyond their latency"));
    Expr compute = sum_of(std::move(parts));
    compute.named("the prompt's compute and collective bytes");
    Expr e = n(y.s.work.batch, "sessions") * accepted * n(rest, "new prompt tokens") / n(w.output, "output tokens") / n(t.dp, "replicas") * compute /
             n(w.prompt, "prompt tokens");
    e.note(std::string("mixed into decode steps a prompt's weights are streamed and the collectives' latencies paid anyway") +
           (t.dp > 1 && t.moe_layers > 0 ? "; the experts' share already holds every replica's tokens" : ""));
    y.set(F::ServePrefillShare, std::move(e));
  }
  const Expr step = q(v[F::DecodeStepTime], "s", "decode step") + q(v[F::ServePrefillShare], "s", "prefill share");
  y.set(F::ServeTpot, step / accepted);
  y.set(F::ServeTokensPerSGpu, n(y.s.work.batch, "sessions") * accepted / step / n(t.gpus, "GPUs"));
}

void describe_ssd(Say& y) {
  const Hardware& hw = y.hw;
  const Terms& t = y.t;
  const Values& v = y.v;
  const Workload& w = y.w;
  y.set(F::SsdCapacity, n(hw.ssd_count, "drives") * q(hw.ssd_tb * 1e12, "B"));
  if (w.output > 0) {
    Expr e = q(v[F::ServeTokensPerSGpu], "tokens/s", "per GPU") * n(t.node_gpus, "GPUs") *
             (n(w.prompt - y.hit, "new prompt tokens") + n(w.output, "output tokens")) / n(w.output, "output tokens") *
             q(v[F::KvGlobalPerToken], "B", "per token");
    e.note("no sharing between sessions");
    y.set(F::SsdWriteRate, std::move(e));
  } else {
    y.set(F::SsdWriteRate, words("no output tokens"));
  }
  const Expr rate = q(v[F::SsdWriteRate], "B/s", "written");
  y.set(F::SsdRetentionBytes, rate * q(hw.retention_h * 3600.0, "s"));
  if (v[F::SsdCapacity] > 0) {
    y.set(F::SsdDwpdNeeded, (rate * q(86400, "s") / q(v[F::SsdCapacity], "B")).note("drives rated " + num(hw.ssd_dwpd) + " per day"));
  } else {
    y.set(F::SsdDwpdNeeded, words("no SSDs"));
  }
  if (v[F::SsdWriteRate] > 0) y.set(F::SsdRetentionHours, q(v[F::SsdCapacity], "B") / rate / n(3600, "s per hour"));
  else y.set(F::SsdRetentionHours, words("nothing is written"));
}

}  // namespace tierscope::model::topics
