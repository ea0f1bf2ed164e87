// Preset scenarios: reading the table's settings strings through the parameter registry (each preset built
// once, when first asked for), and where each input of a scenario comes from. The presets themselves are data, in preset_table.cpp.
#include "model/presets.h"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "base/text.h"
#include "model/params.h"

namespace tierscope::model {

namespace {

bool key_in_list(std::string_view list, std::string_view key) {
  for (const std::string_view k : split(list, ','))
    if (k == key) return true;
  return false;
}

// The groups a preset's inputs are searched in: its own, then its base's (and that one's base's), in order.
template <class F>
void for_each_input_group(const PresetInfo* p, F&& f) {
  for (int depth = 0; p && depth < 8; ++depth) {  // the depth bounds a base chain that loops back
    for (const std::span<const InputSource>& group : p->inputs) f(group);
    p = p->base ? find_preset(p->base) : nullptr;
  }
}

// Its base's settings first, then its own, in order; the name last. The table is fixed and a test holds
// every string to parse, so nothing is reported here.
void build_preset(const PresetInfo& p, Scenario& s) {
  if (p.base) {
    if (const PresetInfo* base = find_preset(p.base); base && base != &p) build_preset(*base, s);
  }
  Errors ignored;
  for (const char* settings : p.settings) {
    if (settings) apply_settings(s, settings, ignored);
  }
  s.preset = p.name;
}

// Each preset built once, on first use: make_preset and the provenance of each input (which describe()
// asks for on every call) copy or compare against these instead of re-reading the strings. Only the ones
// asked for are built, so the page's start builds the default preset alone, not the whole table.
const Scenario& built_preset(const PresetInfo& p) {
  struct Built {
    std::vector<Scenario> scenarios;
    std::vector<std::once_flag> once;
  };
  static Built built{std::vector<Scenario>(presets().size()), std::vector<std::once_flag>(presets().size())};
  const auto i = static_cast<std::size_t>(&p - presets().data());
  std::call_once(built.once[i], [&] { build_preset(p, built.scenarios[i]); });
  return built.scenarios[i];
}

}  // namespace

bool apply_settings(Scenario& s, std::string_view settings, Errors& errors) {
  const std::size_t before = errors.size();
  for (const std::string_view item : split(settings, '&')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      errors.push_back(make_error(ErrorCode::BadSyntax, "settings", item, "key=value pairs joined by &"));
      continue;
    }
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    const ParamDef* def = find_param(key);
    if (!def) {
      errors.push_back(make_error(ErrorCode::UnknownKey, key, value, "a scenario parameter (see `tierscope params`)"));
      continue;
    }
    Error e;
    if (!set_param_text(s, *def, value, e)) errors.push_back(e);
  }
  return errors.size() == before;
}

std::string preset_names_allowed() {
  std::string names = "one of: ";
  for (const PresetInfo& p : presets()) {
    if (&p != presets().data()) names += ", ";
    names += p.name;
  }
  return names;
}

bool make_preset(std::string_view name, Scenario& out) {
  const PresetInfo* p = find_preset(name);
  if (!p) return false;
  out = built_preset(*p);
  return true;
}

Scenario default_scenario() {
  Scenario s;
  make_preset(kDefaultPreset, s);
  return s;
}

std::string_view base_preset_name(const Scenario& s) { return s.origin ? std::string_view(s.origin->base_preset) : s.preset; }

std::string_view config_name(const Scenario& s) {
  const std::string_view p = s.preset;
  return p.starts_with(kConfigPresetPrefix) ? p.substr(kConfigPresetPrefix.size()) : std::string_view();
}

std::string config_label(std::string_view name, const Scenario& s) {
  // On the kept preset's hardware and layout, its own words for them ("8×B200 (two TP4 instances)");
  // once they change, the GPUs of the instance.
  Scenario base;
  const PresetInfo* p = find_preset(base_preset_name(s));
  if (p && make_preset(p->name, base) && base.hw.gpus == s.hw.gpus && base.hw.gpu == s.hw.gpu && base.par.tp == s.par.tp &&
      base.par.dp == s.par.dp) {
    const std::string_view label = p->label;
    if (const std::size_t at = label.find(" · "); at != std::string_view::npos) return std::string(name) + " (config.json)" + std::string(label.substr(at));
  }
  return std::string(name) + " (config.json) · " + std::to_string(s.hw.gpus) + "×" + gpu_info(s.hw.gpu).label;
}

std::string InputSourceOf::text() const {
  if (provenance == Provenance::Override) {
    return std::string(source) + (from_file ? " (the loaded config.json has " : " (the preset has ") + preset_value + ")";
  }
  return std::string(source);
}

std::string scenario_label(const Scenario& s) {
  // A loaded model's name with the hardware it runs on now (the GPU count may have changed since).
  if (const std::string_view name = config_name(s); !name.empty()) return config_label(name, s);
  if (s.origin) return s.origin->label;
  const PresetInfo* p = find_preset(s.preset);
  return p ? std::string(p->label) : s.preset;
}


