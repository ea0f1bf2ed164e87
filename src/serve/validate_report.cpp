// validate's output: the table per model × GPU × engine (then per engine × GPU, per engine and in all) as
// text, and one line per row as JSON (one object a line) or CSV.
#include <algorithm>
#include <cstdio>

#include "base/json_writer.h"
#include "base/text.h"
#include "serve/validate.h"

namespace tierscope::serve {

namespace {

std::string pct(int k, int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%3.0f%%", n > 0 ? 100.0 * k / n : 0.0);
  return buf;
}
std::string two(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%+.2f", v);
  return buf;
}
std::string metric_cells(const MetricStats& m) {
  if (m.n == 0) return "     —      —      —      — ";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s  %s  %5.2f  %s ", pct(m.within_125, m.n).c_str(), pct(m.within_2, m.n).c_str(), m.median_abs_log2, two(m.median_log2).c_str());
  return buf;
}

std::string row_text(const Partition& p, const std::string& label) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-34s %5d %5d  ", label.c_str(), p.rows, p.expressed);
  return std::string(buf) + metric_cells(p.ttft) + "   " + metric_cells(p.tpot) + "\n";
}

// A partition's label: its keys, and "disagg" for the disaggregated rows' own partitions.
std::string label(const Partition& p, const std::string& keys) { return p.mode == "disagg" ? keys + " · disagg" : keys; }

std::string cannot_text(const Partition& p) {
  std::string o;
  for (const auto& [why, n] : p.cannot) o += "    cannot express " + std::to_string(n) + ": " + why + "\n";
  return o;
}

constexpr const char* kHead =
    "                                    rows  rep.  TTFT ≤1.25×  ≤2×  |log₂|  bias     TPOT ≤1.25×  ≤2×  |log₂|  bias\n";

}  // namespace

std::string validate_text(const std::vector<RunResult>& results, std::string_view file_name) {
  const std::vector<Partition> all = summarize(results, PartitionBy::All);
  const Partition total = all.empty() ? Partition{} : all.front();
  std::string o = "tierscope validate " + std::string(file_name) + ": " + std::to_string(total.rows) + " measured runs, " +
                  std::to_string(total.expressed) + " replayed by serve at their own settings, " + std::to_string(total.rows - total.expressed) +
                  " that cannot be expressed (each with its reason).\n"
                  "Columns: rows; replayed; for mean TTFT and mean TPOT the share of replayed rows whose model ÷ measured is within 1.25× "
                  "and within 2×, the median |log₂(model ÷ measured)| and the median log₂ (bias: below 0, the model is faster). "
                  "Prefill/decode-disaggregated rows (· disagg) are partitions of their own, replayed by serve --prefill pd with "
                  "each pool at the row's workers and layout.\n\n";
  o += "model × GPU × engine\n";
  o += kHead;
  for (const Partition& p : summarize(results, PartitionBy::ModelGpuEngine)) {
    o += row_text(p, label(p, p.model + " · " + p.gpu + " · " + p.engine));
    o += cannot_text(p);
  }
  o += "\nengine × GPU\n";
  o += kHead;
  for (const Partition& p : summarize(results, PartitionBy::EngineGpu)) o += row_text(p, label(p, p.engine + " · " + p.gpu));
  o += "\nengine\n";
  o += kHead;
  for (const Partition& p : summarize(results, PartitionBy::Engine)) o += row_text(p, label(p, p.engine));
  o += "\n";
  o += kHead;
  for (const Partition& p : summarize(results, PartitionBy::Mode)) o += row_text(p, p.mode == "disagg" ? "disaggregated" : "aggregated");
  o += row_text(total, "all");
  o += cannot_text(total);
  // Rows of a model validate does not know: say which it does, and how to give the others.
  if (std::any_of(results.begin(), results.end(), [](const RunResult& r) { return !r.expressed && r.reason.starts_with("unknown model "); })) {
    std::string known;
    for (const std::string& m : known_models()) known += (known.empty() ? "" : ", ") + m;
    o += "    the models validate knows (and their quantised or instruction-tuned variants): " + known +
         "; any other's config.json is read from --models DIR (DIR/org--name.json, DIR/org--name_config.json or DIR/org/name/config.json)\n";
  }
  // How much of what is left a constant per engine × GPU could take out, and how much is scatter it cannot.
  o += "\nwith each engine × GPU's median model ÷ measured divided out (the most a constant per engine × GPU could reach)\n";
  o += kHead;
  const std::vector<RunResult> removed = offset_removed(results);
  for (const Partition& p : summarize(removed, PartitionBy::Mode)) o += row_text(p, p.mode == "disagg" ? "disaggregated" : "aggregated");
  const std::vector<Partition> all_removed = summarize(removed, PartitionBy::All);
  if (!all_removed.empty()) o += row_text(all_removed.front(), "all");
  return o;
}

