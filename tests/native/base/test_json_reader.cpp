// The model's JSON reader against nlohmann::json (the library it replaced in the model, still used by the
// CLI): the same texts accepted, the same values, the same compact text with keys in order, and the same
// repeated keys reported. Error messages quote that text, so they stay as they were.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "json_reference.h"
#include "json_text.h"

namespace {

namespace json = tierscope::model::json;
using tierscope::test::same_json_text;

// The significant digits of a written number ("-0.00125" → "125", "1.5e+20" → "15").
std::string digits_of(const std::string& s) {
  std::string d;
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (c >= '0' && c <= '9' && !(d.empty() && c == '0')) d += c;
  }
  while (!d.empty() && d.back() == '0') d.pop_back();
  return d;
}

void same(const std::string& text) {
  INFO("text: " << text);
  const tierscope::test::JsonReference t = tierscope::test::json_reference(text);
  json::Document doc;
  std::vector<std::string> dups;
  const bool ok = doc.parse(text, &dups);
  REQUIRE(ok == t.ok);
  if (!ok) {
    CHECK(doc.root().is_null());
    return;
  }
  CHECK(same_json_text(doc.root().dump(true), t.ascii, false));
  CHECK(same_json_text(doc.root().dump(false), t.plain, false));
  CHECK(dups == t.duplicates);
}

}  // namespace

TEST_CASE("JSON reader: accepts and refuses what nlohmann does, and writes the same text") {
  const char* texts[] = {
      "", " ", "{}", "[]", "null", "true", "false", "nul", "tru", "0", "-0", "01", "-", "1.", ".5", "1e", "1e+", "1E-2", "-1.5e300",
      "1e400", "-1e400", "1e-400", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
      "-9223372036854775809", "9223372036854775807", "123456789012345678901234567890", "0.1", "1.0", "100", "1e2", "1e15",
      "1e16", "123456789012345.6", "0.0001", "0.00001", "1.5e-5", "5e-324", "1.7976931348623157e308", "2.5", "-0.0",
      "0.30000000000000004", "[1,2,3]", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{a:1}", "{\"a\":}",
      "[1 2]", "  [ 1 , { \"x\" : [ ] } ]  ", "[1]x", "\"abc\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u0041\\u00e9\\u4e2d\"",
      "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"", "\"\\u12\"", "\"\\x\"",
      "\"tab\there\"", "\"\x01\"", "\"\x7f\"", "\"caf\xc3\xa9\"", "\"\xc3\"", "\"\xc0\xaf\"", "\"\xe0\x80\xaf\"", "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"", "\"\xf0\x9f\x98\x80\"", "\"\xef\xbf\xbf\"", "\"\\u0000\"", "\xef\xbb\xbf{}", "\xef\xbb{}", "\xef{}",
      "{\"b\":1,\"a\":2}", "{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2,\"a\":3}", "{\"a\":{\"a\":1,\"b\":2},\"a\":[{\"c\":1,\"c\":2}]}",
      "[{\"k\":1},{\"k\":2}]", "{\"\":1,\"\":2}", "{\"\xc3\xa9\":1,\"e\":2,\"z\":3,\"Z\":4}", "[[[[[[[[[[]]]]]]]]]]",
      "{\"a\":null,\"b\":true,\"c\":false,\"d\":[null]}", "[1,\n2,\r3,\t4]", "[1,\f2]", "[1,\v2]", "\"\xe2\x80\xa8\"",
      "{\"x\":1}garbage", "[\"\\u00ff\", \"\\u0080\", \"\\u007f\", \"\\u001f\"]", "[-1,-0.5,1e-7,12345678.9,1e21,1e-5,1.25e+22]",
      "[4096.5, 0.1, 1e100, 6.02214076e23, 9007199254740993, 3.14159]", "Infinity", "NaN", "[true false]", "\"a\" \"b\"",
  };
  for (const char* t : texts) same(t);
  // Embedded NUL bytes outside and inside strings.
  same(std::string("[1,\0 2]", 7));
  same(std::string("\"a\0b\"", 5));
  same(std::string("[1]\0garbage", 12));
  same(std::string("12\0x", 4));
  same(std::string("\0", 1));
}

TEST_CASE("JSON reader: deep nesting reads and writes without recursion") {
  const int depth = 100000;
  std::string text(depth, '[');
  text += "1";
  text += std::string(depth, ']');
  json::Document doc;
  REQUIRE(doc.parse(text));
  CHECK(doc.root().dump() == text);
  std::string unbalanced(depth, '[');
  CHECK_FALSE(doc.parse(unbalanced));
}

TEST_CASE("JSON reader: typed reads and lookups") {
  json::Document doc;
  REQUIRE(doc.parse(R"({"i": -3, "u": 18446744073709551615, "f": 2.5, "s": "x", "a": [1, "2"], "o": {"k": true}, "n": null})"));
  const json::Value& j = doc.root();
  CHECK(j.find("i")->is_number_integer());
  CHECK_FALSE(j.find("i")->is_number_unsigned());
  CHECK(j.find("i")->get<long long>() == -3);
  CHECK(j.find("u")->is_number_unsigned());
  CHECK(j.find("u")->get<unsigned long long>() == 18446744073709551615ull);
  CHECK(j.find("f")->get<double>() == 2.5);
  CHECK_FALSE(j.find("f")->is_number_integer());
  CHECK(j.find("s")->get<std::string>() == "x");
  CHECK(j.find("a")->size() == 2);
  CHECK((*j.find("a"))[1].is_string());
  CHECK(j.find("o")->find("k")->get<bool>());
  CHECK(j.find("n")->is_null());
  CHECK(j.find("missing") == j.end());
  CHECK(j.contains("o"));
  std::string keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys += it.key();
  CHECK(keys == "afinosu");
}

TEST_CASE("JSON reader: numbers are written as nlohmann writes them, with the shortest digits") {
  std::mt19937_64 rng(20261130);
  std::uniform_int_distribution<int> digits(1, 15), exps(-30, 30);
  for (int i = 0; i < 20000; ++i) {
    // Up to 15 significant digits at any scale, and raw bit patterns.
    std::string lit = std::to_string(rng() % 1000000000000000ull);
    lit.resize(static_cast<std::size_t>(std::min<int>(digits(rng), static_cast<int>(lit.size()))));
    const double v = std::strtod((lit + "e" + std::to_string(exps(rng))).c_str(), nullptr);
    INFO(v);
    const std::string a = json::float_text(v), b = nlohmann::json(v).dump();
    CHECK(same_json_text(a, b, false));
    if (digits_of(a) == digits_of(b)) CHECK(a == b);  // same digits: the same notation too
    const std::uint64_t bits = rng();
    double w;
    std::memcpy(&w, &bits, sizeof w);
    if (!std::isfinite(w)) continue;
    INFO(w);
    const std::string mine = json::float_text(w), ref = nlohmann::json(w).dump();
    CHECK(same_json_text(mine, ref, false));
    CHECK(mine.size() <= ref.size());
    if (digits_of(mine) == digits_of(ref)) CHECK(mine == ref);
  }
}
