// Expert coverage and balance under uniform routing, and the cost of the collectives a parallel layout
// needs: pure closed-form functions the decode, prefill and replay timings share.
#pragma once

namespace tierscope::model {

// Expected distinct experts touched in one MoE layer when `tokens` tokens each pick k of E experts
// uniformly: E·(1 − (1 − k/E)^tokens). Tokens may be fractional (an average).
double distinct_experts(double E, double k, double tokens);

// Expected maximum of n independent standard normal variables, by Blom's plotting position
// Φ⁻¹((n − 0.375)/(n + 0.25)) (within 1 % of the exact value for n = 2..4096; 0 for n ≤ 1).
double expected_max_normal(int n);
// The standard normal quantile Φ⁻¹(p), 0 < p < 1 (rational approximation, relative error < 1.2e-9).
double normal_quantile(double p);

// How one MoE layer's token-expert assignments fall on `ep` expert-parallel ranks holding E/ep experts
// each, for `tokens` tokens each picking k distinct experts uniformly at random.
struct ExpertLoad {
  double mean = 0;      // assignments per rank: tokens·k/ep
  double sigma = 0;     // their standard deviation: √(tokens·k·(1/ep)(1 − 1/ep)(E − k)/(E − 1))
  double c = 0;         // expected max of ep standard normals (Blom)
  double busiest = 0;   // expected assignments on the busiest rank: min(tokens·min(k, E/ep), mean + c·sigma)
  double distinct_rank = 0;  // expected distinct experts touched on one rank: (E/ep)·(1 − (1 − k/E)^tokens)
  double dest_ranks = 0;     // expected distinct ranks one token is sent to: ep·(1 − C(E − E/ep, k)/C(E, k))
  double imbalance() const { return mean > 0 ? busiest / mean - 1.0 : 0.0; }
};
ExpertLoad expert_load(double E, double k, int ep, double tokens);

// Ring all-reduce of `bytes` over n ranks: lat + 2(n − 1)/n · bytes / bw (0 for n ≤ 1).
double allreduce_time(int n, double bytes, double bw, double lat);
// One all-to-all phase (dispatch or combine): lat + bytes / bw, the bytes being what the busiest rank sends.
double a2a_phase_time(double bytes, double bw, double lat);

}  // namespace tierscope::model
