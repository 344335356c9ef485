// The Source Map v3 decoder and the frame resolver
// (areas/sourcemaps/domain/): table-driven cases for Base64 VLQ, segments
// of 1, 4 and 5 fields, names, sourceRoot, index maps, sourcesContent
// context lines, out-of-range positions and malformed maps; a real esbuild
// map (tests/unit/data/sourcemaps, answers from Mozilla's source-map
// library); the frame resolver, debug ids and URL matching.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "areas/sourcemaps/domain/resolve.h"
#include "areas/sourcemaps/domain/source_map.h"

namespace service::domain::sourcemaps {
namespace {

namespace json = boost::json;

std::string EncodeVlq(int64_t v) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint64_t x = v < 0 ? (static_cast<uint64_t>(-v) << 1) | 1 : static_cast<uint64_t>(v) << 1;
  std::string out;
  do {
    unsigned d = x & 31;
    x >>= 5;
    if (x != 0) d |= 32;
    out += kDigits[d];
  } while (x != 0);
  return out;
}

// A regular map's JSON.
std::string MapJson(std::string_view mappings, std::vector<std::string> sources = {"a.js"},
                    std::vector<std::string> names = {}, json::object extra = {}) {
  json::object o = std::move(extra);
  o["version"] = 3;
  json::array s, n;
  for (auto& x : sources) s.emplace_back(x);
  for (auto& x : names) n.emplace_back(x);
  o["sources"] = std::move(s);
  o["names"] = std::move(n);
  o["mappings"] = mappings;
  return json::serialize(o);
}

std::shared_ptr<const SourceMap> MustParse(const std::string& text) {
  std::string reason, detail;
  auto map = SourceMap::Parse(text, &reason, &detail);
  INFO(reason << ": " << detail);
  REQUIRE(map != nullptr);
  return map;
}

std::string ParseReason(const std::string& text, const Limits& limits = {}) {
  std::string reason, detail;
  auto map = SourceMap::Parse(text, &reason, &detail, limits);
  if (map != nullptr) return "ok";
  CHECK(!detail.empty());
  return reason;
}

// "src:line:col[:name]" (0-based), or the reason.
std::string At(const SourceMap& map, uint32_t line, uint32_t col) {
  const Lookup l = map.Find(line, col);
  if (!l.reason.empty()) return std::string(l.reason);
  std::string out = map.source(l.segment.source) + ":" + std::to_string(l.segment.original_line) + ":" +
                    std::to_string(l.segment.original_column);
  if (l.segment.name != kNone) out += ":" + map.name(l.segment.name);
  return out;
}

std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(SERVICE_SOURCE_DIR) + "/tests/unit/data/sourcemaps/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_CASE("source maps: Base64 VLQ decodes single values, negatives, continuations and refuses overflow") {
  struct Case {
    const char* in;
    bool ok;
    int64_t value;
    size_t end;
  };
  const Case cases[] = {
      {"A", true, 0, 1},
      {"C", true, 1, 1},
      {"D", true, -1, 1},
      {"E", true, 2, 1},
      {"F", true, -2, 1},
      {"e", true, 15, 1},
      {"f", true, -15, 1},
      {"gB", true, 16, 2},
      {"hB", true, -16, 2},
      {"2H", true, 123, 2},
      {"CA", true, 1, 1},                 // stops after one value
      {"B", true, 0, 1},                  // "-0"
      {"+/////D", true, 2147483647, 7},   // INT32_MAX
      {"//////D", true, -2147483647, 7},  // -INT32_MAX
      {"gggggggB", false, 0, 0},          // an 8th digit
      {"+/////H", false, 0, 0},           // beyond 32 bits
      {"g", false, 0, 0},                 // ends inside a value
      {"", false, 0, 0},                  // nothing
      {"!", false, 0, 0},                 // not Base64
      {"g=", false, 0, 0},                // padding is not a digit
      {"\xff", false, 0, 0},              // a high byte
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    size_t pos = 0;
    int64_t v = 99;
    REQUIRE(DecodeVlq(c.in, &pos, &v) == c.ok);
    if (c.ok) {
      CHECK(v == c.value);
      CHECK(pos == c.end);
    } else {
      CHECK(pos == 0);
    }
  }
  // The encoder the tests use round-trips through the decoder.
  for (int64_t v : {0LL, 1LL, -1LL, 31LL, 32LL, -33LL, 1000LL, -65536LL, 2147483647LL, -2147483647LL}) {
    const std::string s = EncodeVlq(v);
    size_t pos = 0;
    int64_t back = 0;
    REQUIRE(DecodeVlq(s, &pos, &back));
    CHECK(back == v);
    CHECK(pos == s.size());
  }
}

