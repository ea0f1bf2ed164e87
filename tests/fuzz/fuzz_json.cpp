// libFuzzer target: the model's JSON reader against nlohmann::json, which the model used before. Any input
// is handled without a crash; both accept the same texts, report the same repeated keys and write the same
// compact text (a floating-point number may differ only in digits that read back to the same double: the
// reader writes the shortest).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::vector<std::string>> seen;
  std::vector<std::string> theirs_dups;
  nlohmann::json::parser_callback_t cb = [&](int depth, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
    const std::size_t d = static_cast<std::size_t>(depth);
    if (ev == nlohmann::json::parse_event_t::object_start) {
      if (seen.size() < d + 1) seen.resize(d + 1);
      seen[d].clear();
    } else if (ev == nlohmann::json::parse_event_t::key && d >= 1 && seen.size() >= d) {
      const std::string key = parsed.get<std::string>();
      for (const std::string& k : seen[d - 1])
        if (k == key) theirs_dups.push_back(key);
      seen[d - 1].push_back(key);
    }
    return true;
  };
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), cb, false);
  tierscope::model::json::Document doc;
  std::vector<std::string> dups;
  const bool ok = doc.parse(text, &dups);
  if (ok != !j.is_discarded()) std::abort();
  if (!ok) return 0;
  if (dups != theirs_dups) std::abort();
  if (!tierscope::test::same_json_text(doc.root().dump(true), j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace), true)) std::abort();
  if (!tierscope::test::same_json_text(doc.root().dump(false), j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), true)) std::abort();
  return 0;
}
