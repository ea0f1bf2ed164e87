// The GL entry points SDL2 looks up by name (eglGetProcAddress), answered from a table of the few it asks
// for. Emscripten's own answer looks the name up in a table of every GL function it implements, which links
// all of them — some 270 functions in the page's module and its script — for six lookups: SDL's check of
// the context's extensions and its framebuffer queries. Any other name is not offered (SDL then treats the
// extension or query as absent, as it does on a driver without it).
#include <GLES3/gl3.h>

#include <cstring>

namespace {
struct Entry {
  const char* name;
  void* function;
};
// What SDL 2.26's video code asks for (SDL_video.c, SDL_egl.c) on a GLES context.
const Entry kEntries[] = {
    {"glGetString", reinterpret_cast<void*>(&glGetString)},
    {"glGetStringi", reinterpret_cast<void*>(&glGetStringi)},
    {"glGetIntegerv", reinterpret_cast<void*>(&glGetIntegerv)},
    {"glGetError", reinterpret_cast<void*>(&glGetError)},
    {"glBindFramebuffer", reinterpret_cast<void*>(&glBindFramebuffer)},
    {"glGetFramebufferAttachmentParameteriv", reinterpret_cast<void*>(&glGetFramebufferAttachmentParameteriv)},
};
}  // namespace

extern "C" void* eglGetProcAddress(const char* name) {
  if (!name) return nullptr;
  for (const Entry& e : kEntries)
    if (std::strcmp(e.name, name) == 0) return e.function;
  return nullptr;
}
