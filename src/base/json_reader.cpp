// The strict JSON reader: an explicit stack instead of recursion (any depth reads and writes without using
// the call stack), UTF-8 checked as it is read, numbers through the C library's own conversions.
//
// Sections: a Value's reads · [SECTION] reading (the Reader, an explicit stack; Document::parse) · [SECTION]
// writing (numbers, strings, Value::dump).
#include "base/json_reader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace tierscope::model::json {

const Value& Iter::operator*() const { return *owner_->items_[i_]; }
const std::string& Iter::key() const { return owner_->keys_[i_]; }

double Value::number() const {
  switch (kind_) {
    case Kind::Int: return static_cast<double>(i_);
    case Kind::Uint: return static_cast<double>(u_);
    case Kind::Float: return d_;
    default: return 0;
  }
}

long long Value::integer() const {
  switch (kind_) {
    case Kind::Int: return i_;
    case Kind::Uint: return static_cast<long long>(u_);
    case Kind::Float: return std::isfinite(d_) && std::fabs(d_) < 9.2e18 ? static_cast<long long>(d_) : 0;
    default: return 0;
  }
}

unsigned long long Value::unsigned_integer() const {
  switch (kind_) {
    case Kind::Int: return static_cast<unsigned long long>(i_);
    case Kind::Uint: return u_;
    case Kind::Float: return d_ >= 0 && d_ < 1.8e19 ? static_cast<unsigned long long>(d_) : 0;
    default: return 0;
  }
}

std::size_t Value::size() const {
  if (kind_ == Kind::Array || kind_ == Kind::Object) return items_.size();
  return kind_ == Kind::Null ? 0 : 1;
}

Iter Value::find(std::string_view key) const {
  if (kind_ != Kind::Object) return end();
  const auto at = std::lower_bound(keys_.begin(), keys_.end(), key, [](const std::string& a, std::string_view b) { return a < b; });
  if (at == keys_.end() || *at != key) return end();
  return Iter(this, static_cast<std::size_t>(at - keys_.begin()));
}

// [SECTION] reading

// Fills values in as they are read.
struct Builder {
  static void set_int(Value& v, long long x) { v.kind_ = Kind::Int, v.i_ = x; }
  static void set_uint(Value& v, unsigned long long x) { v.kind_ = Kind::Uint, v.u_ = x; }
  static void set_float(Value& v, double x) { v.kind_ = Kind::Float, v.d_ = x; }
  // Sorts an object's members by key; a key read twice keeps the value read last.
  static void close_object(Value& v, std::vector<std::pair<std::string, const Value*>>& members) {
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i + 1 < members.size() && members[i + 1].first == members[i].first) continue;
      v.keys_.push_back(std::move(members[i].first));
      v.items_.push_back(members[i].second);
    }
  }
};

namespace {

struct Reader {
  std::string_view t;
  std::size_t p = 0;

