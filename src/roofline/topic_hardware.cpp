// Hardware and rates: the GPU's catalog facts (or their overrides), the achieved rates every pass runs at,
// each kernel class's FLOP rate by its formats, and where each fact comes from.
#include "roofline/topics.h"

namespace tierscope::model::topics {

namespace {

// The catalog's facts as figures, and the rates and latencies the passes use.
void hardware_rates(Ctx& c, Values& v) {
  const Hardware& hw = c.s.hw;
  Terms& t = c.t;
  const GpuInfo& g = gpu_info(hw.gpu);
  v[F::HwHbmPerGpu] = hbm_gb_per_gpu(hw) * 1e9;
  v[F::HwHbmBwPerGpu] = hbm_tbps_per_gpu(hw) * 1e12;
  v[F::HwSramPerGpu] = g.sram_mb * 1e6;
  v[F::HwSramLatency] = hw.lat_sram_ns * 1e-9;
  t.host_bw = host_gbps(hw) * 1e9;
  t.host_lat = host_lat_us(hw) * 1e-6;
  v[F::HwHostLinkBw] = t.host_bw;
  v[F::HwLinkBw] = link_gbps(hw) * 1e9;
  v[F::HwPeakFlops] = compute_pflops_per_gpu(hw) * 1e15;
  v[F::HwSsdBwPerDrive] = hw.ssd_gbps * 1e9;
  v[F::HwHbmLatency] = hw.lat_hbm_us * 1e-6;
  v[F::HwHostDram] = hw.host_dram_gb * 1e9;
  v[F::HwHostLatency] = host_lat_us(hw) * 1e-6;
  v[F::HwSsdLatency] = hw.lat_ssd_us * 1e-6;
  c.er = engine_rates(c.s);
  t.bw_raw = v[F::HwHbmBwPerGpu];
  t.bw = t.bw_raw * c.er.gemm.bw_eff;  // plain copies stream at the saturated dense rate
  t.peak_raw = v[F::HwPeakFlops];
  t.peak = t.peak_raw * c.er.gemm.flop_eff;
  t.ssd_bw = hw.ssd_count * hw.ssd_gbps * 1e9;
  t.ssd_lat = hw.lat_ssd_us * 1e-6;
  t.nic_bw = hw.nic_gbps * 1e9;
  t.rdma_lat = hw.lat_rdma_us * 1e-6;
  t.hbm_lat = hw.lat_hbm_us * 1e-6;
  t.sram_bw = g.sram_tbps * 1e12;
  t.sram_lat = hw.lat_sram_ns * 1e-9;
  c.kernel_s = c.er.kernel_us * 1e-6;
  c.prefill_kernel_s = c.er.prefill_kernel_us * 1e-6;
  c.ramp_s = c.er.ramp_us * 1e-6;
  t.kernel_us = c.er.kernel_us;
  t.cuda_graphs = c.er.graphs;
  t.host_us = c.er.host_us;
  t.host_per_seq_us = c.er.host_per_seq_us;
  t.host_res_us = c.er.host_res_us;
}

}  // namespace

void compute_hardware(Ctx& c, Values& v) {
  const ModelArch& m = c.m;
  const Hardware& hw = c.s.hw;
  Terms& t = c.t;
  hardware_rates(c, v);
  // Each class at the rate its formats allow (scenario.h, ComputeFormat); the passes take each class's
  // achieved share at their own M (class_rates), c.peak holds the saturated shares (large M).
  const NumFormat attn_fmt = format_info(m.kv_fmt).value_bits <= 8 ? NumFormat::FP8 : NumFormat::BF16;
  const NumFormat idx_fmt = format_info(m.idx_fmt).value_bits <= 8 ? NumFormat::FP8 : NumFormat::BF16;
  c.peak_raw[0] = gemm_pflops(hw, m.dense_fmt, m.act_fmt) * 1e15;
  c.peak_raw[1] = gemm_pflops(hw, m.experts_fmt, m.act_fmt) * 1e15;
  c.peak_raw[2] = gemm_pflops(hw, attn_fmt, attn_fmt) * 1e15;
  c.peak_raw[3] = gemm_pflops(hw, idx_fmt, idx_fmt) * 1e15;
  const double share[kWorkClasses] = {c.er.gemm.flop_eff, c.er.expert.flop_eff, c.er.attn_flop, c.er.index_flop};
  for (int i = 0; i < kWorkClasses; ++i) t.peak_c[i] = c.peak[i] = c.peak_raw[i] * share[i];
  c.attn_flop_dec = 2.0 * m.q_heads * decode_attn_dims(m);
  c.attn_flop_pre = 2.0 * m.q_heads * prefill_attn_dims(m);
  c.key_flop = 2.0 * m.idx_heads * m.idx_dim;
  // Per token and head a linear-attention layer updates its d_k × d_v state and reads it out: 2 × 2·d_k·d_v.
  c.lin_flop = 4.0 * linear_state_values(m);
  // Dispatch and combine carry what the routed experts take in and give out: a latent MoE projects each token
  // down before the dispatch and back up after the combine (SGLang's Kimi K3 MoE), so both are latent-wide.
  const double width = expert_width(m);
  t.pay_dispatch = width * (1.0 + 4.0 / 128.0);
  t.pay_combine = width * 2.0;
}

// A catalog fact is its one input, said as words; a scenario input or an override is the input itself, named.
void describe_hardware(Say& y) {
  const Hardware& hw = y.hw;
  const Values& v = y.v;
  const GpuInfo& g = gpu_info(hw.gpu);
  const std::string gpu = g.label;
  const std::string link = link_info(hw.host_link).label;
  auto input = [&](F id, std::string_view key, bool overridden = false) {
    Expr e = q(v[id], figure_info(id).unit, key);
    if (overridden) e.note("override");
    y.set(id, std::move(e));
  };
  if (hw.hbm_gb > 0) input(F::HwHbmPerGpu, "hbm_gb", true);
  else y.set(F::HwHbmPerGpu, words("catalog: " + gpu));
  if (hw.hbm_tbps > 0) input(F::HwHbmBwPerGpu, "hbm_tbps", true);
  else y.set(F::HwHbmBwPerGpu, words("catalog: " + gpu));
  y.set(F::HwSramPerGpu, words("catalog: " + gpu + " L2"));
  y.set(F::HwSramLatency, std::move(q(v[F::HwSramLatency], "s", "lat_sram_ns")
                                        .note(gpu + " levels: registers " + num(g.reg_ns) + " ns, L1/shared " + num(g.l1_ns) + " ns, L2 " +
                                              num(g.l2_ns) + " ns")));
  if (hw.host_gbps > 0) input(F::HwHostLinkBw, "host_gbps", true);
  else y.set(F::HwHostLinkBw, words("catalog: " + link + " (achieved DMA rate)"));
  if (hw.link_gbps > 0) input(F::HwLinkBw, "link_gbps", true);
  else y.set(F::HwLinkBw, words("catalog: " + gpu));
  y.set(F::HwPeakFlops, words("catalog: " + gpu + " dense " +
                              (hw.compute == ComputeFormat::FP4 && g.fp4_pflops > 0 ? "FP4" : g.fp8_pflops > 0 ? "FP8" : "BF16 (no FP8 units)")));
  input(F::HwSsdBwPerDrive, "ssd_gbps");
  input(F::HwHbmLatency, "lat_hbm_us");
  input(F::HwHostDram, "host_dram_gb");
  if (hw.host_lat_us > 0) input(F::HwHostLatency, "host_lat_us", true);
  else y.set(F::HwHostLatency, words("catalog: " + link + " DMA latency"));
  input(F::HwSsdLatency, "lat_ssd_us");
}

}  // namespace tierscope::model::topics
