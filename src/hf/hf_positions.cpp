// The import's own move of the workload: a context beyond the loaded model's trained positions is lowered to
// them, and a prompt to what they leave beside the output, through the registry's edit, as a person would set it.
#include <string>
#include <string_view>

#include "base/text.h"
#include "hf/hf_config.h"

namespace tierscope::model {

bool fit_trained_positions(Scenario& s, Adjustments& moved) {
  const int max_pos = s.model.max_pos;
  if (max_pos <= 0) return false;
  const std::size_t before = moved.size();
  const std::string why = "the model's " + num(max_pos) + " trained positions, max_position_embeddings";
  for (const char* key : {"ctx", "prompt"}) {
    const ParamDef* def = find_param(key);
    const bool prompt = std::string_view(key) == "prompt";
    const int now = prompt ? s.work.prompt : s.work.ctx;
    // A request's prompt and output share the positions (a serving replay refuses one whose sum passes them), so
    // the prompt leaves room for the output, unless the output alone fills them.
    const bool room = prompt && s.work.output > 0 && s.work.output < max_pos;
    const int most = room ? max_pos - s.work.output : max_pos;
    if (!def || now <= most) continue;
    Error err;
    Adjustments also;
    Scenario next = s;
    if (!edit_param(next, *def, std::to_string(most), also, err) || !validate(next).empty()) continue;
    moved.push_back(Adjustment{key, std::to_string(now), std::to_string(most), room ? why + ", less the " + num(s.work.output) + " output tokens" : why});
    moved.insert(moved.end(), also.begin(), also.end());
    s = std::move(next);
  }
  return moved.size() != before;
}

}  // namespace tierscope::model
