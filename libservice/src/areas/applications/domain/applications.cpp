#include "areas/applications/domain/applications.h"

#include <boost/json.hpp>

#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::applications {
namespace {

namespace json = boost::json;

Status Invalid(std::string message) {
  return Status(Code::kInvalidArgument, std::move(message), std::string(kValidationError));
}

bool HasControl(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

bool HasSpaceOrControl(std::string_view s) {
  for (unsigned char c : s) {
    if (c <= 0x20 || c == 0x7f) return true;
  }
  return false;
}

// A string member as text (nullopt when absent); a member of another type
// or with invalid UTF-8: an error naming it.
Result<std::optional<std::string>> StringMember(const json::object& o, std::string_view key,
                                                bool null_is_absent = false) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || (null_is_absent && v->is_null())) return std::optional<std::string>();
  if (!v->is_string()) return Invalid(std::string(key) + " must be a string");
  std::string s(v->get_string());
  if (!util::IsValidUtf8(s)) return Invalid(std::string(key) + " must be valid UTF-8");
  return std::optional<std::string>(std::move(s));
}

Status CheckKeys(const json::value& body, std::initializer_list<std::string_view> allowed) {
  if (!body.is_object()) return Invalid("Body must be a JSON object");
  for (const auto& [key, value] : body.get_object()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) return Invalid("Unknown field: " + std::string(key));
  }
  return Status::Ok();
}

Result<std::string> RequestId(const json::object& o) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> id, StringMember(o, "requestId"));
  if (!id) return Invalid("requestId is required");
  std::string lower = util::ToLower(*id);
  if (!util::IsUuid(lower)) return Invalid("requestId must be a UUID");
  return lower;
}

// A required token-like field: 1..max characters, no white space or control.
Result<std::string> Token(const json::object& o, std::string_view key, size_t max) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> s, StringMember(o, key));
  if (!s) return Invalid(std::string(key) + " is required");
  if (s->empty()) return Invalid(std::string(key) + " must not be empty");
  if (util::Utf8Length(*s) > max)
    return Invalid(std::string(key) + " must be at most " + std::to_string(max) + " characters");
  if (HasSpaceOrControl(*s)) return Invalid(std::string(key) + " must not contain white space");
  return std::move(*s);
}

// Display text: trimmed, 1..max characters, no control characters.
Result<std::string> Text(std::optional<std::string> s, std::string_view key, size_t max) {
  if (!s) return Invalid(std::string(key) + " is required");
  std::string t = util::Trim(*s);
  if (t.empty()) return Invalid(std::string(key) + " must not be empty");
  if (util::Utf8Length(t) > max)
    return Invalid(std::string(key) + " must be at most " + std::to_string(max) + " characters");
  if (HasControl(t)) return Invalid(std::string(key) + " must not contain control characters");
  return t;
}

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

std::string_view KindTag(ListKind kind) {
  switch (kind) {
    case ListKind::kApplications:
      return "a";
    case ListKind::kInstallations:
      return "i";
    case ListKind::kBuilds:
      return "b";
  }
  return "?";
}

constexpr size_t kMaxCursorChars = 400;

}  // namespace

Result<ApplicationRequest> ParseApplicationRequest(const json::value& body) {
  SV_RETURN_IF_ERROR(CheckKeys(body, {"requestId", "name", "identifier"}));
  const json::object& o = body.get_object();
  ApplicationRequest r;
  SV_ASSIGN_OR_RETURN(r.request_id, RequestId(o));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> name, StringMember(o, "name"));
  SV_ASSIGN_OR_RETURN(r.name, Text(std::move(name), "name", kMaxNameChars));
  SV_ASSIGN_OR_RETURN(r.identifier, Token(o, "identifier", kMaxIdentifierChars));
  return r;
}

Result<InstallationRequest> ParseInstallationRequest(const json::value& body) {
  SV_RETURN_IF_ERROR(CheckKeys(body, {"requestId", "label"}));
  const json::object& o = body.get_object();
  InstallationRequest r;
  SV_ASSIGN_OR_RETURN(r.request_id, RequestId(o));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> label, StringMember(o, "label", /*null_is_absent=*/true));
  if (label) {
    SV_ASSIGN_OR_RETURN(std::string text, Text(std::move(label), "label", kMaxLabelChars));
    r.label = std::move(text);
  }
  return r;
}

