// The frontier chart from serving replays: a line per layout, the front non-dominated and marked with the
// layout and concurrency that open it, and the measured points of the same model and hardware on it.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "model/presets.h"
#include "evidence/anchors.h"
#include "serve/frontier.h"
#include "serve/serve.h"
#include "serve/serve_anchors.h"

using namespace tierscope;

namespace {
// The one point of a front confined to one layout at one concurrency.
serve::FrontPoint only_point(const model::Scenario& s, const serve::FrontierOptions& o) {
  const std::vector<serve::FrontPoint> front = serve::replayed_front(s, o);
  REQUIRE(front.size() == 1);
  return front[0];
}
}  // namespace

TEST_CASE("frontier: layouts of the GPU count, the front non-dominated, each front point opens its layout") {
  model::Scenario s;
  REQUIRE(model::make_preset("v41-flash-4xgb300", s));
  serve::FrontierOptions o;
  o.input = 1024;
  o.output = 256;
  o.max_concurrency = 64;
  model::Chart c;
  model::Errors errors;
  REQUIRE(serve::frontier_chart(s, o, c, errors));
  CHECK(c.kind == model::ChartKind::Frontier);
  REQUIRE(c.lines.size() >= 3);  // the front and at least two layouts
  CHECK(c.lines[0].id == "pareto");
  CHECK(c.x.log);
  CHECK(!c.description.empty());
  // Every point of every layout lies on or under the front: none has more of both.
  std::vector<std::pair<double, double>> front;
  for (std::size_t i = 0; i < c.xs.size(); ++i)
    if (std::isfinite(c.lines[0].y[i])) front.emplace_back(c.xs[i], c.lines[0].y[i]);
  REQUIRE(!front.empty());
  for (std::size_t l = 1; l < c.lines.size(); ++l) {
    for (std::size_t i = 0; i < c.xs.size(); ++i) {
      if (!std::isfinite(c.lines[l].y[i])) continue;
      for (const auto& [fx, fy] : front) CHECK_FALSE((c.xs[i] > fx && c.lines[l].y[i] > fy));
    }
  }
  int marked = 0, measured = 0;
  for (const model::ChartMark& m : c.marks) {
    if (m.kind == "front") {
      ++marked;
      CHECK(m.setup.find("tp=") == 0);
      CHECK(m.setup.find("&batch=") != std::string::npos);
    }
    if (m.kind == "measured") ++measured;
  }
  CHECK(marked == static_cast<int>(front.size()));
  CHECK(measured >= 1);  // the preset's InferenceX points
  // MTP on and off are both layouts where the model has a draft module.
  bool mtp = false, plain = false;
  for (const model::ChartLine& l : c.lines) {
    mtp = mtp || l.id.find("-mtp") != std::string::npos;
    plain = plain || (l.id != "pareto" && l.id.find("-mtp") == std::string::npos);
  }
  CHECK(mtp);
  CHECK(plain);
}

TEST_CASE("frontier: the Pareto front keeps exactly the points no other beats on both axes") {
  const std::vector<double> x = {1, 2, 3, 4, 2.5, 0.5};
  const std::vector<double> y = {10, 8, 5, 1, 4, 12};
  const std::vector<std::size_t> f = serve::pareto_front(x, y);
  CHECK(f == std::vector<std::size_t>{5, 0, 1, 2, 3});
}

