// A small strict JSON reader for the model's inputs (scenario files, config.json, chart options): RFC 8259
// text, UTF-8 checked, numbers kept as integers when they are written as integers; a NUL byte after the
// value ends the text. On request it also reads the NaN, Infinity and -Infinity literals Python's JSON
// writer leaves in published config.json files (never in a scenario file). Objects keep one value per key (the last, as read) and are walked in key order; the
// keys written more than once are reported. Values live in their Document, which reads any depth without
// recursion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tierscope::model::json {

enum class Kind : std::uint8_t { Null, Bool, Int, Uint, Float, String, Array, Object };

class Value;
struct Builder;

// Walks an array's elements or an object's members (in key order); key() is for objects only.
class Iter {
 public:
  Iter(const Value* owner, std::size_t i) : owner_(owner), i_(i) {}
  const Value& operator*() const;
  const Value* operator->() const { return &**this; }
  const Value& value() const { return **this; }
  const std::string& key() const;
  Iter& operator++() {
    ++i_;
    return *this;
  }
  bool operator==(const Iter& o) const { return owner_ == o.owner_ && i_ == o.i_; }
  bool operator!=(const Iter& o) const { return !(*this == o); }

 private:
  const Value* owner_;
  std::size_t i_;
};

class Value {
 public:
  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_boolean() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Int || kind_ == Kind::Uint || kind_ == Kind::Float; }
  // Written without a fraction or an exponent, and within 64 bits (signed when negative).
  bool is_number_integer() const { return kind_ == Kind::Int || kind_ == Kind::Uint; }
  // A non-negative integer (any integer written without a minus sign).
  bool is_number_unsigned() const { return kind_ == Kind::Uint; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool boolean() const { return b_; }
  double number() const;  // any number as a double
  long long integer() const;  // any number converted (an unsigned one above 2^63 wraps)
  unsigned long long unsigned_integer() const;
  const std::string& text() const { return s_; }
  template <class T>
  T get() const {
    if constexpr (std::is_same_v<T, std::string>) return s_;
    else if constexpr (std::is_same_v<T, bool>) return b_;
    else if constexpr (std::is_same_v<T, double>) return number();
    else if constexpr (std::is_same_v<T, long long>) return integer();
    else return unsigned_integer();
  }

  // Elements of an array, members of an object (a scalar counts as one, null as none).
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  const Value& operator[](std::size_t i) const { return *items_[i]; }
  Iter begin() const { return Iter(this, 0); }
  Iter end() const { return Iter(this, items_.size()); }
  // The member named `key` of an object, or end().
  Iter find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key) != end(); }

  // Compact text with the keys in order. `ascii`: every character outside ASCII as a \u escape.
  std::string dump(bool ascii = false) const;

 private:
  friend class Document;
  friend class Iter;
  friend struct Builder;
  Kind kind_ = Kind::Null;
  bool b_ = false;
  long long i_ = 0;
  unsigned long long u_ = 0;
  double d_ = 0;
  std::string s_;
  std::vector<const Value*> items_;  // elements, or member values in key order
  std::vector<std::string> keys_;    // member keys, sorted, each once
};

class Document {
 public:
  // Reads `text` (a leading UTF-8 byte order mark is skipped). False, with root() null, when it is not
  // JSON. `duplicates` (optional) receives each repeated key once for every earlier use of it in the
  // same object, in the order they are read. `python_literals`: NaN, Infinity and -Infinity are read as the
  // non-finite numbers Python's json module writes them for (config.json files carry them); off, they are
  // not JSON and the text is refused.
  bool parse(std::string_view text, std::vector<std::string>* duplicates = nullptr, bool python_literals = false);
  const Value& root() const { return nodes_.empty() ? null_ : nodes_.front(); }

 private:
  std::deque<Value> nodes_;  // stable addresses: values point at their children
  Value null_;
};

// The number as a JSON writer that keeps the shortest round-trip digits prints it: 1.0, 0.25, 1e+100.
std::string float_text(double v);

}  // namespace tierscope::model::json
