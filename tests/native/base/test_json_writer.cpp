// The one JSON writer (base/json_writer.h): each layout's separators, line breaks and closes, empty
// containers, the escaping and exact numbers it shares with base/text.h, and values written elsewhere.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "base/json_writer.h"

namespace {

using tierscope::model::json_lines;
using tierscope::model::JsonWriter;
using tierscope::model::kJsonSpaced;

}  // namespace

TEST_CASE("json writer: compact members and nested items with no spaces") {
  JsonWriter w;
  w.object().str("a", "x").num("b", 1.5).array("c").integer(1).integer(-2).end().object("d").end().boolean("e", false);
  w.key("f").null().end();
  CHECK(w.take() == R"({"a":"x","b":1.5,"c":[1,-2],"d":{},"e":false,"f":null})");
}

TEST_CASE("json writer: spaced containers put a space after each comma and colon, not before the first item") {
  JsonWriter w;
  w.object(kJsonSpaced).str("object", "kv").array("layers").integer(0).integer(3).end();
  w.array("changes", kJsonSpaced).object(kJsonSpaced).num("bytes", 2).end().object(kJsonSpaced).num("bytes", 3).end().end().end();
  CHECK(w.take() == R"({"object": "kv", "layers": [0,3], "changes": [{"bytes": 2}, {"bytes": 3}]})");
}

TEST_CASE("json writer: line layouts indent items and close under the parent items and an empty one stays empty") {
  JsonWriter w;
  w.object(json_lines(2)).str("preset", "p").array("none", json_lines(4)).end().array("rows", json_lines(4));
  w.object(json_lines(6)).str("id", "a").boolean("ok", true).end();
  w.object(json_lines(6)).str("id", "b").end();
  w.end().end().newline();
  CHECK(w.take() ==
        "{\n  \"preset\": \"p\",\n  \"none\": [],\n  \"rows\": [\n    {\n      \"id\": \"a\",\n      \"ok\": true\n    },\n"
        "    {\n      \"id\": \"b\"\n    }\n  ]\n}\n");
}

TEST_CASE("json writer: a margin of 0 sets members flush left, their one-line items under them") {
  JsonWriter w;
  w.object(json_lines(0)).str("path", "decode").array("entries", json_lines(2));
  w.object(kJsonSpaced).integer("index", 0).end().object(kJsonSpaced).integer("index", 1).end();
  w.end().end();
  CHECK(w.take() == "{\n\"path\": \"decode\",\n\"entries\": [\n  {\"index\": 0},\n  {\"index\": 1}\n]\n}");
}

TEST_CASE("json writer: strings escaped safe inside HTML and numbers exact (non-finite as null and -0 as 0)") {
  JsonWriter w;
  w.array().str("a\"b\\c\n<script>&\t\x01").num(0.1).num(6.086151476825397e-06).num(551464468480.0);
  w.num(-0.0).num(std::numeric_limits<double>::infinity()).num(std::nan("")).end();
  CHECK(w.take() == R"(["a\"b\\c\n\u003cscript\u003e\u0026\t\u0001",0.1,6.086151476825397e-06,551464468480,0,null,null])");
}

TEST_CASE("json writer: printf-style numbers for pixel geometry, and values another writer wrote") {
  JsonWriter w;
  w.object().key("rect").array().fixed(12.26, 1).fixed(3, 1).end().key("scale").fixed(1.0, 3).key("cap").sig(1.5e12, 6);
  w.key("chart").raw(R"({"x":[1,2]})").key("big").integer(9007199254740993LL).end();
  CHECK(w.take() == R"({"rect":[12.3,3.0],"scale":1.000,"cap":1.5e+12,"chart":{"x":[1,2]},"big":9007199254740993})");
}