TEST_CASE("source maps: mappings of 1, 4 and 5 fields, relative values, lines and names") {
  struct Case {
    const char* name;
    std::string mappings;
    std::vector<std::string> sources;
    std::vector<std::string> names;
    std::vector<std::tuple<uint32_t, uint32_t, std::string>> lookups;  // 0-based line, column -> answer
  };
  const Case cases[] = {
      {"one 4-field segment",
       "AAAA",
       {"a.js"},
       {},
       {{0, 0, "a.js:0:0"}, {0, 500, "a.js:0:0"}, {1, 0, "line_out_of_range"}}},
      {"relative columns and original positions on one line",
       "AAAA,KAAK,EAAE",  // col 0 -> 0:0; col 5 -> 0:5; col 7 -> 0:7
       {"a.js"},
       {},
       {{0, 0, "a.js:0:0"}, {0, 4, "a.js:0:0"}, {0, 5, "a.js:0:5"}, {0, 6, "a.js:0:5"}, {0, 7, "a.js:0:7"}}},
      {"a 5-field segment names its token, the name index is relative too",
       "AAAAA,EAAE,CAACC",  // names[0] at col 0; col 2 without name; col 3 -> names[1]
       {"a.js"},
       {"foo", "bar"},
       {{0, 0, "a.js:0:0:foo"}, {0, 2, "a.js:0:2"}, {0, 3, "a.js:0:3:bar"}}},
      {"a 1-field segment ends a mapped range",
       "AAAA,K",
       {"a.js"},
       {},
       {{0, 4, "a.js:0:0"}, {0, 5, "no_mapping"}, {0, 90, "no_mapping"}}},
      {"a column before the first segment, an empty line",
       "KAAA;;AAAA",
       {"a.js"},
       {},
       {{0, 4, "no_mapping"},
        {0, 5, "a.js:0:0"},
        {1, 0, "no_mapping"},
        {2, 0, "a.js:0:0"},
        {3, 0, "line_out_of_range"}}},
      {"the generated column resets on each line, the others carry over",
       "AAAA,IAAI;AACA,EAAE",  // line 1: col 0 -> 1:4, col 2 -> 1:6
       {"a.js"},
       {},
       {{0, 4, "a.js:0:4"}, {1, 0, "a.js:1:4"}, {1, 2, "a.js:1:6"}}},
      {"two sources, switching back and forth",
       "AAAA,ECAE,EDAE",
       {"a.js", "b.js"},
       {},
       {{0, 0, "a.js:0:0"}, {0, 2, "b.js:0:2"}, {0, 4, "a.js:0:4"}}},
      {"segments out of order on a line are sorted",
       "KAAK,LAAL",  // column 5 first, then column 0
       {"a.js"},
       {},
       {{0, 0, "a.js:0:0"}, {0, 5, "a.js:0:5"}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto map = MustParse(MapJson(c.mappings, c.sources, c.names));
    for (const auto& q : c.lookups) {
      const uint32_t line = std::get<0>(q), col = std::get<1>(q);
      CAPTURE(line);
      CAPTURE(col);
      CHECK(At(*map, line, col) == std::get<2>(q));
    }
  }
  // Negative deltas built with the encoder: original line 18, then 17, then 3.
  const std::string m = EncodeVlq(0) + "A" + EncodeVlq(18) + "A," + EncodeVlq(4) + "A" + EncodeVlq(-1) +
                        "C," + EncodeVlq(4) + "A" + EncodeVlq(-14) + "D";
  auto map = MustParse(MapJson(m));
  CHECK(At(*map, 0, 0) == "a.js:18:0");
  CHECK(At(*map, 0, 4) == "a.js:17:1");
  CHECK(At(*map, 0, 8) == "a.js:3:0");
}

TEST_CASE("source maps: sources joined with sourceRoot, null sources and names, the file") {
  json::object extra;
  extra["sourceRoot"] = "webpack:///src";
  extra["file"] = "app.min.js";
  auto map =
      MustParse(MapJson("AAAA,ECAA,ECAA", {"a.js", "/abs/b.js", "https://cdn.example.com/c.js"}, {}, extra));
  CHECK(map->file() == "app.min.js");
  CHECK(At(*map, 0, 0) == "webpack:///src/a.js:0:0");
  CHECK(At(*map, 0, 2) == "/abs/b.js:0:0");
  CHECK(At(*map, 0, 4) == "https://cdn.example.com/c.js:0:0");

  extra["sourceRoot"] = "/root/";
  CHECK(At(*MustParse(MapJson("AAAA", {"x/a.js"}, {}, extra)), 0, 0) == "/root/x/a.js:0:0");

  auto with_null = MustParse(R"({"version":3,"sources":[null,"b.js"],"names":[],"mappings":"AAAA,ECAA"})");
  CHECK(At(*with_null, 0, 0) == ":0:0");
  CHECK(At(*with_null, 0, 2) == "b.js:0:0");
  // names may be absent.
  CHECK(At(*MustParse(R"({"version":3,"sources":["a.js"],"mappings":"AAAA"})"), 0, 0) == "a.js:0:0");
}

TEST_CASE("source maps: sourcesContent gives numbered lines, CRLF and a missing entry") {
  auto map = MustParse(
      R"({"version":3,"sources":["a.js","b.js","c.js"],"sourcesContent":["l0\nl1\r\nl2\n",null],"names":[],)"
      R"("mappings":"AAAA"})");
  CHECK(map->has_content(0));
  CHECK_FALSE(map->has_content(1));
  CHECK_FALSE(map->has_content(2));
  CHECK(map->content_line_count(0) == 4);  // a final empty line after the last "\n"
  CHECK(*map->content_line(0, 0) == "l0");
  CHECK(*map->content_line(0, 1) == "l1");
  CHECK(*map->content_line(0, 2) == "l2");
  CHECK(*map->content_line(0, 3) == "");
  CHECK_FALSE(map->content_line(0, 4).has_value());
  CHECK_FALSE(map->content_line(1, 0).has_value());
}

TEST_CASE("source maps: index maps place each section at its offset and cut it at the next") {
  // Section 1 at 0:0 maps a.js; section 2 at 0:10 maps b.js with its first
  // line shifted by 10 columns; section 3 at 2:0 maps c.js.
  const std::string text = R"({"version":3,"file":"bundle.js","sections":[
    {"offset":{"line":0,"column":0},"map":{"version":3,"sources":["a.js"],"names":["fa"],"mappings":"AAAAA,oBAAE;AACA"}},
    {"offset":{"line":0,"column":10},"map":{"version":3,"sources":["b.js"],"names":["fb"],"sourcesContent":["B0\nB1"],"mappings":"AAAAA;EACA"}},
    {"offset":{"line":2,"column":0},"map":{"version":3,"sourceRoot":"lib","sources":["c.js"],"names":[],"mappings":"IAAI"}}
  ]})";
  auto map = MustParse(text);
  CHECK(map->file() == "bundle.js");
  CHECK(At(*map, 0, 0) == "a.js:0:0:fa");
  CHECK(At(*map, 0, 9) == "a.js:0:0:fa");   // a.js's segment at col 20 is cut (past 0:10)
  CHECK(At(*map, 0, 10) == "b.js:0:0:fb");  // section 2's column 0 is generated column 10
  CHECK(At(*map, 0, 99) == "b.js:0:0:fb");
  CHECK(At(*map, 1, 1) == "no_mapping");  // b.js's second line starts at column 2 (no column offset)
  CHECK(At(*map, 1, 2) == "b.js:1:0");    // a.js's second line was cut: section 2 covers it
  CHECK(At(*map, 2, 3) == "no_mapping");
  CHECK(At(*map, 2, 4) == "lib/c.js:0:4");
  CHECK(At(*map, 3, 0) == "line_out_of_range");
  // Indices are per section: b.js's content is found through its own index.
  const Lookup l = map->Find(0, 10);
  REQUIRE(l.reason.empty());
  CHECK(map->has_content(l.segment.source));
  CHECK(*map->content_line(l.segment.source, 1) == "B1");

  // Nested index maps add their offsets.
  auto nested = MustParse(R"({"version":3,"sections":[{"offset":{"line":1,"column":0},"map":
    {"version":3,"sections":[{"offset":{"line":1,"column":4},"map":{"version":3,"sources":["n.js"],"mappings":"AAAA"}}]}}]})");
  CHECK(At(*nested, 2, 3) == "no_mapping");
  CHECK(At(*nested, 2, 4) == "n.js:0:0");
}

