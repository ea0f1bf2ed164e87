// Number formatting shared by formulas, the CLI and the codecs. No locale, no streams.
#include "base/text.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tierscope::model {

std::string join_names(std::span<const char* const> names) {
  std::string s;
  for (const char* n : names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

void appendf(std::string& out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  if (static_cast<std::size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<std::size_t>(n));
    return;
  }
  // Rare long text: format again into a buffer of the right size.
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(big.data(), big.size(), fmt, ap);
  va_end(ap);
  big.resize(static_cast<std::size_t>(n));
  out += big;
}

static std::string group_thousands(double v) {
  // Integer digits without snprintf: formulas print dozens of integers per describe() call.
  char rev[24];
  int nd = 0;
  for (unsigned long long u = static_cast<unsigned long long>(std::fabs(v) + 0.5); nd < 24;) {
    rev[nd++] = static_cast<char>('0' + u % 10);
    u /= 10;
    if (u == 0) break;
  }
  // Written straight into one buffer: sign, then the digits most significant first with a comma every three.
  char buf[40];
  int len = 0;
  if (v < 0) buf[len++] = '-';
  for (int i = nd - 1; i >= 0; --i) {
    buf[len++] = rev[i];
    if (i > 0 && i % 3 == 0) buf[len++] = ',';
  }
  std::string out(buf, static_cast<std::size_t>(len));
  return out;
}

namespace {
// printf's "%.*g" for the common case, without printf: `sig` significant digits in fixed notation when the
// decimal exponent is in [-4, sig), trailing zeros dropped. Returns false when %g would use an exponent (the
// caller then asks snprintf). Formulas print hundreds of numbers per describe(), so this matters.
bool fast_g(double v, int sig, std::string& out) {
  static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10,
                                  1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20};
  if (!(v == v) || sig < 1 || sig > 15) return false;
  const double a = std::fabs(v);
  if (a == 0) {
    out += '0';  // -0 prints as 0 too: no formula means a negative zero
    return true;
  }
  if (a < 1e-4 || a >= 1e15) return false;
  // The decimal exponent by table lookup (a log10 call cost more than the rest of the formatting).
  int e = 0;
  if (a >= 1) {
    while (e < 14 && a >= kPow10[e + 1]) ++e;
  } else {
    while (e > -4 && a * kPow10[-e] < 1) --e;
  }
  // Scale to an integer of `sig` digits; rounding may carry into one more digit.
  const int shift = sig - 1 - e;
  if (shift > 20 || shift < -20) return false;
  double scaled = shift >= 0 ? a * kPow10[shift] : a / kPow10[-shift];
  // Near a tie the scaling's own rounding could tip the digit: let printf decide those exactly.
  if (std::fabs(scaled - std::floor(scaled) - 0.5) < 1e-6 * scaled + 1e-9) return false;
  unsigned long long m = static_cast<unsigned long long>(std::llround(scaled));
  if (m >= static_cast<unsigned long long>(kPow10[sig])) {  // 9.9996 → 10.00
    m /= 10;
    e += 1;
  } else if (m < static_cast<unsigned long long>(kPow10[sig - 1])) {  // log10 rounded down too far
    m = static_cast<unsigned long long>(std::llround(scaled * 10));
    e -= 1;
  }
  if (e < -4 || e >= sig) return false;
  char digits[20];
  int n = 0;
  for (unsigned long long x = m; n < sig; ++n, x /= 10) digits[sig - 1 - n] = static_cast<char>('0' + x % 10);
  // Drop trailing zeros after the decimal point.
  int last = sig - 1;
  const int int_digits = e + 1;  // digits before the point (≤ 0: leading "0.")
  while (last >= int_digits && last > 0 && digits[last] == '0') --last;
  if (v < 0) out += '-';
  if (int_digits <= 0) {
    out += "0.";
    for (int i = 0; i < -int_digits; ++i) out += '0';
    out.append(digits, static_cast<std::size_t>(last + 1));
  } else {
    out.append(digits, static_cast<std::size_t>(std::min(int_digits, last + 1)));
    if (last + 1 > int_digits) {
      out += '.';
      out.append(digits + int_digits, static_cast<std::size_t>(last + 1 - int_digits));
    }
  }
  return true;
}
}  // namespace

std::string num_sig(double v, int sig) {
  if (!std::isfinite(v)) return v != v ? "NaN" : (v > 0 ? "inf" : "-inf");
  if (v == std::floor(v) && std::fabs(v) < 1e15 && std::fabs(v) >= 1) return group_thousands(v);
  const double a = std::fabs(v);
  char buf[64];
  if (a != 0 && (a < 1e-4 || a >= 1e15)) {
    std::snprintf(buf, sizeof buf, "%.*e", sig - 1, v);
    return buf;
  }
  std::string fast;
  if (fast_g(v, sig, fast)) return fast;
  std::snprintf(buf, sizeof buf, "%.*g", sig, v);
  std::string s(buf);
  if (s.find('e') != std::string::npos) {
    // %g switched to exponent for a large non-integer: fall back to grouped rounding.
    return group_thousands(std::round(v));
  }
  return s;
}