TEST_CASE("frontier: a point measured at a tokens/s per user is read off the front at that interactivity") {
  // A made-up front: 10 tok/s/user at 1,000 tok/s/GPU, 100 at 100 — log-log between them.
  const std::vector<serve::FrontPoint> front = {{10, 1000, "a", 64}, {100, 100, "b", 4}};
  CHECK(serve::front_at(front, 10) == Approx(1000));
  CHECK(serve::front_at(front, std::sqrt(10.0) * 10) == Approx(std::sqrt(10.0) * 100));  // halfway in logs
  CHECK(serve::front_at(front, 5) == Approx(1000));  // less interactive than any replay: the front's throughput
  CHECK(serve::front_at(front, 150) == 0);           // more interactive than any layout gets: not reached
  CHECK(serve::front_at({}, 10) == 0);
  // The anchors that carry a per-user rate are replayed that way, and say so.
  std::vector<model::AnchorResult> results;
  for (const model::Anchor& a : model::anchors())
    if (std::string(a.id) == "r1-b200-fp8-42" || std::string(a.id) == "r1-b200-fp8-100") results.push_back(model::evaluate_anchor(a));
  REQUIRE(results.size() == 2);
  const std::vector<serve::ReplayedAnchor> replayed = serve::replay_anchors(results);
  for (const serve::ReplayedAnchor& r : replayed) {
    INFO(r.why);
    REQUIRE(r.ok);
    CHECK(r.prefill.find("the front of the source's layouts") != std::string::npos);  // their source space (InferenceX's recipes)
  }
  CHECK(replayed[0].tps_user == 42);
  CHECK(replayed[1].tps_user == 100);
  CHECK(replayed[0].tps_gpu > replayed[1].tps_gpu);  // more interactivity costs throughput on the front
}

TEST_CASE("anchors: an offline benchmark of N requests is replayed whole, and still counts as a single step") {
  // trtllm-bench's throughput run queues all its requests at once (3,000 at 1K/1K): the replay runs exactly
  // those, with the dataset's exact lengths, so the ramp while prompts prefill and the drain count.
  std::vector<model::AnchorResult> results;
  for (const model::Anchor& a : model::anchors())
    if (std::string(a.id) == "r1-b200-dep4-1k1k" || std::string(a.id) == "llama8b-h100-b1") results.push_back(model::evaluate_anchor(a));
  REQUIRE(results.size() == 2);
  const model::AnchorResult& offline = results[0].anchor->id == std::string("r1-b200-dep4-1k1k") ? results[0] : results[1];
  const model::AnchorResult& single = &offline == &results[0] ? results[1] : results[0];
  REQUIRE(offline.ok);
  CHECK(offline.offline_requests == 3000);
  CHECK(single.offline_requests == 0);
  CHECK(serve::is_replayed(offline));
  CHECK_FALSE(serve::is_replayed(single));
  CHECK(model::counts_toward_aim(offline));  // the single step still counts toward its own aim

  const serve::ReplayedAnchor p = serve::replay_anchor(offline);
  INFO(p.why);
  REQUIRE(p.ok);
  CHECK(p.concurrency == 3000);
  // The same run by hand: every request at once, fixed lengths, the engine's own scheduler.
  serve::ServeSpec spec;
  spec.concurrency = 3000;
  spec.requests = 3000;
  spec.input = offline.scenario.work.prompt;
  spec.output = offline.scenario.work.output;
  spec.lengths = serve::Lengths::Fixed;
  serve::ServeResult res;
  model::Errors errors;
  REQUIRE(serve::run_serve(offline.scenario, spec, res, errors));
  CHECK(res.completed == 3000);
  CHECK(p.model == Approx(res.output_tps_gpu));
  CHECK(p.ratio == Approx(res.output_tps_gpu / offline.anchor->measured));
  // Its batch runs below capacity while prompts prefill and as the last requests finish: the whole run's
  // throughput is below the steady step's.
  CHECK(p.model < offline.model);

  const serve::ReplaySummary sum = serve::summarize_replayed(serve::replay_anchors(results), results);
  CHECK(sum.points == 1);
}

