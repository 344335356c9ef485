// The application registry and first-capture receipts (Spec 2 "Application
// registry", "Applications", "States and transitions": installation capture
// status; contract "Capture identity"): the pure rules.
//
//  - Field rules of the three create bodies (strict objects; see Parse*).
//  - When two bodies under one requestId are "the same" (SameRequest): the
//    normalised fields compared, so a retry that spells a digest in upper
//    case is the same request.
//  - Which accepted capture creates an installation's receipt
//    (DecideReceipt): exactly the managed identities of Spec 2.
//  - The list cursor: opaque text naming its list (kind and parent id) and
//    the last row's position; garbled text is 400 INVALID_CURSOR, another
//    list's cursor 404 CURSOR_NOT_FOUND.
//
// Pure functions of their arguments; safe from any thread.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "areas/capture/domain/capture_identity.h"
#include "service/status.h"

namespace service::domain::applications {

// Error codes (ours; the contract names the statuses).
inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kRequestIdConflict = "REQUEST_ID_CONFLICT";  // 409: another body
inline constexpr std::string_view kIdentifierTaken = "IDENTIFIER_TAKEN";       // 409: application identifier
inline constexpr std::string_view kBuildExists = "BUILD_EXISTS";               // 409: artifact registered
inline constexpr std::string_view kInvalidCursor = "INVALID_CURSOR";           // 400
inline constexpr std::string_view kCursorNotFound = "CURSOR_NOT_FOUND";        // 404
inline constexpr std::string_view kQueryNotAllowed = "QUERY_NOT_ALLOWED";      // 400: capture-status
inline constexpr std::string_view kBodyNotAllowed = "BODY_NOT_ALLOWED";        // 400: capture-status

// Limits (characters).
inline constexpr size_t kMaxNameChars = 200;
inline constexpr size_t kMaxIdentifierChars = 255;
inline constexpr size_t kMaxLabelChars = 200;
inline constexpr size_t kMaxSourceRevisionChars = 200;
// List pages: at most 50 rows (contract); `limit` 1-50.
inline constexpr int64_t kMaxPageSize = 50;

// Capture status (Spec 2 "States and transitions").
inline constexpr std::string_view kWaiting = "waiting";
inline constexpr std::string_view kCaptureReceived = "capture_received";
inline constexpr std::string_view kEvidenceAvailable = "available";
inline constexpr std::string_view kEvidenceGone = "deleted_or_expired";

// The managed SDKs (contract "Capture identity").
inline constexpr std::string_view kBrowserSdk = "service-browser";
inline constexpr std::string_view kSwiftSdk = "service-swift";

struct ApplicationRequest {
  std::string request_id;  // lower-case UUID
  std::string name;
  std::string identifier;
};

struct InstallationRequest {
  std::string request_id;
  std::optional<std::string> label;  // absent, null: none
};

struct BuildRequest {
  std::string request_id;
  std::string source_revision;
  std::string artifact_sha256;  // 64 lower-case hex
};

// Strict bodies: a JSON object with exactly the named members (others: 400
// "Unknown field: x"). requestId: a UUID (any case; kept lower-case).
// name: 1-200 characters after trimming, no control characters. identifier:
// 1-255 characters, no white space or control characters (a bundle id, a
// package name, an origin). label: null or 1-200 characters, no control
// characters. sourceRevision: 1-200 characters, no white space or control
// characters (a commit, a tag). artifactSha256: 64 hex digits (any case;
// kept lower-case). Failures: kInvalidArgument VALIDATION_ERROR naming the
// field.
Result<ApplicationRequest> ParseApplicationRequest(const boost::json::value& body);
Result<InstallationRequest> ParseInstallationRequest(const boost::json::value& body);
Result<BuildRequest> ParseBuildRequest(const boost::json::value& body);

// A client's capture id (metadata.capture.captureId) usable to recognise
// its retries: 1-128 printable ASCII characters without white space.
bool IsUsableClientCaptureId(std::string_view id);

// Why an accepted capture does or does not create its installation's
// receipt (before the registry is asked whether the installation exists).
enum class ReceiptDecision {
  kQualifies,
  kNoIds,             // applicationId or installationId missing
  kUnknownSdk,        // sdkName not a managed SDK (or missing)
  kNoSdkVersion,      // sdkVersion missing
  kBrowserPlatform,   // service-browser with a platform other than web
  kBrowserSource,     // service-browser with a source other than automatic or user_report
  kNativeDisabled,    // service-swift while SERVICE_NATIVE_CAPTURE_RECEIPTS is off
  kNativeFramework,   // framework other than native
  kNativeRuntime,     // runtime other than swift
  kNativeSource,      // source other than handled_error or user_report (fatal captures too)
  kNativePlatformOs,  // platform/osFamily other than ios/ios or other/macos
};

// `platform`: the occurrence's platform. Every comparison is exact
// (case-sensitive): a legacy capture without source (null) never
// qualifies.
ReceiptDecision DecideReceipt(const domain::capture::CaptureIdentity& identity, std::string_view platform,
                              bool native_receipts_enabled);
std::string_view ReceiptDecisionName(ReceiptDecision d);

// List cursors.
enum class ListKind { kApplications, kInstallations, kBuilds };
struct CursorPosition {
  int64_t created_at = 0;
  std::string id;
};
// Opaque text for the row after which the next page of list (`kind`,
// `parent_id`: the project for applications, the application otherwise)
// starts.
std::string EncodeCursor(ListKind kind, std::string_view parent_id, const CursorPosition& after);
// The position in `cursor`: kInvalidArgument INVALID_CURSOR when it is not
// one of ours (garbled, too long), kNotFound CURSOR_NOT_FOUND when it
// belongs to another list.
Result<CursorPosition> DecodeCursor(ListKind kind, std::string_view parent_id, std::string_view cursor);

}  // namespace service::domain::applications
