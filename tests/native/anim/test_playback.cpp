// Playback: the time map's rules, and play/pause/speed/step/scrub/seek/advance as pure functions.
#include <catch2/catch.hpp>

#include <cmath>

#include "anim/playback.h"
#include "anim/state.h"
#include "model/presets.h"

using namespace tierscope;
using namespace tierscope::anim;

TEST_CASE("time map: readable path length, per-step minimum, stated mapping") {
  const auto l = build_ledger(model::default_scenario(), PathId::Decode);
  const TimeMap m = time_map(l);
  REQUIRE(m.screen_duration.size() == l.entries.size());
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    CHECK(m.screen_duration[i] >= kMinStepScreen);
    CHECK(m.screen_duration[i] == Approx(std::max(kMinStepScreen, l.entries[i].duration * m.scale)));
  }
  // The longest step in model time is the longest on screen, in proportion.
  std::size_t longest = 0;
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    if (l.entries[i].duration > l.entries[longest].duration) longest = i;
  }
  for (std::size_t i = 0; i < l.entries.size(); ++i) CHECK(m.screen_duration[i] <= m.screen_duration[longest]);
  CHECK(m.screen_duration[longest] == Approx(l.entries[longest].duration * m.scale));
  CHECK(m.screen_total < kMaxPathScreen + kMinStepScreen * static_cast<double>(l.entries.size()));
  CHECK(m.text.rfind("1 ms model = ", 0) == 0);
  CHECK(m.text.find("held for 0.8 s") != std::string::npos);
  const TimeMap engram = time_map(build_ledger(model::default_scenario(), PathId::Engram));
  CHECK(engram.text.find(" model = ") != std::string::npos);
}

TEST_CASE("playback: play to the end, pause, speed, step, seek, scrub") {
  const auto l = build_ledger(model::default_scenario(), PathId::SwaResume);
  const TimeMap m = time_map(l);
  Playback p;
  p.path = PathId::SwaResume;
  CHECK_FALSE(advance(p, m, 0.1));  // paused: nothing moves
  play(p, m);
  CHECK(advance(p, m, 0.1));
  CHECK(p.step == 0);
  CHECK(p.fraction == Approx(0.1 / m.screen_duration[0]));
  // dt is clamped per frame, so a long stall advances at most 0.25 s × speed.
  Playback q = p;
  advance(q, m, 100);
  CHECK(screen_time(q, m) == Approx(screen_time(p, m) + 0.25));
  set_speed(p, 100);
  CHECK(p.speed == kMaxSpeed);
  set_speed(p, std::nan(""));
  CHECK(p.speed == kMaxSpeed);
  set_speed(p, 1);
  for (int i = 0; i < 10000 && p.playing; ++i) advance(p, m, 1.0 / 60);
  CHECK_FALSE(p.playing);
  CHECK(p.step == static_cast<int>(l.entries.size()) - 1);
  CHECK(p.fraction == 1);
  CHECK(screen_time(p, m) == Approx(m.screen_total));
  play(p, m);  // at the end: starts over
  CHECK(p.step == 0);
  CHECK(p.fraction == 0);
  seek(p, m, 3);
  CHECK(p.step == 3);
  CHECK_FALSE(p.playing);
  step_back(p, m);
  CHECK(p.step == 2);
  p.fraction = 0.5;
  step_back(p, m);  // to the start of this step first
  CHECK(p.step == 2);
  CHECK(p.fraction == 0);
  step_forward(p, m);
  CHECK(p.step == 3);
  seek(p, m, 99);
  CHECK(p.step == static_cast<int>(l.entries.size()) - 1);
  scrub(p, m, m.screen_start[2] + 0.5 * m.screen_duration[2]);
  CHECK(p.step == 2);
  CHECK(p.fraction == Approx(0.5));
  scrub(p, m, -1);
  CHECK(p.step == 0);
  scrub(p, m, 1e9);
  CHECK(p.fraction == 1);
  // The playback position feeds state_at directly.
  const StepState st = state_at(l, p.step, p.fraction);
  CHECK(st.t_model == Approx(l.total));
}

TEST_CASE("playback over an empty path is inert") {
  model::Scenario s;
  REQUIRE(model::make_preset("llama31-70b-8xh100", s));
  const auto l = build_ledger(s, PathId::Engram);
  const TimeMap m = time_map(l);
  Playback p;
  play(p, m);
  CHECK_FALSE(p.playing);
  CHECK_FALSE(advance(p, m, 0.1));
  step_forward(p, m);
  step_back(p, m);
  scrub(p, m, 3);
  CHECK(p.step == 0);
  CHECK(screen_time(p, m) == 0);
}
