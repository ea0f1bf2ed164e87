# tierscope_embed(<target> <symbol> <file>): compiles <file>'s bytes into <target> as <symbol>.
function(tierscope_embed target symbol file)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.cpp")
  add_custom_command(OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DINPUT=${file} -DOUTPUT=${out} -DSYMBOL=${symbol} -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake"
    DEPENDS "${file}" "${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake"
    COMMENT "Embedding ${symbol}" VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
