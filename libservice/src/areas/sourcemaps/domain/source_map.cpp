#include "areas/sourcemaps/domain/source_map.h"

#include <algorithm>
#include <array>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <limits>

namespace service::domain::sourcemaps {

namespace json = boost::json;

namespace {

constexpr std::array<int8_t, 256> MakeBase64Table() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  constexpr std::string_view kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < kDigits.size(); ++i)
    t[static_cast<unsigned char>(kDigits[i])] = static_cast<int8_t>(i);
  return t;
}
constexpr std::array<int8_t, 256> kBase64 = MakeBase64Table();

bool IsAbsolute(std::string_view s) {
  if (!s.empty() && s.front() == '/') return true;
  // scheme ":" (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ))
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c == ':') return i > 0;
    if (!(alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))) return false;
  }
  return false;
}

std::string JoinRoot(std::string_view root, std::string_view source) {
  if (root.empty() || IsAbsolute(source)) return std::string(source);
  std::string out(root);
  if (out.back() != '/') out += '/';
  out += source;
  return out;
}

}  // namespace

namespace {

// One VLQ value at s[*pos] (inlined into the mappings loop).
inline bool Vlq(std::string_view s, size_t* pos, int64_t* value) {
  uint64_t acc = 0;
  unsigned shift = 0;
  size_t i = *pos;
  for (;;) {
    if (i >= s.size()) return false;
    const int d = kBase64[static_cast<unsigned char>(s[i++])];
    if (d < 0) return false;
    acc |= static_cast<uint64_t>(d & 31) << shift;
    if ((d & 32) == 0) break;
    shift += 5;
    if (shift > 30) return false;  // an 8th digit
  }
  if (acc > UINT32_MAX) return false;  // a magnitude beyond 31 bits (plus the sign bit)
  const int64_t magnitude = static_cast<int64_t>(acc >> 1);
  *value = (acc & 1) != 0 ? -magnitude : magnitude;
  *pos = i;
  return true;
}

}  // namespace

bool DecodeVlq(std::string_view s, size_t* pos, int64_t* value) { return Vlq(s, pos, value); }

// The parse state: what is being built, and the counters the limits check.
struct SourceMap::Parsed {
  SourceMap& map;
  const Limits& limits;
  std::string* reason;
  std::string* detail;
  size_t n_sections = 0;

  bool Fail(std::string_view r, std::string d) {
    *reason = std::string(r);
    *detail = std::move(d);
    return false;
  }

  // Opens generated lines up to `line` (absolute).
  bool OpenLine(uint64_t line) {
    if (line >= limits.max_lines) return Fail(kReasonMapTooLarge, "more generated lines than the limit");
    if (map.line_starts_.empty()) map.line_starts_.push_back(0);
    while (map.line_starts_.size() < line + 2)
      map.line_starts_.push_back(static_cast<uint32_t>(map.segments_.size()));
    return true;
  }

  // Appends segments on the current last line (kept sorted by column).
  bool Push(const Segment& s) {
    if (map.segments_.size() >= limits.max_segments)
      return Fail(kReasonMapTooLarge, "more segments than the limit");
    map.segments_.push_back(s);
    map.line_starts_.back() = static_cast<uint32_t>(map.segments_.size());
    return true;
  }

