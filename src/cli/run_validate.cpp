// `tierscope validate FILE`: a measured-runs CSV replayed row by row (serve/validate.h), the rows shared over
// the machine's cores; and `anchors` with a model of its own (--config, or --hash with model=): the carried
// points of that model, evaluated with it.
#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "model/params.h"
#include "serve/validate.h"

namespace tierscope::cli {

using namespace tierscope::model;

namespace {

// The rows replayed on up to `threads` threads, each taking the next row not yet taken, the most work first;
// the results in the file's order whatever the timing (each row's replay is seeded on its own).
std::vector<serve::RunResult> replay_rows(const serve::MeasuredFile& file, const serve::ValidateOptions& vo, unsigned threads) {
  std::vector<serve::RunResult> results(file.runs.size());
  const std::vector<std::size_t> order = serve::replay_order(file);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < order.size(); k = next++) results[order[k]] = serve::validate_run(file, order[k], vo);
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return results;
}

// Each model_path of the file that `dir` holds a config.json for, read with the hf_quant_config.json beside it
// where there is one: the first of DIR/org--name.json, DIR/org--name_config.json, DIR/org/name/config.json.
// A model_path none of them names is left to the models validate knows; a file that cannot be read as a model
// is an entry whose rows are refused with the reader's reason (and a note says which file).
serve::ModelCatalog read_models(const std::string& dir, const serve::MeasuredFile& file, ReadFile read_file, Output& o) {
  serve::ModelCatalog catalog;
  const std::string base = dir.ends_with('/') ? dir : dir + "/";
  for (const serve::MeasuredRun& run : file.runs) {
    if (run.model_path.empty() || catalog.contains(run.model_path)) continue;
    const std::string stem = serve::config_file_stem(run.model_path);
    const std::pair<std::string, std::string> tries[] = {{base + stem + ".json", base + stem + "_hf_quant_config.json"},
                                                         {base + stem + "_config.json", base + stem + "_hf_quant_config.json"},
                                                         {base + run.model_path + "/config.json", base + run.model_path + "/hf_quant_config.json"}};
    for (const auto& [config_path, quant_path] : tries) {
      std::string text, quant, why;
      if (!read_file(config_path, text, why)) continue;
      if (!read_file(quant_path, quant, why)) quant.clear();
      serve::ModelEntry e = serve::model_from_config(text, quant, stem, config_path);
      if (!e.ok) o.err += "tierscope: note: --models: " + e.why + " (the rows of " + run.model_path + " are not replayed)\n";
      catalog.emplace(run.model_path, std::move(e));
      break;
    }
  }
  return catalog;
}

}  // namespace

void cmd_validate(const Options& opt, const Scenario& s, ReadFile read_file, Output& o) {
  std::string text, why;
  if (!read_file(opt.input_file, text, why)) {
    report(o, {make_error(ErrorCode::BadSyntax, "validate", opt.input_file, "a readable measured-runs CSV file (" + why + ")")}, kExitFile);
    return;
  }
  serve::MeasuredFile file;
  Errors errors;
  if (!serve::read_measured_runs(text, file, errors)) {
    for (Error& e : errors) e.field = opt.input_file + ": " + e.field;
    report(o, errors, kExitInvalid);
    return;
  }
  serve::ValidateOptions vo;
  vo.seed = static_cast<std::uint64_t>(std::max(0, s.fleet.seed));
  // A loaded config.json (or a link's model) stands in for every row's model.
  if (!opt.config_file.empty() || opt.hash_given) vo.model = &s;
  // A folder of the user's config.json files gives each row its own model.
  serve::ModelCatalog catalog;
  if (!opt.models_dir.empty()) {
    catalog = read_models(opt.models_dir, file, read_file, o);
    vo.models = &catalog;
  }
  const unsigned cores = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const std::vector<serve::RunResult> results = replay_rows(file, vo, cores);
  if (opt.format == Format::Json) o.out = serve::validate_json(results, file);
  else if (opt.format == Format::Csv) o.out = serve::validate_csv(results, file);
  else o.out = serve::validate_text(results, opt.input_file);
}

namespace {

// Whether two models are the same one, perhaps at other formats: every model key but the storage formats
// and the checkpoint's size (a cross-check, never an input) reads the same.
bool same_model(const ModelArch& a, const ModelArch& b) {
  Scenario x, y;
  x.model = a;
  y.model = b;
  for (const ParamDef& p : params()) {
    if (p.group != ParamGroup::Model) continue;
    const std::string_view k = p.key;
    if (k.ends_with("_fmt") || k == "checkpoint_gb") continue;
    if (get_param_text(x, p) != get_param_text(y, p)) return false;
  }
  return true;
}

}  // namespace

// The carried points whose preset holds this model, evaluated with it (their formats and layouts as carried).
void cmd_anchors_of(const Options& opt, const Scenario& s, Output& o) {
  std::vector<AnchorResult> results;
  for (const Anchor& a : anchors()) {
    Scenario preset;
    if (!make_preset(a.preset, preset) || !same_model(preset.model, s.model)) continue;
    results.push_back(evaluate_anchor(a, &s.model));
  }
  if (results.empty()) {
    report(o, {make_error(ErrorCode::Inconsistent, opt.config_file.empty() ? "--hash" : "--config", config_name(s).empty() ? scenario_label(s) : std::string(config_name(s)),
                          "a model some carried point was measured on (the presets' models: `tierscope presets`)")},
           kExitInvalid);
    return;
  }
  print_anchors(opt, results, o);
}


}  // namespace tierscope::cli
