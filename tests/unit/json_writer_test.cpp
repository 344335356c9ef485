// util::JsonWriter: the text it writes parses back to the values written,
// with every character that JSON requires escaped.
#include <doctest/doctest.h>
#include <boost/json.hpp>

#include <string>

#include "util/json_writer.h"

namespace json = boost::json;
using service::util::JsonWriter;

TEST_CASE("json writer: strings round-trip through a JSON parser") {
  const std::string cases[] = {
      "",
      "plain ascii",
      "quote \" and backslash \\",
      "newline\nreturn\rtab\tbackspace\bformfeed\f",
      std::string("nul \0 and \x01\x1f controls", 21),  // 21 bytes, the NUL included
      "unicode: \xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9b",
      "</script><!-- -->",
  };
  for (const std::string& s : cases) {
    CAPTURE(s);
    std::string out;
    JsonWriter::AppendString(out, s);
    json::value v = json::parse(out);
    REQUIRE(v.is_string());
    CHECK(std::string(v.as_string()) == s);
    // Control characters never appear raw.
    for (char c : out) CHECK(static_cast<unsigned char>(c) >= 0x20);
  }
}

TEST_CASE("json writer: objects, arrays and scalars nest with commas in the right places") {
  JsonWriter w;
  w.BeginObject();
  w.Key("id").String("a");
  w.Key("n").Int(-42);
  w.Key("ok").Bool(true);
  w.Key("none").Null();
  w.Key("list").BeginArray().Int(1).String("two").BeginObject().Key("x").Bool(false).EndObject().EndArray();
  w.Key("raw").Raw("{\"k\":[1,2]}");
  w.Key("empty").BeginObject().EndObject();
  w.EndObject();
  json::value v = json::parse(w.str());
  const json::object& o = v.as_object();
  CHECK(o.at("id").as_string() == "a");
  CHECK(o.at("n").as_int64() == -42);
  CHECK(o.at("ok").as_bool());
  CHECK(o.at("none").is_null());
  const json::array& list = o.at("list").as_array();
  REQUIRE(list.size() == 3);
  CHECK(list[0].as_int64() == 1);
  CHECK(list[1].as_string() == "two");
  CHECK(list[2].as_object().at("x").as_bool() == false);
  CHECK(o.at("raw").as_object().at("k").as_array().size() == 2);
  CHECK(o.at("empty").as_object().empty());
  CHECK(o.size() == 7);
}
