// The share link's view codec: every key read and written back, each bad key named and dropped while the
// rest applies, and the walkthrough step kept consistent with the path.
#include <catch2/catch.hpp>

#include <algorithm>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_codec.h"
#include "codec/url_codec.h"
#include "hf/hf_config.h"
#include "link/view_codec.h"
#include "model/params.h"
#include "model/presets.h"
#include "roofline/figures.h"

using namespace tierscope::model;

namespace {
bool has_error(const Errors& errors, std::string_view field, ErrorCode code) {
  for (const Error& e : errors)
    if (e.field == field && e.code == code) return true;
  return false;
}
}  // namespace

TEST_CASE("view codec: a full hash reads and writes back to the same canonical text") {
  const std::string h = "preset=v41-flash-8xh200&ctx=1048576&path=swa-resume&step=2&speed=0.5&panels=scenario,card&view=chart-roofline&tour=5";
  ViewState v;
  Errors errors;
  REQUIRE(parse_view("#" + h, v, errors));
  CHECK(errors.empty());
  CHECK(v.path == "swa-resume");
  CHECK(v.step == 2);
  CHECK(v.speed == 0.5);
  CHECK(v.panels_given);
  CHECK(v.panels == ((1u << 0) | (1u << 2)));
  CHECK(v.tour == 5);
  CHECK(v.view == "chart-roofline");
  CHECK(v.scenario.work.ctx == 1048576);
  CHECK(view_to_hash(v) == h);
}

TEST_CASE("view codec: each bad key is an error naming it, and the good keys still apply") {
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("ctx=banana&batch=8&path=warp&step=x&speed=99&panels=scenario,nope&tour=99&view=chart-pie&embed=2&colour=red&batch=9", v, errors));
  CHECK(has_error(errors, "ctx", ErrorCode::WrongType));
  CHECK(has_error(errors, "path", ErrorCode::BadEnum));
  CHECK(has_error(errors, "step", ErrorCode::WrongType));
  CHECK(has_error(errors, "speed", ErrorCode::OutOfRange));
  CHECK(has_error(errors, "panels", ErrorCode::BadEnum));
  CHECK(has_error(errors, "tour", ErrorCode::OutOfRange));
  CHECK(has_error(errors, "view", ErrorCode::BadEnum));
  CHECK(has_error(errors, "embed", ErrorCode::BadEnum));
  CHECK(has_error(errors, "colour", ErrorCode::UnknownKey));
  CHECK(has_error(errors, "batch", ErrorCode::DuplicateKey));
  CHECK(v.scenario.work.batch == 8);  // the good key applied
  CHECK(v.path.empty());
  CHECK(v.step == -1);
  CHECK(v.speed == 0);
  CHECK_FALSE(v.panels_given);
}

TEST_CASE("view codec: markup and an oversized hash are refused without echoing them") {
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("path=%3Cscript%3E&gpu=<script>alert(1)</script>&step=2", v, errors));
  CHECK(v.step == 2);
  for (const Error& e : errors) CHECK(e.value.find('<') == std::string::npos);
  Errors big;
  CHECK_FALSE(parse_view("path=" + std::string(100000, 'x'), v, big));
  REQUIRE(big.size() == 1);
  CHECK(big[0].code == ErrorCode::TooLarge);
  CHECK(big[0].field == "hash");
}

