// The app controller: share links restore the view exactly, bad link parameters fall back one by one,
// every operation keeps figures, ledger and state in step, and the state JSON carries what the page shows
// (the model's kind and names, the selection, values an edit moved).
//
// Sections: share links and bad parameters · operations and the revision · edits and what they moved · the
// state JSON (the model's kind, the panels, the selection) · config.json imports · setups that cannot run and
// their fixes · the comparison and the figures view · the walkthrough's steps and the one-clock rule · the
// view, presets and error codes as the page is told them.
#include <catch2/catch.hpp>

#include "app/app.h"
#include "app/page_json.h"
#include "codec/url_codec.h"
#include "evidence/reports.h"
#include "link/view_codec.h"
#include "model/params.h"
#include "model/presets.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace tierscope;

namespace {
bool has_error(const model::Errors& errors, const std::string& field, model::ErrorCode code) {
  for (const auto& e : errors)
    if (e.field == field && e.code == code) return true;
  return false;
}
}  // namespace

TEST_CASE("a share link round-trips every path, step, speed and panel set") {
  for (int p = 0; p < anim::kPathCount; ++p) {
    app::App app;
    app::init(app);
    model::Errors errors;
    REQUIRE(app::set_param(app, "ctx", "1048576", errors));
    app::set_path(app, static_cast<anim::PathId>(p));
    const int steps = static_cast<int>(app.ledger.entries.size());
    if (steps > 1) REQUIRE(app::seek(app, steps - 1, errors));
    REQUIRE(app::set_speed(app, 2, errors));
    app::set_panel(app, app::Panel::Card, true);
    const std::string hash = app::view_hash(app);
    const std::string state = app::state_json(app);

    app::App reopened;
    app::init(reopened);
    model::Errors e2;
    CHECK(app::apply_hash(reopened, hash, e2));
    CHECK(e2.empty());
    CHECK(app::view_hash(reopened) == hash);
    CHECK(app::state_json(reopened) == state);
  }
}

TEST_CASE("each bad link parameter is named and falls back alone") {
  app::App app;
  app::init(app);
  model::Errors errors;
  CHECK_FALSE(app::apply_hash(app, "preset=v41-flash-8xh200&ctx=abc&batch=8&path=warp&step=x&speed=99&panels=scenario,nope", errors));
  const bool ctx_named = has_error(errors, "ctx", model::ErrorCode::OutOfRange) ||
                         has_error(errors, "ctx", model::ErrorCode::WrongType) ||
                         has_error(errors, "ctx", model::ErrorCode::BadSyntax);
  CHECK(ctx_named);
  CHECK(has_error(errors, "path", model::ErrorCode::BadEnum));
  CHECK(has_error(errors, "step", model::ErrorCode::WrongType));
  CHECK(has_error(errors, "speed", model::ErrorCode::OutOfRange));
  CHECK(has_error(errors, "panels", model::ErrorCode::BadEnum));
  // The good keys still apply; the bad ones take their defaults.
  CHECK(app.scenario.preset == "v41-flash-8xh200");
  CHECK(app.scenario.work.batch == 8);
  CHECK(app.scenario.work.ctx == model::default_scenario().work.ctx);
  CHECK(app.playback.path == anim::PathId::Decode);
  CHECK(app.playback.step == 0);
  CHECK(app.playback.speed == 1);
  CHECK(app.panels == app::kDefaultPanels);
}

TEST_CASE("markup, oversized and duplicated link parameters are refused without touching the rest") {
  app::App app;
  app::init(app);
  model::Errors errors;
  CHECK_FALSE(app::apply_hash(app, "batch=4&gpu=<script>alert(1)</script>", errors));
  CHECK(has_error(errors, "gpu", model::ErrorCode::Markup));
  CHECK(app.scenario.work.batch == 4);

  errors.clear();
  const std::string huge = "ctx=" + std::string(100 * 1024, '9');
  CHECK_FALSE(app::apply_hash(app, huge, errors));
  CHECK(has_error(errors, "hash", model::ErrorCode::TooLarge));
  CHECK(app.scenario.work.batch == 4);  // nothing applied

  errors.clear();
  CHECK_FALSE(app::apply_hash(app, "batch=2&batch=3", errors));
  CHECK(has_error(errors, "batch", model::ErrorCode::DuplicateKey));
  CHECK(app.scenario.work.batch == 2);
}

