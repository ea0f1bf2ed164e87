// The listing commands: `tierscope presets` and `tierscope params`, in text, CSV or JSON.
#include <nlohmann/json.hpp>

#include "base/text.h"
#include "cli/commands.h"
#include "model/params.h"
#include "model/presets.h"

namespace tierscope::cli {

using namespace tierscope::model;
using Json = nlohmann::ordered_json;

void cmd_presets(const Options& opt, Output& o) {
  if (opt.format == Format::Json) {
    Json arr = Json::array();
    for (const PresetInfo& p : presets()) arr.push_back(Json{{"name", p.name}, {"label", p.label}, {"summary", p.summary}});
    o.out = arr.dump(2) + "\n";
    return;
  }
  if (opt.format == Format::Csv) o.out = "name,label,summary\n";
  for (const PresetInfo& p : presets()) {
    if (opt.format == Format::Csv) {
      o.out += csv_field(p.name) + "," + csv_field(p.label) + "," + csv_field(p.summary) + "\n";
    } else {
      appendf(o.out, "%-20s %s%s\n    %s\n", p.name, p.label,
              std::string_view(p.name) == kDefaultPreset ? " (default)" : "", p.summary);
    }
  }
}

void cmd_params(const Options& opt, Output& o) {
  const Scenario d = default_scenario();
  if (opt.format == Format::Json) {
    Json arr = Json::array();
    for (const ParamDef& p : params()) {
      arr.push_back(Json{{"key", p.key}, {"group", param_group_name(p.group)}, {"unit", p.unit},
                         {"allowed", param_allowed(p)}, {"default", get_param_text(d, p)}, {"description", p.description}});
    }
    o.out = arr.dump(2) + "\n";
    return;
  }
  if (opt.format == Format::Csv) o.out = "key,group,unit,allowed,default,description\n";
  for (const ParamDef& p : params()) {
    if (opt.format == Format::Csv) {
      o.out += csv_field(p.key) + "," + param_group_name(p.group) + "," + csv_field(p.unit) + "," +
               csv_field(param_allowed(p)) + "," + csv_field(get_param_text(d, p)) + "," + csv_field(p.description) + "\n";
    } else {
      appendf(o.out, "%-18s %-9s %s\n    allowed: %s; default: %s\n", p.key, param_group_name(p.group), p.description,
              param_allowed(p).c_str(), get_param_text(d, p).c_str());
    }
  }
}

}  // namespace tierscope::cli
