// The command line's help text: the commands (their rows, commands.h), the flags (the serve flags from their
// own rows), examples.
#include <algorithm>
#include <string>

#include "anim/ledger.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "serve/serve.h"

namespace tierscope::cli {

namespace {

// "  chart NAME    the series …": each command's line, its words starting at the same column.
std::string command_lines() {
  std::string out;
  for (const CommandDef& c : commands()) {
    std::string first = c.usage;
    first.resize(std::max<std::size_t>(first.size() + 1, 14), ' ');
    out += "  " + first + c.summary + "\n";
  }
  return out;
}

}  // namespace

std::string usage_text() {
  return "tierscope: where LLM inference state lives, and what moving it costs.\n"
         "\n"
         "Usage: tierscope COMMAND [flags]\n"
         "\n"
         "Commands:\n" +
         command_lines() +
         "\n"
         "Flags:\n"
         "  --preset NAME        start from a preset (default v41-flash-8xb200)\n"
         "  --scenario FILE      start from a scenario JSON file instead\n"
         "  --config FILE        the model of a Hugging Face config.json, on the preset's or file's hardware\n"
         "  --quant-config FILE  with --config: the hf_quant_config.json its publisher ships beside it\n"
         "  --models DIR         validate: each row's model from DIR/org--name.json (or org--name_config.json, or\n"
         "                       org/name/config.json), with an hf_quant_config.json beside it where there is one\n"
         "  --hash HASH          start from a share link's hash (#preset=…&ctx=…&path=…) instead of --preset\n"
         "  --set KEY=VALUE      override one parameter (repeatable)\n"
         "  --format FMT         text (default), json or csv; sweep writes csv\n"
         "  --over KEY=SPEC      sweep axis: START:END:xFACTOR, START:END:+STEP, or A,B,C\n"
         "  --figures ID,ID      only these figure ids (figures, sweep; one for chart sweep)\n"
         "  --path NAME          ledger path: " + anim::path_keys_allowed() + "\n"
         "  --hours H            fleet: simulated hours (the same as --set hours=H)\n"
         "  --seed S             fleet, serve: random seed (the same as --set seed=S)\n"
         "  --trace FILE         fleet: replay a Mooncake-format trace (JSON lines) instead of synthetic traffic;\n"
         "                       serve: its requests' lengths (with --lengths trace)\n"
         "  --sweep TIER         fleet: also run the tier (pool, dram, ssd) at 1/16 to 16 times its capacity\n"
         + std::string(serve::serve_flags_text()) +
         "  --tier KEY           ledger: only moves from or to this place (sram, hbm, dram, ssd, …)\n"
         "  --object KEY         ledger: only moves of this object (global-kv, moe-weights, …)\n"
         "  --help               this text\n"
         "\n"
         "Exit codes: 0 ok, 1 internal error, 2 usage error, 3 invalid scenario value, trace line or a setup that cannot run\n"
         "(figures, check-card and ledger still print what can be computed), 4 file error.\n"
         "\n"
         "Examples:\n"
         "  tierscope figures --set ctx=1048576 --set batch=8\n"
         "  tierscope check-card --format csv\n"
         "  tierscope ledger --path decode --format json\n"
         "  tierscope fleet --hours 24 --set arrivals=5 --sweep pool\n"
         "  tierscope ledger --hash '#preset=v41-flash-8xh200&ctx=1048576&path=prefill' --format csv\n"
         "  tierscope sweep --over ctx=1024:1048576:x2 --over batch=1,8,64 --figures decode.step_time\n"
         "  tierscope chart roofline --format json\n"
         "  tierscope serve --concurrency 64 --input 1024 --output 1024\n"
         "  tierscope figures --set gpus=1       (names why the setup cannot run, exit code 3)\n"
         "  tierscope figures --config Qwen3-8B/config.json --preset llama31-8b-1xh100\n";
}

}  // namespace tierscope::cli