TEST_CASE("operations refuse bad values and leave the app unchanged") {
  app::App app;
  app::init(app);
  const std::string before = app::state_json(app);
  model::Errors errors;
  CHECK_FALSE(app::set_param(app, "ctx", "-5", errors));
  CHECK_FALSE(app::set_param(app, "nonsense", "1", errors));
  CHECK(has_error(errors, "nonsense", model::ErrorCode::UnknownKey));
  CHECK_FALSE(app::set_preset(app, "gpt-9", errors));
  CHECK(has_error(errors, "preset", model::ErrorCode::UnknownPreset));
  CHECK_FALSE(app::set_path(app, "sideways", errors));
  CHECK_FALSE(app::seek(app, 10000, errors));
  CHECK_FALSE(app::seek(app, -1, errors));
  CHECK_FALSE(app::set_speed(app, 0, errors));
  CHECK_FALSE(app::set_speed(app, std::numeric_limits<double>::quiet_NaN(), errors));
  CHECK(app::state_json(app) == before);
}

TEST_CASE("changing the scenario recomputes figures and ledger together and keeps the step in range") {
  app::App app;
  app::init(app);
  app::set_path(app, anim::PathId::Csa2Modes);
  model::Errors errors;
  const int last = static_cast<int>(app.ledger.entries.size()) - 1;
  REQUIRE(app::seek(app, last, errors));
  REQUIRE(app::set_preset(app, "llama31-70b-8xh100", errors));
  CHECK(app.playback.step < static_cast<int>(std::max<std::size_t>(1, app.ledger.entries.size())));
  CHECK(app.figures[model::FigureId::KvGlobalPerToken].value == Approx(327680));
  CHECK(app.state.steps == static_cast<int>(app.ledger.entries.size()));
  CHECK(app::policy_label(app.scenario) == "BF16 KV per layer");
  REQUIRE(app::set_preset(app, "v41-flash-8xb200", errors));
  CHECK(app::policy_label(app.scenario) == "FP4 global KV");
}

TEST_CASE("playing advances through the steps, stops at the end, and the revision marks each change") {
  app::App app;
  app::init(app);
  const auto r0 = app.revision;
  app::play(app);
  CHECK(app.animating);
  CHECK(app.revision > r0);
  const auto r1 = app.revision;
  int guard = 0;
  while (app.playback.playing && guard++ < 100000) app::tick(app, 1.0 / 60);
  CHECK_FALSE(app.playback.playing);
  CHECK(app.playback.step == static_cast<int>(app.ledger.entries.size()) - 1);
  CHECK(app.revision > r1);
  CHECK_FALSE(app::tick(app, 1.0 / 60));  // idle: nothing moves, nothing to draw
}

namespace {
// A stand-in for the model's rule-aware edit: it lowers the prefix hit to a lowered prompt and says so in its
// own words, so these tests check the app's plumbing of adjustments apart from the model's rules.
bool edit_lowering_prefix(model::Scenario& s, const model::ParamDef& def, std::string_view value,
                          std::vector<app::Adjustment>& adjustments, model::Errors& errors) {
  model::Scenario next = s;
  model::Error err;
  if (!model::set_param_text(next, def, value, err)) {
    errors.push_back(err);
    return false;
  }
  if (next.work.prefix_hit > next.work.prompt) {
    adjustments.push_back({"prefix_hit", std::to_string(next.work.prefix_hit), std::to_string(next.work.prompt), "at most the prompt"});
    next.work.prefix_hit = next.work.prompt;
  }
  s = next;
  return true;
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("the model's edit lowers the prefix hit with a lowered prompt and says so") {
  app::App app;
  app::init(app);
  model::Errors errors;
  std::vector<app::Adjustment> moved;
  REQUIRE(app::set_param(app, "prompt", "1000", errors, &moved));
  CHECK(errors.empty());
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].field == "prefix_hit");
  CHECK(app.scenario.work.prefix_hit == 1000);
  CHECK(contains(app::state_json(app), "\"field\":\"prefix_hit\""));
}

TEST_CASE("a plain edit refuses a contradiction and names the other field, moving and changing nothing") {
  app::App app;
  app::init(app);
  app.edit = app::edit_param_plain;
  const std::string before = app::state_json(app);
  model::Errors errors;
  std::vector<app::Adjustment> moved;
  CHECK_FALSE(app::set_param(app, "prompt", "1000", errors, &moved));
  CHECK(has_error(errors, "prefix_hit", model::ErrorCode::Inconsistent));
  CHECK(moved.empty());
  CHECK(app::state_json(app) == before);
}

