// libFuzzer target: the model's JSON reader against nlohmann::json, which the model used before. Any input
// is handled without a crash; both accept the same texts, report the same repeated keys and write the same
// compact text (a floating-point number may differ only in digits that read back to the same double: the
// reader writes the shortest).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_reader.h"

namespace {

bool same_text(const std::string& a, const std::string& b) {
  std::size_t i = 0, k = 0;
  bool in_string = false;
  auto number_end = [](const std::string& s, std::size_t p) {
    while (p < s.size() && std::strchr("+-.0123456789eE", s[p])) ++p;
    return p;
  };
  while (i < a.size() && k < b.size()) {
    if (!in_string && (a[i] == '-' || (a[i] >= '0' && a[i] <= '9'))) {
      const std::size_t ea = number_end(a, i), eb = number_end(b, k);
      const std::string na = a.substr(i, ea - i), nb = b.substr(k, eb - k);
      const bool fa = na.find_first_of(".eE") != std::string::npos, fb = nb.find_first_of(".eE") != std::string::npos;
      if (na != nb && !(fa && fb && std::strtod(na.c_str(), nullptr) == std::strtod(nb.c_str(), nullptr) && na.size() <= nb.size()))
        return false;
      i = ea;
      k = eb;
      continue;
    }
    if (a[i] != b[k]) return false;
    if (in_string && a[i] == '\\') {
      if (i + 1 >= a.size() || k + 1 >= b.size() || a[i + 1] != b[k + 1]) return false;
      i += 2;
      k += 2;
      continue;
    }
    if (a[i] == '"') in_string = !in_string;
    ++i;
    ++k;
  }
  return i == a.size() && k == b.size();
}

}  // namespace

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
  if (!same_text(doc.root().dump(true), j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace))) std::abort();
  if (!same_text(doc.root().dump(false), j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))) std::abort();
  return 0;
}