namespace {

constexpr const char* kOverride = "set by the user";
constexpr const char* kDefaultAssumed = "assumed: the model's default (docs/model.md)";

// Which of a preset's listed sources covers each parameter, found once for every preset: describe() asks
// for all of them on every call, and scanning the comma lists each time was a fifth of its time.
const InputSource* listed_source(const PresetInfo* preset, std::size_t param) {
  static const std::vector<const InputSource*> table = [] {
    const std::span<const ParamDef> all = params();
    const std::span<const PresetInfo> all_presets = presets();
    std::vector<const InputSource*> t(all_presets.size() * all.size(), nullptr);
    // Each listed key found by binary search in the sorted keys (this runs at start-up, before the first
    // frame: matching every key against every list was ~10 ms of WebAssembly there). The first group that
    // lists a key gives its source.
    std::vector<std::pair<std::string_view, std::size_t>> names(all.size());
    for (std::size_t k = 0; k < all.size(); ++k) names[k] = {all[k].key, k};
    std::sort(names.begin(), names.end());
    for (std::size_t p = 0; p < all_presets.size(); ++p) {
      for_each_input_group(&all_presets[p], [&](std::span<const InputSource> group) {
        for (const InputSource& i : group) {
          for (const std::string_view key : split(i.key, ',')) {
            auto at = std::lower_bound(names.begin(), names.end(), key, [](const auto& n, std::string_view k) { return n.first < k; });
            for (; at != names.end() && at->first == key; ++at) {
              if (!t[p * all.size() + at->second]) t[p * all.size() + at->second] = &i;
            }
          }
        }
      });
    }
    return t;
  }();
  const std::size_t n = params().size();
  const std::size_t p = static_cast<std::size_t>(preset - presets().data());
  return param < n && p < presets().size() ? table[p * n + param] : nullptr;
}

// The source of one key under `preset` (not checking for an override): a loaded file's record first,
// then catalog-backed hardware, then the preset's groups in order.
const char* static_source(const Scenario& s, const PresetInfo* preset, const ParamDef* def, std::string_view key, Provenance& prov) {
  // A loaded file records where each of its keys came from (the file's field, or why it was assumed).
  if (s.origin) {
    for (const InputOrigin& i : s.origin->inputs) {
      if (i.key == key) {
        prov = i.provenance;
        return i.source.c_str();
      }
    }
  }
  if (key == "gpu" || ((key == "hbm_gb" || key == "hbm_tbps" || key == "link_gbps" || key == "link_domain" || key == "node_gpus") &&
                       def && get_param_number(s, *def) == 0)) {
    const GpuInfo& g = gpu_info(s.hw.gpu);
    prov = g.provenance;
    return g.source;
  }
  if (key == "host_link" || ((key == "host_gbps" || key == "host_lat_us") && def && get_param_number(s, *def) == 0)) {
    const LinkInfo& l = link_info(s.hw.host_link);
    prov = l.provenance;
    return l.source;
  }
  if (preset) {
    const std::span<const ParamDef> all = params();
    const InputSource* found = nullptr;
    if (def && def >= all.data() && def < all.data() + all.size()) {
      found = listed_source(preset, static_cast<std::size_t>(def - all.data()));
    } else {
      for_each_input_group(preset, [&](std::span<const InputSource> group) {
        for (const InputSource& i : group) {
          if (!found && key_in_list(i.key, key)) found = &i;
        }
      });
    }
    if (found) {
      prov = found->provenance;
      return found->source;
    }
  }
  prov = Provenance::Assumed;
  return kDefaultAssumed;
}

}  // namespace

InputProvenance input_provenance(const Scenario& s, std::string_view key) {
  InputProvenance out;
  const ScenarioOrigin* origin = s.origin.get();
  const PresetInfo* preset = find_preset(base_preset_name(s));
  const ParamDef* def = find_param(key);
  if (def && (origin || preset)) {
    // A loaded file's scenario is the base its later edits are measured against, as a preset is for its own.
    const Scenario& base = origin ? origin->loaded : built_preset(*preset);
    if (!param_equal(s, base, *def)) {
      out.provenance = Provenance::Override;
      out.source = std::string(kOverride) + " (" + (origin ? "the loaded config.json" : "the preset") + " has " + get_param_text(base, *def) + ")";
      return out;
    }
  }
  out.source = static_source(s, preset, def, key, out.provenance);
  return out;
}

void all_input_provenance(const Scenario& s, std::vector<InputSourceOf>& out) {
  out.clear();
  out.reserve(params().size());
  const ScenarioOrigin* origin = s.origin.get();
  const PresetInfo* preset = find_preset(base_preset_name(s));
  // A loaded file's scenario is the base its later edits are measured against, as a preset is for its own.
  static const Scenario none;
  const Scenario& base = origin ? origin->loaded : preset ? built_preset(*preset) : none;
  for (const ParamDef& p : params()) {
    InputSourceOf in;
    in.key = p.key;
    if ((origin || preset) && !param_equal(s, base, p)) {
      in.provenance = Provenance::Override;
      in.source = kOverride;
      in.from_file = origin != nullptr;
      in.preset_value = get_param_text(base, p);
    } else {
      in.source = static_source(s, preset, &p, p.key, in.provenance);
    }
    out.push_back(std::move(in));
  }
}

}  // namespace tierscope::model