TEST_CASE("what an edit moved besides its own field reaches the caller, the state JSON and the result JSON") {
  app::App app;
  app::init(app);
  app.edit = edit_lowering_prefix;
  const auto seq0 = app.adjustments_seq;
  model::Errors errors;
  std::vector<app::Adjustment> moved;
  REQUIRE(app::set_param(app, "prompt", "5000", errors, &moved));
  CHECK(errors.empty());
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].field == "prefix_hit");
  CHECK(app.scenario.work.prompt == 5000);
  CHECK(app.scenario.work.prefix_hit == 5000);
  CHECK(app.adjustments_seq == seq0 + 1);
  const std::string state = app::state_json(app);
  CHECK(contains(state, "\"adjustmentsSeq\":" + std::to_string(seq0 + 1)));
  CHECK(contains(state, "\"adjustments\":[{\"field\":\"prefix_hit\",\"from\":\"7168\",\"to\":\"5000\",\"why\":\"at most the prompt\"}]"));
  CHECK(app::result_json({}, moved) ==
        "{\"ok\":true,\"errors\":[],\"adjustments\":[{\"field\":\"prefix_hit\",\"from\":\"7168\",\"to\":\"5000\",\"why\":\"at most the prompt\"}]}");
  // An edit that moves nothing else keeps the last notice's number, so the page shows nothing new.
  moved.clear();
  REQUIRE(app::set_param(app, "batch", "4", errors, &moved));
  CHECK(moved.empty());
  CHECK(app.adjustments_seq == seq0 + 1);
}

TEST_CASE("the state JSON says what kind of model it is and names its parts for this model") {
  app::App app;
  app::init(app);
  model::Errors errors;
  std::string s = app::state_json(app);
  CHECK(contains(s, "\"family\":\"encoder-decoder\""));
  CHECK(contains(s, "\"attention\":\"csa2\""));
  CHECK(contains(s, "\"moe\":true"));
  CHECK(contains(s, "\"engram\":true"));
  CHECK(contains(s, "\"moe-weights\":\"MoE weights\""));
  REQUIRE(app::set_preset(app, "llama31-70b-8xh100", errors));
  s = app::state_json(app);
  CHECK(contains(s, "\"family\":\"decoder-only\""));
  CHECK(contains(s, "\"attention\":\"gqa\""));
  CHECK(contains(s, "\"layers\":80"));
  CHECK(contains(s, "\"kv_heads\":8"));
  CHECK(contains(s, "\"moe\":false"));
  CHECK(contains(s, "\"moe-weights\":\"Dense weights\""));
  CHECK(app::object_name(app, anim::ObjectKind::MoeWeights) == "Dense weights");
  REQUIRE(app::set_preset(app, "deepseek-v3-8xh200", errors));
  CHECK(contains(app::state_json(app), "\"attention\":\"mla\""));
}

TEST_CASE("the panels ask for room only when they have something to show — the selection reaches the page") {
  app::App app;
  app::init(app);
  CHECK(app::panel_open(app, app::Panel::Inspector));
  CHECK_FALSE(app::panel_area_wanted(app));  // the inspector is open but has nothing to show
  CHECK(contains(app::state_json(app), "\"panelOpen\":false,\"selection\":null"));
  const auto r0 = app.revision;
  app::set_selection(app, {layout::Kind::Block, static_cast<int>(anim::ObjectKind::GlobalKv)}, "block:global-kv", "Global KV",
                    "116.7 MB resident in GPU HBM");
  CHECK(app.revision > r0);
  CHECK(app::panel_area_wanted(app));
  CHECK(contains(app::state_json(app), "\"selection\":{\"id\":\"block:global-kv\",\"name\":\"Global KV\""));
  app::set_selection(app, {}, "", "", "");
  CHECK_FALSE(app::panel_area_wanted(app));
  app::set_panel(app, app::Panel::Card, true);
  CHECK(app::panel_area_wanted(app));
  app::set_panel(app, app::Panel::Card, false);
  app.help_open = true;
  CHECK(app::panel_area_wanted(app));
}