TEST_CASE("view codec: a 10 kB link keeps its good keys and names the one part over 4,096 bytes by its key") {
  const std::string good = "preset=v41-flash-8xh200&ctx=65536&batch=8&path=decode&step=3&speed=2";
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view(good + "&note=" + std::string(10000, 'a'), v, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == ErrorCode::TooLarge);
  CHECK(errors[0].field == "note");
  CHECK(errors[0].value == "10005 bytes");
  CHECK(errors[0].allowed.find("4096") != std::string::npos);
  CHECK(view_to_hash(v) == good);
  // The long part in the middle, its value the long one: the same keys stay.
  ViewState mid;
  Errors e2;
  CHECK_FALSE(parse_view("preset=v41-flash-8xh200&ctx=" + std::string(10000, '6') + "&batch=8&path=decode&step=3&speed=2", mid, e2));
  REQUIRE(e2.size() == 1);
  CHECK(e2[0].field == "ctx");
  CHECK(view_to_hash(mid) == "preset=v41-flash-8xh200&batch=8&path=decode&step=3&speed=2");
  // A long part whose key is not one is named as the link's, and nothing of it is echoed.
  ViewState odd;
  Errors e3;
  CHECK_FALSE(parse_view("batch=8&" + std::string(5000, '%'), odd, e3));
  REQUIRE(e3.size() == 1);
  CHECK(e3[0].field == "hash");
  CHECK(e3[0].value == "5000 bytes");
  CHECK(odd.scenario.work.batch == 8);
}

TEST_CASE("view codec: the walkthrough step tells one path — with another path in the link the path wins") {
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("path=decode&tour=3", v, errors));
  CHECK(has_error(errors, "tour", ErrorCode::Inconsistent));
  CHECK(v.path == "decode");
  CHECK(v.tour == 0);
  Errors none;
  CHECK(parse_view("tour=3", v, none));
  CHECK(v.tour == 3);
  CHECK(v.path.empty());
  CHECK(kPathKeys[static_cast<std::size_t>(v.tour - 1)] == std::string("engram"));
  CHECK(kTourSteps == static_cast<int>(kPathKeys.size()));
}

TEST_CASE("view codec: tour=intro names the walkthrough's first screen, on step one's path — the numbered steps keep their numbers") {
  ViewState v;
  Errors none;
  CHECK(parse_view("tour=intro", v, none));
  CHECK(v.tour == kTourIntro);
  CHECK(tour_path(v.tour) == "prefill");
  CHECK(view_to_hash(v).ends_with("&tour=intro"));
  CHECK(parse_view("path=prefill&tour=intro", v, none));
  CHECK(v.tour == kTourIntro);
  Errors errors;
  CHECK_FALSE(parse_view("path=decode&tour=intro", v, errors));
  CHECK(has_error(errors, "tour", ErrorCode::Inconsistent));
  CHECK(v.tour == 0);
  for (int n = 1; n <= kTourSteps; ++n) CHECK(tour_path(n) == kPathKeys[static_cast<std::size_t>(n - 1)]);
  CHECK(tour_path(0).empty());
  Errors bad;
  CHECK_FALSE(parse_view("tour=outro", v, bad));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].allowed.find("intro") != std::string::npos);
}

TEST_CASE("view codec: one row per view key reads it, writes it back and names it in what a link may hold") {
  // Each row's key is a view key, none is a scenario key, and each written one is offered by name.
  const std::string allowed = link_keys_allowed_text();
  for (const LinkKey& k : link_keys()) {
    INFO(k.key);
    CHECK(is_view_key(k.key));
    CHECK_FALSE(is_scenario_key(k.key));
    CHECK(k.parse != nullptr);
    if (k.write) CHECK(allowed.find(std::string(" ") + std::string(k.key)) != std::string::npos);
  }
  CHECK(is_view_key("cmp_ctx"));
  CHECK_FALSE(is_view_key("cmp_"));
  CHECK_FALSE(is_view_key("ctx"));
  // A link whose every view key is set reads back to the same view, key by key: a row that parsed a key
  // but did not write it (or wrote another) would lose it here.
  ViewState v;
  Errors none;
  const std::string link = "preset=v41-flash-8xb200&ctx=2048&path=decode&step=3&speed=2&panels=scenario,card&view=serve&"
                           "sweep=decode.step_time:ctx&serve=concurrency:8&cmp=v41-flash-8xb200&cmp_batch=4&embed=1&tour=2";
  REQUIRE(parse_view(link, v, none));
  CHECK(view_to_hash(v) == link);
  std::string written;
  for (const LinkKey& k : link_keys())
    if (k.write) written += std::string(k.key) + ",";
  std::size_t given = 0;
  for (const LinkKey& k : link_keys()) given += k.write && link.find("&" + std::string(k.key) + "=") != std::string::npos;
  CHECK(given == static_cast<std::size_t>(std::count(written.begin(), written.end(), ',')));
  // A key that is neither the scenario's nor the view's is named with what a link may hold instead.
  Errors unknown;
  CHECK_FALSE(parse_view("preset=v41-flash-8xb200&warp=9&ctx=2048", v, unknown));
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].field == "warp");
  CHECK(unknown[0].code == ErrorCode::UnknownKey);
  CHECK(unknown[0].allowed == allowed);
  CHECK(v.scenario.work.ctx == 2048);
}

