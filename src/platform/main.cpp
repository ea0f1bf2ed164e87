// Entry point: builds the app and the platform in a list of start-up steps (kStartSteps, a task each), then
// runs a short frame function on the browser's animation callback: input → UI → advance → render. Nothing is
// drawn while nothing changes.
#include "app/app.h"
#include "platform/platform.h"
#include "platform/web_bridge.h"
#include "render/renderer.h"
#include "ui/canvas_view.h"
#include "ui/panels.h"

#include <GLES3/gl3.h>
#include <cstddef>
#include <string>
#include <SDL.h>
#include <imgui.h>
#include "render/ui_renderer.h"
#include <imgui_impl_sdl2.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#endif

namespace {

struct Context {
  tierscope::platform::Platform platform;
  tierscope::ui::Screen app;
  tierscope::render::Renderer renderer;  // the canvas schematic's GL objects
  bool quit = false;
  bool model_ready = false;  // the model, the ledger and the bridge are set up (every start-up step has run)
  bool gl_ready = false;  // the UI's and the canvas's shaders are linked
  bool started = false;   // linked, and the page has built its views: frames draw
  bool announced_ready = false;
  GLsync gpu_started = nullptr;  // passed once the GPU has done the start-up's work (context, links, fonts)
  double gpu_started_ms = 0.0;
  bool can_poll_links = false;   // the context says whether a link is done without waiting for it
  std::size_t start_step = 0;    // the next of kStartSteps to run
};

// How long the first frame waits for the start-up's fence before it asks for the links anyway (a browser
// that never reports the fence passed then only costs one blocking wait, as before the fence).
constexpr double kGpuFenceWaitMs = 3000.0;

// Whether the GPU has done the work main() gave it. Polled once a frame: WebGL reports a fence's state
// without waiting, while asking for a link status (or any GL state) before the GPU has caught up blocks the
// page's thread until it has — over a hundred milliseconds with a software GPU busy starting up.
bool gpu_caught_up(Context& ctx) {
  const bool waited_enough = tierscope::platform::now_ms() - ctx.gpu_started_ms >= kGpuFenceWaitMs;
  if (ctx.gpu_started) {
    GLint status = GL_UNSIGNALED;
    glGetSynciv(ctx.gpu_started, GL_SYNC_STATUS, 1, nullptr, &status);
    if (status != GL_SIGNALED && !waited_enough) return false;
    glDeleteSync(ctx.gpu_started);
    ctx.gpu_started = nullptr;
  }
  // Past the fence the GPU has the links in hand, but they may still be running on its compiler threads:
  // asking for a link's status would wait for it, so the frame first asks whether each has finished.
  return waited_enough || (tierscope::render::links_done(ctx.renderer, ctx.can_poll_links) &&
                           tierscope::render::link_done(ctx.platform.ui.starting, ctx.can_poll_links));
}

// Before the first frame: once the GPU has caught up with the start-up (its fence has passed and the links
// are done), asks for the shaders' links; then waits for the page to have built its views. The links are
// asked for as soon as they are done, before the page builds: asking waits on the GPU process, which is
// then idle, where after the build it is busy drawing the page. False while either is still going, or if
// the start failed.
bool finish_start(Context& ctx) {
  using namespace tierscope;
  if (!ctx.gl_ready) {
    if (!gpu_caught_up(ctx)) return false;
    if (!platform::finish_init(ctx.platform)) {
      ctx.quit = true;
      return false;
    }
    std::string shader_error;
    if (!render::init(ctx.renderer, shader_error)) bridge::report_fatal("shader", shader_error.c_str());
    bridge::watch_canvas();
    bridge::mark("shaders");
    ctx.gl_ready = true;
  }
  if (!bridge::page_settled()) return false;
  ctx.started = true;
  return true;
}

void frame(void* arg) {
  using namespace tierscope;
  auto& ctx = *static_cast<Context*>(arg);
  auto& p = ctx.platform;
  ++p.stats.ticks;
  if (ctx.quit || !ctx.model_ready) return;
  if (!ctx.started && !finish_start(ctx)) return;  // the shaders' links, then the page's views
  if (!ctx.announced_ready) bridge::mark("frame-start");

  if (platform::pump_events(p, ctx.quit)) p.pacer.request();
  const float dt = platform::clamped_dt(p);
  const bool moved = app::tick(ctx.app, dt);
  bridge::publish_state_if_changed();
  if (p.gl_lost) return;  // nothing to draw into; the animation clock keeps its place
  if (p.gl_restored) {
    platform::rebuild_gl_objects(p);
    ctx.renderer = {};  // its handles died with the old context
    std::string error;
    if (!render::init(ctx.renderer, error)) bridge::report_fatal("shader", error.c_str());
  }
  const bool animating = moved || ctx.app.animating;
  if (!p.pacer.want_frame(platform::input_queued(), animating)) return;  // idle: draw nothing, burn nothing

  const double t0 = platform::now_ms();
  platform::ensure_fonts(p);
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  ui::draw(ctx.app, static_cast<float>(p.width), static_cast<float>(p.height));
  ImGui::Render();

  glViewport(0, 0, p.drawable_w, p.drawable_h);
  glClearColor(p.clear_rgb[0], p.clear_rgb[1], p.clear_rgb[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ui::canvas_render(ctx.app, ctx.renderer, p.drawable_w, p.drawable_h, p.pixel_ratio);
  render::draw_ui(p.ui, ImGui::GetDrawData(), p.drawable_w, p.drawable_h);
  SDL_GL_SwapWindow(p.window);

  // What the frame showed: ImGui's output plus the canvas's own emphasis and the app's revision (the
  // schematic is drawn from those), so the pacer stops once two frames in a row look the same.
  p.pacer.drawn(platform::draw_hash(ui::view_signature(ctx.app)), ctx.app.animating);
  p.stats.add(static_cast<float>(platform::now_ms() - t0));
  bridge::publish_state_if_changed();  // a click or a key handled in this frame reaches the page now
  if (!ctx.announced_ready) {
    ctx.announced_ready = true;
    bridge::notify_ready();
  }
}

// Runs `step` as the page's next task (natively, at once), so no one start-up step holds the page's thread
// for long; what GL work was sent goes to the GPU first.
void next_task(void (*step)(void*), Context& ctx) {
#ifdef __EMSCRIPTEN__
  glFlush();  // the GPU compiles what was sent while the next task runs
  emscripten_async_call(step, &ctx, 0);
#else
  step(&ctx);
#endif
}

// The start-up after main(), in order, each step a task of its own so no one of them holds the page's
// thread for long (what GL work a step sent goes to the GPU before the next). Each is marked on the page's
// timeline by its name when done (the benchmark splits start-up by these); one that fails has told the page
// why, and the start stops there.
struct StartStep {
  const char* mark;
  bool (*run)(Context& ctx);
};

// The SDL2 window on the page's canvas, with its GL context.
bool start_window(Context& ctx) { return tierscope::platform::open_window(ctx.platform, "tierscope"); }

// Dear ImGui, its shaders sent to the GPU.
bool start_ui(Context& ctx) { return tierscope::platform::init_ui(ctx.platform, tierscope::bridge::prefers_dark()); }

// The canvas's shaders sent; whether the context reports a link done without waiting for it.
bool start_canvas(Context& ctx) {
  tierscope::render::start(ctx.renderer);
#ifdef __EMSCRIPTEN__
  ctx.can_poll_links = emscripten_webgl_enable_extension(emscripten_webgl_get_current_context(), "KHR_parallel_shader_compile");
#endif
  return true;
}

// The font atlas, then a fence the first frame polls (the GPU starts on the atlas while the model runs).
bool start_fonts(Context& ctx) {
  tierscope::platform::ensure_fonts(ctx.platform);
  ctx.gpu_started = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  ctx.gpu_started_ms = tierscope::platform::now_ms();
  return true;
}

// The default scenario's figures, then its ledger.
bool start_figures(Context& ctx) {
  tierscope::app::init_figures(ctx.app);
  return true;
}
bool start_ledger(Context& ctx) {
  tierscope::app::init_ledger(ctx.app);
  return true;
}

constexpr StartStep kStartSteps[] = {
    {"window", start_window}, {"ui", start_ui},           {"canvas", start_canvas},
    {"gl", start_fonts},     {"figures", start_figures}, {"model", start_ledger},
};
constexpr std::size_t kStartStepCount = sizeof kStartSteps / sizeof kStartSteps[0];

// Once every step has run: the page's calls are attached and the page is told. Asking for the shaders' link
// waits for the GPU (its context's start-up and the compiles): the page builds its views and applies its
// link in a task of its own, and the first frame then waits for what is left of the GPU's work.
void started(Context& ctx) {
  tierscope::bridge::attach(&ctx.app, &ctx.platform);
  ctx.app.canvas.dark = tierscope::bridge::prefers_dark();
  ctx.app.canvas.reduced_motion = tierscope::bridge::prefers_reduced_motion();
  ctx.model_ready = true;
  tierscope::bridge::notify_loaded();
}

void run_start_step(void* arg) {
  auto& ctx = *static_cast<Context*>(arg);
  const StartStep& step = kStartSteps[ctx.start_step++];
  if (!step.run(ctx)) {
    ctx.quit = true;
    return;
  }
  tierscope::bridge::mark(step.mark);
  if (ctx.start_step < kStartStepCount) next_task(run_start_step, ctx);
  else started(ctx);
}

}  // namespace

int main() {
  // Lives for the whole page; the browser owns the loop, so main returns while the app keeps running.
  static Context ctx;
  // Marks on the page's timeline split start-up for the benchmark (docs/BENCHMARKS.md).
  tierscope::bridge::mark("main");
  // SDL2 here, in the task that instantiated the module; then the start-up's steps (kStartSteps), from the
  // window and its GL context in the next task on.
  if (!tierscope::platform::init_sdl()) return 1;
#ifdef __EMSCRIPTEN__
  emscripten_async_call(run_start_step, &ctx, 0);
  emscripten_set_main_loop_arg(frame, &ctx, 0, false);
#else
  run_start_step(&ctx);
  while (!ctx.quit) frame(&ctx);
  tierscope::platform::shutdown(ctx.platform);
#endif
  return 0;
}
