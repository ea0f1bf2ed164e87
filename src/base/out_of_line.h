// Calls a function through a pointer the optimiser cannot follow, so that it stays a function of its own.
//
// The web build's optimiser folds every function with a single call site into its caller whatever its size
// (wasm-opt inlines such functions at -Oz, and clang's noinline does not reach it). The page's module is
// split after linking by the functions its first frame runs (tools/first-frame.mjs): work the first frame's
// model never needs (layer kinds it does not have) only leaves the first download if it is a function of its
// own. A function whose address sits in the module's table is never folded, so the call goes through one.
#pragma once

#include <utility>

namespace tierscope::model {

template <auto Fn, class... Args>
decltype(auto) out_of_line(Args&&... args) {
  // volatile: the compiler must read the pointer at run time and cannot turn the call into a direct one
  static decltype(Fn) const volatile fn = Fn;
  return fn(std::forward<Args>(args)...);
}

}  // namespace tierscope::model
