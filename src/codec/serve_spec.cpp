// A serving benchmark's settings: the flags' one parser, and the `serve=` link key built on it.
#include "codec/serve_spec.h"

#include "base/text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tierscope::serve {

using model::ErrorCode;
using model::make_error;

namespace {

// An integer flag within [lo, hi].
bool int_flag(std::string_view flag, std::string_view value, long long lo, long long hi, long long& out, model::Error& err) {
  double v = 0;
  if (!model::read_number(value, v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    err = make_error(ErrorCode::OutOfRange, flag, value, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return false;
  }
  out = static_cast<long long>(v);
  return true;
}

bool real_flag(std::string_view flag, std::string_view value, double lo, double hi, bool lo_open, double& out, const char* allowed,
               model::Error& err) {
  double v = 0;
  if (!model::read_number(value, v) || v < lo || v > hi || (lo_open && v == lo)) {
    err = make_error(ErrorCode::OutOfRange, flag, value, allowed);
    return false;
  }
  out = v;
  return true;
}

constexpr const char* kFlags[] = {"--concurrency", "--rate",   "--requests", "--input",     "--output", "--lengths", "--range-ratio",
                                  "--len-sigma",   "--budget", "--prefill",  "--instances", "--steps",  "--steps-from", "--seed"};

}  // namespace

const char* lengths_name(Lengths l) {
  switch (l) {
    case Lengths::Fixed: return "fixed";
    case Lengths::Random: return "random";
    case Lengths::Sharegpt: return "sharegpt";
    case Lengths::Trace: return "trace";
    case Lengths::Count: break;
  }
  return "";
}

const char* prefill_mode_name(PrefillMode m) {
  switch (m) {
    case PrefillMode::Auto: return "auto";
    case PrefillMode::Chunked: return "chunked";
    case PrefillMode::First: return "first";
    case PrefillMode::None: return "none";
    case PrefillMode::Pd: return "pd";
    case PrefillMode::Count: break;
  }
  return "";
}

bool is_serve_flag(std::string_view flag) {
  for (const char* f : kFlags)
    if (flag == f) return true;
  return false;
}

const char* serve_flags_text() {
  return "  --concurrency N      serve: clients in a closed loop (1 to 100000; with no --rate either, the scenario's batch)\n"
         "  --rate R             serve: Poisson arrivals per second instead (above 0, at most 1e6)\n"
         "  --requests N         serve: requests to run (1 to 10000000; default 10 × concurrency, at least 100)\n"
         "  --input N            serve: mean prompt tokens (default: the scenario's prompt)\n"
         "  --output N           serve: mean output tokens (default: the scenario's output)\n"
         "  --lengths KIND       serve: fixed, random (--range-ratio), sharegpt (lognormal, --len-sigma), trace (--trace)\n"
         "  --range-ratio R      serve: random lengths uniform on L × (1 ± R), 0 to 1 (below 1)\n"
         "  --len-sigma S        serve: sharegpt lengths' σ of the log, 0 to 3\n"
         "  --budget N           serve: tokens one step schedules (1 to 1048576; default: the engine's)\n"
         "  --prefill MODE       serve: chunked (prompt chunks ride decode steps), first (prefill steps alone), none (a\n"
         "                       decode pool: prompts arrive cached), pd (prefill and decode disaggregated: a\n"
         "                       prefill pool sized to keep up, its GPUs counted), auto (the engine's default)\n"
         "  --instances N        serve: identical instances behind a least-outstanding router (1 to 64)\n"
         "  --steps N            serve: N scheduled steps in the output (0 to 10000), the first ones unless\n"
         "                       --steps-from K starts them at the run's step K (0 to 100000000; past the\n"
         "                       run's last step, none are kept): steps of the steady state, not the ramp-up\n";
}

bool set_serve_flag(std::string_view flag, std::string_view value, ServeSpec& spec, model::Error& err) {
  long long n = 0;
  if (flag == "--concurrency") {
    if (!int_flag(flag, value, 1, 100000, n, err)) return false;
    spec.concurrency = static_cast<int>(n);
  } else if (flag == "--rate") {
    if (!real_flag(flag, value, 0, 1e6, true, spec.rate, "requests per second above 0, at most 1000000", err)) return false;
  } else if (flag == "--requests") {
    if (!int_flag(flag, value, 1, 10000000, n, err)) return false;
    spec.requests = static_cast<int>(n);
  } else if (flag == "--input" || flag == "--output") {
    if (!int_flag(flag, value, flag == "--input" ? 1 : 1, 16777216, n, err)) return false;
    (flag == "--input" ? spec.input : spec.output) = static_cast<int>(n);
  } else if (flag == "--lengths") {
    if (value == "fixed") spec.lengths = Lengths::Fixed;
    else if (value == "random") spec.lengths = Lengths::Random;
    else if (value == "sharegpt") spec.lengths = Lengths::Sharegpt;
    else if (value == "trace") spec.lengths = Lengths::Trace;
    else {
      err = make_error(ErrorCode::BadEnum, flag, value, "fixed, random, sharegpt, trace");
      return false;
    }
  } else if (flag == "--range-ratio") {
    if (!real_flag(flag, value, 0, 1, false, spec.range_ratio, "a share from 0 to below 1", err)) return false;
    if (spec.range_ratio >= 1) {
      err = make_error(ErrorCode::OutOfRange, flag, value, "a share from 0 to below 1");
      return false;
    }
  } else if (flag == "--len-sigma") {
    if (!real_flag(flag, value, 0, 3, false, spec.len_sigma, "0 to 3", err)) return false;
  } else if (flag == "--budget") {
    if (!int_flag(flag, value, 1, 1048576, n, err)) return false;
    spec.budget = static_cast<int>(n);
  } else if (flag == "--prefill") {
    if (value == "chunked") spec.prefill = PrefillMode::Chunked;
    else if (value == "first") spec.prefill = PrefillMode::First;
    else if (value == "auto") spec.prefill = PrefillMode::Auto;
    else if (value == "none") spec.prefill = PrefillMode::None;
    else if (value == "pd") spec.prefill = PrefillMode::Pd;
    else {
      err = make_error(ErrorCode::BadEnum, flag, value, "chunked, first, none, pd, auto");
      return false;
    }
  } else if (flag == "--instances") {
    if (!int_flag(flag, value, 1, 64, n, err)) return false;
    spec.instances = static_cast<int>(n);
  } else if (flag == "--steps") {
    if (!int_flag(flag, value, 0, 10000, n, err)) return false;
    spec.steps = static_cast<int>(n);
  } else if (flag == "--steps-from") {
    if (!int_flag(flag, value, 0, 100000000, n, err)) return false;
    spec.steps_from = static_cast<int>(n);
  } else if (flag == "--seed") {
    if (!int_flag(flag, value, 0, 2147483647, n, err)) return false;
    spec.seed = static_cast<std::uint64_t>(n);
  } else {
    err = make_error(ErrorCode::UnknownKey, "flag", flag, "a serve flag: --concurrency, --rate, --requests, --input, --output, --lengths, "
                                                         "--range-ratio, --len-sigma, --budget, --prefill, --instances, --steps, --steps-from, --seed");
    return false;
  }
  return true;
}

namespace {

// The settings a link may carry, in the flags' order (the seed and a trace are not among them).
constexpr const char* kSettings[] = {"concurrency", "rate",   "requests", "input",     "output", "lengths",
                                     "range-ratio", "len-sigma", "budget", "prefill", "instances", "steps", "steps-from"};

std::string setting_value(const ServeSpec& s, std::string_view name) {
  if (name == "concurrency") return std::to_string(s.concurrency);
  if (name == "rate") return model::num_exact(s.rate);
  if (name == "requests") return std::to_string(s.requests);
  if (name == "input") return std::to_string(s.input);
  if (name == "output") return std::to_string(s.output);
  if (name == "lengths") return lengths_name(s.lengths);
  if (name == "range-ratio") return model::num_exact(s.range_ratio);
  if (name == "len-sigma") return model::num_exact(s.len_sigma);
  if (name == "budget") return std::to_string(s.budget);
  if (name == "prefill") return prefill_mode_name(s.prefill);
  if (name == "instances") return std::to_string(s.instances);
  if (name == "steps") return std::to_string(s.steps);
  if (name == "steps-from") return std::to_string(s.steps_from);
  return "";
}

}  // namespace

std::string serve_settings_allowed_text() {
  std::string s = "NAME:VALUE pairs joined by commas, each name once, from: ";
  for (std::size_t i = 0; i < std::size(kSettings); ++i) s += (i ? ", " : "") + std::string(kSettings[i]);
  return s + " (the values `tierscope serve --NAME` takes; lengths fixed, random or sharegpt)";
}

bool serve_settings_from_text(std::string_view text, ServeSpec& spec, model::Errors& errors) {
  const std::size_t before = errors.size();
  if (text.size() > kMaxServeSettingsBytes) {
    errors.push_back(make_error(ErrorCode::TooLarge, "serve", std::string(text.substr(0, 40)) + "…",
                                "settings of at most " + std::to_string(kMaxServeSettingsBytes) + " bytes"));
    return false;
  }
  std::vector<std::string_view> seen;
  for (const std::string_view pair : model::split(text, ',')) {
    const std::size_t colon = pair.find(':');
    const std::string_view name = pair.substr(0, colon);
    const std::string field = "serve." + std::string(name.empty() ? "(empty)" : name);
    bool known = false;
    for (const char* k : kSettings) known = known || name == k;
    if (!known) {
      errors.push_back(make_error(name == "seed" ? ErrorCode::BadSyntax : ErrorCode::UnknownKey, field, std::string(pair),
                                  name == "seed" ? "the seed is the link's own seed= key, not a serve setting" : serve_settings_allowed_text()));
      continue;
    }
    if (colon == std::string_view::npos) {
      errors.push_back(make_error(ErrorCode::BadSyntax, field, std::string(pair), "NAME:VALUE (" + std::string(name) + ":…)"));
      continue;
    }
    bool twice = false;
    for (std::string_view s : seen) twice = twice || s == name;
    if (twice) {
      errors.push_back(make_error(ErrorCode::DuplicateKey, field, std::string(pair), "each setting once"));
      continue;
    }
    seen.push_back(name);
    const std::string_view value = pair.substr(colon + 1);
    if (name == "lengths" && value == "trace") {
      errors.push_back(make_error(ErrorCode::BadEnum, field, std::string(value),
                                  "fixed, random, sharegpt (a recorded trace is a file: tierscope serve --lengths trace --trace FILE)"));
      continue;
    }
    // The flag's own parser judges the value; its error names the setting as the link spells it.
    ServeSpec trial = spec;
    model::Error err;
    if (!set_serve_flag("--" + std::string(name), value, trial, err)) {
      err.field = field;
      errors.push_back(std::move(err));
      continue;
    }
    spec = std::move(trial);
  }
  return errors.size() == before;
}

std::string serve_settings_text(const ServeSpec& spec) {
  const ServeSpec defaults;
  std::string out;
  for (const char* name : kSettings) {
    const std::string v = setting_value(spec, name);
    if (v == setting_value(defaults, name)) continue;
    out += (out.empty() ? "" : ",") + std::string(name) + ":" + v;
  }
  return out;
}

bool serve_settings_known(std::string_view text, std::string* canonical) {
  ServeSpec spec;
  model::Errors errors;
  if (!serve_settings_from_text(text, spec, errors)) return false;
  if (canonical) *canonical = serve_settings_text(spec);
  return true;
}

}  // namespace tierscope::serve
