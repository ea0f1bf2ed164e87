// Test support: the numbers a text quotes, so a test can hold a source text to the value it speaks for. A
// number stands alone (not part of a name such as "H100", "MI300X", "EP32" or "128K"), may group thousands
// with commas ("1,979") and have decimals; "46-48" or "0.109–0.115" is a range. Shared by the provenance
// and anchor tests.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace tierscope::testing {

struct Quoted {
  double lo = 0, hi = 0;  // equal for a single number
};

inline std::vector<Quoted> quoted_numbers(std::string_view t) {
  std::vector<Quoted> out;
  const auto is_word = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  const auto digit = [&](std::size_t i) { return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); };
  // Reads a number at i (digits, comma groups of three, decimals); i moves past it. False when none is there.
  const auto read = [&](std::size_t& i, double& v) {
    if (!digit(i)) return false;
    std::string n;
    while (digit(i) || (t[i] == ',' && digit(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4))) {
      if (t[i] != ',') n += t[i];
      ++i;
    }
    if (i + 1 < t.size() && t[i] == '.' && digit(i + 1)) {
      n += t[i++];
      while (digit(i)) n += t[i++];
    }
    v = std::stod(n);
    return true;
  };
  std::size_t i = 0;
  while (i < t.size()) {
    if (!digit(i)) {
      ++i;
      continue;
    }
    const bool inside = i > 0 && (is_word(t[i - 1]) || t[i - 1] == '.' || std::isdigit(static_cast<unsigned char>(t[i - 1])));
    double a = 0;
    read(i, a);
    // A name ("MI300X", "128K", "3x"): not a quoted number.
    if (inside || (i < t.size() && is_word(t[i]))) {
      while (i < t.size() && (is_word(t[i]) || digit(i))) ++i;
      continue;
    }
    Quoted q{a, a};
    // A range: "46-48", "0.109–0.115" (an en dash is three bytes in UTF-8).
    std::size_t j = i;
    if (j < t.size() && t[j] == '-') ++j;
    else if (t.substr(j, 3) == "\u2013") j += 3;
    double b = 0;
    if (j != i && read(j, b) && !(j < t.size() && is_word(t[j])) && b >= a) {
      q.hi = b;
      i = j;
    }
    out.push_back(q);
  }
  return out;
}

// Whether the text quotes `value` (within a relative `tol`), alone or inside a range it gives.
inline bool quotes_value(std::string_view text, double value, double tol = 1e-9) {
  for (const Quoted& q : quoted_numbers(text)) {
    const double slack = tol * std::max(std::fabs(value), 1e-300);
    if (value >= q.lo - slack && value <= q.hi + slack) return true;
  }
  return false;
}

}  // namespace tierscope::testing
