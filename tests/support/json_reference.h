// Test support: what nlohmann::json (the library the model's JSON reader replaced, still used by the CLI)
// makes of a text — accepted or not, its compact texts, and the repeated keys found with the callback the
// model used. The reader's unit test and its fuzzer compare the reader against this.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace tierscope::test {

struct JsonReference {
  bool ok = false;
  std::string ascii, plain;             // compact text, non-ASCII escaped / kept
  std::vector<std::string> duplicates;  // repeated keys, in the order met (none when refused)
};

inline JsonReference json_reference(const std::string& text) {
  JsonReference t;
  std::vector<std::vector<std::string>> seen;
  nlohmann::json::parser_callback_t cb = [&](int depth, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
    const std::size_t d = static_cast<std::size_t>(depth);
    if (ev == nlohmann::json::parse_event_t::object_start) {
      if (seen.size() < d + 1) seen.resize(d + 1);
      seen[d].clear();
    } else if (ev == nlohmann::json::parse_event_t::key && d >= 1 && seen.size() >= d) {
      const std::string key = parsed.get<std::string>();
      for (const std::string& k : seen[d - 1])
        if (k == key) t.duplicates.push_back(key);
      seen[d - 1].push_back(key);
    }
    return true;
  };
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), cb, false);
  t.ok = !j.is_discarded();
  if (t.ok) {
    t.ascii = j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    t.plain = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  if (!t.ok) t.duplicates.clear();
  return t;
}

}  // namespace tierscope::test
