// Goodput as DistServe defines it: the highest request rate a deployment serves while a given share of the
// requests meets both latency objectives. Attainment falls as the rate rises (queues grow), so the rate is
// found by doubling until the share is missed, then bisecting on a log scale.
#include <cmath>

#include "base/text.h"
#include "serve/serve.h"

namespace tierscope::serve {

namespace {

constexpr int kBisections = 10;     // the rate to 2^(1/1024) of the doubling's bracket: well under 1 %
constexpr int kMaxDoublings = 24;   // from 1 request/s: 1/16M to 16M requests/s
constexpr int kDefaultRequests = 400;

}  // namespace

bool find_goodput(const model::Scenario& s, const ServeSpec& spec, ServeResult& out, model::Errors& errors) {
  if (!(spec.slo_ttft > 0 || spec.slo_itl > 0)) {
    errors.push_back(model::make_error(model::ErrorCode::MissingField, "--goodput", model::num(spec.goodput),
                                       "an objective to hold: --slo-ttft S or --slo-itl S"));
    return false;
  }
  ServeSpec at = spec;
  at.concurrency = 0;
  at.steps = 0;
  at.requests = spec.requests > 0 ? spec.requests : kDefaultRequests;
  int runs = 0;
  const auto meets = [&](double rate, bool& ok) {
    at.rate = rate;
    ServeResult r;
    model::Errors e;
    ++runs;
    ok = run_serve(s, at, r, e);
    if (!ok) errors.insert(errors.end(), e.begin(), e.end());
    return ok && r.slo_attainment >= spec.goodput;
  };
  bool ok = true;
  double lo = 0, hi = 0;  // lo meets the objectives, hi does not
  if (meets(1.0, ok)) {
    lo = 1.0;
    for (int i = 0; i < kMaxDoublings && ok && meets(lo * 2, ok); ++i) lo *= 2;
    hi = lo * 2;
  } else {
    hi = 1.0;
    for (int i = 0; i < kMaxDoublings && ok && !meets(hi / 2, ok); ++i) hi /= 2;
    lo = hi / 2;
  }
  if (!ok) return false;
  if (!(lo > 0) || (lo <= 1.0 / (1 << kMaxDoublings) && !meets(lo, ok))) {
    lo = 0;  // not even the slowest rate meets them
  } else {
    for (int i = 0; i < kBisections && ok; ++i) {
      const double mid = std::sqrt(lo * hi);
      (meets(mid, ok) ? lo : hi) = mid;
    }
  }
  if (!ok) return false;
  out.goodput_at = spec.goodput;
  out.goodput_rate = lo;
  out.goodput_runs = runs;
  return true;
}

}  // namespace tierscope::serve
