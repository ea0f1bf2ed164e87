# Turns a file into a C++ source holding its bytes (run with cmake -P at build time).
# Inputs: INPUT (file), OUTPUT (.cpp), SYMBOL (C identifier). Defines
#   extern const unsigned char SYMBOL[]; extern const unsigned int SYMBOL_size;
# A text file also gets a terminating zero (not counted in SYMBOL_size) so shaders can be used as C strings.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the single line every 24 bytes so compilers and diffs stay happy.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n" bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${name} at build time; do not edit.\n"
  "extern const unsigned char ${SYMBOL}[];\nextern const unsigned int ${SYMBOL}_size;\n"
  "alignas(4) const unsigned char ${SYMBOL}[] = {\n${bytes}0x00};\n"
  "const unsigned int ${SYMBOL}_size = ${size}u;\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