namespace {
std::string corpus_file(const char* name) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("a loaded config.json changes the model only, and its share link reopens the same model without the file") {
  for (const char* file : {"Qwen3-30B-A3B.json", "gemma-3-27b-it.json", "DeepSeek-V2-Lite-Chat.json"}) {
    INFO(file);
    app::App app;
    app::init(app);
    app::set_path(app, anim::PathId::Prefill);
    const model::Hardware hw = app.scenario.hw;
    model::Errors errors;
    std::vector<std::string> notes;
    REQUIRE(app::load_config(app, corpus_file(file), errors, notes));
    CHECK(errors.empty());
    CHECK_FALSE(notes.empty());
    CHECK(app.scenario.preset.rfind("config:", 0) == 0);
    CHECK(app.scenario.hw.gpus == hw.gpus);
    CHECK(app.scenario.hw.gpu == hw.gpu);
    CHECK(app.playback.path == anim::PathId::Prefill);
    CHECK(app::state_json(app).find("(config.json)") != std::string::npos);
    // The default 128K context is beyond Qwen3-30B-A3B's 40,960 trained positions: the load says so.
    bool context_noted = false;
    for (const std::string& n : notes) context_noted = context_noted || n.rfind("context: ctx 131072", 0) == 0;
    CHECK(context_noted == (app.scenario.model.max_pos < 131072));

    // The link names the kept preset and every model key that differs from it.
    const std::string hash = app::view_hash(app);
    CHECK(hash.rfind("preset=v41-flash-8xb200&", 0) == 0);
    app::App reopened;
    app::init(reopened);
    model::Errors e2;
    CHECK(app::apply_hash(reopened, hash, e2));
    CHECK(e2.empty());
    for (const model::ParamDef& p : model::params()) {
      INFO(p.key);
      CHECK(model::param_equal(app.scenario, reopened.scenario, p));
    }
    REQUIRE(app.figures.list.size() == reopened.figures.list.size());
    for (std::size_t i = 0; i < app.figures.list.size(); ++i) {
      const model::Figure& a = app.figures.list[i];
      const model::Figure& b = reopened.figures.list[i];
      INFO(std::string(a.id));
      CHECK(a.feasible == b.feasible);
      CHECK((a.value == b.value || (std::isnan(a.value) && std::isnan(b.value))));  // not computed on both sides
    }
    CHECK(app::view_hash(reopened) == hash);
  }
}

TEST_CASE("a config.json that cannot be read leaves the app unchanged and says why, with notes in the bridge's shape") {
  app::App app;
  app::init(app);
  const std::string before = app::state_json(app);
  const auto revision = app.revision;
  model::Errors errors;
  std::vector<std::string> notes;
  CHECK_FALSE(app::load_config(app, "{\"model_type\": \"mamba\"}", errors, notes));
  CHECK(has_error(errors, "model_type", model::ErrorCode::Unrepresentable));
  CHECK_FALSE(app::load_config(app, "not json", errors, notes));
  CHECK(app::state_json(app) == before);
  CHECK(app.revision == revision);
  CHECK(notes.empty());
  const std::string bad = app::errors_notes_json(errors, notes);
  CHECK(bad.rfind("{\"ok\":false,\"errors\":[{\"code\":\"unrepresentable\"", 0) == 0);
  CHECK(bad.find(",\"notes\":[]}") != std::string::npos);
  const std::string good = app::errors_notes_json({}, {"KV cache: bf16 <assumed>"});
  CHECK(good == "{\"ok\":true,\"errors\":[],\"notes\":[\"KV cache: bf16 \\u003cassumed\\u003e\"]}");
}

TEST_CASE("a setup that cannot run says why in the state JSON, and its figures are not computed") {
  app::App app;
  app::init(app);
  CHECK(contains(app::state_json(app), "\"feasible\":true,\"infeasible\":\"\",\"infeasibleErrors\":[]"));
  model::Errors errors;
  REQUIRE(app::set_param(app, "gpus", "1", errors));
  const std::string s = app::state_json(app);
  CHECK(contains(s, "\"feasible\":false"));
  CHECK(contains(s, "\"infeasibleErrors\":[{\"code\":\"infeasible\""));
  CHECK(app.ledger.entries.empty());
  CHECK(contains(model::figures_to_json(app.figures, app.scenario), "\"text\": \"not computed\""));
}

TEST_CASE("a hand-written link with gpus=1 opens that setup, says what followed, and shows why it cannot run") {
  app::App app;
  app::init(app);
  model::Errors errors;
  const auto seq = app.adjustments_seq;
  REQUIRE(app::apply_hash(app, "#gpus=1&path=decode", errors));
  CHECK(errors.empty());
  CHECK(app.scenario.hw.gpus == 1);
  CHECK(app.adjustments_seq == seq + 1);
  REQUIRE_FALSE(app.adjustments.empty());
  CHECK(app.adjustments[0].field == "tp");
  CHECK(contains(app::state_json(app), "\"feasible\":false"));
}

TEST_CASE("pinning a scenario compares it with the current one: charts show both, the link reopens both") {
  app::App app;
  app::init(app);
  app::set_compare(app, true);
  model::Errors errors;
  REQUIRE(app::set_param(app, "gpus", "8", errors));
  REQUIRE(app::set_view(app, "chart-roofline", "", errors));
  const std::string hash = app::view_hash(app);
  CHECK(contains(hash, "&cmp=v41-flash-8xb200"));
  CHECK(contains(hash, "view=chart-roofline"));
  CHECK(contains(app::state_json(app), "\"compare\":{\"label\":"));
  app::App reopened;
  app::init(reopened);
  REQUIRE(app::apply_hash(reopened, hash, errors));
  CHECK(reopened.comparing);
  CHECK(reopened.view == "chart-roofline");
  CHECK(app::view_hash(reopened) == hash);
  CHECK(model::scenario_to_hash(reopened.pinned) == model::scenario_to_hash(app.pinned));
  std::string text;
  REQUIRE(app::pinned_export(reopened, "figures-pinned", "json", text, errors));
  CHECK(contains(text, "\"hash\": \"preset=v41-flash-8xb200\""));
  // A bad view is named, and nothing changes.
  CHECK_FALSE(app::set_view(app, "chart-pie", "", errors));
  CHECK(app.view == "chart-roofline");
  app::set_compare(app, false);
  CHECK_FALSE(contains(app::view_hash(app), "cmp="));
  CHECK_FALSE(app::pinned_export(app, "ledger-pinned", "json", text, errors));
}

TEST_CASE("the comparison JSON gives both values of every figure with B/A, and both timelines of the path") {
  app::App app;
  app::init(app);
  CHECK(app::compare_json(app) == "null");
  app::set_compare(app, true);
  model::Errors errors;
  REQUIRE(app::set_param(app, "gpus", "8", errors));
  const std::string c = app::compare_json(app);
  CHECK(contains(c, "\"a\":{\"label\":"));
  CHECK(contains(c, "{\"id\":\"hw.gpus\"") == false);  // figures, not inputs
  CHECK(contains(c, "\"id\":\"decode.step_time\""));
  CHECK(contains(c, "\"timelines\":{\"a\":{\"total\":"));
  // Both timelines add up to their own decode step.
  const auto at = c.find("\"id\":\"hbm.weights_per_gpu\"");
  REQUIRE(at != std::string::npos);
  CHECK(c.find("\"ratio\":\"0.5", at) < c.find('}', at));  // half the weights per GPU on twice the GPUs
}

TEST_CASE("the page's light figures view has every figure with the downloads' words, and no sources") {
  app::App app;
  app::init(app);
  const std::string v = app::figures_view_json(app);
  std::string full;
  model::Errors errors;
  REQUIRE(app::figures_export(app, "json", full, errors));
  CHECK(v.find("\"sources\"") == std::string::npos);
  CHECK(v.size() * 2 < full.size());
  for (const model::Figure& f : app.figures.list) CHECK(contains(v, "{\"id\":\"" + std::string(f.id) + "\""));
  CHECK(contains(v, "\"text\":\"890 B/token\""));
  CHECK(contains(full, "\"text\": \"890 B/token\""));
  // The walkthrough asks for the few it shows: those, in the table's order, and nothing for an unknown id.
  const model::Figure& a = app.figures.list.at(3);
  const model::Figure& b = app.figures.list.at(1);
  const std::string some = app::figures_view_json(app, std::string(a.id) + ",no.such.figure," + std::string(b.id));
  CHECK(contains(some, "{\"id\":\"" + std::string(a.id) + "\""));
  CHECK(contains(some, "{\"id\":\"" + std::string(b.id) + "\""));
  CHECK(some.find("{\"id\":\"" + std::string(b.id) + "\"") < some.find("{\"id\":\"" + std::string(a.id) + "\""));
  std::size_t listed = 0;
  for (std::size_t at = some.find("{\"id\":"); at != std::string::npos; at = some.find("{\"id\":", at + 1)) ++listed;
  CHECK(listed == 2);
  CHECK_FALSE(contains(some, "no.such.figure"));
  CHECK(app::figures_view_json(app, "no.such.figure") == "{\"figures\":[]}");
}

TEST_CASE("a link to the walkthrough's first screen opens step one's path and keeps its name until another path is chosen") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::apply_hash(app, "tour=intro", errors));
  CHECK(app.tour == model::kTourIntro);
  CHECK(std::string(anim::path_key(app.playback.path)) == "prefill");
  CHECK(app::view_hash(app).ends_with("&tour=intro"));
  REQUIRE(app::set_tour(app, model::kTourIntro, errors));
  app::set_path(app, anim::PathId::Decode);
  CHECK(app::view_hash(app).ends_with("&tour=2"));
  REQUIRE(app::apply_hash(app, "tour=3", errors));
  CHECK(app::view_hash(app).ends_with("&tour=3"));
  CHECK_FALSE(app::set_tour(app, -2, errors));
}

