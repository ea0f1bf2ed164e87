// Test support: whether two compact JSON texts are the same text, allowing a floating-point number to be
// written with other digits when both read back to the same double. nlohmann's printer sometimes writes a
// digit more than the shortest, or not the closest of the shortest (9.2e22 as 9.200000000000001e+22); the
// model's JSON reader writes the shortest, closest digits. Used by the reader's unit test and its fuzzer.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tierscope::test {

// a is the model's text, b nlohmann's. With a_shortest, a's number may not be longer than b's.
inline bool same_json_text(const std::string& a, const std::string& b, bool a_shortest) {
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
      const bool same_double = fa && fb && std::strtod(na.c_str(), nullptr) == std::strtod(nb.c_str(), nullptr);
      if (na != nb && !(same_double && (!a_shortest || na.size() <= nb.size()))) return false;
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

}  // namespace tierscope::test
