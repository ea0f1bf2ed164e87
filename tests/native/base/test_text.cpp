// human() and shown_scale(): every prefix human() writes is one shown_scale() reads back, so a formula's
// printed numbers can be checked against its value (roofline/test_formulas.cpp relies on this); and split().
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "base/text.h"

using namespace tierscope::model;

namespace {
// The number and the rest of a human() text: "2.73 ms" → 2.73 and "ms".
double read_back(const std::string& text, const char* unit) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  std::string_view rest(end);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return x * shown_scale(unit, rest);
}
}  // namespace

TEST_CASE("text: every scaled unit human() writes reads back through shown_scale within its 4 digits") {
  const char* units[] = {"B", "B/token", "B/s", "s", "FLOP", "FLOP/s", "params"};
  const double values[] = {3.2e-12, 4.5e-10, 7.7e-7, 2.73e-3, 0.5, 1, 12, 999, 1024, 6.4e6, 3.35e9, 1.2e12, 9e15, 2.5e18};
  for (const char* unit : units) {
    for (const double v : values) {
      const std::string text = human(v, unit);
      INFO(unit << ": " << v << " written as " << text);
      CHECK(read_back(text, unit) == Approx(v).epsilon(5e-4));
    }
  }
  CHECK(shown_scale("tokens", "k tokens") == 1.0);  // unscaled units have no prefix
  CHECK(shown_scale("s", "s") == 1.0);
  CHECK(shown_scale("params", "B params") == 1e9);
}

TEST_CASE("text: split walks the pieces between separators — none for empty text, none after a last separator") {
  const auto pieces = [](std::string_view text, char sep) {
    std::vector<std::string> out;
    for (const std::string_view p : split(text, sep)) out.emplace_back(p);
    return out;
  };
  CHECK(pieces("a,b,c", ',') == std::vector<std::string>{"a", "b", "c"});
  CHECK(pieces("", ',').empty());
  CHECK(pieces("a,", ',') == std::vector<std::string>{"a"});
  CHECK(pieces("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
  CHECK(pieces(",a", ',') == std::vector<std::string>{"", "a"});
  CHECK(pieces(",", ',') == std::vector<std::string>{""});
  CHECK(pieces("key=v&x=1", '&') == std::vector<std::string>{"key=v", "x=1"});
  CHECK(pieces("one line", '\n') == std::vector<std::string>{"one line"});
}

TEST_CASE("display wording: units once, whole sessions, singular and plural") {
  CHECK(display_value(1, "sessions") == "1 session");
  CHECK(display_value(282.4, "sessions") == "282 sessions");
  CHECK(display_value(0.7, "sessions") == "0 sessions");
  CHECK(display_value(12345.9, "sessions") == "12,345 sessions");
  CHECK(display_value(1, "experts") == "1 expert");
  CHECK(display_value(6, "experts") == "6 experts");
  CHECK(display_value(890, "B/token") == "890 B/token");
  CHECK(count_of(1, "layer", "layers") == "1 layer");
  CHECK(count_of(80, "layer", "layers") == "80 layers");
}
