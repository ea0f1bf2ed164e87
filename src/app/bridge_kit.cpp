// The bridges' shared kit: text arguments read within their limit, answers kept until the next, refusals.
#include "app/bridge_kit.h"

#include <utility>

#include "app/page_json.h"

namespace tierscope::app::bridge_kit {

namespace {
std::string g_answer;  // the last answer handed to JavaScript
}  // namespace

bool text_arg(const char* p, std::string_view& out, std::size_t limit) {
  if (!p) return false;
  std::size_t n = 0;
  while (n <= limit && p[n] != '\0') ++n;
  if (n > limit) return false;
  out = std::string_view(p, n);
  return true;
}

const char* answer(std::string s) {
  g_answer = std::move(s);
  return g_answer.c_str();
}

const char* answer_errors(const model::Errors& errors) { return answer(errors_json(errors)); }

model::Error too_long(const char* field, std::size_t limit, std::string_view what) {
  return model::make_error(model::ErrorCode::TooLarge, field, "(missing or too long)",
                           std::string(what) + " of at most " + std::to_string(limit) + " bytes");
}

}  // namespace tierscope::app::bridge_kit
