#include "areas/sentry/domain/event.h"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>

#include "areas/capture/domain/text.h"
#include "util/time.h"

namespace service::domain::sentry {
namespace {

namespace json = boost::json;

constexpr size_t kMaxStringBytes = 8 * 1024;         // one breadcrumb message, one exception value
constexpr size_t kMaxMetadataPartBytes = 16 * 1024;  // tags, contexts, extra each
constexpr size_t kMaxFrames = 100;

std::string_view Str(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

// Valid UTF-8 (invalid bytes become U+FFFD) cut to `max_bytes` on a
// character boundary, line breaks kept (stacks, multi-line messages).
std::string KeepText(std::string_view s, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(s.size(), max_bytes));
  for (size_t i = 0; i < s.size();) {
    const size_t l = text::Utf8SeqLen(s, i);
    const std::string_view ch = l != 0 ? s.substr(i, l) : std::string_view("\xEF\xBF\xBD");
    if (out.size() + ch.size() > max_bytes) break;
    out.append(ch);
    i += l != 0 ? l : 1;
  }
  return out;
}

const json::object* Obj(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

std::optional<std::string> Opt(std::string_view s, size_t max = 1000) {
  std::string clean = text::CleanText(s, max);
  if (clean.empty()) return std::nullopt;
  return clean;
}

// A list that Sentry sends either as {values: [...]} or as a bare array.
const json::array* Values(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return nullptr;
  if (const json::array* a = v->if_array()) return a;
  if (const json::object* w = v->if_object()) {
    if (const json::value* vals = w->if_contains("values")) return vals->if_array();
  }
  return nullptr;
}

// About the bytes `v` takes as JSON text (strings unescaped; numbers
// counted as 8), without serializing it; stops counting past `limit`.
size_t ApproxSize(const json::value& v, size_t limit) {
  switch (v.kind()) {
    case json::kind::string:
      return v.get_string().size() + 2;
    case json::kind::object: {
      size_t n = 2;
      for (const auto& [k, x] : v.get_object()) {
        n += k.size() + 4 + ApproxSize(x, limit);
        if (n > limit) return n;
      }
      return n;
    }
    case json::kind::array: {
      size_t n = 2;
      for (const json::value& x : v.get_array()) {
        n += 1 + ApproxSize(x, limit);
        if (n > limit) return n;
      }
      return n;
    }
    default:
      return 8;
  }
}

// `v` copied into `sp` when its text stays within about `max` bytes, else a
// note in its place.
json::value Bounded(const json::value& v, size_t max, const json::storage_ptr& sp) {
  const size_t size = ApproxSize(v, max);
  if (size <= max) return json::value(v, sp);
  return json::object({{"truncated", true}, {"bytes", size}}, sp);
}

std::string OneLine(std::string_view s, size_t max_chars) {
  std::string out = text::CleanText(s, max_chars * 4);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  // Cut to max_chars code points.
  size_t chars = 0, i = 0;
  for (; i < out.size(); ++i) {
    if (!text::IsContinuation(static_cast<unsigned char>(out[i]))) {
      if (chars == max_chars) break;
      ++chars;
    }
  }
  out.resize(i);
  return out;
}

std::string MessageOf(const json::object& e) {
  if (const json::object* le = Obj(e, "logentry")) {
    if (!Str(*le, "formatted").empty()) return std::string(Str(*le, "formatted"));
    if (!Str(*le, "message").empty()) return std::string(Str(*le, "message"));
  }
  if (const json::value* m = e.if_contains("message")) {
    if (m->is_string()) return std::string(m->get_string());
    if (const json::object* mo = m->if_object()) {
      if (!Str(*mo, "formatted").empty()) return std::string(Str(*mo, "formatted"));
      return std::string(Str(*mo, "message"));
    }
  }
  return {};
}

std::string ExceptionLine(const json::object& ex) {
  const std::string_view type = Str(ex, "type"), value = Str(ex, "value");
  if (!type.empty() && !value.empty()) return std::string(type) + ": " + std::string(value);
  return std::string(!type.empty() ? type : value);
}

}  // namespace

std::string StackText(const json::array& frames, std::string_view headline) {
  std::string out(headline);
  size_t n = 0;
  for (auto it = frames.rbegin(); it != frames.rend() && n < kMaxFrames; ++it, ++n) {
    const json::object* f = it->if_object();
    if (f == nullptr) continue;
    std::string_view fn = Str(*f, "function");
    std::string_view file = Str(*f, "abs_path");
    if (file.empty()) file = Str(*f, "filename");
    if (file.empty()) file = Str(*f, "module");
    out += "\n    at ";
    out += fn.empty() ? "<anonymous>" : std::string(fn);
    out += " (" + std::string(file.empty() ? "<unknown>" : file);
    if (const json::value* l = f->if_contains("lineno"); l != nullptr && l->is_int64()) {
      out += ":" + std::to_string(l->get_int64());
      if (const json::value* c = f->if_contains("colno"); c != nullptr && c->is_int64())
        out += ":" + std::to_string(c->get_int64());
    }
    out += ")";
  }
  return KeepText(out, 64 * 1024);
}

namespace {

json::array FramesJson(const json::array& frames, const json::storage_ptr& sp) {
  json::array out(sp);
  const size_t skip = frames.size() > kMaxFrames ? frames.size() - kMaxFrames : 0;
  for (size_t i = skip; i < frames.size(); ++i) {
    const json::object* f = frames[i].if_object();
    if (f == nullptr) continue;
    json::object o(sp);
    for (const char* k : {"function", "module", "filename", "abs_path", "package"}) {
      if (!Str(*f, k).empty()) o[k] = text::CleanText(Str(*f, k), 1024);
    }
    for (const char* k : {"lineno", "colno"}) {
      if (const json::value* v = f->if_contains(k); v != nullptr && v->is_int64()) o[k] = v->get_int64();
    }
    if (const json::value* v = f->if_contains("in_app"); v != nullptr && v->is_bool())
      o["in_app"] = v->get_bool();
    if (!Str(*f, "context_line").empty()) o["context_line"] = text::CleanText(Str(*f, "context_line"), 1024);
    out.push_back(std::move(o));
  }
  return out;
}

// One breadcrumb as a native event.
domain::capture::Event CrumbEvent(const json::object& b, int64_t fallback_ms, const json::storage_ptr& sp) {
  domain::capture::Event ev;
  const std::string_view category = Str(b, "category");
  const std::string_view type = Str(b, "type");
  const json::object* data = Obj(b, "data");
  json::object d(sp);
  if (!category.empty()) d["category"] = text::CleanText(category, 200);
  if (!Str(b, "message").empty()) d["message"] = KeepText(Str(b, "message"), kMaxStringBytes);
  if (!Str(b, "level").empty()) d["level"] = text::CleanText(Str(b, "level"), 50);
  if (category == "console") {
    ev.type = "console";
  } else if (category == "fetch" || category == "xhr" || type == "http" || category == "http" ||
             category == "httplib" || category == "requests") {
    ev.type = "network";
    if (data != nullptr) {
      if (!Str(*data, "url").empty()) d["url"] = text::CleanText(Str(*data, "url"), 2000);
      if (!Str(*data, "method").empty()) d["method"] = text::CleanText(Str(*data, "method"), 20);
      if (const json::value* s = data->if_contains("status_code"); s != nullptr && s->is_int64())
        d["status"] = s->get_int64();
    }
  } else if (category == "navigation" || type == "navigation") {
    ev.type = "navigation";
    if (data != nullptr) {
      if (!Str(*data, "from").empty()) d["from"] = text::CleanText(Str(*data, "from"), 2000);
      if (!Str(*data, "to").empty()) d["to"] = text::CleanText(Str(*data, "to"), 2000);
    }
  } else if (category.starts_with("ui.click") || category == "ui.tap") {
    ev.type = "click";
    if (!Str(b, "message").empty()) d["target"] = text::CleanText(Str(b, "message"), 500);
  } else if (category == "sentry.event" || category == "sentry.transaction") {
    ev.type = "breadcrumb";
  } else {
    ev.type = "breadcrumb";
  }
  if (data != nullptr && !d.contains("url")) d["data"] = Bounded(*data, 4096, sp);
  if (ev.type == "console" && Str(b, "level") == "error") d["level"] = "error";
  ev.timestamp_ms = fallback_ms;
  if (const json::value* ts = b.if_contains("timestamp")) {
    if (auto ms = TimestampMs(*ts)) ev.timestamp_ms = *ms;
  }
  ev.data = std::move(d);
  return ev;
}

}  // namespace

std::string SeverityFor(std::string_view level) {
  if (level == "fatal" || level == "critical") return "critical";
  if (level == "warning" || level == "warn") return "medium";
  if (level == "info" || level == "debug" || level == "log") return "low";
  return "high";
}

std::string PlatformFor(std::string_view platform, std::string_view sdk_name, std::string_view os_name) {
  const std::string os = text::LowerAsciiCopy(os_name);
  const std::string sdk = text::LowerAsciiCopy(sdk_name);
  if (sdk.find("react-native") != std::string::npos || sdk.find("react_native") != std::string::npos)
    return "react-native";
  if (platform == "dart" || platform == "flutter" || sdk.find("dart") != std::string::npos ||
      sdk.find("flutter") != std::string::npos)
    return "flutter";
  if (platform == "cocoa" || platform == "objc" || platform == "swift" ||
      sdk.find("cocoa") != std::string::npos)
    return os.find("mac") != std::string::npos ? "server" : "ios";
  if (sdk.find("android") != std::string::npos || os == "android") return "android";
  if (platform == "javascript") {
    if (sdk.find("node") != std::string::npos || sdk.find("bun") != std::string::npos ||
        sdk.find("deno") != std::string::npos || sdk.find("serverless") != std::string::npos)
      return "server";
    return "web";
  }
  static constexpr std::string_view kServer[] = {"node", "python", "java",    "go",    "ruby",
                                                 "php",  "csharp", "elixir",  "perl",  "native",
                                                 "c",    "rust",   "clojure", "groovy"};
  for (std::string_view s : kServer) {
    if (platform == s) return "server";
  }
  return "other";
}

std::optional<int64_t> TimestampMs(const json::value& v) {
  double seconds = 0;
  if (v.is_double()) {
    seconds = v.get_double();
  } else if (v.is_int64()) {
    seconds = static_cast<double>(v.get_int64());
  } else if (v.is_uint64()) {
    seconds = static_cast<double>(v.get_uint64());
  } else if (v.is_string()) {
    return util::ParseIso8601(v.get_string());
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 253402300799.0) return std::nullopt;
  return static_cast<int64_t>(std::llround(seconds * 1000.0));
}

std::string NormalizeEventId(std::string_view id) {
  std::string out;
  out.reserve(32);
  for (char c : id) {
    if (c == '-') continue;
    if (!text::IsHex(c)) return {};
    out.push_back(text::LowerAscii(c));
  }
  return out.size() == 32 ? out : std::string();
}

MappedEvent MapEvent(const json::object& e, int64_t received_ms, json::storage_ptr sp) {
  MappedEvent m;
  m.metadata = json::object(sp);
  m.event_id = NormalizeEventId(Str(e, "event_id"));
  int64_t at = received_ms;
  if (const json::value* ts = e.if_contains("timestamp")) {
    if (auto ms = TimestampMs(*ts)) at = *ms;
  }
  if (const json::value* level = e.if_contains("level"); level != nullptr && level->is_string()) {
    m.severity = SeverityFor(level->get_string());
  }
  m.release = Opt(Str(e, "release"), 200);
  m.environment = Opt(Str(e, "environment"), 100);

  std::string sdk_name, sdk_version;
  if (const json::object* sdk = Obj(e, "sdk")) {
    sdk_name = text::CleanText(Str(*sdk, "name"), 200);
    sdk_version = text::CleanText(Str(*sdk, "version"), 100);
  }
  std::string os_name;
  if (const json::object* contexts = Obj(e, "contexts")) {
    if (const json::object* os = Obj(*contexts, "os")) os_name = std::string(Str(*os, "name"));
  }
  m.platform = PlatformFor(Str(e, "platform"), sdk_name, os_name);

  if (const json::object* req = Obj(e, "request")) {
    m.url = text::CleanText(Str(*req, "url"), 2000);
    if (const json::value* h = req->if_contains("headers")) {
      if (const json::object* ho = h->if_object()) {
        for (const auto& [k, v] : *ho) {
          if (text::LowerAsciiCopy(k) == "user-agent" && v.is_string())
            m.user_agent = Opt(v.get_string(), 1000);
        }
      } else if (const json::array* ha = h->if_array()) {  // [[name, value], ...]
        for (const json::value& pair : *ha) {
          const json::array* p = pair.if_array();
          if (p != nullptr && p->size() == 2 && (*p)[0].is_string() && (*p)[1].is_string() &&
              text::LowerAsciiCopy((*p)[0].get_string()) == "user-agent") {
            m.user_agent = Opt((*p)[1].get_string(), 1000);
          }
        }
      }
    }
  }
  if (const json::object* user = Obj(e, "user")) {
    if (const json::value* id = user->if_contains("id")) {
      if (id->is_string()) m.user_id = Opt(id->get_string(), 200);
      if (id->is_int64()) m.user_id = std::to_string(id->get_int64());
    }
    m.user_email = Opt(Str(*user, "email"), 320);
    const std::string_view ip = Str(*user, "ip_address");
    if (!ip.empty() && ip != "{{auto}}") m.ip_address = std::string(ip.substr(0, 64));
  }

  // Breadcrumbs first, in the order sent.
  if (const json::array* crumbs = Values(e, "breadcrumbs")) {
    for (const json::value& v : *crumbs) {
      if (m.events.size() + 1 >= kMaxEvents) break;  // room for the exception
      if (const json::object* b = v.if_object()) m.events.push_back(CrumbEvent(*b, at, sp));
    }
  }

  // The exception: Sentry lists a chain innermost first; the last is the
  // one that was raised (the outermost).
  const json::array* exceptions = Values(e, "exception");
  const json::object* outer = nullptr;
  if (exceptions != nullptr) {
    for (auto it = exceptions->rbegin(); it != exceptions->rend() && outer == nullptr; ++it)
      outer = it->if_object();
  }
  const std::string message = MessageOf(e);
  if (outer != nullptr) {
    const std::string line = ExceptionLine(*outer);
    m.title =
        OneLine(line.empty() ? (message.empty() ? "<unlabeled event>" : message) : line, kMaxTitleChars);
    json::object d(sp);
    d["name"] = text::CleanText(Str(*outer, "type"), 200);
    d["message"] = KeepText(Str(*outer, "value"), kMaxStringBytes);
    if (const json::object* st = Obj(*outer, "stacktrace")) {
      if (const json::value* fr = st->if_contains("frames"); fr != nullptr && fr->is_array()) {
        d["stack"] = StackText(fr->get_array(), line);
        d["frames"] = FramesJson(fr->get_array(), sp);
      }
    }
    if (const json::object* mech = Obj(*outer, "mechanism")) d["mechanism"] = Bounded(*mech, 2048, sp);
    json::array chain(sp);
    std::string description = line;
    for (auto it = exceptions->rbegin(); it != exceptions->rend(); ++it) {
      const json::object* ex = it->if_object();
      if (ex == nullptr || ex == outer) continue;
      const std::string inner = ExceptionLine(*ex);
      chain.push_back(json::object({{"name", text::CleanText(Str(*ex, "type"), 200)},
                                    {"message", KeepText(Str(*ex, "value"), kMaxStringBytes)}},
                                   sp));
      description += "\nCaused by: " + inner;
    }
    if (!chain.empty()) d["chain"] = std::move(chain);
    if (!message.empty()) description += "\n" + message;
    m.description = KeepText(description, 10'000);
    m.events.push_back(domain::capture::Event{"error", at, std::move(d)});
  } else {
    m.is_message = true;
    m.title = OneLine(message.empty() ? "<unlabeled event>" : message, kMaxTitleChars);
    m.description = KeepText(message, 10'000);
    m.events.push_back(domain::capture::Event{"message", at,
                                              json::object({{"message", KeepText(message, kMaxStringBytes)},
                                                            {"level", text::CleanText(Str(e, "level"), 50)}},
                                                           sp)});
  }
  if (m.title.empty()) m.title = "<unlabeled event>";

  if (const json::value* fp = e.if_contains("fingerprint"); fp != nullptr && fp->is_array()) {
    for (const json::value& part : fp->get_array()) {
      if (part.is_string() && m.fingerprint.size() < 50)
        m.fingerprint.push_back(text::CleanText(part.get_string(), 500));
    }
  }

  json::object sentry({{"event_id", m.event_id}, {"platform", text::CleanText(Str(e, "platform"), 50)}}, sp);
  if (!sdk_name.empty()) sentry["sdk"] = json::object({{"name", sdk_name}, {"version", sdk_version}}, sp);
  for (const char* k : {"logger", "server_name", "transaction", "culprit", "dist"}) {
    if (!Str(e, k).empty()) sentry[k] = text::CleanText(Str(e, k), 500);
  }
  for (const char* k : {"tags", "contexts", "extra"}) {
    if (const json::value* v = e.if_contains(k); v != nullptr && !v->is_null()) {
      sentry[k] = Bounded(*v, kMaxMetadataPartBytes, sp);
    }
  }
  m.metadata["sentry"] = std::move(sentry);
  return m;
}

}  // namespace service::domain::sentry
