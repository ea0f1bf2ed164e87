// The one JSON writer: a streaming writer every serialiser uses (figures, card, ledgers, charts, fleet, the
// page's state and catalog), with the escaping and the exact numbers of base/text.h. Each container takes its
// layout where it opens, so a pretty-printed download and a compact page answer come from the same code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tierscope::model {

// How one container sets out its items.
struct JsonLayout {
  signed char indent = -1;  // ≥ 0: each item on a new line, this many spaces in; the close under the parent's items
  bool spaced = false;      // ", " between items and ": " after a key on one line (new-line items always ": ")
};
inline constexpr JsonLayout kJsonCompact{};         // {"a":1,"b":[2,3]}
inline constexpr JsonLayout kJsonSpaced{-1, true};  // {"a": 1, "b": [2, 3]}
constexpr JsonLayout json_lines(int indent) { return JsonLayout{static_cast<signed char>(indent), true}; }

// Appends one JSON value to its text. A value written after key() is that member's; otherwise it is the
// next item of the array open (or the whole document). An empty container is `{}` / `[]` in every layout.
class JsonWriter {
 public:
  JsonWriter() = default;
  explicit JsonWriter(std::size_t reserve) { out_.reserve(reserve); }

  JsonWriter& object(JsonLayout layout = kJsonCompact) { return open('{', layout); }
  JsonWriter& array(JsonLayout layout = kJsonCompact) { return open('[', layout); }
  JsonWriter& end();  // closes the innermost open object or array
  JsonWriter& key(std::string_view k);

  JsonWriter& str(std::string_view v);  // escaped; '<', '>' and '&' too, so the text is safe inside HTML
  JsonWriter& num(double v);            // the shortest decimal that reads back to v; -0 as 0; non-finite as null
  JsonWriter& integer(long long v);
  JsonWriter& boolean(bool v);
  JsonWriter& null();
  JsonWriter& fixed(double v, int decimals);  // printf's %.Nf: pixel geometry the page compares as drawn
  JsonWriter& sig(double v, int digits);      // printf's %.Ng
  JsonWriter& raw(std::string_view json);     // a value another writer already wrote

  // Members in one call: key, then the value (out of line, and keys as C strings: one short call at each of
  // the many call sites keeps the WebAssembly small).
  JsonWriter& str(const char* k, std::string_view v);
  JsonWriter& num(const char* k, double v);
  JsonWriter& integer(const char* k, long long v);
  JsonWriter& boolean(const char* k, bool v);
  JsonWriter& object(const char* k, JsonLayout layout = kJsonCompact);
  JsonWriter& array(const char* k, JsonLayout layout = kJsonCompact);

  // A line break after the document (the downloads and the command line end their JSON with one).
  JsonWriter& newline() {
    out_ += '\n';
    return *this;
  }
  const std::string& text() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  static constexpr int kMaxDepth = 24;  // deeper containers share the last level's layout (none nests so deep)
  struct Level {
    JsonLayout layout;
    char close = 0;
    bool any = false;
  };
  JsonWriter& open(char bracket, JsonLayout layout);
  void item();  // what goes before a value or a key: the separator and line break of the container open
  std::string out_;
  Level levels_[kMaxDepth];
  int depth_ = 0;
  bool after_key_ = false;
};

}  // namespace tierscope::model
