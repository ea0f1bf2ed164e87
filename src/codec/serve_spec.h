// A serving benchmark's settings (`tierscope serve`'s flags, and the page's `serve=` link key), read and
// written in one place: the command line, a share link and the page's Serve panel go through these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"

namespace tierscope::serve {

enum class Lengths : std::uint8_t { Fixed, Random, Sharegpt, Trace, Count };
// Auto: the engine's default. None: a decode pool of a disaggregated deployment (prompts arrive cached, the
// first token already out). Pd: the whole disaggregated deployment: each prompt runs in a prefill pool sized
// to keep up with the arrivals (its GPUs counted in the per-GPU figures), then joins the decode pool.
enum class PrefillMode : std::uint8_t { Auto, Chunked, First, None, Pd, Count };
// A shared-prefix workload's reuse: which shared prefix a request starts with (uniform or Zipf over the
// distinct prefixes), or conversations whose every turn resends the whole history (multi-turn).
enum class Reuse : std::uint8_t { Uniform, Zipf, MultiTurn, Count };
// The prefix cache's tiers: off (every prompt computed whole: the no-cache arm), HBM only (the engines'
// default), then host DRAM and SSD below it.
enum class CacheTiers : std::uint8_t { Hbm, HbmDram, HbmDramSsd, Off, Count };
const char* lengths_name(Lengths l);           // "fixed", "random", "sharegpt", "trace"
const char* prefill_mode_name(PrefillMode m);  // "auto", "chunked", "first", "none", "pd"
const char* reuse_name(Reuse r);                // "uniform", "zipf", "multi-turn"
const char* cache_tiers_name(CacheTiers t);     // "hbm", "hbm+dram", "hbm+dram+ssd", "off"

// What "random" lengths mean when no range is given, on the page and the command line alike: uniform on
// L × (1 ± 0.2), the spread assumed for the engines' random datasets that the replayed anchors and the
// frontier use too (docs/serve.md).
constexpr double kRandomRangeRatio = 0.2;

// What a person sets beside the scenario: every field has a `serve` flag of the same name (serve_settings()).
// Its defaults are the command line's and the page's Serve panel's (the catalog lists them).
struct ServeSpec {
  int concurrency = 0;        // closed loop: clients, each sending its next request when the last ends
  double rate = 0;            // open loop: Poisson arrivals per second (used when concurrency is 0)
  int requests = 0;           // 0: 10 × concurrency (at least 100), or 1000 at a rate
  int input = 0, output = 0;  // mean lengths; 0: the scenario's prompt and output
  Lengths lengths = Lengths::Fixed;
  double range_ratio = kRandomRangeRatio;  // random: uniform on [L × (1 − r), L × (1 + r)] (the engines' random dataset)
  double len_sigma = 1.0;     // sharegpt: σ of the log of both lengths
  int budget = 0;             // tokens one step schedules (decodes and prefill chunks); 0: the engine's
  PrefillMode prefill = PrefillMode::Auto;
  int instances = 1;          // identical instances behind a least-outstanding router
  int prefill_workers = 0;    // pd: prefill workers (each a replica of the instance's layout); 0: as many as keep up
  double slo_ttft = 0, slo_itl = 0;  // seconds a request's TTFT and mean inter-token gap must stay within; 0: none
  double goodput = 0;         // the attainment the goodput search holds (0: no search; the command line's only)
  int xpyd = 0;               // GPUs the xPyD search splits between prefill and decode (0: none; the command line's only)
  int steps = 0;              // scheduled steps kept for the trace
  int steps_from = 0;         // the run's step (counted from 0) the kept steps start at: 0 keeps the first
  std::uint64_t seed = 1;
  // A shared-prefix workload: each prompt starts with one of `prefixes` shared prefixes of `prefix_len`
  // tokens (its own tokens, drawn as above, follow); multi-turn: conversations of `turns` requests, each
  // resending the history before its new tokens. With neither, prompts share nothing and no cache runs.
  int prefix_len = 0, prefixes = 1, turns = 4;
  Reuse reuse = Reuse::Uniform;
  CacheTiers tiers = CacheTiers::Hbm;
  // From a recorded trace (Lengths::Trace): each request's input and output tokens, in order.
  std::vector<std::uint32_t> trace_input, trace_output;
};

// One setting, one row: its flag (`--NAME`) and link name (NAME), what it takes, its help and whether a link
// carries it. The flags' parser, the help, the `serve=` key and the page's Serve panel read the rows.
enum class SettingKind : std::uint8_t { Int, Real, Choice, Seed };
struct Choice {
  const char* name;
  std::uint8_t value;  // the enum's value in the spec
  bool in_link;        // false: the command line's only (a recorded trace is a file)
};
struct ServeSetting {
  const char* name;
  SettingKind kind;
  double lo, hi;              // Int, Seed: whole numbers lo to hi; Real: lo to hi
  bool lo_open, hi_open;      // Real: lo, hi themselves refused
  const char* allowed;        // Real: what a refusal says is allowed
  std::span<const Choice> choices;  // Choice: in the order a refusal lists them
  bool in_link;               // whether `serve=` carries it (the seed is the link's own `seed=`)
  void* (*field)(ServeSpec&);  // int*, double*, std::uint8_t* (Choice), std::uint64_t* (Seed)
  const char* help;           // the CLI's help lines ("{default}": ServeSpec{}'s value)
};
std::span<const ServeSetting> serve_settings();
const ServeSetting* find_serve_setting(std::string_view name);  // by NAME, without the dashes
// A setting's value in `spec` as the link and the flag spell it ("64", "0.2", "random").
std::string serve_setting_value(const ServeSpec& spec, const ServeSetting& s);

// One flag: "--concurrency", "128". False with `err` naming the flag, the value and what is allowed.
bool set_serve_flag(std::string_view flag, std::string_view value, ServeSpec& spec, model::Error& err);
bool is_serve_flag(std::string_view flag);
std::string serve_flags_text();  // the flags for the CLI's help, one per line

// The `serve=` link key: the flags without their dashes, as NAME:VALUE pairs joined by commas
// ("concurrency:64,input:1024,lengths:random,range-ratio:0.2"). The seed is the scenario's (`seed=`), and a
// recorded trace is a file, so neither is a setting a link carries here.
constexpr std::size_t kMaxServeSettingsBytes = 512;
constexpr std::string_view kServeKey = "serve";
// Reads settings over `spec` (what they leave out keeps its value). Each refused setting is an error whose
// field is "serve.NAME"; the rest apply. True when none was refused.
bool serve_settings_from_text(std::string_view text, ServeSpec& spec, model::Errors& errors);
// The settings that differ from ServeSpec{}, in the flags' order, as serve_settings_from_text reads them:
// one spelling per run, so a link written twice is the same link.
std::string serve_settings_text(const ServeSpec& spec);
// Whether `text` reads without refusal, and its canonical spelling in `canonical`.
bool serve_settings_known(std::string_view text, std::string* canonical = nullptr);
std::string serve_settings_allowed_text();

}  // namespace tierscope::serve
