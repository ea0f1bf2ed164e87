// Playback over a ledger: play, pause, speed, step, scrub, seek, and the model-time → screen-time mapping.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "anim/ledger.h"

namespace tierscope::anim {

// How a path's model time becomes screen time. Every entry gets
//   screen = max(kMinStepScreen, duration × scale),   scale = target / total,
//   target = clamp(kScreenPerStep × entries, kMinPathScreen, kMaxPathScreen),
// so the path as a whole plays in a readable time and a nanosecond step next to a 0.3 ms weight stream is
// still held on screen long enough to read.
constexpr double kScreenPerStep = 1.5;   // seconds of screen per entry, before clamping
constexpr double kMinPathScreen = 6;     // seconds
constexpr double kMaxPathScreen = 40;    // seconds
constexpr double kMinStepScreen = 0.8;   // seconds: the shortest time any entry stays on screen

struct TimeMap {
  double scale = 0;         // screen seconds per model second (before the per-step minimum)
  double screen_total = 0;  // Σ screen durations
  std::vector<double> screen_start, screen_duration;  // per entry
  // "1 ms model = 71.4 s screen · steps under 11.2 µs are held for 0.8 s"
  std::string text;
};
TimeMap time_map(const Ledger& ledger);

// Playback speeds: the range a link may carry (the view codec checks links against it) and the ones the
// page offers in its menu.
constexpr double kMinSpeed = 0.25, kMaxSpeed = 8;
inline constexpr std::array<double, 6> kSpeedChoices = {0.25, 0.5, 1, 2, 4, 8};

// The playback position. Plain data: the UI and the URL hash (path, step) read and write it.
struct Playback {
  PathId path = PathId::Prefill;
  int step = 0;
  double fraction = 0;  // within the step, [0, 1]
  double speed = 1;     // screen-time multiplier, [kMinSpeed, kMaxSpeed]
  bool playing = false;
};

void play(Playback& p, const TimeMap& map);  // from the start again when at the end
void pause(Playback& p);
void toggle(Playback& p, const TimeMap& map);
void set_speed(Playback& p, double speed);  // clamped; NaN leaves it unchanged
void step_forward(Playback& p, const TimeMap& map);  // to the start of the next entry (pauses)
void step_back(Playback& p, const TimeMap& map);     // to the start of this entry, or the previous one if already there
void seek(Playback& p, const TimeMap& map, int entry);  // to the start of an entry (clamped)
void scrub(Playback& p, const TimeMap& map, double screen_seconds);  // to a screen time (clamped)
// Screen seconds from the path's start to the current position.
double screen_time(const Playback& p, const TimeMap& map);
// Advances by a frame's screen seconds (clamped to [0, 0.25] so a stalled tab does not skip steps), times
// the speed; stops at the end. Returns true when the position changed.
bool advance(Playback& p, const TimeMap& map, double dt_screen_seconds);

}  // namespace tierscope::anim