TEST_CASE("view codec: the hand-off and offload-reload paths round-trip in a link, at a step, with their walkthrough steps") {
  for (const char* path : {"pd-handoff", "offload-reload"}) {
    INFO(path);
    const int tour = path_index(path) + 1;
    REQUIRE(tour > 0);
    const std::string h = std::string("preset=v41-flash-8xb200&pd_link=nic&path=") + path + "&step=2&tour=" + std::to_string(tour);
    ViewState v;
    Errors errors;
    REQUIRE(parse_view("#" + h, v, errors));
    CHECK(errors.empty());
    CHECK(v.path == path);
    CHECK(v.step == 2);
    CHECK(tour_path(tour) == path);
    CHECK(view_to_hash(v) == h);
  }
}

TEST_CASE("view codec: path and panel keys by index") {
  CHECK(path_index("csa2-modes") == 3);
  CHECK(path_index("nope") == -1);
  CHECK(panel_index("figures") == 4);
}

TEST_CASE("view codec: percent escapes are decoded before the checks — a broken escape is named") {
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("path=%3Cscript%3Ewindow.x%3D1%3C%2Fscript%3E&ctx=%E0%A4%A&step=1&speed=%32", v, errors));
  CHECK(has_error(errors, "path", ErrorCode::Markup));
  CHECK(has_error(errors, "ctx", ErrorCode::BadSyntax));
  CHECK(v.step == 1);
  CHECK(v.speed == 2);
}

TEST_CASE("view codec: a comparison's pinned scenario and the sweep chart's choice travel in the link") {
  const std::string h = "preset=v41-flash-8xb200&gpus=8&tp=8&view=chart-sweep&sweep=decode.step_time:ctx:gpus:4,8&cmp=v41-flash-8xh200&cmp_ctx=1048576";
  ViewState v;
  Errors errors;
  REQUIRE(parse_view(h, v, errors));
  CHECK(errors.empty());
  REQUIRE(v.compare);
  CHECK(v.compare_scenario.preset == "v41-flash-8xh200");
  CHECK(v.compare_scenario.work.ctx == 1048576);
  CHECK(v.scenario.hw.gpus == 8);
  CHECK(v.sweep == "decode.step_time:ctx:gpus:4,8");
  CHECK(view_to_hash(v) == h);
  // A's keys are checked as A's and named with their prefix; B is untouched by them.
  ViewState bad;
  Errors e2;
  CHECK_FALSE(parse_view("ctx=4096&cmp=v41-flash-8xb200&cmp_ctx=banana&sweep=nope:ctx", bad, e2));
  CHECK(has_error(e2, "cmp_ctx", ErrorCode::WrongType));
  CHECK(has_error(e2, "sweep", ErrorCode::BadSyntax));
  CHECK(bad.compare);
  CHECK(bad.scenario.work.ctx == 4096);
  ViewState orphan;
  Errors e3;
  CHECK_FALSE(parse_view("cmp_ctx=4096", orphan, e3));
  CHECK(has_error(e3, "cmp_ctx", ErrorCode::Inconsistent));
  CHECK_FALSE(orphan.compare);
}