TEST_CASE("source maps: malformed, unsupported and oversized maps are refused with a reason") {
  struct Case {
    const char* name;
    std::string text;
    std::string reason;
  };
  const Case cases[] = {
      {"not JSON", "{", "map_malformed"},
      {"not an object", "[]", "map_malformed"},
      {"no version", R"({"sources":[],"mappings":""})", "map_malformed"},
      {"version 2", R"({"version":2,"sources":[],"mappings":""})", "map_unsupported"},
      {"no mappings", R"({"version":3,"sources":[]})", "map_malformed"},
      {"mappings not a string", R"({"version":3,"sources":[],"mappings":1})", "map_malformed"},
      {"no sources", R"({"version":3,"mappings":""})", "map_malformed"},
      {"a source not a string", R"({"version":3,"sources":[1],"mappings":""})", "map_malformed"},
      {"a name not a string", R"({"version":3,"sources":["a"],"names":[1],"mappings":""})", "map_malformed"},
      {"a 2-field segment", MapJson("AA"), "map_malformed"},
      {"a 3-field segment", MapJson("AAA"), "map_malformed"},
      {"a 6-field segment", MapJson("AAAAAA"), "map_malformed"},
      {"an invalid Base64 digit", MapJson("AA*A"), "map_malformed"},
      {"a VLQ cut by a comma", MapJson("AAAg,AAAA"), "map_malformed"},
      {"a VLQ overflow", MapJson("AAAgggggggB"), "map_malformed"},
      {"a source index out of range", MapJson("ACAA"), "map_malformed"},
      {"a negative source index", MapJson("ADAA"), "map_malformed"},
      {"a name index out of range", MapJson("AAAAC", {"a.js"}, {"n"}), "map_malformed"},
      {"a name index without names", MapJson("AAAAA"), "map_malformed"},
      {"a negative generated column", MapJson("D"), "map_malformed"},
      {"a negative original line", MapJson("AADA"), "map_malformed"},
      {"a negative original column", MapJson("AAAD"), "map_malformed"},
      {"sections not an array", R"({"version":3,"sections":{}})", "map_malformed"},
      {"a section without offset", R"({"version":3,"sections":[{"map":{}}]})", "map_malformed"},
      {"a negative offset", R"({"version":3,"sections":[{"offset":{"line":-1,"column":0},"map":{}}]})",
       "map_malformed"},
      {"sections out of order",
       R"({"version":3,"sections":[{"offset":{"line":1,"column":0},"map":{"version":3,"sources":[],"mappings":""}},)"
       R"({"offset":{"line":0,"column":0},"map":{"version":3,"sources":[],"mappings":""}}]})",
       "map_malformed"},
      {"a url section", R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.map"}]})",
       "map_unsupported"},
      {"an index map with mappings", R"({"version":3,"sections":[],"mappings":""})", "map_malformed"},
      {"a section's map malformed",
       R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":[],"mappings":"AAAA"}}]})",
       "map_malformed"},
      {"index maps nested too deep",
       R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":)"
       R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sections":[]}}]}}]}}]})",
       "map_unsupported"},
      {"an offset beyond the line limit",
       R"({"version":3,"sections":[{"offset":{"line":2147483647,"column":0},"map":{"version":3,"sources":[],"mappings":""}}]})",
       "map_too_large"},
      {"an empty map is fine", R"({"version":3,"sources":[],"mappings":""})", "ok"},
      {"the XSSI guard is skipped", ")]}'\n" + MapJson("AAAA"), "ok"},
      {"empty segments between commas are skipped", MapJson("AAAA,,EAAE"), "ok"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(ParseReason(c.text) == c.reason);
  }
}

TEST_CASE("source maps: the limits refuse a map before it grows") {
  Limits small;
  small.max_bytes = 100;
  CHECK(ParseReason(MapJson(std::string(200, ';')), small) == "map_too_large");
  small = {};
  small.max_segments = 3;
  CHECK(ParseReason(MapJson("AAAA,CAAC,CAAC"), small) == "ok");
  CHECK(ParseReason(MapJson("AAAA,CAAC,CAAC,CAAC"), small) == "map_too_large");
  small = {};
  small.max_lines = 3;
  CHECK(ParseReason(MapJson("AAAA;;"), small) == "ok");
  CHECK(ParseReason(MapJson("AAAA;;;"), small) == "map_too_large");
  small = {};
  small.max_sources = 1;
  CHECK(ParseReason(MapJson("AAAA", {"a", "b"}), small) == "map_too_large");
  small = {};
  small.max_names = 1;
  CHECK(ParseReason(MapJson("AAAA", {"a"}, {"x", "y"}), small) == "map_too_large");
  small = {};
  small.max_sections = 1;
  CHECK(
      ParseReason(
          R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":[],"mappings":""}},)"
          R"({"offset":{"line":1,"column":0},"map":{"version":3,"sources":[],"mappings":""}}]})",
          small) == "map_too_large");
}

TEST_CASE("source maps: a real esbuild map gives Mozilla's answers and the functions") {
  auto map = MustParse(ReadFixture("app.min.js.map"));
  CHECK(map->line_count() == 1);
  // Mozilla source-map 0.7.4's originalPositionFor (1-based lines there).
  CHECK(At(*map, 0, 57) == "../src/cart.js:5:12");
  CHECK(At(*map, 0, 152) == "../src/main.js:3:16:computeTotal");
  CHECK(At(*map, 0, 183) == "../src/main.js:8:2:checkout");
  CHECK(At(*map, 0, 0) == "../src/cart.js:1:7");
  CHECK(At(*map, 0, 299) == "../src/main.js:11:0");
  CHECK(At(*map, 0, 9999) == "../src/main.js:11:0");
  CHECK(At(*map, 1, 0) == "line_out_of_range");
  CHECK(SourceMappingUrl(ReadFixture("app.min.js")) == "app.min.js.map");

  // Node's stack for the bundle, outermost first as Sentry sends it.
  std::vector<Frame> frames(3);
  frames[0] = {"/tmp/esb/dist/app.min.js", "", 1, 184, "Object.<anonymous>"};
  frames[1] = {"/tmp/esb/dist/app.min.js", "", 1, 153, "c"};
  frames[2] = {"/tmp/esb/dist/app.min.js", "", 1, 58, "r"};
  const auto out = ResolveStack(frames, [&](const Frame&) { return MapFor{map.get(), ""}; });
  REQUIRE(out.size() == 3);
  for (const auto& r : out) CHECK(r.resolved);
  CHECK(out[2].source == "../src/cart.js");
  CHECK(out[2].lineno == 6);
  CHECK(out[2].colno == 13);
  CHECK(out[2].function == "computeTotal");  // the caller's token
  CHECK(out[2].context_line == "      throw new Error(\"negative price: \" + item.name);");
  REQUIRE(out[2].pre_context.size() == 5);
  CHECK(out[2].pre_context.front() == "// A shopping cart with a bug.");
  CHECK(out[2].pre_context.back() == "    if (item.price < 0) {");
  REQUIRE(out[2].post_context.size() == 5);
  CHECK(out[2].post_context.front() == "    }");
  CHECK(out[1].source == "../src/main.js");
  CHECK(out[1].lineno == 4);
  CHECK(out[1].function == "checkout");
  CHECK(out[1].token_name == "computeTotal");
  CHECK(out[0].lineno == 9);
  CHECK(out[0].function == "Object.<anonymous>");  // top-level code: the frame's own

  // Without the caller rule, the enclosing declaration in sourcesContent.
  const ResolvedFrame alone = ResolveFrame(frames[2], *map);
  CHECK(alone.function == "computeTotal");
  CHECK(ResolveFrame(frames[1], *map).function == "checkout");

  const json::object stored = ToJson(out[2]);
  CHECK(stored.at("source") == "../src/cart.js");
  CHECK(stored.at("lineno") == 6);
  CHECK(stored.at("colno") == 13);
  CHECK(stored.at("function") == "computeTotal");
  CHECK(stored.at("pre_context").as_array().size() == 5);
  CHECK_FALSE(stored.contains("reason"));

  // The stored frame: the original where the SDK's values were, those kept
  // in `minified`; a frame that stayed minified gets only its reason.
  json::object sent{{"function", "r"},
                    {"abs_path", "/tmp/esb/dist/app.min.js"},
                    {"lineno", 1},
                    {"colno", 58},
                    {"in_app", true}};
  ApplyToFrame(out[2], "debug_id", sent);
  CHECK(sent.at("function") == "computeTotal");
  CHECK(sent.at("filename") == "../src/cart.js");
  CHECK(sent.at("abs_path") == "../src/cart.js");
  CHECK(sent.at("lineno") == 6);
  CHECK(sent.at("colno") == 13);
  CHECK(sent.at("in_app") == true);
  CHECK(sent.at("context_line").as_string() == out[2].context_line);
  CHECK(sent.at("pre_context").as_array().size() == 5);
  CHECK(sent.at("minified") ==
        json::value(json::object{
            {"function", "r"}, {"abs_path", "/tmp/esb/dist/app.min.js"}, {"lineno", 1}, {"colno", 58}}));
  CHECK(sent.at("sourcemap") == json::value(json::object{{"resolved_with", "debug_id"}}));
  json::object kept{{"function", "n"}, {"filename", "vendor.js"}, {"lineno", 3}};
  ResolvedFrame missing;
  missing.reason = "map_not_found";
  ApplyToFrame(missing, "", kept);
  CHECK(kept == json::object{{"function", "n"},
                             {"filename", "vendor.js"},
                             {"lineno", 3},
                             {"sourcemap", json::object{{"reason", "map_not_found"}}}});
}

TEST_CASE("source maps: frames that stay minified keep a reason") {
  auto map = MustParse(MapJson("AAAA,K;;AAAA", {"a.js"}));
  struct Case {
    Frame frame;
    std::string reason;
  };
  const Case cases[] = {
      {{"a.js", "", std::nullopt, 1, "f"}, "no_location"},
      {{"a.js", "", 1, std::nullopt, "f"}, "no_location"},
      {{"a.js", "", 0, 1, "f"}, "no_location"},
      {{"a.js", "", 1, 0, "f"}, "no_location"},
      {{"a.js", "", 1, 6, "f"}, "no_mapping"},  // the 1-field segment at column 5 (0-based)
      {{"a.js", "", 2, 1, "f"}, "no_mapping"},  // an empty line
      {{"a.js", "", 4, 1, "f"}, "line_out_of_range"},
      {{"a.js", "", 5000000000LL, 1, "f"}, "no_location"},
      {{"a.js", "", 1, 5, "f"}, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.reason);
    const ResolvedFrame r = ResolveFrame(c.frame, *map);
    CHECK(r.reason == c.reason);
    CHECK(r.resolved == c.reason.empty());
    if (r.resolved) {
      CHECK(r.function == "f");  // no content: the frame's own function
      CHECK(r.context_line.empty());
      CHECK(ToJson(r).at("lineno") == 1);
    } else {
      CHECK(ToJson(r).at("reason").as_string() == c.reason);
    }
  }
  // ResolveStack passes the finder's reason through.
  std::vector<Frame> frames = {{"x.js", "", 1, 1, "a"}, {"a.js", "", 1, 1, "b"}};
  const auto out = ResolveStack(frames, [&](const Frame& f) {
    return f.abs_path == "a.js" ? MapFor{map.get(), ""} : MapFor{nullptr, "map_not_found"};
  });
  CHECK(out[0].reason == "map_not_found");
  CHECK(out[1].resolved);
  // A finder without a reason: map_not_found; a frame without a line never asks it.
  int asked = 0;
  const auto none =
      ResolveStack({{"x.js", "", 1, 1, "a"}, {"x.js", "", std::nullopt, 1, "b"}}, [&](const Frame&) {
        ++asked;
        return MapFor{};
      });
  CHECK(none[0].reason == "map_not_found");
  CHECK(none[1].reason == "no_location");
  CHECK(asked == 1);
}

TEST_CASE("source maps: the enclosing function from sourcesContent") {
  struct Case {
    const char* source;
    uint32_t line, column;
    std::string want;
  };
  const Case cases[] = {
      {"function outer() {\n  if (x) {\n    boom();\n  }\n}", 2, 4, "outer"},
      {"function done() {}\nfunction next(a) {\n  for (;;) { y(); }\n  boom();\n}", 3, 2, "next"},
      {"const f = (a, b) => {\n  boom();\n};", 1, 2, "f"},
      {"const g = async x => {\n  boom();\n};", 1, 2, "g"},
      {"let h = function () {\n  boom();\n};", 1, 2, "h"},
      {"const o = {\n  m: function () {\n    boom();\n  }\n};", 2, 4, "m"},
      {"class C {\n  method(a) {\n    boom();\n  }\n}", 2, 4, "method"},
      {"items.forEach(function () {\n  boom();\n});", 1, 2, ""},  // anonymous
      {"boom();", 0, 0, ""},                                      // top level
      {"function a() {\n  while (b) {\n    switch (c) {\n      case 1: { boom(); }\n    }\n  }\n}", 3, 16,
       "a"},
      {"if (x) { ) } {", 0, 13, ""},  // unbalanced junk: no answer, no crash
      // Crafted to make every block's header scan far back: bounded work, no name.
      {nullptr, 0, 0, ""},
  };
  std::string crafted;
  for (int i = 0; i < 30000; ++i) crafted += "){";
  for (const Case& c : cases) {
    const std::string source = c.source != nullptr ? c.source : crafted;
    CAPTURE(source.substr(0, 80));
    json::object o;
    o["version"] = 3;
    o["sources"] = json::array{"s.js"};
    o["sourcesContent"] = json::array{json::string(source)};
    o["mappings"] = "AAAA";
    auto map = MustParse(json::serialize(o));
    const uint32_t column = c.source != nullptr ? c.column : static_cast<uint32_t>(crafted.size());
    CHECK(EnclosingFunctionName(*map, 0, c.line, column) == c.want);
  }
}

TEST_CASE("source maps: context lines are cut to their limit on a UTF-8 boundary") {
  std::string long_line;
  for (int i = 0; i < 600; ++i) long_line += "\xc3\xa9";  // 1200 bytes of "é"
  json::object o;
  o["version"] = 3;
  o["sources"] = json::array{"s.js"};
  o["sourcesContent"] = json::array{long_line + "\nnext"};
  o["mappings"] = "AAAA";
  auto map = MustParse(json::serialize(o));
  ResolveOptions opt;
  opt.context_lines = 100;  // capped at kMaxContextLines
  const ResolvedFrame r = ResolveFrame({"s.js", "", 1, 1, ""}, *map, opt);
  CHECK(r.context_line.size() == kMaxContextLineBytes);
  CHECK(r.pre_context.empty());
  CHECK(r.post_context == std::vector<std::string>{"next"});
}

TEST_CASE("source maps: debug ids from debug_meta, URL paths and artifact names") {
  const json::object event = json::parse(R"({"debug_meta":{"images":[
    {"type":"sourcemap","code_file":"http://localhost:8000/dist/app.min.js","debug_id":"A1B2C3D4-E5F6-4789-8abc-0123456789AB"},
    {"type":"sourcemap","code_file":"/srv/app/dist/index.js","debug_id":"a1b2c3d4e5f647898abc0123456789ac"},
    {"type":"sourcemap","code_file":"","debug_id":"a1b2c3d4e5f647898abc0123456789ad"},
    {"type":"sourcemap","code_file":"x.js","debug_id":"not-a-uuid"},
    {"type":"macho","code_file":"y","debug_id":"a1b2c3d4e5f647898abc0123456789ae"},
    "junk"]}})")
                                 .as_object();
  const auto images = SourceMapImages(event);
  REQUIRE(images.size() == 2);
  CHECK(images[0].debug_id == "a1b2c3d4-e5f6-4789-8abc-0123456789ab");
  CHECK(images[1].debug_id == "a1b2c3d4-e5f6-4789-8abc-0123456789ac");
  CHECK(SourceMapImages(json::object{}).empty());
  CHECK(SourceMapImages(json::parse(R"({"debug_meta":{"images":{}}})").as_object()).empty());

  CHECK(DebugIdForFrame(images, "http://localhost:8000/dist/app.min.js") == images[0].debug_id);
  CHECK(DebugIdForFrame(images, "http://localhost:8000/dist/app.min.js?v=2") == images[0].debug_id);
  CHECK(DebugIdForFrame(images, "/srv/app/dist/index.js") == images[1].debug_id);
  CHECK(DebugIdForFrame(images, "http://localhost:8000/other.js").empty());
  CHECK(DebugIdForFrame(images, "").empty());

  struct IdCase {
    const char* in;
    const char* want;
  };
  const IdCase ids[] = {
      {"A1B2C3D4-E5F6-4789-8ABC-0123456789AB", "a1b2c3d4-e5f6-4789-8abc-0123456789ab"},
      {"a1b2c3d4e5f647898abc0123456789ab", "a1b2c3d4-e5f6-4789-8abc-0123456789ab"},
      {"a1b2c3d4-e5f6-4789-8abc-0123456789ab-1a", ""},
      {"a1b2c3d4e5f6-4789-8abc-0123456789ab", ""},
      {"g1b2c3d4e5f647898abc0123456789ab", ""},
      {"", ""},
  };
  for (const IdCase& c : ids) {
    CAPTURE(c.in);
    CHECK(NormalizeDebugId(c.in) == c.want);
  }

  const IdCase paths[] = {
      {"https://example.com/static/js/a.js?v=1#x", "/static/js/a.js"},
      {"https://example.com", "/"},
      {"http://localhost:8000/dist/app.min.js", "/dist/app.min.js"},
      {"app:///dist/a.js", "/dist/a.js"},
      {"file:///srv/a.js", "/srv/a.js"},
      {"webpack://app/./src/a.js", "/./src/a.js"},
      {"~/static/js/a.js", "/static/js/a.js"},
      {"/srv/app/a.js", "/srv/app/a.js"},
      {"a.js", "a.js"},
      {"a.js?x", "a.js"},
      {"", ""},
  };
  for (const IdCase& c : paths) {
    CAPTURE(c.in);
    CHECK(NormalizeUrlPath(c.in) == c.want);
  }

  CHECK(ArtifactMatchesUrl("~/static/a.js", "https://example.com/static/a.js?v=3"));
  CHECK(ArtifactMatchesUrl("~/static/a.js", "http://other.test/static/a.js"));
  CHECK_FALSE(ArtifactMatchesUrl("~/static/a.js", "https://example.com/static/b.js"));
  CHECK(ArtifactMatchesUrl("https://example.com/static/a.js", "https://example.com/static/a.js#f"));
  CHECK_FALSE(ArtifactMatchesUrl("https://example.com/static/a.js", "https://other.test/static/a.js"));
  CHECK_FALSE(ArtifactMatchesUrl("", "a.js"));

  CHECK(SourceMappingUrl("x();\n//# sourceMappingURL=a.js.map\n") == "a.js.map");
  CHECK(SourceMappingUrl("//# sourceMappingURL=old.map\nx();\n//@ sourceMappingURL=b.map") == "b.map");
  CHECK(SourceMappingUrl("x();").empty());

  const Frame f = FrameFromJson(
      json::parse(
          R"({"abs_path":"https://e.com/a.js","filename":"/a.js","lineno":3,"colno":"7","function":"f"})")
          .as_object());
  CHECK(FrameUrl(f) == "https://e.com/a.js");
  CHECK(f.lineno == 3);
  CHECK_FALSE(f.colno.has_value());
  CHECK(f.function == "f");
}

}  // namespace
}  // namespace service::domain::sourcemaps