TEST_CASE("frontier: a source's space reads its layouts, concurrencies, length floor and prompts per client, and refuses a bad part by name") {
  serve::FrontierOptions o;
  std::string why;
  REQUIRE(serve::parse_source_space("layouts=tp1,tep8+mtp,dep16;conc=4-64;lengths=0.8;prompts=10", o, why));
  CHECK(o.prompts_per_client == 10);
  REQUIRE(o.only.size() == 3);
  CHECK(o.only[0].kind == serve::SourceLayout::Kind::Tp);
  CHECK(o.only[0].gpus == 1);
  CHECK_FALSE(o.only[0].mtp);
  CHECK(o.only[1].kind == serve::SourceLayout::Kind::Tep);
  CHECK(o.only[1].gpus == 8);
  CHECK(o.only[1].mtp);
  CHECK(o.only[2].kind == serve::SourceLayout::Kind::Dep);
  CHECK(o.only[2].gpus == 16);
  CHECK_FALSE(o.only[2].mtp);
  CHECK(o.min_concurrency == 4);
  CHECK(o.max_concurrency == 64);
  CHECK(o.length_floor == Approx(0.8));
  serve::FrontierOptions empty;
  CHECK(serve::parse_source_space("", empty, why));  // no space: every layout, as before
  CHECK(empty.only.empty());
  CHECK(empty.length_floor == 0);
  CHECK(empty.prompts_per_client == 0);
  const char* bad[][2] = {{"layouts=tp0", "layouts"}, {"layouts=dp8", "layouts"}, {"layouts=tep", "layouts"}, {"layouts=", "layouts"}, {"conc=64-4", "conc"},
                          {"conc=4", "conc"}, {"lengths=1.5", "lengths"}, {"lengths=0.85", "lengths"}, {"prompts=0", "prompts"}, {"prompts=101", "prompts"},
                          {"prompts=ten", "prompts"}, {"batch=8", "batch"}};
  for (const auto& b : bad) {
    serve::FrontierOptions kept;
    kept.max_concurrency = 7;
    INFO(b[0]);
    CHECK_FALSE(serve::parse_source_space(b[0], kept, why));
    CHECK(why.find(b[1]) != std::string::npos);
    CHECK(kept.max_concurrency == 7);  // a refused space changes nothing
  }
  // Every carried anchor's space is one the replay reads.
  for (const model::Anchor& a : model::anchors()) {
    if (!a.space) continue;
    serve::FrontierOptions each;
    INFO(a.id << ": " << why);
    CHECK(serve::parse_source_space(a.space, each, why));
  }
}

TEST_CASE("frontier: a front confined to a source's space uses only its layouts and concurrencies, and its length draw") {
  model::Scenario s;
  REQUIRE(model::make_preset("llama31-70b-8xh100", s));
  serve::FrontierOptions all;
  all.input = 1024;
  all.output = 256;
  all.max_concurrency = 64;
  serve::FrontierOptions confined = all;
  std::string why;
  REQUIRE(serve::parse_source_space("layouts=tp2,tp4;conc=8-32", confined, why));
  const std::vector<serve::FrontPoint> front = serve::replayed_front(s, confined);
  REQUIRE(!front.empty());
  for (const serve::FrontPoint& p : front) {
    INFO(p.layout << " at " << p.concurrency);
    CHECK((p.layout == "tp2-dp1" || p.layout == "tp4-dp1"));  // TP instances of the source's widths
    CHECK(p.concurrency >= 8);
    CHECK(p.concurrency <= 32);
  }
  // The whole node's front has every layout to choose from: it is never below the confined one.
  const std::vector<serve::FrontPoint> wide = serve::replayed_front(s, all);
  for (const serve::FrontPoint& p : front) CHECK(serve::front_at(wide, p.tps_user) >= 0.95 * p.tps_gpu);
  // Lengths drawn on [0.8 L, L] are shorter on average than ±20 % around L: fewer tokens per request, so at
  // one layout and concurrency each user is served faster.
  serve::FrontierOptions tp4 = all, tp4_short = all;
  REQUIRE(serve::parse_source_space("layouts=tp4;conc=16-16", tp4, why));
  REQUIRE(serve::parse_source_space("layouts=tp4;conc=16-16;lengths=0.8", tp4_short, why));
  const serve::FrontPoint a = only_point(s, tp4), b = only_point(s, tp4_short);
  CHECK(a.concurrency == 16);
  CHECK(b.tps_user > a.tps_user);
}

