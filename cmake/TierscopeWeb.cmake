# The WebAssembly app: Dear ImGui + SDL2 (built by tools/setup) + WebGL2, linked size-first, then the
# deployable site folder assembled and its sizes printed.
include(TierscopeEmbed)

set(_deps_file "${TIERSCOPE_DEPS}/deps-2.cmake")
if(NOT EXISTS "${_deps_file}")
  message(FATAL_ERROR "tierscope: ${_deps_file} not found. Run tools/setup first (it builds SDL2 for WebAssembly "
                      "and fetches the Dear ImGui sources into ${TIERSCOPE_DEPS}).")
endif()
include("${_deps_file}")
foreach(_f "${TIERSCOPE_IMGUI_DIR}/imgui.cpp" "${TIERSCOPE_SDL2_PREFIX}/lib/libSDL2.a" "${TIERSCOPE_DEPS}/fonts/current/inter-canvas.otf"
        "${TIERSCOPE_DEPS}/fonts/current/dejavu-symbols.ttf")
  if(NOT EXISTS "${_f}")
    message(FATAL_ERROR "tierscope: ${_f} is missing; run tools/setup again.")
  endif()
endforeach()

# --- Dear ImGui (third-party: no -Werror, no demo, no file functions; SDL2 input backend only, since
# src/render/ui_renderer draws its output) ----------------------
set(IMGUI_DIR "${TIERSCOPE_IMGUI_DIR}")
add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp ${IMGUI_DIR}/imgui_widgets.cpp
  ${IMGUI_DIR}/backends/imgui_impl_sdl2.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
# Emscripten puts its own SDL 1 emulation headers on the system include path (-iwithsysroot/include/SDL),
# ahead of any -isystem folder: SDL2's headers must come through -I to win.
target_include_directories(imgui BEFORE PUBLIC "${TIERSCOPE_SDL2_PREFIX}/include/SDL2")
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_DEBUG_TOOLS IMGUI_DISABLE_OBSOLETE_FUNCTIONS
  IMGUI_DISABLE_FILE_FUNCTIONS IMGUI_DISABLE_DEFAULT_SHELL_FUNCTIONS)

add_library(sdl2_web STATIC IMPORTED)
set_target_properties(sdl2_web PROPERTIES IMPORTED_LOCATION "${TIERSCOPE_SDL2_PREFIX}/lib/libSDL2.a")

# --- the app -------------------------------------------------------------------------------------------
# The top three rooms (the GL renderer, the ImGui panels, the browser platform) over the app controller's
# library; the page's module is the platform with everything it builds on, and the embedded files.
foreach(_room render ui platform)
  add_subdirectory(src/${_room})
endforeach()
add_executable(tierscope_web)
set_target_properties(tierscope_web PROPERTIES OUTPUT_NAME tierscope SUFFIX ".js")
target_link_libraries(tierscope_web PRIVATE tierscope_platform)
tierscope_own_target(tierscope_web)
tierscope_embed(tierscope_web tierscope_font_ui "${TIERSCOPE_DEPS}/fonts/current/inter-canvas.otf")
tierscope_embed(tierscope_web tierscope_font_symbols "${TIERSCOPE_DEPS}/fonts/current/dejavu-symbols.ttf")
# The canvas's shaders, embedded as NUL-terminated text (tierscope_shader_<name>_<stage>).
foreach(_shader box stripes arrow ui)
  foreach(_stage vert frag)
    tierscope_embed(tierscope_web tierscope_shader_${_shader}_${_stage} "${PROJECT_SOURCE_DIR}/shaders/${_shader}.${_stage}")
  endforeach()
endforeach()

set(_link
  -Oz -fno-exceptions -fno-rtti
  -sMODULARIZE=1 -sEXPORT_NAME=createTierscope -sENVIRONMENT=web
  -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sTOTAL_STACK=256KB
  -sFILESYSTEM=0 -sMALLOC=emmalloc -sSUPPORT_LONGJMP=0
  -sHTML5_SUPPORT_DEFERRING_USER_SENSITIVE_REQUESTS=0
  -sDYNAMIC_EXECUTION=0  # no eval or new Function: the page runs under a strict Content-Security-Policy
  # The runtime assumes what every WebGL2 browser has (TextDecoder), enables no WebGL extension by itself
  # (the app asks for none), keeps no GL error log, and reads only these members of the page's module object.
  -sTEXTDECODER=2 -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0 -sGL_TRACK_ERRORS=0
  -sINCOMING_MODULE_JS_API=[canvas,locateFile,instantiateWasm,loadSplitModule,onAbort,print,printErr]
  -sEXPORTED_RUNTIME_METHODS=[UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAPF64]
  -sEXPORTED_FUNCTIONS=[_main,_malloc,_free]
  # Split in two after linking (tools/first-frame.mjs): the functions the first frame runs, by the names in
  # src/platform/first-frame-functions.txt, stay in tierscope.wasm; the rest go to tierscope.deferred.wasm,
  # which the page loads once idle. The names are kept for the split and dropped from what ships. wasm-opt
  # folds every function with a single call site into its caller whatever its size, so rarely run code (a
  # layer kind, an error path, a panel) would ride in the first frame's functions: above 40 instructions
  # such a function stays whole, split by whether the first frame runs it (first load 352.6 → 332.8 kB gzip).
  -sSPLIT_MODULE=1 --profiling-funcs -Wno-experimental -sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=40)
