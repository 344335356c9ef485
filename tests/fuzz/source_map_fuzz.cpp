// libFuzzer target for the Source Map v3 decoder and the frame resolver
// (areas/sourcemaps/domain/). Built only with Clang; the decoder is compiled
// into the target itself (tests/fuzz/CMakeLists.txt), so no instrumented
// library is needed:
//   cmake -S . -B /tmp/fuzz-build -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang
//   ninja -C /tmp/fuzz-build source_map_fuzz
//   /tmp/fuzz-build/tests/fuzz/source_map_fuzz -dict=tests/fuzz/source_map.dict -max_len=4096
//       -max_total_time=600 /tmp/source-map-corpus tests/fuzz/source_map_corpus
// (each command on one line).
//
// An input whose first byte is 'M' is a `mappings` string (the rest) inside
// a fixed map with three sources (two with content) and three names, so
// the mutations reach the VLQ decoder directly; any other input is a whole
// map's JSON (regular or index map).
// What it checks, beyond "no crash, no sanitizer report, no exception":
// a refused map has a kReasonMap* reason and a detail; a parsed map keeps
// the limits; a lookup either finds a segment at or before the column asked
// with its source and name indices in range, or says line_out_of_range
// (exactly past the last line) or no_mapping; a resolved frame is 1-based
// and its context lines are within their limits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "areas/sourcemaps/domain/resolve.h"
#include "areas/sourcemaps/domain/source_map.h"

namespace {

namespace sm = service::domain::sourcemaps;

void Check(bool ok, const char* what, std::string_view in) {
  if (ok) return;
  std::fprintf(stderr, "%s\n  in: %.*s\n", what, static_cast<int>(in.size() > 2000 ? 2000 : in.size()),
               in.data());
  std::abort();
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string text;
  if (!in.empty() && in.front() == 'M') {
    text =
        R"({"version":3,"sources":["a.js","b.js",null],"sourcesContent":["function f() {\n  if (x) {\n    g();\n  }\n}\n","const h = (a) => {\r\n  throw e;\r\n};"],"names":["f","g","h"],"mappings":)" +
        JsonString(in.substr(1)) + "}";
  } else {
    text = std::string(in);
  }

  sm::Limits limits;
  limits.max_lines = 100'000;  // keeps each run fast; the bound itself is what is tested
  limits.max_segments = 200'000;
  std::string reason, detail;
  const auto map = sm::SourceMap::Parse(text, &reason, &detail, limits);
  if (map == nullptr) {
    Check(reason == sm::kReasonMapMalformed || reason == sm::kReasonMapTooLarge ||
              reason == sm::kReasonMapUnsupported,
          "refused with an unknown reason", in);
    Check(!detail.empty(), "refused without a detail", in);
    return 0;
  }
  Check(reason.empty(), "parsed with a reason", in);
  Check(map->line_count() <= limits.max_lines && map->segment_count() <= limits.max_segments,
        "a limit exceeded", in);

  // Probe every segment's own position and its neighbours, a bounded number.
  size_t probes = 0;
  for (uint32_t line = 0; line < map->line_count() + 1 && probes < 2000; ++line) {
    for (uint32_t col : {0u, 1u, 7u, 100u, 4000000000u}) {
      ++probes;
      const sm::Lookup l = map->Find(line, col);
      if (line >= map->line_count()) {
        Check(l.reason == sm::kReasonLineOutOfRange, "past the last line without line_out_of_range", in);
        continue;
      }
      if (!l.reason.empty()) {
        Check(l.reason == sm::kReasonNoMapping, "an unknown lookup reason", in);
        continue;
      }
      Check(l.segment.generated_column <= col, "found a segment after the column", in);
      Check(l.segment.source < map->source_count(), "source index out of range", in);
      Check(l.segment.name == sm::kNone || l.segment.name < map->name_count(), "name index out of range", in);
      (void)map->source(l.segment.source);
      (void)map->content_line(l.segment.source, l.segment.original_line);
      (void)sm::EnclosingFunctionName(*map, l.segment.source, l.segment.original_line,
                                      l.segment.original_column);

      sm::Frame f{"https://e.com/a.js?x#y", "", static_cast<int64_t>(line) + 1, static_cast<int64_t>(col) + 1,
                  "m"};
      const sm::ResolvedFrame r = sm::ResolveFrame(f, *map);
      Check(r.resolved, "a found position did not resolve", in);
      Check(r.lineno >= 1 && r.colno >= 1, "a resolved frame is not 1-based", in);
      Check(r.pre_context.size() <= sm::kMaxContextLines && r.post_context.size() <= sm::kMaxContextLines,
            "too many context lines", in);
      Check(r.context_line.size() <= sm::kMaxContextLineBytes, "a context line too long", in);
      (void)sm::ToJson(r);
    }
  }
  // The URL helpers on the raw input.
  (void)sm::NormalizeUrlPath(in);
  (void)sm::NormalizeDebugId(in);
  (void)sm::SourceMappingUrl(in);
  (void)sm::ArtifactMatchesUrl(in, "https://e.com/a.js");
  return 0;
}
