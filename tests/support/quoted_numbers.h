// Test support: the numbers a text quotes, so a test can hold a source text to the value it speaks for. A
// number stands alone (not part of a name such as "H100", "MI300X" or "EP32", nor a section "§2.1" or an
// item "#19"), may group thousands with commas ("1,979") and have decimals; "46-48" or "0.109–0.115" is a
// range; a count of tokens "128K" is 128 × 1,024. Shared by the provenance and anchor tests.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace tierscope::testing {

struct Quoted {
  double lo = 0, hi = 0;             // equal for a single number
  std::size_t begin = 0, end = 0;    // where it is in the text
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
    const std::size_t begin = i;
    const bool section = (i > 0 && t[i - 1] == '#') || (i > 1 && static_cast<unsigned char>(t[i - 2]) == 0xC2 && static_cast<unsigned char>(t[i - 1]) == 0xA7);
    const bool inside = section || (i > 0 && (is_word(t[i - 1]) || t[i - 1] == '.' || std::isdigit(static_cast<unsigned char>(t[i - 1]))));
    double a = 0;
    read(i, a);
    // Tokens counted in K: "128K context", "1K/1K".
    if (!inside && i < t.size() && t[i] == 'K' && !(i + 1 < t.size() && is_word(t[i + 1]))) {
      out.push_back(Quoted{a * 1024, a * 1024, begin, ++i});
      continue;
    }
    // A name ("MI300X", "3x") or a section: not a quoted number.
    if (inside || (i < t.size() && is_word(t[i]))) {
      while (i < t.size() && (is_word(t[i]) || digit(i) || t[i] == '.')) ++i;
      continue;
    }
    Quoted q{a, a, begin, i};
    // A range: "46-48", "0.109–0.115" (an en dash is three bytes in UTF-8).
    std::size_t j = i;
    if (j < t.size() && t[j] == '-') ++j;
    else if (t.substr(j, 3) == "\u2013") j += 3;
    double b = 0;
    if (j != i && read(j, b) && !(j < t.size() && is_word(t[j])) && b >= a) {
      q.hi = b;
      q.end = i = j;
    }
    out.push_back(q);
  }
  return out;
}

// The numbers quoted right before `unit` (after a space or none: "450 GB/s per direction", "5 PF FP8").
inline std::vector<Quoted> quoted_with(std::string_view t, std::string_view unit) {
  std::vector<Quoted> out;
  for (const Quoted& q : quoted_numbers(t)) {
    std::size_t at = q.end;
    while (at < t.size() && (t[at] == ' ' || t.substr(at, 2) == "\u00a0")) at += t[at] == ' ' ? 1 : 2;
    if (t.substr(at, unit.size()) == unit) out.push_back(q);
  }
  return out;
}

inline bool contains(const std::vector<Quoted>& qs, double value, double tol = 1e-9) {
  for (const Quoted& q : qs) {
    const double slack = tol * std::max(std::fabs(value), 1e-300);
    if (value >= q.lo - slack && value <= q.hi + slack) return true;
  }
  return false;
}

// Whether the text quotes `value` (within a relative `tol`), alone or inside a range it gives.
inline bool quotes_value(std::string_view text, double value, double tol = 1e-9) { return contains(quoted_numbers(text), value, tol); }

}  // namespace tierscope::testing