std::string validate_json(const std::vector<RunResult>& results, const MeasuredFile& file) {
  std::string o;
  for (const RunResult& r : results) {
    const MeasuredRun& m = file.runs[r.row];
    model::JsonWriter w;
    w.object();
    w.integer("line", m.line).str("id", m.id).str("model", r.model).str("gpu", r.gpu).str("engine", r.engine).str("version", m.version);
    w.integer("isl", m.isl).integer("osl", m.osl).integer("concurrency", r.concurrency);
    w.boolean("disaggregated", r.disagg).boolean("expressed", r.expressed);
    if (!r.expressed) {
      w.str("reason", r.reason).str("why", r.why);
    } else {
      w.integer("gpus", r.gpus).integer("tp", r.tp).integer("dp", r.dp).integer("ep", r.ep);
      w.num("params", r.params).num("active_params", r.active_params);
      w.num("measured_ttft_s", r.measured_ttft_s).num("model_ttft_s", r.ttft_s).num("ttft_ratio", r.ttft_ratio());
      w.num("measured_tpot_s", r.measured_tpot_s).num("model_tpot_s", r.tpot_s).num("tpot_ratio", r.tpot_ratio());
      w.object("ttft_parts_s").num("overhead", r.ttft_parts.overhead).num("wait", r.ttft_parts.wait).num("queue", r.ttft_parts.queue);
      w.num("prefill", r.ttft_parts.prefill);
      if (r.disagg) w.num("transfer", r.ttft_transfer).num("admission", r.ttft_admission);
      w.end();
      if (r.disagg) {
        // The decode pool is `decode_workers` instances of the layout above; the prefill pool its own workers.
        w.integer("decode_workers", r.decode_workers).integer("prefill_workers", r.prefill_workers).integer("prefill_gpus", r.prefill_gpus);
        w.integer("prefill_tp", r.prefill_tp).integer("prefill_dp", r.prefill_dp).integer("prefill_ep", r.prefill_ep);
        w.str("handoff", r.handoff);
      }
      w.str("scenario", r.scenario);
    }
    w.end().newline();
    o += w.text();
  }
  return o;
}

std::string validate_csv(const std::vector<RunResult>& results, const MeasuredFile& file) {
  std::string o =
      "line,id,model,gpu,engine,version,isl,osl,concurrency,expressed,reason,gpus,tp,dp,ep,params,active_params,measured_ttft_s,model_ttft_s,"
      "ttft_ratio,measured_tpot_s,model_tpot_s,tpot_ratio,ttft_overhead_s,ttft_wait_s,ttft_queue_s,ttft_prefill_s,mode,decode_workers,prefill_workers,"
      "prefill_gpus,prefill_tp,prefill_dp,prefill_ep,ttft_transfer_s,ttft_admission_s,why\n";
  for (const RunResult& r : results) {
    const MeasuredRun& m = file.runs[r.row];
    o += std::to_string(m.line) + "," + model::csv_field(m.id) + "," + model::csv_field(r.model) + "," + model::csv_field(r.gpu) + "," +
         model::csv_field(r.engine) + "," + model::csv_field(m.version) + "," + std::to_string(m.isl) + "," + std::to_string(m.osl) + "," +
         std::to_string(r.concurrency) + "," + (r.expressed ? "true" : "false") + "," + model::csv_field(r.reason) + ",";
    if (r.expressed) {
      const double v[] = {r.params, r.active_params, r.measured_ttft_s, r.ttft_s, r.ttft_ratio(), r.measured_tpot_s, r.tpot_s, r.tpot_ratio(),
                          r.ttft_parts.overhead, r.ttft_parts.wait, r.ttft_parts.queue, r.ttft_parts.prefill};
      o += std::to_string(r.gpus) + "," + std::to_string(r.tp) + "," + std::to_string(r.dp) + "," + std::to_string(r.ep);
      for (const double x : v) o += "," + model::num_exact(x);
      o += ",";
    } else {
      o += ",,,,,,,,,,,,,,,,";
    }
    o += std::string(r.disagg ? "disagg" : "agg") + ",";
    if (r.expressed && r.disagg) {
      for (const int n : {r.decode_workers, r.prefill_workers, r.prefill_gpus, r.prefill_tp, r.prefill_dp, r.prefill_ep}) o += std::to_string(n) + ",";
      o += model::num_exact(r.ttft_transfer) + "," + model::num_exact(r.ttft_admission) + ",";
    } else {
      o += ",,,,,,,,";
    }
    o += model::csv_field(r.why) + "\n";
  }
  return o;
}

}  // namespace tierscope::serve
