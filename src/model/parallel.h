// Expert coverage and balance under uniform routing, and the cost of the collectives a parallel layout
// needs: pure closed-form functions the decode, prefill and replay timings share.
#pragma once

#include "model/scenario.h"

namespace tierscope::model {

// Expected distinct experts touched in one MoE layer when `tokens` tokens each pick k of E experts
// uniformly: E·(1 − (1 − k/E)^tokens). Tokens may be fractional (an average).
double distinct_experts(double E, double k, double tokens);

// Expected maximum of n independent standard normal variables, by Blom's plotting position
// Φ⁻¹((n − 0.375)/(n + 0.25)) (within 1 % of the exact value for n = 2..4096; 0 for n ≤ 1).
double expected_max_normal(int n);
// The standard normal quantile Φ⁻¹(p), 0 < p < 1 (rational approximation, relative error < 1.2e-9).
double normal_quantile(double p);

// The expected maximum over n exchangeable ranks of a token-expert count with mean mu and effective
// variance var (the ranks' counts sum to a fixed total, so var already carries the n/(n − 1) of
// equicorrelated ranks), at most cap. The shape is Poisson's (its expected maximum summed exactly below a
// mean of 8, Cornish-Fisher's μ + c√μ + (c² − 1)/6 above), its spread scaled to √var: within a few % of a
// Monte Carlo of uniform top-k routing from one token up (tests/native/model/test_parallel.cpp).
double expected_max_count(double mu, double var, int n, double c, double cap);
// The expected maximum over n ranks of the distinct experts touched on a rank holding `slots` experts, each
// touched with chance p (so a binomial shape of slots trials), with effective variance var: summed
// exactly while slots·p·(1 − p) ≤ 25, Cornish-Fisher above; at most `slots`.
double expected_max_distinct(double slots, double p, double var, int n, double c);

// How one MoE layer's token-expert assignments fall on `ep` expert-parallel ranks holding E/ep experts
// each, for `tokens` tokens each picking k distinct experts uniformly at random, with the routing's skew
// as a floor: real traffic puts `skew` × the mean on its hottest rank (1 = uniform routing).
struct ExpertLoad {
  double mean = 0;      // assignments per rank: tokens·k/ep
  double sigma = 0;     // their effective standard deviation: √(tokens·k·(1/ep)(E − k)/(E − 1))
  double c = 0;         // expected max of ep standard normals (Blom)
  double uniform = 0;   // expected assignments on the busiest rank under uniform routing (expected_max_count)
  double busiest = 0;   // expected assignments on the busiest rank: max(uniform, skew × mean), at most tokens·min(k, E/ep)
  double distinct_rank = 0;      // expected distinct experts touched on one rank: (E/ep)·(1 − (1 − k/E)^tokens)
  double distinct_uniform = 0;   // expected distinct experts on the rank touching most, uniform routing
  double distinct_busiest = 0;   // max(distinct_uniform, (E/ep)·(1 − (1 − k/E)^(skew·tokens))): what it streams
  double dest_ranks = 0;     // expected distinct ranks one token is sent to: ep·(1 − C(E − E/ep, k)/C(E, k))
  double imbalance() const { return mean > 0 ? busiest / mean - 1.0 : 0.0; }
};
ExpertLoad expert_load(double E, double k, int ep, double tokens, double skew = 1.0);

// Expected distinct nodes other than the sender's that one token's k experts sit on, the E experts spread
// evenly over ep ranks of `node_ranks` each: (N − 1)·(1 − C(E − E/N, k)/C(E, k)), N = ⌈ep ÷ node_ranks⌉.
// DeepEP's normal kernels send a token once per such node over RDMA and fan it out over NVLink there.
double remote_dest_nodes(double E, double k, int ep, int node_ranks);

// Ring all-reduce of `bytes` over n ranks: lat + 2(n − 1)/n · bytes / bw (0 for n ≤ 1).
double allreduce_time(int n, double bytes, double bw, double lat);

// The busiest expert rank's load over the mean under real routing: the balancer's residual with redundant
// slots (1 + eplb_residual), else route_skew when set, else the skew real traffic shows at this EP size
// without balancing: log-linear through 1 at EP1, 1.8 at EP8 (assumed) and 2.56 at EP32 (DeepSeek-R1 on 32
// GB200, FACTS-parallel §4.3), flat beyond.
double routing_skew(const Parallel& p);

}  // namespace tierscope::model