  // One regular map (an object with `mappings`), its generated positions
  // shifted by (line_offset, column_offset on its first line) and cut at
  // the absolute position (end_line, end_column), where the next section
  // starts (exclusive; end_line == UINT64_MAX: no end).
  bool Regular(const json::object& o, uint64_t line_offset, uint64_t column_offset, uint64_t end_line,
               uint64_t end_column) {
    const json::value* mappings = o.if_contains("mappings");
    if (mappings == nullptr || !mappings->is_string())
      return Fail(kReasonMapMalformed, "mappings: not a string");
    const json::value* sources = o.if_contains("sources");
    if (sources == nullptr || !sources->is_array()) return Fail(kReasonMapMalformed, "sources: not an array");
    std::string_view root;
    if (const json::value* r = o.if_contains("sourceRoot"); r != nullptr && r->is_string())
      root = r->get_string();

    const size_t source_base = map.sources_.size(), name_base = map.names_.size();
    const json::array& src = sources->get_array();
    if (source_base + src.size() > limits.max_sources)
      return Fail(kReasonMapTooLarge, "more sources than the limit");
    const json::array* contents = nullptr;
    if (const json::value* c = o.if_contains("sourcesContent"); c != nullptr && c->is_array())
      contents = &c->get_array();
    map.sources_.reserve(source_base + src.size());
    map.contents_.resize(source_base + src.size());
    for (size_t i = 0; i < src.size(); ++i) {
      if (src[i].is_string()) {
        map.sources_.push_back(JoinRoot(root, src[i].get_string()));
      } else if (src[i].is_null()) {
        map.sources_.emplace_back();
      } else {
        return Fail(kReasonMapMalformed, "sources[" + std::to_string(i) + "]: not a string");
      }
      if (contents != nullptr && i < contents->size() && (*contents)[i].is_string()) {
        Content& c = map.contents_[source_base + i];
        c.present = true;
        c.text = std::string((*contents)[i].get_string());
        c.line_starts.push_back(0);
        for (size_t p = c.text.find('\n'); p != std::string::npos; p = c.text.find('\n', p + 1))
          c.line_starts.push_back(static_cast<uint32_t>(p + 1));
        map.memory_bytes_ += c.text.size() + 4 * c.line_starts.size();
      }
    }
    if (const json::value* n = o.if_contains("names"); n != nullptr) {
      if (!n->is_array()) return Fail(kReasonMapMalformed, "names: not an array");
      const json::array& names = n->get_array();
      if (name_base + names.size() > limits.max_names)
        return Fail(kReasonMapTooLarge, "more names than the limit");
      map.names_.reserve(name_base + names.size());
      for (const json::value& v : names) {
        if (!v.is_string()) return Fail(kReasonMapMalformed, "names: an entry is not a string");
        map.names_.emplace_back(v.get_string());
      }
    }
    const uint64_t n_sources = src.size(), n_names = map.names_.size() - name_base;

    const std::string_view m = mappings->get_string();
    uint64_t line = 0;  // relative to the section
    int64_t col = 0, source = 0, oline = 0, ocol = 0, name = 0;
    size_t first_of_line = map.segments_.size();
    bool sorted = true;
    // Sorts the current line's segments (generators may write them out of order).
    auto finish_line = [&] {
      if (!sorted)
        std::stable_sort(
            map.segments_.begin() + static_cast<std::ptrdiff_t>(first_of_line), map.segments_.end(),
            [](const Segment& a, const Segment& b) { return a.generated_column < b.generated_column; });
      sorted = true;
    };
    if (!OpenLine(line_offset)) return false;
    // At most one segment per ',' or ';' (plus one): one allocation for a
    // regular map up to 1M segments (separators alone must not reserve
    // memory: the vector grows past that as usual, as in index maps).
    if (map.segments_.empty()) {
      const size_t estimate = static_cast<size_t>(std::count_if(
                                  m.begin(), m.end(), [](char c) { return c == ',' || c == ';'; })) +
                              1;
      map.segments_.reserve(std::min({estimate, limits.max_segments, size_t{1} << 20}));
    }
    size_t i = 0;
    while (i < m.size()) {
      const char c = m[i];
      if (c == ';') {
        finish_line();
        ++i;
        ++line;
        col = 0;
        if (line_offset + line > end_line) break;  // the next section's lines
        if (!OpenLine(line_offset + line)) return false;
        first_of_line = map.segments_.size();
        continue;
      }
      if (c == ',') {
        ++i;
        continue;
      }
      // A segment: 1, 4 or 5 fields.
      int64_t f[5];
      int n = 0;
      const size_t start = i;
      while (i < m.size() && m[i] != ',' && m[i] != ';') {
        if (n == 5)
          return Fail(kReasonMapMalformed,
                      "mappings: a segment of more than 5 fields at " + std::to_string(start));
        if (!Vlq(m, &i, &f[n]))
          return Fail(kReasonMapMalformed, "mappings: invalid VLQ at " + std::to_string(i));
        ++n;
      }
      if (n != 1 && n != 4 && n != 5)
        return Fail(kReasonMapMalformed,
                    "mappings: a segment of " + std::to_string(n) + " fields at " + std::to_string(start));
      col += f[0];
      if (col < 0 || col > INT32_MAX)
        return Fail(kReasonMapMalformed, "mappings: negative generated column at " + std::to_string(start));
      Segment s;
      const uint64_t gcol = static_cast<uint64_t>(col) + (line == 0 ? column_offset : 0);
      if (gcol > UINT32_MAX - 1) return Fail(kReasonMapMalformed, "mappings: generated column out of range");
      s.generated_column = static_cast<uint32_t>(gcol);
      if (n >= 4) {
        source += f[1];
        oline += f[2];
        ocol += f[3];
        if (source < 0 || static_cast<uint64_t>(source) >= n_sources)
          return Fail(kReasonMapMalformed, "mappings: source index out of range at " + std::to_string(start));
        if (oline < 0 || oline > INT32_MAX || ocol < 0 || ocol > INT32_MAX)
          return Fail(kReasonMapMalformed,
                      "mappings: original position out of range at " + std::to_string(start));
        s.source = static_cast<uint32_t>(source_base + static_cast<uint64_t>(source));
        s.original_line = static_cast<uint32_t>(oline);
        s.original_column = static_cast<uint32_t>(ocol);
        if (n == 5) {
          name += f[4];
          if (name < 0 || static_cast<uint64_t>(name) >= n_names)
            return Fail(kReasonMapMalformed, "mappings: name index out of range at " + std::to_string(start));
          s.name = static_cast<uint32_t>(name_base + static_cast<uint64_t>(name));
        }
      }
      // Cut at the next section's offset.
      if (line_offset + line == end_line && s.generated_column >= end_column) continue;
      if (map.segments_.size() > first_of_line && map.segments_.back().generated_column > s.generated_column)
        sorted = false;
      if (!Push(s)) return false;
    }
    finish_line();
    return true;
  }