TEST_CASE("frontier: a source's disaggregated recipe runs its workers and concurrencies and counts its prefill pool") {
  serve::FrontierOptions o;
  std::string why;
  REQUIRE(serve::parse_source_space("layouts=3xtep8+mtp+ctx8@6/15,dep16+ctx24", o, why));
  REQUIRE(o.only.size() == 2);
  CHECK(o.only[0].workers == 3);
  CHECK(o.only[0].kind == serve::SourceLayout::Kind::Tep);
  CHECK(o.only[0].gpus == 8);
  CHECK(o.only[0].mtp);
  CHECK(o.only[0].prefill_gpus == 8);
  CHECK(o.only[0].concurrencies == std::vector<int>{6, 15});
  CHECK(o.only[1].workers == 1);
  CHECK(o.only[1].prefill_gpus == 24);
  CHECK(o.only[1].concurrencies.empty());
  for (const char* bad : {"layouts=0xtp8", "layouts=tp8+foo", "layouts=tp8@", "layouts=tp8@4/a", "layouts=tp8+ctx"}) {
    serve::FrontierOptions kept;
    INFO(bad);
    CHECK_FALSE(serve::parse_source_space(bad, kept, why));
    CHECK(why.find("layouts") != std::string::npos);
    CHECK(kept.only.empty());
  }
  // The same TP4 decode instance, disaggregated, with and without a fixed 4-GPU prefill pool: the pool's GPUs
  // count whether its prompts keep them busy or not, so each GPU serves less; each user is served alike.
  model::Scenario s;
  REQUIRE(model::make_preset("llama31-70b-8xh100", s));
  serve::FrontierOptions kept_up, fixed;
  kept_up.input = fixed.input = 1024;
  kept_up.output = fixed.output = 256;
  kept_up.prefill = fixed.prefill = serve::PrefillMode::Pd;
  REQUIRE(serve::parse_source_space("layouts=tp4@8", kept_up, why));
  REQUIRE(serve::parse_source_space("layouts=tp4+ctx4@8", fixed, why));
  const serve::FrontPoint a = only_point(s, kept_up), b = only_point(s, fixed);
  CHECK(a.concurrency == 8);
  CHECK(b.tps_user == Approx(a.tps_user));
  CHECK(b.tps_gpu < a.tps_gpu);
  CHECK(b.tps_gpu > 0.45 * a.tps_gpu);  // at most half of the GPUs are the pool's
  // Two workers behind the router: the concurrency is over both, each holding half.
  serve::FrontierOptions two = kept_up;
  REQUIRE(serve::parse_source_space("layouts=2xtp4@16", two, why));
  const serve::FrontPoint c = only_point(s, two);
  CHECK(c.concurrency == 16);
  CHECK(c.tps_user == Approx(a.tps_user).epsilon(0.05));
}

TEST_CASE("frontier: a replayed point that cannot be computed counts in the replayed aim as a miss, never dropped from it") {
  std::vector<model::AnchorResult> results;
  for (const model::Anchor& a : model::anchors()) {
    if (!a.replay || results.size() == 3) continue;
    model::AnchorResult r;
    r.anchor = &a;
    r.ok = true;
    results.push_back(r);
  }
  REQUIRE(results.size() == 3);
  std::vector<serve::ReplayedAnchor> replayed(3);
  replayed[0].ok = replayed[1].ok = true;
  replayed[0].ratio = 1.1;
  replayed[1].ratio = 0.8;
  replayed[2].why = "stopped";
  const serve::ReplaySummary s = serve::summarize_replayed(replayed, results);
  CHECK(s.points == 3);
  CHECK(s.within_2x == 2);
  CHECK(s.not_computed == 1);
  CHECK(s.median_abs_log2 == Approx(std::fabs(std::log2(0.8))));  // the middle of 0.14, 0.32 and the miss, beyond every ratio
  CHECK(serve::replay_summary_text(s).find("2 of 3 replayed points within 2× (1 not computed, each a miss that says why), median") != std::string::npos);
}
