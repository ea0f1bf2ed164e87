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

ExpertLoad expert_load(double E, double k, int ep, double tokens) {
  ExpertLoad x;
  if (E <= 0 || k <= 0 || tokens <= 0 || ep < 1) return x;
  const double n = ep;
  const double per_rank = E / n;
  x.mean = tokens * k / n;
  x.distinct_rank = per_rank * (1.0 - std::pow(std::max(0.0, 1.0 - k / E), tokens));
  if (ep == 1) {
    x.busiest = x.mean;
    x.dest_ranks = 1;
    return x;
  }
  // Each token's k picks are drawn without replacement, so a rank's count is hypergeometric per token.
  x.sigma = E > 1 ? std::sqrt(tokens * k * (1.0 / n) * (1.0 - 1.0 / n) * (E - k) / (E - 1.0)) : 0.0;
  x.c = expected_max_normal(ep);
  x.busiest = std::min(tokens * std::min(k, per_rank), x.mean + x.c * x.sigma);
  // P(a token sends nothing to a given rank) = C(E − E/ep, k) / C(E, k) = Π_{i<k} (E − E/ep − i)/(E − i).
  double none = 1.0;
  const int kk = static_cast<int>(std::min(k, E));
  for (int i = 0; i < kk && none > 0; ++i) none *= std::max(0.0, (E - per_rank - i) / (E - i));
  x.dest_ranks = n * (1.0 - none);
  return x;
}

double allreduce_time(int n, double bytes, double bw, double lat) {
  if (n <= 1 || bytes <= 0 || bw <= 0) return 0.0;
  return lat + 2.0 * (n - 1) / n * bytes / bw;
}

double a2a_phase_time(double bytes, double bw, double lat) {
  if (bw <= 0) return lat;
  return lat + bytes / bw;
}

}  // namespace tierscope::model
