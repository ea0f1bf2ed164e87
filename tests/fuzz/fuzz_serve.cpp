// libFuzzer target: serve flags and values (one "--flag value" per line) through the flag parser, and the
// page's link settings (a line "serve=NAME:VALUE,…") through theirs, then a short replay of the default
// preset with what was accepted. A setting refused names "serve.NAME"; the settings written back read
// back to the same text. Every refusal names its flag and what is
// allowed; every run accounts for each request (completed or refused), keeps its percentiles in order
// and finite, and ends.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/presets.h"
#include "serve/serve.h"

using namespace tierscope;

namespace {

void check_summary(const serve::Summary& s) {
  if (!std::isfinite(s.mean) || !std::isfinite(s.max) || s.median > s.p90 * (1 + 1e-12) || s.p90 > s.p99 * (1 + 1e-12) ||
      s.p99 > s.max * (1 + 1e-12) + 1e-15)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), std::min<size_t>(size, 4096));
  serve::ServeSpec spec;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.starts_with("serve=")) {
      model::Errors errors;
      serve::serve_settings_from_text(line.substr(6), spec, errors);
      for (const model::Error& e : errors)
        if (!e.field.starts_with("serve") || e.allowed.empty()) std::abort();
      const std::string written = serve::serve_settings_text(spec);
      serve::ServeSpec again;
      model::Errors none;
      if (!serve::serve_settings_from_text(written, again, none) || serve::serve_settings_text(again) != written) std::abort();
      continue;
    }
    const std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos) continue;
    model::Error err;
    if (!serve::set_serve_flag(line.substr(0, sp), line.substr(sp + 1), spec, err)) {
      if (err.field.empty() || err.allowed.empty()) std::abort();
    }
  }
  // Short runs: each input stays quick whatever its lengths and load.
  spec.requests = std::min(spec.requests > 0 ? spec.requests : 64, 64);
  spec.concurrency = std::min(spec.concurrency, 64);
  spec.input = std::min(spec.input, 2048);
  spec.output = std::min(spec.output, 128);
  static const model::Scenario base = [] {
    model::Scenario s;
    model::make_preset("v41-flash-8xb200", s);
    s.work.output = 128;
    return s;
  }();
  serve::ServeResult r;
  model::Errors errors;
  if (!serve::run_serve(base, spec, r, errors)) {
    if (errors.empty()) std::abort();
    for (const model::Error& e : errors)
      if (e.field.empty() || e.allowed.empty()) std::abort();
    return 0;
  }
  if (r.completed + r.refused != r.requests || r.requests != static_cast<std::uint64_t>(spec.requests)) std::abort();
  if (!std::isfinite(r.duration) || r.duration < 0 || !std::isfinite(r.output_tps_gpu) || !std::isfinite(r.mean_in_flight)) std::abort();
  for (const serve::Summary* s : {&r.ttft, &r.tpot, &r.itl, &r.e2e, &r.queue}) check_summary(*s);
  return 0;
}
