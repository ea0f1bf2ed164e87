// When to draw: a small pure policy that keeps the app drawing after each input until Dear ImGui has
// worked through its queued events and its output has stopped changing, then lets it idle (no frames).
#pragma once

#include <cstdint>

namespace tierscope::app {

// Dear ImGui takes at most one change per button or key per frame ("trickled" input): a tap is a move, a
// press and a release, and needs three frames; a panel that appears measures its columns on its first
// frame and draws them on its second. Drawing only a fixed two frames after an event left the last part
// of every gesture waiting for the next event. The pacer draws while input is queued, at least
// `kMinFrames` after each event, and then while the drawn output still differs from the frame before
// (capped, so output that never settles cannot keep the page busy).
struct FramePacer {
  static constexpr int kMinFrames = 2;     // frames after any event, however small
  static constexpr int kMaxSettle = 24;    // frames beyond those while the output keeps changing

  int owed = kMinFrames;       // frames still to draw whatever they show (the first frames are owed)
  int settle_left = kMaxSettle;
  bool settling = true;        // the last drawn frame differed from the one before
  std::uint64_t last_hash = 0;

  // Something happened (an input event, a call from the page, a resize): draw again.
  void request() {
    if (owed < kMinFrames) owed = kMinFrames;
    settle_left = kMaxSettle;
    settling = true;
  }

  // Whether this tick draws. `queued`: input is still waiting in Dear ImGui's queue; `animating`: the
  // animation moves on its own (playback).
  bool want_frame(bool queued, bool animating) const { return animating || queued || owed > 0 || settling; }

  // After a drawn frame: `hash` sums up what it drew (equal hashes: nothing visible changed).
  void drawn(std::uint64_t hash, bool animating) {
    if (owed > 0) --owed;
    if (animating) settle_left = kMaxSettle;  // keeps its budget for the frames after playback stops
    const bool changed = hash != last_hash;
    last_hash = hash;
    settling = changed && settle_left > 0;
    if (settling) --settle_left;
  }
};

}  // namespace tierscope::app
