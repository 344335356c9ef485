#include "areas/capture/domain/fingerprint.h"

#include <array>

#include "areas/capture/domain/normalize.h"
#include "areas/capture/domain/text.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::capture {
namespace {

using text::ContainsCi;
using text::LowerAscii;

constexpr std::array<std::string_view, 7> kErrorTypes = {
    "error", "exception", "unhandledrejection", "uncaught", "crash", "fatal", "panic"};
constexpr std::array<std::string_view, 4> kErrorTypeParts = {"error", "exception", "rejection", "crash"};
// Endings of a class name in a message prefix.
constexpr std::array<std::string_view, 7> kClassEndings = {"error", "exception", "fault",    "failure",
                                                           "panic", "warning",   "rejection"};

bool EqualsCi(std::string_view a, std::string_view lower_b) {
  if (a.size() != lower_b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (LowerAscii(a[k]) != lower_b[k]) return false;
  }
  return true;
}

bool EndsWithCi(std::string_view s, std::string_view lower_suffix) {
  return s.size() >= lower_suffix.size() && EqualsCi(s.substr(s.size() - lower_suffix.size()), lower_suffix);
}

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) > 0x20) return false;
  }
  return true;
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  return s;
}

// Drops the prefixes browsers add to uncaught errors.
std::string_view StripUncaught(std::string_view s) {
  s = TrimLeft(s);
  for (std::string_view prefix : {"Uncaught (in promise) ", "Uncaught "}) {
    if (s.starts_with(prefix)) return TrimLeft(s.substr(prefix.size()));
  }
  return s;
}

// The objects an error may sit in: data, data.error, data.exception, data.reason.
std::array<const boost::json::value*, 4> ErrorObjects(const boost::json::value& data) {
  return {&data, JsonField(data, "error"), JsonField(data, "exception"), JsonField(data, "reason")};
}

// `TypeError` from "TypeError: x" (after StripUncaught), or empty.
std::string_view ClassPrefix(std::string_view message) {
  message = StripUncaught(message);
  size_t k = 0;
  while (k < message.size() && k <= kMaxErrorTypeBytes) {
    const char c = message[k];
    if (!(text::IsAlnum(c) || c == '_' || c == '$' || c == '.')) break;
    ++k;
  }
  if (k == 0 || k > kMaxErrorTypeBytes || k >= message.size() || message[k] != ':') return {};
  if (k + 1 < message.size() && message[k + 1] != ' ') return {};
  const std::string_view name = message.substr(0, k);
  if (name.front() == '.' || name.back() == '.' || text::IsDigit(name.front())) return {};
  const size_t dot = name.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (std::string_view ending : kClassEndings) {
    if (EndsWithCi(last, ending)) return name;
  }
  return {};
}

std::string ClassOf(const Event& event) {
  for (const boost::json::value* obj : ErrorObjects(event.data)) {
    if (obj == nullptr) continue;
    for (std::string_view key : {"name", "type"}) {
      const std::string_view v = JsonString(*obj, key);
      if (!IsBlank(v)) return text::CleanText(v, kMaxErrorTypeBytes);
    }
  }
  if (const std::string_view p = ClassPrefix(ErrorEventMessage(event)); !p.empty()) return std::string(p);
  std::string_view stack = JsonString(event.data, "stack");
  if (stack.empty()) {
    if (const boost::json::value* err = JsonField(event.data, "error")) stack = JsonString(*err, "stack");
  }
  if (const std::string_view p = ClassPrefix(stack.substr(0, stack.find('\n'))); !p.empty()) {
    return std::string(p);
  }
  std::string type = text::CleanText(event.type, kMaxErrorTypeBytes);
  return type.empty() ? std::string("error") : type;
}

const Event* FirstErrorEvent(std::span<const Event> events) {
  for (const Event& e : events) {
    if (IsErrorEventType(e.type)) return &e;
  }
  return nullptr;
}

}  // namespace

bool IsErrorEventType(std::string_view type) {
  for (std::string_view t : kErrorTypes) {
    if (EqualsCi(type, t)) return true;
  }
  for (std::string_view part : kErrorTypeParts) {
    if (ContainsCi(type, part)) return true;
  }
  return false;
}

std::string_view ErrorEventMessage(const Event& event) {
  if (event.data.is_string()) {
    const boost::json::string& s = event.data.get_string();
    return {s.data(), s.size()};
  }
  for (const boost::json::value* obj : ErrorObjects(event.data)) {
    if (obj == nullptr) continue;
    for (std::string_view key : {"message", "value"}) {
      const std::string_view v = JsonString(*obj, key);
      if (!IsBlank(v)) return v;
    }
  }
  const std::string_view reason = JsonString(event.data, "reason");
  return IsBlank(reason) ? std::string_view() : reason;
}

bool FingerprintsAsManual(std::span<const Event> events, bool console_manual, bool marked_user_report) {
  return console_manual || marked_user_report || FirstErrorEvent(events) == nullptr;
}

