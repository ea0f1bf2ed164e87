// Expert coverage, the busiest rank's load and collective costs (see parallel.h for the formulas).
#include "model/parallel.h"

#include <algorithm>
#include <cmath>

namespace tierscope::model {

double distinct_experts(double E, double k, double tokens) {
  if (E <= 0 || k <= 0 || tokens <= 0) return 0.0;
  const double miss = 1.0 - k / E;
  return E * (1.0 - std::pow(std::max(0.0, miss), tokens));
}

double normal_quantile(double p) {
  // Acklam's rational approximation, central region plus two tails.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  if (!(p > 0.0 && p < 1.0)) return 0.0;
  const double lo = 0.02425, hi = 1.0 - lo;
  if (p < lo) {
    const double q = std::sqrt(-2.0 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  if (p > hi) {
    const double q = std::sqrt(-2.0 * std::log(1.0 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

double expected_max_normal(int n) {
  if (n <= 1) return 0.0;
  return normal_quantile((n - 0.375) / (n + 0.25));
}

namespace {

// Below this many terms of (1 − F)ⁿ the sums add 1 without calling pow: F(x)ⁿ < e⁻³⁰.
inline bool negligible(double F, int n) { return F <= 0 || n * std::log(F) < -30.0; }

// Σ_{x ≥ 0} (1 − F(x)ⁿ) for a Poisson(mu) count, the expected maximum of n of them, summed to cap.
double poisson_max_sum(double mu, int n, double cap) {
  double sum = 0, p = std::exp(-mu), F = p;
  for (int x = 0; x < cap; ++x) {
    const double term = negligible(F, n) ? 1.0 : 1.0 - std::pow(std::min(F, 1.0), n);
    if (term < 1e-10) break;
    sum += term;
    p *= mu / (x + 1);
    F += p;
  }
  return sum;
}

// Σ_{x ≥ 0} (1 − F(x)ⁿ) for a Binomial(N, p) count, p ≤ 1/2 (the expected maximum of n of them).
double binomial_max_sum(int N, double p, int n) {
  double sum = 0, pm = std::pow(1.0 - p, N), F = pm;
  const double odds = p / (1.0 - p);
  for (int x = 0; x < N; ++x) {
    const double term = negligible(F, n) ? 1.0 : 1.0 - std::pow(std::min(F, 1.0), n);
    if (term < 1e-10) break;
    sum += term;
    pm *= (N - x) / (x + 1.0) * odds;
    F += pm;
  }
  return sum;
}

// Σ_{x ≥ 0} (1 − F(x))ⁿ for a Binomial(N, p) count: the expected minimum of n of them.
double binomial_min_sum(int N, double p, int n) {
  double sum = 0, pm = std::pow(1.0 - p, N), F = pm;
  const double odds = p / (1.0 - p);
  for (int x = 0; x < N; ++x) {
    const double term = std::pow(std::max(0.0, 1.0 - F), n);
    if (term < 1e-10) break;
    sum += term;
    pm *= (N - x) / (x + 1.0) * odds;
    F += pm;
  }
  return sum;
}

}  // namespace

double expected_max_count(double mu, double var, int n, double c, double cap) {
  if (mu <= 0 || cap <= 0) return 0.0;
  if (n <= 1) return std::min(mu, cap);
  const double pmax = mu < 8.0 ? poisson_max_sum(mu, n, cap) : mu + c * std::sqrt(mu) + (c * c - 1.0) / 6.0;
  return std::min(cap, mu + (pmax - mu) * std::sqrt(std::max(0.0, var) / mu));
}

double expected_max_distinct(double slots, double p, double var, int n, double c) {
  if (slots <= 0 || p <= 0) return 0.0;
  const double mean = slots * p;
  if (n <= 1 || p >= 1.0 - 1e-12) return std::min(slots, mean);
  const double spread = slots * p * (1.0 - p);
  double bmax = 0;
  if (spread > 25.0 || slots > 4096) {
    // Cornish-Fisher: the binomial's skew (1 − 2p)/√(Np(1 − p)) bends the normal's c.
    const double sd = std::sqrt(spread);
    bmax = mean + c * sd + (c * c - 1.0) / 6.0 * (1.0 - 2.0 * p);
  } else {
    const int N = static_cast<int>(std::lround(slots));
    // Above p = 1/2 the untouched experts are the small count: max touched = slots − min untouched.
    bmax = p <= 0.5 ? binomial_max_sum(N, p, n) : slots - binomial_min_sum(N, 1.0 - p, n);
  }
  const double scale = spread > 0 ? std::sqrt(std::max(0.0, var) / spread) : 0.0;
  return std::min(slots, mean + (bmax - mean) * scale);
}

ExpertLoad expert_load(double E, double k, int ep, double tokens, double skew) {
  ExpertLoad x;
  if (E <= 0 || k <= 0 || tokens <= 0 || ep < 1) return x;
  const double n = ep;
  const double per_rank = E / n;
  const double miss = std::max(0.0, 1.0 - k / E);
  x.mean = tokens * k / n;
  x.distinct_rank = per_rank * (1.0 - std::pow(miss, tokens));
  if (ep == 1) {
    x.uniform = x.busiest = x.mean;
    x.distinct_uniform = x.distinct_busiest = x.distinct_rank;
    x.dest_ranks = 1;
    return x;
  }
  // Each token's k picks are drawn without replacement, so a rank's count is hypergeometric per token;
  // the ranks' counts sum to tokens·k, so they are equicorrelated at −1/(ep − 1) and their expected
  // maximum spreads as if the variance were n/(n − 1) times one rank's.
  x.sigma = E > 1 ? std::sqrt(tokens * k * (1.0 / n) * (E - k) / (E - 1.0)) : 0.0;
  x.c = expected_max_normal(ep);
  const double cap = tokens * std::min(k, per_rank);
  x.uniform = expected_max_count(x.mean, x.sigma * x.sigma, ep, x.c, cap);
  x.busiest = std::min(cap, std::max(x.uniform, std::max(1.0, skew) * x.mean));
  // Distinct experts on one rank: per_rank indicators, pairwise covariance q₂ − q² (two experts both
  // untouched: q₂ = ((E − k)(E − k − 1)/(E(E − 1)))^tokens), times n/(n − 1) as above.
  const double q = std::pow(miss, tokens);
  const double q2 = E > 1 ? std::pow(std::max(0.0, (E - k) * (E - k - 1.0) / (E * (E - 1.0))), tokens) : 0.0;
  const double var_d = (per_rank * (1.0 - q) * q + per_rank * (per_rank - 1.0) * (q2 - q * q)) * n / (n - 1.0);
  x.distinct_uniform = expected_max_distinct(per_rank, 1.0 - q, var_d, ep, x.c);
  x.distinct_busiest = std::max(x.distinct_uniform, per_rank * (1.0 - std::pow(miss, std::max(1.0, skew) * tokens)));
  // P(a token sends nothing to a given rank) = C(E − E/ep, k) / C(E, k) = Π_{i<k} (E − E/ep − i)/(E − i).
  double none = 1.0;
  const int kk = static_cast<int>(std::min(k, E));
  for (int i = 0; i < kk && none > 0; ++i) none *= std::max(0.0, (E - per_rank - i) / (E - i));
  x.dest_ranks = n * (1.0 - none);
  return x;
}

double remote_dest_nodes(double E, double k, int ep, int node_ranks) {
  if (E <= 0 || k <= 0 || ep <= 1 || node_ranks < 1) return 0.0;
  const int nodes = (ep + node_ranks - 1) / node_ranks;
  if (nodes <= 1) return 0.0;
  const double per_node = E / nodes;
  double none = 1.0;  // the chance a node holds none of the token's picks (drawn without replacement)
  const int kk = static_cast<int>(std::min(k, E));
  for (int i = 0; i < kk && none > 0; ++i) none *= std::max(0.0, (E - per_node - i) / (E - i));
  return (nodes - 1) * (1.0 - none);
}

double allreduce_time(int n, double bytes, double bw, double lat) {
  if (n <= 1 || bytes <= 0 || bw <= 0) return 0.0;
  return lat + 2.0 * (n - 1) / n * bytes / bw;
}

double routing_skew(const Parallel& p) {
  if (p.redundant > 0) return 1.0 + p.eplb_residual;
  if (p.route_skew > 0) return std::max(1.0, p.route_skew);
  const double lg = std::log2(std::max(1, p.ep));
  if (lg <= 3) return 1.0 + 0.8 * lg / 3.0;
  return std::min(2.56, 1.8 + 0.76 * (lg - 3.0) / 2.0);
}

}  // namespace tierscope::model
