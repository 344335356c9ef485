#include "areas/sourcemaps/domain/resolve.h"

#include <algorithm>
#include <array>

#include "util/strings.h"

namespace service::domain::sourcemaps {

namespace json = boost::json;

namespace {

constexpr size_t kMaxScanBytes = 64 * 1024;
// Bounds on each header's reading, so a crafted source costs at most
// kMaxHeaders * (kMaxParenScan + kMaxIdent) steps beyond the scan itself.
constexpr size_t kMaxHeaders = 256;     // blocks examined on the way out
constexpr size_t kMaxParenScan = 4096;  // bytes back to a ')''s '('
constexpr size_t kMaxIdent = 256;       // an identifier's length

std::string_view Str(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

std::optional<int64_t> Int(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= INT64_MAX) return static_cast<int64_t>(v->get_uint64());
  return std::nullopt;
}

std::string Cut(std::string_view s) { return std::string(util::Utf8Prefix(s, kMaxContextLineBytes)); }

bool IdentChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         u >= 0x80;
}

// Skips spaces backwards from s[..end): the index just past the last
// non-space character.
size_t SkipSpaceBack(std::string_view s, size_t end) {
  while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\n' || s[end - 1] == '\r'))
    --end;
  return end;
}

// The identifier ending at s[end - 1] (after SkipSpaceBack), and its start.
std::string_view IdentBack(std::string_view s, size_t end, size_t* start) {
  size_t b = end;
  while (b > 0 && end - b < kMaxIdent && IdentChar(s[b - 1])) --b;
  *start = b;
  return s.substr(b, end - b);
}

// The index of the '(' matching the ')' at s[close], npos when none.
size_t MatchParenBack(std::string_view s, size_t close) {
  int depth = 0;
  for (size_t i = close + 1; i-- > 0 && close - i < kMaxParenScan;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

bool IsControlKeyword(std::string_view w) {
  static constexpr std::array<std::string_view, 7> kWords = {"if",    "for",  "while",   "switch",
                                                             "catch", "with", "function"};
  return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
}

// `NAME =` / `NAME:` (optionally `async`) ending at s[..end): NAME or "".
std::string_view AssignedName(std::string_view s, size_t end) {
  size_t e = SkipSpaceBack(s, end), b = 0;
  if (IdentBack(s, e, &b) == "async") e = SkipSpaceBack(s, b);
  if (e == 0 || (s[e - 1] != '=' && s[e - 1] != ':')) return {};
  if (s[e - 1] == '=' && e >= 2 && (s[e - 2] == '=' || s[e - 2] == '!' || s[e - 2] == '<' || s[e - 2] == '>'))
    return {};
  e = SkipSpaceBack(s, e - 1);
  return IdentBack(s, e, &b);
}

enum class Header { kNamed, kAnonymous, kBlock };

// What the block opened by the '{' at s[brace] is: a function (named or
// not) or another block (control flow, object literal, class).
Header ReadHeader(std::string_view s, size_t brace, std::string* name) {
  size_t e = SkipSpaceBack(s, brace), b = 0;
  if (e >= 2 && s[e - 1] == '>' && s[e - 2] == '=') {  // an arrow with a block body
    e = SkipSpaceBack(s, e - 2);
    if (e > 0 && s[e - 1] == ')') {
      const size_t open = MatchParenBack(s, e - 1);
      if (open == std::string_view::npos) return Header::kAnonymous;
      e = open;
    } else {
      IdentBack(s, e, &b);
      e = b;
    }
    *name = std::string(AssignedName(s, e));
    return name->empty() ? Header::kAnonymous : Header::kNamed;
  }
  if (e == 0 || s[e - 1] != ')') return Header::kBlock;  // else, try, an object literal, a class body
  const size_t open = MatchParenBack(s, e - 1);
  if (open == std::string_view::npos) return Header::kBlock;
  e = SkipSpaceBack(s, open);
  const std::string_view word = IdentBack(s, e, &b);
  if (word == "function") {  // anonymous function expression
    *name = std::string(AssignedName(s, b));
    return name->empty() ? Header::kAnonymous : Header::kNamed;
  }
  if (word.empty()) return Header::kBlock;
  if (IsControlKeyword(word)) return Header::kBlock;
  *name = std::string(word);  // `function NAME(`, or a method `NAME(...) {`
  return Header::kNamed;
}

}  // namespace

std::string EnclosingFunctionName(const SourceMap& map, uint32_t source, uint32_t line, uint32_t column) {
  if (!map.has_content(source)) return {};
  // The text from up to kMaxScanLines lines before to the position.
  std::vector<std::string_view> lines;
  size_t bytes = 0;
  for (uint32_t l = line + 1; l-- > 0 && lines.size() < kMaxScanLines && bytes < kMaxScanBytes;) {
    const auto text = map.content_line(source, l);
    if (!text) return {};
    std::string_view t = *text;
    if (l == line) t = t.substr(0, std::min<size_t>(column, t.size()));
    if (t.size() > kMaxScanBytes) t = t.substr(t.size() - kMaxScanBytes);
    lines.push_back(t);
    bytes += t.size() + 1;
  }
  std::string buf;
  buf.reserve(bytes);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    buf.append(it->data(), it->size());
    buf += '\n';
  }
  const std::string_view s(buf);
  int depth = 0;
  size_t headers = 0;
  for (size_t i = s.size(); i-- > 0;) {
    if (s[i] == '}') {
      ++depth;
    } else if (s[i] == '{') {
      if (depth > 0) {
        --depth;
        continue;
      }
      if (++headers > kMaxHeaders) return {};
      std::string name;
      switch (ReadHeader(s, i, &name)) {
        case Header::kNamed:
          return name;
        case Header::kAnonymous:
          return {};
        case Header::kBlock:
          break;  // keep going outwards
      }
    }
  }
  return {};
}

std::string_view FrameUrl(const Frame& frame) {
  return !frame.abs_path.empty() ? frame.abs_path : frame.filename;
}

Frame FrameFromJson(const json::object& o) {
  Frame f;
  f.abs_path = std::string(Str(o, "abs_path"));
  f.filename = std::string(Str(o, "filename"));
  f.function = std::string(Str(o, "function"));
  f.lineno = Int(o, "lineno");
  f.colno = Int(o, "colno");
  return f;
}

namespace {

// ResolveFrame; `callee_name` (rule 1, from the caller's token) when not
// empty spares the scan of rule 2.
ResolvedFrame Resolve(const Frame& frame, const SourceMap& map, const ResolveOptions& options,
                      std::string_view callee_name) {
  ResolvedFrame r;
  if (!frame.lineno || !frame.colno || *frame.lineno < 1 || *frame.colno < 1 || *frame.lineno > UINT32_MAX ||
      *frame.colno > UINT32_MAX) {
    r.reason = std::string(kReasonNoLocation);
    return r;
  }
  const Lookup found =
      map.Find(static_cast<uint32_t>(*frame.lineno - 1), static_cast<uint32_t>(*frame.colno - 1));
  if (!found.reason.empty()) {
    r.reason = std::string(found.reason);
    return r;
  }
  const Segment& seg = found.segment;
  r.resolved = true;
  r.source = map.source(seg.source);
  r.lineno = static_cast<int64_t>(seg.original_line) + 1;
  r.colno = static_cast<int64_t>(seg.original_column) + 1;
  if (seg.name != kNone) r.token_name = map.name(seg.name);
  r.function = !callee_name.empty()
                   ? std::string(callee_name)
                   : EnclosingFunctionName(map, seg.source, seg.original_line, seg.original_column);
  if (r.function.empty()) r.function = frame.function;
  if (const auto line = map.content_line(seg.source, seg.original_line)) {
    const size_t n = std::min(options.context_lines, kMaxContextLines);
    r.context_line = Cut(*line);
    const uint32_t first = seg.original_line >= n ? seg.original_line - static_cast<uint32_t>(n) : 0;
    for (uint32_t l = first; l < seg.original_line; ++l)
      r.pre_context.push_back(Cut(*map.content_line(seg.source, l)));
    for (uint32_t l = seg.original_line + 1; l <= seg.original_line + n; ++l) {
      const auto post = map.content_line(seg.source, l);
      if (!post) break;
      r.post_context.push_back(Cut(*post));
    }
  }
  return r;
}

}  // namespace

ResolvedFrame ResolveFrame(const Frame& frame, const SourceMap& map, const ResolveOptions& options) {
  return Resolve(frame, map, options, {});
}

std::vector<ResolvedFrame> ResolveStack(const std::vector<Frame>& frames,
                                        const std::function<MapFor(const Frame&)>& find,
                                        const ResolveOptions& options) {
  std::vector<ResolvedFrame> out;
  out.reserve(frames.size());
  for (const Frame& f : frames) {
    if (!f.lineno || !f.colno) {
      ResolvedFrame r;
      r.reason = std::string(kReasonNoLocation);
      out.push_back(std::move(r));
      continue;
    }
    const MapFor m = find(f);
    if (m.map == nullptr) {
      ResolvedFrame r;
      r.reason = m.reason.empty() ? std::string(kReasonMapNotFound) : m.reason;
      out.push_back(std::move(r));
      continue;
    }
    // Rule 1: the caller's token (the previous frame's) names the callee.
    std::string callee;  // a copy: out grows below
    if (!out.empty() && out.back().resolved) callee = out.back().token_name;
    out.push_back(Resolve(f, *m.map, options, callee));
  }
  return out;
}

namespace {

// pre_context, context_line, post_context when the map had content.
void AddContext(const ResolvedFrame& r, json::object& o) {
  if (r.context_line.empty() && r.pre_context.empty() && r.post_context.empty()) return;
  json::array pre, post;
  for (const auto& l : r.pre_context) pre.emplace_back(l);
  for (const auto& l : r.post_context) post.emplace_back(l);
  o["pre_context"] = std::move(pre);
  o["context_line"] = r.context_line;
  o["post_context"] = std::move(post);
}

}  // namespace

json::object ToJson(const ResolvedFrame& r) {
  json::object o;
  if (!r.resolved) {
    o["reason"] = r.reason;
    return o;
  }
  o["source"] = r.source;
  o["lineno"] = r.lineno;
  o["colno"] = r.colno;
  if (!r.function.empty()) o["function"] = r.function;
  if (!r.token_name.empty()) o["name"] = r.token_name;
  AddContext(r, o);
  return o;
}

void ApplyToFrame(const ResolvedFrame& r, std::string_view resolved_with, json::object& frame) {
  if (!r.resolved) {
    frame["sourcemap"] = json::object{{"reason", r.reason}};
    return;
  }
  json::object minified;
  for (const char* k : {"function", "filename", "abs_path", "lineno", "colno"}) {
    if (const json::value* v = frame.if_contains(k)) minified[k] = *v;
  }
  if (!r.function.empty()) {
    frame["function"] = r.function;
  } else {
    frame.erase("function");
  }
  frame["filename"] = r.source;
  frame["abs_path"] = r.source;
  frame["lineno"] = r.lineno;
  frame["colno"] = r.colno;
  if (!r.token_name.empty()) frame["name"] = r.token_name;
  AddContext(r, frame);
  frame["minified"] = std::move(minified);
  frame["sourcemap"] = json::object{{"resolved_with", resolved_with}};
}

// ---- Matching ----

std::string NormalizeDebugId(std::string_view id) {
  std::string hex;
  hex.reserve(32);
  for (char c : id) {
    if (c == '-') continue;
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return {};
    if (hex.size() == 32) return {};
    hex += c;
  }
  if (hex.size() != 32) return {};
  // Dashes, when present, only where a UUID has them.
  if (id.size() != 32) {
    if (id.size() != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-') return {};
  }
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

std::vector<DebugImage> SourceMapImages(const json::object& event) {
  std::vector<DebugImage> out;
  const json::value* dm = event.if_contains("debug_meta");
  if (dm == nullptr || !dm->is_object()) return out;
  const json::value* images = dm->get_object().if_contains("images");
  if (images == nullptr || !images->is_array()) return out;
  for (const json::value& v : images->get_array()) {
    if (out.size() >= kMaxDebugImages) break;
    const json::object* img = v.if_object();
    if (img == nullptr || Str(*img, "type") != "sourcemap") continue;
    const std::string_view code_file = Str(*img, "code_file");
    std::string id = NormalizeDebugId(Str(*img, "debug_id"));
    if (code_file.empty() || id.empty()) continue;
    out.push_back({std::string(code_file), std::move(id)});
  }
  return out;
}

namespace {

// The URL without its query and fragment.
std::string_view StripQuery(std::string_view url) {
  const size_t q = url.find_first_of("?#");
  return q == std::string_view::npos ? url : url.substr(0, q);
}

}  // namespace

std::string NormalizeUrlPath(std::string_view url) {
  url = StripQuery(url);
  if (url.size() >= 1 && url[0] == '~') return std::string(url.substr(1));
  // scheme://authority/path
  const size_t scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos && scheme_end > 0) {
    bool scheme = true;
    for (size_t i = 0; i < scheme_end; ++i) {
      const char c = url[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))))
        scheme = false;
    }
    if (scheme) {
      const std::string_view rest = url.substr(scheme_end + 3);
      const size_t slash = rest.find('/');
      return slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
    }
  }
  return std::string(url);
}

