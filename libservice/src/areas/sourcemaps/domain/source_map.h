// The Source Map v3 decoder (issue 31 item 2; ECMA-426, "Source Map
// Revision 3"): a map's JSON turned into a compact, immutable lookup
// structure that a cache can share between threads.
//
// Read: `version` (must be 3), `sources` (null entries kept as ""),
// `sourceRoot` (joined in front of every source that is not an absolute URL
// or an absolute path, with one '/' between), `sourcesContent` (null or a
// missing entry: no content), `names`, `file`, `mappings` (Base64 VLQ:
// lines separated by ';', segments by ','; a segment has 1, 4 or 5 fields:
// generated column, then source index, original line, original column,
// then name index; every field relative to the previous segment's, the
// generated column resetting at each line) and index maps (`sections`, each
// `offset {line, column}` and an embedded `map`, which may itself be an
// index map up to kMaxIndexDepth; sections must be in order; each section
// covers the generated positions from its offset up to the next section's
// offset; a section with `url` instead of `map` is refused as
// map_unsupported). Anything else in the JSON (x_google_ignoreList, ...) is
// ignored.
//
// Positions: Lookup takes and returns 0-based lines and columns, as the
// format counts them. Columns are counted as the map counts them (UTF-16
// code units for JavaScript generators); the decoder never converts. The
// browser / Sentry frame conventions (1-based line and column) belong to
// resolve.h.
//
// Lookup is "greatest lower bound" on one generated line, as browsers and
// Mozilla's source-map library do: the last segment of that line whose
// generated column is <= the column asked. A column past the line's last
// segment maps to that segment; a column before the line's first segment,
// an empty line, or a segment with 1 field (a generated range with no
// original) is no_mapping; a line past the map's last line is
// line_out_of_range.
//
// Bounds (Limits): the JSON's size, the number of segments, lines, sources,
// names and sections; VLQ values beyond 32 bits, a digit outside Base64, a
// segment of 2, 3 or more than 5 fields, a relative value that makes a
// field negative, a source or name index outside its array: map_malformed.
// Parsing never reads outside its input and never allocates more than the
// limits allow (a few bytes per segment, line and content line).
//
// Pure; a parsed SourceMap is immutable (safe to share between threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::sourcemaps {

// Why a map was refused or a position stayed unmapped (the `reason` a
// frame keeps when it stays minified; see also resolve.h).
inline constexpr std::string_view kReasonMapMalformed = "map_malformed";
inline constexpr std::string_view kReasonMapTooLarge = "map_too_large";
inline constexpr std::string_view kReasonMapUnsupported = "map_unsupported";
inline constexpr std::string_view kReasonLineOutOfRange = "line_out_of_range";
inline constexpr std::string_view kReasonNoMapping = "no_mapping";

inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr int kMaxIndexDepth = 3;  // an index map inside an index map inside an index map

struct Limits {
  size_t max_bytes = 64u << 20;     // the JSON text
  size_t max_segments = 8'000'000;  // 20 bytes each once decoded
  size_t max_lines = 4'000'000;     // generated lines (4 bytes each)
  size_t max_sources = 100'000;
  size_t max_names = 2'000'000;
  size_t max_sections = 10'000;  // all index maps together
};

// One decoded segment (20 bytes). source == kNone: a 1-field segment.
struct Segment {
  uint32_t generated_column = 0;
  uint32_t source = kNone;
  uint32_t original_line = 0;    // 0-based
  uint32_t original_column = 0;  // 0-based
  uint32_t name = kNone;
};

struct Lookup {
  std::string_view reason;  // empty when found, else kReasonLineOutOfRange or kReasonNoMapping
  Segment segment;          // found: the segment that covers the position
};

class SourceMap {
 public:
  struct Parsed;
  // The map, or nullptr with *reason one of kReasonMap* and *detail a short
  // English explanation (e.g. "mappings: invalid base64 digit at 1234").
  static std::shared_ptr<const SourceMap> Parse(std::string_view json, std::string* reason,
                                                std::string* detail, const Limits& limits = {});

  // 0-based line and column of the generated file.
  Lookup Find(uint32_t line, uint32_t column) const;

  const std::string& file() const { return file_; }
  size_t line_count() const { return line_starts_.empty() ? 0 : line_starts_.size() - 1; }
  size_t segment_count() const { return segments_.size(); }
  size_t source_count() const { return sources_.size(); }
  size_t name_count() const { return names_.size(); }
  // REQUIRES i < source_count() / name_count().
  const std::string& source(uint32_t i) const { return sources_[i]; }
  const std::string& name(uint32_t i) const { return names_[i]; }
  bool has_content(uint32_t i) const { return i < contents_.size() && contents_[i].present; }
  // The number of lines of source i's content (0 without content).
  size_t content_line_count(uint32_t i) const;
  // Line `line` (0-based) of source i's content without its line terminator
  // ("\n" or "\r\n"); nullopt without content or past its last line.
  std::optional<std::string_view> content_line(uint32_t i, uint32_t line) const;
  // A rough figure of the memory the map holds (for a cache's budget).
  size_t memory_bytes() const { return memory_bytes_; }

 private:
  struct Content {
    bool present = false;
    std::string text;
    std::vector<uint32_t> line_starts;  // offsets of each line's first byte
  };
  friend struct Parsed;
  std::string file_;
  std::vector<std::string> sources_;
  std::vector<Content> contents_;
  std::vector<std::string> names_;
  std::vector<Segment> segments_;      // by generated line, then column
  std::vector<uint32_t> line_starts_;  // line l's segments: [line_starts_[l], line_starts_[l + 1])
  size_t memory_bytes_ = 0;
};

// Base64 VLQ, one value starting at s[*pos] (exposed for the tests). On
// success *pos is past the value. false: end of input inside a value, a
// digit outside Base64, or a value outside the 32-bit signed range.
bool DecodeVlq(std::string_view s, size_t* pos, int64_t* value);

}  // namespace service::domain::sourcemaps