std::string num(double v) { return num_sig(v, 4); }

bool read_number(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64) return false;
  // Plain decimal notation only, as a person types a number: strtod alone would also take hex ("0x10"),
  // leading spaces and "infinity", which a flag, a link or a CSV field must refuse, not read as something else.
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return false;
  }
  char buf[72];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  char* end = nullptr;
  const double x = std::strtod(buf, &end);
  if (end != buf + s.size() || !std::isfinite(x)) return false;
  v = x;
  return true;
}

std::string num_exact(double v) {
  char buf[40];
  for (int prec = 15; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

namespace {
struct Scale {
  double factor;
  const char* prefix;
};

std::string scaled(double v, const Scale* scales, int count, const char* unit) {
  const double a = std::fabs(v);
  const Scale* pick = &scales[count - 1];
  for (int i = 0; i < count; ++i) {
    if (a >= scales[i].factor) {
      pick = &scales[i];
      break;
    }
  }
  std::string out;
  if (!fast_g(v / pick->factor, 4, out)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v / pick->factor);
    out = buf;
  }
  out += ' ';
  out += pick->prefix;
  out += unit;
  return out;
}

// The scales human() writes, by unit; shown_scale() reads the same tables back.
constexpr Scale kSi[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
constexpr Scale kTime[] = {{1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}, {1e-12, "p"}};
constexpr Scale kCount[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
struct ScaledUnit {
  std::string_view unit;
  const Scale* scales;
  int count;
  const char* suffix;  // what follows the prefix
};
constexpr ScaledUnit kScaled[] = {{"B", kSi, 6, "B"},       {"B/token", kSi, 6, "B/token"}, {"B/s", kSi, 6, "B/s"}, {"s", kTime, 5, "s"},
                                  {"FLOP", kSi, 6, "FLOP"}, {"FLOP/s", kSi, 6, "FLOP/s"},   {"params", kCount, 5, " params"}};
const ScaledUnit* scaled_unit(std::string_view unit) {
  for (const ScaledUnit& u : kScaled) {
    if (u.unit == unit) return &u;
  }
  return nullptr;
}
}  // namespace

double shown_scale(std::string_view unit, std::string_view rest) {
  const ScaledUnit* u = scaled_unit(unit);
  if (!u) return 1.0;
  for (int i = 0; i < u->count; ++i) {
    const std::string_view prefix = u->scales[i].prefix;
    if (!prefix.empty() && rest.starts_with(prefix)) return u->scales[i].factor;
  }
  return 1.0;
}

std::string human(double value, std::string_view unit) {
  if (!std::isfinite(value)) return num(value);
  if (value == 0) return unit == "fraction" ? "0 %" : unit == "ratio" ? "0×" : "0 " + std::string(unit);
  if (unit == "ratio") return num_sig(value, 4) + "×";
  if (const ScaledUnit* u = scaled_unit(unit)) return scaled(value, u->scales, u->count, u->suffix);
  if (unit == "fraction") return num_sig(value * 100.0, 4) + " %";
  if (unit == "USD") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "$%.6g", value);
    return buf;
  }
  std::string s = num(value);
  if (!unit.empty()) {
    s += ' ';
    // Counted things take the singular for exactly one ("1 session", "1 expert").
    static const char* const kPlural[][2] = {{"sessions", "session"}, {"experts", "expert"}, {"tokens", "token"},
                                            {"copies", "copy"},       {"ranks", "rank"},     {"assignments", "assignment"},
                                            {"GPUs", "GPU"},          {"layers", "layer"},   {"replicas", "replica"}};
    const char* u = nullptr;
    if (value == 1) {
      for (const auto& pl : kPlural) {
        if (unit == pl[0]) u = pl[1];
      }
    }
    if (u) s += u;
    else s += unit;
  }
  return s;
}

std::string count_of(double n, std::string_view singular, std::string_view plural) {
  std::string s = num(n);
  s += ' ';
  s += n == 1 ? singular : plural;
  return s;
}

std::string display_value(double value, std::string_view unit) {
  if (!std::isfinite(value)) return human(value, unit);
  if (unit == "sessions") return count_of(std::floor(std::max(0.0, value)), "session", "sessions");
  if (unit == "experts") return count_of(value, "expert", "experts");
  return human(value, unit);
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || c == '<' || c == '>' || c == '&') appendf(out, "\\u%04x", u);
        else out += c;
    }
  }
  out += '"';
}

void append_csv_field(std::string& out, std::string_view s) {
  bool quote = false;
  for (const char c : s) quote = quote || c == ',' || c == '"' || c == '\n' || c == '\r';
  if (!quote) {
    out += s;
    return;
  }
  out += '"';
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string csv_field(std::string_view s) {
  std::string out;
  append_csv_field(out, s);
  return out;
}

void append_json_number(std::string& out, double v) {
  if (!std::isfinite(v)) out += "null";
  else if (v == 0) out += '0';
  else out += num_exact(v);
}

}  // namespace tierscope::model