std::string DebugIdForFrame(const std::vector<DebugImage>& images, std::string_view frame_url) {
  if (frame_url.empty()) return {};
  for (const DebugImage& i : images) {
    if (i.code_file == frame_url) return i.debug_id;
  }
  const std::string path = NormalizeUrlPath(frame_url);
  for (const DebugImage& i : images) {
    if (NormalizeUrlPath(i.code_file) == path) return i.debug_id;
  }
  return {};
}

bool ArtifactMatchesUrl(std::string_view artifact_name, std::string_view frame_url) {
  if (artifact_name.empty() || frame_url.empty()) return false;
  if (artifact_name.front() == '~') return NormalizeUrlPath(artifact_name) == NormalizeUrlPath(frame_url);
  return StripQuery(artifact_name) == StripQuery(frame_url);
}

std::string SourceMappingUrl(std::string_view minified) {
  constexpr std::string_view kMarker = "sourceMappingURL=";
  size_t best = std::string_view::npos;
  for (const std::string_view marker : {"//# sourceMappingURL=", "//@ sourceMappingURL="}) {
    const size_t at = minified.rfind(marker);
    if (at != std::string_view::npos && (best == std::string_view::npos || at > best)) best = at;
  }
  if (best == std::string_view::npos) return {};
  std::string_view rest = minified.substr(best + 4 + kMarker.size());
  rest = rest.substr(0, rest.find_first_of(" \t\r\n"));
  return std::string(rest.substr(0, 2048));
}

}  // namespace service::domain::sourcemaps
