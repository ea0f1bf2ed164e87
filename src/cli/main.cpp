// tierscope command-line entry point: reads files and writes streams; everything else is in cli_lib.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"

namespace {

bool read_file(const std::string& path, std::string& text, std::string& why) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    why = "cannot open";
    return false;
  }
  text.clear();
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    text.append(buf, n);
    if (text.size() > (256u << 20)) {  // the largest input any parser takes (a trace); each refuses what is too large
      break;
    }
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    why = "read error";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  const tierscope::cli::Output o = tierscope::cli::run_cli(args, read_file);
  std::fwrite(o.out.data(), 1, o.out.size(), stdout);
  std::fwrite(o.err.data(), 1, o.err.size(), stderr);
  return o.exit_code;
}
