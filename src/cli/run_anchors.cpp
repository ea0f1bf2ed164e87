// `tierscope anchors`: every measured point with the model's value and its ratio, single-step and
// replayed, as text, JSON and CSV, with the summaries against the aims (docs/anchors.md).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "base/text.h"
#include "cli/commands.h"
#include "evidence/anchors.h"
#include "roofline/figures.h"
#include "serve/serve_anchors.h"

namespace tierscope::cli {

using namespace tierscope::model;
using Json = nlohmann::ordered_json;

namespace {

Json replayed_json(const serve::ReplayedAnchor& p) {
  if (!p.ok) return Json{{"ok", false}, {"why", p.why}};
  return Json{{"ok", true}, {"model", p.model}, {"ratio", p.ratio}, {"concurrency", p.concurrency}, {"prefill", p.prefill}};
}

Json anchor_json(const AnchorResult& r, const serve::ReplayedAnchor& p) {
  const Anchor& a = *r.anchor;
  Json terms = Json::array();
  for (const StepTerm& g : r.terms) terms.push_back(Json{{"term", g.label}, {"seconds", g.seconds}});
  return Json{{"replayed", serve::is_replayed(r) ? replayed_json(p) : Json(nullptr)},{"id", a.id}, {"family", anchor_family(a)}, {"row", a.row}, {"what", a.what}, {"preset", a.preset}, {"settings", a.settings},
              {"assumed", a.assumed}, {"metric", anchor_metric_name(a.metric)}, {"figure", figure_info(anchor_figure(a.metric)).id},
              {"unit", anchor_unit(a.metric)}, {"measured", a.measured}, {"model", r.ok ? Json(r.model) : Json(nullptr)},
              {"ratio", r.ok ? Json(r.ratio) : Json(nullptr)}, {"step_model_s", r.step_model}, {"step_measured_s", r.step_measured},
              {"terms", std::move(terms)}, {"ok", r.ok}, {"why", r.why}, {"replay", a.replay}, {"counts", counts_toward_aim(r)},
              {"provenance", provenance_name(a.provenance)}, {"date", a.date}, {"url", a.url}};
}

// One anchor as text: the metric, its step (or prefill pass) term by term, and whether it counts.
void anchor_text(const AnchorResult& r, const serve::ReplayedAnchor& p, std::string& out) {
  const Anchor& a = *r.anchor;
  const char* unit = anchor_unit(a.metric);
  const std::string row = a.row > 0 ? "FACTS-parallel §6 row " + std::to_string(a.row) + " · " : std::string();
  appendf(out, "%s  %s\n    %s%s\n", a.id, a.what, row.c_str(), a.url);
  out += a.replay ? "    counts toward the aim: no (a serving benchmark: its replayed ratio counts toward the replayed aim)\n"
                  : r.ok ? (r.offline_requests > 0 ? "    counts toward the aim: yes (single step; its replay counts toward the replayed aim too)\n"
                                                   : "    counts toward the aim: yes (single step)\n")
                         : "    counts toward the aim: yes (a single step the model cannot run: a miss)\n";
  if (!r.ok) {
    appendf(out, "    not computed: %s\n\n", r.why.c_str());
    return;
  }
  appendf(out, "    %s: measured %s, model %s, model/measured %.2f\n", anchor_metric_name(a.metric), human(a.measured, unit).c_str(),
          human(r.model, unit).c_str(), r.ratio);
  if (serve::is_replayed(r) && p.ok) {
    if (r.offline_requests > 0) {
      appendf(out, "    replayed (serve, %d requests queued at once, fixed lengths, prefill %s): %s, replay/measured %.2f\n", r.offline_requests,
              p.prefill.c_str(), human(p.model, unit).c_str(), p.ratio);
    } else {
      appendf(out, "    replayed (serve, concurrency %d, prefill %s): %s, replay/measured %.2f\n", p.concurrency, p.prefill.c_str(),
              human(p.model, unit).c_str(), p.ratio);
    }
  } else if (serve::is_replayed(r)) {
    appendf(out, "    replayed: not computed: %s\n", p.why.c_str());
  }
  if (!anchor_is_decode(a.metric)) {
    appendf(out, "    per prefill pass (one prompt per replica): measured %s, model %s (prefill.time)\n", human(r.step_measured, "s").c_str(),
            human(r.step_model, "s").c_str());
  } else {
    appendf(out, "    per decode step: measured %s, model %s =", human(r.step_measured, "s").c_str(), human(r.step_model, "s").c_str());
    bool first = true;
    for (const StepTerm& g : r.terms) {
      if (g.seconds <= 0) continue;
      appendf(out, "%s %s %s", first ? "" : " +", g.label.c_str(), human(g.seconds, "s").c_str());
      first = false;
    }
    out += "\n";
  }
  appendf(out, "    gap: %s unexplained by these terms\n", human(r.step_measured - r.step_model, "s").c_str());
  if (a.assumed[0]) appendf(out, "    assumed: %s\n", a.assumed);
  out += "\n";
}

}  // namespace

// Measured serving points against the model under one set of engine constants, grouped by model family
// (the table's order), each saying whether it counts toward the aim, and the summary line.
void cmd_anchors(const Options& opt, Output& o) { print_anchors(opt, evaluate_anchors(), o); }

void print_anchors(const Options& opt, const std::vector<AnchorResult>& results, Output& o) {
  const std::vector<serve::ReplayedAnchor> replayed = serve::replay_anchors(results);
  const AnchorSummary sum = summarize_anchors(results);
  const serve::ReplaySummary rsum = serve::summarize_replayed(replayed, results);
  const std::string summary = anchor_summary_text(sum), rsummary = serve::replay_summary_text(rsum);
  if (opt.format == Format::Json) {
    Json arr = Json::array();
    for (std::size_t i = 0; i < results.size(); ++i) arr.push_back(anchor_json(results[i], replayed[i]));
    const Json js{{"points", sum.points}, {"within_2x", sum.within_2x}, {"median_abs_log2", sum.median_abs_log2},
                  {"replay", sum.replay}, {"not_computed", sum.not_computed}, {"text", summary},
                  {"replayed", Json{{"points", rsum.points}, {"within_2x", rsum.within_2x}, {"median_abs_log2", rsum.median_abs_log2},
                                    {"not_computed", rsum.not_computed}, {"text", rsummary}}}};
    o.out = Json{{"anchors", std::move(arr)}, {"summary", js}}.dump(2) + "\n";
    return;
  }
  if (opt.format == Format::Csv) {
    o.out = "id,family,row,metric,measured,model,ratio,counts,replay,replayed_model,replayed_ratio,step_model_s,step_measured_s,what,settings,assumed,url\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
      const AnchorResult& r = results[i];
      const serve::ReplayedAnchor& p = replayed[i];
      const Anchor& a = *r.anchor;
      o.out += csv_field(a.id) + "," + csv_field(anchor_family(a)) + "," + std::to_string(a.row) + "," + csv_field(anchor_metric_name(a.metric)) +
               "," + num_exact(a.measured) + "," + (r.ok ? num_exact(r.model) : std::string()) + "," + (r.ok ? num_exact(r.ratio) : std::string()) +
               "," + (counts_toward_aim(r) ? "true" : "false") + "," + (a.replay ? "true" : "false") + "," + (p.ok ? num_exact(p.model) : std::string()) +
               "," + (p.ok ? num_exact(p.ratio) : std::string()) + "," + num_exact(r.step_model) + "," +
               num_exact(r.step_measured) + "," + csv_field(a.what) + "," + csv_field(a.settings) + "," + csv_field(a.assumed) + "," +
               csv_field(a.url) + "\n";
    }
    return;
  }
  o.out = "measured points against the model (one set of engine constants, no per-point tuning)\n";
  o.out += "SUMMARY: " + summary + "\n";
  o.out += "SUMMARY (replayed): " + rsummary + "\n";
  const char* family = "";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const char* f = anchor_family(*results[i].anchor);
    if (std::string_view(f) != family) {
      appendf(o.out, "\n== %s\n\n", f);
      family = f;
    }
    anchor_text(results[i], replayed[i], o.out);
  }
  o.out += "SUMMARY: " + summary + "\n";
  o.out += "SUMMARY (replayed): " + rsummary + "\n";
}

}  // namespace tierscope::cli
