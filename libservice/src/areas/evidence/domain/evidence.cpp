#include "areas/evidence/domain/evidence.h"

#include <initializer_list>

#include "util/strings.h"
#include "util/time.h"

namespace service::domain::evidence {
namespace {

namespace json = boost::json;

void AddError(json::array& details, std::string_view field, std::string_view message) {
  details.push_back(json::object{{"field", field}, {"message", message}});
}

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

Status Coded(Code code, std::string message, std::string_view error_code) {
  return Status(code, std::move(message), std::string(error_code));
}

// An integer in [min, max] from query text (digits only).
std::optional<int64_t> BoundedInt(const std::string& text, int64_t min, int64_t max) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const int64_t n = std::stoll(text);
  if (n < min || n > max) return std::nullopt;
  return n;
}

}  // namespace

const Format* FindFormat(std::string_view kind, std::string_view content_type) {
  for (const Format& f : kFormats) {
    if (f.kind == kind && f.content_type == content_type) return &f;
  }
  return nullptr;
}

Result<ReserveInput> ParseReserveInput(const json::value& body) {
  json::array details;
  if (!body.is_object()) {
    AddError(details, "body", "must be a JSON object");
    return ValidationError(std::move(details));
  }
  const json::object& o = body.get_object();
  static const std::initializer_list<std::string_view> kKnown = {"kind",   "contentType",  "byteCount",
                                                                 "sha256", "occurrenceId", "redaction"};
  for (const auto& kv : o) {
    bool known = false;
    for (std::string_view k : kKnown) known = known || kv.key() == k;
    if (!known) AddError(details, kv.key(), "is not a known field");
  }
  auto text = [&](std::string_view field) -> std::optional<std::string> {
    auto it = o.find(field);
    if (it == o.end() || it->value().is_null()) {
      AddError(details, field, "is required");
      return std::nullopt;
    }
    if (!it->value().is_string()) {
      AddError(details, field, "must be a string");
      return std::nullopt;
    }
    return std::string(it->value().get_string());
  };
  ReserveInput in;
  const std::optional<std::string> kind = text("kind");
  const std::optional<std::string> type = text("contentType");
  const Format* format = nullptr;
  if (kind && type) {
    format = FindFormat(*kind, *type);
    if (format == nullptr) {
      bool kind_known = false;
      for (const Format& f : kFormats) kind_known = kind_known || f.kind == *kind;
      if (!kind_known) {
        AddError(details, "kind", "must be log or replay");
      } else {
        AddError(details, "contentType",
                 "is not admitted for this kind (log: text/plain, replay: application/json)");
      }
    } else {
      in.kind = *kind;
      in.content_type = *type;
    }
  }
  if (auto it = o.find("byteCount"); it == o.end() || it->value().is_null()) {
    AddError(details, "byteCount", "is required");
  } else {
    const json::value& v = it->value();
    std::optional<int64_t> n;
    if (v.is_int64()) n = v.get_int64();
    if (v.is_uint64() && v.get_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
      n = static_cast<int64_t>(v.get_uint64());
    }
    if (v.is_double()) {
      const double d = v.get_double();
      if (d >= 1 && d <= 1e15 && d == static_cast<double>(static_cast<int64_t>(d)))
        n = static_cast<int64_t>(d);
    }
    const uint64_t max = format ? format->max_bytes : kMaxUploadBytes;
    if (!n) {
      AddError(details, "byteCount", "must be an integer");
    } else if (*n < 1 || static_cast<uint64_t>(*n) > max) {
      AddError(details, "byteCount", "must be between 1 and " + std::to_string(max));
    } else {
      in.byte_count = static_cast<uint64_t>(*n);
    }
  }
  if (const std::optional<std::string> sha = text("sha256")) {
    if (!IsHex64(*sha)) {
      AddError(details, "sha256", "must be 64 hexadecimal digits");
    } else {
      in.sha256 = util::ToLower(*sha);
    }
  }
  if (auto it = o.find("occurrenceId"); it != o.end() && !it->value().is_null()) {
    if (!it->value().is_string() || !util::IsUuid(it->value().get_string())) {
      AddError(details, "occurrenceId", "must be a UUID");
    } else {
      in.occurrence_id = util::ToLower(it->value().get_string());
    }
  }
  if (auto it = o.find("redaction"); it != o.end() && !it->value().is_null()) {
    if (!it->value().is_object()) {
      AddError(details, "redaction", "must be an object");
    } else {
      std::string serialized = json::serialize(it->value());
      if (serialized.size() > kMaxRedactionBytes) {
        AddError(details, "redaction", "must be at most " + std::to_string(kMaxRedactionBytes) + " bytes");
      } else if (serialized.find("\\u0000") != std::string::npos) {
        AddError(details, "redaction", "must not contain NUL characters");
      } else {
        in.redaction_json = std::move(serialized);
      }
    }
  }
  if (!details.empty()) return ValidationError(std::move(details));
  return in;
}

