// A headless host for the ui room: Dear ImGui with no back end (no window, no GPU; its font atlas is built and
// never uploaded), set up as the page's platform layer sets it up (the canvas's fonts, theme, keyboard
// navigation), drawing the app's screen (ui::draw) frame by frame. Input goes in through ImGuiIO as SDL's back
// end gives it on the page. Each frame keeps what a test reads back: the text it rendered, the size of its draw
// data, and where each labelled widget was drawn.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/app.h"
#include "ui/canvas_state.h"

namespace tierscope::ui_test {

// What a failed IM_ASSERT throws (imconfig_test.h), so Catch2 reports it as the test's failure.
struct ImGuiAssertFailed : std::logic_error {
  using std::logic_error::logic_error;
};

// A widget as the frame drew it (ImGui's item hooks): its label as given (with any "##" part), the window it
// is in, its rectangle, and the part of it inside its window's visible area.
struct DrawnItem {
  ImGuiID id = 0;
  std::string label;
  std::string window;
  ImRect rect, visible;
  bool shown() const { return visible.GetWidth() > 1 && visible.GetHeight() > 1; }
};

struct Frame {
  std::string text;  // every text the frame rendered, in order (ImGui's log of the frame)
  int vertices = 0;   // in the frame's draw data
  std::vector<DrawnItem> items;
  bool has(std::string_view s) const { return text.find(s) != std::string::npos; }
};

class Driver {
 public:
  // A canvas of width × height CSS pixels, at device pixel ratio 1. With `touch`, a click is a finger's tap
  // (no hover before it, no pointer after it), as a phone's browser gives it.
  Driver(float width, float height, bool touch = false);
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  // One frame of the app's screen.
  const Frame& frame(ui::Screen& app);
  // Frames until ImGui has taken every queued input event (it takes one change per key or button a frame)
  // and the screen has settled: the last frame is returned.
  const Frame& settle(ui::Screen& app);
  const Frame& last() const { return frame_; }
  // Vertices the named window drew in the last frame (0 when it was not drawn).
  int window_vertices(const char* name) const;

  // A click (or tap) at a point: the position first, then the press and the release, each taken by ImGui.
  void click(ui::Screen& app, ImVec2 at);
  // The nth (from 0) item of the last frame with this exact label, or nullptr.
  const DrawnItem* find(std::string_view label, int nth = 0) const;
  // The item of the last frame drawn where the ui recorded a control ("param:ctx", "preset", "button:card"),
  // or nullptr.
  const DrawnItem* control_item(const ui::Screen& app, std::string_view id) const;
  // Scrolls the window an item is in with the wheel (the pointer over that window) until the whole item
  // shows, then clicks its middle; false when it never shows.
  bool click_id(ui::Screen& app, ImGuiID id);
  bool click_item(ui::Screen& app, std::string_view label, int nth = 0);
  bool click_control(ui::Screen& app, std::string_view id);
  void type(ui::Screen& app, std::string_view text);
  void press(ui::Screen& app, ImGuiKey key);

  // Called by the item hooks while a frame draws.
  void item_added(ImGuiID id, const ImRect& bb, const ImRect& clip, const char* window);
  void item_labelled(ImGuiID id, const char* label);

 private:
  const DrawnItem* find_id(ImGuiID id) const;
  ImGuiContext* ctx_ = nullptr;
  float width_, height_;
  bool touch_;
  Frame frame_;
};

// A control the ui recorded for the page's tests (app.canvas.controls: "param:ctx", "preset",
// "button:scenario", …), or nullptr.
const ui::Control* control(const ui::Screen& app, std::string_view id);

}  // namespace tierscope::ui_test
