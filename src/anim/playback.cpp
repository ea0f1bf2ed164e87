// Playback: a pure position over the time map; no clocks here, the frame loop passes dt in.
#include "anim/playback.h"

#include <algorithm>
#include <cmath>

#include "base/text.h"

namespace tierscope::anim {

namespace {

int last(const TimeMap& m) { return static_cast<int>(m.screen_duration.size()) - 1; }

std::string mapping_text(double scale, double min_step_model) {
  // The model unit whose screen length reads best: the first of ns, µs, ms, s that maps to ≥ 1 s.
  struct Unit {
    double seconds;
    const char* name;
  };
  static const Unit kUnits[] = {{1e-9, "1 ns"}, {1e-6, "1 µs"}, {1e-3, "1 ms"}, {1, "1 s"}};
  const Unit* pick = &kUnits[3];
  for (const Unit& u : kUnits) {
    if (u.seconds * scale >= 1) {
      pick = &u;
      break;
    }
  }
  return std::string(pick->name) + " model = " + model::num_sig(pick->seconds * scale, 3) + " s screen · steps under " +
         model::human(min_step_model, "s") + " are held for " + model::num_sig(kMinStepScreen, 3) + " s";
}

}  // namespace

TimeMap time_map(const Ledger& l) {
  TimeMap m;
  const std::size_t n = l.entries.size();
  m.screen_start.resize(n);
  m.screen_duration.resize(n);
  if (n == 0) {
    m.text = "empty path";
    return m;
  }
  const double target = std::clamp(kScreenPerStep * static_cast<double>(n), kMinPathScreen, kMaxPathScreen);
  m.scale = l.total > 0 ? target / l.total : 0.0;
  double t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    m.screen_start[i] = t;
    m.screen_duration[i] = std::max(kMinStepScreen, l.entries[i].duration * m.scale);
    t += m.screen_duration[i];
  }
  m.screen_total = t;
  m.text = m.scale > 0 ? mapping_text(m.scale, kMinStepScreen / m.scale) : "every step is held for 0.8 s";
  return m;
}

void play(Playback& p, const TimeMap& map) {
  if (map.screen_duration.empty()) return;
  if (p.step >= last(map) && p.fraction >= 1) {
    p.step = 0;
    p.fraction = 0;
  }
  p.playing = true;
}

void pause(Playback& p) { p.playing = false; }

void toggle(Playback& p, const TimeMap& map) {
  if (p.playing) {
    pause(p);
  } else {
    play(p, map);
  }
}

void set_speed(Playback& p, double speed) {
  if (std::isnan(speed)) return;
  p.speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
}

void seek(Playback& p, const TimeMap& map, int entry) {
  p.playing = false;
  p.fraction = 0;
  p.step = map.screen_duration.empty() ? 0 : std::clamp(entry, 0, last(map));
}

void step_forward(Playback& p, const TimeMap& map) {
  if (map.screen_duration.empty()) return;
  if (p.step >= last(map)) {
    p.playing = false;
    p.fraction = 1;
    return;
  }
  seek(p, map, p.step + 1);
}

void step_back(Playback& p, const TimeMap& map) {
  seek(p, map, p.fraction > 0 ? p.step : p.step - 1);
}

void scrub(Playback& p, const TimeMap& map, double t) {
  p.playing = false;
  if (map.screen_duration.empty()) return;
  if (!(t > 0)) {  // also catches NaN
    p.step = 0;
    p.fraction = 0;
    return;
  }
  if (t >= map.screen_total) {
    p.step = last(map);
    p.fraction = 1;
    return;
  }
  // Entries are few (tens): a linear scan keeps this obvious.
  int i = 0;
  while (i < last(map) && map.screen_start[static_cast<std::size_t>(i) + 1] <= t) ++i;
  p.step = i;
  p.fraction = std::clamp((t - map.screen_start[static_cast<std::size_t>(i)]) / map.screen_duration[static_cast<std::size_t>(i)], 0.0, 1.0);
}

double screen_time(const Playback& p, const TimeMap& map) {
  if (map.screen_duration.empty()) return 0;
  const auto i = static_cast<std::size_t>(std::clamp(p.step, 0, last(map)));
  return map.screen_start[i] + p.fraction * map.screen_duration[i];
}

bool advance(Playback& p, const TimeMap& map, double dt) {
  if (!p.playing || map.screen_duration.empty()) return false;
  double left = std::isfinite(dt) ? std::clamp(dt, 0.0, 0.25) * p.speed : 0.0;
  if (left <= 0) return false;
  p.step = std::clamp(p.step, 0, last(map));
  while (left > 0) {
    const double d = map.screen_duration[static_cast<std::size_t>(p.step)];
    const double remaining = (1 - p.fraction) * d;
    if (left < remaining) {
      p.fraction += left / d;
      break;
    }
    left -= remaining;
    if (p.step == last(map)) {
      p.fraction = 1;
      p.playing = false;
      break;
    }
    ++p.step;
    p.fraction = 0;
  }
  return true;
}

}  // namespace tierscope::anim