Result<ListBounds> ParseListBounds(const std::optional<std::string>& limit,
                                   const std::optional<std::string>& offset) {
  json::array details;
  ListBounds b;
  if (limit) {
    if (auto n = BoundedInt(*limit, 1, kMaxListLimit)) {
      b.limit = *n;
    } else {
      AddError(details, "limit", "must be an integer from 1 to " + std::to_string(kMaxListLimit));
    }
  }
  if (offset) {
    if (auto n = BoundedInt(*offset, 0, kMaxListOffset)) {
      b.offset = *n;
    } else {
      AddError(details, "offset", "must be an integer from 0 to " + std::to_string(kMaxListOffset));
    }
  }
  if (!details.empty()) return ValidationError(std::move(details));
  return b;
}

std::string_view EffectiveState(std::string_view state, int64_t expires_at_ms, int64_t now_ms) {
  if ((state == kReserved || state == kReady) && expires_at_ms <= now_ms) return kExpired;
  if (state == kReserved) return kReserved;
  if (state == kReady) return kReady;
  if (state == kDeleted) return kDeleted;
  return kExpired;
}

json::object ArtifactJson(const ArtifactView& a) {
  json::value redaction = nullptr;
  if (!a.redaction_json.empty()) {
    boost::system::error_code ec;
    json::value parsed = json::parse(a.redaction_json, ec);
    if (!ec && parsed.is_object()) redaction = std::move(parsed);
  }
  return json::object{
      {"id", a.id},
      {"artifactId", a.id},
      {"projectId", a.project_id},
      {"occurrenceId", a.occurrence_id ? json::value(*a.occurrence_id) : json::value(nullptr)},
      {"kind", a.kind},
      {"contentType", a.content_type},
      {"format", json::object{{"kind", a.kind}, {"contentType", a.content_type}}},
      {"byteCount", a.byte_count},
      {"sha256", a.sha256},
      {"state", a.state},
      {"generation", a.generation},
      {"createdAt", util::FormatIso8601(a.created_at)},
      {"expiresAt", util::FormatIso8601(a.expires_at)},
      {"redaction", std::move(redaction)},
  };
}

std::string FileName(const ArtifactView& a) {
  std::string_view ext = "bin";
  for (const Format& f : kFormats) {
    if (f.kind == a.kind) ext = f.extension;
  }
  return a.id + "." + std::string(ext);
}

Status ValidationError(json::array details) {
  return Status(Code::kInvalidArgument, "Validation failed", std::string(kValidationError),
                json::serialize(json::object{{"details", std::move(details)}}));
}
Status ScopeRequired(std::string_view scope) {
  return Coded(Code::kPermissionDenied, "This token lacks the scope " + std::string(scope), kScopeRequired);
}
Status ProjectGrantRequired() {
  return Coded(Code::kPermissionDenied, "This token has no grant for the project", kProjectGrantRequired);
}
Status StorageUnavailable() {
  return Status::Public(Code::kUnavailable, "Evidence storage is not configured",
                        std::string(kStorageUnavailable));
}
Status Mismatch(std::string message) { return Coded(Code::kInvalidArgument, std::move(message), kMismatch); }

}  // namespace service::domain::evidence
