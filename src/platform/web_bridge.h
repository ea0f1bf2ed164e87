// The one bridge between the app and the page's JavaScript: calls out to the page, and the C functions
// the page may call in. Everything crossing it is validated here; natively these are quiet fallbacks.
#pragma once

namespace tierscope::ui { struct Screen; }
namespace tierscope::platform { struct Platform; }

namespace tierscope::bridge {

// Registers the objects the page's calls act on. Calls that arrive before this are ignored safely.
void attach(ui::Screen* app, platform::Platform* platform);

// Tells the page a fatal start-up problem, by stable code ("webgl2", "sdl-init", …) and detail text.
void report_fatal(const char* code, const char* detail);

// Shows the page a non-blocking notice (a stable kind such as "webgl-context-lost", and text).
void notice(const char* kind, const char* text);

// Tells the page the model is worked out and its calls work (attach() has run), before the first frame:
// the page builds its views, in a task of its own, while the GPU compiles the shaders that frame needs.
void notify_loaded();
// True once the page has built its views (ts_bridge_page_built), when it builds none, or after a second:
// the first frame waits for it so the page's work runs in the GPU's wait and the frame shows its link.
bool page_settled();
// Tells the page the app drew its first frame.
void notify_ready();
// A performance mark 'tierscope-<name>' on the page's timeline (the benchmark splits start-up by these).
void mark(const char* name);

// True when the page prefers a dark colour scheme (the default when it states no preference).
bool prefers_dark();

// True when the page asks for reduced motion (prefers-reduced-motion: reduce): packets then jump instead of
// gliding and nothing marches.
bool prefers_reduced_motion();

// Tells the page the app's state (path, step, play state, scenario…) when it changed since last told.
// Called once per frame and after every call from the page.
void publish_state_if_changed();

// A text field in the canvas started (active) or stopped taking typed text; (x, y, h) is its caret in CSS px.
// After a touch the page puts a hidden text input there, so a phone shows its on-screen keyboard.
void text_field(bool active, float x, float y, float h);

// Starts watching the canvas's size and the device pixel ratio (the page may resize the canvas without a
// window resize, e.g. when a side panel opens).
void watch_canvas();

}  // namespace tierscope::bridge
