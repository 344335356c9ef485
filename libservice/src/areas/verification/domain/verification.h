// Verification (Spec 2 "Runner and device enrollment", the verification
// rows of "Agent work"; README "Verification"): the pure rules.
//
// Runners are enrolled by organization admins with an Ed25519 public key
// (never a private key, never another key type), a trust level (`ci`,
// `device_lab`) and the runtimes they may measure. Devices belong to a
// runner, an application and one of its installations. An agent token with
// `submit_verification` asks a challenge for a live lease it holds, runs the
// tests (through a runner) and submits the measured submission; the runner
// signs the submission's canonical JSON (RFC 8785, canonical_json.h) with
// its key. Unsigned attempts stay `pending`; signed ones are `verified`
// (every test passed or skipped, at least one passed) or `failed`.
//
// Also here: the strict parsing of every body (unknown fields, wrong types
// and bad values are each listed: 400 VALIDATION_ERROR with details), the
// key and signature checks (OpenSSL EVP), a receipt's applicability, the
// coverage a promotion needs, and the error statuses with their codes.
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

namespace service::domain::verification {

// Scopes (Spec 2 "Authentication" 2).
inline constexpr std::string_view kSubmitScope = "submit_verification";
inline constexpr std::string_view kReadScope = "read_verification";
inline constexpr std::string_view kEvidenceScope = "request_evidence";

// The runtimes a runner may measure and a device runs (README
// "Verification": web browsers, Node.js, Apple iOS and macOS, Android,
// Linux and Windows desktops).
inline constexpr std::string_view kRuntimes[] = {"web",     "node",  "ios",    "macos",
                                                 "android", "linux", "windows"};
bool IsKnownRuntime(std::string_view runtime);
// The runtime a capture's managed identity (metadata.capture) was observed
// on, in the vocabulary above: platform `web` or runtime `browser` or
// `javascript` -> web (whatever the browser's OS), runtime `node` -> node,
// else osFamily ios, macos, android, linux or windows; else "" (a target
// no receipt can cover).
std::string RuntimeOfCapture(std::string_view platform, std::string_view runtime, std::string_view os_family);

inline constexpr std::string_view kTrustCi = "ci";
inline constexpr std::string_view kTrustDeviceLab = "device_lab";

// Receipt statuses.
inline constexpr std::string_view kPending = "pending";
inline constexpr std::string_view kVerified = "verified";
inline constexpr std::string_view kFailed = "failed";

// Test outcomes.
inline constexpr std::string_view kPassed = "passed";
inline constexpr std::string_view kTestFailed = "failed";
inline constexpr std::string_view kSkipped = "skipped";

// Limits.
inline constexpr size_t kMaxNameLength = 100;
inline constexpr size_t kMaxPemBytes = 4096;
inline constexpr size_t kMaxTests = 200;
inline constexpr size_t kMaxTestNameLength = 200;
inline constexpr size_t kMaxListItems = 50;  // receiptIds, targetBuilds, evidenceIds
inline constexpr int64_t kChallengeTtlMs = 15 * 60 * 1000;
// How far measuredAt may lie before the challenge or after the server's now.
inline constexpr int64_t kClockSkewMs = 5 * 60 * 1000;

// Error codes (README "Verification", codes table).
inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kPrivateKeyRefused = "PRIVATE_KEY_REFUSED";
inline constexpr std::string_view kPublicKeyInvalid = "PUBLIC_KEY_INVALID";
inline constexpr std::string_view kKeyTypeUnsupported = "KEY_TYPE_UNSUPPORTED";
inline constexpr std::string_view kPhysicalDeviceUnconfirmed = "PHYSICAL_DEVICE_UNCONFIRMED";

// ---- Keys and signatures (OpenSSL EVP) ----

struct RunnerKey {
  std::string pem;          // the SubjectPublicKeyInfo PEM as OpenSSL writes it
  std::string raw;          // the 32-byte Ed25519 public key
  std::string fingerprint;  // "SHA256:" + hex SHA-256 of `raw`
};
// One PEM "PUBLIC KEY" block (surrounding whitespace allowed) holding an
// Ed25519 key. A PEM private key of any kind: 400 PRIVATE_KEY_REFUSED; not
// one parsable public key block: 400 PUBLIC_KEY_INVALID; an RSA, EC or
// other key: 400 KEY_TYPE_UNSUPPORTED.
Result<RunnerKey> ParseRunnerPublicKey(std::string_view pem);
// True when `signature` (64 bytes) is `raw_public_key`'s Ed25519 signature
// of `message` (EVP_DigestVerify with no digest, RFC 8032 pure Ed25519).
bool VerifyEd25519(std::string_view raw_public_key, std::string_view message, std::string_view signature);

// ---- Bodies ----

struct RunnerInput {
  std::string command_id, project_id, name, public_key_pem, trust_level;
  std::vector<std::string> allowed_runtimes;  // distinct, known
};
struct DeviceInput {
  std::string command_id, project_id, name, runner_id, application_id, installation_id, runtime,
      device_identifier_sha256, os_version;
  bool physical_device_confirmed = false;
};
struct RevokeInput {
  std::string command_id, project_id, id;  // runnerId or deviceId
};
// The lease fields (challenge, promote).
struct LeaseFields {
  std::string command_id, project_id, issue_id, claim_id;
  int64_t generation = 0, fencing_token = 0;
};
struct TestOutcome {
  std::string name, outcome;
};
// The measured submission (README "Verification": the signed fields).
struct Submission {
  std::string challenge_id, nonce, project_id, issue_id, application_id, build_id, artifact_sha256, runtime;
  std::optional<std::string> device_id;
  std::vector<TestOutcome> tests;
  int64_t measured_at = 0;                // ms, from the ISO 8601 text
  std::vector<std::string> evidence_ids;  // optional
};
struct ReceiptInput {
  std::string command_id, project_id, issue_id;
  Submission submission;
  std::string canonical;  // CanonicalJson(submission object as sent): the signed bytes
  // The runner's proof, when present.
  std::optional<std::string> runner_id;
  std::string signature;  // raw bytes (decoded base64)
};
struct PromoteInput {
  LeaseFields lease;
  std::vector<std::string> target_builds;  // distinct build ids
  std::vector<std::string> receipt_ids;    // distinct receipt ids
};

Result<RunnerInput> ParseRunnerInput(const boost::json::value& body);
Result<DeviceInput> ParseDeviceInput(const boost::json::value& body);
// `id_field`: "runnerId" or "deviceId".
Result<RevokeInput> ParseRevokeInput(const boost::json::value& body, std::string_view id_field);
Result<LeaseFields> ParseChallengeInput(const boost::json::value& body);
Result<ReceiptInput> ParseReceiptInput(const boost::json::value& body);
Result<PromoteInput> ParsePromoteInput(const boost::json::value& body);

// The fingerprint of a command's input for the command log (kind, caller
// and the body's canonical JSON).
std::string CommandFingerprint(std::string_view kind, const std::string& caller_id,
                               const boost::json::value& body);

// `verified` when every outcome is passed or skipped and one passed, else
// `failed`.
std::string_view SignedStatus(const std::vector<TestOutcome>& tests);

// ---- Applicability ----

// What decides whether a receipt is still current (README
// "Verification"): in this order, its runner revoked, its issue regrouped
// (merged into another or another merged into it), the issue seen again
// after the receipt (a recurrence), one of its evidence artifacts no longer
// ready.
struct ReceiptFacts {
  bool runner_revoked = false;
  bool regrouped = false;
  bool issue_gone = false;  // the issue no longer exists (deleted)
  int64_t occurrences_at_receipt = 0;
  int64_t occurrences_now = 0;
  bool evidence_revoked = false;
};
struct Applicability {
  std::string state;  // "current" or "historical"
  std::optional<std::string>
      reason;  // runner_revoked, regrouped, issue_deleted, recurrence, evidence_revoked
};
Applicability ApplicabilityOf(const ReceiptFacts& f);
boost::json::object ApplicabilityJson(const Applicability& a);

// ---- Errors ----

Status ValidationError(boost::json::array details);
Status Coded(Code code, std::string message, std::string_view error_code, std::string payload_json = {});

}  // namespace service::domain::verification
