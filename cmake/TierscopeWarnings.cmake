# Warning, size and sanitizer flags for tierscope's own targets (never applied to third-party sources).

# tierscope_own_target(<target>): strict warnings, optional -Werror, optional sanitizers.
function(tierscope_own_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
  if(TIERSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(TIERSCOPE_SANITIZE AND NOT EMSCRIPTEN)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# Header-only Debian libraries (nlohmann/json, glm). Native builds find them in /usr/include. Emscripten must
# never see /usr/include (it would pull in glibc headers), so tools/setup makes a shim folder holding links to
# just these libraries, and the web build points at that instead.
add_library(tierscope_headers INTERFACE)
if(EMSCRIPTEN)
  target_include_directories(tierscope_headers SYSTEM INTERFACE "${TIERSCOPE_DEPS}/include-shim")
endif()

# tierscope_room(<room> [OBJECT] SOURCES <files...> DEPS <rooms...>): one folder of src/ as one static
# library, tierscope_<room>, linking the rooms it builds on. tools/check-layers reads these calls (the room
# and its DEPS) as the layer order, holds every include to it and compares it with docs/architecture.md.
# OBJECT makes an object library instead, whose every file goes into what links it (a module's exports that
# only JavaScript calls).
function(tierscope_room room)
  cmake_parse_arguments(R "OBJECT" "" "SOURCES;DEPS" ${ARGN})
  if(R_OBJECT)
    add_library(tierscope_${room} OBJECT ${R_SOURCES})
  else()
    add_library(tierscope_${room} STATIC ${R_SOURCES})
  endif()
  target_include_directories(tierscope_${room} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  set(_deps tierscope_headers)
  foreach(_d ${R_DEPS})
    list(APPEND _deps tierscope_${_d})
  endforeach()
  target_link_libraries(tierscope_${room} PUBLIC ${_deps})
  tierscope_own_target(tierscope_${room})
endfunction()