TEST_CASE("a new selection scrolls the inspector back to its top, so the new object's name and why are in view") {
  app::App app;
  app::init(app);
  const app::CanvasTarget kv{layout::Kind::Block, static_cast<int>(anim::ObjectKind::GlobalKv)};
  const app::CanvasTarget moe{layout::Kind::Block, static_cast<int>(anim::ObjectKind::MoeWeights)};
  // set_selection says whether another object is now selected; the canvas then scrolls the inspector.
  CHECK(app::set_selection(app, kv, "block:global-kv", "Global KV", "resident"));
  CHECK_FALSE(app::set_selection(app, kv, "block:global-kv", "Global KV", "resident, now larger"));  // the same object with a new value keeps the reader's place
  CHECK(app.selection_detail == "resident, now larger");
  CHECK(app::set_selection(app, moe, "block:moe-weights", "MoE weights", "resident"));
  CHECK_FALSE(app::set_selection(app, {}, "", "", ""));
  CHECK_FALSE(app.selected.valid());
}

TEST_CASE("an imported model's link names it: a fresh app opened on it shows the same name and numbers") {
  app::App app;
  app::init(app);
  model::Errors errors;
  std::vector<std::string> notes;
  REQUIRE(app::load_config(app, corpus_file("Qwen3-30B-A3B.json"), errors, notes, "Qwen3-30B-A3B.json"));
  CHECK(app.scenario.work.ctx == 40960);  // lowered to the trained positions by the import
  REQUIRE(app::set_param(app, "ctx", "32768", errors));
  const std::string label = model::scenario_label(app.scenario);
  CHECK(label == "Qwen3-30B-A3B (config.json) · 8×B200 (two TP4 instances)");
  const std::string hash = app::view_hash(app);
  CHECK(hash.find("&model=Qwen3-30B-A3B&") != std::string::npos);
  app::App fresh;
  app::init(fresh);
  model::Errors e2;
  REQUIRE(app::apply_hash(fresh, "#" + hash, e2));
  CHECK(e2.empty());
  CHECK(app::state_json(fresh).find("\"presetLabel\":\"Qwen3-30B-A3B (config.json) · 8×B200 (two TP4 instances)\"") != std::string::npos);
  CHECK(model::scenario_label(fresh.scenario) == label);
  REQUIRE(app.figures.list.size() == fresh.figures.list.size());
  for (std::size_t i = 0; i < app.figures.list.size(); ++i) {
    CHECK(app.figures.list[i].feasible == fresh.figures.list[i].feasible);
    CHECK(app.figures.list[i].value == fresh.figures.list[i].value);
  }
  CHECK(app::view_hash(fresh) == hash);
}