Result<BuildRequest> ParseBuildRequest(const json::value& body) {
  SV_RETURN_IF_ERROR(CheckKeys(body, {"requestId", "sourceRevision", "artifactSha256"}));
  const json::object& o = body.get_object();
  BuildRequest r;
  SV_ASSIGN_OR_RETURN(r.request_id, RequestId(o));
  SV_ASSIGN_OR_RETURN(r.source_revision, Token(o, "sourceRevision", kMaxSourceRevisionChars));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> sha, StringMember(o, "artifactSha256"));
  if (!sha) return Invalid("artifactSha256 is required");
  if (!IsHex64(*sha)) return Invalid("artifactSha256 must be 64 hexadecimal digits (SHA-256)");
  r.artifact_sha256 = util::ToLower(*sha);
  return r;
}

bool IsUsableClientCaptureId(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (unsigned char c : id) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

ReceiptDecision DecideReceipt(const domain::capture::CaptureIdentity& id, std::string_view platform,
                              bool native_receipts_enabled) {
  if (id.application_id.empty() || id.installation_id.empty()) return ReceiptDecision::kNoIds;
  if (id.sdk_name == kBrowserSdk) {
    if (id.sdk_version.empty()) return ReceiptDecision::kNoSdkVersion;
    if (platform != "web") return ReceiptDecision::kBrowserPlatform;
    if (id.source != "automatic" && id.source != "user_report") return ReceiptDecision::kBrowserSource;
    return ReceiptDecision::kQualifies;
  }
  if (id.sdk_name == kSwiftSdk) {
    if (id.sdk_version.empty()) return ReceiptDecision::kNoSdkVersion;
    if (!native_receipts_enabled) return ReceiptDecision::kNativeDisabled;
    if (id.framework != "native") return ReceiptDecision::kNativeFramework;
    if (id.runtime != "swift") return ReceiptDecision::kNativeRuntime;
    if (id.source != "handled_error" && id.source != "user_report") return ReceiptDecision::kNativeSource;
    const bool ios = platform == "ios" && id.os_family == "ios";
    const bool macos = platform == "other" && id.os_family == "macos";
    if (!ios && !macos) return ReceiptDecision::kNativePlatformOs;
    return ReceiptDecision::kQualifies;
  }
  return ReceiptDecision::kUnknownSdk;
}

std::string_view ReceiptDecisionName(ReceiptDecision d) {
  switch (d) {
    case ReceiptDecision::kQualifies:
      return "qualifies";
    case ReceiptDecision::kNoIds:
      return "no_ids";
    case ReceiptDecision::kUnknownSdk:
      return "unknown_sdk";
    case ReceiptDecision::kNoSdkVersion:
      return "no_sdk_version";
    case ReceiptDecision::kBrowserPlatform:
      return "browser_platform";
    case ReceiptDecision::kBrowserSource:
      return "browser_source";
    case ReceiptDecision::kNativeDisabled:
      return "native_disabled";
    case ReceiptDecision::kNativeFramework:
      return "native_framework";
    case ReceiptDecision::kNativeRuntime:
      return "native_runtime";
    case ReceiptDecision::kNativeSource:
      return "native_source";
    case ReceiptDecision::kNativePlatformOs:
      return "native_platform_os";
  }
  return "unknown";
}

// "c1|<kind>|<parent id>|<created_at>|<row id>", base64url without padding.
std::string EncodeCursor(ListKind kind, std::string_view parent_id, const CursorPosition& after) {
  std::string text = "c1|";
  text += KindTag(kind);
  text += '|';
  text += parent_id;
  text += '|';
  text += std::to_string(after.created_at);
  text += '|';
  text += after.id;
  return util::Base64UrlEncode(text);
}

Result<CursorPosition> DecodeCursor(ListKind kind, std::string_view parent_id, std::string_view cursor) {
  const Status garbled(Code::kInvalidArgument, "cursor is not a cursor of this list",
                       std::string(kInvalidCursor));
  if (cursor.empty() || cursor.size() > kMaxCursorChars) return garbled;
  for (char c : cursor) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return garbled;
  }
  std::string text;
  if (!util::Base64UrlDecode(cursor, &text)) return garbled;
  const std::vector<std::string> parts = util::Split(text, '|');
  if (parts.size() != 5 || parts[0] != "c1" || parts[1].size() != 1) return garbled;
  const std::optional<int64_t> at = util::ParseInt(parts[3]);
  if (!at || *at < 0 || !util::IsUuid(parts[2]) || !util::IsUuid(parts[4])) return garbled;
  if (parts[1] != KindTag(kind) || parts[2] != parent_id) {
    return Status(Code::kNotFound, "cursor belongs to another list", std::string(kCursorNotFound));
  }
  return CursorPosition{*at, parts[4]};
}

}  // namespace service::domain::applications
