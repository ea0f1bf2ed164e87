// A small native tool printing one path's ledger for a preset; tools/regen-golden writes golden files with it.
#include <cstdio>
#include <string>

#include "anim/format.h"
#include "anim/ledger.h"
#include "model/presets.h"

int main(int argc, char** argv) {
  using namespace tierscope;
  // Usage: tierscope_ledger PATH [FORMAT [PRESET]]
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PATH [text|json|csv [PRESET]]\npaths: %s\n", argv[0], anim::path_keys_allowed().c_str());
    return 2;
  }
  model::Error err;
  anim::PathId path{};
  if (!anim::parse_path(argv[1], path, err)) {
    std::fprintf(stderr, "%s\n", err.message().c_str());
    return 2;
  }
  anim::LedgerFormat format = anim::LedgerFormat::Text;
  if (argc > 2 && !anim::parse_ledger_format(argv[2], format, err)) {
    std::fprintf(stderr, "%s\n", err.message().c_str());
    return 2;
  }
  model::Scenario s;
  if (!model::make_preset(argc > 3 ? argv[3] : model::kDefaultPreset, s)) {
    std::fprintf(stderr, "preset: %s is not a preset\n", argc > 3 ? argv[3] : "");
    return 2;
  }
  const std::string out = anim::ledger_to(anim::build_ledger(s, path), format);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
