// Resolving a minified stack frame through a Source Map (issue 31 item 2):
// the pure rules; finding the map (debug id, release + URL), caching it and
// storing the result belong to app/.
//
// Conventions: a frame's `lineno` and `colno` are 1-based, as browsers and
// Sentry SDKs send them ("a.js:1:48213" is line 1, column 48213); the map's
// positions are 0-based (source_map.h). The resolved frame is 1-based
// again (lineno, colno), as Sentry shows resolved frames.
//
// Resolved fields: `source` (the map's source, joined with sourceRoot),
// `lineno`, `colno`, `token_name` (the segment's name, when it has one: the
// original name of the identifier at the position), `function` (below), and
// context lines from sourcesContent: up to `context_lines` lines before
// (pre_context), the line itself (context_line) and up to `context_lines`
// after (post_context), each cut to kMaxContextLineBytes on a UTF-8
// boundary. No sourcesContent: the position without context lines.
//
// The function name, first that applies:
//  1. the caller's token: in a stack, the caller frame's position is the
//     call expression, whose segment names the callee as written in the
//     original source (bundlers record names for the identifiers they
//     rename); ResolveStack uses it for every frame but the outermost;
//  2. the enclosing function in sourcesContent: scanning back from the
//     original position (at most kMaxScanLines lines), skipping balanced
//     braces, to the nearest `function NAME(`, `NAME(...) {` (a method, not
//     if/for/while/switch/catch), `NAME = function`, `NAME = (...) =>` or
//     `NAME: function` / `NAME: (...) =>`;
//  3. the frame's own (minified) function, as sent.
//
// A frame stays as sent, with `reason`, when: it has no line or column
// (no_location), no map was found (the caller's reason, e.g. map_not_found),
// the map was refused (map_malformed, map_too_large, map_unsupported),
// its line is past the map (line_out_of_range), or nothing maps its
// position (no_mapping).
//
// Pure; plain functions (thread-safe over a shared SourceMap).
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "areas/sourcemaps/domain/source_map.h"

namespace service::domain::sourcemaps {

inline constexpr std::string_view kReasonNoLocation = "no_location";
// ResolveStack's reason when its finder gives none.
inline constexpr std::string_view kReasonMapNotFound = "map_not_found";
inline constexpr size_t kMaxContextLines = 10;
inline constexpr size_t kMaxContextLineBytes = 1000;
inline constexpr size_t kMaxScanLines = 300;

// A frame as an SDK sends it (Sentry's stacktrace.frames[]).
struct Frame {
  std::string abs_path;
  std::string filename;
  std::optional<int64_t> lineno;  // 1-based
  std::optional<int64_t> colno;   // 1-based
  std::string function;
};

struct ResolvedFrame {
  bool resolved = false;
  std::string reason;  // !resolved: why
  std::string source;
  int64_t lineno = 0;  // 1-based
  int64_t colno = 0;   // 1-based
  std::string function;
  std::string token_name;
  std::vector<std::string> pre_context;
  std::string context_line;
  std::vector<std::string> post_context;
};

struct ResolveOptions {
  size_t context_lines = 5;  // at most kMaxContextLines
};

// frame.abs_path, else frame.filename.
std::string_view FrameUrl(const Frame& frame);

// A Sentry frame object's fields (strings and integers of the wrong type
// are treated as absent).
Frame FrameFromJson(const boost::json::object& frame);

// One frame through `map`. The function is rule 2 or 3 above (ResolveStack
// adds rule 1).
ResolvedFrame ResolveFrame(const Frame& frame, const SourceMap& map, const ResolveOptions& options = {});

// What finding a frame's map gave: the map, or the reason there is none.
struct MapFor {
  const SourceMap* map = nullptr;
  std::string reason;  // map == nullptr: e.g. kReasonMapNotFound or a kReasonMap*
};

// A whole stack in Sentry's order (outermost call first, innermost last):
// each frame resolved through the map `find` gives, with the caller-token
// rule for function names. The result has one entry per frame.
std::vector<ResolvedFrame> ResolveStack(const std::vector<Frame>& frames,
                                        const std::function<MapFor(const Frame&)>& find,
                                        const ResolveOptions& options = {});

// The enclosing function's name at an original position (0-based line and
// column) from source i's content (rule 2), "" when none is found.
std::string EnclosingFunctionName(const SourceMap& map, uint32_t source, uint32_t line, uint32_t column);

// The fields stored beside a minified frame: resolved: {source, lineno,
// colno, function, name (when the token has one), pre_context,
// context_line, post_context (when there is content)}; else {reason}.
boost::json::object ToJson(const ResolvedFrame& r);

// A stored Sentry frame (`frame`, as the SDK sent it) after resolution,
// as the bug's events show it (the service's contract):
//   resolved: `function`, `filename`, `abs_path` (both the map's source),
//     `lineno`, `colno` are the original's; `pre_context`, `context_line`,
//     `post_context` from sourcesContent; `name` (the original identifier at
//     the position, when the map has one); `minified` {function, filename,
//     abs_path, lineno, colno} the values as sent (those present);
//     `sourcemap` {resolved_with} ("debug_id" or "release");
//   not resolved: the frame as sent with `sourcemap` {reason}.
void ApplyToFrame(const ResolvedFrame& r, std::string_view resolved_with, boost::json::object& frame);

// ---- Matching frames with maps ----

// A `sourcemap` image of an event's debug_meta.images: the file it
// describes (code_file, e.g. "http://localhost:8000/dist/app.min.js" or
// "/app/dist/index.js") and its debug id.
struct DebugImage {
  std::string code_file;
  std::string debug_id;  // NormalizeDebugId'd
};

inline constexpr size_t kMaxDebugImages = 1000;

// The `sourcemap` images of a Sentry event (debug_meta.images[] with type
// "sourcemap", a non-empty code_file and a valid debug_id), at most
// kMaxDebugImages, in order.
std::vector<DebugImage> SourceMapImages(const boost::json::object& event);

// A debug id as 36 lower-case characters (8-4-4-4-12), from a UUID with or
// without dashes in any case; "" when it is not one. (Sentry's debug ids
// may carry an appendix after the UUID, "-1a": not for source maps.)
std::string NormalizeDebugId(std::string_view id);

// The path of a frame's URL or an artifact's name: the scheme and host cut
// ("https://example.com/static/a.js" -> "/static/a.js", "app:///dist/a.js"
// -> "/dist/a.js", "file:///srv/a.js" -> "/srv/a.js"), Sentry's `~` for
// any host ("~/static/a.js" -> "/static/a.js"), the query and fragment cut;
// a path is kept as it is ("/srv/app/a.js"; "a.js").
std::string NormalizeUrlPath(std::string_view url);

// The debug id of the image whose code_file is the frame's URL (exactly,
// else by NormalizeUrlPath), "" when none.
std::string DebugIdForFrame(const std::vector<DebugImage>& images, std::string_view frame_url);

// Whether an uploaded file's name (an artifact URL, "~/static/a.js" or a full
// URL) names the file at `frame_url`: the same URL without query and
// fragment, or, for a `~/` name, the same path on any host.
bool ArtifactMatchesUrl(std::string_view artifact_name, std::string_view frame_url);

// The last `//# sourceMappingURL=` (or `//@`) comment of a minified file,
// "" when none.
std::string SourceMappingUrl(std::string_view minified);

}  // namespace service::domain::sourcemaps
