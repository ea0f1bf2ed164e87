// Reports (never asserts) how fast the serving replay runs: 10,000 requests of 1K/1K at concurrency 256 on
// the default preset (the reference run), the same at 100,000 requests (memory flat: the live
// requests only), prefill-first, and 8K/1K; each with its steps, the step model's evaluations and the
// replay's process memory growth. The machine may be shared: each run is repeated and the fastest kept, in
// wall time and in the process's CPU time (which other work on the machine inflates less).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <string>

#include "model/presets.h"
#include "serve/serve.h"

using namespace tierscope;
using Clock = std::chrono::steady_clock;

namespace {

// Resident memory in kB (Linux), 0 where unknown.
long rss_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

void bench(const char* name, const model::Scenario& s, serve::ServeSpec spec, int repeats) {
  double best = 1e30, best_cpu = 1e30;
  serve::ServeResult r;
  const long before = rss_kb();
  for (int i = 0; i < repeats; ++i) {
    model::Errors errors;
    const auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    if (!serve::run_serve(s, spec, r, errors)) {
      std::printf("%s: %s\n", name, errors.empty() ? "failed" : errors.front().message().c_str());
      return;
    }
    best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::printf("| %s | %llu | %llu | %llu | %.3f s | %.3f s | %.0f k steps/s | %ld kB |\n", name, static_cast<unsigned long long>(r.completed),
              static_cast<unsigned long long>(r.steps), static_cast<unsigned long long>(r.evaluations), best, best_cpu,
              static_cast<double>(r.steps) / best_cpu / 1e3, rss_kb() - before);
}

}  // namespace

int main() {
  model::Scenario s;
  if (!model::make_preset("v41-flash-8xb200", s)) return 1;
  serve::ServeSpec spec;
  spec.concurrency = 256;
  spec.requests = 10000;
  spec.input = spec.output = 1024;
  std::printf("| run | requests | steps | model evaluations | wall time | CPU time | steps per CPU second | memory growth |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  bench("1K/1K, concurrency 256, 10,000 requests", s, spec, 3);
  serve::ServeSpec big = spec;
  big.requests = 100000;
  bench("the same, 100,000 requests", s, big, 1);
  serve::ServeSpec first = spec;
  first.prefill = serve::PrefillMode::First;
  bench("1K/1K, prefill-first steps", s, first, 3);
  serve::ServeSpec longer = spec;
  longer.input = 8192;
  longer.requests = 2560;
  longer.lengths = serve::Lengths::Random;
  longer.range_ratio = 0.2;
  bench("8K/1K ±20 %, concurrency 256, 2,560 requests", s, longer, 3);
  return 0;
}