  bool at_end() const { return p >= t.size(); }
  unsigned char peek() const { return static_cast<unsigned char>(t[p]); }
  void skip_space() {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')) ++p;
  }
  bool eat(char c) {
    if (p < t.size() && t[p] == c) {
      ++p;
      return true;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (t.substr(p, word.size()) != word) return false;
    p += word.size();
    return true;
  }

  int hex4() {
    if (p + 4 > t.size()) return -1;
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = t[p++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return -1;
    }
    return v;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // A string after its opening quote: escapes decoded, raw bytes checked as well-formed UTF-8.
  bool string(std::string& out) {
    out.clear();
    for (;;) {
      if (at_end()) return false;
      const unsigned char c = peek();
      ++p;
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c == '\\') {
        if (at_end()) return false;
        const char e = t[p++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            int cp = hex4();
            if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;
            if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate needs its low half next
              if (!literal("\\u")) return false;
              const int lo = hex4();
              if (lo < 0xDC00 || lo > 0xDFFF) return false;
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(out, static_cast<unsigned>(cp));
            break;
          }
          default: return false;
        }
        continue;
      }
      if (c < 0x80) {
        out += static_cast<char>(c);
        continue;
      }
      // Continuation bytes the lead byte asks for, and the range of the first of them (no overlong forms,
      // no surrogates, nothing above U+10FFFF).
      int more = 0;
      unsigned char lo = 0x80, hi = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) more = 1;
      else if (c == 0xE0) more = 2, lo = 0xA0;
      else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) more = 2;
      else if (c == 0xED) more = 2, hi = 0x9F;
      else if (c == 0xF0) more = 3, lo = 0x90;
      else if (c >= 0xF1 && c <= 0xF3) more = 3;
      else if (c == 0xF4) more = 3, hi = 0x8F;
      else return false;
      out += static_cast<char>(c);
      for (int i = 0; i < more; ++i) {
        if (at_end()) return false;
        const unsigned char d = peek();
        if (d < (i == 0 ? lo : 0x80) || d > (i == 0 ? hi : 0xBF)) return false;
        out += static_cast<char>(d);
        ++p;
      }
    }
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? as the integer it spells when it has neither a fraction
  // nor an exponent and fits 64 bits, else as the nearest double (refused when that is not finite).
  bool number(Value& v) {
    const std::size_t start = p;
    const bool negative = eat('-');
    if (at_end()) return false;
    if (t[p] == '0') {
      ++p;
    } else if (t[p] >= '1' && t[p] <= '9') {
      while (p < t.size() && t[p] >= '0' && t[p] <= '9') ++p;
    } else {
      return false;
    }
    bool integral = true;
    if (eat('.')) {
      integral = false;
      if (at_end() || t[p] < '0' || t[p] > '9') return false;
      while (p < t.size() && t[p] >= '0' && t[p] <= '9') ++p;
    }
    if (p < t.size() && (t[p] == 'e' || t[p] == 'E')) {
      integral = false;
      ++p;
      if (!eat('+')) eat('-');
      if (at_end() || t[p] < '0' || t[p] > '9') return false;
      while (p < t.size() && t[p] >= '0' && t[p] <= '9') ++p;
    }
    const std::string token(t.substr(start, p - start));
    char* end = nullptr;
    if (integral) {
      errno = 0;
      if (negative) {
        const long long x = std::strtoll(token.c_str(), &end, 10);
        if (errno == 0) {
          Builder::set_int(v, x);
          return true;
        }
      } else {
        const unsigned long long x = std::strtoull(token.c_str(), &end, 10);
        if (errno == 0) {
          Builder::set_uint(v, x);
          return true;
        }
      }
    }
    const double d = std::strtod(token.c_str(), &end);
    if (!std::isfinite(d)) return false;
    Builder::set_float(v, d);
    return true;
  }
};

// One open array or object while reading.
struct Open {
  Value* v;
  std::vector<std::pair<std::string, const Value*>> members;  // an object's, as read
  std::string key;                                            // the key whose value is being read
};

}  // namespace

bool Document::parse(std::string_view text, std::vector<std::string>* duplicates, bool python_literals) {
  nodes_.clear();
  Reader r{text};
  if (!text.empty() && static_cast<unsigned char>(text[0]) == 0xEF) {
    if (!r.literal("\xEF\xBB\xBF")) return false;
  }
  std::vector<Open> open;
  auto fail = [this] {
    nodes_.clear();
    return false;
  };
  // Reads `"key" :` inside an object.
  auto key = [&r, &open, duplicates]() {
    r.skip_space();
    if (!r.eat('"')) return false;
    Open& o = open.back();
    if (!r.string(o.key)) return false;
    if (duplicates) {
      for (const auto& m : o.members)
        if (m.first == o.key) duplicates->push_back(o.key);
    }
    r.skip_space();
    return r.eat(':');
  };
  for (;;) {
    // A value starts here.
    r.skip_space();
    if (r.at_end()) return fail();
    Value& v = nodes_.emplace_back();
    const unsigned char c = r.peek();
    bool complete = true;
    if (c == '{' || c == '[') {
      ++r.p;
      v.kind_ = c == '{' ? Kind::Object : Kind::Array;
      open.push_back(Open{&v, {}, {}});
      r.skip_space();
      if (r.eat(c == '{' ? '}' : ']')) {
        open.pop_back();  // empty: complete as it is
      } else {
        if (c == '{' && !key()) return fail();
        complete = false;  // its first value comes next
      }
    } else if (c == '"') {
      ++r.p;
      v.kind_ = Kind::String;
      if (!r.string(v.s_)) return fail();
    } else if (python_literals && r.literal("NaN")) {
      Builder::set_float(v, std::nan(""));  // Python's spellings of the non-finite numbers (json.dump's allow_nan)
    } else if (python_literals && r.literal("Infinity")) {
      Builder::set_float(v, HUGE_VAL);
    } else if (python_literals && r.literal("-Infinity")) {
      Builder::set_float(v, -HUGE_VAL);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      if (!r.number(v)) return fail();
    } else if (r.literal("true")) {
      v.kind_ = Kind::Bool;
      v.b_ = true;
    } else if (r.literal("false")) {
      v.kind_ = Kind::Bool;
    } else if (r.literal("null")) {
      v.kind_ = Kind::Null;
    } else {
      return fail();
    }
    if (!complete) continue;
    // The value is complete: it joins its container, which may then close, and so on outwards.
    const Value* done = &v;
    for (;;) {
      if (open.empty()) {
        // A NUL byte ends the text, as it does for C strings (what follows it is not read).
        r.skip_space();
        return r.at_end() || r.peek() == 0 ? true : fail();
      }
      Open& o = open.back();
      if (o.v->kind_ == Kind::Array) o.v->items_.push_back(done);
      else o.members.emplace_back(std::move(o.key), done);
      r.skip_space();
      if (r.eat(',')) {
        if (o.v->kind_ == Kind::Object && !key()) return fail();
        break;  // the next value
      }
      if (!r.eat(o.v->kind_ == Kind::Object ? '}' : ']')) return fail();
      if (o.v->kind_ == Kind::Object) Builder::close_object(*o.v, o.members);
      done = o.v;
      open.pop_back();
    }
  }
}

