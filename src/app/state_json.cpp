// The app's own JSON for the page: its state at this moment (state_json: the view, the clock, the counters,
// what kind of model it is, the names, the selection, what an edit moved) and the answers of its operations
// ({ok, errors}, with the adjustments or the notes an operation reports).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "app/app.h"
#include "app/page_json.h"
#include "base/json_writer.h"
#include "base/text.h"
#include "codec/url_codec.h"
#include "link/view_codec.h"
#include "model/presets.h"

namespace tierscope::app {

namespace {
void errors_array(model::JsonWriter& w, const model::Errors& errors) {
  w.array();
  for (const model::Error& e : errors) {
    w.object().str("code", model::error_code_name(e.code)).str("field", e.field).str("value", e.value).str("allowed", e.allowed);
    w.str("message", e.message()).end();
  }
  w.end();
}

void adjustments_array(model::JsonWriter& w, const std::vector<Adjustment>& adjustments) {
  w.array();
  for (const Adjustment& a : adjustments) w.object().str("field", a.field).str("from", a.from).str("to", a.to).str("why", a.why).end();
  w.end();
}
}  // namespace

void errors_members(model::JsonWriter& w, const model::Errors& errors) {
  w.boolean("ok", errors.empty()).key("errors");
  errors_array(w, errors);
}

std::string errors_json(const model::Errors& errors) {
  model::JsonWriter w;
  w.object();
  errors_members(w, errors);
  return w.end().take();
}

std::string result_json(const model::Errors& errors, const std::vector<Adjustment>& adjustments) {
  model::JsonWriter w;
  w.object();
  errors_members(w, errors);
  w.key("adjustments");
  adjustments_array(w, adjustments);
  return w.end().take();
}

namespace {

// What kind of model this is, in the walkthrough's terms: the page picks its wording from these (never
// from the preset's name) and quotes the numbers.
void arch_json(model::JsonWriter& w, const model::ModelArch& m) {
  const bool sparse = model::has_indexer(m);
  const char* attention = "gqa";
  if (sparse) attention = "csa2";
  else if (m.attn == model::AttnKind::MLA) attention = "mla";
  else if (m.attn == model::AttnKind::Latent) attention = "latent";
  else if (m.kv_heads == m.q_heads) attention = "mha";
  else if (m.kv_heads == 1) attention = "mqa";
  const bool ced = model::is_encoder_decoder(m);
  const int encoder = ced ? m.enc_layers : 0;
  // The layers by what they keep and read, for the sparse-attention step's words: Full layers index their own
  // KV; Reuse and Reindex layers share another's (CSA2); Dense ones attend over all of theirs; S keep a window.
  int full = 0, shared = 0, dense = 0, window_only = 0;
  for (int i = 0; i < m.layer_count; ++i) {
    const model::LayerMode mode = m.layers[static_cast<std::size_t>(i)].mode;
    if (mode == model::LayerMode::Full) ++full;
    else if (mode == model::LayerMode::Reuse || mode == model::LayerMode::Reindex) ++shared;
    else if (mode == model::LayerMode::Dense) ++dense;
    else if (mode == model::LayerMode::SwaOnly) ++window_only;
  }
  const std::string_view name = model::sparse_attention_name(m);
  const char* sparse_kind = name == "DSA" ? "dsa" : name == "CSA2" ? "csa2" : "";
  w.object().str("family", ced ? "encoder-decoder" : "decoder-only").str("attention", attention);
  w.integer("layers", m.layer_count).integer("encoder_layers", encoder).integer("decoder_layers", m.layer_count - encoder);
  w.integer("q_heads", m.q_heads).integer("kv_heads", m.kv_heads).integer("head_dim", m.head_dim).integer("kv_lora", m.kv_lora);
  w.integer("window", m.n_win).boolean("moe", m.experts > 0).integer("experts", m.experts);
  w.integer("experts_per_token", m.experts_per_token).integer("shared_experts", m.shared_experts);
  w.boolean("engram", m.engram_count > 0).integer("engram_layers", m.engram_count).boolean("sparse", sparse);
  w.str("sparse_kind", sparse_kind).integer("full_layers", full).integer("shared_selection_layers", shared);
  w.integer("dense_layers", dense).integer("window_only_layers", window_only).boolean("candidate_pool", sparse && m.cand_src >= 0);
  w.str("kv_format", model::format_info(m.kv_fmt).label);
  // The same facts as the walkthrough quotes them (grouped digits), so the page formats no number.
  const std::pair<const char*, double> facts[] = {
      {"layers", m.layer_count}, {"encoder_layers", encoder}, {"decoder_layers", m.layer_count - encoder},
      {"q_heads", m.q_heads}, {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim}, {"kv_lora", m.kv_lora}, {"window", m.n_win},
      {"experts", m.experts}, {"experts_per_token", m.experts_per_token}, {"shared_experts", m.shared_experts},
      {"engram_layers", m.engram_count}, {"full_layers", full}, {"shared_selection_layers", shared}, {"dense_layers", dense},
      {"window_only_layers", window_only}};
  w.object("text");
  for (const auto& [key, value] : facts) w.str(key, model::num(value));
  w.end().end();
}

void names_json(model::JsonWriter& w, const App& app) {
  w.object().object("objects");
  for (int i = 0; i < anim::kObjectCount; ++i) {
    const auto k = static_cast<anim::ObjectKind>(i);
    w.str(anim::object_key(k), object_name(app, k));
  }
  w.end().object("endpoints");
  for (int i = 0; i < anim::kEndpointCount; ++i) {
    const auto e = static_cast<anim::Endpoint>(i);
    w.str(anim::endpoint_key(e), endpoint_name(app, e));
  }
  w.end().end();
}

}  // namespace

std::string errors_notes_json(const model::Errors& errors, const std::vector<std::string>& notes) {
  model::JsonWriter w;
  w.object();
  errors_members(w, errors);
  w.array("notes");
  for (const std::string& n : notes) w.str(n);
  return w.end().end().take();
}

namespace {

// The header's counters: exact numbers, and the same as the page shows them (grouped tokens, bytes with
// their unit).
void counters_json(model::JsonWriter& w, const anim::Counters& c) {
  w.object("counters").num("globalKvTokens", c.global_kv_tokens).num("globalKvBytes", c.global_kv_bytes);
  w.num("swaKvTokens", c.swa_kv_tokens).num("swaKvBytes", c.swa_kv_bytes).num("engramRows", c.engram_rows).end();
  w.object("counterText").str("globalKvTokens", model::num(c.global_kv_tokens)).str("globalKvBytes", model::human(c.global_kv_bytes, "B"));
  w.str("swaKvTokens", model::num(c.swa_kv_tokens)).str("swaKvBytes", model::human(c.swa_kv_bytes, "B"));
  w.str("engramRows", model::num(c.engram_rows)).end();
}

// A setup that cannot run: why, in the model's words, and each reason as an error (field to change, what
// the setup asks, what fits). Empty when it runs. The page shows it as a notice; figures say "not computed".
// Then the ways out, each one edit that makes the setup run: the page shows them as buttons.
void feasibility_json(model::JsonWriter& w, const App& app) {
  const model::Terms& terms = app.figures.computed.terms;
  w.boolean("feasible", terms.feasible()).str("infeasible", terms.feasible() ? std::string() : model::infeasible_summary(terms));
  w.key("infeasibleErrors");
  errors_array(w, model::infeasible_errors(terms));
  w.array("fixes");
  for (const model::SetupFix& f : app.fixes) w.object().str("field", f.field).str("value", f.value).str("label", f.label).str("why", f.why).end();
  w.end();
}

// The view's clock and what it shows: the path's step, or in the fleet view the hour on screen of the run's hours.
void clock_json(model::JsonWriter& w, const App& app, bool fleet) {
  const anim::StepState& st = app.state;
  w.integer("step", fleet ? fleet_hour(app) : app.playback.step).integer("steps", fleet ? fleet_hours(app) : st.steps);
  w.boolean("playing", fleet ? app.fleet_clock.playing : app.playback.playing).num("speed", app.playback.speed);
  w.num("fraction", app.playback.fraction).num("tModel", st.t_model).num("total", st.total).str("mapping", app.time_map.text);
  counters_json(w, st.counters);
  w.str("tModelText", fleet ? fleet_time_text(app.fleet_clock.t) : model::human(st.t_model, "s"));
  w.str("totalText", fleet ? fleet_time_text(fleet_end_s(app)) : model::human(st.total, "s"));
}

}  // namespace

std::string state_json(const App& app) {
  const bool fleet = fleet_view(app);
  model::JsonWriter w;
  w.object().str("preset", app.scenario.preset).str("presetLabel", model::scenario_label(app.scenario));
  // The node's GPUs and how its instances fill it ("8×B200 · two TP4 instances"), for the header.
  w.str("layoutText", model::layout_label(app.scenario)).str("scenarioHash", model::scenario_to_hash(app.scenario));
  w.str("viewHash", view_hash(app)).str("path", anim::path_key(app.playback.path));
  w.str("pathLabel", anim::path_label(app.playback.path, app.scenario.model));
  clock_json(w, app, fleet);
  w.integer("tour", app.tour).str("view", app.view).str("sweep", app.sweep).str("serve", app.serve);
  // What the Serve panel runs where its settings name nothing: the scenario's batch as clients, its prompt
  // and output lengths, 10 × the clients as requests (at least 100).
  const int clients = std::max(1, app.scenario.work.batch);
  w.key("serveDefaults").object().integer("concurrency", clients).integer("requests", std::max(100, 10 * clients));
  w.integer("input", std::max(1, app.scenario.work.prompt)).integer("output", std::max(1, app.scenario.work.output));
  // One instance unless the settings say more; the field's hint says how many the node holds, so a replay of
  // one of them is not read as the node's.
  const int on_node = std::max(1, model::node_gpus(app.scenario.hw) / std::max(1, app.scenario.hw.gpus));
  w.str("instances", on_node > 1 ? "1 (the node holds " + std::to_string(on_node) + ")" : std::string("1")).end().key("compare");
  if (app.comparing) {
    w.object().str("label", compare_label(app.pinned)).str("hash", model::scenario_to_hash(app.pinned));
    w.str("now", compare_label(app.scenario)).end();
  }
  else w.null();
  w.integer("ledgerLength", static_cast<long long>(app.ledger.entries.size())).array("panels");
  for (int i = 0; i < kPanelCount; ++i) {
    if ((app.panels >> i) & 1u) w.str(model::kPanelKeys[i]);
  }
  w.end().str("policy", policy_label(app.scenario)).str("note", app.ledger.note);
  // The current entry's sentence: the page's caption under the canvas and its live region.
  const int at = app.playback.step;
  const bool in_ledger = at >= 0 && at < static_cast<int>(app.ledger.entries.size());
  w.str("entrySentence", fleet ? fleet_hour_sentence(app) : in_ledger ? app.ledger.entries[static_cast<std::size_t>(at)].sentence : std::string());
  feasibility_json(w, app);
  w.key("arch");
  arch_json(w, app.scenario.model);
  w.key("names");
  names_json(w, app);
  w.boolean("panelOpen", panel_area_wanted(app)).key("selection");
  if (app.selected.valid() && !app.selection_id.empty()) {
    w.object().str("id", app.selection_id).str("name", app.selection_name).str("detail", app.selection_detail).end();
  } else {
    w.null();
  }
  w.integer("adjustmentsSeq", static_cast<long long>(app.adjustments_seq)).key("adjustments");
  adjustments_array(w, app.adjustments);
  if (fleet) w.key("fleet").raw(fleet_state_json(app));
  return w.end().take();
}

}  // namespace tierscope::app
