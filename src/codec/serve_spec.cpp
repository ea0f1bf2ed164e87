// A serving benchmark's settings: one row per setting (kSettings) gives its flag, its range or choices, its
// help and whether a link carries it; the flags' one parser, the help, the `serve=` link key and the page's
// Serve panel (through the catalog) all read those rows.
#include "codec/serve_spec.h"

#include "base/text.h"

#include <cmath>
#include <string>

namespace tierscope::serve {

using model::ErrorCode;
using model::make_error;

namespace {

// A setting's value in the spec: int*, double*, std::uint64_t* (the seed) or std::uint8_t* (a choice's enum).
#define TS_SERVE_FIELD(member) [](ServeSpec& s) -> void* { return &s.member; }

constexpr Choice kLengthChoices[] = {{"fixed", static_cast<std::uint8_t>(Lengths::Fixed), true},
                                     {"random", static_cast<std::uint8_t>(Lengths::Random), true},
                                     {"sharegpt", static_cast<std::uint8_t>(Lengths::Sharegpt), true},
                                     // A recorded trace is a file: only the command line replays one.
                                     {"trace", static_cast<std::uint8_t>(Lengths::Trace), false}};
// In the order a refusal lists them; the engine's own choice (auto) last.
constexpr Choice kPrefillChoices[] = {{"chunked", static_cast<std::uint8_t>(PrefillMode::Chunked), true},
                                      {"first", static_cast<std::uint8_t>(PrefillMode::First), true},
                                      {"none", static_cast<std::uint8_t>(PrefillMode::None), true},
                                      {"pd", static_cast<std::uint8_t>(PrefillMode::Pd), true},
                                      {"auto", static_cast<std::uint8_t>(PrefillMode::Auto), true}};

constexpr Choice kReuseChoices[] = {{"uniform", static_cast<std::uint8_t>(Reuse::Uniform), true},
                                    {"zipf", static_cast<std::uint8_t>(Reuse::Zipf), true},
                                    {"multi-turn", static_cast<std::uint8_t>(Reuse::MultiTurn), true}};
constexpr Choice kTierChoices[] = {{"hbm", static_cast<std::uint8_t>(CacheTiers::Hbm), true},
                                   {"hbm+dram", static_cast<std::uint8_t>(CacheTiers::HbmDram), true},
                                   {"hbm+dram+ssd", static_cast<std::uint8_t>(CacheTiers::HbmDramSsd), true},
                                   {"off", static_cast<std::uint8_t>(CacheTiers::Off), true}};

// In the flags' order: the help lists them so, and a link's settings are written so. A help text's
// "{default}" is the setting's value in ServeSpec{}.
constexpr ServeSetting kSettings[] = {
    {"concurrency", SettingKind::Int, 1, 100000, false, false, nullptr, {}, true, TS_SERVE_FIELD(concurrency),
     "  --concurrency N      serve: clients in a closed loop (1 to 100000; with no --rate either, the scenario's batch)\n"},
    {"rate", SettingKind::Real, 0, 1e6, true, false, "requests per second above 0, at most 1000000", {}, true, TS_SERVE_FIELD(rate),
     "  --rate R             serve: Poisson arrivals per second instead (above 0, at most 1e6)\n"},
    {"requests", SettingKind::Int, 1, 10000000, false, false, nullptr, {}, true, TS_SERVE_FIELD(requests),
     "  --requests N         serve: requests to run (1 to 10000000; default 10 × concurrency, at least 100)\n"},
    {"input", SettingKind::Int, 1, 16777216, false, false, nullptr, {}, true, TS_SERVE_FIELD(input),
     "  --input N            serve: mean prompt tokens (default: the scenario's prompt)\n"},
    {"output", SettingKind::Int, 1, 16777216, false, false, nullptr, {}, true, TS_SERVE_FIELD(output),
     "  --output N           serve: mean output tokens (default: the scenario's output)\n"},
    {"lengths", SettingKind::Choice, 0, 0, false, false, nullptr, kLengthChoices, true, TS_SERVE_FIELD(lengths),
     "  --lengths KIND       serve: fixed, random (--range-ratio), sharegpt (lognormal, --len-sigma), trace (--trace)\n"},
    {"range-ratio", SettingKind::Real, 0, 1, false, true, "a share from 0 to below 1", {}, true, TS_SERVE_FIELD(range_ratio),
     "  --range-ratio R      serve: random lengths uniform on L × (1 ± R), 0 to 1 (below 1; default {default})\n"},
    {"len-sigma", SettingKind::Real, 0, 3, false, false, "0 to 3", {}, true, TS_SERVE_FIELD(len_sigma),
     "  --len-sigma S        serve: sharegpt lengths' σ of the log, 0 to 3\n"},
    {"budget", SettingKind::Int, 1, 1048576, false, false, nullptr, {}, true, TS_SERVE_FIELD(budget),
     "  --budget N           serve: tokens one step schedules (1 to 1048576; default: the engine's)\n"},
    {"prefill", SettingKind::Choice, 0, 0, false, false, nullptr, kPrefillChoices, true, TS_SERVE_FIELD(prefill),
     "  --prefill MODE       serve: chunked (prompt chunks ride decode steps), first (prefill steps alone), none (a\n"
     "                       decode pool: prompts arrive cached), pd (prefill and decode disaggregated: a\n"
     "                       prefill pool, its GPUs counted, and the KV's hand-off), auto (the engine's default)\n"},
    {"prefill-workers", SettingKind::Int, 0, 4096, false, false, nullptr, {}, true, TS_SERVE_FIELD(prefill_workers),
     "  --prefill-workers N  serve: with --prefill pd, a fixed prefill pool of N workers, each a replica of the\n"
     "                       layout, where prompts queue (0 to 4096; 0: a pool sized to keep up)\n"},
    {"slo-ttft", SettingKind::Real, 0, 3600, false, false, "seconds from 0 to 3600 (0: no TTFT objective)", {}, true, TS_SERVE_FIELD(slo_ttft),
     "  --slo-ttft S         serve: the TTFT objective in seconds; with --slo-itl, the share of requests\n"
     "                       meeting both is reported as SLO attainment (0 to 3600; 0: none)\n"},
    {"slo-itl", SettingKind::Real, 0, 3600, false, false, "seconds from 0 to 3600 (0: no inter-token objective)", {}, true, TS_SERVE_FIELD(slo_itl),
     "  --slo-itl S          serve: the objective for a request's mean inter-token gap (its TPOT), seconds\n"},
    {"goodput", SettingKind::Real, 0, 1, false, true, "a share from 0 to below 1 (0: no search)", {}, false, TS_SERVE_FIELD(goodput),
     "  --goodput P          serve: also find the goodput, the highest Poisson rate at which a share P of\n"
     "                       requests meets the objectives (0 to below 1, e.g. 0.9; needs --slo-ttft or --slo-itl)\n"},
    {"xpyd", SettingKind::Int, 0, 4096, false, false, nullptr, {}, false, TS_SERVE_FIELD(xpyd),
     "  --xpyd GPUS          serve: with --goodput, every split of GPUS GPUs into x prefill workers and y\n"
     "                       decode instances (xPyD) and the aggregated instances on them, each with its\n"
     "                       goodput per GPU (0 to 4096; 0: no search)\n"},
    {"instances", SettingKind::Int, 1, 64, false, false, nullptr, {}, true, TS_SERVE_FIELD(instances),
     "  --instances N        serve: identical instances behind a least-outstanding router (1 to 64)\n"},
    {"prefix-len", SettingKind::Int, 0, 16777216, false, false, nullptr, {}, true, TS_SERVE_FIELD(prefix_len),
     "  --prefix-len N       serve: tokens of a shared prefix (a system prompt) before each prompt's own --input\n"
     "                       tokens (0 to 16777216; 0: prompts share nothing)\n"},
    {"prefixes", SettingKind::Int, 1, 1000000, false, false, nullptr, {}, true, TS_SERVE_FIELD(prefixes),
     "  --prefixes K         serve: distinct shared prefixes the requests draw from (1 to 1000000)\n"},
    {"reuse", SettingKind::Choice, 0, 0, false, false, nullptr, kReuseChoices, true, TS_SERVE_FIELD(reuse),
     "  --reuse KIND         serve: uniform or zipf (which prefix a request starts with), multi-turn\n"
     "                       (conversations of --turns requests, each resending the history before its new tokens)\n"},
    {"turns", SettingKind::Int, 2, 1000, false, false, nullptr, {}, true, TS_SERVE_FIELD(turns),
     "  --turns N            serve: requests per conversation with --reuse multi-turn (2 to 1000; default {default})\n"},
    {"tiers", SettingKind::Choice, 0, 0, false, false, nullptr, kTierChoices, true, TS_SERVE_FIELD(tiers),
     "  --tiers T            serve: the prefix cache's tiers on a shared-prefix workload: hbm (the engines'\n"
     "                       default), hbm+dram, hbm+dram+ssd (the engine's store below HBM), off (no cache)\n"},
    {"steps", SettingKind::Int, 0, 10000, false, false, nullptr, {}, true, TS_SERVE_FIELD(steps),
     "  --steps N            serve: N scheduled steps in the output (0 to 10000), the first ones unless\n"
     "                       --steps-from K starts them at the run's step K (0 to 100000000; past the\n"
     "                       run's last step, none are kept): steps of the steady state, not the ramp-up\n"},
    {"steps-from", SettingKind::Int, 0, 100000000, false, false, nullptr, {}, true, TS_SERVE_FIELD(steps_from), ""},  // in --steps's help
    // The seed is the scenario's (`seed=` in a link; the help lists it with the fleet's flags).
    {"seed", SettingKind::Seed, 0, 2147483647, false, false, nullptr, {}, false, TS_SERVE_FIELD(seed), ""},
};

#undef TS_SERVE_FIELD

// What a refusal of a whole-number setting says is allowed.
std::string whole_range(double lo, double hi) { return "a whole number from " + model::num_exact(lo) + " to " + model::num_exact(hi); }

// "fixed, random, sharegpt": a choice setting's choices (only those a link may carry, with `in_link`).
std::string choice_names(const ServeSetting& s, bool in_link, const char* last_joint = ", ") {
  std::vector<const char*> names;
  for (const Choice& c : s.choices)
    if (!in_link || c.in_link) names.push_back(c.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last_joint : ", ") + std::string(names[i]);
  return out;
}

const char* choice_name(const ServeSetting& s, std::uint8_t value) {
  for (const Choice& c : s.choices)
    if (c.value == value) return c.name;
  return "";
}

}  // namespace

std::span<const ServeSetting> serve_settings() { return kSettings; }

const ServeSetting* find_serve_setting(std::string_view name) {
  for (const ServeSetting& s : kSettings)
    if (name == s.name) return &s;
  return nullptr;
}

const char* lengths_name(Lengths l) { return choice_name(*find_serve_setting("lengths"), static_cast<std::uint8_t>(l)); }
const char* prefill_mode_name(PrefillMode m) { return choice_name(*find_serve_setting("prefill"), static_cast<std::uint8_t>(m)); }
const char* reuse_name(Reuse r) { return choice_name(*find_serve_setting("reuse"), static_cast<std::uint8_t>(r)); }
const char* cache_tiers_name(CacheTiers t) { return choice_name(*find_serve_setting("tiers"), static_cast<std::uint8_t>(t)); }

bool is_serve_flag(std::string_view flag) { return flag.starts_with("--") && find_serve_setting(flag.substr(2)) != nullptr; }

std::string serve_flags_text() {
  const ServeSpec defaults;
  std::string out;
  for (const ServeSetting& s : kSettings) {
    std::string help = s.help;
    if (const std::size_t at = help.find("{default}"); at != std::string::npos) help.replace(at, 9, serve_setting_value(defaults, s));
    out += help;
  }
  return out;
}

std::string serve_setting_value(const ServeSpec& spec, const ServeSetting& s) {
  ServeSpec& m = const_cast<ServeSpec&>(spec);  // the accessor serves reads and writes; nothing is written here
  switch (s.kind) {
    case SettingKind::Int: return std::to_string(*static_cast<const int*>(s.field(m)));
    case SettingKind::Real: return model::num_exact(*static_cast<const double*>(s.field(m)));
    case SettingKind::Seed: return std::to_string(*static_cast<const std::uint64_t*>(s.field(m)));
    case SettingKind::Choice: return choice_name(s, *static_cast<const std::uint8_t*>(s.field(m)));
  }
  return "";
}

bool set_serve_flag(std::string_view flag, std::string_view value, ServeSpec& spec, model::Error& err) {
  const ServeSetting* s = flag.starts_with("--") ? find_serve_setting(flag.substr(2)) : nullptr;
  if (!s) {
    std::string flags;
    for (const ServeSetting& k : kSettings) flags += (flags.empty() ? "" : ", ") + std::string("--") + k.name;
    err = make_error(ErrorCode::UnknownKey, "flag", flag, "a serve flag: " + flags);
    return false;
  }
  double v = 0;
  switch (s->kind) {
    case SettingKind::Int:
    case SettingKind::Seed:
      if (!model::read_number(value, v) || v != std::floor(v) || v < s->lo || v > s->hi) {
        err = make_error(ErrorCode::OutOfRange, flag, value, whole_range(s->lo, s->hi));
        return false;
      }
      if (s->kind == SettingKind::Seed) *static_cast<std::uint64_t*>(s->field(spec)) = static_cast<std::uint64_t>(v);
      else *static_cast<int*>(s->field(spec)) = static_cast<int>(v);
      return true;
    case SettingKind::Real:
      if (!model::read_number(value, v) || v < s->lo || v > s->hi || (s->lo_open && v == s->lo) || (s->hi_open && v == s->hi)) {
        err = make_error(ErrorCode::OutOfRange, flag, value, s->allowed);
        return false;
      }
      *static_cast<double*>(s->field(spec)) = v;
      return true;
    case SettingKind::Choice:
      for (const Choice& c : s->choices) {
        if (value == c.name) {
          *static_cast<std::uint8_t*>(s->field(spec)) = c.value;
          return true;
        }
      }
      err = make_error(ErrorCode::BadEnum, flag, value, choice_names(*s, false));
      return false;
  }
  return false;
}

std::string serve_settings_allowed_text() {
  std::string s = "NAME:VALUE pairs joined by commas, each name once, from: ";
  bool first = true;
  for (const ServeSetting& k : kSettings) {
    if (!k.in_link) continue;
    s += (first ? "" : ", ") + std::string(k.name);
    first = false;
  }
  return s + " (the values `tierscope serve --NAME` takes; lengths " + choice_names(*find_serve_setting("lengths"), true, " or ") + ")";
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
    const ServeSetting* setting = find_serve_setting(name);
    if (!setting || !setting->in_link) {
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
    bool refused_here = false;
    for (const Choice& c : setting->choices) refused_here = refused_here || (value == c.name && !c.in_link);
    if (refused_here) {
      errors.push_back(make_error(ErrorCode::BadEnum, field, std::string(value),
                                  choice_names(*setting, true) + " (a recorded trace is a file: tierscope serve --lengths trace --trace FILE)"));
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
  for (const ServeSetting& s : kSettings) {
    if (!s.in_link) continue;
    const std::string v = serve_setting_value(spec, s);
    if (v == serve_setting_value(defaults, s)) continue;
    out += (out.empty() ? "" : ",") + std::string(s.name) + ":" + v;
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