namespace {
std::string hf_fixture(const std::string& file) {
  std::ifstream in(std::string(TIERSCOPE_SOURCE_DIR) + "/tests/data/hf_configs/" + file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("view codec: a loaded model's link names it (model=), and reopens named, with the same numbers") {
  Scenario s = default_scenario();
  Errors e;
  std::vector<std::string> notes;
  REQUIRE(apply_hf_config(s, hf_fixture("Qwen3-30B-A3B.json"), "Qwen3-30B-A3B.json", e, notes));
  Adjustments moved;
  Error err;
  REQUIRE(edit_param(s, *find_param("ctx"), "32768", moved, err));
  ViewState v;
  v.scenario = s;
  v.path = "decode";
  const std::string h = view_to_hash(v);
  CHECK(h.starts_with("preset=v41-flash-8xb200&model=Qwen3-30B-A3B&"));
  ViewState back;
  Errors errors;
  REQUIRE(parse_view("#" + h, back, errors));
  CHECK(errors.empty());
  CHECK(scenario_label(back.scenario) == "Qwen3-30B-A3B (config.json) · 8×B200 (two TP4 instances)");
  CHECK(scenario_label(back.scenario) == scenario_label(s));
  CHECK(back.scenario.preset == s.preset);
  CHECK(scenario_equal(back.scenario, s));
  CHECK(view_to_hash(back) == h);
  Computed a, b;
  compute_values(s, a);
  compute_values(back.scenario, b);
  for (int i = 0; i < kFigureCount; ++i) CHECK(a.values.v[i] == b.values.v[i]);
  // The model keys read as the named file's, as after the import; a later edit is the reader's.
  CHECK(input_provenance(back.scenario, "hidden").source.find("Qwen3-30B-A3B") != std::string::npos);
  CHECK(input_provenance(back.scenario, "ctx").provenance == Provenance::Override);
  // A comparison's A carries its name too.
  ViewState cmp = v;
  cmp.compare = true;
  cmp.compare_scenario = s;
  ViewState cmp_back;
  REQUIRE(parse_view(view_to_hash(cmp), cmp_back, errors));
  CHECK(scenario_label(cmp_back.compare_scenario) == scenario_label(s));
}

TEST_CASE("view codec: a bad model name is named and dropped — the other keys apply") {
  for (const std::string& bad : std::vector<std::string>{"%3Cscript%3E", "-lead", "a%2Fb", std::string(65, 'x'), ""}) {
    ViewState v;
    Errors errors;
    INFO(bad);
    parse_view("#preset=v41-flash-8xb200&model=" + bad + "&ctx=65536&path=prefill", v, errors);
    if (bad.empty()) {
      CHECK(v.scenario.preset == "v41-flash-8xb200");  // an empty name names nothing
      continue;
    }
    REQUIRE_FALSE(errors.empty());
    CHECK((has_error(errors, "model", ErrorCode::BadSyntax) || has_error(errors, "model", ErrorCode::Markup) ||
           has_error(errors, "model", ErrorCode::OutOfRange)));
    CHECK(v.scenario.preset == "v41-flash-8xb200");
    CHECK(scenario_label(v.scenario) == scenario_label(default_scenario()));
    CHECK(v.scenario.work.ctx == 65536);
    CHECK(v.path == "prefill");
  }
}

TEST_CASE("view codec: the Serve panel's view and settings travel in the link, in one spelling") {
  ViewState v;
  Errors errors;
  REQUIRE(parse_view("preset=v41-flash-8xb200&view=serve&serve=input:2048,concurrency:64", v, errors));
  CHECK(v.view == "serve");
  CHECK(v.serve == "concurrency:64,input:2048");
  CHECK(view_to_hash(v) == "preset=v41-flash-8xb200&view=serve&serve=concurrency:64,input:2048");
  // A bad setting is refused by name; the link's other keys apply.
  ViewState bad;
  Errors e2;
  CHECK_FALSE(parse_view("ctx=4096&view=serve&serve=concurrency:0", bad, e2));
  CHECK(has_error(e2, "serve.concurrency", ErrorCode::OutOfRange));
  CHECK(bad.serve.empty());
  CHECK(bad.view == "serve");
  CHECK(bad.scenario.work.ctx == 4096);
  // The latency chart is the Serve panel's, not a view of its own.
  ViewState chart;
  Errors e3;
  CHECK_FALSE(parse_view("view=chart-serve-latency", chart, e3));
  CHECK(has_error(e3, "view", ErrorCode::BadEnum));
  CHECK(views_allowed_text().find("serve") != std::string::npos);
  CHECK(views_allowed_text().find("serve-latency") == std::string::npos);
}

namespace {
// A model imported from its config.json on a preset's hardware, as the page's link of it reads.
std::string imported_link(const std::string& file, const std::string& preset) {
  Scenario s;
  REQUIRE(make_preset(preset, s));
  Errors e;
  std::vector<std::string> notes;
  REQUIRE(apply_hf_config(s, hf_fixture(file), file, e, notes));
  return scenario_to_hash(s);
}
const Adjustment* moved_field(const Adjustments& moved, std::string_view field) {
  for (const Adjustment& a : moved)
    if (a.field == field) return &a;
  return nullptr;
}
}  // namespace

TEST_CASE("view codec: one bad key of an imported model's link falls back alone — the model and the other keys apply, and a key that follows it is derived again and said") {
  // Qwen2-7B has 28 query heads: tp=8 cannot split them. The link's dp=1 follows tp (tp × dp = gpus).
  const std::string link = imported_link("Qwen2-7B-Instruct.json", "v41-flash-8xh200") + "&gpus=8&tp=8&dp=1&batch=16&path=decode";
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("#" + link, v, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "tp");
  CHECK(errors[0].value == "8");
  CHECK(scenario_label(v.scenario).starts_with("Qwen2-7B-Instruct (config.json)"));
  CHECK(v.scenario.model.q_heads == 28);
  CHECK(v.scenario.hw.gpus == 8);
  CHECK(v.scenario.work.batch == 16);
  CHECK(v.path == "decode");
  CHECK(v.scenario.par.tp == 4);  // the preset's tp, which splits 28 heads
  CHECK(v.scenario.par.dp == 2);  // derived again: 4 × 2 = 8 GPUs
  const Adjustment* dp = moved_field(v.followed, "dp");
  REQUIRE(dp);
  CHECK(dp->from == "1");
  CHECK(dp->to == "2");
  CHECK(dp->why.find("tp") != std::string::npos);
  CHECK(validate(v.scenario).empty());
  // Read again, the link written for it holds no refusal and reopens the same view.
  ViewState again;
  Errors none;
  CHECK(parse_view(view_to_hash(v), again, none));
  CHECK(view_to_hash(again) == view_to_hash(v));
}

TEST_CASE("view codec: a refused key the others then need is derived again and said — a prompt below the link's prefix hit") {
  ViewState v;
  Errors errors;
  CHECK_FALSE(parse_view("preset=v41-flash-8xh200&prompt=100&prefix_hit=5000&ctx=banana&batch=4", v, errors));
  CHECK(has_error(errors, "prefix_hit", ErrorCode::Inconsistent));
  CHECK(has_error(errors, "ctx", ErrorCode::WrongType));
  CHECK(v.scenario.preset == "v41-flash-8xh200");
  CHECK(v.scenario.work.prompt == 100);
  CHECK(v.scenario.work.batch == 4);
  CHECK(v.scenario.work.prefix_hit == 100);
  const Adjustment* hit = moved_field(v.followed, "prefix_hit");
  REQUIRE(hit);
  CHECK(hit->to == "100");
  // A tensor parallel wider than the heads, on many GPUs: the GPU count and the model stand, tp and the dp
  // the link gave are derived again.
  ViewState wide;
  Errors e2;
  CHECK_FALSE(parse_view(imported_link("Qwen--Qwen3-235B-A22B.json", "v41-flash-8xh200") + "&gpus=128&tp=128&dp=1&batch=64", wide, e2));
  REQUIRE(e2.size() == 1);
  CHECK(e2[0].field == "tp");
  CHECK(scenario_label(wide.scenario).starts_with("Qwen--Qwen3-235B-A22B"));
  CHECK(wide.scenario.hw.gpus == 128);
  CHECK(wide.scenario.work.batch == 64);
  CHECK(wide.scenario.par.tp * wide.scenario.par.dp == 128);
  CHECK(moved_field(wide.followed, "dp"));
}