TEST_CASE("an imported model's link with one bad key keeps the model and its other keys — the key that follows it moves and is said") {
  app::App app;
  app::init(app);
  model::Errors errors;
  std::vector<std::string> notes;
  REQUIRE(app::set_preset(app, "v41-flash-8xh200", errors));
  REQUIRE(app::load_config(app, corpus_file("Qwen2-7B-Instruct.json"), errors, notes, "Qwen2-7B-Instruct.json"));
  // tp=8 cannot split Qwen2-7B's 28 query heads; dp=1 follows tp (tp × dp = gpus).
  const std::string link = model::scenario_to_hash(app.scenario) + "&gpus=8&tp=8&dp=1&batch=16&path=decode";
  app::App fresh;
  app::init(fresh);
  model::Errors e2;
  CHECK_FALSE(app::apply_hash(fresh, link, e2));
  REQUIRE(e2.size() == 1);
  CHECK(e2[0].field == "tp");
  CHECK(model::scenario_label(fresh.scenario).rfind("Qwen2-7B-Instruct (config.json)", 0) == 0);
  CHECK(fresh.scenario.hw.gpus == 8);
  CHECK(fresh.scenario.work.batch == 16);
  CHECK(fresh.playback.path == anim::PathId::Decode);
  CHECK(fresh.scenario.par.tp * fresh.scenario.par.dp == 8);
  const auto dp = std::find_if(fresh.adjustments.begin(), fresh.adjustments.end(), [](const model::Adjustment& a) { return a.field == "dp"; });
  REQUIRE(dp != fresh.adjustments.end());
  CHECK(dp->from == "1");
  CHECK(app::state_json(fresh).find("{\"field\":\"dp\",\"from\":\"1\"") != std::string::npos);  // the page says it
}

