// The import's own move of the workload: a context (or prompt) beyond the loaded model's trained positions
// is lowered to them through the registry's edit, as a person would set it.
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
    const int now = std::string_view(key) == "ctx" ? s.work.ctx : s.work.prompt;
    if (!def || now <= max_pos) continue;
    Error err;
    Adjustments also;
    Scenario next = s;
    if (!edit_param(next, *def, std::to_string(max_pos), also, err) || !validate(next).empty()) continue;
    moved.push_back(Adjustment{key, std::to_string(now), std::to_string(max_pos), why});
    moved.insert(moved.end(), also.begin(), also.end());
    s = std::move(next);
  }
  return moved.size() != before;
}

}  // namespace tierscope::model
