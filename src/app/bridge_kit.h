// What the two modules' bridges to JavaScript share (src/platform/web_bridge.cpp for the page's module,
// src/worker/worker_bridge.cpp for the worker's): a C string from JavaScript read within a limit, an answer
// handed back as a C string that lives until the next one, the errors of an argument refused, and how an
// export is marked (TS_EXPORT).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/errors.h"

// A function JavaScript calls: kept and exported by the module; natively a plain C function the tests call.
#ifdef __EMSCRIPTEN__
#include <emscripten/em_macros.h>
#define TS_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define TS_EXPORT extern "C"
#endif

namespace tierscope::app::bridge_kit {

// The longest text argument a call takes unless it says otherwise.
constexpr std::size_t kMaxText = 8192;

// Reads a C string from JavaScript defensively: null and text longer than `limit` bytes are refused.
bool text_arg(const char* p, std::string_view& out, std::size_t limit = kMaxText);

// Hands `s` to JavaScript: the pointer stays valid until the next answer of the same module.
const char* answer(std::string s);
// The errors as the app's error JSON ({ok, errors}), handed back.
const char* answer_errors(const model::Errors& errors);

// A text argument missing or longer than `limit`: "(missing or too long)", allowed "<what> of at most N bytes".
model::Error too_long(const char* field, std::size_t limit, std::string_view what = "a string");

}  // namespace tierscope::app::bridge_kit