TEST_CASE("a setup that cannot run carries its fixes in the state — applying one through set_param makes it run") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_param(app, "gpus", "1", errors));
  REQUIRE_FALSE(app.figures.computed.terms.feasible());
  REQUIRE_FALSE(app.fixes.empty());
  const std::string st = app::state_json(app);
  CHECK(st.find("\"fixes\":[{\"field\":") != std::string::npos);
  CHECK(st.find(app.fixes.front().label) != std::string::npos);
  const model::SetupFix fix = app.fixes.front();
  REQUIRE(app::set_param(app, fix.field, fix.value, errors));
  CHECK(app.figures.computed.terms.feasible());
  CHECK(app.fixes.empty());
  CHECK(app::state_json(app).find("\"fixes\":[]") != std::string::npos);
}

TEST_CASE("a walkthrough step opens in one operation: its path, paused on the entry it talks about, named by the link") {
  app::App app;
  app::init(app);
  model::Errors errors;
  app::play(app);
  REQUIRE(app::open_tour_step(app, 5, false, errors));  // swa-resume: the restore of a hit
  CHECK(errors.empty());
  CHECK(std::string(anim::path_key(app.playback.path)) == "swa-resume");
  CHECK_FALSE(app.playback.playing);
  CHECK(app.tour == 5);
  const anim::LedgerEntry& e = app.ledger.entries.at(static_cast<std::size_t>(app.playback.step));
  CHECK(e.step == "restore");
  CHECK(e.phase == "hit");
  CHECK(app.playback.step == app::tour_entry_index(app, 5));
  CHECK(app::view_hash(app).ends_with("&tour=5"));
  // Each numbered step opens on its own entry of its own path.
  for (int tour = 1; tour <= model::kTourSteps; ++tour) {
    REQUIRE(app::open_tour_step(app, tour, false, errors));
    CHECK(std::string(anim::path_key(app.playback.path)) == model::tour_path(tour));
    const model::TourEntry want = model::tour_entry(tour);
    CHECK(app.ledger.entries.at(static_cast<std::size_t>(app.playback.step)).step == want.step);
  }
  // The first screen: its path's first entry; Play plays the step's path from its start.
  REQUIRE(app::open_tour_step(app, model::kTourIntro, false, errors));
  CHECK(std::string(anim::path_key(app.playback.path)) == "prefill");
  CHECK(app.playback.step == 0);
  CHECK(app::view_hash(app).ends_with("&tour=intro"));
  REQUIRE(app::open_tour_step(app, 2, true, errors));
  CHECK(app.playback.playing);
  CHECK(app.playback.step == 0);
  CHECK(app.tour == 2);
  // Out of range: an error naming the field; nothing changes.
  const std::string before = app::view_hash(app);
  for (const int bad : {0, -2, model::kTourSteps + 1}) {
    model::Errors e2;
    CHECK_FALSE(app::open_tour_step(app, bad, false, e2));
    CHECK(has_error(e2, "tour", model::ErrorCode::OutOfRange));
  }
  CHECK(app::view_hash(app) == before);
}

TEST_CASE("the walkthrough step follows the path on screen once used, and a link's step without a path opens its entry") {
  app::App app;
  app::init(app);
  model::Errors errors;
  app::set_path(app, anim::PathId::Engram);
  CHECK(app.tour == 0);  // not used yet: the link names no step
  REQUIRE(app::open_tour_step(app, 2, false, errors));
  app::set_path(app, anim::PathId::Engram);
  CHECK(app.tour == 3);  // the step that tells the path on screen
  CHECK(app::view_hash(app).ends_with("&tour=3"));
  REQUIRE(app::apply_hash(app, "preset=v41-flash-8xb200&tour=6", errors));
  CHECK(std::string(anim::path_key(app.playback.path)) == "prefix-cache");
  CHECK(app.ledger.entries.at(static_cast<std::size_t>(app.playback.step)).step == model::tour_entry(6).step);
}

