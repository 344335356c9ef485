// Evidence artifacts (Spec 2 "Evidence artifact", "Evidence"; server contract
// "Evidence"): the pure rules. An artifact is a file a client attaches to an
// occurrence (a log or a replay): it is reserved first (kind, content type,
// exact byte count, SHA-256), then its exact bytes are uploaded once, then it
// is `ready` until it expires or is deleted.
//
// States: reserved -> ready (upload of the exact bytes) -> expired (the
// retention ran out) or deleted (a person removed it); reserved -> expired
// (not uploaded within kReservationTtlMs). `generation` starts at 1 and
// grows by one with every change of the artifact (upload, attachment to an
// occurrence, expiry, deletion). A reserved or ready artifact past its
// expiry reads as expired before the sweep writes it.
//
// Also here: the strict parsing of the reservation body, the listing's
// bounds, and the JSON an artifact is shown as (never its storage key or
// its uploader).
//
// Pure functions of their arguments; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::domain::evidence {

// Spec 2 "Versioning" 3.
inline constexpr int kSchemaVersion = 1;

// Spec 2 "Limits": evidence log 1 MiB, replay 10 MiB.
inline constexpr uint64_t kMaxLogBytes = 1024 * 1024;
inline constexpr uint64_t kMaxReplayBytes = 10 * 1024 * 1024;
// The largest upload of any format (the upload route's body limit).
inline constexpr uint64_t kMaxUploadBytes = kMaxReplayBytes;

// One admitted format: a kind and its content type.
struct Format {
  std::string_view kind;
  std::string_view content_type;
  uint64_t max_bytes;
  std::string_view extension;  // of the downloaded file's name
};
// Admitted: kind `log` as text/plain (1 MiB), kind `replay` as
// application/json (10 MiB). Images and audio are not.
inline constexpr Format kFormats[] = {
    {"log", "text/plain", kMaxLogBytes, "log"},
    {"replay", "application/json", kMaxReplayBytes, "json"},
};
// The admitted format of (kind, content type), exact lower-case names; null
// when the pair is not admitted.
const Format* FindFormat(std::string_view kind, std::string_view content_type);

// Retention (README "Evidence"): a reservation not uploaded within 24 hours
// expires; an uploaded artifact is kept 30 days from its upload (the
// default of SERVICE_RETENTION evidence).
inline constexpr int64_t kReservationTtlMs = 24LL * 3600 * 1000;
inline constexpr int64_t kRetentionMs = 30LL * 24 * 3600 * 1000;

// Spec 2 "Limits": occurrence list limit 1-100, offset 0-10000.
inline constexpr int64_t kDefaultListLimit = 20;
inline constexpr int64_t kMaxListLimit = 100;
inline constexpr int64_t kMaxListOffset = 10'000;

// The client's redaction declaration: a JSON object of at most this many
// bytes (serialized).
inline constexpr size_t kMaxRedactionBytes = 4096;
// Evidence ids an ingest may name in metadata.evidence (more are ignored).
inline constexpr size_t kMaxAttachIds = 20;

// Scopes of agent tokens (Spec 2 "Evidence").
inline constexpr std::string_view kCreateBugScope = "create_bug";
inline constexpr std::string_view kReproContextScope = "get_repro_context";

// States.
inline constexpr std::string_view kReserved = "reserved";
inline constexpr std::string_view kReady = "ready";
inline constexpr std::string_view kDeleted = "deleted";
inline constexpr std::string_view kExpired = "expired";

// Error codes.
inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kMismatch = "EVIDENCE_MISMATCH";
inline constexpr std::string_view kAlreadyUploaded = "EVIDENCE_ALREADY_UPLOADED";
inline constexpr std::string_view kNotUploadable = "EVIDENCE_NOT_UPLOADABLE";
inline constexpr std::string_view kScopeRequired = "SCOPE_REQUIRED";
inline constexpr std::string_view kProjectGrantRequired = "PROJECT_GRANT_REQUIRED";
inline constexpr std::string_view kStorageUnavailable = "storage_unavailable";

// POST /v1/evidence/projects/:projectId/artifacts: {kind, contentType,
// byteCount, sha256, occurrenceId?, redaction?}.
struct ReserveInput {
  std::string kind;
  std::string content_type;
  uint64_t byte_count = 0;
  std::string sha256;                        // lower-cased
  std::optional<std::string> occurrence_id;  // lower-cased UUID
  std::string redaction_json;                // serialized object, "" when absent or null
};
// Strict parsing: a JSON object with only these fields; kind and
// contentType an admitted pair; byteCount an integer 1..the format's
// maximum; sha256 64 hex digits; occurrenceId a UUID; redaction an object
// of at most kMaxRedactionBytes. Every problem is listed: kInvalidArgument
// "Validation failed", code VALIDATION_ERROR, `details[{field, message}]`.
Result<ReserveInput> ParseReserveInput(const boost::json::value& body);

// ?limit=&offset= of the occurrence listing (absent: 20 and 0); text that is
// not an integer in bounds is VALIDATION_ERROR naming the field.
struct ListBounds {
  int64_t limit = kDefaultListLimit;
  int64_t offset = 0;
};
Result<ListBounds> ParseListBounds(const std::optional<std::string>& limit,
                                   const std::optional<std::string>& offset);

// The state an artifact reads as at `now_ms`: reserved or ready past its
// expiry is expired.
std::string_view EffectiveState(std::string_view state, int64_t expires_at_ms, int64_t now_ms);

// An artifact as the API shows it.
struct ArtifactView {
  std::string id;
  std::string project_id;
  std::optional<std::string> occurrence_id;
  std::string kind;
  std::string content_type;
  uint64_t byte_count = 0;
  std::string sha256;
  std::string state;  // effective
  int64_t generation = 1;
  int64_t created_at = 0;      // Unix ms
  int64_t expires_at = 0;      // Unix ms
  std::string redaction_json;  // "" when none
};
// {id, artifactId, projectId, occurrenceId|null, kind, contentType,
// format{kind, contentType}, byteCount, sha256, state, generation,
// createdAt, expiresAt (ISO 8601), redaction|null}.
boost::json::object ArtifactJson(const ArtifactView& a);

// The download's file name: "<id>.log" or "<id>.json".
std::string FileName(const ArtifactView& a);

// Failures with the codes above.
Status ValidationError(boost::json::array details);
Status ScopeRequired(std::string_view scope);
Status ProjectGrantRequired();
Status StorageUnavailable();
Status Mismatch(std::string message);

}  // namespace service::domain::evidence