  bool Any(const json::value& v, uint64_t line_offset, uint64_t column_offset, uint64_t end_line,
           uint64_t end_column, int depth) {
    const json::object* o = v.if_object();
    if (o == nullptr) return Fail(kReasonMapMalformed, "not a JSON object");
    const json::value* version = o->if_contains("version");
    if (version == nullptr || !version->is_number()) return Fail(kReasonMapMalformed, "version: missing");
    {
      json::error_code ec;
      const auto n = version->to_number<int64_t>(ec);
      if (ec || n != 3) return Fail(kReasonMapUnsupported, "version: not 3");
    }
    if (depth == 0) {
      if (const json::value* f = o->if_contains("file"); f != nullptr && f->is_string())
        map.file_ = std::string(f->get_string());
    }
    const json::value* sections = o->if_contains("sections");
    if (sections == nullptr) return Regular(*o, line_offset, column_offset, end_line, end_column);
    if (!sections->is_array()) return Fail(kReasonMapMalformed, "sections: not an array");
    if (depth >= kMaxIndexDepth) return Fail(kReasonMapUnsupported, "sections: index maps nested too deep");
    if (o->contains("mappings")) return Fail(kReasonMapMalformed, "an index map with mappings");
    const json::array& secs = sections->get_array();
    if (n_sections + secs.size() > limits.max_sections)
      return Fail(kReasonMapTooLarge, "more sections than the limit");
    n_sections += secs.size();
    // Each section's offset, absolute, in order.
    std::vector<std::pair<uint64_t, uint64_t>> at;
    at.reserve(secs.size());
    for (size_t i = 0; i < secs.size(); ++i) {
      const json::object* s = secs[i].if_object();
      if (s == nullptr)
        return Fail(kReasonMapMalformed, "sections[" + std::to_string(i) + "]: not an object");
      const json::value* off = s->if_contains("offset");
      const json::object* offo = off != nullptr ? off->if_object() : nullptr;
      const json::value* l = offo != nullptr ? offo->if_contains("line") : nullptr;
      const json::value* c = offo != nullptr ? offo->if_contains("column") : nullptr;
      if (l == nullptr || c == nullptr || !l->is_int64() || !c->is_int64() || l->get_int64() < 0 ||
          c->get_int64() < 0 || l->get_int64() > INT32_MAX || c->get_int64() > INT32_MAX)
        return Fail(kReasonMapMalformed, "sections[" + std::to_string(i) + "].offset: not {line, column}");
      uint64_t line = static_cast<uint64_t>(l->get_int64()), col = static_cast<uint64_t>(c->get_int64());
      // Relative to the enclosing section.
      col += line == 0 ? column_offset : 0;
      line += line_offset;
      if (!at.empty() && std::pair(line, col) < at.back())
        return Fail(kReasonMapMalformed, "sections[" + std::to_string(i) + "]: out of order");
      // From here on, past the enclosing section's end: nothing to keep.
      if (end_line != UINT64_MAX && std::pair(line, col) >= std::pair(end_line, end_column)) break;
      at.emplace_back(line, col);
    }
    for (size_t i = 0; i < at.size(); ++i) {
      const json::object& s = secs[i].get_object();
      if (s.contains("url"))
        return Fail(kReasonMapUnsupported, "sections[" + std::to_string(i) + "]: url sections");
      const json::value* sub = s.if_contains("map");
      if (sub == nullptr) return Fail(kReasonMapMalformed, "sections[" + std::to_string(i) + "]: no map");
      uint64_t el = end_line, ec = end_column;
      if (i + 1 < at.size()) {
        el = at[i + 1].first;
        ec = at[i + 1].second;
      }
      if (!Any(*sub, at[i].first, at[i].second, el, ec, depth + 1)) return false;
    }
    return true;
  }
};