TEST_CASE("opening a walkthrough step leaves the fleet view and keeps the sweep chart's choice") {
  app::App app;
  app::init(app);
  model::Errors errors;
  REQUIRE(app::set_view(app, "fleet", "decode.step_time:batch", errors));
  REQUIRE(app::fleet_view(app));
  REQUIRE(app::open_tour_step(app, 2, false, errors));
  CHECK_FALSE(app::fleet_view(app));
  CHECK(app.view.empty());
  CHECK(app.sweep == "decode.step_time:batch");
}

TEST_CASE("a link keeps the one-clock rule: opening it stops the clock of the view it leaves") {
  app::App app;
  app::init(app);
  model::Errors errors;
  // The fleet view's clock plays; a link to an animation stops it.
  REQUIRE(app::set_param(app, "hours", "1", errors));
  REQUIRE(app::set_view(app, "fleet", errors));
  REQUIRE(app::fleet_start(app, "", errors));
  while (!app.fleet.done) REQUIRE(app::fleet_advance(app, 50000) > 0);
  app::fleet_play(app);
  REQUIRE(app.fleet_clock.playing);
  REQUIRE(app::apply_hash(app, "preset=v41-flash-8xb200&hours=1&path=decode", errors));
  CHECK_FALSE(app::fleet_view(app));
  CHECK_FALSE(app.fleet_clock.playing);
  // The path plays; a link to the fleet view leaves it paused.
  app::play(app);
  REQUIRE(app.playback.playing);
  REQUIRE(app::apply_hash(app, "preset=v41-flash-8xb200&hours=1&path=decode&view=fleet", errors));
  CHECK(app::fleet_view(app));
  CHECK_FALSE(app.playback.playing);
  CHECK(errors.empty());
}

TEST_CASE("the view and the sweep chart's choice are checked as a link's keys are, without a link") {
  app::App app;
  app::init(app);
  model::Errors errors;
  CHECK(app::set_view(app, "chart-sweep", "decode.step_time:batch:ctx:4096,8192", errors));
  CHECK(app.sweep == "decode.step_time:batch:ctx:4096,8192");
  for (const char* bad : {"decode.step_time", "nope:batch", "decode.step_time:kv_fmt", "decode.step_time:batch:batch:2",
                          "decode.step_time:batch&view=fleet", "decode.step_time:batch:ctx:"}) {
    model::Errors e;
    CHECK_FALSE(app::set_view(app, "chart-sweep", bad, e));
    CHECK(has_error(e, "sweep", model::ErrorCode::BadSyntax));
    CHECK(app.sweep == "decode.step_time:batch:ctx:4096,8192");  // nothing changed
  }
  // The link's reader agrees with the setter on each.
  model::ViewState v;
  model::Errors e;
  CHECK_FALSE(model::parse_view("sweep=nope:batch", v, e));
  CHECK(has_error(e, "sweep", model::ErrorCode::BadSyntax));
  CHECK(model::sweep_known("decode.step_time:batch"));
}

TEST_CASE("an unknown preset is told the same list wherever it is named: app, link, scenario file") {
  const std::string allowed = model::preset_names_allowed();
  for (const model::PresetInfo& p : model::presets()) CHECK(allowed.find(p.name) != std::string::npos);
  CHECK(allowed.starts_with("one of: "));
  app::App app;
  app::init(app);
  model::Errors errors;
  CHECK_FALSE(app::set_preset(app, "gpt-9", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].allowed == allowed);
  model::Scenario s;
  model::Errors link_errors;
  CHECK_FALSE(model::scenario_from_hash("preset=gpt-9", s, link_errors));
  REQUIRE_FALSE(link_errors.empty());
  CHECK(link_errors[0].allowed == allowed);
}

TEST_CASE("every error code has its stable name and a notice's reason, and the page's own codes are among them") {
  for (int c = 1; c <= static_cast<int>(model::kLastErrorCode); ++c) {
    const auto code = static_cast<model::ErrorCode>(c);
    CHECK(std::string(model::error_code_name(code)) != "error");
    CHECK(std::string(model::error_code_reason(code)) != "was refused");
  }
  CHECK(std::string(model::error_code_name(model::ErrorCode::NotReady)) == "not-ready");
  CHECK(std::string(model::error_code_name(model::ErrorCode::Unavailable)) == "unavailable");
  app::App app;
  app::init(app);
  const std::string catalog = app::catalog_json(app);
  CHECK(catalog.find("\"not-ready\":") != std::string::npos);
  CHECK(catalog.find("\"unavailable\":") != std::string::npos);
}
