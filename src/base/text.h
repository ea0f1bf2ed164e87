// Small snprintf-based text helpers: numbers in formulas, values with human units, exact doubles; and text
// split at a separator.
#pragma once

#include <cstddef>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

namespace tierscope::model {

// The pieces of `text` between the `sep`s, in order, found as they are walked (nothing is allocated):
// `for (std::string_view piece : split(text, ','))`. Empty text has none and a separator at the end starts
// no piece; an empty piece between two separators is kept ("a,,b" is "a", "", "b").
class Split {
 public:
  class iterator {
   public:
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    iterator() = default;
    iterator(std::string_view text, char sep, std::size_t at) : text_(text), sep_(sep), at_(at) { find_end(); }
    std::string_view operator*() const { return text_.substr(at_, end_ - at_); }
    iterator& operator++() {
      at_ = end_ + 1;
      find_end();
      return *this;
    }
    iterator operator++(int) {
      iterator was = *this;
      ++*this;
      return was;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    void find_end() {
      if (at_ >= text_.size()) {
        at_ = end_ = std::string_view::npos;  // walked past the last piece
        return;
      }
      end_ = text_.find(sep_, at_);
      if (end_ == std::string_view::npos) end_ = text_.size();
    }
    std::string_view text_;
    char sep_ = ',';
    std::size_t at_ = std::string_view::npos, end_ = std::string_view::npos;
  };
  Split(std::string_view text, char sep) : text_(text), sep_(sep) {}
  iterator begin() const { return {text_, sep_, 0}; }
  iterator end() const { return {}; }

 private:
  std::string_view text_;
  char sep_;
};
inline Split split(std::string_view text, char sep) { return {text, sep}; }

// Names in a list a message offers: "prefill, decode, engram" (", " between them).
std::string join_names(std::span<const char* const> names);

// A number for a formula: integers with thousands separators ("2,703,360"), others with 4
// significant digits in plain notation (exponent form only for tiny or huge values).
std::string num(double v);
// Like num() but with `sig` significant digits.
std::string num_sig(double v, int sig);
// The shortest decimal that parses back to exactly v (for JSON/URL round trips).
std::string num_exact(double v);
// Reads a whole string as a finite number in plain decimal notation ("1024", "-0.5", "1e6"; at most 64
// characters): false for anything else (hex, spaces, "inf", "nan"), with `v` untouched.
bool read_number(std::string_view s, double& v);
// A value with a scaled unit: bytes → "12.48 GB", seconds → "0.195 ms", FLOP → "4.19 TFLOP".
// Units understood: "B", "B/token", "s", "FLOP", "params", "B/s", "USD", "fraction"; others print plainly.
std::string human(double value, std::string_view unit);
// The factor of the prefix human() wrote before `unit` at the start of `rest` ("ms" for "s": 1e-3; "GB" for
// "B": 1e9; "B params" for "params": 1e9); 1 where there is none or the unit is not scaled.
double shown_scale(std::string_view unit, std::string_view rest);
// A value as the page, the canvas and the figures' "text" say it: human() with each unit once, sessions
// whole (a floor: a fraction of a session does not fit; formulas keep the exact quotient) and counts of
// experts singular for exactly one.
std::string display_value(double value, std::string_view unit);
// "1 layer", "3 layers", "1,024 tokens" (grouped digits).
std::string count_of(double n, std::string_view singular, std::string_view plural);
// Appends printf-style text to out.
void appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// Appends s as a JSON string literal. '<', '>' and '&' are escaped too, so the JSON is safe inside HTML.
void append_json_string(std::string& out, std::string_view s);
// Appends s as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
void append_csv_field(std::string& out, std::string_view s);
std::string csv_field(std::string_view s);
// Appends v as an exact JSON number (shortest round-trip decimal; -0 as 0; non-finite as null).
void append_json_number(std::string& out, double v);

}  // namespace tierscope::model
