// The frame pacer: draws while input waits in ImGui's queue and until two frames in a row look the same,
// then draws nothing at all; playback draws every frame; output that never settles stops at a cap.
#include <catch2/catch.hpp>

#include "app/frame_pacer.h"
#include "base/hash.h"

using tierscope::app::FramePacer;

namespace {
// Runs ticks until the pacer stops asking for frames (at most `limit`); `queue` events wait in ImGui's queue
// and one is taken per drawn frame; `hash_of(n)` is what the n-th drawn frame shows. Returns frames drawn.
template <typename HashOf>
int run(FramePacer& p, int queue, HashOf hash_of, int limit = 200) {
  int drawn = 0;
  for (int tick = 0; tick < limit; ++tick) {
    if (!p.want_frame(queue > 0, false)) break;
    if (queue > 0) --queue;
    p.drawn(hash_of(drawn), false);
    ++drawn;
  }
  return drawn;
}
}  // namespace

TEST_CASE("after input the pacer draws until ImGui's queue is empty and the output settles, then idles") {
  FramePacer p;
  run(p, 0, [](int) { return 1u; });  // start-up frames
  REQUIRE_FALSE(p.want_frame(false, false));

  // A tap: three queued changes (move, press, release) that ImGui takes one per frame; the panel it opens
  // changes the output twice (appears, then its columns fit) and then holds still.
  p.request();
  const int drawn = run(p, 3, [](int n) { return n < 4 ? 100u + static_cast<unsigned>(n) : 200u; });
  CHECK(drawn >= 3);   // every queued change was drawn
  CHECK(drawn <= 7);   // and little beyond the output settling
  REQUIRE_FALSE(p.want_frame(false, false));

  // A pointer move that changes nothing visible costs the minimum, then nothing.
  p.request();
  CHECK(run(p, 0, [](int) { return 200u; }) == FramePacer::kMinFrames);
  for (int i = 0; i < 100; ++i) CHECK_FALSE(p.want_frame(false, false));
}

TEST_CASE("queued input is always drawn, however long the queue, and playback draws every frame") {
  FramePacer p;
  run(p, 0, [](int) { return 7u; });
  p.request();
  CHECK(run(p, 40, [](int) { return 7u; }) >= 40);
  CHECK(p.want_frame(false, true));
  CHECK(p.want_frame(true, false));
}

TEST_CASE("output that never settles (something that animates by itself) stops at the cap") {
  FramePacer p;
  p.request();
  const int drawn = run(p, 0, [](int n) { return static_cast<unsigned>(n); });
  CHECK(drawn <= FramePacer::kMinFrames + FramePacer::kMaxSettle + 1);
  CHECK_FALSE(p.want_frame(false, false));
}

TEST_CASE("the hash tells different bytes apart and equal bytes alike") {
  const char a[] = "global kv 890 B/token", b[] = "global kv 891 B/token";
  using tierscope::model::hash_bytes;
  CHECK(hash_bytes(a, sizeof a, 1) == hash_bytes(a, sizeof a, 1));
  CHECK(hash_bytes(a, sizeof a, 1) != hash_bytes(b, sizeof b, 1));
  CHECK(hash_bytes(a, sizeof a, 1) != hash_bytes(a, sizeof a, 2));
  CHECK(hash_bytes(a, 3, 1) != hash_bytes(a, 4, 1));
}
