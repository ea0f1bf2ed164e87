// The one registry of settable scenario parameters, shared by the JSON and URL codecs, the CLI and the UI.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "model/scenario.h"

namespace tierscope::model {

enum class ParamKind : std::uint8_t {
  Real,  // double, finite, within [min, max]
  Int,   // 32-bit integer within [min, max]
  Enum,  // one of enum_keys (stored as the enum's uint8 value)
  Text,  // structured text with its own parser (layer modes, Engram tables)
};
enum class ParamGroup : std::uint8_t { Model, Hardware, Layout, Workload, Fleet };
const char* param_group_name(ParamGroup g);  // "model", "hardware", "layout", "workload", "fleet"

struct ParamDef {
  const char* key;  // short, URL-friendly, stable
  ParamGroup group;
  ParamKind kind;
  const char* unit;
  double min, max;                  // Real and Int
  const char* const* enum_keys;     // Enum
  int enum_count;
  const char* description;
  void* (*field)(Scenario&);        // Real → double*, Int → int32_t*, Enum → uint8_t*
  bool (*parse_text)(Scenario&, std::string_view, std::string& why);  // Text
  std::string (*format_text)(const Scenario&);                         // Text
  // Text: whether two scenarios hold the same value, without formatting either (describe() asks per call).
  bool (*same_text)(const Scenario&, const Scenario&) = nullptr;
};

std::span<const ParamDef> params();
const ParamDef* find_param(std::string_view key);
// The accepted values in words: "1 to 16777216 tokens, integer", "one of: h100, h200, ...".
std::string param_allowed(const ParamDef& p);

// Parses text for one parameter and writes it only if valid (the scenario is untouched on error).
bool set_param_text(Scenario& s, const ParamDef& p, std::string_view text, Error& err);
// Numeric set for Real/Int/Enum (Enum by index); used by sweeps and the JSON codec.
bool set_param_number(Scenario& s, const ParamDef& p, double value, Error& err);
// Canonical text (exact for doubles), the inverse of set_param_text.
std::string get_param_text(const Scenario& s, const ParamDef& p);
// Numeric value for Real/Int/Enum (Enum: index); 0 for Text.
double get_param_number(const Scenario& s, const ParamDef& p);
bool param_equal(const Scenario& a, const Scenario& b, const ParamDef& p);

// A field that moved because another one did ("prefix_hit 7168 → 4096: at most the prompt").
struct Adjustment {
  std::string field, from, to, why;
};
using Adjustments = std::vector<Adjustment>;
// Sets one parameter as a person editing it expects: the fields that must follow it move too, and each
// move is reported. Lowering `prompt` below `prefix_hit` lowers the hit; raising `prefix_hit` above the
// prompt raises the prompt; changing `gpus` re-spreads `tp`, `dp` and `ep` over the new count in the
// same style (all TP, all data-parallel, or mixed); changing `tp` or `dp` moves the other so that
// tp × dp = gpus; changing `gpu` moves `host_link` to the new part's node link (catalogs.h) when it was the
// old part's. Validation (validate()) is the caller's; on a parse error nothing changes.
bool edit_param(Scenario& s, const ParamDef& p, std::string_view text, Adjustments& moved, Error& err);

// Moves tp, dp, ep and redundant the least needed so the layout divides the model's heads and experts
// over the same GPUs, in the style the layout had (all TP, all data-parallel, or mixed), as edit_param
// does when `gpus` changes; each move is reported. Nothing moves when the layout already fits.
void fit_layout(Scenario& s, Adjustments& moved);

// Cross-field checks (each value alone may be in range but together contradict). Empty when valid.
Errors validate(const Scenario& s);
// Whether tensor parallel `tp` splits the model's attention: tp divides the query heads and, for GQA, divides
// the KV heads or is a multiple of them (engines then keep a copy of each KV head on tp ÷ kv_heads GPUs).
bool tp_splits_heads(const ModelArch& m, int tp);

// True for "preset", "model" and every registry key (a link's view keys are link/view_codec.h's).
bool is_scenario_key(std::string_view key);

}  // namespace tierscope::model
