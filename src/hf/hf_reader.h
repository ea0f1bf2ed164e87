// The config.json reader's shared parts: typed field reads that keep each field's name, and the steps the
// family mapping is split into (weight formats, per-layer attention, the MoE layout). Internal to hf_*.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "base/json_reader.h"
#include "base/text.h"
#include "model/params.h"
#include "model/scenario.h"

namespace tierscope::model::hf {

using Json = json::Value;
using P = Provenance;

// The families read: each has its own field names and layer rules.
enum class Fam : std::uint8_t { Llama, Mistral, Mixtral, Qwen2, Qwen2Moe, Qwen3, Qwen3Moe, DeepseekV2, DeepseekV3, GptOss, Gemma2, Gemma3, Phi3 };

extern const char* const kWhyRecurrent;

inline std::string dump(const Json& j) { return j.dump(true); }

// The fields of one model, read with their types checked. A vision-language file's language model is
// its text_config; the file-wide fields (dtype, quantization, tied embeddings) may sit at either level.
struct Reader {
  const Json& lm;
  const Json* top;     // the whole file when lm is its text_config, else nullptr
  std::string prefix;  // "text_config." or ""
  std::string name;
  Errors& errors;
  std::set<std::string> used_lm, used_top;
  std::vector<InputOrigin> inputs;
  std::vector<std::string> notes;

  struct Found {
    const Json* v = nullptr;
    std::string path;  // as the file spells it: "text_config.sliding_window"
  };
  Found look(const char* key, bool file_wide = false) {
    if (auto it = lm.find(key); it != lm.end()) {
      used_lm.insert(key);
      return {&*it, prefix + key};
    }
    if (file_wide && top) {
      if (auto it = top->find(key); it != top->end()) {
        used_top.insert(key);
        return {&*it, key};
      }
    }
    return {nullptr, prefix + key};
  }
  bool present(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    return f.v && !f.v->is_null();
  }
  void error(ErrorCode code, const std::string& field, const std::string& value, const std::string& allowed) {
    errors.push_back(make_error(code, field, value, allowed));
  }
  void missing(const std::string& field, const std::string& why) { error(ErrorCode::MissingField, field, "", why); }

  // An integer in [lo, hi]. Absent or null: nothing (reported when required). Anything else: an error.
  std::optional<long long> integer(const char* key, long long lo, long long hi, bool required, const char* what,
                                   bool file_wide = false) {
    const Found f = look(key, file_wide);
    const std::string allowed = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (" + what + ")";
    if (!f.v || f.v->is_null()) {
      if (required) missing(f.path, allowed);
      return std::nullopt;
    }
    long long v = 0;
    if (f.v->is_number_unsigned()) {
      const auto u = f.v->get<unsigned long long>();
      if (u > static_cast<unsigned long long>(hi)) {
        error(ErrorCode::OutOfRange, f.path, dump(*f.v), allowed);
        return std::nullopt;
      }
      v = static_cast<long long>(u);
    } else if (f.v->is_number_integer()) {
      v = f.v->get<long long>();
    } else {
      error(ErrorCode::WrongType, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    if (v < lo || v > hi) {
      error(ErrorCode::OutOfRange, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    return v;
  }
  // An integer bounded by the registry's range for `param`.
  std::optional<long long> param_int(const char* key, const char* param, bool required, const char* what, long long lo_floor = 1) {
    const ParamDef* d = find_param(param);
    const long long lo = std::max(lo_floor, static_cast<long long>(d->min));
    return integer(key, lo, static_cast<long long>(d->max), required, what);
  }
  std::optional<bool> boolean(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    if (!f.v || f.v->is_null()) return std::nullopt;
    if (!f.v->is_boolean()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), "true or false");
      return std::nullopt;
    }
    return f.v->get<bool>();
  }
  std::optional<std::string> text(const char* key, bool file_wide = false) {
    const Found f = look(key, file_wide);
    if (!f.v || f.v->is_null()) return std::nullopt;
    if (!f.v->is_string()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), "a string");
      return std::nullopt;
    }
    return f.v->get<std::string>();
  }
  // A list of integers (layer indices), each in [lo, hi].
  std::optional<std::vector<long long>> int_list(const char* key, long long lo, long long hi) {
    const Found f = look(key);
    if (!f.v || f.v->is_null()) return std::nullopt;
    const std::string allowed = "a list of layer indices from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!f.v->is_array()) {
      error(ErrorCode::WrongType, f.path, dump(*f.v), allowed);
      return std::nullopt;
    }
    std::vector<long long> out;
    for (const Json& x : *f.v) {
      if (!x.is_number_integer() || x.get<long long>() < lo || x.get<long long>() > hi) {
        error(x.is_number_integer() ? ErrorCode::OutOfRange : ErrorCode::WrongType, f.path, dump(x), allowed);
        return std::nullopt;
      }
      out.push_back(x.get<long long>());
    }
    return out;
  }

  std::string src(const std::string& fields) const { return "config.json of " + name + ": " + fields; }
  void set(const char* keys, Provenance p, const std::string& source) {
    for (const std::string_view k : split(keys, ',')) {
      const std::string key(k);
      bool replaced = false;
      for (InputOrigin& o : inputs) {
        if (o.key == key) {
          o.provenance = p;
          o.source = source;
          replaced = true;
        }
      }
      if (!replaced) inputs.push_back(InputOrigin{key, p, source});
    }
  }
  void read(const char* keys, const std::string& fields) { set(keys, P::Paper, src(fields)); }
};

// Layer indices as short ranges: "0-3, 5, 7-9".
inline std::string ranges(const std::vector<int>& layers) {
  std::string s;
  for (std::size_t i = 0; i < layers.size();) {
    std::size_t j = i;
    while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(layers[i]);
    if (j > i) s += "-" + std::to_string(layers[j]);
    i = j + 1;
  }
  return s;
}

// [SECTION] the steps of the mapping

// Weight, activation and KV formats from the dtype and quantization_config (hf_formats.cpp).
struct Formats {
  NumFormat dtype = NumFormat::BF16, experts = NumFormat::BF16, dense = NumFormat::BF16, act = NumFormat::BF16;
  NumFormat kv = NumFormat::BF16;
  bool kv_stated = false;
  Provenance dtype_prov = P::Paper, experts_prov = P::Paper, dense_prov = P::Paper, act_prov = P::Assumed;
  std::string dtype_src, experts_src, dense_src, act_src, kv_src;
};

Formats read_formats(Reader& r, bool has_experts);

// Which layers attend over a sliding window (hf_layers.cpp).
struct Layout {
  std::vector<char> kind;  // 'D' full attention, 'S' sliding window, per layer
  std::string fields;      // the config fields the pattern came from
  Provenance prov = P::Paper;
};
Layout read_layout(Reader& r, Fam fam, int layers, long long max_pos, std::optional<long long>& window);
// Which layers have routed experts, by the family's rule; the rest have a dense FFN (hf_layers.cpp).
std::vector<bool> moe_layers(Reader& r, Fam fam, int layers, std::string& fields);

}  // namespace tierscope::model::hf