std::string ErrorType(std::span<const Event> events, bool is_manual) {
  if (is_manual) return "manual";
  const Event* error = FirstErrorEvent(events);
  return error == nullptr ? std::string("auto") : ClassOf(*error);
}

std::string FingerprintMessage(std::span<const Event> events, bool is_manual, std::string_view title) {
  if (is_manual) return std::string(title);
  const Event* error = FirstErrorEvent(events);
  if (error == nullptr) return std::string(title);
  std::string_view message = StripUncaught(ErrorEventMessage(*error));
  const std::string cls = ClassOf(*error);
  if (message.size() > cls.size() && message.starts_with(cls) && message[cls.size()] == ':') {
    message = TrimLeft(message.substr(cls.size() + 1));
  }
  if (IsBlank(message)) return std::string(title);
  return std::string(message);
}

namespace {

Fingerprint FingerprintOf(std::string_view error_type, std::string normalized, std::string_view url) {
  Fingerprint fp;
  fp.error_type = std::string(error_type);
  fp.normalized_message = std::move(normalized);
  fp.url_pattern = UrlPattern(url);
  fp.canonical.reserve(fp.error_type.size() + fp.normalized_message.size() + fp.url_pattern.size() + 2);
  fp.canonical.append(fp.error_type)
      .append(":")
      .append(fp.normalized_message)
      .append(":")
      .append(fp.url_pattern);
  fp.sha256_hex = util::Sha256Hex(fp.canonical);
  for (char& c : fp.sha256_hex) c = LowerAscii(c);
  fp.short_hex = fp.sha256_hex.substr(0, kFingerprintLength);
  if (fp.error_type != "manual") {
    fp.signature = fp.error_type + ":" + fp.normalized_message;
    fp.signature.resize(util::Utf8Prefix(fp.signature, kMaxSignatureBytes).size());
    std::string hex = util::Sha256Hex(fp.signature);
    for (char& c : hex) c = LowerAscii(c);
    fp.signature_hash = hex.substr(0, kFingerprintLength);
  }
  return fp;
}

// Whitespace collapsed and trimmed, cut to `max` bytes on a character boundary.
std::string Collapsed(std::string_view s, size_t max) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (static_cast<unsigned char>(c) <= 0x20) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  out.resize(util::Utf8Prefix(out, max).size());
  return out;
}

}  // namespace

Fingerprint ComputeFingerprint(std::string_view error_type, std::string_view message, std::string_view url) {
  return FingerprintOf(error_type, NormalizeMessage(message), url);
}

std::string MappedStackKey(std::span<const Event> events) {
  const Event* error = FirstErrorEvent(events);
  if (error == nullptr) return {};
  const boost::json::value* frames = JsonField(error->data, "frames");
  if (frames == nullptr || !frames->is_array()) return {};
  const boost::json::array& list = frames->get_array();
  std::string key;
  size_t taken = 0;
  for (auto it = list.rbegin(); it != list.rend() && taken < kMaxMappedFrames; ++it) {
    const boost::json::value* minified = JsonField(*it, "minified");
    if (minified == nullptr || !minified->is_object()) continue;  // not resolved
    if (const boost::json::value* in_app = JsonField(*it, "in_app");
        in_app != nullptr && in_app->is_bool() && !in_app->get_bool()) {
      continue;
    }
    key += taken == 0 ? "stack:" : " <- ";
    key += Collapsed(JsonString(*it, "function"), 200);
    key += " (" + Collapsed(JsonString(*it, "filename"), 300) + ")";
    if (std::string line = Collapsed(JsonString(*it, "context_line"), kMaxContextBytes); !line.empty())
      key += " " + line;
    ++taken;
  }
  return key;
}

Fingerprint ComputeStackFingerprint(std::string_view error_type, std::string_view stack_key,
                                    std::string_view url) {
  return FingerprintOf(error_type, std::string(stack_key), url);
}

Fingerprint CustomFingerprint(std::span<const std::string> parts, const Fingerprint& native) {
  Fingerprint fp;
  fp.error_type = native.error_type;
  fp.normalized_message = native.normalized_message;
  fp.canonical = "custom";
  for (const std::string& part : parts) {
    std::string compact;
    for (char c : part) {
      if (c != ' ') compact.push_back(c);
    }
    fp.canonical.push_back('\x1f');
    fp.canonical += compact == "{{default}}" ? native.canonical : part;
  }
  fp.sha256_hex = util::Sha256Hex(fp.canonical);
  for (char& c : fp.sha256_hex) c = LowerAscii(c);
  fp.short_hex = fp.sha256_hex.substr(0, kFingerprintLength);
  fp.signature = fp.canonical;
  fp.signature.resize(util::Utf8Prefix(fp.signature, kMaxSignatureBytes).size());
  fp.signature_hash = fp.short_hex;
  return fp;
}

Fingerprint FingerprintReport(std::span<const Event> events, bool is_manual, std::string_view title,
                              std::string_view url) {
  return ComputeFingerprint(ErrorType(events, is_manual), FingerprintMessage(events, is_manual, title), url);
}

}  // namespace service::domain::capture