// [SECTION] writing

std::string float_text(double v) {
  if (!std::isfinite(v)) return "null";
  std::string out;
  if (std::signbit(v)) {
    out += '-';
    v = -v;
  }
  if (v == 0) return out + "0.0";
  // The fewest significant digits that read back to v, as d.ddde±x.
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string digits;
  const char* s = buf;
  for (; *s && *s != 'e'; ++s)
    if (*s != '.') digits += *s;
  const int e10 = std::atoi(s + 1);
  const int k = static_cast<int>(digits.size());
  const int n = e10 + 1;  // where the decimal point goes, counted from the first digit
  if (k <= n && n <= 15) return out + digits + std::string(static_cast<std::size_t>(n - k), '0') + ".0";
  if (0 < n && n <= 15) return out + digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  if (-4 < n && n <= 0) return out + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  out += digits[0];
  if (k > 1) out += "." + digits.substr(1);
  const int x = n - 1;
  out += x < 0 ? "e-" : "e+";
  const int ax = x < 0 ? -x : x;
  if (ax < 10) out += '0';
  out += std::to_string(ax);
  return out;
}

namespace {

void put_string(std::string& out, const std::string& s, bool ascii) {
  static const char kHex[] = "0123456789abcdef";
  auto u_escape = [&out](unsigned cp) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 0xF];
  };
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    // The code point and its length (strings here were checked as UTF-8 when they were read).
    unsigned cp = c;
    std::size_t len = 1;
    if (c >= 0xF0) cp = c & 0x07, len = 4;
    else if (c >= 0xE0) cp = c & 0x0F, len = 3;
    else if (c >= 0xC0) cp = c & 0x1F, len = 2;
    for (std::size_t j = 1; j < len && i + j < s.size(); ++j) cp = (cp << 6) | (static_cast<unsigned char>(s[i + j]) & 0x3F);
    switch (cp) {
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (cp <= 0x1F || (ascii && cp >= 0x7F)) {
          if (cp <= 0xFFFF) {
            u_escape(cp);
          } else {
            u_escape(0xD800 + ((cp - 0x10000) >> 10));
            u_escape(0xDC00 + ((cp - 0x10000) & 0x3FF));
          }
        } else {
          out.append(s, i, len);
        }
    }
    i += len;
  }
  out += '"';
}

}  // namespace

std::string Value::dump(bool ascii) const {
  std::string out;
  // A stack of (container, next child) in place of recursion.
  std::vector<std::pair<const Value*, std::size_t>> stack;
  const Value* v = this;
  for (;;) {
    switch (v->kind_) {
      case Kind::Null: out += "null"; break;
      case Kind::Bool: out += v->b_ ? "true" : "false"; break;
      case Kind::Int: out += std::to_string(v->i_); break;
      case Kind::Uint: out += std::to_string(v->u_); break;
      // A non-finite number was read as Python writes it (parse's python_literals): shown the same way.
      case Kind::Float: out += std::isfinite(v->d_) ? float_text(v->d_) : std::isnan(v->d_) ? "NaN" : v->d_ > 0 ? "Infinity" : "-Infinity"; break;
      case Kind::String: put_string(out, v->s_, ascii); break;
      case Kind::Array:
      case Kind::Object:
        out += v->kind_ == Kind::Array ? '[' : '{';
        stack.emplace_back(v, 0);
        break;
    }
    v = nullptr;
    while (!stack.empty()) {
      auto& [c, next] = stack.back();
      if (next == c->items_.size()) {
        out += c->kind_ == Kind::Array ? ']' : '}';
        stack.pop_back();
        continue;
      }
      if (next > 0) out += ',';
      if (c->kind_ == Kind::Object) {
        put_string(out, c->keys_[next], ascii);
        out += ':';
      }
      v = c->items_[next++];
      break;
    }
    if (!v) return out;
  }
}

}  // namespace tierscope::model::json