# emcc reads its tools from the environment: Debian's acorn on NODE_PATH, the npm closure minifier.
set(_link_env NODE_PATH=/usr/share/nodejs)
if(TIERSCOPE_CLOSURE_COMPILER AND EXISTS "${TIERSCOPE_CLOSURE_COMPILER}")
  list(APPEND _link --closure 1)
  list(APPEND _link_env EM_CLOSURE_COMPILER=${TIERSCOPE_CLOSURE_COMPILER})
else()
  message(WARNING "tierscope: closure minifier not found; the JS will be larger. Run tools/setup.")
endif()
target_link_options(tierscope_web PRIVATE ${_link})
set_target_properties(tierscope_web PROPERTIES CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;${_link_env}")
set_property(TARGET tierscope_web APPEND PROPERTY LINK_DEPENDS "${PROJECT_SOURCE_DIR}/src/platform/web_bridge.js")
target_link_options(tierscope_web PRIVATE "--js-library=${PROJECT_SOURCE_DIR}/src/platform/web_bridge.js")
set(_first_frame_list "${PROJECT_SOURCE_DIR}/src/platform/first-frame-functions.txt")
set_property(TARGET tierscope_web APPEND PROPERTY LINK_DEPENDS "${_first_frame_list}" "${PROJECT_SOURCE_DIR}/tools/first-frame.mjs")
add_custom_command(TARGET tierscope_web POST_BUILD
  COMMAND node "${PROJECT_SOURCE_DIR}/tools/first-frame.mjs" split "${CMAKE_CURRENT_BINARY_DIR}" "${_first_frame_list}"
  VERBATIM)

# --- the worker module -----------------------------------------------------------------------------------
# The second WebAssembly module, run in a Web Worker (web/worker.js) and fetched on first use or when the
# page is idle after its first frame: the charts' series with the measured anchors and the config.json
# reader, from the same sources as the app but without Dear ImGui, SDL2 or GL. Its one bridge file is
# src/worker/worker_bridge.cpp; the page's module then links none of that work.
add_executable(tierscope_worker_web ${PROJECT_SOURCE_DIR}/src/worker/worker_bridge.cpp)
set_target_properties(tierscope_worker_web PROPERTIES OUTPUT_NAME tierscope-worker SUFFIX ".js")
target_link_libraries(tierscope_worker_web PRIVATE tierscope_app tierscope_serve tierscope_headers)
tierscope_own_target(tierscope_worker_web)
set(_worker_link
  -Oz -fno-exceptions -fno-rtti
  -sMODULARIZE=1 -sEXPORT_NAME=createTierscopeWorker -sENVIRONMENT=worker
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sTOTAL_STACK=256KB
  -sFILESYSTEM=0 -sMALLOC=emmalloc -sSUPPORT_LONGJMP=0 -sDYNAMIC_EXECUTION=0 -sTEXTDECODER=2
  -sINCOMING_MODULE_JS_API=[locateFile,onAbort,print,printErr]
  -sEXPORTED_RUNTIME_METHODS=[UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAPF64]
  -sEXPORTED_FUNCTIONS=[_malloc,_free])
if(TIERSCOPE_CLOSURE_COMPILER AND EXISTS "${TIERSCOPE_CLOSURE_COMPILER}")
  list(APPEND _worker_link --closure 1)
endif()
target_link_options(tierscope_worker_web PRIVATE ${_worker_link})
set_target_properties(tierscope_worker_web PROPERTIES CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;${_link_env}")

# The deployable folder: the HTML shell, the app, fonts; re-assembled on every build (it takes a moment and
# picks up edits to web/ without a relink). Printed sizes are raw and gzip -9.
add_custom_target(site ALL
  COMMAND ${CMAKE_COMMAND} -E env "TIERSCOPE_ESBUILD=${TIERSCOPE_ESBUILD}"
          "${PROJECT_SOURCE_DIR}/tools/assemble-site" "${CMAKE_CURRENT_BINARY_DIR}" "${CMAKE_BINARY_DIR}/site"
  DEPENDS tierscope_web tierscope_worker_web
  COMMENT "Assembling the site in ${CMAKE_BINARY_DIR}/site"
  VERBATIM)