std::shared_ptr<const SourceMap> SourceMap::Parse(std::string_view text, std::string* reason,
                                                  std::string* detail, const Limits& limits) {
  reason->clear();
  detail->clear();
  if (text.size() > limits.max_bytes) {
    *reason = std::string(kReasonMapTooLarge);
    *detail = "larger than " + std::to_string(limits.max_bytes) + " bytes";
    return nullptr;
  }
  // A JSON file may start with the XSSI guard ")]}'" (the format allows it).
  if (text.substr(0, 4) == ")]}'") {
    const size_t nl = text.find('\n');
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  json::monotonic_resource arena;
  json::parse_options opt;
  opt.max_depth = 64;
  json::error_code ec;
  const json::value v = json::parse(text, ec, &arena, opt);
  if (ec) {
    *reason = std::string(kReasonMapMalformed);
    *detail = "not JSON: " + ec.message();
    return nullptr;
  }
  auto map = std::make_shared<SourceMap>();
  Parsed p{*map, limits, reason, detail};
  if (!p.Any(v, 0, 0, UINT64_MAX, 0, 0)) return nullptr;
  if (map->line_starts_.empty()) map->line_starts_.push_back(0);
  map->segments_.shrink_to_fit();
  map->line_starts_.shrink_to_fit();
  map->memory_bytes_ += map->segments_.size() * sizeof(Segment) + map->line_starts_.size() * sizeof(uint32_t);
  for (const auto& s : map->sources_) map->memory_bytes_ += sizeof(std::string) + s.size();
  for (const auto& s : map->names_) map->memory_bytes_ += sizeof(std::string) + s.size();
  return map;
}

Lookup SourceMap::Find(uint32_t line, uint32_t column) const {
  Lookup r;
  if (line >= line_count()) {
    r.reason = kReasonLineOutOfRange;
    return r;
  }
  const auto first = segments_.begin() + line_starts_[line];
  const auto last = segments_.begin() + line_starts_[line + 1];
  auto it = std::upper_bound(first, last, column,
                             [](uint32_t c, const Segment& s) { return c < s.generated_column; });
  if (it == first) {
    r.reason = kReasonNoMapping;
    return r;
  }
  --it;
  if (it->source == kNone) {
    r.reason = kReasonNoMapping;
    return r;
  }
  r.segment = *it;
  return r;
}

size_t SourceMap::content_line_count(uint32_t i) const {
  return has_content(i) ? contents_[i].line_starts.size() : 0;
}

std::optional<std::string_view> SourceMap::content_line(uint32_t i, uint32_t line) const {
  if (!has_content(i)) return std::nullopt;
  const Content& c = contents_[i];
  if (line >= c.line_starts.size()) return std::nullopt;
  const size_t b = c.line_starts[line];
  size_t e = line + 1 < c.line_starts.size() ? c.line_starts[line + 1] - 1 : c.text.size();
  if (e > b && c.text[e - 1] == '\r') --e;
  return std::string_view(c.text).substr(b, e - b);
}

}  // namespace service::domain::sourcemaps
